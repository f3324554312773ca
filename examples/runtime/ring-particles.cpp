//===- ring-particles.cpp - Rebalancing particles along a ring ------------===//
//
// A particle code whose ranks run at different speeds (here rank r does
// 1 + r % 3 times the work per particle, as a slower node would). Each step
// every rank
//   1. moves its particles and measures how long that took per particle,
//   2. learns every rank's time per particle (MPI_Allgather) and computes
//      targets proportional to speed (redist::proportionalTargets),
//   3. plans the move along the ring (redist::planRingRebalance, link costs
//      measured once) and asks whether it pays off over the remaining steps
//      (redist::decideRebalance),
//   4. if so, moves the particles (redist::rebalanceRing) and prints the
//      model's predicted time beside the measured one,
// and checks that every particle is still there exactly once.
//
// Build and run: see test/mpi/ring-example.test (mpicxx against
// lib/include, runtime/include and the two static libraries), then
// mpirun -np 4 ./ring-particles.
//
//===----------------------------------------------------------------------===//

#include "redist/RingBalance.h"
#include "redist/runtime/Ring.h"

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

struct Particle {
  std::int64_t Id;
  double X, V;
};

constexpr std::int64_t PerRank = 2000;
constexpr int Steps = 4;

/// One step of work on a particle; Repeat stands for a slower rank.
void advance(Particle &P, int Repeat) {
  for (int K = 0; K < 200 * Repeat; ++K) {
    P.V += -0.01 * std::sin(P.X);
    P.X += 0.01 * P.V;
  }
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::vector<Particle> Mine;
  for (std::int64_t K = 0; K < PerRank; ++K)
    Mine.push_back({Rank * PerRank + K, 0.001 * K, 0});
  const std::int64_t Total = PerRank * Size;
  redist::RingOptions Options;
  Options.Bidirectional = true;
  int Failures = 0;

  for (int Step = 1; Step <= Steps; ++Step) {
    const double Start = MPI_Wtime();
    for (Particle &P : Mine)
      advance(P, 1 + Rank % 3);
    const double Busy = MPI_Wtime() - Start;
    const double PerItem = Mine.empty() ? 1e-9 : Busy / Mine.size();
    std::vector<double> Times(Size);
    MPI_Allgather(&PerItem, 1, MPI_DOUBLE, Times.data(), 1, MPI_DOUBLE,
                  MPI_COMM_WORLD);
    const std::vector<std::int64_t> Targets =
        redist::proportionalTargets(Times, Total);
    const redist::RingRebalancePlan Plan = redist::planRingRebalance(
        static_cast<std::int64_t>(Mine.size()), Targets[Rank], MPI_COMM_WORLD,
        sizeof(Particle), Options);
    const redist::RebalanceDecision Decision =
        redist::decideRebalance(Times, Plan.Problem.Loads, Targets,
                                Plan.Schedule.Makespan, Steps - Step);
    if (Rank == 0)
      std::printf("step %d: iteration %.4f s, balanced %.4f s; moving %lld "
                  "items would take %.6f s (%s) and save %.4f s over %d "
                  "steps: %s\n",
                  Step, Decision.IterationNow, Decision.IterationAfter,
                  static_cast<long long>([&] {
                    std::int64_t Moved = 0;
                    for (std::int64_t F : Plan.Schedule.Fwd)
                      Moved += F;
                    for (std::int64_t B : Plan.Schedule.Bwd)
                      Moved += B;
                    return Moved;
                  }()),
                  Decision.Cost, Plan.Schedule.Algorithm.c_str(), Decision.Gain,
                  Steps - Step, Decision.Worthwhile ? "rebalance" : "keep");
    if (Decision.Worthwhile) {
      const redist::RingRebalanceResult R =
          redist::rebalanceRing(Mine, Targets[Rank], MPI_COMM_WORLD, Options);
      double Slowest = 0;
      MPI_Reduce(&R.Seconds, &Slowest, 1, MPI_DOUBLE, MPI_MAX, 0,
                 MPI_COMM_WORLD);
      if (Rank == 0)
        std::printf("  moved: predicted %.6f s, measured %.6f s\n",
                    R.Schedule.Makespan, Slowest);
    }
    // Every particle once: the count, the sum of the ids and of their
    // squares.
    double Local[3] = {static_cast<double>(Mine.size()), 0, 0}, All[3];
    for (const Particle &P : Mine) {
      Local[1] += static_cast<double>(P.Id);
      Local[2] += static_cast<double>(P.Id) * static_cast<double>(P.Id);
    }
    MPI_Allreduce(Local, All, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double N = static_cast<double>(Total);
    const bool Ok = All[0] == N && All[1] == N * (N - 1) / 2 &&
                    All[2] == (N - 1) * N * (2 * N - 1) / 6;
    Failures += !Ok;
  }
  if (Rank == 0)
    std::printf("%lld particles on %d ranks after %d steps: %s\n",
                static_cast<long long>(Total), Size, Steps,
                Failures == 0 ? "every particle exactly once"
                              : "LOST OR DUPLICATED");
  MPI_Finalize();
  return Failures != 0;
}
