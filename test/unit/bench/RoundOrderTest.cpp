//===- RoundOrderTest.cpp - The benchmarks' order of methods per round ----===//
//
// Over one period of rounds, every method runs once in each position per
// n rounds, and right after each other method equally often: the balance
// that keeps one method's leftovers (caches, descheduled ranks) from always
// falling on the same next method.
//
//===----------------------------------------------------------------------===//
#include "RoundOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using redist::bench::roundOrder;
using redist::bench::roundOrderPeriod;

namespace {

TEST(RoundOrderTest, EveryRoundRunsEveryMethodOnce) {
  for (std::size_t N = 0; N <= 9; ++N)
    for (std::size_t Round = 0; Round < 3 * roundOrderPeriod(N) + 1; ++Round) {
      std::vector<std::size_t> Order = roundOrder(N, Round);
      std::sort(Order.begin(), Order.end());
      for (std::size_t K = 0; K < N; ++K)
        ASSERT_EQ(Order[K], K) << "n = " << N << ", round " << Round;
    }
}

TEST(RoundOrderTest, BalancedOverAPeriod) {
  for (std::size_t N = 1; N <= 12; ++N) {
    const std::size_t Period = roundOrderPeriod(N);
    EXPECT_EQ(Period, N % 2 ? 2 * N : N);
    // Position[m][p]: rounds that run m at p; After[a][b]: rounds that run
    // b right after a.
    std::vector<std::vector<std::size_t>> Position(
        N, std::vector<std::size_t>(N, 0)),
        After(N, std::vector<std::size_t>(N, 0));
    // A later period repeats the first.
    for (std::size_t Round = Period; Round < 2 * Period; ++Round) {
      const std::vector<std::size_t> Order = roundOrder(N, Round);
      EXPECT_EQ(Order, roundOrder(N, Round - Period));
      for (std::size_t P = 0; P < N; ++P) {
        ++Position[Order[P]][P];
        if (P > 0)
          ++After[Order[P - 1]][Order[P]];
      }
    }
    for (std::size_t A = 0; A < N; ++A)
      for (std::size_t B = 0; B < N; ++B) {
        EXPECT_EQ(Position[A][B], Period / N)
            << "n = " << N << ": method " << A << " at " << B;
        EXPECT_EQ(After[A][B], A == B ? 0 : Period / N)
            << "n = " << N << ": " << B << " after " << A;
      }
  }
}

TEST(RoundOrderTest, TheFirstMethodComesFirstInRoundZero) {
  // Round 0 starts with method 0 and shifts by one each round after.
  EXPECT_EQ(roundOrder(4, 0), (std::vector<std::size_t>{0, 1, 3, 2}));
  EXPECT_EQ(roundOrder(4, 1), (std::vector<std::size_t>{1, 2, 0, 3}));
  EXPECT_EQ(roundOrder(3, 3), (std::vector<std::size_t>{2, 1, 0}));
}

} // namespace
