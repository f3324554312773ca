//===- Measure.cpp - How redist-bench times things ------------------------===//

#include "Measure.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace redist {
namespace bench {

double median(std::vector<double> Times) {
  if (Times.empty())
    return 0;
  std::sort(Times.begin(), Times.end());
  size_t Mid = Times.size() / 2;
  return Times.size() % 2 ? Times[Mid] : (Times[Mid - 1] + Times[Mid]) / 2;
}

double minimum(const std::vector<double> &Times) {
  return Times.empty() ? 0 : *std::min_element(Times.begin(), Times.end());
}

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
    // An empty vector's data() may be null, which memcpy must not get even
    // for zero bytes (N = 0).
    if (!From.empty())
      std::memcpy(To.data(), From.data(), From.size());
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

} // namespace bench
} // namespace redist
