//===- GenBlockSchedulers.h - Schedulers for GEN_BLOCK message chains -----===//
//
// Private to the library: makeSchedule dispatches to these when both layouts
// give each process one contiguous segment (GEN_BLOCK, BLOCK), so that the
// grid's messages form a chain (MessageChain.h); scpa and chain throw
// InvalidArgument when they do not. scpa and chain always use the minimal
// number of steps, the grid's maximum degree.
//
//   scpa   scpa-gen-block: maximum-degree message sets, conflict points,
//          placement by non-increasing size.
//   chain  ours: branch-and-bound over the step costs, with an exact
//          dynamic programme along the chain deciding whether given step
//          costs can be met. Never costs more than scpa.
//   exact  exhaustive search for small grids (any grid, not only chains):
//          the reference the other two are tested against.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_GENBLOCKSCHEDULERS_H
#define REDIST_LIB_SCHEDULERS_GENBLOCKSCHEDULERS_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {
namespace detail {

/// MessageChain.cpp: whether scpa and chain apply to From -> To: every
/// process of both layouts holds one contiguous segment (GEN_BLOCK, BLOCK,
/// or BLOCK(k) and CYCLIC(k) with k * P >= N), so the grid is a chain. When
/// not, Why (if given) names the layout that breaks it.
bool chainSchedulersApply(const Layout &From, const Layout &To,
                          std::string *Why);

/// What scpa did, for tests and the evaluation.
struct ScpaReport {
  /// Messages placed in the conflict step before the others.
  int64_t ConflictPoints = 0;
  /// Messages that fitted in no step. The paper assumes this never happens;
  /// it does (docs/genblock-scheduling.md). We then free a step by swapping
  /// two steps along an alternating path (König's argument), so the
  /// schedule keeps maximum-degree steps.
  int64_t Repairs = 0;
};

/// Scpa.cpp: the Smallest Conflict Points Algorithm.
Schedule scheduleScpa(const CommGrid &G, ScpaReport *Report = nullptr);

/// What the chain scheduler's search did.
struct ChainReport {
  /// Cost of scpa's schedule, the search's starting upper bound.
  int64_t ScpaCost = 0;
  /// Cost of the schedule returned.
  int64_t Cost = 0;
  /// The largest-volume lower bound the search compares against:
  /// sum over k of the k-th largest message of any one process.
  int64_t LowerBound = 0;
  /// Dynamic-programme runs spent.
  int64_t FeasibilityTests = 0;
  /// True when the search finished within its budget: then Cost is the
  /// minimum over every schedule with maximum-degree steps.
  bool ProvedOptimal = false;
};

/// Feasibility tests the chain scheduler may spend by default; each costs
/// O(messages log k). The evaluation's instances (up to 64 processes) need
/// at most about 4500; past the budget the best schedule found so far is
/// returned.
constexpr int64_t DefaultChainTestBudget = 20000;

/// ChainScheduler.cpp: our scheduler. Deterministic.
Schedule scheduleChain(const CommGrid &G, ChainReport *Report = nullptr,
                       int64_t TestBudget = DefaultChainTestBudget);

/// How many steps the exact solver may use.
enum class StepLimit {
  MaxDegree, ///< exactly the grid's maximum degree (the minimum possible)
  Any        ///< as many as lowers the cost
};

/// Search nodes the exact solver may visit by default.
constexpr int64_t DefaultExactNodeBudget = 50000000;

/// ExactScheduler.cpp: L[i], the largest (i+1)-th longest message of any one
/// process, for i below the maximum degree. Any schedule's step costs, sorted
/// decreasingly as T[0] >= T[1] >= ..., satisfy T[i] >= L[i]: that process's
/// i+1 longest messages lie in i+1 distinct steps, each costing at least the
/// shortest of them. So the sum of L is a lower bound on the cost, whatever
/// the number of steps; it is at least the largest volume of one process.
std::vector<int64_t> rankedLengthBounds(const CommGrid &G);

/// What searchExact found.
struct ExactOutcome {
  /// The cheapest schedule found, if cheaper than the incumbent.
  std::optional<Schedule> Best;
  /// Whether the search finished within its budget: then Best is optimal,
  /// or, when there is none, no schedule is cheaper than the incumbent.
  bool Complete = false;
  /// Search nodes visited (at most the budget).
  int64_t Nodes = 0;
};

/// ExactScheduler.cpp: branch-and-bound for a schedule of at most MaxSteps
/// steps that costs less than Incumbent (mincost gives it its heuristic's
/// cost), within NodeBudget nodes. Throws InvalidArgument when min(MaxSteps,
/// messages) exceeds 64 steps.
ExactOutcome searchExact(const CommGrid &G, int64_t MaxSteps,
                         int64_t NodeBudget, int64_t Incumbent);

/// ExactScheduler.cpp: a schedule of minimum cost under Limit, found by
/// exhaustive branch-and-bound over the step of each message; nullopt when
/// that takes more than NodeBudget nodes. Meant for up to about 20 messages.
/// Throws InvalidArgument beyond 64 steps, which it cannot represent.
std::optional<Schedule>
scheduleExact(const CommGrid &G, StepLimit Limit,
              int64_t NodeBudget = DefaultExactNodeBudget);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_GENBLOCKSCHEDULERS_H
