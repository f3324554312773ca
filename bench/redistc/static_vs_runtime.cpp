//===- static_vs_runtime.cpp - redistc's two paths, timed -----------------===//
//
// Times one redistribution, CYCLIC(R) on P processes -> CYCLIC(S) on Q
// processes of N doubles, written as a directive. Translated with redistc it
// runs the static path (constant tables); with redistc --dynamic it runs the
// runtime path (a cached plan). bench/redistc/run.sh builds and runs both.
// The parameters are macros so that one file serves every configuration:
//   -DBENCH_P=4 -DBENCH_R=3 -DBENCH_Q=4 -DBENCH_S=5 -DBENCH_N=1000000
//   -DBENCH_REPS=30
// Prints one line: the configuration, the median and the minimum over the
// repetitions of the
// slowest rank's time, and whether every element arrived (checked once,
// outside the timing).
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int P = BENCH_P, Q = BENCH_Q;
constexpr std::int64_t R = BENCH_R, S = BENCH_S, N = BENCH_N;
constexpr int Reps = BENCH_REPS;

#pragma redist processors Source(P)
#pragma redist processors Target(Q)

namespace {

int Rank = 0;

/// Global indices this rank holds under CYCLIC(B) on Procs processes.
std::vector<std::int64_t> globals(std::int64_t B, int Procs) {
  std::vector<std::int64_t> Out;
  if (Rank >= Procs)
    return Out;
  for (std::int64_t Start = Rank * B; Start < N; Start += B * Procs)
    for (std::int64_t G = Start; G < std::min(Start + B, N); ++G)
      Out.push_back(G);
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<double> Fresh;
  for (std::int64_t G : globals(R, P))
    Fresh.push_back(static_cast<double>(G));

  std::vector<double> Times;
  bool Right = true;
  for (int Rep = 0; Rep <= Reps; ++Rep) {
    std::vector<double> x = Fresh;
    MPI_Barrier(MPI_COMM_WORLD);
    double Start = MPI_Wtime();
#pragma redist distribute x[N](cyclic(R)) onto Source
#pragma redist redistribute x(cyclic(S)) onto Target
    double Mine = MPI_Wtime() - Start, Slowest = 0;
    MPI_Reduce(&Mine, &Slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (Rep == 0) {
      // Untimed warm-up: check every element.
      std::vector<std::int64_t> Want = globals(S, Q);
      bool Ok = Want.size() == x.size();
      for (std::size_t I = 0; Ok && I < Want.size(); ++I)
        Ok = x[I] == static_cast<double>(Want[I]);
      int MineOk = Ok, AllOk = 0;
      MPI_Allreduce(&MineOk, &AllOk, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      Right = AllOk == 1;
    } else {
      Times.push_back(Slowest);
    }
  }
  if (Rank == 0) {
    std::sort(Times.begin(), Times.end());
    std::printf("P=%d r=%lld Q=%d s=%lld N=%lld: median %.1f us, min %.1f us "
                "over %d runs, %s\n",
                P, static_cast<long long>(R), Q, static_cast<long long>(S),
                static_cast<long long>(N), Times[Times.size() / 2] * 1e6,
                Times.front() * 1e6, Reps,
                Right ? "every element in place" : "WRONG");
  }
  MPI_Finalize();
  return Right ? 0 : 1;
}
