//===- SchedulersTest.cpp - caterpillar, stepwise, greedy, auto -----------===//
//
// - Names: every algorithm round-trips through its name; unknown names fail.
// - The examples of desprez-1998 (with docs/paper-corrections.md):
//   caterpillar on Examples 1, 2 and 4, stepwise on Examples 2-5, greedy on
//   Example 5.
// - Exactness: on random bipartite grids and on dense block-cyclic grids,
//   every stepwise step covers all vertices of maximum degree and weighs as
//   much as the heaviest matching that does (brute force on tiny grids, an
//   O(n^3) Hungarian reference otherwise); every greedy step is a heaviest
//   matching and, among those, serves the most processes of maximum degree.
// - Sweeps (ScheduleChecks.h says what each algorithm must do): random
//   GEN_BLOCK and mixed pairs here; every block-cyclic case with P, Q <= 24
//   and r, s <= 12 at two extents in PropertySweepTest.cpp, at three more in
//   the Slow test here.
// - makeSchedule's errors, and determinism.
// - Incomplete slices whose target lists hold one weight and source lists
//   several: the matcher's greedy pass starts with the targets there, and
//   stays exact.
//
//===----------------------------------------------------------------------===//

#include "ScheduleChecks.h"

#include "../../lib/schedulers/SchedulerImpls.h"
#include "../../lib/schedulers/StepMatcher.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

int64_t lcm(int64_t A, int64_t B) { return A / std::gcd(A, B) * B; }

struct Redistribution {
  Layout From, To;
  CommGrid G;
};

Redistribution blockCyclic(int64_t P, int64_t R, int64_t Q, int64_t S,
                           int64_t N) {
  Layout From = Layout::blockCyclic(P, R, N);
  Layout To = Layout::blockCyclic(Q, S, N);
  CommGrid G = computeGrid(From, To);
  return {From, To, G};
}

/// One whole slice, N = L = lcm(P r, Q s): the grids of the paper's tables.
Redistribution slice(int64_t P, int64_t R, int64_t Q, int64_t S) {
  return blockCyclic(P, R, Q, S, lcm(P * R, Q * S));
}

ScheduleStats run(Algorithm A, const Redistribution &Rd,
                  Schedule *Out = nullptr) {
  Schedule S = makeSchedule(A, Rd.From, Rd.To, Rd.G);
  EXPECT_EQ(validateSchedule(Rd.G, S), std::nullopt) << algorithmName(A);
  ScheduleStats Stats = measureSchedule(Rd.G, S);
  if (Out)
    *Out = std::move(S);
  return Stats;
}

//===----------------------------------------------------------------------===//
// References for one step on the remaining graph.
//===----------------------------------------------------------------------===//

/// The messages not yet scheduled, as a weighted bipartite graph.
struct Remaining {
  int64_t P = 0, Q = 0;
  std::vector<Message> Edges; // Src in [0, P), Dst in [0, Q)
  std::vector<int64_t> Ids;   // message id of each edge

  explicit Remaining(const CommGrid &G) : P(G.P), Q(G.Q), Edges(G.Messages) {
    Ids.resize(Edges.size());
    std::iota(Ids.begin(), Ids.end(), 0);
  }
  /// Degrees: sources 0..P-1, then targets P..P+Q-1.
  std::vector<int64_t> degrees() const {
    std::vector<int64_t> D(P + Q, 0);
    for (const Message &M : Edges) {
      ++D[M.Src];
      ++D[P + M.Dst];
    }
    return D;
  }
  void remove(const std::vector<int64_t> &StepIds) {
    std::vector<char> Gone(*std::max_element(Ids.begin(), Ids.end()) + 1, 0);
    for (int64_t Id : StepIds)
      Gone[Id] = 1;
    size_t Kept = 0;
    for (size_t I = 0; I < Edges.size(); ++I)
      if (!Gone[Ids[I]]) {
        Edges[Kept] = Edges[I];
        Ids[Kept++] = Ids[I];
      }
    Edges.resize(Kept);
    Ids.resize(Kept);
  }
};

