//===- SweepConfig.h - What a random MPI sweep draws, and from what -------===//
//
// Shared by the MPI sweeps (redist-sweep, redist-genblock-sweep; the array
// and matrix sweeps parse their command lines with it too): their
// command line, one drawn configuration (a redistribution and how its plans
// run), and the random draws both generators make. Each sweep's generator
// builds on SweepRandom and draws its own distributions and extents; the
// order of the draws is part of each sweep's seeds, so a change here changes
// the configurations every seed in the .test files stands for.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_SWEEPCONFIG_H
#define REDIST_TEST_MPI_SWEEPCONFIG_H

#include "CheckRedistribution.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// A sweep's command line: [--ranks-per-node=K] [--ring-fails-on=R]
/// [--single-copy=B] [--node-memory] [--node-targets] RANKS SEED COUNT
/// [MAX_N [LARGE]]. The options go to every plan (PlanOptions::RanksPerNode,
/// PlanOptions::FailRingOnRank, PlanOptions::SingleCopyRunBytes; without
/// it, its default); --node-memory puts every source in node memory
/// (NodeMemory.h) and checks which plans read it directly (NodeReads.h);
/// --node-targets (redist-sweep, redist-array-sweep, redist-matrix-sweep)
/// does too, and puts the targets there as well (but one rank's, in some
/// configurations) and checks which plans share the node's tiles
/// (Plan::nodeWrites()).
struct SweepArgs {
  int Ranks = 0;
  uint64_t Seed = 0;
  int Count = 0;
  int64_t MaxN = 0;
  int Large = 0;
  int RanksPerNode = 0;
  int FailRingOnRank = -1;
  std::optional<int64_t> SingleCopyRunBytes;
  bool NodeMemory = false;
  bool NodeTargets = false;
};

/// Reads the command line after MPI_Init, aborting with Usage when it is too
/// short and unless the job runs on RANKS ranks. MAX_N defaults to
/// DefaultMaxN, LARGE to 0.
inline SweepArgs parseSweepArgs(int argc, char **argv, const char *Usage,
                                int64_t DefaultMaxN) {
  SweepArgs A;
  std::vector<const char *> Pos;
  for (int I = 1; I < argc; ++I) {
    const std::string Arg = argv[I];
    if (Arg.rfind("--ranks-per-node=", 0) == 0)
      A.RanksPerNode = std::atoi(argv[I] + 17);
    else if (Arg.rfind("--ring-fails-on=", 0) == 0)
      A.FailRingOnRank = std::atoi(argv[I] + 16);
    else if (Arg.rfind("--single-copy=", 0) == 0)
      A.SingleCopyRunBytes = std::atoll(argv[I] + 14);
    else if (Arg == "--node-memory")
      A.NodeMemory = true;
    else if (Arg == "--node-targets")
      A.NodeMemory = A.NodeTargets = true;
    else
      Pos.push_back(argv[I]);
  }
  if (Pos.size() < 3) {
    std::fprintf(stderr, "%s", Usage);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  A.Ranks = std::atoi(Pos[0]);
  requireCommSize(A.Ranks);
  A.Seed = std::strtoull(Pos[1], nullptr, 10);
  A.Count = std::atoi(Pos[2]);
  A.MaxN = Pos.size() > 3 ? std::atoll(Pos[3]) : DefaultMaxN;
  A.Large = Pos.size() > 4 ? std::atoi(Pos[4]) : 0;
  return A;
}

/// One configuration: the redistribution and the options its plans share.
struct SweepConfig {
  Distribution From = Distribution::cyclic(1);
  Distribution To = Distribution::cyclic(1);
  int64_t N = 0;
  std::size_t ElementBytes = 8;
  int64_t MaxTransferBytes = 0;
  bool Verify = false;
  /// From the command line (SweepArgs).
  int RanksPerNode = 0;
  int FailRingOnRank = -1;
  std::optional<int64_t> SingleCopyRunBytes;
  bool NodeMemory = false;
  /// Targets in node memory too, but rank HeapTarget's (-1: none).
  bool NodeTargets = false;
  int HeapTarget = -1;

  /// For labels; WithProcs adds each side's process count, which the names
  /// of BLOCK and CYCLIC leave out.
  std::string str(bool WithProcs) const {
    auto Side = [&](const Distribution &D) {
      return WithProcs ? D.str() + " on " + std::to_string(D.procs()) : D.str();
    };
    return Side(From) + " -> " + Side(To) + ", N = " + std::to_string(N) +
           ", element " + std::to_string(ElementBytes) + " B" +
           (MaxTransferBytes
                ? ", transfers <= " + std::to_string(MaxTransferBytes) + " B"
                : std::string());
  }
};

/// The random source of a sweep's generator, and the draws both sweeps make.
class SweepRandom {
public:
  explicit SweepRandom(uint64_t Seed) : Rng(Seed) {}

  int64_t uniform(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }

  double uniformReal(double Lo, double Hi) {
    return std::uniform_real_distribution<double>(Lo, Hi)(Rng);
  }

  /// An extent from 1 to MaxN, log-uniform, so that small and large arrays
  /// are both common.
  int64_t logUniform(int64_t MaxN) {
    double Exp = uniformReal(0.0, std::log(static_cast<double>(MaxN)));
    return std::max<int64_t>(1, static_cast<int64_t>(std::exp(Exp)));
  }

  /// BLOCK, BLOCK(k) with k from the least that holds N to 3 more, CYCLIC,
  /// or CYCLIC(k) with k <= 64, on Procs processes.
  Distribution regular(int64_t Procs, int64_t N) {
    switch (uniform(0, 3)) {
    case 0:
      return Distribution::block(Procs);
    case 1: {
      int64_t Min = std::max<int64_t>(1, (N + Procs - 1) / Procs);
      return Distribution::block(Procs, Min + uniform(0, 3));
    }
    case 2:
      return Distribution::cyclic(Procs);
    default:
      return Distribution::cyclic(Procs, uniform(1, 64));
    }
  }

  /// Draws C's element size, transfer limit and Verify, once its
  /// distributions and extent are drawn: sometimes a small transfer limit,
  /// so that messages go in pieces (only for small arrays: they make many
  /// pieces), and when Large sometimes one between 64 KiB and 1 MiB.
  void drawRunOptions(SweepConfig &C, bool Large) {
    static const std::size_t Sizes[] = {8, 8, 8, 1, 2, 3, 4, 12, 16, 24};
    C.ElementBytes = Sizes[uniform(0, 9)];
    if (C.N <= 20000 && uniform(0, 3) == 0)
      C.MaxTransferBytes = uniform(1, 4096);
    if (Large && uniform(0, 3) == 0)
      C.MaxTransferBytes = uniform(65536, 1 << 20);
    C.Verify = uniform(0, 1) == 1;
  }

private:
  std::mt19937_64 Rng;
};

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_SWEEPCONFIG_H
