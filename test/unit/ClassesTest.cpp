//===- ClassesTest.cpp - The class-by-class schedule of desprez-1998 ------===//
//
// Examples 1 and 2 of desprez-1998 (docs/paper-corrections.md: costs 15 and
// 77, the per-process lower bound), the applicability
// conditions, and sweeps that every class schedule is valid, and optimal in
// steps and cost at whole slices.
//
//===----------------------------------------------------------------------===//

#include "../../lib/schedulers/SchedulerImpls.h"

#include "DescribeLayouts.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

struct Planned {
  CommGrid G;
  Schedule S;
  ScheduleStats Stats;
};

Planned plan(int64_t P, int64_t R, int64_t Q, int64_t S, int64_t N) {
  Layout From = Layout::blockCyclic(P, R, N);
  Layout To = Layout::blockCyclic(Q, S, N);
  Planned Result;
  Result.G = computeGrid(From, To);
  Result.S = detail::scheduleClasses(From, To, Result.G);
  Result.Stats = measureSchedule(Result.G, Result.S);
  return Result;
}

int64_t lcm(int64_t A, int64_t B) { return A / std::gcd(A, B) * B; }

/// Length of the messages of each step, checking they are all equal.
std::vector<int64_t> stepLengths(const Planned &Pl) {
  std::vector<int64_t> Lengths;
  for (const std::vector<int64_t> &Step : Pl.S.Steps) {
    EXPECT_FALSE(Step.empty());
    if (Step.empty())
      continue;
    int64_t Len = Pl.G.Messages[Step.front()].Len;
    for (int64_t Id : Step)
      EXPECT_EQ(Pl.G.Messages[Id].Len, Len) << "unequal lengths in a step";
    Lengths.push_back(Len);
  }
  return Lengths;
}

TEST(ClassesTest, Example1) {
  // P = Q = 16, r = 3, s = 5, L = 240: 7 classes of one complete step each.
  Planned Pl = plan(16, 3, 16, 5, 240);
  ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
  EXPECT_EQ(Pl.S.Algorithm, "classes");
  EXPECT_EQ(Pl.G.maxDegree(), 7);
  EXPECT_EQ(Pl.Stats.Steps, 7);
  EXPECT_EQ(Pl.Stats.Cost, 15);
  EXPECT_EQ(Pl.Stats.CostLowerBound, 15);
  for (const std::vector<int64_t> &Step : Pl.S.Steps)
    EXPECT_EQ(Step.size(), 16u) << "a complete step";
  // One step per class k in [-2, 4], of length vol(k).
  std::vector<int64_t> Lengths = stepLengths(Pl);
  std::sort(Lengths.begin(), Lengths.end());
  EXPECT_EQ(Lengths, (std::vector<int64_t>{1, 1, 2, 2, 3, 3, 3}));
}

TEST(ClassesTest, Example1StepsAreClasses) {
  Planned Pl = plan(16, 3, 16, 5, 240);
  for (const std::vector<int64_t> &Step : Pl.S.Steps) {
    const Message &First = Pl.G.Messages[Step.front()];
    int64_t Class = ((First.Src * 3 - First.Dst * 5) % 16 + 16) % 16;
    for (int64_t Id : Step) {
      const Message &M = Pl.G.Messages[Id];
      EXPECT_EQ(((M.Src * 3 - M.Dst * 5) % 16 + 16) % 16, Class);
    }
  }
}

TEST(ClassesTest, Example2) {
  // P = Q = 16, r = 7, s = 11, L = 1232: 17 classes regrouped modulo 16
  // (k = -6 and k = 10 share a step), all-to-all in 16 steps.
  Planned Pl = plan(16, 7, 16, 11, 1232);
  ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
  EXPECT_EQ(Pl.G.Messages.size(), 256u);
  EXPECT_EQ(Pl.Stats.Steps, 16);
  EXPECT_EQ(Pl.Stats.Cost, 77);
  EXPECT_EQ(Pl.Stats.CostLowerBound, 77);
  std::vector<int64_t> Lengths = stepLengths(Pl);
  std::sort(Lengths.begin(), Lengths.end());
  EXPECT_EQ(Lengths, (std::vector<int64_t>{2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7,
                                           7, 7, 7, 7}));
}

TEST(ClassesTest, ScaledAndRepeatedExamples) {
  // gcd(r, s) = 2 doubles every length; four slices quadruple them.
  Planned Scaled = plan(16, 6, 16, 10, 480);
  ASSERT_EQ(validateSchedule(Scaled.G, Scaled.S), std::nullopt);
  EXPECT_EQ(Scaled.Stats.Steps, 7);
  EXPECT_EQ(Scaled.Stats.Cost, 30);
  Planned Repeated = plan(16, 7, 16, 11, 4 * 1232);
  ASSERT_EQ(validateSchedule(Repeated.G, Repeated.S), std::nullopt);
  EXPECT_EQ(Repeated.Stats.Steps, 16);
  EXPECT_EQ(Repeated.Stats.Cost, 4 * 77);
}

