//===- redist-sweep.cpp - Random end-to-end redistributions ---------------===//
//
//   mpirun -np R redist-sweep RANKS SEED COUNT [MAX_N [LARGE]]
//
// Draws COUNT random configurations from SEED (the same on every rank):
// BLOCK, BLOCK(k), CYCLIC or CYCLIC(k) on P and Q <= min(16, RANKS) processes,
// blocks up to 64, N from 0 to MAX_N (default 10^6) including primes and
// N < P, element sizes from 1 to 24 bytes, sometimes a small transfer limit
// so that messages go in pieces. Then LARGE (default 0) more with N between
// 900000 and 10^6 (sometimes the prime 999983). Each configuration runs
// every schedule algorithm that applies in every mode (SweepPlans.h) and
// checks every target element (CheckRedistribution.h). With --node-targets
// (SweepConfig.h) known cases that must share the node's tiles run first
// (runKnownShares). Prints a summary and the plans run per mode and
// algorithm and per mode and packing; exits 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "SweepConfig.h"
#include "SweepPlans.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

using namespace redist;

namespace {

bool isPrime(int64_t N) {
  if (N < 2)
    return false;
  for (int64_t D = 2; D * D <= N; ++D)
    if (N % D == 0)
      return false;
  return true;
}

class Generator : test::SweepRandom {
public:
  Generator(uint64_t Seed, int Ranks, int64_t MaxN)
      : SweepRandom(Seed), Ranks(Ranks), MaxN(MaxN) {}

  /// Large: N between 900000 and 10^6, on 2 processes or more.
  test::SweepConfig next(bool Large = false) {
    test::SweepConfig C;
    int64_t MaxProcs = std::min(16, Ranks);
    // Large arrays are there to be moved between ranks.
    int64_t MinProcs = Large ? std::min<int64_t>(2, MaxProcs) : 1;
    int64_t P = uniform(MinProcs, MaxProcs), Q = uniform(MinProcs, MaxProcs);
    C.N = Large ? (uniform(0, 3) == 0 ? 999983 : uniform(900000, 1000000))
                : extent(std::max(P, Q));
    if (uniform(0, 3) == 0) {
      // Walker & Otto's case, so that walker_otto is exercised too: P = Q
      // and one block size a multiple of the other.
      int64_t R = uniform(1, 16), K = uniform(1, 4);
      C.From = Distribution::cyclic(P, R);
      C.To = Distribution::cyclic(P, R * K);
      if (uniform(0, 1) == 1)
        std::swap(C.From, C.To);
    } else {
      C.From = regular(P, C.N);
      C.To = regular(Q, C.N);
    }
    drawRunOptions(C, Large);
    return C;
  }

private:
  int64_t extent(int64_t Procs) {
    switch (uniform(0, 9)) {
    case 0:
      return 0;
    case 1:
      return uniform(1, std::max<int64_t>(1, Procs - 1)); // N < P mostly
    case 2:
    case 3: {
      int64_t N = uniform(2, MaxN);
      while (!isPrime(N))
        ++N;
      return N;
    }
    default:
      return logUniform(MaxN);
    }
  }

