//===- ExactScheduler.cpp - Minimum-cost schedules by exhaustive search ---===//
//
// The reference for the GEN_BLOCK schedulers' tests, independent of the
// chain structure they exploit: it works on any grid. Messages are taken by
// non-increasing length; each goes into an open step where neither of its
// processes is busy, or opens a new step, which then costs its length (no
// later message is longer). Branch-and-bound on the cost, with two cuts:
//  - the sorted step costs satisfy T[i] >= L[i], L[i] the largest i-th
//    longest message of one process (its i+1 longest messages need i+1
//    steps, each costing at least the (i+1)-th of them);
//  - with every step open, an unplaced message whose two processes together
//    are busy in all of them can never be placed.
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
  ExactSearch(const CommGrid &G, StepLimit Limit, int64_t NodeBudget)
      : G(G), N(static_cast<int64_t>(G.Messages.size())),
        NodeBudget(NodeBudget), SrcBusy(G.P, 0), DstBusy(G.Q, 0),
        StepOf(N, -1) {
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
    MaxSteps = Limit == StepLimit::MaxDegree ? Degree : N;
    if (MaxSteps > 64)
      throw InvalidArgument("the exact scheduler handles at most 64 steps; "
                            "this grid would need " +
                            std::to_string(MaxSteps));
    // L[i], from each process's lengths in non-increasing order.
    Bound.assign(Degree, 0);
    for (const auto *Groups : {&BySrc, &ByDst})
      for (const std::vector<int64_t> &Ids : *Groups) {
        std::vector<int64_t> Lens;
        for (int64_t Id : Ids)
          Lens.push_back(G.Messages[Id].Len);
        std::sort(Lens.rbegin(), Lens.rend());
        for (size_t I = 0; I < Lens.size(); ++I)
          Bound[I] = std::max(Bound[I], Lens[I]);
      }
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

  std::optional<Schedule> run() {
    Schedule S;
    S.Algorithm = "exact";
    if (N == 0)
      return S;
    search(0, 0);
    if (Nodes > NodeBudget)
      return std::nullopt;
    S.Steps.assign(BestSteps, {});
    for (int64_t I = 0; I < N; ++I)
      S.Steps[BestStepOf[I]].push_back(I);
    return S;
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
  int64_t Open = 0;
  int64_t Nodes = 0;
  int64_t BestCost = std::numeric_limits<int64_t>::max();
  int64_t BestSteps = 0;
  std::vector<int64_t> BestStepOf;
};

} // namespace

std::optional<Schedule> scheduleExact(const CommGrid &G, StepLimit Limit,
                                      int64_t NodeBudget) {
  return ExactSearch(G, Limit, NodeBudget).run();
}

} // namespace detail
} // namespace redist
