//===- redist/MinCost.h - Schedules of least total cost -------------------===//
//
// mincost minimises the cost of desprez-1998 §4.3.1, the sum over steps of
// each step's longest message, with any number of steps; mincost-steps does
// the same with at most K steps (K at least the grid's maximum degree; with
// K equal to it, the cheapest of the step-optimal schedules).
//
// How: greedy's and stepwise's schedules, and stepwise run on bands of
// lengths apart, seed a local search (Kempe-chain swaps between two steps,
// late-acceptance hill climbing); then, on grids of at most ExactMessages
// messages, a branch-and-bound search proves the best schedule optimal or
// finds a cheaper one. Every budget counts iterations or
// search nodes, never time, so every MPI rank computes the same schedule.
// The defaults keep a 24 x 24 all-to-all grid well under 100 ms.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_MINCOST_H
#define REDIST_MINCOST_H

#include "redist/CommGrid.h"
#include "redist/Schedule.h"

#include <cstdint>

namespace redist {

struct MinCostOptions {
  /// At most this many steps; 0 for any number (mincost). Otherwise
  /// (mincost-steps) it must be at least the grid's maximum degree.
  int64_t Steps = 0;
  /// Local-search iterations (each one Kempe swap tried), from each seed.
  int64_t SearchIterations = 3000;
  /// ... but a run stops after this many in a row without a new best.
  int64_t SearchStall = 3000;
  /// Grids with more messages skip the band seed and the local search:
  /// mincost is then the cheaper of greedy and stepwise.
  int64_t SearchMessages = 20000;
  /// Grids of at most this many messages (and never more than 64) get the
  /// exact search.
  int64_t ExactMessages = 40;
  /// Nodes the exact search may visit; past them it keeps what it has.
  int64_t ExactNodes = 200000;
};

/// What makeMinCostSchedule did, for tests and the evaluation.
struct MinCostReport {
  int64_t SeedCost = 0;   ///< the cheaper seed's cost
  int64_t SearchCost = 0; ///< after the local search
  int64_t Cost = 0;       ///< of the schedule returned
  /// Sum over i of the largest i-th longest message of one process: no
  /// schedule, with any number of steps, costs less.
  int64_t LowerBound = 0;
  /// Cost is the minimum under the step limit: the exact search finished,
  /// or Cost meets LowerBound.
  bool ProvedOptimal = false;
};

/// A schedule of G of least cost found within the budgets; named
/// "mincost-steps" when Opts.Steps > 0, else "mincost". Deterministic.
/// Throws InvalidArgument when Opts.Steps is negative or below the maximum
/// degree. The result passes validateSchedule and has no empty step.
Schedule makeMinCostSchedule(const CommGrid &G,
                             const MinCostOptions &Opts = MinCostOptions(),
                             MinCostReport *Report = nullptr);

/// mincost-steps' step limit when none is given: the grid's maximum degree,
/// the least allowed (1 for a grid without messages).
int64_t leastStepLimit(const CommGrid &G);

} // namespace redist

#endif // REDIST_MINCOST_H
