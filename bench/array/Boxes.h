//===- Boxes.h - The block layouts of redist-array-bench ------------------===//
//
// The benchmark's configurations distribute every axis by BLOCK or not at
// all, so each rank's part of an array is a box. This describes both sides
// of a move in the source array's coordinates: a target axis k is source
// axis Perm[k], and a box's strides say where each source axis steps in
// that side's row-major local storage. The hand-written peers (pack and
// unpack, subarray datatypes) and the checks use it; redist gets the same
// layouts through its own API.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_ARRAY_BOXES_H
#define REDIST_BENCH_ARRAY_BOXES_H

#include <array>
#include <cstdint>
#include <vector>

namespace redist {
namespace bench {

constexpr int Rank3 = 3;
using Index3 = std::array<int64_t, Rank3>;

/// One array's distribution: the grid's shape, and per axis of that array
/// the grid dimension its BLOCK maps onto, or -1 for `*`.
struct BlockLayout {
  std::vector<int> Grid;
  std::array<int, Rank3> Axis;
};

/// One rank's part, in source coordinates: [Lo, Hi) per source axis and the
/// step of each source axis in the local row-major storage.
struct Box {
  Index3 Lo{}, Hi{}, Stride{};
  int64_t extent(int A) const { return Hi[A] - Lo[A]; }
  int64_t size() const;
};

/// Rank R's part of an array of extents N^3 laid out by L, whose axis k is
/// source axis Perm[k] (the source itself has the identity).
Box boxOf(const BlockLayout &L, const std::array<int, Rank3> &Perm, int64_t N,
          int R);

/// The common part of A and B in source coordinates (possibly empty); its
/// strides are meaningless.
Box intersect(const Box &A, const Box &B);

/// The value the source holds at a global source index: the index itself,
/// exact in a double up to N = 2^17.
inline double valueAt(int64_t N, int64_t X, int64_t Y, int64_t Z) {
  return static_cast<double>((X * N + Y) * N + Z);
}

/// Calls F(X, Y, Z, Offset) for every element of Part (source order, the
/// last axis fastest), Offset being its place in the storage that Within
/// describes.
template <typename Fn> void forEach(const Box &Part, const Box &Within, Fn F) {
  for (int64_t X = Part.Lo[0]; X < Part.Hi[0]; ++X)
    for (int64_t Y = Part.Lo[1]; Y < Part.Hi[1]; ++Y) {
      int64_t Off = (X - Within.Lo[0]) * Within.Stride[0] +
                    (Y - Within.Lo[1]) * Within.Stride[1] +
                    (Part.Lo[2] - Within.Lo[2]) * Within.Stride[2];
      for (int64_t Z = Part.Lo[2]; Z < Part.Hi[2]; ++Z, Off += Within.Stride[2])
        F(X, Y, Z, Off);
    }
}

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_ARRAY_BOXES_H
