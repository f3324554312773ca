//===- OverlapNoSplit.cpp - overlap: least makespan without splitting -----===//
//
// Each message is a task that holds two ports, its source's and its
// target's, for Len time units. Some optimal schedule is active: no message
// can start earlier without moving another. Listed by (start, id), each
// message of an active schedule starts at the later of its ports' free time
// and the previous message's start (otherwise it could move left: the
// messages after it start no earlier). So the search places messages in
// that order, each at that time, and enumerates every active schedule, with
// three cuts:
//   - order: a message that starts at the same time as the previous one
//     comes after it only if its id is larger;
//   - dominance: a message may come next only if it starts before the
//     earliest end of any unplaced message (if message m could start and
//     end by then, placing m first moves nothing after it, and lowers the
//     sum of start times; the optimal schedule with the least sum never
//     skips it);
//   - bound: each port must still run its unplaced messages, none before
//     its release (the time it could start next), which is one machine
//     with release dates: the makespan of releasing them in order of
//     release (Jackson's rule) is a lower bound. A node whose bound reaches
//     the best makespan found is cut.
// Children come in order of criticality: those of the port with the largest
// bound first. The first dive is then a list schedule that serves the most
// loaded ports first; the seeds (compacted step schedules) give the first
// upper bound.
//
//===----------------------------------------------------------------------===//

#include "OpenShopMatchings.h"
#include "OverlapDeadlineSearch.h"
#include "OverlapListSearch.h"
#include "OverlapPorts.h"
#include "SchedulerImpls.h"

#include "redist/Error.h"
#include "redist/OverlapSchedulers.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

namespace redist {

namespace {

constexpr int64_t Infinite = std::numeric_limits<int64_t>::max() / 4;

class NoSplitSearch {
public:
  NoSplitSearch(const CommGrid &G, const detail::OverlapPorts &Ports)
      : Ports(Ports), NumMessages(static_cast<int32_t>(G.Messages.size())),
        Len(G.Messages.size()), Free(Ports.numPorts(), 0),
        Remaining(Ports.numPorts(), 0), PortBound(Ports.numPorts(), 0),
        Placed(G.Messages.size(), 0), Start(G.Messages.size(), 0),
        Release(G.Messages.size(), 0), Children(G.Messages.size() + 1) {
    for (int32_t Id = 0; Id < NumMessages; ++Id) {
      Len[Id] = G.Messages[Id].Len;
      Remaining[Ports.SrcPort[Id]] += Len[Id];
      Remaining[Ports.DstPort[Id]] += Len[Id];
    }
  }

  /// A known schedule: start time of each message, and its makespan.
  void offer(const std::vector<int64_t> &Starts, int64_t Makespan) {
    if (Makespan < Best) {
      Best = Makespan;
      BestStart = Starts;
    }
  }

  /// Searches for a schedule below the best offered, within Budget nodes;
  /// true when the search finished (the best is then optimal).
  bool run(int64_t LowerBound, int64_t Budget) {
    Bound = LowerBound;
    NodeBudget = Nodes + Budget;
    OutOfBudget = false;
    Pruned = false;
    if (Best > Bound)
      visit(0, 0, 0);
    return !OutOfBudget && !Pruned;
  }

  /// Limited discrepancy search: the K-th child in order costs K, and paths
  /// over Limit are left out. True when no path was left out.
  bool runLimited(int64_t LowerBound, int64_t Budget, int64_t Limit) {
    DiscrepancyLimit = Limit;
    const bool Complete = run(LowerBound, Budget);
    DiscrepancyLimit = Infinite;
    return Complete;
  }

  int64_t best() const { return Best; }
  const std::vector<int64_t> &bestStarts() const { return BestStart; }
  int64_t nodes() const { return Nodes; }

private:
  struct Child {
    int64_t Critical;
    int64_t Release;
    int64_t Len;
    int32_t Id;
    bool operator<(const Child &O) const {
      return std::make_tuple(-Critical, Release, -Len, Id) <
             std::make_tuple(-O.Critical, O.Release, -O.Len, O.Id);
    }
  };

