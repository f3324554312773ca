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
#include <utility>

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

  if (S.Steps.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    return "schedule: " + std::to_string(S.Steps.size()) +
           " steps, more than the validator can index";
  // The step that sends each message, -1 before. Processes are numbered
  // by their own numbers where these are dense enough, so that the loop
  // below reads them from the message itself; otherwise densely, from
  // DenseSrc and DenseDst.
  std::vector<int32_t> StepOf(static_cast<size_t>(NumMessages), -1);
  std::vector<int32_t> DenseSrc, DenseDst;
  size_t NumSrc = 0, NumDst = 0;
  const bool Direct = numberedDirectly(G, NumMessages);
  if (Direct) {
    NumSrc = static_cast<size_t>(G.P);
    NumDst = static_cast<size_t>(G.Q);
  } else {
    NumSrc = detail::denseIds(
                 NumMessages, [&](int64_t Id) { return G.Messages[Id].Src; },
                 G.P, DenseSrc)
                 .size();
    NumDst = detail::denseIds(
                 NumMessages, [&](int64_t Id) { return G.Messages[Id].Dst; },
                 G.Q, DenseDst)
                 .size();
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
      int32_t &Sent = StepOf[static_cast<size_t>(Id)];
      if (Sent == Step)
        return Where() + describe(G, Id) + " appears twice";
      if (Sent >= 0)
        return Where() + describe(G, Id) + " was already sent in step " +
               std::to_string(Sent);
      const Message &M = G.Messages[Id];
      const size_t Src = static_cast<size_t>(Direct ? M.Src : DenseSrc[Id]),
                   Dst = static_cast<size_t>(Direct ? M.Dst : DenseDst[Id]);
      if (SendStep[Src] == Step)
        return Where() + "process " + std::to_string(M.Src) +
               " sends twice: " + describe(G, SendBy[Src]) + " and " +
               describe(G, Id);
      if (RecvStep[Dst] == Step)
        return Where() + "process " + std::to_string(M.Dst) +
               " receives twice: " + describe(G, RecvBy[Dst]) + " and " +
               describe(G, Id);
      Sent = static_cast<int32_t>(Step);
      SendStep[Src] = RecvStep[Dst] = Step;
      SendBy[Src] = RecvBy[Dst] = Id;
    }
  }
  for (int64_t Id = 0; Id < NumMessages; ++Id)
    if (StepOf[static_cast<size_t>(Id)] < 0)
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

/// The ranks of message Id's source and target, B being measureGrid(G).
std::pair<int32_t, int32_t> ranksOf(const CommGrid &G, const GridBounds &B,
                                    int64_t Id) {
  if (B.RankOf.empty()) {
    const Message &M = G.Messages[static_cast<size_t>(Id)];
    return {static_cast<int32_t>(M.Src), static_cast<int32_t>(M.Dst)};
  }
  return {B.RankOf[2 * Id], B.RankOf[2 * Id + 1]};
}

} // namespace

GridBounds measureGrid(const CommGrid &G) {
  GridBounds B;
  const int64_t M = static_cast<int64_t>(G.Messages.size());
  std::vector<int64_t> Sends, Recvs;
  auto CountCritical = [&](int64_t Src, int64_t Dst) {
    if (Src != Dst)
      B.CriticalLowerBound =
          std::max({B.CriticalLowerBound, ++Sends[Src], ++Recvs[Dst]});
  };
  if (numberedDirectly(G, M)) {
    // One pass: degrees, volumes and local-copy-free counts by process
    // number, each rank being its own number.
    std::vector<int64_t> Degree(static_cast<size_t>(G.P + G.Q), 0),
        Volume(Degree.size(), 0);
    B.Ranks = static_cast<size_t>(std::max(G.P, G.Q));
    Sends.assign(B.Ranks, 0);
    Recvs.assign(B.Ranks, 0);
    for (const Message &Msg : G.Messages) {
      ++Degree[Msg.Src];
      Volume[Msg.Src] += Msg.Len;
      ++Degree[G.P + Msg.Dst];
      Volume[G.P + Msg.Dst] += Msg.Len;
      CountCritical(Msg.Src, Msg.Dst);
    }
    for (size_t V = 0; V < Degree.size(); ++V) {
      B.StepsLowerBound = std::max(B.StepsLowerBound, Degree[V]);
      B.CostLowerBound = std::max(B.CostLowerBound, Volume[V]);
    }
    return B;
  }
  measureDegrees(G, B);
  Sends.assign(B.Ranks, 0);
  Recvs.assign(B.Ranks, 0);
  for (int64_t Id = 0; Id < M; ++Id)
    CountCritical(B.RankOf[2 * Id], B.RankOf[2 * Id + 1]);
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
      const auto [Src, Dst] = ranksOf(G, B, Id);
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
