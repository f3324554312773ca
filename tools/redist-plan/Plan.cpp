//===- Plan.cpp - A redistribution, its grid and its schedule -------------===//

#include "Plan.h"

#include "SizeLimits.h"

#include "redist/Error.h"
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

/// Sorts each step of Sched and measures it (auto has measured its choice
/// already: sorting ids within a step changes no statistic). Sched is valid:
/// makeSchedule, chooseSchedule, makeArraySchedule and chooseArraySchedule
/// validate what they hand out, and makePlan what makeMinCostSchedule does.
/// (Validating again took a tenth of a 2-million-message plan's time.)
Plan finishPlan(redistplan::Problem Problem, CommGrid Grid, Schedule Sched,
                Algorithm Requested, Algorithm Used, const CostModel &Costs,
                int64_t StepLimit, std::string CostsFrom,
                std::optional<AutoChoice> Choice) {
  // Ids in increasing order make the reports independent of the order in
  // which a scheduler happened to fill each step.
  for (std::vector<int64_t> &Step : Sched.Steps)
    if (!std::is_sorted(Step.begin(), Step.end())) // stepwise's are
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
    if (std::optional<std::string> Invalid = validateSchedule(Grid, Sched))
      throw InternalError("the " + Sched.Algorithm +
                          " schedule is invalid: " + *Invalid);
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

std::string arraySideSpelling(const ArrayLayout &L) {
  std::string S;
  for (size_t G = 0; G < L.grid().size(); ++G)
    S += (G ? "x" : "") + std::to_string(L.grid()[G]);
  S += ':';
  for (int D = 0; D < L.rank(); ++D)
    S += (D ? "," : "") + L.format(D).str();
  return S;
}

namespace {

/// The grid of From -> To with the resolved Region, refused beyond
/// MaxMessages before it is built: every tuple of per-axis messages is a
/// message, so their product counts them.
ArrayGrid boundedArrayGrid(const ArrayLayout &From, const ArrayLayout &To,
                           const ArrayRegion &Region) {
  for (const ArrayLayout *L : {&From, &To})
    if (L->procs() > MaxProcesses)
      throw InvalidArgument(std::string("the ") +
                            (L == &From ? "source" : "target") + " has " +
                            std::to_string(L->procs()) +
                            " processes; redist-plan handles at "
                            "most " +
                            std::to_string(MaxProcesses) + " on a side");
  int64_t Messages = 1;
  for (const AxisGrid &A : computeAxisGrids(From, To, Region)) {
    const int64_t Axis = static_cast<int64_t>(A.Lines.Messages.size());
    if (Axis > 0 && Messages > MaxMessages / Axis)
      throw InvalidArgument("the grid has more than " +
                            std::to_string(MaxMessages) +
                            " messages, the most redist-plan handles");
    Messages *= Axis;
  }
  return computeArrayGrid(From, To, Region);
}

} // namespace

Plan makeGridArrayPlan(const ArrayLayout &From, const ArrayLayout &To,
                       const ArrayRegion &Region, ArrayAlgorithm Algo,
                       const CostModel &Costs, std::string CostsFrom) {
  const ArrayRegion Resolved = resolveRegion(From, To, Region);
  ArrayGrid Grid = boundedArrayGrid(From, To, Resolved);
  // A product runs its algorithm on the axes' grids; the others on the
  // whole.
  if (Algo.Product) {
    for (const AxisGrid &A : Grid.Axes)
      checkMatchingWork(A.Lines, Algo.Base);
  } else {
    checkMatchingWork(Grid.Whole, Algo.Base);
  }
  Schedule Sched;
  std::optional<AutoChoice> Choice;
  if (Algo.Base == Algorithm::Auto) {
    Choice = chooseArraySchedule(From, To, Resolved, Grid, Costs);
    Sched = std::move(Choice->Chosen);
  } else {
    Sched = makeArraySchedule(Algo, From, To, Resolved, Grid, Costs);
  }
  // A product of different algorithms per axis ("product(a,b)") has no
  // single name; only auto chooses one, and auto's model is alpha-beta.
  std::optional<ArrayAlgorithm> Used = parseArrayAlgorithm(Sched.Algorithm);
  if ((!Used && Algo.Base != Algorithm::Auto) ||
      (Used && Used->Base == Algorithm::Auto))
    throw InternalError("the library names its algorithm '" + Sched.Algorithm +
                        "'");
  const Algorithm UsedBase = Used ? Used->Base : Algorithm::Auto;
  const int64_t StepLimit =
      Used && *Used == ArrayAlgorithm{Algorithm::MinCostSteps, false}
          ? leastStepLimit(Grid.Whole)
          : 0;
  return finishPlan(GridArrayProblem{From, To, Resolved}, std::move(Grid.Whole),
                    std::move(Sched), Algo.Base, UsedBase, Costs, StepLimit,
                    std::move(CostsFrom), std::move(Choice));
}

namespace {

/// Schedules Grid with the overlapped scheduler Algo and validates it.
Plan finishOverlapPlan(redistplan::Problem Problem, CommGrid Grid,
                       OverlapAlgorithm Algo, const OverlapOptions &Opts) {
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

Plan makeGridArrayOverlapPlan(const ArrayLayout &From, const ArrayLayout &To,
                              const ArrayRegion &Region, OverlapAlgorithm Algo,
                              const OverlapOptions &Opts) {
  const ArrayRegion Resolved = resolveRegion(From, To, Region);
  return finishOverlapPlan(
      GridArrayProblem{From, To, Resolved},
      std::move(boundedArrayGrid(From, To, Resolved).Whole), Algo, Opts);
}

// A matrix is the rank-2 array of arrayLayoutOf: planned as one, reported
// as a matrix.
Plan makeMatrixPlan(const Layout2D &From, const Layout2D &To, Algorithm2D Algo,
                    const CostModel &Costs, std::string CostsFrom) {
  Plan P = makeGridArrayPlan(arrayLayoutOf(From), arrayLayoutOf(To),
                             ArrayRegion(), Algo, Costs, std::move(CostsFrom));
  P.Problem = MatrixProblem{From, To};
  return P;
}

Plan makeMatrixOverlapPlan(const Layout2D &From, const Layout2D &To,
                           OverlapAlgorithm Algo, const OverlapOptions &Opts) {
  Plan P = makeGridArrayOverlapPlan(arrayLayoutOf(From), arrayLayoutOf(To),
                                    ArrayRegion(), Algo, Opts);
  P.Problem = MatrixProblem{From, To};
  return P;
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
