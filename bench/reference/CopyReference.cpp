//===- CopyReference.cpp - What a redistribution's time is measured against
//-===//

#include "CopyReference.h"

#include <chrono>
#include <cstring>
#include <thread>

namespace redist {
namespace bench {
namespace {

/// memcpy, which must not get the null data() of an empty vector even for
/// zero bytes.
void copyAll(const std::vector<char> &From, std::vector<char> &To) {
  if (!From.empty())
    std::memcpy(To.data(), From.data(), From.size());
}

} // namespace

MemcpyReference::MemcpyReference(MPI_Comm Comm, int64_t Bytes) : Comm(Comm) {
  MPI_Comm_rank(Comm, &Rank);
  if (Rank == 0) {
    From.assign(static_cast<size_t>(Bytes), 1);
    To.assign(static_cast<size_t>(Bytes), 2);
  }
}

double MemcpyReference::time() {
  MPI_Barrier(Comm);
  double Seconds = 0;
  if (Rank == 0) {
    double Start = MPI_Wtime();
    copyAll(From, To);
    Seconds = MPI_Wtime() - Start;
  }
  MPI_Request Done;
  MPI_Ibarrier(Comm, &Done);
  for (int Finished = 0;;) {
    MPI_Test(&Done, &Finished, MPI_STATUS_IGNORE);
    if (Finished)
      break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  MPI_Bcast(&Seconds, 1, MPI_DOUBLE, 0, Comm);
  return Seconds;
}

ParallelCopyLimit::ParallelCopyLimit(MPI_Comm Comm, int64_t LocalBytes)
    : Comm(Comm), From(static_cast<size_t>(LocalBytes), 1),
      To(static_cast<size_t>(LocalBytes), 2) {}

double ParallelCopyLimit::time() {
  MPI_Barrier(Comm);
  const double Start = MPI_Wtime();
  copyAll(From, To);
  // Until the last rank's copy is done, not only this rank's: with more
  // ranks than cores, the ranks the barrier left descheduled start late, and
  // each rank's own copy alone would leave their turn out (4 ranks on 2
  // cores gave 2.2-2.8 ms for 134 MB, which one core copies in 9 ms). The
  // rank that started first waits here for them, so its time is the span
  // from the first start to the last finish.
  MPI_Barrier(Comm);
  double Mine = MPI_Wtime() - Start, Slowest = 0;
  MPI_Allreduce(&Mine, &Slowest, 1, MPI_DOUBLE, MPI_MAX, Comm);
  return Slowest;
}

} // namespace bench
} // namespace redist