/// Value of a matching under per-edge Value; nullopt if Must-cover vertices
/// are left out. Brute force over all matchings: tiny graphs only.
std::optional<int64_t>
bruteForceBest(const Remaining &R, const std::vector<char> &Must,
               const std::function<int64_t(const Message &)> &Value) {
  std::vector<std::vector<size_t>> BySrc(R.P);
  for (size_t I = 0; I < R.Edges.size(); ++I)
    BySrc[R.Edges[I].Src].push_back(I);
  std::vector<char> TargetUsed(R.Q, 0);
  std::optional<int64_t> Best;
  std::function<void(int64_t, int64_t)> Go = [&](int64_t Src, int64_t Sum) {
    if (Src == R.P) {
      for (int64_t T = 0; T < R.Q; ++T)
        if (Must[R.P + T] && !TargetUsed[T])
          return;
      if (!Best || Sum > *Best)
        Best = Sum;
      return;
    }
    if (!Must[Src])
      Go(Src + 1, Sum);
    for (size_t I : BySrc[Src]) {
      const Message &M = R.Edges[I];
      if (TargetUsed[M.Dst])
        continue;
      TargetUsed[M.Dst] = 1;
      Go(Src + 1, Sum + Value(M));
      TargetUsed[M.Dst] = 0;
    }
  };
  Go(0, 0);
  return Best;
}

/// The same by the Hungarian method, O((P + Q)^3): a perfect assignment
/// between sources + one stand-in per target, and targets + one stand-in per
/// source. A vertex may take its own stand-in (stay unmatched) unless Must;
/// stand-ins pair freely among themselves.
std::optional<int64_t>
hungarianBest(const Remaining &R, const std::vector<char> &Must,
              const std::function<int64_t(const Message &)> &Value) {
  const int64_t N = R.P + R.Q;
  if (N == 0)
    return 0;
  const int64_t Forbidden = int64_t(1) << 50;
  std::vector<std::vector<int64_t>> Cost(N, std::vector<int64_t>(N, Forbidden));
  for (const Message &M : R.Edges)
    Cost[M.Src][M.Dst] = -Value(M);
  for (int64_t Src = 0; Src < R.P; ++Src)
    if (!Must[Src])
      Cost[Src][R.Q + Src] = 0;
  for (int64_t Dst = 0; Dst < R.Q; ++Dst) {
    if (!Must[R.P + Dst])
      Cost[R.P + Dst][Dst] = 0;
    for (int64_t Src = 0; Src < R.P; ++Src)
      Cost[R.P + Dst][R.Q + Src] = 0;
  }
  // Kuhn-Munkres with potentials, rows and columns numbered from 1.
  const int64_t Inf = std::numeric_limits<int64_t>::max() / 4;
  std::vector<int64_t> U(N + 1, 0), V(N + 1, 0), RowOf(N + 1, 0), Way(N + 1, 0);
  for (int64_t Row = 1; Row <= N; ++Row) {
    RowOf[0] = Row;
    int64_t Col = 0;
    std::vector<int64_t> MinSlack(N + 1, Inf);
    std::vector<char> Used(N + 1, 0);
    do {
      Used[Col] = 1;
      int64_t R0 = RowOf[Col], Delta = Inf, NextCol = 0;
      for (int64_t J = 1; J <= N; ++J) {
        if (Used[J])
          continue;
        int64_t Cur = Cost[R0 - 1][J - 1] - U[R0] - V[J];
        if (Cur < MinSlack[J]) {
          MinSlack[J] = Cur;
          Way[J] = Col;
        }
        if (MinSlack[J] < Delta) {
          Delta = MinSlack[J];
          NextCol = J;
        }
      }
      for (int64_t J = 0; J <= N; ++J) {
        if (Used[J]) {
          U[RowOf[J]] += Delta;
          V[J] -= Delta;
        } else {
          MinSlack[J] -= Delta;
        }
      }
      Col = NextCol;
    } while (RowOf[Col] != 0);
    do {
      int64_t Prev = Way[Col];
      RowOf[Col] = RowOf[Prev];
      Col = Prev;
    } while (Col != 0);
  }
  int64_t Total = 0;
  for (int64_t J = 1; J <= N; ++J) {
    int64_t C = Cost[RowOf[J] - 1][J - 1];
    if (C >= Forbidden)
      return std::nullopt;
    Total += C;
  }
  return -Total;
}

using Reference =
    std::optional<int64_t> (*)(const Remaining &, const std::vector<char> &,
                               const std::function<int64_t(const Message &)> &);

