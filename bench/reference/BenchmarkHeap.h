//===- BenchmarkHeap.h - Freed memory stays in every benchmark's heap -----===//
//
// FFTW-MPI's transpose mallocs a buffer of its rank's share and frees it
// again on every execute, and glibc unmaps such a block when it is freed.
// Each execute then faults the buffer in afresh, one page fault per 4 KiB,
// which in a VM is very slow: 520,000 faults in one launch of
// redist-array-bench slab, fftw-mpi's median 130-250 ms instead of 18 ms,
// and the unmapping and faulting made the methods timed next to it slow
// and noisy too (memcpy's median up to 200 ms against a 9 ms minimum). A
// benchmark would time the C library's page handling, not the move.
//
// So every benchmark that moves data calls setUpBenchmarkHeap first thing in
// main: freed memory then stays in the heap and is reused without faults,
// for every method alike, as a long-running program that keeps its buffers
// would see it. (Setting MALLOC_MMAP_MAX_=0 and MALLOC_TRIM_THRESHOLD_ in
// every rank's environment does the same from outside.)
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_BENCHMARKHEAP_H
#define REDIST_BENCH_BENCHMARKHEAP_H

namespace redist {
namespace bench {

/// Before MPI_Init and any large allocation: with glibc on Linux, freed
/// memory is kept in the heap from now on (redist-plan's HeapSetup.h, the
/// one place that sets malloc). Returns whether it is; elsewhere, or under
/// a malloc that ignores mallopt (a sanitizer's), it does nothing.
bool setUpBenchmarkHeap();

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_BENCHMARKHEAP_H
