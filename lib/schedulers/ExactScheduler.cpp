//===- ExactScheduler.cpp - Minimum-cost schedules by exhaustive search ---===//
//
// The reference for the GEN_BLOCK schedulers' tests, independent of the
// chain structure they exploit: it works on any grid; mincost runs it, with
// its best cost as the incumbent, on grids of up to 40 messages. Messages
// are taken by non-increasing length; each goes into an open step where
// neither of its processes is busy, or opens a new step (while fewer than
// the step cap are open), which then costs its length: no later message is
// longer.
//
// Why it is exact. Complete: number the steps of any valid schedule by the
// first of their messages in that order; the search reaches it by opening
// a step at each such first message and joining the others, and charges
// each step its first, longest, message: its true cost. So steps are
// opened by non-increasing cost, and the Open steps so far are the Open
// most expensive, T[0] >= ... >= T[Open - 1], of the final schedule. The
// cuts discard only branches that cannot beat the best so far:
//  - L[i] = rankedLengthBounds: every schedule has T[i] >= L[i] for i below
//    the maximum degree D, and at least D steps. Steps Open..D-1 are still
//    to open, so any completion costs at least Cost + sum of those L[i]; a
//    branch at or above the best (or the incumbent) is cut.
//  - The next step opened costs at most this message's length: below
//    L[Open] (with Open < D), no completion exists.
//  - With every allowed step open, an unplaced message whose two processes
//    together are busy in all of them can never be placed.
//
//===----------------------------------------------------------------------===//

#include "GenBlockSchedulers.h"

#include "redist/Error.h"

#include <algorithm>
#include <limits>

namespace redist {
namespace detail {

namespace {

class ExactSearch {
public:
  ExactSearch(const CommGrid &G, int64_t StepCap, int64_t NodeBudget,
              int64_t Incumbent)
      : G(G), N(static_cast<int64_t>(G.Messages.size())),
        NodeBudget(NodeBudget), SrcBusy(G.P, 0), DstBusy(G.Q, 0), StepOf(N, -1),
        Incumbent(Incumbent), BestCost(Incumbent) {
    std::vector<std::vector<int64_t>> BySrc(G.P), ByDst(G.Q);
    for (int64_t I = 0; I < N; ++I) {
      const Message &M = G.Messages[I];
      if (M.Src < 0 || M.Src >= G.P || M.Dst < 0 || M.Dst >= G.Q)
        throw InvalidArgument("message " + std::to_string(I) + " (" +
                              std::to_string(M.Src) + " -> " +
                              std::to_string(M.Dst) +
                              ") names a process outside the grid");
      BySrc[G.Messages[I].Src].push_back(I);
      ByDst[G.Messages[I].Dst].push_back(I);
    }
    for (const auto *Groups : {&BySrc, &ByDst})
      for (const std::vector<int64_t> &Ids : *Groups)
        Degree = std::max(Degree, static_cast<int64_t>(Ids.size()));
    // More steps than messages are never needed.
    MaxSteps = std::min(StepCap, N);
    if (MaxSteps > 64)
      throw InvalidArgument("the exact scheduler handles at most 64 steps; "
                            "this grid would need " +
                            std::to_string(MaxSteps));
    Bound = rankedLengthBounds(G);
    TailBound.assign(Degree + 1, 0);
    for (int64_t I = Degree - 1; I >= 0; --I)
      TailBound[I] = TailBound[I + 1] + Bound[I];
    // Neighbours: the other messages of the same sender or receiver.
    Neighbours.resize(N);
    for (int64_t I = 0; I < N; ++I) {
      for (int64_t J : BySrc[G.Messages[I].Src])
        if (J != I)
          Neighbours[I].push_back(J);
      for (int64_t J : ByDst[G.Messages[I].Dst])
        if (J != I)
          Neighbours[I].push_back(J);
    }
    for (int64_t I = 0; I < N; ++I)
      Order.push_back(I);
    std::stable_sort(Order.begin(), Order.end(), [&](int64_t A, int64_t B) {
      return G.Messages[A].Len > G.Messages[B].Len;
    });
  }

  ExactOutcome run() {
    ExactOutcome Out;
    if (MaxSteps >= Degree)
      search(0, 0); // with no message, records the empty schedule
    Out.Complete = Nodes <= NodeBudget;
    Out.Nodes = std::min(Nodes, NodeBudget);
    if (BestCost >= Incumbent)
      return Out; // nothing cheaper than the incumbent
    Schedule S;
    S.Algorithm = "exact";
    S.Steps.assign(BestSteps, {});
    for (int64_t I = 0; I < N; ++I)
      S.Steps[BestStepOf[I]].push_back(I);
    Out.Best = std::move(S);
    return Out;
  }

private:
  uint64_t busy(int64_t Id) const {
    const Message &M = G.Messages[Id];
    return SrcBusy[M.Src] | DstBusy[M.Dst];
  }

