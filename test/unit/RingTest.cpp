//===- RingTest.cpp - Ring rebalancing: bounds, algorithms, simulator -----===//
//
// The paper's and the issue's examples with hand-computed values; the
// simulator's rejections; and a seeded property sweep over random rings
// (n <= 16, empty processes, integer and fractional costs): every schedule
// passes the simulator and respects the lower bounds, Algorithms 1-3 meet
// their bounds where every load and target is at least 1, light
// heterogeneous bidirectional cases meet System 6's integer optimum, which
// is checked against a brute force over the flow family. On small rings the
// exhaustive search is the optimum every algorithm is compared with.
//
//===----------------------------------------------------------------------===//

#include "redist/Ring.h"
#include "redist/Error.h"
#include "redist/RingBalance.h"
#include "redist/RingExhaustive.h"
#include "redist/RingFlows.h"
#include "redist/RingSimulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace redist;

namespace {

RingProblem ring(std::vector<std::int64_t> Loads,
                 std::vector<std::int64_t> Targets, std::vector<double> Fwd,
                 bool Bidirectional, std::vector<double> Bwd = {}) {
  RingProblem P;
  P.Loads = std::move(Loads);
  P.Targets = std::move(Targets);
  P.CostFwd = std::move(Fwd);
  P.CostBwd = std::move(Bwd);
  P.Bidirectional = Bidirectional;
  return P;
}

bool near(double A, double B) {
  return std::fabs(A - B) <= ringTimeTolerance(std::max(A, B));
}

/// Every check a planned schedule must pass.
void expectValid(const RingProblem &P, const RingSchedule &S) {
  const RingCheck C = checkRingSchedule(P, S.Transfers);
  ASSERT_TRUE(C.valid()) << S.Algorithm << ": " << C.Error;
  EXPECT_EQ(C.Fwd, S.Fwd) << S.Algorithm;
  EXPECT_EQ(C.Bwd, S.Bwd) << S.Algorithm;
  EXPECT_TRUE(near(C.Makespan, S.Makespan)) << S.Algorithm;
  EXPECT_GE(S.Makespan, S.LowerBound - ringTimeTolerance(S.LowerBound))
      << S.Algorithm;
  if (!P.Bidirectional)
    for (std::int64_t B : S.Bwd) {
      EXPECT_EQ(B, 0) << S.Algorithm;
    }
}

bool everyoneHoldsOne(const RingProblem &P) {
  for (std::int64_t I = 0; I < P.size(); ++I)
    if (P.Loads[I] < 1 || P.Targets[I] < 1)
      return false;
  return true;
}

TEST(Ring, IssueExampleUnidirectional) {
  // loads 5,2,1,3 -> 2,4,3,2: unbalances 3,-2,-2,1; the slice of maximal
  // unbalance starts at process 3, so the flows are delta_{3,i}: 4, 2, 0, 1.
  const RingProblem P = ring({5, 2, 1, 3}, {2, 4, 3, 2}, {1, 2, 1, 1}, false);
  const RingSchedule S = planRing(P, RingAlgorithm::UniHeterogeneous);
  expectValid(P, S);
  EXPECT_EQ(S.Fwd, (std::vector<std::int64_t>{4, 2, 0, 1}));
  // Process 0 sends 4 items over a link of cost 1, process 1 two over cost
  // 2: Theorem 2's bound 4, which Algorithm 2 meets.
  EXPECT_EQ(theorem2Bound(P), 4);
  EXPECT_EQ(S.Makespan, 4);
}

TEST(Ring, CorrectedTheorem2) {
  // docs/paper-corrections.md's example: unbalances (1, -1, 0), link costs (1,
  // 100, 1). Process 1 must receive its item through link 0 -> 1, of cost 1;
  // the printed bound would charge the link that leaves it (100).
  const RingProblem P = ring({2, 1, 1}, {1, 2, 1}, {1, 100, 1}, false);
  EXPECT_EQ(theorem2Bound(P), 1);
  const RingSchedule S = planRing(P, RingAlgorithm::UniHeterogeneous);
  expectValid(P, S);
  EXPECT_EQ(S.Makespan, 1);
  EXPECT_THROW(lemma1Bound(P), InvalidArgument);
}

TEST(Ring, HomogeneousBounds) {
  // Unbalances 4, -1, -1, -1, -1 on equal links: the slice {0} must send 4
  // items (Lemma 1 with c = 2: 8), but both ways at once in the
  // bidirectional ring the single process still sends one at a time
  // (Lemma 6: 4 * 2).
  RingProblem P =
      ring({5, 1, 1, 1, 1}, {1, 2, 2, 2, 2}, {2, 2, 2, 2, 2}, false);
  EXPECT_EQ(lemma1Bound(P), 8);
  P.Bidirectional = true;
  EXPECT_EQ(lemma6Bound(P), 8);
  // Unbalances 2, 2, -2, -2: the slice {0, 1} holds 4 surplus items and
  // sends through both ends: Lemma 6 gives ceil(4 / 2) = 2 steps.
  P = ring({3, 3, 1, 1}, {1, 1, 3, 3}, {1, 1, 1, 1}, true);
  EXPECT_EQ(lemma6Bound(P), 2);
  const RingSchedule S = planRing(P, RingAlgorithm::BiHomogeneous);
  expectValid(P, S);
  EXPECT_EQ(S.Makespan, 2);
  P.Bidirectional = false;
  EXPECT_EQ(lemma1Bound(P), 4);
}

TEST(Ring, Lemma12SplitsSlices) {
  // Process 0 sends 6 items; its links cost 1 (forward) and 2 (backward).
  // Alone: 6 * min(1, 2) = 6. The slice {0, 1} (unbalance 6) may send 2
  // backward (cost 4) and 4 forward from process 1 (4 * 1): 4.
  const RingProblem P =
      ring({7, 1, 1, 1}, {1, 1, 4, 4}, {1, 1, 1, 1}, true, {2, 2, 2, 2});
  EXPECT_EQ(lemma12Bound(P), 6);
  EXPECT_THROW(lemma6Bound(P), InvalidArgument);
}

TEST(Ring, SimulatorRejects) {
  const RingProblem P = ring({0, 2, 0}, {1, 0, 1}, {1, 1, 1}, true);
  // Process 0 sends before it has received anything.
  RingCheck C =
      checkRingSchedule(P, {{0, 1, 0, 1}, {1, 1, 0, 1}, {1, -1, 1, 1}});
  EXPECT_NE(C.Error.find("does not hold"), std::string::npos) << C.Error;
  // Process 1 sends both ways at once.
  C = checkRingSchedule(P, {{1, 1, 0, 1}, {1, -1, 0.5, 1}});
  EXPECT_NE(C.Error.find("sends two items at once"), std::string::npos)
      << C.Error;
  // Process 1 keeps an item.
  C = checkRingSchedule(P, {{1, 1, 0, 1}});
  EXPECT_NE(C.Error.find("instead of its target"), std::string::npos)
      << C.Error;
  // A valid one: the received item can leave at once.
  C = checkRingSchedule(P, {{1, 1, 0, 1}, {1, -1, 1, 1}});
  EXPECT_TRUE(C.valid()) << C.Error;
  EXPECT_EQ(C.Makespan, 2);
  // Backwards on a unidirectional ring; both ports receiving.
  RingProblem Uni = P;
  Uni.Bidirectional = false;
  C = checkRingSchedule(Uni, {{1, -1, 0, 1}});
  EXPECT_NE(C.Error.find("unidirectional"), std::string::npos) << C.Error;
  const RingProblem Q = ring({1, 0, 1}, {0, 2, 0}, {1, 1, 1}, true);
  C = checkRingSchedule(Q, {{0, 1, 0, 1}, {2, -1, 0, 1}});
  EXPECT_NE(C.Error.find("receives two items at once"), std::string::npos)
      << C.Error;
}

TEST(Ring, InvalidProblems) {
  auto Message = [](const RingProblem &P) -> std::string {
    try {
      validateRingProblem(P);
    } catch (const InvalidArgument &E) {
      return E.what();
    }
    return "";
  };
  EXPECT_EQ(Message(ring({1, 2}, {2, 2}, {1, 1}, false)),
            "the loads sum to 3 but the targets to 4; they must be equal");
  EXPECT_EQ(Message(ring({1, -2}, {1, -2}, {1, 1}, false)),
            "loads[1] = -2 is negative");
  EXPECT_EQ(Message(ring({1, 2}, {2, 1}, {1, 0}, false)),
            "c_fwd[1] = 0: a link cost must be a positive finite number");
  EXPECT_EQ(Message(ring({1, 2}, {2, 1}, {1}, false)),
            "the ring has 2 processes but 1 forward link costs");
  EXPECT_EQ(Message(ring({1, 2}, {3}, {1, 1}, false)),
            "the ring has 2 loads but 1 targets");
  EXPECT_EQ(Message(ring({1, 2}, {2, 1}, {1, 1}, true, {1, -1})),
            "c_bwd[1] = -1: a link cost must be a positive finite number");
  EXPECT_THROW(planRing(ring({1, 2}, {2, 1}, {1, 1}, false),
                        RingAlgorithm::BiHeterogeneous),
               InvalidArgument);
  EXPECT_THROW(planRing(ring({1, 2}, {2, 1}, {1, 2}, false),
                        RingAlgorithm::UniHomogeneous),
               InvalidArgument);
}

TEST(Ring, PiecesHoldTheirItems) {
  // A pipeline through empty processes: items must be cut into pieces the
  // sender holds in full.
  const RingProblem P =
      ring({9, 0, 0, 1, 0}, {1, 2, 3, 2, 2}, {1, 0.5, 2, 1, 1}, false);
  const RingSchedule S = planRing(P);
  expectValid(P, S);
  for (std::int64_t Max : {0, 1, 3}) {
    std::vector<RingTransfer> Pieces = chunkRingTransfers(P, S.Transfers, Max);
    std::vector<std::int64_t> Fwd, Bwd;
    countRingTransfers(P.size(), Pieces, Fwd, Bwd);
    EXPECT_EQ(Fwd, S.Fwd);
    // Replay whole pieces: a piece arrives at its end.
    for (const RingTransfer &T : Pieces) {
      if (Max > 0) {
        EXPECT_LE(T.Items, Max);
      }
      std::int64_t Have = P.Loads[T.From];
      for (const RingTransfer &U : Pieces) {
        const std::int64_t To = (U.From + U.Dir + P.size()) % P.size();
        const double End = U.Start + U.Items * P.cost(U.From, U.Dir);
        if (To == T.From && End <= T.Start + 1e-9)
          Have += U.Items;
        if (U.From == T.From && U.Start < T.Start)
          Have -= U.Items;
      }
      EXPECT_GE(Have, T.Items) << "piece from " << T.From << " at " << T.Start;
    }
  }
}

/// Targets with the loads' sum, some of them zero.
std::vector<std::int64_t> randomCounts(std::mt19937_64 &Rng, std::int64_t N,
                                       std::int64_t Total, bool Zeros) {
  std::vector<std::int64_t> Counts(N, Zeros ? 0 : 1);
  std::int64_t Left = Total - (Zeros ? 0 : N);
  std::uniform_int_distribution<std::int64_t> Pick(0, N - 1);
  std::bernoulli_distribution Skip(Zeros ? 0.3 : 0.0);
  std::vector<std::int64_t> Owners;
  for (std::int64_t I = 0; I < N; ++I)
    if (!Skip(Rng))
      Owners.push_back(I);
  if (Owners.empty())
    Owners.push_back(Pick(Rng));
  std::uniform_int_distribution<std::size_t> Owner(0, Owners.size() - 1);
  for (; Left > 0; --Left)
    ++Counts[Owners[Owner(Rng)]];
  return Counts;
}

std::vector<double> randomCosts(std::mt19937_64 &Rng, std::int64_t N,
                                int Kind) {
  std::uniform_int_distribution<int> Int(1, 4);
  std::uniform_int_distribution<int> Quarter(1, 12);
  std::vector<double> Costs(N);
  for (double &C : Costs)
    C = Kind == 0 ? 1.5 : Kind == 1 ? Int(Rng) : Quarter(Rng) * 0.25 + 0.1;
  return Costs;
}

RingProblem randomRing(std::mt19937_64 &Rng, std::int64_t MaxN,
                       std::int64_t MaxPerProcess, bool Zeros) {
  std::uniform_int_distribution<std::int64_t> Size(1, MaxN);
  const std::int64_t N = Size(Rng);
  const std::int64_t Total = std::uniform_int_distribution<std::int64_t>(
      Zeros ? 0 : N, N * MaxPerProcess)(Rng);
  RingProblem P;
  P.Loads = randomCounts(Rng, N, Total, Zeros);
  P.Targets = randomCounts(Rng, N, Total, Zeros);
  const int Kind = std::uniform_int_distribution<int>(0, 2)(Rng);
  P.CostFwd = randomCosts(Rng, N, Kind);
  P.Bidirectional = std::bernoulli_distribution(0.6)(Rng);
  if (P.Bidirectional && std::bernoulli_distribution(0.5)(Rng))
    P.CostBwd = randomCosts(Rng, N, Kind);
  return P;
}

TEST(Ring, PropertySweep) {
  std::mt19937_64 Rng(20261124);
  int Light = 0, Paper = 0, Algorithm3 = 0;
  for (int Case = 0; Case < 1500; ++Case) {
    const bool Zeros = Case % 2 == 0;
    const RingProblem P = randomRing(Rng, 16, 6, Zeros);
    SCOPED_TRACE("case " + std::to_string(Case));
    const double Bound = ringLowerBound(P);
    for (RingAlgorithm A : allRingAlgorithms()) {
      if (A == RingAlgorithm::Exhaustive || !ringAlgorithmRejects(A, P).empty())
        continue;
      const RingSchedule S = planRing(P, A);
      expectValid(P, S);
      EXPECT_EQ(S.LowerBound, Bound);
      if (!everyoneHoldsOne(P))
        continue;
      ++Paper;
      if (A == RingAlgorithm::UniHomogeneous) {
        EXPECT_TRUE(near(S.Makespan, lemma1Bound(P)));
        // Algorithm 1's steps: each process sends all its items back to
        // back from time 0.
        for (const RingTransfer &T : S.Transfers)
          EXPECT_EQ(T.Start, 0);
      }
      if (A == RingAlgorithm::UniHeterogeneous) {
        RingProblem Forward = P;
        Forward.Bidirectional = false;
        Forward.CostBwd.clear();
        EXPECT_TRUE(near(S.Makespan, theorem2Bound(Forward)));
      }
      if (A == RingAlgorithm::BiHomogeneous) {
        ++Algorithm3;
        EXPECT_TRUE(near(S.Makespan, lemma6Bound(P)));
      }
    }
    if (P.Bidirectional) {
      const RingFlowSolution F = solveRingFlows(P);
      // System 6's integer optimum bounds every schedule, Lemma 12 from
      // above; light flows reach it.
      EXPECT_GE(F.Time, lemma12Bound(P) - ringTimeTolerance(F.Time));
      const RingSchedule S = planRing(P, RingAlgorithm::BiHeterogeneous);
      EXPECT_GE(S.Makespan, F.Time - ringTimeTolerance(F.Time));
      if (F.Light) {
        ++Light;
        EXPECT_TRUE(near(S.Makespan, F.Time))
            << S.Makespan << " against " << F.Time;
      }
    }
  }
  // The sweep must exercise what it claims to.
  EXPECT_GT(Light, 100);
  EXPECT_GT(Paper, 300);
  EXPECT_GT(Algorithm3, 50);
}

TEST(Ring, FlowFamilyIsSolvedExactly) {
  std::mt19937_64 Rng(7);
  for (int Case = 0; Case < 400; ++Case) {
    RingProblem P = randomRing(Rng, 12, 8, Case % 3 == 0);
    P.Bidirectional = true;
    SCOPED_TRACE("case " + std::to_string(Case));
    const RingFlowSolution F = solveRingFlows(P);
    const RingFlowRange Range = ringFlowRange(P);
    double BestInteger = 1e300;
    for (std::int64_t X = Range.First - 2; X <= Range.Last + 2; ++X)
      BestInteger = std::min(BestInteger, ringFlowTime(P, double(X)));
    EXPECT_TRUE(near(F.Time, BestInteger)) << F.Time << " " << BestInteger;
    EXPECT_TRUE(near(ringFlowTime(P, double(F.X)), F.Time));
    // The real minimum: never above any point of a fine grid.
    EXPECT_TRUE(near(ringFlowTime(P, F.RealX), F.RealTime));
    for (double X = Range.First - 1.0; X <= Range.Last + 1.0; X += 1.0 / 64) {
      EXPECT_LE(F.RealTime, ringFlowTime(P, X) + ringTimeTolerance(F.RealTime))
          << "at " << X;
    }
    EXPECT_LE(F.RealTime, F.Time + ringTimeTolerance(F.Time));
  }
}

TEST(Ring, ExhaustiveReference) {
  std::mt19937_64 Rng(99);
  int Compared = 0;
  for (int Case = 0; Case < 300; ++Case) {
    RingProblem P = randomRing(Rng, 4, 2, Case % 2 == 0);
    // Integer costs only.
    for (double &C : P.CostFwd)
      C = std::ceil(C);
    for (double &C : P.CostBwd)
      C = std::ceil(C);
    SCOPED_TRACE("case " + std::to_string(Case));
    if (!ringExhaustiveRejects(P).empty())
      continue;
    const RingSchedule Best = planRing(P, RingAlgorithm::Exhaustive);
    expectValid(P, Best);
    ++Compared;
    if (P.Bidirectional) {
      EXPECT_GE(Best.Makespan, solveRingFlows(P).Time - 1e-9);
    }
    for (RingAlgorithm A : allRingAlgorithms()) {
      if (A == RingAlgorithm::Exhaustive || !ringAlgorithmRejects(A, P).empty())
        continue;
      const RingSchedule S = planRing(P, A);
      EXPECT_GE(S.Makespan, Best.Makespan - 1e-9) << S.Algorithm;
      // Unidirectional rings: sending the minimal flows as soon as possible
      // is optimal, with empty processes too.
      if (!P.Bidirectional && A == RingAlgorithm::UniHeterogeneous) {
        EXPECT_EQ(S.Makespan, Best.Makespan);
      }
    }
  }
  EXPECT_GT(Compared, 200);
}

} // namespace

