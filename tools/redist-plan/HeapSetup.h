//===- HeapSetup.h - malloc settings for plans of millions of messages ----===//
//
// A plan of millions of messages fills a few hundred megabytes of arrays
// that live for a fraction of a second. On 4 KiB pages the kernel's page
// faults cost about as much as computing them, and glibc hands each array
// of more than 32 MiB back to the kernel when it is freed, so the next one
// faults in afresh. reserveHeapForPlans keeps freed memory in the heap for
// the next array and asks for transparent huge pages on it.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H
#define REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H

namespace redistplan {

/// Before any large allocation: with glibc on Linux, serves every
/// allocation from the heap, never returns freed memory to the kernel, and
/// marks the heap's first 512 MiB (address space; pages are still touched
/// only when used) for transparent huge pages. Elsewhere it does nothing.
void reserveHeapForPlans();

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_HEAPSETUP_H