TEST(ClassesTest, DifferentGridSizes) {
  // P = 10, Q = 15: g = 5, two classes of max(2, 3) = 3 steps each.
  Planned Pl = plan(10, 2, 15, 1, 60);
  ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
  EXPECT_EQ(Pl.Stats.Steps, 6);
  EXPECT_EQ(Pl.Stats.StepsLowerBound, 6);
  EXPECT_EQ(Pl.Stats.Cost, Pl.Stats.CostLowerBound);
  for (const std::vector<int64_t> &Step : Pl.S.Steps)
    EXPECT_EQ(Step.size(), 10u) << "complete: min(P, Q) messages";
  // P = 12, Q = 8, r = 1, s = 5: five classes regrouped modulo g = 4.
  Planned Full = plan(12, 1, 8, 5, 120);
  ASSERT_EQ(validateSchedule(Full.G, Full.S), std::nullopt);
  EXPECT_EQ(Full.G.Messages.size(), 96u);
  EXPECT_EQ(Full.Stats.Steps, 12);
  EXPECT_EQ(Full.Stats.Cost, Full.Stats.CostLowerBound);
}

TEST(ClassesTest, AppliesExplainsWhatFails) {
  std::string Why;
  EXPECT_TRUE(detail::classesApplies(Layout::blockCyclic(16, 3, 240),
                                     Layout::blockCyclic(16, 5, 240), &Why));
  // Example 3: r = 3 and Q = 15 share a factor.
  EXPECT_FALSE(detail::classesApplies(Layout::blockCyclic(15, 3, 225),
                                      Layout::blockCyclic(15, 5, 225), &Why));
  EXPECT_EQ(Why, "classes needs gcd(r', Q) = 1 with r' = r / gcd(r, s) "
                 "(got r'=3, Q=15, gcd 3)");
  // r = 6, s = 4: r' = 3, s' = 2, and s' divides P = 16.
  EXPECT_FALSE(detail::classesApplies(Layout::blockCyclic(16, 6, 192),
                                      Layout::blockCyclic(16, 4, 192), &Why));
  EXPECT_EQ(Why, "classes needs gcd(s', P) = 1 with s' = s / gcd(r, s) "
                 "(got s'=2, P=16, gcd 2)");
  // The common factor of r and s does not count: r' = 1, s' = 3.
  EXPECT_TRUE(detail::classesApplies(Layout::blockCyclic(16, 4, 192),
                                     Layout::blockCyclic(16, 12, 192), &Why));
  Layout Gen(Distribution::genBlock({3, 0, 5, 2}), 10);
  EXPECT_FALSE(
      detail::classesApplies(Layout::blockCyclic(3, 1, 10), Gen, &Why));
  EXPECT_NE(Why.find("classes needs block-cyclic layouts"), std::string::npos);
  EXPECT_NE(Why.find(Gen.distribution().str()), std::string::npos);

  Layout From = Layout::blockCyclic(15, 3, 225);
  Layout To = Layout::blockCyclic(15, 5, 225);
  EXPECT_THROW(detail::scheduleClasses(From, To, computeGrid(From, To)),
               InvalidArgument);
}

TEST(ClassesTest, RejectsAGridOfOtherLayouts) {
  Layout From = Layout::blockCyclic(16, 3, 240);
  Layout To = Layout::blockCyclic(16, 5, 240);
  // 0 -> 2 is in class 0 * 3 - 2 * 5 = 6 mod 16, outside [-2, 4].
  ASSERT_EQ(computeGrid(From, To).length(0, 2), 0);
  CommGrid Foreign{16, 16, {Message{0, 2, 1}}};
  EXPECT_THROW(detail::scheduleClasses(From, To, Foreign), InvalidArgument);
  CommGrid Small = computeGrid(Layout::blockCyclic(8, 3, 120),
                               Layout::blockCyclic(8, 5, 120));
  EXPECT_THROW(detail::scheduleClasses(From, To, Small), InvalidArgument);
}

