//===- RingEval.cpp - How close the ring algorithms come to optimal -------===//
//
//   ring-eval [--seed S] [--count N] [--small N]
//
// Part 1: on N random rings per kind (n from 2 to 16, up to 8 items per
// process; half of them with every load and target at least 1, the paper's
// assumption, half with empty processes), the makespan of every applicable
// algorithm over the ring's lower bound (Lemma 1, Theorem 2 corrected,
// Lemma 6, Lemma 12), and for bidirectional heterogeneous rings over System
// 6's integer optimum too. Part 2: on small random rings (n from 2 to 5, at
// most 10 items, integer costs 1 to 3) the exhaustive optimum: how often
// Lemma 12 and System 6 are tight, and how far each algorithm is from the
// optimum. Prints markdown tables.
//
//===----------------------------------------------------------------------===//

#include "ToolCommandLine.h"

#include "redist/Ring.h"
#include "redist/RingExhaustive.h"
#include "redist/RingFlows.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace redist;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory EvalCategory("ring-eval options");
cl::opt<unsigned long long> Seed("seed", cl::desc("Random seed"),
                                 cl::init(2026), cl::cat(EvalCategory));
cl::opt<int> Count("count", cl::desc("Rings per kind and load class"),
                   cl::init(500), cl::cat(EvalCategory));
cl::opt<int> Small("small", cl::desc("Small rings per kind for part 2"),
                   cl::init(300), cl::cat(EvalCategory));

struct Stats {
  int Runs = 0, AtBound = 0;
  double Sum = 0, Max = 0;

  void add(double Ratio) {
    ++Runs;
    Sum += Ratio;
    Max = std::max(Max, Ratio);
    AtBound += Ratio <= 1 + 1e-9;
  }
  std::string row() const {
    if (Runs == 0)
      return "| 0 | | | |";
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << "| " << Runs << " | " << llvm::format("%.3f", Sum / Runs) << " | "
       << llvm::format("%.3f", Max) << " | "
       << llvm::format("%.1f%%", 100.0 * AtBound / Runs) << " |";
    return OS.str();
  }
};

std::vector<std::int64_t> counts(std::mt19937_64 &Rng, std::int64_t N,
                                 std::int64_t Total, bool AtLeastOne) {
  std::vector<std::int64_t> C(N, AtLeastOne ? 1 : 0);
  std::vector<std::int64_t> Owners;
  for (std::int64_t I = 0; I < N; ++I)
    if (AtLeastOne || std::bernoulli_distribution(0.7)(Rng))
      Owners.push_back(I);
  if (Owners.empty())
    Owners.push_back(0);
  std::uniform_int_distribution<std::size_t> Pick(0, Owners.size() - 1);
  for (std::int64_t K = Total - (AtLeastOne ? N : 0); K > 0; --K)
    ++C[Owners[Pick(Rng)]];
  return C;
}

/// Kind: 0 uni homogeneous, 1 uni heterogeneous, 2 bi homogeneous, 3 bi
/// heterogeneous.
RingProblem randomRing(std::mt19937_64 &Rng, int Kind, bool AtLeastOne,
                       std::int64_t MaxN, std::int64_t PerProcess,
                       bool IntegerCosts) {
  const std::int64_t N =
      std::uniform_int_distribution<std::int64_t>(2, MaxN)(Rng);
  const std::int64_t Total = std::uniform_int_distribution<std::int64_t>(
      AtLeastOne ? N : 1, std::max<std::int64_t>(N, N * PerProcess))(Rng);
  RingProblem P;
  P.Loads = counts(Rng, N, Total, AtLeastOne);
  P.Targets = counts(Rng, N, Total, AtLeastOne);
  P.Bidirectional = Kind >= 2;
  auto Cost = [&] {
    return IntegerCosts ? double(std::uniform_int_distribution<int>(1, 3)(Rng))
                        : 0.25 * std::uniform_int_distribution<int>(2, 16)(Rng);
  };
  const bool Homogeneous = Kind % 2 == 0;
  const double C = Cost();
  for (std::int64_t I = 0; I < N; ++I)
    P.CostFwd.push_back(Homogeneous ? C : Cost());
  if (P.Bidirectional)
    for (std::int64_t I = 0; I < N; ++I)
      P.CostBwd.push_back(Homogeneous ? C : Cost());
  return P;
}

const char *KindNames[] = {"uni, homogeneous", "uni, heterogeneous",
                           "bi, homogeneous", "bi, heterogeneous"};

