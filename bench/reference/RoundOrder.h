//===- RoundOrder.h - The order of a benchmark round's methods ------------===//
//
// The benchmarks time their methods (the references among them) round by
// round, one run of each per round after a barrier. A run changes what the
// next one finds: caches and pages warmed or evicted, and, with more ranks
// than cores, which ranks are still descheduled. In a fixed order those
// effects would always favour or hurt the same methods, so every round runs
// the methods in another order, a row of a Williams design (E. J. Williams,
// "Experimental designs balanced for the estimation of residual effects of
// treatments", 1949): over roundOrderPeriod(n) consecutive rounds every
// method runs once in each position and right after each other method
// equally often. The order depends on the round alone, so every rank runs
// the same one without communicating.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_ROUNDORDER_H
#define REDIST_BENCH_ROUNDORDER_H

#include <cstddef>
#include <vector>

namespace redist {
namespace bench {

/// The rounds after which the order repeats: Methods when it is even, twice
/// that when it is odd (a Williams square's rows and their reverses).
std::size_t roundOrderPeriod(std::size_t Methods);

/// The methods 0..Methods-1 in the order round Round runs them.
std::vector<std::size_t> roundOrder(std::size_t Methods, std::size_t Round);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_ROUNDORDER_H