  /// Jackson's bound of every port with work left, into PortBound; returns
  /// the largest, or Infinite as soon as one reaches Best.
  int64_t portBounds() {
    int64_t Largest = 0;
    for (int32_t Port = 0; Port < Ports.numPorts(); ++Port) {
      PortBound[Port] = Free[Port];
      if (Remaining[Port] == 0)
        continue;
      Jobs.clear();
      for (int32_t Id : Ports.MessagesAt[Port])
        if (!Placed[Id])
          Jobs.push_back({Release[Id], Len[Id]});
      std::sort(Jobs.begin(), Jobs.end());
      int64_t End = 0;
      for (const auto &[At, Length] : Jobs)
        End = std::max(End, At) + Length;
      PortBound[Port] = End;
      if (End >= Best)
        return Infinite;
      Largest = std::max(Largest, End);
    }
    return Largest;
  }

  void visit(int32_t Depth, int64_t End, int64_t Discrepancies) {
    if (Depth == NumMessages) {
      if (End < Best) {
        Best = End;
        BestStart = Start;
      }
      return;
    }
    if (Nodes >= NodeBudget) {
      OutOfBudget = true;
      return;
    }
    ++Nodes;
    int64_t EarliestEnd = Infinite;
    for (int32_t Id = 0; Id < NumMessages; ++Id) {
      if (Placed[Id])
        continue;
      Release[Id] = std::max(
          {Free[Ports.SrcPort[Id]], Free[Ports.DstPort[Id]], LastStart});
      EarliestEnd = std::min(EarliestEnd, Release[Id] + Len[Id]);
    }
    if (std::max(End, portBounds()) >= Best)
      return;
    std::vector<Child> &List = Children[Depth];
    List.clear();
    for (int32_t Id = 0; Id < NumMessages; ++Id) {
      if (Placed[Id] || Release[Id] >= EarliestEnd ||
          (Release[Id] == LastStart && Id < LastId))
        continue;
      List.push_back(
          {std::max(PortBound[Ports.SrcPort[Id]], PortBound[Ports.DstPort[Id]]),
           Release[Id], Len[Id], Id});
    }
    std::sort(List.begin(), List.end());
    for (size_t K = 0; K < List.size(); ++K) {
      if (Discrepancies + static_cast<int64_t>(K) > DiscrepancyLimit) {
        Pruned = true;
        return;
      }
      // The children deeper down overwrite Release and PortBound, not List.
      const int32_t Id = List[K].Id;
      const int64_t At = List[K].Release;
      const int32_t Src = Ports.SrcPort[Id], Dst = Ports.DstPort[Id];
      const int64_t OldSrcFree = Free[Src], OldDstFree = Free[Dst];
      const int64_t OldLastStart = LastStart;
      const int32_t OldLastId = LastId;
      Placed[Id] = 1;
      Start[Id] = At;
      Free[Src] = Free[Dst] = At + Len[Id];
      Remaining[Src] -= Len[Id];
      Remaining[Dst] -= Len[Id];
      LastStart = At;
      LastId = Id;
      visit(Depth + 1, std::max(End, At + Len[Id]),
            Discrepancies + static_cast<int64_t>(K));
      Placed[Id] = 0;
      Free[Src] = OldSrcFree;
      Free[Dst] = OldDstFree;
      Remaining[Src] += Len[Id];
      Remaining[Dst] += Len[Id];
      LastStart = OldLastStart;
      LastId = OldLastId;
      if (OutOfBudget || Best <= Bound)
        return;
    }
  }