void partOne(std::mt19937_64 &Rng) {
  llvm::outs() << "### Makespan / lower bound\n\n"
               << "| ring | loads and targets | algorithm | rings | mean | "
                  "max | at the bound |\n|---|---|---|---:|---:|---:|---:|\n";
  Stats OverSystem6[2], Light[2];
  for (int Kind = 0; Kind < 4; ++Kind)
    for (bool AtLeastOne : {true, false}) {
      std::map<RingAlgorithm, Stats> ByAlgorithm;
      for (int K = 0; K < Count; ++K) {
        const RingProblem P =
            randomRing(Rng, Kind, AtLeastOne, 16, 8, /*IntegerCosts=*/false);
        const double Bound = ringLowerBound(P);
        for (RingAlgorithm A : allRingAlgorithms()) {
          if (A == RingAlgorithm::Exhaustive ||
              !ringAlgorithmRejects(A, P).empty())
            continue;
          const RingSchedule S = planRing(P, A);
          ByAlgorithm[A].add(Bound > 0 ? S.Makespan / Bound : 1.0);
          if (Kind == 3 && A == RingAlgorithm::BiHeterogeneous) {
            const RingFlowSolution F = solveRingFlows(P);
            OverSystem6[AtLeastOne].add(F.Time > 0 ? S.Makespan / F.Time : 1.0);
            Light[AtLeastOne].add(F.Light ? 1.0 : 2.0);
          }
        }
      }
      for (auto &[A, St] : ByAlgorithm)
        llvm::outs() << "| " << KindNames[Kind] << " | "
                     << (AtLeastOne ? "all >= 1" : "with zeros") << " | "
                     << ringAlgorithmName(A) << " " << St.row() << "\n";
    }
  llvm::outs() << "\n### bi-heterogeneous / System 6's integer optimum\n\n"
               << "| loads and targets | rings | mean | max | at System 6 | "
                  "light |\n|---|---:|---:|---:|---:|---:|\n";
  for (bool AtLeastOne : {true, false})
    llvm::outs() << "| " << (AtLeastOne ? "all >= 1" : "with zeros") << " "
                 << OverSystem6[AtLeastOne].row() << " "
                 << llvm::format("%.1f%%",
                                 100.0 * Light[AtLeastOne].AtBound /
                                     std::max(1, Light[AtLeastOne].Runs))
                 << " |\n";
}

void partTwo(std::mt19937_64 &Rng) {
  llvm::outs() << "\n### Small rings: the exhaustive optimum\n\n"
               << "| ring | loads and targets | rings | Lemma 12 / Theorem 2 "
                  "tight | System 6 tight | algorithm | applied to | mean / "
                  "optimum | max | optimal |\n"
                  "|---|---|---:|---:|---:|---|---:|---:|---:|---:|\n";
  for (int Kind = 0; Kind < 4; ++Kind)
    for (bool AtLeastOne : {true, false}) {
      std::map<RingAlgorithm, Stats> ByAlgorithm;
      int Rings = 0, BoundTight = 0, System6Tight = 0;
      for (int K = 0; K < Small; ++K) {
        const RingProblem P =
            randomRing(Rng, Kind, AtLeastOne, 5, 2, /*IntegerCosts=*/true);
        if (!ringExhaustiveRejects(P).empty())
          continue;
        const RingSchedule Best = planRing(P, RingAlgorithm::Exhaustive);
        ++Rings;
        BoundTight += Best.Makespan <= ringLowerBound(P) + 1e-9;
        if (P.Bidirectional)
          System6Tight += Best.Makespan <= solveRingFlows(P).Time + 1e-9;
        for (RingAlgorithm A : allRingAlgorithms()) {
          if (A == RingAlgorithm::Exhaustive ||
              !ringAlgorithmRejects(A, P).empty())
            continue;
          const RingSchedule S = planRing(P, A);
          ByAlgorithm[A].add(Best.Makespan > 0 ? S.Makespan / Best.Makespan
                                               : 1.0);
        }
      }
      for (auto &[A, St] : ByAlgorithm) {
        llvm::outs() << "| " << KindNames[Kind] << " | "
                     << (AtLeastOne ? "all >= 1" : "with zeros") << " | "
                     << Rings << " | "
                     << llvm::format("%.1f%%",
                                     100.0 * BoundTight / std::max(1, Rings))
                     << " | ";
        if (Kind >= 2)
          llvm::outs() << llvm::format("%.1f%%", 100.0 * System6Tight /
                                                     std::max(1, Rings));
        else
          llvm::outs() << "n/a";
        llvm::outs() << " | " << ringAlgorithmName(A) << " " << St.row()
                     << "\n";
      }
    }
}

} // namespace

int main(int Argc, char **Argv) {
  redist::tools::parseToolCommandLine(
      Argc, Argv, EvalCategory, "ring algorithms against bounds and optima\n");
  std::mt19937_64 Rng(Seed);
  llvm::outs() << "ring-eval --seed " << Seed << " --count " << Count
               << " --small " << Small << "\n\n";
  partOne(Rng);
  partTwo(Rng);
  return 0;
}
