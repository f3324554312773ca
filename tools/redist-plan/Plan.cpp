//===- Plan.cpp - A redistribution, its grid and its schedule -------------===//

#include "Plan.h"

#include "SizeLimits.h"

#include "redist/MinCost.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace redist;

namespace redistplan {

const char *modelName(Algorithm Requested, Algorithm Used) {
  if (Requested == Algorithm::Auto)
    return "alpha-beta";
  switch (Used) {
  case Algorithm::Caterpillar:
    return "baseline";
  case Algorithm::Greedy:
  case Algorithm::MinCost:
  case Algorithm::MinCostSteps:
    return "cost";
  case Algorithm::Auto:
  case Algorithm::WalkerOtto:
  case Algorithm::Classes:
  case Algorithm::Stepwise:
  case Algorithm::Scpa:
  case Algorithm::Chain:
    break;
  }
  return "steps";
}

namespace {

/// Validates Sched, sorts each step and measures it (auto has measured its
/// choice already: sorting ids within a step changes no statistic).
Plan finishPlan(std::variant<ArrayProblem, MatrixProblem> Problem,
                CommGrid Grid, Schedule Sched, Algorithm Requested,
                Algorithm Used, const CostModel &Costs, int64_t StepLimit,
                std::string CostsFrom, std::optional<AutoChoice> Choice) {
  if (std::optional<std::string> Invalid = validateSchedule(Grid, Sched))
    throw InternalError("the " + Sched.Algorithm +
                        " schedule is invalid: " + *Invalid);
  // Ids in increasing order make the reports independent of the order in
  // which a scheduler happened to fill each step.
  for (std::vector<int64_t> &Step : Sched.Steps)
    std::sort(Step.begin(), Step.end());
  Plan Result{std::move(Problem),
              std::move(Grid),
              std::move(Sched),
              {},
              modelName(Requested, Used),
              Costs,
              std::move(CostsFrom),
              std::move(Choice),
              StepLimit,
              false,
              {},
              {}};
  Result.Stats = Result.Choice
                     ? Result.Choice->Candidates[Result.Choice->Best].Stats
                     : measureSchedule(Result.Grid, Result.Sched);
  return Result;
}

} // namespace

Plan makePlan(const Layout &From, const Layout &To, Algorithm Algo,
              const CostModel &Costs, int64_t StepLimit,
              std::string CostsFrom) {
  CommGrid Grid = computeGrid(From, To);
  checkMatchingWork(Grid, Algo);
  Schedule Sched;
  std::optional<AutoChoice> Choice;
  if (Algo == Algorithm::Auto) {
    Choice = chooseSchedule(From, To, Grid, Costs);
    Sched = std::move(Choice->Chosen);
  } else if (Algo == Algorithm::MinCostSteps) {
    // makeSchedule would take the maximum degree, the least allowed.
    if (StepLimit <= 0)
      StepLimit = leastStepLimit(Grid);
    MinCostOptions Opts;
    Opts.Steps = StepLimit;
    Sched = makeMinCostSchedule(Grid, Opts);
  } else {
    Sched = makeSchedule(Algo, From, To, Grid, Costs);
  }
  std::optional<Algorithm> Used = parseAlgorithm(Sched.Algorithm);
  if (!Used || *Used == Algorithm::Auto)
    throw InternalError("the library names its algorithm '" + Sched.Algorithm +
                        "'");
  return finishPlan(ArrayProblem{From, To}, std::move(Grid), std::move(Sched),
                    Algo, *Used, Costs,
                    Algo == Algorithm::MinCostSteps ? StepLimit : 0,
                    std::move(CostsFrom), std::move(Choice));
}

Plan makeMatrixPlan(const Layout2D &From, const Layout2D &To, Algorithm2D Algo,
                    const CostModel &Costs, std::string CostsFrom) {
  CommGrid2D Grid = computeGrid2D(From, To);
  // A product runs its algorithm on the 1-D grids; the others on the whole.
  if (Algo.Product) {
    checkMatchingWork(Grid.Rows, Algo.Base);
    checkMatchingWork(Grid.Cols, Algo.Base);
  } else {
    checkMatchingWork(Grid.Whole, Algo.Base);
  }
  Schedule Sched;
  std::optional<AutoChoice> Choice;
  if (Algo.Base == Algorithm::Auto) {
    Choice = chooseSchedule2D(From, To, Grid, Costs);
    Sched = std::move(Choice->Chosen);
  } else {
    Sched = makeSchedule2D(Algo, From, To, Grid, Costs);
  }
  std::optional<Algorithm2D> Used = parseAlgorithm2D(Sched.Algorithm);
  if (!Used || Used->Base == Algorithm::Auto)
    throw InternalError("the library names its algorithm '" + Sched.Algorithm +
                        "'");
  // Direct mincost-steps takes the least number of steps, which the
  // document states as its step limit.
  const int64_t StepLimit = *Used == Algorithm2D{Algorithm::MinCostSteps, false}
                                ? leastStepLimit(Grid.Whole)
                                : 0;
  return finishPlan(MatrixProblem{From, To}, std::move(Grid.Whole),
                    std::move(Sched), Algo.Base, Used->Base, Costs, StepLimit,
                    std::move(CostsFrom), std::move(Choice));
}

namespace {

/// Schedules Grid with the overlapped scheduler Algo and validates it.
Plan finishOverlapPlan(std::variant<ArrayProblem, MatrixProblem> Problem,
                       CommGrid Grid, OverlapAlgorithm Algo,
                       const OverlapOptions &Opts) {
  // overlap starts from the stepwise and greedy schedules.
  checkMatchingWork(Grid, Algorithm::Stepwise, overlapAlgorithmName(Algo));
  OverlapSchedule Events = makeOverlapSchedule(Algo, Grid, Opts);
  if (std::optional<std::string> Invalid =
          validateOverlapSchedule(Grid, Events))
    throw InternalError("the " + Events.Algorithm +
                        " schedule is invalid: " + *Invalid);
  Plan Result{std::move(Problem),
              std::move(Grid),
              {},
              {},
              "overlap",
              CostModel(),
              "defaults",
              std::nullopt,
              0,
              true,
              std::move(Events),
              {}};
  Result.Sched.Algorithm = Result.Events.Algorithm;
  Result.Stats = measureSchedule(Result.Grid, Result.Sched);
  Result.EventStats = measureOverlapSchedule(Result.Grid, Result.Events);
  return Result;
}

} // namespace

Plan makeOverlapPlan(const Layout &From, const Layout &To,
                     OverlapAlgorithm Algo, const OverlapOptions &Opts) {
  return finishOverlapPlan(ArrayProblem{From, To}, computeGrid(From, To), Algo,
                           Opts);
}

Plan makeMatrixOverlapPlan(const Layout2D &From, const Layout2D &To,
                           OverlapAlgorithm Algo, const OverlapOptions &Opts) {
  return finishOverlapPlan(MatrixProblem{From, To},
                           std::move(computeGrid2D(From, To).Whole), Algo,
                           Opts);
}

std::optional<int64_t> sliceLength(int64_t P, int64_t R, int64_t Q, int64_t S) {
  int64_t SourceCycle, TargetCycle, Slice;
  if (llvm::MulOverflow(P, R, SourceCycle) ||
      llvm::MulOverflow(Q, S, TargetCycle))
    return std::nullopt;
  int64_t Gcd = std::gcd(SourceCycle, TargetCycle);
  if (llvm::MulOverflow(SourceCycle / Gcd, TargetCycle, Slice))
    return std::nullopt;
  return Slice;
}

} // namespace redistplan
