//===- Boxes.cpp - The block layouts of redist-array-bench ----------------===//

#include "Boxes.h"

#include <algorithm>

namespace redist {
namespace bench {

int64_t Box::size() const {
  int64_t S = 1;
  for (int A = 0; A < Rank3; ++A)
    S *= std::max<int64_t>(0, extent(A));
  return S;
}

Box boxOf(const BlockLayout &L, const std::array<int, Rank3> &Perm, int64_t N,
          int R) {
  // Grid coordinates of R, row-major over the grid.
  std::vector<int> Coord(L.Grid.size());
  for (size_t G = L.Grid.size(); G-- > 0;) {
    Coord[G] = R % L.Grid[G];
    R /= L.Grid[G];
  }
  Index3 Lo{}, Hi{};
  for (int K = 0; K < Rank3; ++K) {
    const int G = L.Axis[K];
    if (G < 0) {
      Lo[K] = 0;
      Hi[K] = N;
      continue;
    }
    // HPF's BLOCK: ceil(N / P) each, the last ones short or empty.
    const int64_t B = (N + L.Grid[G] - 1) / L.Grid[G];
    Lo[K] = std::min(N, Coord[G] * B);
    Hi[K] = std::min(N, Lo[K] + B);
  }
  Box Part;
  int64_t Step = 1;
  for (int K = Rank3; K-- > 0;) {
    Part.Lo[Perm[K]] = Lo[K];
    Part.Hi[Perm[K]] = Hi[K];
    Part.Stride[Perm[K]] = Step;
    Step *= Hi[K] - Lo[K];
  }
  return Part;
}

Box intersect(const Box &A, const Box &B) {
  Box C;
  for (int K = 0; K < Rank3; ++K) {
    C.Lo[K] = std::max(A.Lo[K], B.Lo[K]);
    C.Hi[K] = std::max(C.Lo[K], std::min(A.Hi[K], B.Hi[K]));
  }
  return C;
}

} // namespace bench
} // namespace redist