  void setStep(int64_t Id, int64_t Step) {
    const Message &M = G.Messages[Id];
    uint64_t Bit = uint64_t(1) << Step;
    SrcBusy[M.Src] ^= Bit;
    DstBusy[M.Dst] ^= Bit;
    StepOf[Id] = StepOf[Id] < 0 ? Step : -1;
  }

  // With all MaxSteps steps open, whether a neighbour of Id is stuck.
  bool neighbourStuck(int64_t Id) const {
    if (Open < MaxSteps)
      return false;
    uint64_t All =
        MaxSteps == 64 ? ~uint64_t(0) : (uint64_t(1) << MaxSteps) - 1;
    for (int64_t J : Neighbours[Id])
      if (StepOf[J] < 0 && (busy(J) & All) == All)
        return true;
    return false;
  }

  void search(int64_t Pos, int64_t Cost) {
    if (++Nodes > NodeBudget)
      return;
    int64_t Still = Open < Degree ? TailBound[Open] : 0;
    if (Cost + Still >= BestCost)
      return;
    if (Pos == N) {
      BestCost = Cost;
      BestSteps = Open;
      BestStepOf = StepOf;
      return;
    }
    int64_t Id = Order[Pos];
    int64_t Len = G.Messages[Id].Len;
    // Steps still to open must each cost at least Bound[Open], and no later
    // message is longer than this one.
    if (Open < Degree && Len < Bound[Open])
      return;
    uint64_t Busy = busy(Id);
    for (int64_t Step = 0; Step < Open; ++Step) {
      if (Busy >> Step & 1)
        continue;
      setStep(Id, Step);
      if (!neighbourStuck(Id))
        search(Pos + 1, Cost);
      setStep(Id, Step);
      if (Nodes > NodeBudget)
        return;
    }
    if (Open < MaxSteps) {
      int64_t Step = Open++;
      setStep(Id, Step);
      if (!neighbourStuck(Id))
        search(Pos + 1, Cost + Len);
      setStep(Id, Step);
      --Open;
    }
  }

  const CommGrid &G;
  const int64_t N;
  const int64_t NodeBudget;
  int64_t Degree = 0;
  int64_t MaxSteps = 0;
  std::vector<int64_t> Bound, TailBound;
  std::vector<std::vector<int64_t>> Neighbours;
  std::vector<int64_t> Order;
  std::vector<uint64_t> SrcBusy, DstBusy; // steps each process is busy in
  std::vector<int64_t> StepOf;
  const int64_t Incumbent;
  int64_t Open = 0;
  int64_t Nodes = 0;
  int64_t BestCost;
  int64_t BestSteps = 0;
  std::vector<int64_t> BestStepOf;
};

} // namespace

std::vector<int64_t> rankedLengthBounds(const CommGrid &G) {
  // Each process's lengths, longest first: sort (process, -length) pairs,
  // sources and targets apart. O(messages log messages), whatever P and Q.
  std::vector<int64_t> Bound;
  for (bool BySource : {true, false}) {
    std::vector<std::pair<int64_t, int64_t>> Ends;
    for (const Message &M : G.Messages)
      Ends.emplace_back(BySource ? M.Src : M.Dst, -M.Len);
    std::sort(Ends.begin(), Ends.end());
    size_t Rank = 0;
    for (size_t I = 0; I < Ends.size(); ++I) {
      Rank = I > 0 && Ends[I].first == Ends[I - 1].first ? Rank + 1 : 0;
      if (Rank == Bound.size())
        Bound.push_back(0);
      Bound[Rank] = std::max(Bound[Rank], -Ends[I].second);
    }
  }
  return Bound;
}

ExactOutcome searchExact(const CommGrid &G, int64_t MaxSteps,
                         int64_t NodeBudget, int64_t Incumbent) {
  return ExactSearch(G, MaxSteps, NodeBudget, Incumbent).run();
}

std::optional<Schedule> scheduleExact(const CommGrid &G, StepLimit Limit,
                                      int64_t NodeBudget) {
  const int64_t Steps = Limit == StepLimit::MaxDegree
                            ? G.maxDegree()
                            : static_cast<int64_t>(G.Messages.size());
  ExactOutcome Out =
      searchExact(G, Steps, NodeBudget, std::numeric_limits<int64_t>::max());
  if (!Out.Complete)
    return std::nullopt;
  return std::move(Out.Best);
}

} // namespace detail
} // namespace redist
