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

Plan makePlan(const Layout &From, const Layout &To, Algorithm Algo,
              const CostModel &Costs, int64_t StepLimit) {
  CommGrid Grid = computeGrid(From, To);
  checkMatchingWork(Grid, Algo);
  Schedule Sched;
  if (Algo == Algorithm::MinCostSteps) {
    // makeSchedule would take the maximum degree, the least allowed.
    if (StepLimit <= 0)
      StepLimit = std::max<int64_t>(Grid.maxDegree(), 1);
    MinCostOptions Opts;
    Opts.Steps = StepLimit;
    Sched = makeMinCostSchedule(Grid, Opts);
  } else {
    Sched = makeSchedule(Algo, From, To, Grid, Costs);
  }
  if (std::optional<std::string> Problem = validateSchedule(Grid, Sched))
    throw InternalError("the " + Sched.Algorithm +
                        " schedule is invalid: " + *Problem);
  std::optional<Algorithm> Used = parseAlgorithm(Sched.Algorithm);
  if (!Used || *Used == Algorithm::Auto)
    throw InternalError("the library names its algorithm '" + Sched.Algorithm +
                        "'");
  // Ids in increasing order make the reports independent of the order in
  // which a scheduler happened to fill each step.
  for (std::vector<int64_t> &Step : Sched.Steps)
    std::sort(Step.begin(), Step.end());
  Plan Result{From,
              To,
              std::move(Grid),
              std::move(Sched),
              {},
              Algo,
              {},
              Costs,
              Algo == Algorithm::MinCostSteps ? StepLimit : 0,
              false,
              {},
              {}};
  Result.Stats = measureSchedule(Result.Grid, Result.Sched);
  Result.Model = modelName(Algo, *Used);
  Result.Events = stepsOnTimeLine(Result.Grid, Result.Sched);
  Result.EventStats = measureOverlapSchedule(Result.Grid, Result.Events);
  return Result;
}

Plan makeOverlapPlan(const Layout &From, const Layout &To,
                     OverlapAlgorithm Algo) {
  CommGrid Grid = computeGrid(From, To);
  // overlap starts from the stepwise and greedy schedules.
  checkMatchingWork(Grid, Algorithm::Stepwise, overlapAlgorithmName(Algo));
  OverlapSchedule Events = makeOverlapSchedule(Algo, Grid);
  if (std::optional<std::string> Problem =
          validateOverlapSchedule(Grid, Events))
    throw InternalError("the " + Events.Algorithm +
                        " schedule is invalid: " + *Problem);
  Plan Result{From,
              To,
              std::move(Grid),
              {},
              {},
              Algorithm::Auto,
              "overlap",
              CostModel(),
              0,
              true,
              std::move(Events),
              {}};
  Result.Sched.Algorithm = Result.Events.Algorithm;
  Result.Stats = measureSchedule(Result.Grid, Result.Sched);
  Result.EventStats = measureOverlapSchedule(Result.Grid, Result.Events);
  return Result;
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
