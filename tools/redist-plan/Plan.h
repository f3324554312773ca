//===- Plan.h - A redistribution, its grid and its schedule ---------------===//
//
// What redist-plan reports on: the two layouts (of an array or of a matrix),
// their communication grid, the schedule one algorithm built for it, the
// schedule's statistics and what the algorithm optimises. The table and the
// JSON reports both read a Plan, so they always describe the same, validated
// schedule.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_PLAN_H
#define REDIST_TOOLS_REDIST_PLAN_PLAN_H

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"
#include "redist/ArraySchedulers.h"
#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Distribution2D.h"
#include "redist/OverlapSchedule.h"
#include "redist/OverlapSchedulers.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"
#include "redist/Schedulers2D.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

namespace redistplan {

/// A schedule the library produced but the validator rejects: a bug in the
/// library, never the user's fault.
class InternalError : public std::runtime_error {
public:
  explicit InternalError(const std::string &What) : std::runtime_error(What) {}
};

/// An array redistribution (cyclic, genblock).
struct ArrayProblem {
  redist::Layout From;
  redist::Layout To;
};

/// A matrix redistribution (cyclic2d); the grid is over process ids.
struct MatrixProblem {
  redist::Layout2D From;
  redist::Layout2D To;
};

/// An array of any rank (array), with its resolved region (permutation
/// and sections); the grid is over process ids, numbered over each side's
/// arrangement as the layouts say (row-major from the command line).
struct GridArrayProblem {
  redist::ArrayLayout From;
  redist::ArrayLayout To;
  redist::ArrayRegion Region;
};

using Problem = std::variant<ArrayProblem, MatrixProblem, GridArrayProblem>;

/// "2x2:block,block,*": a side of an array problem as the command line and
/// the JSON problem spell it.
std::string arraySideSpelling(const redist::ArrayLayout &L);

struct Plan {
  redistplan::Problem Problem;
  redist::CommGrid Grid;
  redist::Schedule Sched;
  redist::ScheduleStats Stats;
  /// What the schedule optimises: "steps", "cost" (greedy, mincost,
  /// mincost-steps), "baseline" or, when auto
  /// chose the algorithm, "alpha-beta".
  std::string Model;
  redist::CostModel Costs;
  /// Where Costs come from: a model file's name, or "defaults".
  std::string CostsFrom;
  /// Set exactly when auto was asked for on the command line and chose
  /// Sched.Algorithm: what it weighed (its Chosen is moved into Sched).
  std::optional<redist::AutoChoice> Choice;
  /// mincost-steps' step limit; 0 for the other algorithms.
  int64_t StepLimit = 0;
  /// With overlap and overlap-split: the events (Sched then has no step,
  /// Model is "overlap" and Stats holds only the lower bounds). Empty for
  /// step schedules.
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
              int64_t StepLimit = 0, std::string CostsFrom = "defaults");

/// Computes the 2-D grid of From -> To and schedules it with Algo. Throws
/// as makePlan does.
Plan makeMatrixPlan(const redist::Layout2D &From, const redist::Layout2D &To,
                    redist::Algorithm2D Algo,
                    const redist::CostModel &Costs = redist::CostModel(),
                    std::string CostsFrom = "defaults");

/// Computes the N-D grid of From -> To with Region and schedules it with
/// Algo. Throws as makePlan does, and InvalidArgument (from the library)
/// for a region that does not fit the layouts.
Plan makeGridArrayPlan(const redist::ArrayLayout &From,
                       const redist::ArrayLayout &To,
                       const redist::ArrayRegion &Region,
                       redist::ArrayAlgorithm Algo,
                       const redist::CostModel &Costs = redist::CostModel(),
                       std::string CostsFrom = "defaults");

/// The same with an overlapped scheduler, on the whole grid.
Plan makeGridArrayOverlapPlan(const redist::ArrayLayout &From,
                              const redist::ArrayLayout &To,
                              const redist::ArrayRegion &Region,
                              redist::OverlapAlgorithm Algo,
                              const redist::OverlapOptions &Opts = {});

/// Computes the grid of From -> To and schedules it with the overlapped
/// scheduler Algo, searching with Opts. Throws as makePlan does.
Plan makeOverlapPlan(const redist::Layout &From, const redist::Layout &To,
                     redist::OverlapAlgorithm Algo,
                     const redist::OverlapOptions &Opts = {});

/// The same for matrices: the overlapped schedulers run on the whole grid.
Plan makeMatrixOverlapPlan(const redist::Layout2D &From,
                           const redist::Layout2D &To,
                           redist::OverlapAlgorithm Algo,
                           const redist::OverlapOptions &Opts = {});

/// What a schedule built by Used optimises, given that Requested was asked for.
const char *modelName(redist::Algorithm Requested, redist::Algorithm Used);

/// The slice length L = lcm(P*r, Q*s) of a block-cyclic redistribution, or
/// nullopt when it does not fit in 64 bits. All arguments must be positive.
std::optional<int64_t> sliceLength(int64_t P, int64_t R, int64_t Q, int64_t S);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_PLAN_H
