//===- MinCostTest.cpp - mincost and mincost-steps against brute force ----===//
//
// On every grid of up to 12 messages in the sweeps below, an exhaustive
// search written here, independent of the library's, gives the optimum
// with any number of steps and with at most k steps; mincost and
// mincost-steps(k) must equal it. On larger seeded grids mincost must never
// cost more than greedy or stepwise. The paper examples, which need the
// local search, are redist-plan's lit tests; their exact optima are checked
// here too through the library.
//
//===----------------------------------------------------------------------===//

#include "GenBlockTestUtil.h"

#include "DescribeLayouts.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/MinCost.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

constexpr int64_t Infinite = std::numeric_limits<int64_t>::max();

// The least cost of a schedule of G in at most MaxSteps steps: every
// message in turn goes into each step its processes are free in, or into a
// new one. A partial schedule's cost (the sum of its step maxima) only grows
// as messages are added, so a partial cost at or above the best is cut.
int64_t bruteForceOptimum(const CommGrid &G, int64_t MaxSteps) {
  const size_t N = G.Messages.size();
  std::vector<std::vector<int64_t>> Steps; // message ids of each step
  std::vector<int64_t> StepMax;
  int64_t Best = Infinite;
  auto Visit = [&](auto &&Self, size_t Pos, int64_t Cost) -> void {
    if (Cost >= Best)
      return;
    if (Pos == N) {
      Best = Cost;
      return;
    }
    const Message &M = G.Messages[Pos];
    for (size_t K = 0; K < Steps.size(); ++K) {
      bool Free = true;
      for (int64_t Id : Steps[K])
        Free =
            Free && G.Messages[Id].Src != M.Src && G.Messages[Id].Dst != M.Dst;
      if (!Free)
        continue;
      const int64_t OldMax = StepMax[K];
      Steps[K].push_back(static_cast<int64_t>(Pos));
      StepMax[K] = std::max(OldMax, M.Len);
      Self(Self, Pos + 1, Cost - OldMax + StepMax[K]);
      Steps[K].pop_back();
      StepMax[K] = OldMax;
    }
    if (static_cast<int64_t>(Steps.size()) < MaxSteps) {
      Steps.push_back({static_cast<int64_t>(Pos)});
      StepMax.push_back(M.Len);
      Self(Self, Pos + 1, Cost + M.Len);
      Steps.pop_back();
      StepMax.pop_back();
    }
  };
  Visit(Visit, 0, 0);
  return Best;
}

int64_t costOf(const CommGrid &G, const Schedule &S) {
  return measureSchedule(G, S).Cost;
}

// mincost and mincost-steps(k), k from the maximum degree up to the steps
// of the free optimum, against the brute force.
void expectOptimal(const CommGrid &G, const std::string &Where) {
  SCOPED_TRACE(Where);
  const int64_t N = static_cast<int64_t>(G.Messages.size());
  MinCostReport Report;
  const Schedule Free = makeMinCostSchedule(G, MinCostOptions(), &Report);
  ASSERT_EQ(validateSchedule(G, Free), std::nullopt);
  const int64_t Want = bruteForceOptimum(G, N);
  EXPECT_EQ(costOf(G, Free), Want);
  EXPECT_TRUE(Report.ProvedOptimal);
  EXPECT_LE(Report.LowerBound, Want);
  const int64_t Degree = G.maxDegree();
  for (int64_t K = std::max<int64_t>(Degree, 1);
       K <= std::max<int64_t>(Degree, static_cast<int64_t>(Free.Steps.size()));
       ++K) {
    MinCostOptions Opts;
    Opts.Steps = K;
    const Schedule S = makeMinCostSchedule(G, Opts, &Report);
    ASSERT_EQ(validateSchedule(G, S), std::nullopt) << "k = " << K;
    EXPECT_LE(static_cast<int64_t>(S.Steps.size()), K);
    EXPECT_EQ(costOf(G, S), bruteForceOptimum(G, K)) << "k = " << K;
    EXPECT_TRUE(Report.ProvedOptimal) << "k = " << K;
  }
}

