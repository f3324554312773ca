//===- Measure.h - How redist-bench times things --------------------------===//
//
// A timed repetition is: barrier, run, and the slowest rank's wall time, so
// a redistribution counts as done when the last rank is done. Figures are
// summarised by their median (robust on a shared, noisy machine) and minimum.
// The references they are compared with are in bench/reference.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_MEASURE_H
#define REDIST_BENCH_MEASURE_H

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace redist {
namespace bench {

/// Runs F once on every rank of Comm after a barrier; returns the largest
/// time any rank took, in seconds, on every rank.
template <typename Fn> double timeCollective(MPI_Comm Comm, Fn &&F) {
  MPI_Barrier(Comm);
  double Start = MPI_Wtime();
  F();
  double Mine = MPI_Wtime() - Start, Slowest = 0;
  MPI_Allreduce(&Mine, &Slowest, 1, MPI_DOUBLE, MPI_MAX, Comm);
  return Slowest;
}

double median(std::vector<double> Times);
double minimum(const std::vector<double> &Times);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_MEASURE_H
