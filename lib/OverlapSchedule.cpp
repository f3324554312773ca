//===- OverlapSchedule.cpp - Events, their validator and the step bridge --===//

#include "redist/OverlapSchedule.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace redist {

int64_t makespanLowerBound(const CommGrid &G) { return G.maxVolume(); }

namespace {

struct Busy {
  int64_t Port;
  int64_t Start;
  int64_t End;
  int64_t Msg;
  bool operator<(const Busy &O) const {
    return std::tie(Port, Start, End, Msg) <
           std::tie(O.Port, O.Start, O.End, O.Msg);
  }
};

/// The first two intervals of one port that overlap, described, or nullopt.
std::optional<std::string> findOverlap(std::vector<Busy> &Intervals,
                                       const char *Role) {
  std::sort(Intervals.begin(), Intervals.end());
  for (size_t I = 1; I < Intervals.size(); ++I) {
    const Busy &A = Intervals[I - 1], &B = Intervals[I];
    if (A.Port == B.Port && B.Start < A.End)
      return "process " + std::to_string(A.Port) + " " + Role + " messages " +
             std::to_string(A.Msg) + " and " + std::to_string(B.Msg) +
             " at once, at time " + std::to_string(B.Start);
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> validateOverlapSchedule(const CommGrid &G,
                                                   const OverlapSchedule &S) {
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  std::vector<int64_t> Sent(G.Messages.size(), 0);
  std::vector<Busy> Sending, Receiving;
  Sending.reserve(S.Events.size());
  Receiving.reserve(S.Events.size());
  for (size_t I = 0; I < S.Events.size(); ++I) {
    const OverlapEvent &E = S.Events[I];
    const std::string Where = "event " + std::to_string(I);
    if (E.Msg < 0 || E.Msg >= NumMessages)
      return Where + ": message id " + std::to_string(E.Msg) +
             " out of range [0, " + std::to_string(NumMessages) + ")";
    if (E.Start < 0 || E.Len <= 0)
      return Where + " of message " + std::to_string(E.Msg) + ": start " +
             std::to_string(E.Start) + ", length " + std::to_string(E.Len) +
             " (need start >= 0 and length > 0)";
    const Message &M = G.Messages[E.Msg];
    if (E.Start > std::numeric_limits<int64_t>::max() - E.Len ||
        E.Len > M.Len - Sent[E.Msg])
      return "the events of message " + std::to_string(E.Msg) +
             " send more than its " + std::to_string(M.Len) + " elements";
    Sent[E.Msg] += E.Len;
    Sending.push_back({M.Src, E.Start, E.end(), E.Msg});
    Receiving.push_back({M.Dst, E.Start, E.end(), E.Msg});
  }
  for (int64_t Id = 0; Id < NumMessages; ++Id)
    if (Sent[Id] != G.Messages[Id].Len)
      return "the events of message " + std::to_string(Id) + " send " +
             std::to_string(Sent[Id]) + " of its " +
             std::to_string(G.Messages[Id].Len) + " elements";
  if (std::optional<std::string> Problem = findOverlap(Sending, "sends"))
    return Problem;
  return findOverlap(Receiving, "receives");
}

OverlapStats measureOverlapSchedule(const CommGrid &G,
                                    const OverlapSchedule &S) {
  OverlapStats Stats;
  std::vector<int64_t> EventsOf(G.Messages.size(), 0);
  for (const OverlapEvent &E : S.Events) {
    Stats.Makespan = std::max(Stats.Makespan, E.end());
    if (++EventsOf[E.Msg] == 2)
      ++Stats.SplitMessages;
  }
  Stats.Events = static_cast<int64_t>(S.Events.size());
  Stats.MakespanBound = makespanLowerBound(G);
  Stats.StepsLowerBound = G.maxDegree();
  return Stats;
}

std::vector<OverlapEvent> normalizeEvents(std::vector<OverlapEvent> Events) {
  // By message and time first, to merge; then into the schedule's order.
  std::sort(Events.begin(), Events.end(),
            [](const OverlapEvent &A, const OverlapEvent &B) {
              return std::tie(A.Msg, A.Start) < std::tie(B.Msg, B.Start);
            });
  std::vector<OverlapEvent> Merged;
  for (const OverlapEvent &E : Events) {
    if (!Merged.empty() && Merged.back().Msg == E.Msg &&
        Merged.back().end() == E.Start)
      Merged.back().Len += E.Len;
    else
      Merged.push_back(E);
  }
  std::sort(Merged.begin(), Merged.end(),
            [](const OverlapEvent &A, const OverlapEvent &B) {
              return std::tie(A.Start, A.Msg) < std::tie(B.Start, B.Msg);
            });
  return Merged;
}

OverlapSchedule compactSteps(const CommGrid &G, const Schedule &Steps) {
  // Maps, not arrays of P and Q entries: P may be huge next to the messages.
  std::map<int64_t, int64_t> SrcFree, DstFree;
  OverlapSchedule S;
  S.Algorithm = Steps.Algorithm;
  for (const std::vector<int64_t> &Step : Steps.Steps)
    for (int64_t Id : Step) {
      const Message &M = G.Messages[Id];
      int64_t &SrcAt = SrcFree[M.Src], &DstAt = DstFree[M.Dst];
      const int64_t Start = std::max(SrcAt, DstAt);
      S.Events.push_back({Id, Start, M.Len});
      SrcAt = DstAt = Start + M.Len;
    }
  S.Events = normalizeEvents(std::move(S.Events));
  return S;
}

OverlapSchedule stepsOnTimeLine(const CommGrid &G, const Schedule &Steps) {
  OverlapSchedule S;
  S.Algorithm = Steps.Algorithm;
  int64_t StepStart = 0;
  for (const std::vector<int64_t> &Step : Steps.Steps) {
    int64_t Longest = 0;
    for (int64_t Id : Step) {
      S.Events.push_back({Id, StepStart, G.Messages[Id].Len});
      Longest = std::max(Longest, G.Messages[Id].Len);
    }
    StepStart += Longest;
  }
  S.Events = normalizeEvents(std::move(S.Events));
  return S;
}

} // namespace redist
