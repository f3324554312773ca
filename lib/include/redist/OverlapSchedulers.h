//===- redist/OverlapSchedulers.h - Overlapped schedules of a grid --------===//
//
// Two schedulers build overlapped schedules (redist/OverlapSchedule.h):
//   overlap        never splits a message and minimises the makespan. The
//                  step schedules of stepwise and greedy, compacted, and
//                  the matching construction run without splits give the
//                  first schedules. Two complete deadline searches then
//                  try each makespan from T_opt up (one fills time from 0,
//                  the most constrained port first; one orders the ports of
//                  a side whose every port is busy to the deadline): each
//                  finds a schedule by the deadline or proves there is
//                  none, which raises the lower bound. A local search over
//                  message orders and a branch-and-bound search over the
//                  schedules in which every message starts as early as the
//                  ones before it allow stop at that bound. On grids of at
//                  most ExactMessages messages the branch and bound is
//                  exact; on larger ones it stops after its budget (limited
//                  discrepancy) and keeps the best schedule found. T_opt
//                  cannot always be reached without splitting
//                  (desprez-1998-overlapped §4.2: P = Q = 15, r = 3,
//                  s = 5 needs 16 > T_opt = 15).
//   overlap-split  always reaches T_opt, splitting as few messages as it
//                  can: overlap's schedule when it reaches T_opt; otherwise
//                  the preemptive open-shop construction (the paper's Theorem
//                  1, with the matchings of Birkhoff's decomposition), which
//                  prefers to continue the messages in progress, run from
//                  time 0 and after the longest prefix of overlap's schedule
//                  that still allows T_opt; the fewest split messages win.
//
// Both are deterministic: budgets count nodes and moves, never time, so every
// MPI rank computes the same schedule; OverlapOptions::Effort buys a longer
// search. Both work on any grid, block-cyclic or GEN_BLOCK.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_OVERLAPSCHEDULERS_H
#define REDIST_OVERLAPSCHEDULERS_H

#include "redist/CommGrid.h"
#include "redist/OverlapSchedule.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace redist {

enum class OverlapAlgorithm { Overlap, OverlapSplit };

/// "overlap", "overlap-split".
const char *overlapAlgorithmName(OverlapAlgorithm A);
std::optional<OverlapAlgorithm> parseOverlapAlgorithm(std::string_view Name);

struct OverlapOptions {
  /// Multiplies every budget below: a search of effort N may do N times the
  /// work, and takes up to about N times as long. The default bounds one
  /// schedule search to about a second on a 2026 laptop core; from 1 to
  /// MaxOverlapEffort (validateOverlapOptions).
  int64_t Effort = 1;
  /// The matching construction run without splits for a few deadlines (the
  /// first schedules), in matrix entries and columns scanned.
  int64_t MatchingWork = 50000000;
  /// The deadline searches, in nodes times messages (a node costs
  /// O(messages)): from T_opt up, one run of up to DeadlineWork per makespan
  /// while they prove it out of reach; then, from the best makespan found
  /// down, DeadlineRestarts runs of an eighth of that per makespan, each
  /// breaking ties differently, while they find one. All runs together stop
  /// after DeadlineRounds times DeadlineWork.
  int64_t DeadlineRestarts = 6;
  int64_t DeadlineWork = 16000000;
  int64_t DeadlineRounds = 4;
  /// The local search over message orders, from every first schedule
  /// together, in messages placed plus busy intervals passed (a move places
  /// every message once).
  int64_t ListSearchWork = 20000000;
  /// Grids of at most this many messages get the search until it is done,
  /// or until ExactNodes nodes.
  int64_t ExactMessages = 40;
  int64_t ExactNodes = 2000000;
  /// The search's budget on larger grids, in nodes times messages (a node
  /// costs O(messages), and a sort of each port's messages on top); at
  /// least one dive to a complete schedule. 4,000,000 let it take most of a
  /// second on 64 x 64 grids; half of it lost no T_opt in the sweep.
  int64_t SearchWork = 2000000;
  /// Grids with more messages skip the search: overlap is then the better
  /// compacted step schedule.
  int64_t SearchMessages = 5000;
};

/// The largest OverlapOptions::Effort: budgets stay far from overflow.
constexpr int64_t MaxOverlapEffort = 1000000;

/// Throws InvalidArgument naming the value when an option is out of range
/// (Effort outside [1, MaxOverlapEffort], a budget below 0).
void validateOverlapOptions(const OverlapOptions &Opts);

/// What the schedulers did, for tests and the evaluation.
struct OverlapReport {
  /// The better of the compacted stepwise and greedy schedules.
  int64_t SeedMakespan = 0;
  int64_t Makespan = 0;
  int64_t LowerBound = 0; ///< T_opt
  /// overlap: no schedule without splits ends earlier (the search finished,
  /// or Makespan meets LowerBound). overlap-split: always true.
  bool ProvedOptimal = false;
  int64_t Nodes = 0; ///< search nodes visited
};

/// A schedule of G without split messages, of least makespan within the
/// budgets. The result passes validateOverlapSchedule.
OverlapSchedule scheduleOverlap(const CommGrid &G,
                                const OverlapOptions &Opts = {},
                                OverlapReport *Report = nullptr);

/// A schedule of G of makespan T_opt with few split messages. Throws
/// InvalidArgument when the grid is too large for its matchings (more than
/// MaxSplitProcesses processes that communicate). The result passes
/// validateOverlapSchedule.
OverlapSchedule scheduleOverlapSplit(const CommGrid &G,
                                     const OverlapOptions &Opts = {},
                                     OverlapReport *Report = nullptr);

/// overlap-split from overlap's schedule of G and its report, as
/// scheduleOverlap returned them: the same result as scheduleOverlapSplit
/// without running overlap a second time. Throws InvalidArgument as
/// scheduleOverlapSplit does, and when Unsplit is not a valid schedule of G
/// without splits.
OverlapSchedule splitFromUnsplit(const CommGrid &G,
                                 const OverlapSchedule &Unsplit,
                                 const OverlapReport &UnsplitReport,
                                 OverlapReport *Report = nullptr);

/// overlap-split's matchings are dense: at most this many processes that
/// communicate, sources and targets together.
constexpr int64_t MaxSplitProcesses = 512;

/// Runs A on G.
OverlapSchedule makeOverlapSchedule(OverlapAlgorithm A, const CommGrid &G,
                                    const OverlapOptions &Opts = {},
                                    OverlapReport *Report = nullptr);

} // namespace redist

#endif // REDIST_OVERLAPSCHEDULERS_H
