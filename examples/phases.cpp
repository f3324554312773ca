//===- phases.cpp - redist's example: two kernels, two distributions ------===//
//
// A computation in phases on a distributed array of N doubles, where each
// phase wants another distribution:
//   phase 1, triangular work: element g costs g steps of work. Under BLOCK
//     the last process would do 7/16 of all the work on 4 processes;
//     CYCLIC deals the elements out like cards and balances it.
//   phase 2, a 3-point smoothing stencil: each element needs its two
//     neighbours. Under BLOCK all but two of them are local.
//   phase 3 hands the smoothed array to a consumer that reads it in
//     CYCLIC(64) chunks.
// Three directives move the data between the phases; redistc turns each into
// MPI code at build time (constant tables here, since every parameter is a
// compile-time constant). After each one the program prints the schedule
// summary and checks that every element arrived where the new distribution
// puts it.
//
// Build and run: see examples/CMakeLists.txt and docs/redistc.md.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

// The processes the array lives on: ranks 0..3 of MPI_COMM_WORLD.
#pragma redist processors Procs(4)

constexpr int P = 4;
constexpr std::int64_t N = 4096;
constexpr std::int64_t Chunk = 64;

namespace {

int Rank = 0;

/// Phase 1's kernel: g steps of work whose result has a closed form,
/// g * (g - 1) / 2, so that the check below can recompute it cheaply.
double triangular(std::int64_t G) {
  double Sum = 0;
  for (std::int64_t J = 0; J < G; ++J)
    Sum += static_cast<double>(J);
  return Sum;
}
double triangularValue(std::int64_t G) {
  return static_cast<double>(G) * static_cast<double>(G - 1) / 2;
}

/// Phase 2's result at G, from the closed form of phase 1.
double smoothedValue(std::int64_t G) {
  double Left = G > 0 ? triangularValue(G - 1) : triangularValue(G);
  double Right = G + 1 < N ? triangularValue(G + 1) : triangularValue(G);
  return (Left + triangularValue(G) + Right) / 3;
}

/// Global index of local element L under CYCLIC(B) over P processes (BLOCK
/// is CYCLIC(ceil(N / P))): HPF's definition, written out here so that the
/// check does not rely on the code it checks.
std::int64_t globalIndex(std::int64_t B, std::int64_t L) {
  return (L / B) * B * P + Rank * B + L % B;
}

/// Counts, over all processes, the local elements that hold Expected(g) for
/// their global index g under CYCLIC(B), and prints the result on rank 0.
template <typename Fn>
void check(const char *What, const std::vector<double> &Local, std::int64_t B,
           Fn Expected) {
  long Right = 0;
  for (std::int64_t L = 0; L < static_cast<std::int64_t>(Local.size()); ++L)
    if (Local[L] == Expected(globalIndex(B, L)))
      ++Right;
  long Total = 0;
  MPI_Reduce(&Right, &Total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("  check: %ld of %lld %s%s\n", Total, static_cast<long long>(N),
                What, Total == N ? "" : "  <-- WRONG");
}

/// The schedule redistc computed for a redistribution, recomputed with the
/// same library call for the printout.
void printSchedule(const char *Directive, const redist::Distribution &From,
                   const redist::Distribution &To) {
  if (Rank != 0)
    return;
  redist::Layout Source(From, N), Target(To, N);
  redist::CommGrid Grid = redist::computeGrid(Source, Target);
  redist::CostModel Model;
  Model.ElementBytes = sizeof(double);
  redist::Schedule S = redist::makeSchedule(redist::Algorithm::Auto, Source,
                                            Target, Grid, Model);
  redist::ScheduleStats Stats = redist::measureSchedule(Grid, S);
  std::printf("%s: %s -> %s, schedule %s: %lld steps (lower bound %lld), "
              "cost %lld elements (lower bound %lld)\n",
              Directive, From.str().c_str(), To.str().c_str(),
              S.Algorithm.c_str(), static_cast<long long>(Stats.Steps),
              static_cast<long long>(Stats.StepsLowerBound),
              static_cast<long long>(Stats.Cost),
              static_cast<long long>(Stats.CostLowerBound));
}

/// Elements process R holds under CYCLIC(B).
std::int64_t localSize(std::int64_t B, int R) {
  std::int64_t Whole = N / (B * P), Rest = N % (B * P);
  return Whole * B + std::min(B, std::max<std::int64_t>(0, Rest - R * B));
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Size < P) {
    if (Rank == 0)
      std::fprintf(stderr, "run on at least %d MPI processes (got %d)\n", P,
                   Size);
    MPI_Finalize();
    return 1;
  }
  if (Rank == 0)
    std::printf("redist example: %lld doubles on %d processes (%d ranks)\n",
                static_cast<long long>(N), P, Size);
  const bool Member = Rank < P;
  const std::int64_t BlockSize = (N + P - 1) / P;

  // Phase 1 under CYCLIC: element g = l * P + rank.
  std::vector<double> x(Member ? localSize(1, Rank) : 0);
#pragma redist distribute x[N](cyclic) onto Procs
  long Work = 0;
  for (std::int64_t L = 0; L < static_cast<std::int64_t>(x.size()); ++L) {
    std::int64_t G = globalIndex(1, L);
    x[L] = triangular(G);
    Work += G;
  }
  long MaxWork = 0, TotalWork = 0;
  MPI_Reduce(&Work, &MaxWork, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&Work, &TotalWork, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("phase 1 (triangular work) under cyclic: the busiest "
                "process does %.1f%% of the work (ideal %.1f%%)\n",
                100.0 * static_cast<double>(MaxWork) /
                    static_cast<double>(TotalWork),
                100.0 / P);

    // Phase 2 wants contiguous blocks.
#pragma redist redistribute x(block)
  printSchedule("redistribute x(block)", redist::Distribution::cyclic(P),
                redist::Distribution::block(P));
  check("elements arrived, each where block puts it", x, BlockSize,
        triangularValue);

  // The 3-point stencil, with one halo value from each neighbour.
  std::vector<double> y(x.size());
  if (Member && !x.empty()) {
    double FromLeft = x.front(), FromRight = x.back();
    int Left = Rank > 0 ? Rank - 1 : MPI_PROC_NULL;
    int Right = Rank + 1 < P && localSize(BlockSize, Rank + 1) > 0
                    ? Rank + 1
                    : MPI_PROC_NULL;
    MPI_Sendrecv(&x.back(), 1, MPI_DOUBLE, Right, 0, &FromLeft, 1, MPI_DOUBLE,
                 Left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x.front(), 1, MPI_DOUBLE, Left, 1, &FromRight, 1, MPI_DOUBLE,
                 Right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const std::size_t Last = x.size() - 1;
    for (std::size_t L = 0; L <= Last; ++L) {
      double Before = L > 0 ? x[L - 1] : FromLeft;
      double After = L < Last ? x[L + 1] : FromRight;
      y[L] = (Before + x[L] + After) / 3;
    }
  }
#pragma redist distribute y[N](block) onto Procs
  if (Rank == 0)
    std::printf("phase 2 (3-point stencil) under block: 2 halo values per "
                "process\n");
  check("smoothed values are right", y, BlockSize, smoothedValue);

  // Phase 3 reads CYCLIC(64) chunks.
  std::vector<double> z;
#pragma redist distribute z[N](cyclic(Chunk)) onto Procs
#pragma redist assign z = y
  printSchedule("assign z = y", redist::Distribution::block(P),
                redist::Distribution::cyclic(P, Chunk));
  check("elements arrived, each where cyclic(64) puts it", z, Chunk,
        smoothedValue);

  MPI_Finalize();
  return 0;
}
