//===- PartialSliceTest.cpp - classes and walker_otto on incomplete slices
//-===//
//
// Below one slice (N < L = lcm(P r, Q s)) the closed forms of classes and
// walker_otto leave the surviving messages spread over the steps of a whole
// slice, many more than the partial grid's maximum degree. repairSteps
// brings them down to it and the schedule says so in its Note. The sweep
// covers CYCLIC(r) on P -> CYCLIC(s) on Q for P, Q <= 24, r, s <= 12 at a
// random N below L and at a random N between L and 2L (a whole slice and a
// tail, which needs no repair): every schedule is valid and takes exactly the
// step lower bound. walker_otto turns out to need no repair there (nor for
// P <= 40, r, s <= 40 at any N below L); it keeps the check all the same.
//
//===----------------------------------------------------------------------===//

#include "DescribeLayouts.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <optional>
#include <random>

using namespace redist;
using test::describe;

namespace {

struct Outcome {
  ScheduleStats Stats;
  std::string Note;
};

Outcome scheduleWith(Algorithm A, const Layout &From, const Layout &To) {
  CommGrid G = computeGrid(From, To);
  Schedule S = makeSchedule(A, From, To, G);
  EXPECT_EQ(validateSchedule(G, S), std::nullopt);
  return {measureSchedule(G, S), S.Note};
}

TEST(PartialSliceTest, IssueExamplesReachTheStepBound) {
  // Issue 16: 19 steps for a bound of 3, and 12 for a bound of 2.
  Outcome A = scheduleWith(Algorithm::Classes, Layout::blockCyclic(13, 1, 39),
                           Layout::blockCyclic(19, 2, 39));
  EXPECT_EQ(A.Stats.StepsLowerBound, 3);
  EXPECT_EQ(A.Stats.Steps, 3);
  EXPECT_EQ(A.Note, "classes spreads the messages of this incomplete slice "
                    "over 19 steps, more than the grid's maximum degree 3; "
                    "rescheduled in 3 steps, longest messages first");
  Outcome B = scheduleWith(Algorithm::Classes, Layout::blockCyclic(11, 4, 46),
                           Layout::blockCyclic(21, 2, 46));
  EXPECT_EQ(B.Stats.StepsLowerBound, 2);
  EXPECT_EQ(B.Stats.Steps, 2);
  EXPECT_NE(B.Note.find("over 12 steps"), std::string::npos) << B.Note;
}

TEST(PartialSliceTest, WholeSlicesNeedNoRepair) {
  Outcome A = scheduleWith(Algorithm::Classes, Layout::blockCyclic(16, 3, 240),
                           Layout::blockCyclic(16, 5, 240));
  EXPECT_EQ(A.Stats.Steps, 7);
  EXPECT_EQ(A.Note, "");
}

TEST(PartialSliceTest, SweepMeetsTheStepBound) {
  std::mt19937_64 Rng(16);
  int64_t Repaired = 0, Checked = 0;
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t Q = 1; Q <= 24; ++Q)
      for (int64_t R = 1; R <= 12; ++R)
        for (int64_t S = 1; S <= 12; ++S) {
          const int64_t A = P * R, B = Q * S, L = A / std::gcd(A, B) * B;
          const int64_t Below = 1 + static_cast<int64_t>(Rng() % L);
          const int64_t Above = L + 1 + static_cast<int64_t>(Rng() % L);
          for (int64_t N : {Below, Above}) {
            Layout From = Layout::blockCyclic(P, R, N);
            Layout To = Layout::blockCyclic(Q, S, N);
            for (Algorithm Algo : {Algorithm::Classes, Algorithm::WalkerOtto}) {
              if (!algorithmApplies(Algo, From, To))
                continue;
              SCOPED_TRACE(describe(From, To) + ", " + algorithmName(Algo));
              Outcome O = scheduleWith(Algo, From, To);
              ASSERT_EQ(O.Stats.Steps, O.Stats.StepsLowerBound);
              EXPECT_EQ(O.Stats.NonEmptySteps, O.Stats.Steps);
              // walker_otto never needs the repair here; classes does
              // below one slice only.
              if (N > L || Algo == Algorithm::WalkerOtto) {
                EXPECT_EQ(O.Note, "");
              }
              Repaired += !O.Note.empty();
              ++Checked;
            }
          }
        }
  // Repairs are common below one slice: the sweep does exercise them.
  EXPECT_GT(Repaired, Checked / 10) << Repaired << " of " << Checked;
}

} // namespace