/// Checks that S is a matching of R and returns its value under Value.
int64_t stepValue(const Remaining &R, const CommGrid &G,
                  const std::vector<int64_t> &Step,
                  const std::function<int64_t(const Message &)> &Value,
                  std::vector<char> *Covered) {
  Covered->assign(R.P + R.Q, 0);
  int64_t Sum = 0;
  for (int64_t Id : Step) {
    const Message &M = G.Messages[Id];
    EXPECT_EQ(std::count(R.Ids.begin(), R.Ids.end(), Id), 1)
        << "message " << Id << " is not left to schedule";
    (*Covered)[M.Src] = (*Covered)[R.P + M.Dst] = 1;
    Sum += Value(M);
  }
  return Sum;
}

/// Every stepwise step covers the vertices of maximum degree and is a
/// heaviest such matching.
void checkStepwiseExact(const CommGrid &G, Reference Best) {
  Schedule S = detail::scheduleStepwise(G);
  ASSERT_EQ(validateSchedule(G, S), std::nullopt);
  ASSERT_EQ(static_cast<int64_t>(S.Steps.size()), G.maxDegree());
  auto Length = [](const Message &M) { return M.Len; };
  Remaining R(G);
  for (size_t Step = 0; Step < S.Steps.size(); ++Step) {
    std::vector<int64_t> Deg = R.degrees();
    const int64_t MaxDeg = *std::max_element(Deg.begin(), Deg.end());
    std::vector<char> Must(Deg.size());
    for (size_t V = 0; V < Deg.size(); ++V)
      Must[V] = Deg[V] == MaxDeg;
    std::vector<char> Covered;
    int64_t Got = stepValue(R, G, S.Steps[Step], Length, &Covered);
    for (size_t V = 0; V < Deg.size(); ++V) {
      if (Must[V]) {
        EXPECT_TRUE(Covered[V]) << "step " << Step << " leaves vertex " << V
                                << " of maximum degree " << MaxDeg;
      }
    }
    std::optional<int64_t> Want = Best(R, Must, Length);
    ASSERT_TRUE(Want.has_value());
    EXPECT_EQ(Got, *Want) << "step " << Step;
    R.remove(S.Steps[Step]);
  }
}

/// Every greedy step is a heaviest matching, and among those one that serves
/// the most processes of maximum remaining degree.
void checkGreedyExact(const CommGrid &G, Reference Best) {
  Schedule S = detail::scheduleGreedy(G);
  ASSERT_EQ(validateSchedule(G, S), std::nullopt);
  Remaining R(G);
  for (size_t Step = 0; Step < S.Steps.size(); ++Step) {
    std::vector<int64_t> Deg = R.degrees();
    const int64_t MaxDeg = *std::max_element(Deg.begin(), Deg.end());
    // Weight first, then the count of maximum-degree processes served,
    // which is at most P + Q.
    const int64_t K = R.P + R.Q + 1;
    auto Length = [](const Message &M) { return M.Len; };
    auto Lexicographic = [&](const Message &M) {
      return M.Len * K + (Deg[M.Src] == MaxDeg) + (Deg[R.P + M.Dst] == MaxDeg);
    };
    std::vector<char> None(Deg.size(), 0), Covered;
    int64_t Got = stepValue(R, G, S.Steps[Step], Length, &Covered);
    EXPECT_EQ(Got, *Best(R, None, Length)) << "step " << Step;
    EXPECT_EQ(stepValue(R, G, S.Steps[Step], Lexicographic, &Covered),
              *Best(R, None, Lexicographic))
        << "step " << Step << ": fewer processes of maximum degree served";
    R.remove(S.Steps[Step]);
  }
  EXPECT_TRUE(R.Edges.empty());
}

/// A random bipartite grid with few distinct lengths, so ties abound.
CommGrid randomGrid(std::mt19937_64 &Rng, int64_t MaxP, int64_t MaxQ,
                    int64_t MaxLen, double Density) {
  CommGrid G;
  G.P = std::uniform_int_distribution<int64_t>(1, MaxP)(Rng);
  G.Q = std::uniform_int_distribution<int64_t>(1, MaxQ)(Rng);
  std::bernoulli_distribution Edge(Density);
  std::uniform_int_distribution<int64_t> Len(1, MaxLen);
  for (int64_t Src = 0; Src < G.P; ++Src)
    for (int64_t Dst = 0; Dst < G.Q; ++Dst)
      if (Edge(Rng))
        G.Messages.push_back({Src, Dst, Len(Rng)});
  return G;
}

} // namespace