  int Ranks;
  int64_t MaxN;
};

/// Checks that lib's caterpillar puts message p -> q in step (q - p) mod
/// max(P, Q), the closed form the runtime uses without building the grid.
int64_t checkCaterpillarSteps(const Plan &Pl) {
  const CommGrid G = computeGrid(Pl.source(), Pl.target());
  std::vector<int64_t> Steps = stepOfEachMessage(G, Pl.schedule());
  int64_t M = std::max(G.P, G.Q), Errors = 0;
  for (std::size_t I = 0; I < G.Messages.size(); ++I)
    if (Steps[I] != ((G.Messages[I].Dst - G.Messages[I].Src) % M + M) % M)
      ++Errors;
  return Errors;
}

/// With --node-targets: CYCLIC(r) -> CYCLIC(s) with short runs, on all the
/// ranks, large enough to move in rounds (each rank's part 1.25 MiB: four
/// rounds or more, and twice it exceeds an L2 of up to 2.5 MiB). On one node
/// the Unsynchronized mode must then share the node's tiles on every execute
/// (and step-0 executeStep) while every source and target lies in node memory,
/// and must not once one rank's target does not; with simulated nodes never,
/// since part of every target comes from another node. A prime number of
/// slices, so that the tiles (a few slices each) never divide them and the last
/// is partial; every second N has an incomplete slice too (which ones turns
/// with the ranks). The Scheduled and Overlapped modes' node phases, in turn,
/// are checked for "never where it must not" only (NodeReads.h). Returns the
/// errors on this rank.
int64_t runKnownShares(const test::SweepArgs &Args,
                       test::SweepCoverage &Coverage) {
  const int64_t Blocks[][2] = {{3, 5}, {1, 7}, {2, 3}, {5, 3}};
  const std::size_t Sizes[] = {8, 4, 16};
  const int64_t P = Args.Ranks, PartBytes = 5 << 18;
  int64_t Errors = 0, K = 0;
  for (const auto &B : Blocks) {
    // With or without an incomplete slice, turning with the ranks.
    const bool Tail = (K + P) % 2 == 1;
    test::SweepConfig C;
    C.From = Distribution::cyclic(P, B[0]);
    C.To = Distribution::cyclic(P, B[1]);
    C.ElementBytes = Sizes[K % 3];
    const int64_t L = std::lcm(P * B[0], P * B[1]);
    int64_t Slices =
        PartBytes * P / (L * static_cast<int64_t>(C.ElementBytes)) + 1;
    while (!isPrime(Slices))
      ++Slices;
    C.N = Slices * L + (Tail ? L / 2 + 1 : 0);
    C.RanksPerNode = Args.RanksPerNode;
    C.NodeMemory = C.NodeTargets = true;
    const std::string Desc = C.str(/*WithProcs=*/true);
    // The second Unsynchronized plan keeps one rank's target private.
    const std::pair<ExecMode, bool> Runs[] = {
        {ExecMode::Unsynchronized, false},
        {ExecMode::Unsynchronized, true},
        {K % 2 == 0 ? ExecMode::Scheduled : ExecMode::Overlapped, false}};
    for (const auto &[Mode, Private] : Runs) {
      PlanOptions O;
      O.Mode = Mode;
      O = test::sweepOptions(C, O);
      C.HeapTarget = Private ? static_cast<int>(K % P) : -1;
      const std::string Label = "known " +
                                test::sweepLabel(static_cast<int>(K), Desc, O) +
                                (Private ? ", a private target" : "");
      const Plan Pl(C.From, C.To, C.N, C.ElementBytes, MPI_COMM_WORLD, O);
      const bool Must = Mode == ExecMode::Unsynchronized && !Private &&
                        Args.RanksPerNode == 0;
      Errors += test::runSweepPlan(C, Pl, Label, 2, 7 * K + 1, Coverage, Must);
      if (Args.RanksPerNode > 0 && Pl.nodeWrites() != 0 && ++Errors)
        std::printf("ERROR %s rank %d: wrote the node's targets, which take "
                    "parts from another node\n",
                    Label.c_str(), Pl.rank());
    }
    ++K;
  }
  return Errors;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const test::SweepArgs Args = test::parseSweepArgs(
      argc, argv,
      "usage: redist-sweep [--ranks-per-node=K] [--ring-fails-on=R] "
      "[--single-copy=B] [--node-memory] [--node-targets] RANKS SEED COUNT "
      "[MAX_N [LARGE]]\n",
      1000000);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);

