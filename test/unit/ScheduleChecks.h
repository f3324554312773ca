//===- ScheduleChecks.h - What every scheduler promises, for sweeps -------===//
//
// Shared by SchedulersTest.cpp and PropertySweepTest.cpp: runs every
// algorithm that applies to one redistribution through makeSchedule and
// checks the schedule against the validator and against what the algorithm
// promises (Schedulers.h):
//   caterpillar  max(P, Q) steps;
//   stepwise     exactly the maximum degree, the step lower bound;
//   greedy       at least the maximum degree;
//   scpa, chain  the maximum degree; chain never costs more than scpa;
//   classes,     at whole slices (N a multiple of L = lcm(P r, Q s)) both
//   walker_otto  lower bounds, steps and cost. The bounds are not always
//                reachable (desprez-1998 Examples 3 and 5, see
//                docs/paper-corrections.md), but neither closed form
//                applies to those grids;
//   mincost      never costs more than stepwise or greedy;
//   mincost-steps  the maximum degree, never costs more than stepwise;
//   auto         one of the others, never predicted slower than any.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_SCHEDULECHECKS_H
#define REDIST_TEST_UNIT_SCHEDULECHECKS_H

#include "DescribeLayouts.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>

namespace redist {
namespace test {

/// Whether the closed forms must meet both lower bounds on From -> To: a
/// whole number of slices of two block-cyclic layouts.
inline bool wholeSlices(const Layout &From, const Layout &To) {
  if (!From.isBlockCyclic() || !To.isBlockCyclic() || From.extent() == 0)
    return false;
  const int64_t A = From.procs() * From.blockSize();
  const int64_t B = To.procs() * To.blockSize();
  const int64_t L = A / std::gcd(A, B) * B;
  return From.extent() % L == 0;
}

/// Checks every algorithm that applies to From -> To, whose grid is G; auto,
/// mincost and mincost-steps too when CheckAuto (auto reruns the others,
/// and the mincost pair searches for milliseconds, so sweeps may skip them).
inline void checkEverySchedule(const Layout &From, const Layout &To,
                               const CommGrid &G, bool CheckAuto) {
  SCOPED_TRACE(describe(From, To));
  const int64_t MaxDegree = G.maxDegree();
  const bool Optimal = wholeSlices(From, To);
  const CostModel Model;
  double BestPredicted = std::numeric_limits<double>::infinity();
  std::optional<int64_t> ScpaCost, StepwiseCost, GreedyCost;
  for (Algorithm A : allAlgorithms()) {
    if (A == Algorithm::Auto || !algorithmApplies(A, From, To))
      continue;
    if (!CheckAuto && (A == Algorithm::MinCost || A == Algorithm::MinCostSteps))
      continue;
    SCOPED_TRACE(algorithmName(A));
    const Schedule S = makeSchedule(A, From, To, G);
    ASSERT_EQ(validateSchedule(G, S), std::nullopt);
    EXPECT_EQ(S.Algorithm, algorithmName(A));
    const ScheduleStats Stats = measureSchedule(G, S);
    BestPredicted = std::min(BestPredicted, Model.predict(Stats));
    switch (A) {
    case Algorithm::Caterpillar:
      EXPECT_EQ(Stats.Steps, std::max(G.P, G.Q));
      break;
    case Algorithm::Stepwise:
      EXPECT_EQ(Stats.Steps, MaxDegree);
      StepwiseCost = Stats.Cost;
      break;
    case Algorithm::Greedy:
      EXPECT_GE(Stats.Steps, MaxDegree);
      GreedyCost = Stats.Cost;
      break;
    // Both come after stepwise and greedy, which apply to every grid.
    case Algorithm::MinCost:
      ASSERT_TRUE(StepwiseCost && GreedyCost);
      EXPECT_LE(Stats.Cost, std::min(*StepwiseCost, *GreedyCost));
      break;
    case Algorithm::MinCostSteps:
      ASSERT_TRUE(StepwiseCost.has_value());
      EXPECT_EQ(Stats.Steps, MaxDegree);
      EXPECT_LE(Stats.Cost, *StepwiseCost);
      break;
    case Algorithm::Scpa:
      EXPECT_EQ(Stats.Steps, MaxDegree);
      ScpaCost = Stats.Cost;
      break;
    case Algorithm::Chain:
      EXPECT_EQ(Stats.Steps, MaxDegree);
      // scpa comes first in allAlgorithms() and applies wherever chain does.
      ASSERT_TRUE(ScpaCost.has_value());
      EXPECT_LE(Stats.Cost, *ScpaCost);
      break;
    case Algorithm::Classes:
    case Algorithm::WalkerOtto:
      EXPECT_EQ(Stats.NonEmptySteps, Stats.Steps) << "empty steps are dropped";
      if (Optimal) {
        EXPECT_EQ(Stats.Steps, Stats.StepsLowerBound);
        EXPECT_EQ(Stats.Cost, Stats.CostLowerBound);
      }
      break;
    case Algorithm::Auto:
      break;
    }
  }
  if (CheckAuto) {
    SCOPED_TRACE("auto");
    const Schedule S = makeSchedule(Algorithm::Auto, From, To, G);
    ASSERT_EQ(validateSchedule(G, S), std::nullopt);
    EXPECT_NE(S.Algorithm, "auto");
    EXPECT_LE(Model.predict(measureSchedule(G, S)), BestPredicted);
  }
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_SCHEDULECHECKS_H