TEST(ClassesTest, RetrievesWalkerOttoWhenFactorAndProcessesAreCoprime) {
  // Remark 1: for s = K r on P = Q processes with gcd(K, P) = 1 the classes
  // are Walker and Otto's steps, in some order.
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t K = 1; K <= 8; ++K) {
      if (std::gcd(P, K) != 1)
        continue;
      SCOPED_TRACE("P=" + std::to_string(P) + " K=" + std::to_string(K));
      Layout From = Layout::blockCyclic(P, 2, 2 * P * K);
      Layout To = Layout::blockCyclic(P, 2 * K, 2 * P * K);
      CommGrid G = computeGrid(From, To);
      std::vector<std::vector<int64_t>> Classes =
          detail::scheduleClasses(From, To, G).Steps;
      std::vector<std::vector<int64_t>> WalkerOtto =
          detail::scheduleWalkerOtto(From, To, G).Steps;
      std::sort(Classes.begin(), Classes.end());
      std::sort(WalkerOtto.begin(), WalkerOtto.end());
      EXPECT_EQ(Classes, WalkerOtto);
    }
}

/// Checks one redistribution of the sweeps; at whole slices the schedule is
/// optimal and every step holds messages of one length.
void checkCase(int64_t P, int64_t R, int64_t Q, int64_t S, int64_t N) {
  Layout From = Layout::blockCyclic(P, R, N);
  Layout To = Layout::blockCyclic(Q, S, N);
  SCOPED_TRACE(describeCyclic(P, R, Q, S, N));
  CommGrid G = computeGrid(From, To);
  Schedule Sched = detail::scheduleClasses(From, To, G);
  ASSERT_EQ(validateSchedule(G, Sched), std::nullopt);
  ScheduleStats Stats = measureSchedule(G, Sched);
  EXPECT_EQ(Stats.Steps, Stats.NonEmptySteps) << "empty steps are dropped";
  for (const std::vector<int64_t> &Step : Sched.Steps)
    EXPECT_TRUE(std::is_sorted(Step.begin(), Step.end())) << "ids ascending";
  if (N == 0 || N % lcm(P * R, Q * S) != 0)
    return;
  EXPECT_EQ(Stats.Steps, Stats.StepsLowerBound);
  EXPECT_EQ(Stats.Cost, Stats.CostLowerBound);
  for (const std::vector<int64_t> &Step : Sched.Steps) {
    EXPECT_EQ(static_cast<int64_t>(Step.size()), std::min(P, Q));
    for (int64_t Id : Step)
      ASSERT_EQ(G.Messages[Id].Len, G.Messages[Step.front()].Len);
  }
}

/// Calls F(P, R, Q, S) for every case of the sweep where classes applies.
template <typename Fn>
void forEachApplicable(int64_t MaxProcs, int64_t MaxBlock, Fn &&F) {
  for (int64_t P = 1; P <= MaxProcs; ++P)
    for (int64_t Q = 1; Q <= MaxProcs; ++Q)
      for (int64_t R = 1; R <= MaxBlock; ++R)
        for (int64_t S = 1; S <= MaxBlock; ++S) {
          int64_t D = std::gcd(R, S);
          bool Applies = std::gcd(R / D, Q) == 1 && std::gcd(S / D, P) == 1;
          ASSERT_EQ(Applies, detail::classesApplies(
                                 Layout::blockCyclic(P, R, 0),
                                 Layout::blockCyclic(Q, S, 0), nullptr));
          if (Applies)
            F(P, R, Q, S);
        }
}

TEST(ClassesTest, SweepIsValidAndOptimal) {
  forEachApplicable(24, 12, [](int64_t P, int64_t R, int64_t Q, int64_t S) {
    checkCase(P, R, Q, S, lcm(P * R, Q * S));
  });
}

TEST(ClassesTest, SweepRaggedSizes) {
  forEachApplicable(12, 8, [](int64_t P, int64_t R, int64_t Q, int64_t S) {
    int64_t L = lcm(P * R, Q * S);
    for (int64_t N : {L - 1, L + L / 2 + 1})
      checkCase(P, R, Q, S, N);
  });
}

TEST(ClassesTest, SlowSweepRaggedSizes) {
  forEachApplicable(24, 12, [](int64_t P, int64_t R, int64_t Q, int64_t S) {
    int64_t L = lcm(P * R, Q * S);
    for (int64_t N :
         {3 * L, L - 1, L / 3 + 1, L + L / 2 + 1, int64_t(1), int64_t(0)})
      checkCase(P, R, Q, S, N);
  });
}

TEST(ClassesTest, MakeScheduleDispatchesHere) {
  Layout From = Layout::blockCyclic(16, 3, 240);
  Layout To = Layout::blockCyclic(16, 5, 240);
  CommGrid G = computeGrid(From, To);
  ASSERT_TRUE(algorithmApplies(Algorithm::Classes, From, To));
  Schedule Made = makeSchedule(Algorithm::Classes, From, To, G);
  EXPECT_EQ(Made.Algorithm, "classes");
  EXPECT_EQ(Made.Steps, detail::scheduleClasses(From, To, G).Steps);
}

} // namespace