//===----------------------------------------------------------------------===//
// Names.
//===----------------------------------------------------------------------===//

TEST(SchedulersTest, NamesRoundTrip) {
  std::vector<Algorithm> All = allAlgorithms();
  ASSERT_EQ(All.size(), 10u);
  EXPECT_EQ(All.front(), Algorithm::Auto);
  std::vector<std::string> Names;
  for (Algorithm A : All) {
    Names.push_back(algorithmName(A));
    EXPECT_EQ(parseAlgorithm(algorithmName(A)), A);
  }
  EXPECT_EQ(Names,
            (std::vector<std::string>{"auto", "caterpillar", "walker_otto",
                                      "classes", "stepwise", "greedy", "scpa",
                                      "chain", "mincost", "mincost-steps"}));
  for (const char *Bad : {"", "Stepwise", "step", "stepwise ", "optimal"})
    EXPECT_EQ(parseAlgorithm(Bad), std::nullopt) << Bad;
}

//===----------------------------------------------------------------------===//
// The paper's examples.
//===----------------------------------------------------------------------===//

TEST(SchedulersTest, CaterpillarExample4HasSixEmptySteps) {
  // §5.2.3: P = 12, Q = 8, r = 4, s = 3 takes 12 steps, 6 of them empty.
  Redistribution Rd = slice(12, 4, 8, 3);
  Schedule S;
  ScheduleStats Stats = run(Algorithm::Caterpillar, Rd, &S);
  EXPECT_EQ(S.Algorithm, "caterpillar");
  EXPECT_EQ(Stats.Steps, 12);
  EXPECT_EQ(Stats.NonEmptySteps, 6);
  EXPECT_EQ(Stats.StepsLowerBound, 4);
}

TEST(SchedulersTest, CaterpillarExamples1And2) {
  // §5.2.1: 16 steps of six to eight messages each.
  Schedule S;
  ScheduleStats One = run(Algorithm::Caterpillar, slice(16, 3, 16, 5), &S);
  EXPECT_EQ(One.Steps, 16);
  for (const std::vector<int64_t> &Step : S.Steps) {
    EXPECT_GE(Step.size(), 6u);
    EXPECT_LE(Step.size(), 8u);
  }
  // §5.2.2: 16 steps, each with a message of length 7: cost 112.
  ScheduleStats Two = run(Algorithm::Caterpillar, slice(16, 7, 16, 11));
  EXPECT_EQ(Two.Steps, 16);
  EXPECT_EQ(Two.Cost, 112);
}

TEST(SchedulersTest, CaterpillarStepsAreShifts) {
  Redistribution Rd = slice(6, 2, 4, 3);
  Schedule S = detail::scheduleCaterpillar(Rd.G);
  ASSERT_EQ(S.Steps.size(), 6u);
  for (size_t K = 0; K < S.Steps.size(); ++K)
    for (int64_t Id : S.Steps[K]) {
      const Message &M = Rd.G.Messages[Id];
      EXPECT_EQ((M.Src + static_cast<int64_t>(K)) % 6, M.Dst);
    }
}

TEST(SchedulersTest, StepwiseExample5) {
  // With the optimal 10 steps the minimum cost is exactly 20.
  Schedule S;
  ScheduleStats Stats = run(Algorithm::Stepwise, slice(15, 2, 6, 3), &S);
  EXPECT_EQ(S.Algorithm, "stepwise");
  EXPECT_EQ(Stats.Steps, 10);
  EXPECT_EQ(Stats.StepsLowerBound, 10);
  EXPECT_EQ(Stats.Cost, 20);
}

TEST(SchedulersTest, StepwiseExamples2To4) {
  // Example 2 is all-to-all; its classes are regular, so the heaviest
  // perfect matchings are the classes and the cost the optimum 77.
  ScheduleStats Two = run(Algorithm::Stepwise, slice(16, 7, 16, 11));
  EXPECT_EQ(Two.Steps, 16);
  EXPECT_EQ(Two.Cost, 77);
  // Example 3: step lower bound 10. The heaviest step each time
  // happens to reach the optimum cost for 10 steps, 25.
  ScheduleStats Three = run(Algorithm::Stepwise, slice(15, 3, 15, 5));
  EXPECT_EQ(Three.Steps, 10);
  EXPECT_EQ(Three.StepsLowerBound, 10);
  EXPECT_EQ(Three.Cost, 25);
  // Example 4: four steps, at the optimum cost for four steps, 8.
  ScheduleStats Four = run(Algorithm::Stepwise, slice(12, 4, 8, 3));
  EXPECT_EQ(Four.Steps, 4);
  EXPECT_EQ(Four.Cost, 8);
}

