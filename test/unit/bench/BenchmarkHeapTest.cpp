//===- BenchmarkHeapTest.cpp - Freed memory stays in a benchmark's heap ---===//
//
// After setUpBenchmarkHeap, a block far above glibc's mmap threshold comes
// from the heap, not from a mapping of its own, and freeing it leaves the
// heap as large as before: the next array of that size faults no page in.
//
//===----------------------------------------------------------------------===//
#include "BenchmarkHeap.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

#if defined(__linux__) && defined(__GLIBC__)
TEST(BenchmarkHeapTest, FreedLargeBlocksStayInTheHeap) {
  if (!redist::bench::setUpBenchmarkHeap())
    GTEST_SKIP() << "malloc ignores mallopt here (a sanitizer's malloc)";
  // Twice glibc's largest mmap threshold: by default a mapping of its own,
  // unmapped on free.
  constexpr std::size_t Size = std::size_t(64) << 20;
  const struct mallinfo2 Before = mallinfo2();
  void *volatile Block = std::malloc(Size);
  ASSERT_NE(Block, nullptr);
  const struct mallinfo2 Holding = mallinfo2();
  EXPECT_EQ(Holding.hblkhd, Before.hblkhd) << "the block was mapped apart";
  EXPECT_GE(Holding.arena, Before.arena + Size);
  std::free(Block);
  const struct mallinfo2 After = mallinfo2();
  EXPECT_EQ(After.arena, Holding.arena) << "the heap was trimmed";
  EXPECT_GE(After.fordblks, Size);
}
#endif

} // namespace
