//===- redist-genblock-sweep.cpp - Random end-to-end GEN_BLOCK runs -------===//
//
//   mpirun -np R redist-genblock-sweep RANKS SEED COUNT [MAX_N]
//
// Draws COUNT random configurations from SEED (the same on every rank), each
// with GEN_BLOCK on one side at least: GEN_BLOCK -> GEN_BLOCK, or GEN_BLOCK
// to or from BLOCK, BLOCK(k), CYCLIC or CYCLIC(k), on P and Q <=
// min(16, RANKS) processes, N from 0 to MAX_N (default 20000). The segment
// sizes come from several shapes: random cuts, the even and uneven
// instances of scpa-gen-block section 5, every element on one process,
// and many empty segments (first, last, runs of them). Element sizes go
// from 1 to 24 bytes, sometimes with a small transfer limit so that
// messages go in pieces. Each configuration runs every schedule algorithm
// that applies in every mode (SweepPlans.h) and checks every target element
// (CheckRedistribution.h); scpa and chain must take the minimal number of
// steps, chain at no more cost than scpa. Prints a summary with the
// coverage of each shape, mode, algorithm and packing; exits 1 on any
// error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "SweepConfig.h"
#include "SweepPlans.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

using namespace redist;

namespace {

/// What the generated GEN_BLOCK sizes covered, so that the test can require
/// each shape to have occurred.
struct Coverage {
  int64_t GenToGen = 0, GenToRegular = 0, RegularToGen = 0;
  int64_t EmptyFirst = 0, EmptyLast = 0, EmptyRun = 0, OneProcess = 0;
  int64_t EmptyArray = 0;

  void add(const std::vector<int64_t> &Sizes, int64_t N) {
    const std::size_t P = Sizes.size();
    if (N == 0 || P < 2)
      return;
    EmptyFirst += Sizes.front() == 0;
    EmptyLast += Sizes.back() == 0;
    for (std::size_t I = 0; I + 1 < P; ++I)
      if (Sizes[I] == 0 && Sizes[I + 1] == 0) {
        ++EmptyRun;
        break;
      }
    OneProcess += std::count(Sizes.begin(), Sizes.end(), N) == 1;
  }
};

class Generator : test::SweepRandom {
public:
  Generator(uint64_t Seed, int Ranks, int64_t MaxN)
      : SweepRandom(Seed), Ranks(Ranks), MaxN(MaxN) {}

  test::SweepConfig next(Coverage &Cov) {
    test::SweepConfig C;
    int64_t MaxProcs = std::min(16, Ranks);
    int64_t P = uniform(1, MaxProcs), Q = uniform(1, MaxProcs);
    C.N = extent();
    switch (uniform(0, 3)) {
    case 0:
    case 1:
      C.From = genBlock(P, C.N, Cov);
      // Sometimes the identity, so that only local copies remain.
      C.To = uniform(0, 9) == 0 ? C.From : genBlock(Q, C.N, Cov);
      ++Cov.GenToGen;
      break;
    case 2:
      C.From = genBlock(P, C.N, Cov);
      C.To = regular(Q, C.N);
      ++Cov.GenToRegular;
      break;
    default:
      C.From = regular(P, C.N);
      C.To = genBlock(Q, C.N, Cov);
      ++Cov.RegularToGen;
      break;
    }
    Cov.EmptyArray += C.N == 0;
    drawRunOptions(C, /*Large=*/false);
    return C;
  }

private:
  int64_t extent() {
    switch (uniform(0, 9)) {
    case 0:
      return 0;
    case 1:
      return uniform(1, 20); // fewer elements than processes, often
    default:
      return logUniform(MaxN);
    }
  }

  /// N split at Procs - 1 random cut points: zero sizes where cuts meet.
  std::vector<int64_t> randomCuts(int64_t Procs, int64_t N) {
    std::vector<int64_t> Cuts{0, N};
    for (int64_t I = 1; I < Procs; ++I)
      Cuts.push_back(uniform(0, N));
    std::sort(Cuts.begin(), Cuts.end());
    std::vector<int64_t> Sizes;
    for (std::size_t I = 1; I < Cuts.size(); ++I)
      Sizes.push_back(Cuts[I] - Cuts[I - 1]);
    return Sizes;
  }

  /// Sizes within [Lo, Hi] times the mean (scpa-gen-block section 5),
  /// the last one taking what remains, clamped so that all are >= 0.
  std::vector<int64_t> aroundMean(int64_t Procs, int64_t N, double Lo,
                                  double Hi) {
    std::vector<int64_t> Sizes(Procs, 0);
    double Mean = static_cast<double>(N) / static_cast<double>(Procs);
    int64_t Left = N;
    for (int64_t I = 0; I + 1 < Procs; ++I) {
      double F = uniformReal(Lo, Hi);
      Sizes[I] = std::min(Left, static_cast<int64_t>(F * Mean));
      Left -= Sizes[I];
    }
    Sizes[Procs - 1] = Left;
    return Sizes;
  }

