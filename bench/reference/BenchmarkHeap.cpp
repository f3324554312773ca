//===- BenchmarkHeap.cpp - Freed memory stays in every benchmark's heap ---===//

#include "BenchmarkHeap.h"

#include "HeapSetup.h"

namespace redist {
namespace bench {

// Without the transparent huge pages redist-plan also asks for
// (reserveHeapForPlans): they would change what the methods' copies cost,
// not only the faults.
bool setUpBenchmarkHeap() { return redistplan::keepFreedMemoryInHeap(); }

} // namespace bench
} // namespace redist