namespace {

TEST(RingBalance, ProportionalTargets) {
  // Speeds 1 : 2 : 1 (seconds per item 2, 1, 2): 10 items as 2.5, 5, 2.5;
  // the remainders go to the lower index first.
  EXPECT_EQ(proportionalTargets({2, 1, 2}, 10),
            (std::vector<std::int64_t>{3, 5, 2}));
  EXPECT_EQ(proportionalTargets({1}, 7), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(proportionalTargets({1, 3}, 0), (std::vector<std::int64_t>{0, 0}));
  std::mt19937_64 Rng(5);
  for (int K = 0; K < 200; ++K) {
    std::vector<double> Times(1 + K % 9);
    for (double &T : Times)
      T = std::uniform_real_distribution<double>(0.1, 5)(Rng);
    const std::int64_t Total = K * 7;
    const std::vector<std::int64_t> T = proportionalTargets(Times, Total);
    EXPECT_EQ(std::accumulate(T.begin(), T.end(), std::int64_t(0)), Total);
    // Each share within one item of the exact proportion.
    double Speeds = 0;
    for (double X : Times)
      Speeds += 1 / X;
    for (std::size_t I = 0; I < T.size(); ++I)
      EXPECT_LT(std::fabs(T[I] - Total / Times[I] / Speeds), 1.0 + 1e-9);
  }
  EXPECT_THROW(proportionalTargets({1, 0}, 3), InvalidArgument);
  EXPECT_THROW(proportionalTargets({1}, -1), InvalidArgument);
}

TEST(RingBalance, Decision) {
  // Rank 1 is twice as slow and holds as many items: an iteration takes 20
  // now and 14 (7 items * 2) after moving 3 items; over 2 iterations the
  // gain is 12.
  const RebalanceDecision D =
      decideRebalance({1, 2}, {10, 10}, {13, 7}, 5.0, 2);
  EXPECT_EQ(D.IterationNow, 20);
  EXPECT_EQ(D.IterationAfter, 14);
  EXPECT_EQ(D.Gain, 12);
  EXPECT_TRUE(D.Worthwhile);
  EXPECT_FALSE(decideRebalance({1, 2}, {10, 10}, {13, 7}, 12.0, 2).Worthwhile);
  EXPECT_FALSE(decideRebalance({1, 2}, {10, 10}, {13, 7}, 0.5, 0).Worthwhile);
  EXPECT_THROW(decideRebalance({1}, {1, 2}, {2, 1}, 1, 1), InvalidArgument);
  // A gain that only equals the move's cost does not pay.
  const RebalanceDecision Even =
      decideRebalance({1, 2}, {10, 10}, {13, 7}, 12.0, 2);
  EXPECT_EQ(Even.Cost, 12);
  EXPECT_FALSE(Even.Worthwhile);
  // Already balanced: no gain, whatever the horizon.
  EXPECT_FALSE(decideRebalance({1, 2}, {14, 7}, {14, 7}, 0, 100).Worthwhile);
  // Over a longer horizon the same move pays.
  EXPECT_TRUE(decideRebalance({1, 2}, {10, 10}, {13, 7}, 12.0, 3).Worthwhile);
  for (const auto &[Call, Value] :
       std::vector<std::pair<std::function<void()>, std::string>>{
           {[] {
              decideRebalance({1, 2}, {1, 2}, {2, 1}, 1, -3);
            },
            "iterations = -3"},
           {[] {
              decideRebalance({1, 2}, {1, 2}, {2, 1}, -0.5, 1);
            },
            "move time = -0.5"},
           {[] {
              decideRebalance({1, 0}, {1, 2}, {2, 1}, 1, 1);
            },
            "process 1 = 0"}}) {
    try {
      Call();
      ADD_FAILURE() << "no error naming " << Value;
    } catch (const InvalidArgument &E) {
      EXPECT_NE(std::string(E.what()).find(Value), std::string::npos)
          << E.what();
    }
  }
}

} // namespace
