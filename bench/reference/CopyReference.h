//===- CopyReference.h - What a redistribution's time is measured against -===//
//
// The two references every redist benchmark reports its methods against, in
// the same run and interleaved with them:
//
//  - MemcpyReference: one core's memcpy of the whole array (the physical
//    cost of one sweep, as a single process would pay it);
//  - ParallelCopyLimit: every rank copies its own target share at once,
//    timed from the first rank's start to the last rank's finish (with more
//    ranks than cores they take turns). A redistribution must read every
//    element once and write it once, and the ranks can do that side by side, so
//    no method can beat this: it is the limit a redistribution on one node aims
//    at (docs/PERFORMANCE.md, "How to read the ratios").
//
// Both allocate and touch their buffers once, when built, so that page
// faults stay out of the timings. Benchmarks call time() once per round,
// between the methods' runs, so that load from other programs hits the
// references and the methods alike.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_COPYREFERENCE_H
#define REDIST_BENCH_COPYREFERENCE_H

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace redist {
namespace bench {

/// One core's memcpy of the whole array. Rank 0 copies while the other ranks
/// wait without polling, so they leave the cores alone.
class MemcpyReference {
public:
  /// Collective. Rank 0 allocates both buffers of Bytes and writes them once.
  MemcpyReference(MPI_Comm Comm, int64_t Bytes);
  /// Collective: one copy's time in seconds, returned on every rank.
  double time();

private:
  MPI_Comm Comm;
  int Rank = 0;
  std::vector<char> From, To;
};

/// The parallel copy limit: every rank of Comm copies LocalBytes (its share
/// of the target, which may differ between ranks and be 0) from a buffer of
/// its own into another, all at once after a barrier.
class ParallelCopyLimit {
public:
  /// Collective. Each rank allocates and writes its two buffers.
  ParallelCopyLimit(MPI_Comm Comm, int64_t LocalBytes);
  /// Collective: the time from the barrier before the copies to the end of
  /// the last rank's copy, in seconds, returned on every rank.
  double time();

private:
  MPI_Comm Comm;
  std::vector<char> From, To;
};

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_COPYREFERENCE_H
