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
// checks every target element (CheckRedistribution.h). Prints a summary and
// the plans run per mode and algorithm and per mode and packing; exits 1 on
// any error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "SweepPlans.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

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

struct Config {
  Distribution From = Distribution::cyclic(1);
  Distribution To = Distribution::cyclic(1);
  int64_t N = 0;
  std::size_t ElementBytes = 8;
  int64_t MaxTransferBytes = 0;
  bool Verify = false;
  std::string str() const {
    return From.str() + " on " + std::to_string(From.procs()) + " -> " +
           To.str() + " on " + std::to_string(To.procs()) +
           ", N = " + std::to_string(N) + ", element " +
           std::to_string(ElementBytes) + " B" +
           (MaxTransferBytes
                ? ", transfers <= " + std::to_string(MaxTransferBytes) + " B"
                : std::string());
  }
};

class Generator {
public:
  Generator(uint64_t Seed, int Ranks, int64_t MaxN)
      : Rng(Seed), Ranks(Ranks), MaxN(MaxN) {}

  /// Large: N between 900000 and 10^6, on 2 processes or more.
  Config next(bool Large = false) {
    Config C;
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
      C.From = distribution(P, C.N);
      C.To = distribution(Q, C.N);
    }
    static const std::size_t Sizes[] = {8, 8, 8, 1, 2, 3, 4, 12, 16, 24};
    C.ElementBytes = Sizes[uniform(0, 9)];
    // Small transfer limits make many pieces: only for small arrays.
    if (C.N <= 20000 && uniform(0, 3) == 0)
      C.MaxTransferBytes = uniform(1, 4096);
    if (Large && uniform(0, 3) == 0)
      C.MaxTransferBytes = uniform(65536, 1 << 20);
    C.Verify = uniform(0, 1) == 1;
    return C;
  }

  int64_t uniform(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
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
    default: {
      // Log-uniform, so that small and large arrays are both common.
      double Exp = std::uniform_real_distribution<double>(
          0.0, std::log(static_cast<double>(MaxN)))(Rng);
      return std::max<int64_t>(1, static_cast<int64_t>(std::exp(Exp)));
    }
    }
  }

  Distribution distribution(int64_t Procs, int64_t N) {
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

  std::mt19937_64 Rng;
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

/// The Scheduled mode's buffers hold at most one sent and one received
/// message: check the plan's buffers against this rank's largest messages.
int64_t checkBufferBound(const Plan &Pl) {
  int64_t MaxSend = 0, MaxRecv = 0;
  if (Pl.rank() < Pl.source().procs())
    for (const Message &M : computeRow(Pl.source(), Pl.target(), Pl.rank()))
      if (M.Dst != Pl.rank())
        MaxSend = std::max(MaxSend, M.Len);
  if (Pl.rank() < Pl.target().procs())
    for (const Message &M : computeColumn(Pl.source(), Pl.target(), Pl.rank()))
      if (M.Src != Pl.rank())
        MaxRecv = std::max(MaxRecv, M.Len);
  std::size_t Bound =
      static_cast<std::size_t>(MaxSend + MaxRecv) * Pl.elementBytes();
  if (Pl.options().Pack == Packing::Datatypes)
    Bound = 0;
  if (Pl.bufferBytes() <= Bound)
    return 0;
  std::printf("ERROR rank %d: plan buffers %zu bytes, bound %zu\n", Pl.rank(),
              Pl.bufferBytes(), Bound);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: redist-sweep RANKS SEED COUNT [MAX_N [LARGE]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int Ranks = std::atoi(argv[1]);
  test::requireCommSize(Ranks);
  const uint64_t Seed = std::strtoull(argv[2], nullptr, 10);
  const int Count = std::atoi(argv[3]);
  const int64_t MaxN = argc > 4 ? std::atoll(argv[4]) : 1000000;
  const int Large = argc > 5 ? std::atoi(argv[5]) : 0;
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);

  Generator Gen(Seed, Ranks, MaxN);
  int64_t Errors = 0, Plans = 0;
  test::SweepCoverage Coverage;
  for (int I = 0; I < Count + Large; ++I) {
    Config C = Gen.next(I >= Count);
    Layout From(C.From, C.N), To(C.To, C.N);
    for (PlanOptions O : test::sweepVariants(From, To, I)) {
      O.MaxTransferBytes = C.MaxTransferBytes;
      O.Verify = C.Verify;
      std::string Label = "config " + std::to_string(I) + " (" + C.str() +
                          ", " + algorithmName(O.Schedule) + ", " +
                          execModeName(O.Mode) + ", " + packingName(O.Pack) +
                          ")";
      Plan Pl(C.From, C.To, C.N, C.ElementBytes, MPI_COMM_WORLD, O);
      int Times = C.N <= 100000 ? 2 : 1;
      Errors += test::runAndCheck(Pl, Label, Times, static_cast<int64_t>(I));
      if (O.Mode == ExecMode::Scheduled)
        Errors += checkBufferBound(Pl);
      if (O.Schedule == Algorithm::Caterpillar &&
          O.Mode == ExecMode::Scheduled && O.Pack == Packing::Auto &&
          Rank == 0 && checkCaterpillarSteps(Pl) != 0) {
        std::printf("ERROR %s: caterpillar steps differ from (q - p) mod "
                    "max(P, Q)\n",
                    Label.c_str());
        ++Errors;
      }
      ++Plans;
      Coverage.add(O);
    }
  }
  int64_t Total = test::sumOverRanks(Errors);
  if (Rank == 0) {
    std::printf("redist-sweep: %d ranks, seed %llu: checked %d "
                "configurations, %d of them with N near 10^6 (%lld plans), "
                "%lld errors\n",
                Ranks, static_cast<unsigned long long>(Seed), Count + Large,
                Large, static_cast<long long>(Plans),
                static_cast<long long>(Total));
    Coverage.print();
  }
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
