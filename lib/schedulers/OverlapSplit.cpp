//===- OverlapSplit.cpp - overlap-split: T_opt with few split messages ----===//
//
// T_opt is always reachable when messages may be split: the construction
// of OpenShopMatchings.h (desprez-1998-overlapped, Theorem 1) reaches it,
// keeping as many messages in progress as it can at each round. When
// overlap's unsplit schedule already reaches T_opt, that is the answer.
//
// The construction runs from time 0, and from the longest prefix of
// overlap's (unsplit) schedule after which every port can still finish by
// T_opt (its messages in progress at the cut stay in progress), in both
// variants; the fewest split messages, then the fewest events, win.
//
//===----------------------------------------------------------------------===//

#include "OpenShopMatchings.h"

#include "redist/Error.h"
#include "redist/OverlapSchedulers.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace redist {

namespace {

using detail::MatchingRules;
using detail::OverlapPorts;

/// Elements of each port left after time Cut in the unsplit schedule Starts.
bool canFinishAfter(const CommGrid &G, const OverlapPorts &Ports,
                    const std::vector<int64_t> &Starts, int64_t Cut,
                    int64_t Deadline) {
  std::vector<int64_t> Left(Ports.numPorts(), 0);
  for (size_t Id = 0; Id < Starts.size(); ++Id) {
    const int64_t Len = G.Messages[Id].Len;
    const int64_t Rest = Len - std::clamp<int64_t>(Cut - Starts[Id], 0, Len);
    Left[Ports.SrcPort[Id]] += Rest;
    Left[Ports.DstPort[Id]] += Rest;
  }
  for (int64_t Work : Left)
    if (Cut + Work > Deadline)
      return false;
  return true;
}

void checkSplitProcesses(const CommGrid &G) {
  const OverlapPorts Ports(G);
  if (Ports.numPorts() > MaxSplitProcesses)
    throw InvalidArgument(
        "overlap-split: " + std::to_string(Ports.numPorts()) +
        " processes communicate; its matchings handle at most " +
        std::to_string(MaxSplitProcesses));
}

} // namespace

OverlapSchedule scheduleOverlapSplit(const CommGrid &G,
                                     const OverlapOptions &Opts,
                                     OverlapReport *Report) {
  checkSplitProcesses(G);
  OverlapReport Local;
  const OverlapSchedule Unsplit = scheduleOverlap(G, Opts, &Local);
  return splitFromUnsplit(G, Unsplit, Local, Report);
}

OverlapSchedule splitFromUnsplit(const CommGrid &G,
                                 const OverlapSchedule &Unsplit,
                                 const OverlapReport &UnsplitReport,
                                 OverlapReport *Report) {
  checkSplitProcesses(G);
  if (validateOverlapSchedule(G, Unsplit) ||
      measureOverlapSchedule(G, Unsplit).SplitMessages != 0)
    throw InvalidArgument("overlap-split: the unsplit schedule given is not "
                          "a valid schedule of the grid without splits");
  const OverlapPorts Ports(G);
  OverlapReport Local = UnsplitReport;
  Local.Makespan = measureOverlapSchedule(G, Unsplit).Makespan;
  Local.LowerBound = makespanLowerBound(G);
  const int64_t Deadline = Local.LowerBound;
  OverlapSchedule Result;
  Result.Algorithm = "overlap-split";
  if (Local.Makespan <= Deadline) {
    Result.Events = Unsplit.Events;
  } else {
    const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
    std::vector<int64_t> Starts(NumMessages, 0);
    for (const OverlapEvent &E : Unsplit.Events)
      Starts[E.Msg] = E.Start;
    // The longest prefix of the unsplit schedule that still allows the
    // deadline: every port's time left covers its work left, which stays
    // true of shorter prefixes.
    int64_t Low = 0, High = Local.Makespan;
    while (Low < High) {
      const int64_t Mid = Low + (High - Low + 1) / 2;
      if (canFinishAfter(G, Ports, Starts, Mid, Deadline))
        Low = Mid;
      else
        High = Mid - 1;
    }
    const int64_t Cut = Low;
    std::vector<OverlapEvent> Prefix;
    std::vector<int64_t> Rest(NumMessages, 0);
    std::vector<char> Running(NumMessages, 0);
    for (int64_t Id = 0; Id < NumMessages; ++Id) {
      const int64_t Len = G.Messages[Id].Len;
      const int64_t Done = std::clamp<int64_t>(Cut - Starts[Id], 0, Len);
      if (Done > 0)
        Prefix.push_back({Id, Starts[Id], Done});
      Rest[Id] = Len - Done;
      Running[Id] = Done > 0 && Rest[Id] > 0;
    }
    std::vector<int64_t> Whole(NumMessages);
    for (int64_t Id = 0; Id < NumMessages; ++Id)
      Whole[Id] = G.Messages[Id].Len;

    std::tuple<int64_t, int64_t> BestScore{NumMessages + 1, 0};
    for (bool PreferMessages : {false, true})
      for (bool FromCut : {false, true}) {
        if (FromCut && Cut == 0)
          continue;
        MatchingRules Rules;
        Rules.PreferMessages = PreferMessages;
        std::vector<OverlapEvent> Events = *(
            FromCut
                ? sendByMatchings(Ports, Rest, Running, Cut, Deadline, Rules)
                : sendByMatchings(Ports, Whole, std::vector<char>(NumMessages),
                                  0, Deadline, Rules));
        if (FromCut)
          Events.insert(Events.end(), Prefix.begin(), Prefix.end());
        OverlapSchedule Candidate{"overlap-split",
                                  normalizeEvents(std::move(Events))};
        const OverlapStats Stats = measureOverlapSchedule(G, Candidate);
        const std::tuple<int64_t, int64_t> Score{Stats.SplitMessages,
                                                 Stats.Events};
        if (Score < BestScore) {
          BestScore = Score;
          Result = std::move(Candidate);
        }
      }
  }
  Local.Makespan = measureOverlapSchedule(G, Result).Makespan;
  Local.ProvedOptimal = Local.Makespan <= Deadline;
  if (Report)
    *Report = Local;
  return Result;
}

} // namespace redist
