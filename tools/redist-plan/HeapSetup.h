//===- HeapSetup.h - malloc settings that keep freed memory in the heap ---===//
//
// glibc gives each block of more than 32 MiB a mapping of its own, which
// free unmaps, and trims the heap's free top, so the next large array
// faults in afresh, one page fault per 4 KiB. Programs that allocate and
// free large arrays again and again pay that every time:
//
//  - redist-plan: a plan of millions of messages fills a few hundred
//    megabytes of arrays that live for a fraction of a second, and the
//    faults cost about as much as computing them (reserveHeapForPlans);
//  - the benchmarks that move data (bench/reference/BenchmarkHeap.h): a
//    peer that mallocs and frees a buffer per run is otherwise timed
//    faulting it in.
//
// This is the one place that sets glibc's malloc for both.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H
#define REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H

namespace redistplan {

/// Before any large allocation: with glibc on Linux, serves every
/// allocation from the heap (no mapping of its own per large block) and
/// never returns freed memory to the kernel, so that it is reused without
/// page faults. Returns whether both settings took; elsewhere it does
/// nothing and returns false.
bool keepFreedMemoryInHeap();

/// keepFreedMemoryInHeap, and with glibc on Linux marks the heap's first
/// 512 MiB (address space; pages are still touched only when used) for
/// transparent huge pages.
void reserveHeapForPlans();

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H
