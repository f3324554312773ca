//===- Schedulers2DTest.cpp - Schedules of 2-D grids ----------------------===//
//
// Every 2-D algorithm that applies gives a valid schedule of the whole grid;
// a product schedule has steps_row * steps_col steps and costs
// cost_row * cost_col; and, whenever both factors meet their 1-D bounds, the
// product meets the 2-D bound exactly when one side (senders or receivers)
// sets the bound in both dimensions (ArraySchedulers.cpp proves it). auto is
// never predicted slower than any candidate, and weighs them with 1-D auto's
// model, gamma * critical messages included.
//
//===----------------------------------------------------------------------===//

#include "RandomLayout2D.h"

#include "redist/ArrayGrid.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers2D.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

/// The most messages (Degrees) or elements (!Degrees) of one sender and of
/// one receiver of G.
std::pair<int64_t, int64_t> sideMaxima(const CommGrid &G, bool Degrees) {
  std::vector<int64_t> Sent(static_cast<size_t>(G.P), 0);
  std::vector<int64_t> Received(static_cast<size_t>(G.Q), 0);
  for (const Message &M : G.Messages) {
    Sent[static_cast<size_t>(M.Src)] += Degrees ? 1 : M.Len;
    Received[static_cast<size_t>(M.Dst)] += Degrees ? 1 : M.Len;
  }
  return {*std::max_element(Sent.begin(), Sent.end()),
          *std::max_element(Received.begin(), Received.end())};
}

/// Whether the product of bound-meeting factors must meet the 2-D bound of
/// this kind: one side sets the 1-D bound in both dimensions.
bool sameSideSetsBounds(const ArrayGrid &G, bool Degrees) {
  auto [RowSend, RowReceive] = sideMaxima(G.Axes[0].Lines, Degrees);
  auto [ColSend, ColReceive] = sideMaxima(G.Axes[1].Lines, Degrees);
  int64_t RowBound = std::max(RowSend, RowReceive);
  int64_t ColBound = std::max(ColSend, ColReceive);
  return (RowSend == RowBound && ColSend == ColBound) ||
         (RowReceive == RowBound && ColReceive == ColBound);
}

/// Checks the product of A's 1-D schedules against its factors.
void checkProduct(Algorithm A, const Layout2D &From, const Layout2D &To,
                  const ArrayGrid &G) {
  SCOPED_TRACE(algorithmName(A));
  const CommGrid &Rows = G.Axes[0].Lines, &Cols = G.Axes[1].Lines;
  Schedule RowS = makeSchedule(A, From.rows(), To.rows(), Rows);
  Schedule ColS = makeSchedule(A, From.cols(), To.cols(), Cols);
  Schedule S = productSchedule(G, {RowS, ColS});
  ASSERT_EQ(validateSchedule(G.Whole, S), std::nullopt);
  ScheduleStats Row = measureSchedule(Rows, RowS);
  ScheduleStats Col = measureSchedule(Cols, ColS);
  ScheduleStats Whole = measureSchedule(G.Whole, S);
  EXPECT_EQ(Whole.Steps, Row.Steps * Col.Steps);
  EXPECT_EQ(Whole.Cost, Row.Cost * Col.Cost);
  if (G.Whole.Messages.empty())
    return;
  if (Row.Steps == Row.StepsLowerBound && Col.Steps == Col.StepsLowerBound) {
    EXPECT_EQ(Whole.Steps == Whole.StepsLowerBound,
              sameSideSetsBounds(G, /*Degrees=*/true))
        << Whole.Steps << " steps, bound " << Whole.StepsLowerBound;
  }
  if (Row.Cost == Row.CostLowerBound && Col.Cost == Col.CostLowerBound) {
    EXPECT_EQ(Whole.Cost == Whole.CostLowerBound,
              sameSideSetsBounds(G, /*Degrees=*/false))
        << "cost " << Whole.Cost << ", bound " << Whole.CostLowerBound;
  }
}

TEST(Schedulers2DTest, NamesRoundTrip) {
  for (Algorithm2D A : allAlgorithms2D())
    EXPECT_EQ(parseAlgorithm2D(algorithm2DName(A)), A) << algorithm2DName(A);
  EXPECT_EQ(algorithm2DName({Algorithm::Classes, true}), "product(classes)");
  EXPECT_FALSE(parseAlgorithm2D("classes"));       // needs 1-D layouts
  EXPECT_FALSE(parseAlgorithm2D("product(auto)")); // not an algorithm
  EXPECT_FALSE(parseAlgorithm2D("product(stepwise"));
}