  const detail::OverlapPorts &Ports;
  int32_t NumMessages;
  std::vector<int64_t> Len;
  std::vector<int64_t> Free, Remaining, PortBound;
  std::vector<char> Placed;
  std::vector<int64_t> Start, Release;
  std::vector<std::vector<Child>> Children;
  std::vector<std::pair<int64_t, int64_t>> Jobs;
  int64_t LastStart = 0;
  int32_t LastId = -1;
  int64_t Best = Infinite;
  std::vector<int64_t> BestStart;
  int64_t Bound = 0;
  int64_t Nodes = 0, NodeBudget = 0;
  bool OutOfBudget = false;
  int64_t DiscrepancyLimit = Infinite;
  bool Pruned = false; ///< a path was over the discrepancy limit
};

std::vector<int64_t> startsOf(const CommGrid &G, const OverlapSchedule &S) {
  std::vector<int64_t> Starts(G.Messages.size(), 0);
  for (const OverlapEvent &E : S.Events)
    Starts[E.Msg] = E.Start;
  return Starts;
}

/// Budget times the options' effort, saturating far below overflow.
int64_t scaled(int64_t Budget, const OverlapOptions &Opts) {
  constexpr int64_t Most = std::numeric_limits<int64_t>::max() / 8;
  return Budget > Most / Opts.Effort ? Most : Budget * Opts.Effort;
}

/// Offers Search the matching construction without splits (OpenShopMatchings.h)
/// for a few deadlines from Bound up, the smallest first, stopping at the
/// first that works.
void offerMatchingSchedules(const CommGrid &G,
                            const detail::OverlapPorts &Ports, int64_t Bound,
                            const OverlapOptions &Opts, NoSplitSearch &Search,
                            std::vector<detail::UnsplitSchedule> &Orders) {
  if (Ports.numPorts() > MaxSplitProcesses)
    return;
  // With splits, the construction always reaches Bound; the order in which
  // the messages start is an order to try unsplit.
  {
    std::vector<int64_t> Whole(G.Messages.size());
    for (size_t Id = 0; Id < G.Messages.size(); ++Id)
      Whole[Id] = G.Messages[Id].Len;
    std::vector<OverlapEvent> Pieces = *detail::sendByMatchings(
        Ports, Whole, std::vector<char>(G.Messages.size(), 0), 0, Bound, {});
    std::vector<int64_t> First(G.Messages.size(), Bound);
    for (const OverlapEvent &E : Pieces)
      First[E.Msg] = std::min(First[E.Msg], E.Start);
    // Not a schedule: improveByListSearch only reads the order.
    Orders.push_back({First, Search.best()});
  }
  constexpr int64_t Deadlines = 12;
  constexpr uint64_t MatchingTrials = 16;
  const int64_t Gap = Search.best() - Bound;
  const int64_t Stride =
      std::max<int64_t>(1, (Gap + Deadlines - 1) / Deadlines);
  std::vector<int64_t> Whole(G.Messages.size());
  for (size_t Id = 0; Id < G.Messages.size(); ++Id)
    Whole[Id] = G.Messages[Id].Len;
  int64_t Budget = scaled(Opts.MatchingWork, Opts);
  for (int64_t Deadline = Bound; Deadline < Search.best() && Budget > 0;
       Deadline += Stride) {
    bool Found = false;
    for (uint64_t Variety = 0; Variety < 2 * MatchingTrials && Budget > 0;
         ++Variety) {
      detail::MatchingRules Rules;
      Rules.Budget = &Budget;
      Rules.PreferMessages = Variety % 2 == 1;
      Rules.Variety = Variety / 2;
      Rules.NoSplit = true;
      std::optional<std::vector<OverlapEvent>> Pieces = detail::sendByMatchings(
          Ports, Whole, std::vector<char>(G.Messages.size(), 0), 0, Deadline,
          Rules);
      if (!Pieces)
        continue;
      OverlapSchedule S{"overlap", normalizeEvents(std::move(*Pieces))};
      Search.offer(startsOf(G, S), measureOverlapSchedule(G, S).Makespan);
      Found = true;
    }
    if (Found)
      return;
  }
}

/// One run of the time-driven search and, where one side is all busy, one
/// of the tight-side search (OverlapDeadlineSearch.h) for Deadline, each of
/// up to Budget nodes taken from Left; offers Search a schedule found.
/// Found, Infeasible when a run refuted Deadline, Unknown otherwise.
detail::DeadlineOutcome::Kind
tryDeadline(const CommGrid &G, const detail::OverlapPorts &Ports,
            int64_t Deadline, int64_t Budget, int64_t Variety,
            NoSplitSearch &Search, int64_t &Left, int64_t &Nodes) {
  for (bool Tight : {false, true}) {
    const int64_t Run = std::min(Budget, Left);
    if (Run <= 0)
      break;
    std::optional<detail::DeadlineOutcome> Outcome =
        Tight ? detail::scheduleTightSide(G, Ports, Deadline, Run,
                                          static_cast<uint64_t>(Variety))
              : detail::scheduleByDeadline(G, Ports, Deadline, Run,
                                           static_cast<uint64_t>(Variety));
    if (!Outcome)
      continue;
    Nodes += Outcome->Nodes;
    Left -= Outcome->Nodes;
    if (Outcome->Result == detail::DeadlineOutcome::Found) {
      int64_t End = 0;
      for (size_t Id = 0; Id < G.Messages.size(); ++Id)
        End = std::max(End, Outcome->Start[Id] + G.Messages[Id].Len);
      Search.offer(Outcome->Start, End);
    }
    if (Outcome->Result != detail::DeadlineOutcome::Unknown)
      return Outcome->Result;
  }
  return detail::DeadlineOutcome::Unknown;
}

/// Offers Search the schedules of the deadline searches. First from Bound
/// up, each deadline with the whole budget, while the searches refute them;
/// then, from the best makespan found down, shorter runs that break ties
/// differently, while they find schedules. All runs share one pool of
/// DeadlineRounds budgets. Returns the least makespan not proved out of
/// reach.
int64_t offerDeadlineSchedules(const CommGrid &G,
                               const detail::OverlapPorts &Ports, int64_t Bound,
                               const OverlapOptions &Opts,
                               NoSplitSearch &Search, int64_t &Nodes) {
  using detail::DeadlineOutcome;
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  const int64_t Budget = std::max<int64_t>(
      NumMessages, scaled(Opts.DeadlineWork, Opts) / NumMessages);
  int64_t Left = Budget > std::numeric_limits<int64_t>::max() / 8 /
                              std::max<int64_t>(1, Opts.DeadlineRounds)
                     ? std::numeric_limits<int64_t>::max() / 8
                     : Budget * std::max<int64_t>(1, Opts.DeadlineRounds);
  int64_t Proven = Bound;
  while (Proven < Search.best()) {
    const DeadlineOutcome::Kind Result =
        tryDeadline(G, Ports, Proven, Budget, 0, Search, Left, Nodes);
    if (Result != DeadlineOutcome::Infeasible)
      break;
    ++Proven;
  }
  for (int64_t Deadline = Search.best() - 1; Deadline >= Proven && Left > 0;
       Deadline = Search.best() - 1) {
    bool Found = false;
    for (int64_t Variety = 0; Variety < Opts.DeadlineRestarts && !Found;
         ++Variety)
      Found = tryDeadline(G, Ports, Deadline, Budget / 8 + 1, Variety, Search,
                          Left, Nodes) == DeadlineOutcome::Found;
    if (!Found)
      break;
  }
  return Proven;
}

} // namespace

OverlapSchedule scheduleOverlap(const CommGrid &G, const OverlapOptions &Opts,
                                OverlapReport *Report) {
  validateOverlapOptions(Opts);
  const int64_t NumMessages = static_cast<int64_t>(G.Messages.size());
  const int64_t Bound = makespanLowerBound(G);
  OverlapSchedule Result;
  Result.Algorithm = "overlap";
  OverlapReport Local;
  Local.LowerBound = Bound;
  if (NumMessages > 0) {
    const OverlapSchedule Seeds[] = {
        compactSteps(G, detail::scheduleStepwise(G)),
        compactSteps(G, detail::scheduleGreedy(G))};
    const detail::OverlapPorts Ports(G);
    NoSplitSearch Search(G, Ports);
    for (const OverlapSchedule &Seed : Seeds)
      Search.offer(startsOf(G, Seed), measureOverlapSchedule(G, Seed).Makespan);
    Local.SeedMakespan = Search.best();
    std::vector<detail::UnsplitSchedule> Orders;
    for (const OverlapSchedule &Seed : Seeds)
      Orders.push_back(
          {startsOf(G, Seed), measureOverlapSchedule(G, Seed).Makespan});
    offerMatchingSchedules(G, Ports, Bound, Opts, Search, Orders);
    // No unsplit schedule ends before Proven.
    int64_t Proven = Bound;
    int64_t DeadlineNodes = 0;
    if (Search.best() > Bound && NumMessages <= Opts.SearchMessages)
      Proven =
          offerDeadlineSchedules(G, Ports, Bound, Opts, Search, DeadlineNodes);
    Orders.push_back({Search.bestStarts(), Search.best()});
    if (Search.best() > Proven && NumMessages <= Opts.SearchMessages) {
      // One budget for all orders: each gets an equal share of what is left.
      int64_t Left = scaled(Opts.ListSearchWork, Opts);
      for (size_t K = 0; K < Orders.size(); ++K) {
        const detail::UnsplitSchedule &Seed = Orders[K];
        const int64_t Share = Left / static_cast<int64_t>(Orders.size() - K);
        int64_t Work = Share;
        detail::UnsplitSchedule Better =
            detail::improveByListSearch(G, Ports, Seed, Proven, Work);
        Left -= Share - Work;
        Search.offer(Better.Start, Better.Makespan);
        if (Search.best() <= Proven)
          break;
      }
    }
    bool Finished = Search.best() <= Proven;
    if (!Finished && NumMessages <= Opts.SearchMessages) {
      const bool Exact = NumMessages <= Opts.ExactMessages;
      // Each node costs O(messages): the budget of larger grids is in work.
      const int64_t Budget =
          Exact ? scaled(Opts.ExactNodes, Opts)
                : std::max<int64_t>(NumMessages, scaled(Opts.SearchWork, Opts) /
                                                     NumMessages);
      if (Exact) {
        Finished = Search.run(Proven, Budget);
      } else {
        // Discrepancies spread the budget over the whole tree, where a
        // depth-first search would spend it near the leaves of one dive.
        const int64_t End = Search.nodes() + Budget;
        for (int64_t Limit = 0;
             !Finished && Search.best() > Proven && Search.nodes() < End;
             ++Limit)
          Finished = Search.runLimited(Proven, End - Search.nodes(), Limit);
      }
    }
    Local.Nodes = Search.nodes() + DeadlineNodes;
    Local.ProvedOptimal = Finished || Search.best() <= Proven;
    const std::vector<int64_t> &Starts = Search.bestStarts();
    for (int64_t Id = 0; Id < NumMessages; ++Id)
      Result.Events.push_back({Id, Starts[Id], G.Messages[Id].Len});
    Result.Events = normalizeEvents(std::move(Result.Events));
  } else {
    Local.ProvedOptimal = true;
  }
  // Never report a makespan that was not measured on a valid schedule.
  if (std::optional<std::string> Error = validateOverlapSchedule(G, Result))
    throw std::logic_error("overlap built an invalid schedule: " + *Error);
  Local.Makespan = measureOverlapSchedule(G, Result).Makespan;
  if (Report)
    *Report = Local;
  return Result;
}

} // namespace redist