  /// Random cuts of N over a few processes; the others, chosen so that the
  /// first, the last and runs of neighbours are often among them, get none.
  std::vector<int64_t> manyEmpty(int64_t Procs, int64_t N) {
    std::vector<bool> Empty(Procs, false);
    Empty[0] = uniform(0, 1) == 1;
    Empty[Procs - 1] = uniform(0, 1) == 1;
    int64_t Begin = uniform(0, Procs - 1);
    int64_t Run = uniform(2, 4);
    for (int64_t I = Begin; I < std::min(Procs, Begin + Run); ++I)
      Empty[I] = true;
    int64_t Holders = std::count(Empty.begin(), Empty.end(), false);
    if (Holders == 0) {
      Empty[uniform(0, Procs - 1)] = false;
      Holders = 1;
    }
    std::vector<int64_t> Parts = randomCuts(Holders, N);
    std::vector<int64_t> Sizes(Procs, 0);
    for (int64_t I = 0, Next = 0; I < Procs; ++I)
      if (!Empty[I])
        Sizes[I] = Parts[Next++];
    return Sizes;
  }

  Distribution genBlock(int64_t Procs, int64_t N, Coverage &Cov) {
    std::vector<int64_t> Sizes;
    switch (uniform(0, 4)) {
    case 0:
      Sizes = randomCuts(Procs, N);
      break;
    case 1:
      Sizes = aroundMean(Procs, N, 0.7, 1.3); // even
      break;
    case 2:
      Sizes = aroundMean(Procs, N, 0.3, 1.5); // uneven
      break;
    case 3:
      Sizes.assign(Procs, 0);
      Sizes[uniform(0, Procs - 1)] = N;
      break;
    default:
      Sizes = manyEmpty(Procs, N);
      break;
    }
    Cov.add(Sizes, N);
    return Distribution::genBlock(Sizes);
  }

  int Ranks;
  int64_t MaxN;
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const test::SweepArgs Args = test::parseSweepArgs(
      argc, argv,
      "usage: redist-genblock-sweep [--ranks-per-node=K] [--ring-fails-on=R] "
      "RANKS SEED COUNT [MAX_N]\n",
      20000);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);

  Generator Gen(Args.Seed, Args.Ranks, Args.MaxN);
  Coverage Cov;
  test::SweepCoverage PlanCoverage;
  int64_t Errors = 0;
  for (int I = 0; I < Args.Count; ++I) {
    test::SweepConfig C = Gen.next(Cov);
    C.RanksPerNode = Args.RanksPerNode;
    C.FailRingOnRank = Args.FailRingOnRank;
    C.SingleCopyRunBytes = Args.SingleCopyRunBytes;
    std::map<Algorithm, ScheduleStats> StatsOf;
    Errors += test::runSweepPlans(
        C, I, C.str(/*WithProcs=*/false), 2, PlanCoverage,
        [&](const PlanOptions &O, const Plan &Pl, const std::string &) {
          if (O.Mode != ExecMode::Scheduled)
            return int64_t(0);
          int64_t More =
              test::checkBufferBound(Pl, /*DatatypesUseNoBuffer=*/false);
          StatsOf[O.Schedule] = Pl.stats();
          return More;
        });
    // The GEN_BLOCK schedulers' promises: the minimal number of steps (the
    // maximum degree), and chain never above scpa in cost.
    for (Algorithm A : {Algorithm::Scpa, Algorithm::Chain}) {
      auto It = StatsOf.find(A);
      if (Rank == 0 && It != StatsOf.end() &&
          It->second.Steps != It->second.StepsLowerBound) {
        std::printf("ERROR config %d (%s): %s takes %lld steps, the maximum "
                    "degree is %lld\n",
                    I, C.str(/*WithProcs=*/false).c_str(), algorithmName(A),
                    static_cast<long long>(It->second.Steps),
                    static_cast<long long>(It->second.StepsLowerBound));
        ++Errors;
      }
    }
    if (Rank == 0 && StatsOf.count(Algorithm::Scpa) &&
        StatsOf.count(Algorithm::Chain) &&
        StatsOf[Algorithm::Chain].Cost > StatsOf[Algorithm::Scpa].Cost) {
      std::printf("ERROR config %d (%s): chain costs %lld, scpa %lld\n", I,
                  C.str(/*WithProcs=*/false).c_str(),
                  static_cast<long long>(StatsOf[Algorithm::Chain].Cost),
                  static_cast<long long>(StatsOf[Algorithm::Scpa].Cost));
      ++Errors;
    }
  }
  int64_t Total = test::sumOverRanks(Errors);
  if (Rank == 0) {
    std::printf("redist-genblock-sweep: %d ranks, seed %llu: checked %d "
                "configurations (%lld plans), %lld errors\n",
                Args.Ranks, static_cast<unsigned long long>(Args.Seed),
                Args.Count, static_cast<long long>(PlanCoverage.plans()),
                static_cast<long long>(Total));
    std::printf("pairs: gen_block->gen_block %lld gen_block->regular %lld "
                "regular->gen_block %lld\n",
                static_cast<long long>(Cov.GenToGen),
                static_cast<long long>(Cov.GenToRegular),
                static_cast<long long>(Cov.RegularToGen));
    std::printf("gen_block sizes: empty first %lld empty last %lld "
                "consecutive empty %lld all on one process %lld; N = 0 "
                "%lld\n",
                static_cast<long long>(Cov.EmptyFirst),
                static_cast<long long>(Cov.EmptyLast),
                static_cast<long long>(Cov.EmptyRun),
                static_cast<long long>(Cov.OneProcess),
                static_cast<long long>(Cov.EmptyArray));
    PlanCoverage.print();
  }
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
