//===- distribute_check.cpp - What a distribute directive's agreement costs ===//
//
// A function of a translated program: distribute x (CYCLIC(3) on 2
// processes, N doubles, N and the block size known at run time), then
// redistribute it to CYCLIC(5) (a cached plan, with the plan's own check).
// The two variants differ only in the distribute's verify clause: on, one
// MPI_Allreduce agrees on its values; off, nothing collective. Each
// repetition times both, in alternating order, after a barrier, as the
// slowest rank's time; the program prints the median and the minimum of
// each, and whether every element arrived (checked outside the timing).
//
//   redistc bench/redistc/distribute_check.cpp -o dc.cpp -- -Ilib/include
//   mpicxx -O3 -std=c++17 -DOMPI_SKIP_MPICXX=1 -Ilib/include \
//       -Iruntime/include dc.cpp -o dc -Lbuild/runtime -Lbuild/lib \
//       -lredist_runtime -lredist_schedule
//   mpirun -np 2 ./dc N REPS
//
//===----------------------------------------------------------------------===//

#include <redist/runtime/Translated.h>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#pragma redist processors P(2)

namespace {

int Rank = 0;

/// Global indices this rank holds under CYCLIC(B) on 2 processes.
std::vector<double> part(std::int64_t B, std::int64_t N) {
  std::vector<double> Out;
  for (std::int64_t Start = Rank * B; Start < N; Start += 2 * B)
    for (std::int64_t G = Start; G < std::min(Start + B, N); ++G)
      Out.push_back(static_cast<double>(G));
  return Out;
}

void checked(std::vector<double> &x, std::int64_t N, std::int64_t K,
             std::int64_t L) {
#pragma redist distribute x[N](cyclic(K)) onto P verify(on)
#pragma redist redistribute x(cyclic(L)) verify(on)
}

void unchecked(std::vector<double> &x, std::int64_t N, std::int64_t K,
               std::int64_t L) {
#pragma redist distribute x[N](cyclic(K)) onto P verify(off)
#pragma redist redistribute x(cyclic(L)) verify(on)
}

/// The slowest rank's time of one call of F on a fresh copy of In.
template <typename Fn>
double timed(Fn F, const std::vector<double> &In, std::vector<double> &Out) {
  Out = In;
  MPI_Barrier(MPI_COMM_WORLD);
  const double Start = MPI_Wtime();
  F(Out);
  double Mine = MPI_Wtime() - Start, Slowest = 0;
  MPI_Allreduce(&Mine, &Slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Slowest;
}

void summary(const char *Name, std::vector<double> T) {
  std::sort(T.begin(), T.end());
  if (Rank == 0)
    std::printf("%s: median %.2f us, min %.2f us\n", Name,
                1e6 * T[T.size() / 2], 1e6 * T.front());
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int Size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const std::int64_t N = argc > 1 ? std::atoll(argv[1]) : 1000;
  const int Reps = argc > 2 ? std::atoi(argv[2]) : 30;
  const std::int64_t K = 3, L = 5;
  if (Size != 2 || N <= 0 || Reps <= 0) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: mpirun -np 2 %s N REPS\n", argv[0]);
    MPI_Finalize();
    return 1;
  }
  const std::vector<double> In = part(K, N), Want = part(L, N);
  std::vector<double> Out;
  auto Checked = [&](std::vector<double> &X) { checked(X, N, K, L); };
  auto Unchecked = [&](std::vector<double> &X) { unchecked(X, N, K, L); };
  // Plans built, and the result checked, before the timing.
  int Wrong = 0;
  timed(Checked, In, Out);
  Wrong += Out != Want;
  timed(Unchecked, In, Out);
  Wrong += Out != Want;
  std::vector<double> On, Off;
  for (int I = 0; I < Reps; ++I) {
    if (I % 2 == 0) {
      On.push_back(timed(Checked, In, Out));
      Off.push_back(timed(Unchecked, In, Out));
    } else {
      Off.push_back(timed(Unchecked, In, Out));
      On.push_back(timed(Checked, In, Out));
    }
  }
  int AnyWrong = 0;
  MPI_Allreduce(&Wrong, &AnyWrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("N = %lld, %d repetitions, %s\n", static_cast<long long>(N),
                Reps, AnyWrong ? "WRONG elements" : "every element in place");
  summary("distribute verify(on) + redistribute", On);
  summary("distribute verify(off) + redistribute", Off);
  MPI_Finalize();
  return AnyWrong;
}
