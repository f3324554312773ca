//===- ScpaTest.cpp - scpa against the paper's worked example -------------===//
//
// scpa-gen-block, Figures 1-9 (sizes from docs/paper-corrections.md): the 15
// messages and their lengths, the maximum degree, and SCPA's schedule message
// by message and in placement order. Then seeded sweeps: every schedule is
// valid, has maximum-degree steps, and the alternating-path repair (for the
// case the paper never meets) is exercised and correct.
//
//===----------------------------------------------------------------------===//

#include "GenBlockTestUtil.h"

#include "../../lib/schedulers/GenBlockSchedulers.h"
#include "../../lib/schedulers/MessageChain.h"

#include "redist/Error.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace redist;
using namespace redist::detail;
using namespace redist::test;

namespace {

const std::vector<int64_t> PaperSource = {12, 20, 15, 14, 11, 9, 9, 11};
const std::vector<int64_t> PaperTarget = {17, 10, 13, 6, 17, 12, 11, 15};

// The paper numbers messages m1..m15; our ids are 0..14.
int64_t m(int64_t PaperNumber) { return PaperNumber - 1; }

TEST(ScpaTest, PaperExampleMessages) {
  CommGrid G = genBlockGrid(PaperSource, PaperTarget);
  // Figure 2's lengths, m1..m15.
  const std::vector<int64_t> Lengths = {12, 5, 10, 5, 8, 6, 1, 14,
                                        2,  9, 3,  6, 5, 4, 11};
  ASSERT_EQ(G.Messages.size(), Lengths.size());
  for (size_t I = 0; I < Lengths.size(); ++I)
    EXPECT_EQ(G.Messages[I].Len, Lengths[I]) << "m" << I + 1;
  // {m2, m3, m4} leave SP1, {m7, m8, m9} reach DP4.
  EXPECT_EQ(G.Messages[m(2)].Src, 1);
  EXPECT_EQ(G.Messages[m(4)].Src, 1);
  EXPECT_EQ(G.Messages[m(7)].Dst, 4);
  EXPECT_EQ(G.Messages[m(9)].Dst, 4);

  MessageChain Chain = analyseChain(G);
  EXPECT_EQ(Chain.MaxDegree, 3);
  // The MDMSs of Figure 8 without the erratum's {m4, m5}: SP1, SP2, DP4.
  std::vector<std::pair<int64_t, int64_t>> Mdms;
  for (const MessageRun &Run : Chain.Runs)
    if (Run.size() == 3)
      Mdms.push_back({Run.First, Run.Last});
  std::vector<std::pair<int64_t, int64_t>> Expected = {
      {m(2), m(4)}, {m(5), m(7)}, {m(7), m(9)}};
  EXPECT_EQ(Mdms, Expected);
}

TEST(ScpaTest, PaperExampleSchedule) {
  CommGrid G = genBlockGrid(PaperSource, PaperTarget);
  ScpaReport Report;
  Schedule S = scheduleScpa(G, &Report);
  EXPECT_EQ(S.Algorithm, "scpa");
  // Figure 9, each step in the order the paper places the messages: first
  // the conflict points m4, m7 (Figure 8's S3), then the MDMS messages m8,
  // m3, m5, m6, m2, m9, then m1, m15, m10, m12, m13, m14, m11.
  std::vector<std::vector<int64_t>> Figure9 = {
      {m(8), m(3), m(5), m(1), m(15), m(10), m(12)},
      {m(6), m(2), m(9), m(13), m(11)},
      {m(4), m(7), m(14)}};
  EXPECT_EQ(S.Steps, Figure9);
  EXPECT_EQ(Report.ConflictPoints, 2);
  EXPECT_EQ(Report.Repairs, 0);
  EXPECT_EQ(checkSchedule(G, S), std::nullopt);
  EXPECT_EQ(costOf(G, S), 25); // 14 + 6 + 5
}

TEST(ScpaTest, PaperExampleIsOptimal) {
  // 25 is the optimum with 3 steps and with any number of steps.
  CommGrid G = genBlockGrid(PaperSource, PaperTarget);
  std::optional<Schedule> Three = scheduleExact(G, StepLimit::MaxDegree);
  std::optional<Schedule> Any = scheduleExact(G, StepLimit::Any);
  ASSERT_TRUE(Three && Any);
  EXPECT_EQ(costOf(G, *Three), 25);
  EXPECT_EQ(Three->Steps.size(), 3u);
  EXPECT_EQ(costOf(G, *Any), 25);
}

TEST(ScpaTest, TrivialGrids) {
  // No message at all, then one process on each side.
  CommGrid Empty = genBlockGrid({0, 0}, {0, 0, 0});
  EXPECT_TRUE(scheduleScpa(Empty).Steps.empty());
  CommGrid One = genBlockGrid({7}, {7});
  Schedule S = scheduleScpa(One);
  EXPECT_EQ(S.Steps, (std::vector<std::vector<int64_t>>{{0}}));
  // Equal partitions: degree 1, everything in one step.
  CommGrid Same = genBlockGrid({3, 0, 5, 2}, {3, 5, 0, 2});
  S = scheduleScpa(Same);
  ASSERT_EQ(S.Steps.size(), 1u);
  EXPECT_EQ(S.Steps[0].size(), 3u);
}

TEST(ScpaTest, RejectsGridsThatAreNotChains) {
  // Process 0 sends to 0 and 2, process 1 to 1: not contiguous segments.
  CommGrid G;
  G.P = 2;
  G.Q = 3;
  G.Messages = {{0, 0, 1}, {0, 2, 1}, {1, 1, 1}};
  try {
    scheduleScpa(G);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument &E) {
    EXPECT_NE(std::string(E.what()).find("message 2 (1 -> 1"),
              std::string::npos)
        << E.what();
  }
  G.Messages = {{0, 0, 0}};
  EXPECT_THROW(scheduleScpa(G), InvalidArgument);
}

TEST(ScpaTest, StuckMessageIsPlacedByExchange) {
  // 6,7,8 -> 0,10,11: m1 = 0->1 (6), m2 = 1->1 (4), m3 = 1->2 (3),
  // m4 = 2->2 (8), a path, so the two steps must alternate. The conflict
  // point m2 goes to S2 (m3, sharing sender 1 with it, cannot join it); then
  // by size m4 and m1 go to S1, and m3 conflicts with m4 in S1 and with m2 in
  // S2. The exchange moves m4 to S2 and m3 takes S1.
  CommGrid G = genBlockGrid({6, 7, 8}, {0, 10, 11});
  ASSERT_EQ(G.Messages.size(), 4u);
  ScpaReport Report;
  Schedule S = scheduleScpa(G, &Report);
  EXPECT_EQ(Report.ConflictPoints, 1);
  EXPECT_EQ(Report.Repairs, 1);
  EXPECT_EQ(S.Steps, (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(checkSchedule(G, S), std::nullopt);
  EXPECT_EQ(costOf(G, S), 14);
}

// Seeded random pairs of partitions, some segments empty.
void sweep(uint64_t Seed, int Instances, int64_t MaxProcs, int64_t Total,
           int64_t &Repairs) {
  std::mt19937_64 Rng(Seed);
  std::uniform_int_distribution<int64_t> Procs(1, MaxProcs);
  for (int I = 0; I < Instances; ++I) {
    std::vector<int64_t> Src = randomSizes(Rng, Procs(Rng), Total, 0.15);
    std::vector<int64_t> Dst = randomSizes(Rng, Procs(Rng), Total, 0.15);
    CommGrid G = genBlockGrid(Src, Dst);
    ScpaReport Report;
    Schedule S = scheduleScpa(G, &Report);
    ASSERT_EQ(checkSchedule(G, S), std::nullopt) << "instance " << I;
    ASSERT_EQ(static_cast<int64_t>(S.Steps.size()), maxDegreeOf(G))
        << "instance " << I;
    for (const std::vector<int64_t> &Step : S.Steps)
      ASSERT_FALSE(Step.empty()) << "instance " << I;
    Repairs += Report.Repairs;
  }
}

TEST(ScpaTest, RandomInstancesAreValid) {
  int64_t Repairs = 0;
  sweep(1, 300, 12, 60, Repairs);
  sweep(2, 200, 40, 1000, Repairs);
}

TEST(ScpaTest, RepairKeepsMaximumDegreeSteps) {
  // The sweep meets many messages that fit in no step (about one instance
  // in twelve needs the exchange); every schedule stays valid with k steps.
  int64_t Repairs = 0;
  sweep(3, 300, 30, 200, Repairs);
  EXPECT_GT(Repairs, 0);
}

TEST(ScpaTest, SlowLargeRandomInstancesAreValid) {
  int64_t Repairs = 0;
  sweep(4, 3000, 64, 1000000, Repairs);
  sweep(5, 3000, 20, 100, Repairs);
}

} // namespace