  Generator Gen(Args.Seed, Args.Ranks, Args.MaxN);
  int64_t Errors = 0;
  test::SweepCoverage Coverage;
  // Plans (counted per rank) that hand messages over through shared memory,
  // and those of them that also post MPI transfers: none on one node.
  int64_t SharedPlans = 0, MixedPlans = 0;
  // Plans (per rank) with single copies, and by mode and packing.
  int64_t DirectPlans = 0;
  const std::size_t Packings = allPackings().size();
  std::vector<int64_t> DirectBy(allExecModes().size() * Packings, 0);
  if (Args.NodeTargets)
    Errors += runKnownShares(Args, Coverage);
  for (int I = 0; I < Args.Count + Args.Large; ++I) {
    test::SweepConfig C = Gen.next(I >= Args.Count);
    C.RanksPerNode = Args.RanksPerNode;
    C.FailRingOnRank = Args.FailRingOnRank;
    C.SingleCopyRunBytes = Args.SingleCopyRunBytes;
    C.NodeMemory = Args.NodeMemory;
    // Every third configuration keeps one rank's target private.
    C.NodeTargets = Args.NodeTargets;
    C.HeapTarget = Args.NodeTargets && I % 3 == 2 ? I % Args.Ranks : -1;
    int Times = C.N <= 100000 ? 2 : 1;
    Errors += test::runSweepPlans(
        C, I, C.str(/*WithProcs=*/true), Times, Coverage,
        [&](const PlanOptions &O, const Plan &Pl, const std::string &Label) {
          int64_t More = 0;
          if (O.Mode == ExecMode::Scheduled || O.Mode == ExecMode::Overlapped)
            More += test::checkBufferBound(Pl, /*DatatypesUseNoBuffer=*/true);
          SharedPlans += Pl.sharedMessages() > 0;
          MixedPlans += Pl.sharedMessages() > 0 && Pl.transfers() > 0;
          DirectPlans += Pl.directMessages() > 0;
          DirectBy[static_cast<std::size_t>(O.Mode) * Packings +
                   static_cast<std::size_t>(O.Pack)] += Pl.directMessages() > 0;
          if (O.Schedule == Algorithm::Caterpillar &&
              O.Mode == ExecMode::Scheduled && O.Pack == Packing::Auto &&
              Rank == 0 && checkCaterpillarSteps(Pl) != 0) {
            std::printf("ERROR %s: caterpillar steps differ from (q - p) mod "
                        "max(P, Q)\n",
                        Label.c_str());
            ++More;
          }
          return More;
        });
  }
  int64_t Total = test::sumOverRanks(Errors);
  SharedPlans = test::sumOverRanks(SharedPlans);
  MixedPlans = test::sumOverRanks(MixedPlans);
  DirectPlans = test::sumOverRanks(DirectPlans);
  for (int64_t &Count : DirectBy)
    Count = test::sumOverRanks(Count);
  Coverage.NodeReads.sum();
  Coverage.NodeWrites.sum();
  if (Rank == 0) {
    std::printf("redist-sweep: %d ranks, seed %llu: checked %d "
                "configurations, %d of them with N near 10^6 (%lld plans), "
                "%lld errors\n",
                Args.Ranks, static_cast<unsigned long long>(Args.Seed),
                Args.Count + Args.Large, Args.Large,
                static_cast<long long>(Coverage.plans()),
                static_cast<long long>(Total));
    Coverage.print();
    std::printf("plans through shared memory, per rank: %lld, %lld of them "
                "with MPI transfers too\n",
                static_cast<long long>(SharedPlans),
                static_cast<long long>(MixedPlans));
    std::printf("plans with single copies, per rank: %lld;",
                static_cast<long long>(DirectPlans));
    for (ExecMode M : allExecModes())
      for (Packing K : allPackings())
        std::printf(" %s/%s %lld", execModeName(M), packingName(K),
                    static_cast<long long>(
                        DirectBy[static_cast<std::size_t>(M) * Packings +
                                 static_cast<std::size_t>(K)]));
    std::printf("\n");
    if (Args.NodeMemory)
      Coverage.NodeReads.print();
    if (Args.NodeTargets)
      Coverage.NodeWrites.print();
  }
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
