//===- Measure.h - How redist-bench times things --------------------------===//
//
// A timed repetition is: barrier, run, and the slowest rank's wall time, so
// a redistribution counts as done when the last rank is done. Figures are
// summarised by their median (robust on a shared, noisy machine) and minimum.
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

/// The physical reference: one core's memcpy of the whole array. Rank 0
/// copies while the other ranks wait without polling, so they leave the
/// cores alone.
class MemcpyReference {
public:
  /// Collective. Rank 0 allocates both buffers and writes them once, so page
  /// faults stay out of the timing.
  MemcpyReference(MPI_Comm Comm, int64_t Bytes);
  /// Collective: one copy's time, returned on every rank.
  double time();

private:
  MPI_Comm Comm;
  int Rank = 0;
  std::vector<char> From, To;
};

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_MEASURE_H