TEST(MinCostTest, BruteForceOnSmallBlockCyclicGrids) {
  int64_t Grids = 0;
  for (int64_t P = 1; P <= 6; ++P)
    for (int64_t Q = 1; Q <= 6; ++Q)
      for (int64_t R = 1; R <= 4; ++R)
        for (int64_t S = 1; S <= 4; ++S) {
          const int64_t A = P * R, B = Q * S;
          const int64_t L = A / std::gcd(A, B) * B;
          for (int64_t N : {L, L / 2 + 1}) {
            const Layout From = Layout::blockCyclic(P, R, N);
            const Layout To = Layout::blockCyclic(Q, S, N);
            const CommGrid G = computeGrid(From, To);
            if (G.Messages.size() > 12)
              continue;
            ++Grids;
            expectOptimal(G, describeCyclic(P, R, Q, S, N));
          }
        }
  EXPECT_GT(Grids, 300);
}

TEST(MinCostTest, BruteForceOnRandomGrids) {
  // Arbitrary bipartite grids with arbitrary lengths, and GEN_BLOCK chains.
  std::mt19937_64 Rng(17);
  std::uniform_int_distribution<int64_t> Procs(1, 7);
  for (int I = 0; I < 300; ++I) {
    expectOptimal(randomBipartiteGrid(Rng, 6, 0.45, 12),
                  "random grid " + std::to_string(I));
    CommGrid Chain = genBlockGrid(randomSizes(Rng, Procs(Rng), 40, 0.2),
                                  randomSizes(Rng, Procs(Rng), 40, 0.2));
    if (Chain.Messages.size() <= 12)
      expectOptimal(Chain, "chain " + std::to_string(I));
  }
}

TEST(MinCostTest, NeverAboveGreedyOrStepwiseOnLargerGrids) {
  std::mt19937_64 Rng(23);
  std::uniform_int_distribution<int64_t> Procs(1, 24), Block(1, 12);
  for (int I = 0; I < 300; ++I) {
    const int64_t P = Procs(Rng), Q = Procs(Rng), R = Block(Rng),
                  S = Block(Rng);
    const int64_t A = P * R, B = Q * S;
    const int64_t L = A / std::gcd(A, B) * B;
    const int64_t N = I % 2 == 0 ? L : L * 2 / 3 + 1;
    const Layout From = Layout::blockCyclic(P, R, N);
    const Layout To = Layout::blockCyclic(Q, S, N);
    const CommGrid G = computeGrid(From, To);
    SCOPED_TRACE(std::to_string(P) + " " + std::to_string(R) + " " +
                 std::to_string(Q) + " " + std::to_string(S) + " N " +
                 std::to_string(N));
    const int64_t Stepwise =
        costOf(G, makeSchedule(Algorithm::Stepwise, From, To, G));
    const int64_t Greedy =
        costOf(G, makeSchedule(Algorithm::Greedy, From, To, G));
    const Schedule Min = makeSchedule(Algorithm::MinCost, From, To, G);
    const Schedule MinSteps =
        makeSchedule(Algorithm::MinCostSteps, From, To, G);
    ASSERT_EQ(validateSchedule(G, Min), std::nullopt);
    ASSERT_EQ(validateSchedule(G, MinSteps), std::nullopt);
    EXPECT_LE(costOf(G, Min), std::min(Stepwise, Greedy));
    EXPECT_LE(costOf(G, MinSteps), Stepwise);
    EXPECT_EQ(static_cast<int64_t>(MinSteps.Steps.size()), G.maxDegree());
  }
}

CommGrid cyclicGrid(int64_t P, int64_t R, int64_t Q, int64_t S) {
  const int64_t A = P * R, B = Q * S;
  const int64_t L = A / std::gcd(A, B) * B;
  return computeGrid(Layout::blockCyclic(P, R, L),
                     Layout::blockCyclic(Q, S, L));
}

