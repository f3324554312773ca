//===- RandomLayout2D.h - Seeded random matrix layouts, for sweeps --------===//
//
// The 2-D sweeps (MatrixGridTest, Schedulers2DTest) draw pairs of small
// layouts of one matrix: every 1-D format per dimension, both grid orders,
// any first-process offsets and both storage orders. A fixed seed makes a
// failure reproducible; describe names the pair in failure messages.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_RANDOMLAYOUT2D_H
#define REDIST_TEST_UNIT_RANDOMLAYOUT2D_H

#include "redist/Distribution2D.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// A uniform integer in [Lo, Hi].
inline int64_t uniform(std::mt19937_64 &Rng, int64_t Lo, int64_t Hi) {
  return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
}

/// A random 1-D layout of N elements over 1..MaxProcs processes.
inline Layout randomLayout(std::mt19937_64 &Rng, int64_t N, int64_t MaxProcs) {
  const int64_t P = uniform(Rng, 1, MaxProcs);
  switch (uniform(Rng, 0, 3)) {
  case 0:
    return Layout(Distribution::block(P), N);
  case 1: // BLOCK(k) must cover N: k >= ceil(N / P).
    return Layout(
        Distribution::block(P, (N + P - 1) / P + uniform(Rng, 0, 2) + (N == 0)),
        N);
  case 2:
    return Layout(Distribution::cyclic(P, uniform(Rng, 1, 4)), N);
  default: {
    std::vector<int64_t> Sizes(static_cast<size_t>(P), 0);
    for (int64_t I = 0; I < N; ++I)
      ++Sizes[static_cast<size_t>(uniform(Rng, 0, P - 1))];
    return Layout(Distribution::genBlock(Sizes), N);
  }
  }
}

/// A random layout of an M x N matrix.
inline Layout2D randomLayout2D(std::mt19937_64 &Rng, int64_t M, int64_t N,
                               int64_t MaxProcs) {
  Layout Rows = randomLayout(Rng, M, MaxProcs);
  Layout Cols = randomLayout(Rng, N, MaxProcs);
  const int64_t RowSource = uniform(Rng, 0, Rows.procs() - 1);
  const int64_t ColSource = uniform(Rng, 0, Cols.procs() - 1);
  const GridOrder Order =
      uniform(Rng, 0, 1) ? GridOrder::RowMajor : GridOrder::ColumnMajor;
  LocalStorage Storage;
  Storage.Order =
      uniform(Rng, 0, 1) ? StorageOrder::ColumnMajor : StorageOrder::RowMajor;
  // Half tight, half padded beyond the largest local part.
  if (uniform(Rng, 0, 1)) {
    const Layout &Lead =
        Storage.Order == StorageOrder::ColumnMajor ? Rows : Cols;
    Storage.LeadingDim =
        std::max<int64_t>(1, Lead.maxLocalSize()) + uniform(Rng, 0, 3);
  }
  return Layout2D(Rows, Cols, Order, RowSource, ColSource, Storage);
}

inline std::string describe(const Layout2D &From, const Layout2D &To) {
  return From.str() + " -> " + To.str();
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_RANDOMLAYOUT2D_H