TEST(SchedulersTest, GreedyExample5BeatsStepwise) {
  // Stepwise costs 20 in 10 steps (the optimum for 10 steps), the paper's
  // greedy 18 in 12; the optimum over any number of steps is 16 in 11.
  // Ours: 17 in 11.
  Schedule S;
  ScheduleStats Stats = run(Algorithm::Greedy, slice(15, 2, 6, 3), &S);
  EXPECT_EQ(S.Algorithm, "greedy");
  EXPECT_LT(Stats.Cost, 20);
  EXPECT_GE(Stats.Cost, 16);
  EXPECT_EQ(Stats.Cost, 17);
  EXPECT_EQ(Stats.Steps, 11);
  // Example 3: 24 in 11 steps, below stepwise's 25 (the optimum with 11
  // steps is 23).
  ScheduleStats Three = run(Algorithm::Greedy, slice(15, 3, 15, 5));
  EXPECT_EQ(Three.Cost, 24);
  EXPECT_EQ(Three.Steps, 11);
}

//===----------------------------------------------------------------------===//
// Exactness of each step.
//===----------------------------------------------------------------------===//

TEST(SchedulersTest, ReferencesAgree) {
  // The two references must agree before they judge anything.
  std::mt19937_64 Rng(7);
  auto Length = [](const Message &M) { return M.Len; };
  for (int I = 0; I < 200; ++I) {
    CommGrid G = randomGrid(Rng, 5, 5, 4, 0.6);
    Remaining R(G);
    std::vector<int64_t> Deg = R.degrees();
    const int64_t MaxDeg = *std::max_element(Deg.begin(), Deg.end());
    std::vector<char> Must(Deg.size()), None(Deg.size(), 0);
    for (size_t V = 0; V < Deg.size(); ++V)
      Must[V] = MaxDeg > 0 && Deg[V] == MaxDeg;
    EXPECT_EQ(bruteForceBest(R, Must, Length), hungarianBest(R, Must, Length));
    EXPECT_EQ(bruteForceBest(R, None, Length), hungarianBest(R, None, Length));
  }
}

TEST(SchedulersTest, StepwiseIsExactOnTinyRandomGrids) {
  std::mt19937_64 Rng(1);
  for (int I = 0; I < 300; ++I)
    checkStepwiseExact(randomGrid(Rng, 6, 6, 3, 0.55), bruteForceBest);
}

TEST(SchedulersTest, StepwiseIsExactOnRandomGrids) {
  std::mt19937_64 Rng(2);
  for (int I = 0; I < 40; ++I)
    checkStepwiseExact(randomGrid(Rng, 14, 14, 4, I % 2 ? 0.3 : 0.8),
                       hungarianBest);
}

TEST(SchedulersTest, StepwiseIsExactOnDenseBlockCyclicGrids) {
  // All-to-all grids (g <= r + s - 1) whose heavy classes are irregular:
  // the steps need many dual updates.
  checkStepwiseExact(slice(24, 23, 24, 25).G, hungarianBest);
  checkStepwiseExact(slice(20, 9, 16, 13).G, hungarianBest);
  checkStepwiseExact(blockCyclic(18, 7, 12, 5, 1000).G, hungarianBest);
}

TEST(SchedulersTest, GreedyIsExactOnTinyRandomGrids) {
  std::mt19937_64 Rng(3);
  for (int I = 0; I < 300; ++I)
    checkGreedyExact(randomGrid(Rng, 6, 6, 3, 0.55), bruteForceBest);
}

TEST(SchedulersTest, GreedyIsExactOnRandomAndBlockCyclicGrids) {
  std::mt19937_64 Rng(4);
  for (int I = 0; I < 20; ++I)
    checkGreedyExact(randomGrid(Rng, 12, 12, 4, I % 2 ? 0.3 : 0.8),
                     hungarianBest);
  checkGreedyExact(slice(15, 2, 6, 3).G, hungarianBest);
  checkGreedyExact(slice(20, 9, 16, 13).G, hungarianBest);
}

//===----------------------------------------------------------------------===//
// Sweeps.
//===----------------------------------------------------------------------===//

