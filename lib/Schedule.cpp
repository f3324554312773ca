//===- Schedule.cpp - Checking and measuring schedules --------------------===//
//
// validateSchedule walks the steps once, in order, so that the problem it
// reports is the first one a reader of the schedule would meet. Per-process
// "last step seen" stamps make each step check O(messages of the step).
// Arrays are indexed by process number where there are few processes next
// to messages; otherwise the processes are renumbered densely, so that
// memory stays O(messages) even for a handful of messages among 10^9
// processes.
//
//===----------------------------------------------------------------------===//

#include "redist/Schedule.h"

#include "schedulers/DenseIds.h"

#include <algorithm>
#include <limits>
#include <string>

namespace redist {

namespace {

std::string describe(const CommGrid &G, int64_t Id) {
  const Message &M = G.Messages[Id];
  return "message " + std::to_string(Id) + " (" + std::to_string(M.Src) +
         " -> " + std::to_string(M.Dst) + ")";
}

/// Whether arrays indexed by G's process numbers cost no more memory than
/// its Messages messages (the threshold of detail::denseIds), and the
/// numbers fit 32 bits: then the measures below index by process directly
/// and skip the renumbering passes, which took most of their time.
bool numberedDirectly(const CommGrid &G, int64_t Messages) {
  const int64_t Procs = std::max(G.P, G.Q);
  return Procs <= 4 * Messages + 4096 &&
         Procs <= std::numeric_limits<int32_t>::max();
}

} // namespace

std::optional<std::string> validateSchedule(const CommGrid &G,
                                            const Schedule &S) {
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  if (NumMessages > std::numeric_limits<int32_t>::max())
    return "grid: " + std::to_string(NumMessages) +
           " messages, more than the validator can index";
  // The grid itself must make sense before the steps can be checked.
  for (int64_t Id = 0; Id < NumMessages; ++Id) {
    const Message &M = G.Messages[Id];
    if (M.Src < 0 || M.Src >= G.P)
      return "grid: " + describe(G, Id) + " has source " +
             std::to_string(M.Src) + " outside [0, " + std::to_string(G.P) +
             ")";
    if (M.Dst < 0 || M.Dst >= G.Q)
      return "grid: " + describe(G, Id) + " has target " +
             std::to_string(M.Dst) + " outside [0, " + std::to_string(G.Q) +
             ")";
  }

  // What the step loop needs of each message, in one place: a step's ids
  // are scattered over the grid, so each costs one cache miss, not three.
  struct Entry {
    int32_t Src, Dst; ///< dense process numbers
    int64_t Step;     ///< the step that sends it, -1 before
  };
  std::vector<Entry> Of(static_cast<size_t>(NumMessages));
  size_t NumSrc = 0, NumDst = 0;
  if (numberedDirectly(G, NumMessages)) {
    // Few processes next to messages: their own numbers are dense enough.
    NumSrc = static_cast<size_t>(G.P);
    NumDst = static_cast<size_t>(G.Q);
    for (int64_t Id = 0; Id < NumMessages; ++Id)
      Of[Id] = {static_cast<int32_t>(G.Messages[Id].Src),
                static_cast<int32_t>(G.Messages[Id].Dst), -1};
  } else {
    std::vector<int32_t> Dense;
    NumSrc = detail::denseIds(
                 NumMessages, [&](int64_t Id) { return G.Messages[Id].Src; },
                 G.P, Dense)
                 .size();
    for (int64_t Id = 0; Id < NumMessages; ++Id)
      Of[Id] = {Dense[Id], 0, -1};
    NumDst = detail::denseIds(
                 NumMessages, [&](int64_t Id) { return G.Messages[Id].Dst; },
                 G.Q, Dense)
                 .size();
    for (int64_t Id = 0; Id < NumMessages; ++Id)
      Of[Id].Dst = Dense[Id];
  }

  // Message sent (received) by each process in the step being checked, and
  // that step's number; stamps avoid clearing per step.
  std::vector<int64_t> SendStep(NumSrc, -1), SendBy(NumSrc, -1);
  std::vector<int64_t> RecvStep(NumDst, -1), RecvBy(NumDst, -1);
  for (int64_t Step = 0; Step < static_cast<int64_t>(S.Steps.size()); ++Step) {
    // Built only on failure: the loop runs for every message of every
    // schedule makeSchedule hands out.
    auto Where = [Step] { return "step " + std::to_string(Step) + ": "; };
    for (int64_t Id : S.Steps[Step]) {
      if (Id < 0 || Id >= NumMessages)
        return Where() + "message id " + std::to_string(Id) +
               " is out of range [0, " + std::to_string(NumMessages) + ")";
      Entry &E = Of[Id];
      if (E.Step == Step)
        return Where() + describe(G, Id) + " appears twice";
      if (E.Step >= 0)
        return Where() + describe(G, Id) + " was already sent in step " +
               std::to_string(E.Step);
      if (SendStep[E.Src] == Step)
        return Where() + "process " + std::to_string(G.Messages[Id].Src) +
               " sends twice: " + describe(G, SendBy[E.Src]) + " and " +
               describe(G, Id);
      if (RecvStep[E.Dst] == Step)
        return Where() + "process " + std::to_string(G.Messages[Id].Dst) +
               " receives twice: " + describe(G, RecvBy[E.Dst]) + " and " +
               describe(G, Id);
      E.Step = Step;
      SendStep[E.Src] = RecvStep[E.Dst] = Step;
      SendBy[E.Src] = RecvBy[E.Dst] = Id;
    }
  }
  for (int64_t Id = 0; Id < NumMessages; ++Id)
    if (Of[Id].Step < 0)
      return describe(G, Id) + " is in no step";
  return std::nullopt;
}

namespace {

/// measureGrid's bounds and ranks for grids of many processes and few
/// messages: over dense numbers of the processes that appear.
void measureDegrees(const CommGrid &G, GridBounds &B) {
  const int64_t M = static_cast<int64_t>(G.Messages.size());
  std::vector<int32_t> Dense;
  for (bool Sources : {true, false}) {
    const size_t Count =
        detail::denseIds(
            M,
            [&](int64_t Id) {
              return Sources ? G.Messages[Id].Src : G.Messages[Id].Dst;
            },
            Sources ? G.P : G.Q, Dense)
            .size();
    std::vector<int64_t> Degree(Count, 0), Volume(Count, 0);
    for (int64_t Id = 0; Id < M; ++Id) {
      B.StepsLowerBound = std::max(B.StepsLowerBound, ++Degree[Dense[Id]]);
      B.CostLowerBound =
          std::max(B.CostLowerBound, Volume[Dense[Id]] += G.Messages[Id].Len);
    }
  }
  // Ranks: source p and target p are one.
  B.Ranks = detail::denseIds(
                2 * M,
                [&](int64_t I) {
                  const Message &Msg = G.Messages[I / 2];
                  return I % 2 ? Msg.Dst : Msg.Src;
                },
                std::max(G.P, G.Q), B.RankOf)
                .size();
}

} // namespace

GridBounds measureGrid(const CommGrid &G) {
  GridBounds B;
  const int64_t M = static_cast<int64_t>(G.Messages.size());
  if (numberedDirectly(G, M)) {
    // One pass: degrees and volumes by process number, and each rank its
    // own number.
    std::vector<int64_t> Degree(static_cast<size_t>(G.P + G.Q), 0),
        Volume(Degree.size(), 0);
    B.RankOf.resize(static_cast<size_t>(2 * M));
    B.Ranks = static_cast<size_t>(std::max(G.P, G.Q));
    for (int64_t Id = 0; Id < M; ++Id) {
      const Message &Msg = G.Messages[Id];
      ++Degree[Msg.Src];
      Volume[Msg.Src] += Msg.Len;
      ++Degree[G.P + Msg.Dst];
      Volume[G.P + Msg.Dst] += Msg.Len;
      B.RankOf[2 * Id] = static_cast<int32_t>(Msg.Src);
      B.RankOf[2 * Id + 1] = static_cast<int32_t>(Msg.Dst);
    }
    for (size_t V = 0; V < Degree.size(); ++V) {
      B.StepsLowerBound = std::max(B.StepsLowerBound, Degree[V]);
      B.CostLowerBound = std::max(B.CostLowerBound, Volume[V]);
    }
  } else {
    measureDegrees(G, B);
  }
  std::vector<int64_t> Sends(B.Ranks, 0), Recvs(B.Ranks, 0);
  for (int64_t Id = 0; Id < M; ++Id) {
    const int32_t Src = B.RankOf[2 * Id], Dst = B.RankOf[2 * Id + 1];
    if (Src != Dst)
      B.CriticalLowerBound =
          std::max({B.CriticalLowerBound, ++Sends[Src], ++Recvs[Dst]});
  }
  return B;
}

ScheduleStats measureSchedule(const CommGrid &G, const GridBounds &B,
                              const Schedule &S) {
  ScheduleStats Stats;
  const int64_t M = static_cast<int64_t>(G.Messages.size());
  Stats.Steps = static_cast<int64_t>(S.Steps.size());
  Stats.StepsLowerBound = B.StepsLowerBound;
  Stats.CostLowerBound = B.CostLowerBound;
  Stats.CriticalLowerBound = B.CriticalLowerBound;
  // Cost: each step's longest message. CriticalMessages: the longest chain
  // of messages ending at each rank, extended step by step. Messages of one
  // step run at once, so each extends the chains as they stood before it.
  // One pass over each step's (scattered) messages does both.
  std::vector<int64_t> Chain(B.Ranks, 0);
  struct Extension {
    int32_t Src, Dst;
    int64_t Length;
  };
  std::vector<Extension> Extended;
  for (const std::vector<int64_t> &Step : S.Steps) {
    int64_t Longest = 0;
    bool Any = false;
    Extended.clear();
    for (int64_t Id : Step) {
      if (Id < 0 || Id >= M)
        continue;
      Longest = std::max(Longest, G.Messages[Id].Len);
      Any = true;
      const int32_t Src = B.RankOf[2 * Id], Dst = B.RankOf[2 * Id + 1];
      if (Src != Dst)
        Extended.push_back({Src, Dst, 1 + std::max(Chain[Src], Chain[Dst])});
    }
    Stats.NonEmptySteps += Any;
    Stats.Cost += Longest;
    for (const Extension &E : Extended) {
      for (int32_t R : {E.Src, E.Dst})
        Chain[R] = std::max(Chain[R], E.Length);
      Stats.CriticalMessages = std::max(Stats.CriticalMessages, E.Length);
    }
  }
  return Stats;
}

ScheduleStats measureSchedule(const CommGrid &G, const Schedule &S) {
  return measureSchedule(G, measureGrid(G), S);
}

std::vector<int64_t> stepOfEachMessage(const CommGrid &G, const Schedule &S) {
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  std::vector<int64_t> StepOf(NumMessages, -1);
  for (int64_t Step = 0; Step < static_cast<int64_t>(S.Steps.size()); ++Step)
    for (int64_t Id : S.Steps[Step])
      if (Id >= 0 && Id < NumMessages && StepOf[Id] < 0)
        StepOf[Id] = Step;
  return StepOf;
}

} // namespace redist
