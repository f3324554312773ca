//===- Plan.h - A redistribution, its grid and its schedule ---------------===//
//
// What redist-plan reports on: the two layouts, their communication grid, the
// schedule one algorithm built for it, the schedule's statistics and what the
// algorithm optimises. The table and the JSON reports both read a Plan, so
// they always describe the same, validated schedule.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_PLAN_H
#define REDIST_TOOLS_REDIST_PLAN_PLAN_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/OverlapSchedule.h"
#include "redist/OverlapSchedulers.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace redistplan {

/// A schedule the library produced but the validator rejects: a bug in the
/// library, never the user's fault.
class InternalError : public std::runtime_error {
public:
  explicit InternalError(const std::string &What) : std::runtime_error(What) {}
};

struct Plan {
  redist::Layout From;
  redist::Layout To;
  redist::CommGrid Grid;
  redist::Schedule Sched;
  redist::ScheduleStats Stats;
  /// The algorithm asked for on the command line (possibly Auto).
  redist::Algorithm Requested;
  /// What the schedule optimises: "steps", "cost" (greedy, mincost,
  /// mincost-steps), "baseline" or, when auto
  /// chose the algorithm, "alpha-beta".
  std::string Model;
  redist::CostModel Costs;
  /// mincost-steps' step limit; 0 for the other algorithms.
  int64_t StepLimit = 0;
  /// With overlap and overlap-split: the events (Sched then has no step,
  /// Model is "overlap" and Stats holds only the lower bounds). Otherwise
  /// the steps on a time line, each step starting when the previous one's
  /// longest message ends, for the Gantt chart.
  bool Overlapped = false;
  redist::OverlapSchedule Events;
  redist::OverlapStats EventStats;
};

/// Computes the grid of From -> To and schedules it with Algo (with
/// mincost-steps, in at most StepLimit steps when it is positive). Throws
/// redist::InvalidArgument when Algo does not apply or the grid is beyond
/// MaxMatchingWork for it (SizeLimits.h), InternalError when the schedule
/// fails validation.
Plan makePlan(const redist::Layout &From, const redist::Layout &To,
              redist::Algorithm Algo,
              const redist::CostModel &Costs = redist::CostModel(),
              int64_t StepLimit = 0);

/// Computes the grid of From -> To and schedules it with the overlapped
/// scheduler Algo. Throws as makePlan does.
Plan makeOverlapPlan(const redist::Layout &From, const redist::Layout &To,
                     redist::OverlapAlgorithm Algo);

/// What a schedule built by Used optimises, given that Requested was asked for.
const char *modelName(redist::Algorithm Requested, redist::Algorithm Used);

/// The slice length L = lcm(P*r, Q*s) of a block-cyclic redistribution, or
/// nullopt when it does not fit in 64 bits. All arguments must be positive.
std::optional<int64_t> sliceLength(int64_t P, int64_t R, int64_t Q, int64_t S);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_PLAN_H