struct PaperCase {
  const char *Name;
  CommGrid G;
  int64_t Steps; ///< 0: any number
  int64_t Optimum;
};

TEST(MinCostTest, PaperExamplesReachTheirOptima) {
  // The exact optima of docs/paper-corrections.md.
  const CommGrid Ex3 = cyclicGrid(15, 3, 15, 5), Ex4 = cyclicGrid(12, 4, 8, 3),
                 Ex5 = cyclicGrid(15, 2, 6, 3),
                 Scpa = genBlockGrid({12, 20, 15, 14, 11, 9, 9, 11},
                                     {17, 10, 13, 6, 17, 12, 11, 15});
  const PaperCase Cases[] = {
      {"example 5", Ex5, 0, 16},      {"example 5", Ex5, 10, 20},
      {"example 3", Ex3, 0, 23},      {"example 3", Ex3, 10, 25},
      {"example 4", Ex4, 4, 8},       {"example 4", Ex4, 0, 8},
      {"scpa figure 1", Scpa, 0, 25}, {"scpa figure 1", Scpa, 3, 25},
  };
  for (const PaperCase &C : Cases) {
    SCOPED_TRACE(std::string(C.Name) + ", steps " + std::to_string(C.Steps));
    MinCostOptions Opts;
    Opts.Steps = C.Steps;
    const Schedule S = makeMinCostSchedule(C.G, Opts);
    ASSERT_EQ(validateSchedule(C.G, S), std::nullopt);
    EXPECT_EQ(costOf(C.G, S), C.Optimum);
  }
  // Example 5's optimum takes 11 steps, one more than the degree.
  EXPECT_EQ(makeMinCostSchedule(Ex5).Steps.size(), 11u);
}

TEST(MinCostTest, BudgetsAreSettable) {
  // Example 3: 24 from the seeds, 23 after the local search (it needs more
  // than 1000 moves without a new best), and no exact search at 105
  // messages.
  const CommGrid G = cyclicGrid(15, 3, 15, 5);
  MinCostReport Report;
  EXPECT_EQ(costOf(G, makeMinCostSchedule(G, MinCostOptions(), &Report)), 23);
  EXPECT_EQ(Report.SeedCost, 24);
  EXPECT_FALSE(Report.ProvedOptimal); // above the bound, 21, unproved
  MinCostOptions Stall;
  Stall.SearchStall = 1000;
  EXPECT_EQ(costOf(G, makeMinCostSchedule(G, Stall)), 24);
  MinCostOptions NoSearch;
  NoSearch.SearchMessages = 0;
  EXPECT_EQ(costOf(G, makeMinCostSchedule(G, NoSearch, &Report)), 24);
  EXPECT_EQ(Report.SearchCost, 24);
}

TEST(MinCostTest, StepLimitBelowTheDegreeIsAnError) {
  const CommGrid G = cyclicGrid(12, 4, 8, 3); // degree 4
  MinCostOptions Opts;
  for (int64_t K : {-1, 1, 3}) {
    Opts.Steps = K;
    EXPECT_THROW(makeMinCostSchedule(G, Opts), InvalidArgument) << K;
  }
  Opts.Steps = 4;
  EXPECT_EQ(makeMinCostSchedule(G, Opts).Algorithm, "mincost-steps");
  EXPECT_EQ(makeMinCostSchedule(G).Algorithm, "mincost");
}

TEST(MinCostTest, DeterministicAndFastOnAllToAll) {
  // 24 x 24 all-to-all (r = 12, s = 13: g = 24 <= r + s - 1): 576 messages.
  const CommGrid G = cyclicGrid(24, 12, 24, 13);
  ASSERT_EQ(G.Messages.size(), 576u);
  const auto Start = std::chrono::steady_clock::now();
  const Schedule A = makeMinCostSchedule(G);
  const std::chrono::duration<double, std::milli> Took =
      std::chrono::steady_clock::now() - Start;
  EXPECT_LT(Took.count(), 100.0);
  EXPECT_EQ(makeMinCostSchedule(G).Steps, A.Steps);
}

} // namespace
