//===- HeapSetup.cpp - malloc settings that keep freed memory in the heap -===//

#include "HeapSetup.h"

#include <cstdint>
#include <cstdlib> // defines __GLIBC__ with glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace redistplan {

bool keepFreedMemoryInHeap() {
#if defined(__linux__) && defined(__GLIBC__)
  // From the heap (brk), not one mapping per large array; and what is
  // freed stays there for the next array instead of being unmapped.
  return mallopt(M_MMAP_MAX, 0) == 1 &&
         mallopt(M_TRIM_THRESHOLD, INT32_MAX) == 1;
#else
  return false;
#endif
}

void reserveHeapForPlans() {
  if (!keepFreedMemoryInHeap())
    return;
#if defined(__linux__) && defined(__GLIBC__)
  // redist-plan's largest plans (2^22 messages) touch about 500 MB.
  constexpr std::size_t Reserve = std::size_t(512) << 20;
  constexpr std::uintptr_t HugePage = std::uintptr_t(2) << 20;
  // Grow the heap once by Reserve and free it again: it stays the heap's
  // top, which later allocations are carved from. madvise marks it for
  // huge pages: one fault per 2 MiB instead of per 4 KiB. Without THP in
  // the kernel, or on failure, plans merely fault more.
  // volatile: a malloc whose block is only freed may be left out.
  void *volatile Block = std::malloc(Reserve);
  if (!Block)
    return;
  const std::uintptr_t Begin =
      (reinterpret_cast<std::uintptr_t>(Block) + HugePage - 1) &
      ~(HugePage - 1);
  const std::uintptr_t End =
      (reinterpret_cast<std::uintptr_t>(Block) + Reserve) & ~(HugePage - 1);
  if (End > Begin)
    madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_HUGEPAGE);
  std::free(Block);
#endif
}

} // namespace redistplan
