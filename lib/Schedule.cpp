//===- Schedule.cpp - Checking and measuring schedules --------------------===//
//
// validateSchedule walks the steps once, in order, so that the problem it
// reports is the first one a reader of the schedule would meet. Per-process
// "last step seen" stamps make each step check O(messages of the step);
// processes are renumbered densely so that memory stays O(messages) even
// for a handful of messages among 10^9 processes.
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

  std::vector<int32_t> SrcOf, DstOf;
  const size_t NumSrc =
      detail::denseIds(
          NumMessages, [&](int64_t Id) { return G.Messages[Id].Src; }, G.P,
          SrcOf)
          .size();
  const size_t NumDst =
      detail::denseIds(
          NumMessages, [&](int64_t Id) { return G.Messages[Id].Dst; }, G.Q,
          DstOf)
          .size();

  std::vector<int64_t> StepOf(NumMessages, -1);
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
      if (StepOf[Id] == Step)
        return Where() + describe(G, Id) + " appears twice";
      if (StepOf[Id] >= 0)
        return Where() + describe(G, Id) + " was already sent in step " +
               std::to_string(StepOf[Id]);
      const Message &M = G.Messages[Id];
      const int32_t Src = SrcOf[Id], Dst = DstOf[Id];
      if (SendStep[Src] == Step)
        return Where() + "process " + std::to_string(M.Src) +
               " sends twice: " + describe(G, SendBy[Src]) + " and " +
               describe(G, Id);
      if (RecvStep[Dst] == Step)
        return Where() + "process " + std::to_string(M.Dst) +
               " receives twice: " + describe(G, RecvBy[Dst]) + " and " +
               describe(G, Id);
      StepOf[Id] = Step;
      SendStep[Src] = RecvStep[Dst] = Step;
      SendBy[Src] = RecvBy[Dst] = Id;
    }
  }
  for (int64_t Id = 0; Id < NumMessages; ++Id)
    if (StepOf[Id] < 0)
      return describe(G, Id) + " is in no step";
  return std::nullopt;
}

namespace {

/// ScheduleStats::CriticalMessages and CriticalLowerBound: the longest chain
/// of messages ending at each rank, extended step by step. Messages of one
/// step run at once, so each extends the chains as they stood before it.
void measureCriticalMessages(const CommGrid &G, const Schedule &S,
                             ScheduleStats &Stats) {
  const int64_t M = static_cast<int64_t>(G.Messages.size());
  std::vector<int32_t> RankOf; // message Id's source at Id, its target at M+Id
  const size_t Ranks =
      detail::denseIds(
          2 * M,
          [&](int64_t I) {
            return I < M ? G.Messages[I].Src : G.Messages[I - M].Dst;
          },
          std::max(G.P, G.Q), RankOf)
          .size();
  std::vector<int64_t> Sends(Ranks, 0), Recvs(Ranks, 0);
  for (int64_t Id = 0; Id < M; ++Id)
    if (RankOf[Id] != RankOf[M + Id]) {
      Stats.CriticalLowerBound =
          std::max({Stats.CriticalLowerBound, ++Sends[RankOf[Id]],
                    ++Recvs[RankOf[M + Id]]});
    }
  std::vector<int64_t> Chain(Ranks, 0);
  std::vector<std::pair<int64_t, int64_t>> Extended; // (message, chain)
  for (const std::vector<int64_t> &Step : S.Steps) {
    Extended.clear();
    for (int64_t Id : Step)
      if (Id >= 0 && Id < M && RankOf[Id] != RankOf[M + Id])
        Extended.emplace_back(
            Id, 1 + std::max(Chain[RankOf[Id]], Chain[RankOf[M + Id]]));
    for (const auto &[Id, Length] : Extended) {
      for (int32_t R : {RankOf[Id], RankOf[M + Id]})
        Chain[R] = std::max(Chain[R], Length);
      Stats.CriticalMessages = std::max(Stats.CriticalMessages, Length);
    }
  }
}

} // namespace

ScheduleStats measureSchedule(const CommGrid &G, const Schedule &S) {
  ScheduleStats Stats;
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  Stats.Steps = static_cast<int64_t>(S.Steps.size());
  for (const std::vector<int64_t> &Step : S.Steps) {
    int64_t Longest = 0;
    bool Any = false;
    for (int64_t Id : Step)
      if (Id >= 0 && Id < NumMessages) {
        Longest = std::max(Longest, G.Messages[Id].Len);
        Any = true;
      }
    Stats.NonEmptySteps += Any;
    Stats.Cost += Longest;
  }
  // The grid's maximum degree and volume, over the processes that appear.
  std::vector<int32_t> Dense;
  for (bool Sources : {true, false}) {
    const size_t Count =
        detail::denseIds(
            NumMessages,
            [&](int64_t Id) {
              return Sources ? G.Messages[Id].Src : G.Messages[Id].Dst;
            },
            Sources ? G.P : G.Q, Dense)
            .size();
    std::vector<int64_t> Degree(Count, 0), Volume(Count, 0);
    for (int64_t Id = 0; Id < NumMessages; ++Id) {
      Stats.StepsLowerBound =
          std::max(Stats.StepsLowerBound, ++Degree[Dense[Id]]);
      Stats.CostLowerBound = std::max(Stats.CostLowerBound,
                                      Volume[Dense[Id]] += G.Messages[Id].Len);
    }
  }
  measureCriticalMessages(G, S, Stats);
  return Stats;
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