TEST(SchedulersTest, SweepGenBlock) {
  std::mt19937_64 Rng(5);
  for (int I = 0; I < 100; ++I) {
    const int64_t N = std::uniform_int_distribution<int64_t>(0, 200)(Rng);
    auto Sizes = [&](int64_t Procs) {
      // Random cut points; empty segments allowed.
      std::vector<int64_t> Cuts{0, N};
      for (int64_t K = 1; K < Procs; ++K)
        Cuts.push_back(std::uniform_int_distribution<int64_t>(0, N)(Rng));
      std::sort(Cuts.begin(), Cuts.end());
      std::vector<int64_t> Result;
      for (size_t K = 1; K < Cuts.size(); ++K)
        Result.push_back(Cuts[K] - Cuts[K - 1]);
      return Result;
    };
    Layout From(Distribution::genBlock(
                    Sizes(std::uniform_int_distribution<int64_t>(1, 16)(Rng))),
                N);
    Layout To(I % 2 ? Distribution::genBlock(Sizes(
                          std::uniform_int_distribution<int64_t>(1, 16)(Rng)))
                    : Distribution::cyclic(5, 3),
              N);
    test::checkEverySchedule(From, To, computeGrid(From, To), I % 5 == 0);
  }
}

TEST(SchedulersSlowTest, SweepBlockCyclicOtherExtents) {
  // PropertySweepTest runs every case at N = L and L + L/3 + 1; here the
  // same cases at one element, one short of a slice, and three slices.
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t Q = 1; Q <= 24; ++Q)
      for (int64_t R = 1; R <= 12; ++R)
        for (int64_t S = 1; S <= 12; ++S) {
          const int64_t L = lcm(P * R, Q * S);
          for (int64_t N : {int64_t(1), L - 1, 3 * L}) {
            Redistribution Rd = blockCyclic(P, R, Q, S, N);
            test::checkEverySchedule(Rd.From, Rd.To, Rd.G, N == L - 1);
          }
          if (HasFailure())
            return;
        }
}

TEST(SchedulersSlowTest, ExactOnLargerGrids) {
  std::mt19937_64 Rng(6);
  for (int I = 0; I < 30; ++I) {
    CommGrid G = randomGrid(Rng, 40, 40, 6, I % 3 == 0 ? 0.9 : 0.25);
    checkStepwiseExact(G, hungarianBest);
    checkGreedyExact(G, hungarianBest);
  }
  checkStepwiseExact(slice(48, 47, 48, 49).G, hungarianBest);
  checkStepwiseExact(slice(40, 39, 36, 41).G, hungarianBest);
  checkGreedyExact(slice(40, 39, 36, 41).G, hungarianBest);
}

//===----------------------------------------------------------------------===//
// auto, errors and determinism.
//===----------------------------------------------------------------------===//

TEST(SchedulersTest, AutoPicksTheBestPrediction) {
  Redistribution Rd = slice(15, 2, 6, 3); // Example 5
  // Cost only: mincost's 16 (the optimum, docs/paper-corrections.md) beats
  // greedy's 17 and stepwise's 20.
  CostModel CostOnly;
  CostOnly.Alpha = 0;
  CostOnly.Gamma = 0;
  CostOnly.BetaPerByte = 1;
  Schedule ByCost =
      makeSchedule(Algorithm::Auto, Rd.From, Rd.To, Rd.G, CostOnly);
  EXPECT_EQ(ByCost.Algorithm, "mincost");
  EXPECT_EQ(measureSchedule(Rd.G, ByCost).Cost, 16);
  // Steps only: stepwise's 10 beat greedy's 11 and the caterpillar's 15.
  CostModel StepsOnly;
  StepsOnly.Alpha = 1;
  StepsOnly.Gamma = 0;
  StepsOnly.BetaPerByte = 0;
  Schedule BySteps =
      makeSchedule(Algorithm::Auto, Rd.From, Rd.To, Rd.G, StepsOnly);
  EXPECT_EQ(BySteps.Algorithm, "stepwise");
  EXPECT_EQ(measureSchedule(Rd.G, BySteps).Steps, 10);
  EXPECT_EQ(validateSchedule(Rd.G, BySteps), std::nullopt);
}