TEST(Schedulers2DTest, ProductOfOptimalFactorsCanMissTheBound) {
  // Rows 2 -> 1 process, columns 1 -> 2: each 1-D grid needs 2 steps, the
  // product takes 2 * 2 = 4, but the 2-D grid is 2 senders x 2 receivers,
  // one element each, which 2 steps schedule.
  Layout2D From = Layout2D::blockCyclic(2, 2, 2, 1, 1, 2);
  Layout2D To = Layout2D::blockCyclic(2, 2, 1, 2, 2, 1);
  ArrayGrid G = matrixGrid(From, To);
  Schedule Product = makeSchedule2D({Algorithm::Stepwise, true}, From, To, G);
  ScheduleStats Stats = measureSchedule(G.Whole, Product);
  EXPECT_EQ(Stats.Steps, 4);
  EXPECT_EQ(Stats.StepsLowerBound, 2);
  Schedule Direct = makeSchedule2D({Algorithm::Stepwise, false}, From, To, G);
  EXPECT_EQ(measureSchedule(G.Whole, Direct).Steps, 2);
  // auto keeps a 2-step schedule (the caterpillar's, first in its list).
  EXPECT_EQ(measureSchedule(
                G.Whole, makeSchedule2D({Algorithm::Auto, false}, From, To, G))
                .Steps,
            2);
  checkProduct(Algorithm::Stepwise, From, To, G);
}

TEST(Schedulers2DTest, ProductOfWalkerOttoMeetsBothBounds) {
  // Same grid both ways, r -> 2r in both dimensions: Walker & Otto meet
  // both 1-D bounds on each side, so the product meets the 2-D ones.
  Layout2D From = Layout2D::blockCyclic(16, 24, 2, 3, 2, 2);
  Layout2D To = Layout2D::blockCyclic(16, 24, 2, 3, 4, 4);
  ArrayGrid G = matrixGrid(From, To);
  Schedule S = makeSchedule2D({Algorithm::WalkerOtto, true}, From, To, G);
  EXPECT_EQ(S.Algorithm, "product(walker_otto)");
  ScheduleStats Stats = measureSchedule(G.Whole, S);
  EXPECT_EQ(Stats.Steps, Stats.StepsLowerBound);
  EXPECT_EQ(Stats.Cost, Stats.CostLowerBound);
  checkProduct(Algorithm::WalkerOtto, From, To, G);
}

TEST(Schedulers2DTest, LayoutBoundAlgorithmsNeedTheProduct) {
  Layout2D From = Layout2D::blockCyclic(4, 4, 2, 2, 1, 1);
  Layout2D To = Layout2D::blockCyclic(4, 4, 2, 2, 2, 2);
  ArrayGrid G = matrixGrid(From, To);
  try {
    makeSchedule2D({Algorithm::Classes, false}, From, To, G);
    ADD_FAILURE() << "no InvalidArgument";
  } catch (const InvalidArgument &E) {
    EXPECT_STREQ(E.what(), "algorithm 'classes' does not apply: classes needs "
                           "1-D layouts; use product(classes)");
  }
}

TEST(Schedulers2DTest, SeededSweep) {
  std::mt19937_64 Rng(1996);
  for (int Trial = 0; Trial < 300; ++Trial) {
    const int64_t M = uniform(Rng, 0, 12), N = uniform(Rng, 0, 12);
    Layout2D From = randomLayout2D(Rng, M, N, 3);
    Layout2D To = randomLayout2D(Rng, M, N, 3);
    SCOPED_TRACE(describe(From, To));
    ArrayGrid G = matrixGrid(From, To);
    double AutoTime = 0, BestTime = -1;
    CostModel Model;
    for (Algorithm2D A : allAlgorithms2D()) {
      SCOPED_TRACE(algorithm2DName(A));
      if (!algorithm2DApplies(A, From, To)) {
        EXPECT_THROW(makeSchedule2D(A, From, To, G), InvalidArgument);
        continue;
      }
      Schedule S = makeSchedule2D(A, From, To, G);
      ASSERT_EQ(validateSchedule(G.Whole, S), std::nullopt);
      ScheduleStats Stats = measureSchedule(G.Whole, S);
      double Time = Model.predict(Stats);
      if (A.Base == Algorithm::Auto) {
        AutoTime = Time;
        continue;
      }
      EXPECT_EQ(S.Algorithm, algorithm2DName(A));
      if (BestTime < 0 || Time < BestTime)
        BestTime = Time;
      if (A == Algorithm2D{Algorithm::Stepwise, false}) {
        EXPECT_EQ(Stats.Steps, Stats.StepsLowerBound);
      }
      if (A.Product)
        checkProduct(A.Base, From, To, G);
    }
    EXPECT_LE(AutoTime, BestTime);
  }
}

