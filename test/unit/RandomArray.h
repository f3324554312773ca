//===- RandomArray.h - Seeded random N-D layouts and regions
//---------------===//
//
// Test helper, shared by the unit tests and the MPI array sweep: a random
// array layout of rank 1 to 4 (every format, offsets, both grid and storage
// orders, padded strides) on at most MaxProcs processes, and a random move
// between two of them (a permutation and sections).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_RANDOMARRAY_H
#define REDIST_TEST_UNIT_RANDOMARRAY_H

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace redist {
namespace test {

inline int64_t uniform(std::mt19937_64 &Rng, int64_t Lo, int64_t Hi) {
  return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
}

/// A random format of an extent-N dimension over P processes.
inline DimFormat randomFormat(std::mt19937_64 &Rng, int64_t N, int64_t P) {
  switch (uniform(Rng, 0, 4)) {
  case 0:
    return DimFormat::block();
  case 1: {
    const int64_t Least = std::max<int64_t>(1, (N + P - 1) / P);
    return DimFormat::block(Least + uniform(Rng, 0, 2));
  }
  case 2:
    return DimFormat::cyclic();
  case 3:
    return DimFormat::cyclic(uniform(Rng, 1, 4));
  default: {
    std::vector<int64_t> Sizes(static_cast<size_t>(P), 0);
    for (int64_t I = 0; I < N; ++I)
      ++Sizes[static_cast<size_t>(uniform(Rng, 0, P - 1))];
    return DimFormat::genBlock(Sizes);
  }
  }
}

/// A random layout of Extents on at most MaxProcs processes. With Padding,
/// sometimes strides that leave room between lines.
inline ArrayLayout randomArrayLayout(std::mt19937_64 &Rng,
                                     const std::vector<int64_t> &Extents,
                                     int64_t MaxProcs, bool Padding = true) {
  const int D = static_cast<int>(Extents.size());
  std::vector<DimFormat> Formats;
  std::vector<int64_t> Grid, First;
  int64_t Procs = 1;
  for (int K = 0; K < D; ++K) {
    const int64_t Room = MaxProcs / Procs;
    if (Room >= 1 && uniform(Rng, 0, 3) != 0) {
      const int64_t P = uniform(Rng, 1, std::min<int64_t>(Room, 3));
      Procs *= P;
      Grid.push_back(P);
      Formats.push_back(randomFormat(Rng, Extents[static_cast<size_t>(K)], P));
      First.push_back(uniform(Rng, 0, P - 1));
    } else {
      Formats.push_back(DimFormat::collapsed());
      First.push_back(0);
    }
  }
  ArrayStorage Storage;
  Storage.Order =
      uniform(Rng, 0, 1) ? StorageOrder::RowMajor : StorageOrder::ColumnMajor;
  const GridOrder Order =
      uniform(Rng, 0, 1) ? GridOrder::RowMajor : GridOrder::ColumnMajor;
  ArrayLayout Tight(Extents, Formats, Grid, Order, First, Storage);
  if (!Padding || uniform(Rng, 0, 2) != 0)
    return Tight;
  // Strides over the largest local part, each line padded a little.
  std::vector<int64_t> Strides(static_cast<size_t>(D));
  int64_t Next = 1;
  for (int J = 0; J < D; ++J) {
    const int K = Storage.Order == StorageOrder::ColumnMajor ? J : D - 1 - J;
    Strides[static_cast<size_t>(K)] = Next;
    Next *=
        std::max<int64_t>(1, Tight.dim(K).maxLocalSize()) + uniform(Rng, 0, 2);
  }
  Storage.Strides = Strides;
  return ArrayLayout(Extents, Formats, Grid, Order, First, Storage);
}

/// A random permutation of D axes (the identity one time in three).
inline std::vector<int> randomPermutation(std::mt19937_64 &Rng, int D) {
  std::vector<int> P(static_cast<size_t>(D));
  std::iota(P.begin(), P.end(), 0);
  if (uniform(Rng, 0, 2) != 0)
    std::shuffle(P.begin(), P.end(), Rng);
  return P;
}

/// Random extents of rank D, each in [0, MaxExtent] (rarely 0).
inline std::vector<int64_t> randomExtents(std::mt19937_64 &Rng, int D,
                                          int64_t MaxExtent) {
  std::vector<int64_t> E;
  for (int K = 0; K < D; ++K)
    E.push_back(uniform(Rng, 0, 19) == 0 ? 0 : uniform(Rng, 1, MaxExtent));
  return E;
}

/// A random section of the source (extents SrcExt) into a target of
/// extents DstExt along Perm: each section extent fits both sides.
inline ArrayRegion randomSection(std::mt19937_64 &Rng,
                                 const std::vector<int64_t> &SrcExt,
                                 const std::vector<int64_t> &DstExt,
                                 const std::vector<int> &Perm) {
  const size_t D = SrcExt.size();
  ArrayRegion R;
  R.Permutation = Perm;
  R.Extents.assign(D, 0);
  R.SourceBegin.assign(D, 0);
  R.TargetBegin.assign(D, 0);
  for (size_t T = 0; T < D; ++T) {
    const size_t A = static_cast<size_t>(Perm[T]);
    const int64_t Most = std::min(SrcExt[A], DstExt[T]);
    // Mostly large sections, so that runs and repeats are long.
    const int64_t E = uniform(Rng, 0, 2) == 0 ? uniform(Rng, 0, Most)
                                               : uniform(Rng, Most / 2, Most);
    R.Extents[A] = E;
    R.SourceBegin[A] = uniform(Rng, 0, SrcExt[A] - E);
    R.TargetBegin[T] = uniform(Rng, 0, DstExt[T] - E);
  }
  return R;
}

/// A random band of diagonals over two different axes of a section of
/// Extents (rank 2 or more): either edge or both, now and then empty or
/// reaching beyond the section.
inline ArrayBand randomBand(std::mt19937_64 &Rng,
                            const std::vector<int64_t> &Extents) {
  const int64_t D = static_cast<int64_t>(Extents.size());
  ArrayBand B;
  B.Row = static_cast<int>(uniform(Rng, 0, D - 1));
  B.Col = static_cast<int>((B.Row + uniform(Rng, 1, D - 1)) % D);
  const int64_t Rows = Extents[static_cast<size_t>(B.Row)],
                Cols = Extents[static_cast<size_t>(B.Col)];
  if (uniform(Rng, 0, 3) != 0)
    B.Begin = uniform(Rng, -Cols - 1, Rows);
  if (uniform(Rng, 0, 3) != 0)
    B.End =
        uniform(Rng, std::max(-Cols, std::min<int64_t>(B.Begin, 0)), Rows + 1);
  return B;
}

/// Whether section indices K (one per source axis) are in Band.
inline bool inBand(const std::optional<ArrayBand> &Band,
                   const std::vector<int64_t> &K) {
  if (!Band)
    return true;
  const int64_t Diagonal =
      K[static_cast<size_t>(Band->Row)] - K[static_cast<size_t>(Band->Col)];
  return Diagonal >= Band->Begin && Diagonal < Band->End;
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_RANDOMARRAY_H