TEST(SchedulersTest, AutoTakesAnOptimalClosedForm) {
  // Example 1: the class schedule meets both lower bounds (7 steps, cost
  // 15); stepwise can at best tie, and ties go to the earlier algorithm.
  Redistribution Rd = slice(16, 3, 16, 5);
  Schedule S = makeSchedule(Algorithm::Auto, Rd.From, Rd.To, Rd.G);
  EXPECT_EQ(S.Algorithm, "classes");
  ScheduleStats Stats = measureSchedule(Rd.G, S);
  EXPECT_EQ(Stats.Steps, 7);
  EXPECT_EQ(Stats.Cost, 15);
}

TEST(SchedulersTest, MakeScheduleRejectsWhatDoesNotApply) {
  Redistribution Rd = slice(12, 4, 8, 3);
  try {
    makeSchedule(Algorithm::WalkerOtto, Rd.From, Rd.To, Rd.G);
    FAIL() << "walker_otto applied to P != Q";
  } catch (const InvalidArgument &E) {
    std::string What = E.what();
    EXPECT_NE(What.find("walker_otto"), std::string::npos) << What;
    EXPECT_NE(What.find("does not apply"), std::string::npos) << What;
    std::string Why;
    EXPECT_FALSE(algorithmApplies(Algorithm::WalkerOtto, Rd.From, Rd.To, &Why));
    EXPECT_FALSE(Why.empty());
    EXPECT_NE(What.find(Why), std::string::npos) << What;
  }
  // Extents that differ: no algorithm applies.
  Layout Short = Layout::blockCyclic(8, 3, 47);
  std::string Why;
  EXPECT_FALSE(algorithmApplies(Algorithm::Stepwise, Rd.From, Short, &Why));
  EXPECT_NE(Why.find("48"), std::string::npos) << Why;
  EXPECT_NE(Why.find("47"), std::string::npos) << Why;
  EXPECT_THROW(makeSchedule(Algorithm::Auto, Rd.From, Short, Rd.G),
               InvalidArgument);
  // A grid of other process counts than the layouts.
  Redistribution Other = slice(6, 4, 8, 3);
  EXPECT_THROW(makeSchedule(Algorithm::Stepwise, Rd.From, Rd.To, Other.G),
               InvalidArgument);
}

TEST(SchedulersTest, SchedulesAreDeterministic) {
  for (Algorithm A : {Algorithm::Caterpillar, Algorithm::Stepwise,
                      Algorithm::Greedy, Algorithm::Auto}) {
    Redistribution Rd = blockCyclic(20, 9, 16, 13, 5000);
    Schedule First = makeSchedule(A, Rd.From, Rd.To, Rd.G);
    Redistribution Again = blockCyclic(20, 9, 16, 13, 5000);
    Schedule Second = makeSchedule(A, Again.From, Again.To, Again.G);
    EXPECT_EQ(First.Algorithm, Second.Algorithm);
    EXPECT_EQ(First.Steps, Second.Steps) << algorithmName(A);
  }
}

TEST(SchedulersTest, SparseGridsOfHugeProcessCounts) {
  // Ten messages among 2^40 processes a side: the matchers, the validator
  // and the measures must not allocate per process (that would be 8 TB).
  CommGrid G;
  G.P = G.Q = int64_t(1) << 40;
  for (int64_t I = 0; I < 10; ++I)
    G.Messages.push_back({I * 99999989, (I % 3) * 333333333 + I, 1 + I % 4});
  for (Schedule S : {detail::scheduleStepwise(G), detail::scheduleGreedy(G)}) {
    EXPECT_EQ(validateSchedule(G, S), std::nullopt) << S.Algorithm;
    ScheduleStats Stats = measureSchedule(G, S);
    EXPECT_EQ(Stats.Steps, 1) << S.Algorithm;
    EXPECT_EQ(Stats.Cost, 4) << S.Algorithm;
    EXPECT_EQ(Stats.StepsLowerBound, 1);
    EXPECT_EQ(Stats.CostLowerBound, 4);
  }
  Schedule Twice;
  Twice.Steps = {{0, 1}, {1}};
  G.Messages[1].Src = 0;
  EXPECT_EQ(validateSchedule(G, Twice),
            "step 0: process 0 sends twice: message 0 (0 -> 0) and message 1 "
            "(0 -> 333333334)");
  // The caterpillar would need 2^40 step lists: it does not apply.
  Layout Wide = Layout::blockCyclic(int64_t(1) << 40, 1, 10);
  std::string Why;
  EXPECT_FALSE(algorithmApplies(Algorithm::Caterpillar, Wide, Wide, &Why));
  EXPECT_NE(Why.find("1099511627776"), std::string::npos) << Why;
}