TEST(Schedulers2DTest, AutoWeighsEveryCandidateAsIn1D) {
  // cyclic2d.test's example: stepwise meets the step bound but not the cost
  // bound, so auto weighs every candidate.
  Layout2D From = Layout2D::blockCyclic(4, 6, 2, 2, 1, 3);
  Layout2D To = Layout2D::blockCyclic(4, 6, 1, 3, 4, 2);
  ArrayGrid G = matrixGrid(From, To);
  for (double Gamma : {0.0, 1.0}) {
    CostModel Model;
    Model.Gamma = Gamma;
    SCOPED_TRACE(Gamma);
    const AutoChoice C = chooseSchedule2D(From, To, G, Model);
    ASSERT_LT(C.Best, C.Candidates.size());
    bool SawProduct = false;
    for (const AutoCandidate &A : C.Candidates) {
      ASSERT_TRUE(A.Failure.empty()) << A.Name;
      SawProduct |= A.Name.rfind("product(", 0) == 0;
      EXPECT_DOUBLE_EQ(A.Seconds, Model.predict(A.Stats)) << A.Name;
      EXPECT_GE(A.Seconds, C.Candidates[C.Best].Seconds) << A.Name;
      EXPECT_GT(A.Stats.CriticalMessages, 0) << A.Name;
    }
    EXPECT_TRUE(SawProduct);
    EXPECT_EQ(C.Chosen.Algorithm, C.Candidates[C.Best].Name);
    EXPECT_EQ(measureSchedule(G.Whole, C.Chosen).CriticalMessages,
              C.Candidates[C.Best].Stats.CriticalMessages);
    EXPECT_EQ(C.Chosen.Choice.rfind(C.Chosen.Algorithm + ": predicted ", 0), 0u)
        << C.Chosen.Choice;
    EXPECT_EQ(
        makeSchedule2D({Algorithm::Auto, false}, From, To, G, Model).Steps,
        C.Chosen.Steps);
  }
  // With gamma alone, the pick has the fewest critical messages.
  CostModel OnlyGamma;
  OnlyGamma.Alpha = 0;
  OnlyGamma.BetaPerByte = 0;
  OnlyGamma.Gamma = 1;
  const AutoChoice C = chooseSchedule2D(From, To, G, OnlyGamma);
  for (const AutoCandidate &A : C.Candidates)
    EXPECT_LE(C.Candidates[C.Best].Stats.CriticalMessages,
              A.Stats.CriticalMessages)
        << A.Name;
}

} // namespace

// makeGridSchedule, for the runtime's sub-matrix grids: the algorithms that
// schedule any grid give valid schedules, auto one no slower than each of
// them, and the layout-bound ones are refused by name.
TEST(Schedulers2DTest, GridScheduleWithoutLayouts) {
  std::mt19937_64 Rng(2024);
  CostModel Model;
  for (int Trial = 0; Trial < 100; ++Trial) {
    const int64_t M = uniform(Rng, 1, 12), N = uniform(Rng, 1, 12);
    Layout2D From = randomLayout2D(Rng, M, N, 3);
    Layout2D To = randomLayout2D(Rng, M, N, 3);
    SCOPED_TRACE(describe(From, To));
    const CommGrid G = matrixGrid(From, To).Whole;
    const Schedule Auto = makeGridSchedule(Algorithm::Auto, G, Model);
    ASSERT_EQ(validateSchedule(G, Auto), std::nullopt);
    const double AutoTime = Model.predict(measureSchedule(G, Auto));
    for (Algorithm A : {Algorithm::Caterpillar, Algorithm::Stepwise,
                        Algorithm::Greedy, Algorithm::MinCost}) {
      const Schedule S = makeGridSchedule(A, G, Model);
      ASSERT_EQ(validateSchedule(G, S), std::nullopt);
      EXPECT_LE(AutoTime, Model.predict(measureSchedule(G, S)));
    }
  }
  const CommGrid G = matrixGrid(Layout2D::blockCyclic(8, 8, 2, 2, 2, 2),
                                Layout2D::blockCyclic(8, 8, 2, 2, 4, 4))
                         .Whole;
  try {
    makeGridSchedule(Algorithm::Classes, G);
    FAIL() << "classes needs layouts";
  } catch (const InvalidArgument &E) {
    EXPECT_NE(std::string(E.what()).find("'classes'"), std::string::npos);
  }
}