TEST(SchedulersTest, EmptyAndTrivialGrids) {
  // N = 0: no message, no step for the matchers.
  Redistribution Empty = blockCyclic(3, 2, 4, 5, 0);
  EXPECT_TRUE(Empty.G.Messages.empty());
  EXPECT_EQ(run(Algorithm::Stepwise, Empty).Steps, 0);
  EXPECT_EQ(run(Algorithm::Greedy, Empty).Steps, 0);
  EXPECT_EQ(run(Algorithm::Caterpillar, Empty).Steps, 4);
  // One process on each side: one message, one step.
  Redistribution One = blockCyclic(1, 3, 1, 5, 17);
  EXPECT_EQ(run(Algorithm::Stepwise, One).Steps, 1);
  EXPECT_EQ(run(Algorithm::Greedy, One).Cost, 17);
  EXPECT_EQ(run(Algorithm::Auto, One).Steps, 1);
}

//===----------------------------------------------------------------------===//
// Incomplete slices: the greedy pass from the side of fewer weights.
//===----------------------------------------------------------------------===//

namespace {

/// A dense grid whose lengths depend on the target but for a few messages,
/// like an incomplete slice of CYCLIC -> CYCLIC(k) with k large.
CommGrid targetWeighted(std::mt19937_64 &Rng, int64_t MaxP, int64_t MaxQ) {
  CommGrid G;
  G.P = std::uniform_int_distribution<int64_t>(2, MaxP)(Rng);
  G.Q = std::uniform_int_distribution<int64_t>(2, MaxQ)(Rng);
  std::vector<int64_t> Base(G.Q);
  for (int64_t &B : Base)
    B = std::uniform_int_distribution<int64_t>(1, 3)(Rng);
  std::bernoulli_distribution Edge(0.85), Odd(0.1);
  for (int64_t Src = 0; Src < G.P; ++Src)
    for (int64_t Dst = 0; Dst < G.Q; ++Dst)
      if (Edge(Rng))
        G.Messages.push_back({Src, Dst, Base[Dst] + Odd(Rng)});
  return G;
}

} // namespace

TEST(SchedulersTest, MatcherGreedsFromTheSideOfFewerWeights) {
  // CYCLIC on 6 -> CYCLIC(12) on 6 with two slices and 29 elements: the
  // tail lengthens the messages to targets 0 to 2, so source lists mix three
  // weights and target lists one (target 2: two). Whole slices and the
  // reverse direction keep the sources first.
  EXPECT_TRUE(detail::StepMatcher(blockCyclic(6, 1, 6, 12, 173).G)
                  .greedyTargetsFirst());
  EXPECT_FALSE(detail::StepMatcher(blockCyclic(6, 12, 6, 1, 173).G)
                   .greedyTargetsFirst());
  EXPECT_FALSE(detail::StepMatcher(slice(6, 1, 6, 12).G).greedyTargetsFirst());
  EXPECT_FALSE(
      detail::StepMatcher(slice(20, 9, 16, 13).G).greedyTargetsFirst());
}

TEST(SchedulersTest, ExactWhenTheTargetsGreedFirst) {
  // The same references as above, on grids where the other side goes first.
  std::mt19937_64 Rng(5);
  int Tried = 0;
  for (int I = 0; I < 300; ++I) {
    CommGrid G = targetWeighted(Rng, 6, 6);
    if (!detail::StepMatcher(G).greedyTargetsFirst())
      continue;
    ++Tried;
    checkStepwiseExact(G, bruteForceBest);
    checkGreedyExact(G, bruteForceBest);
  }
  EXPECT_GT(Tried, 100);
  for (const Redistribution &Rd :
       {blockCyclic(6, 1, 6, 12, 173), blockCyclic(12, 1, 9, 24, 964),
        blockCyclic(24, 1, 24, 48, 2 * 1152 + 700)}) {
    SCOPED_TRACE(test::describe(Rd.From, Rd.To));
    ASSERT_TRUE(detail::StepMatcher(Rd.G).greedyTargetsFirst());
    checkStepwiseExact(Rd.G, hungarianBest);
    checkGreedyExact(Rd.G, hungarianBest);
  }
}
