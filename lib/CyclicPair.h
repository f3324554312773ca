//===- CyclicPair.h - Closed forms for CYCLIC(r) -> CYCLIC(s) -------------===//
//
// Private to the library. The closed forms of
// desprez-1998 §4.1-4.2 for a redistribution from
// CYCLIC(r) on P processes to CYCLIC(s) on Q processes, over the whole slices
// of L = lcm(P*r, Q*s) elements.
//
// With D = gcd(r, s), r = D*r', s = D*s' and g' = gcd(P*r', Q*s'), element i
// goes from p to q when a source block (P*l + p)*r and a target block
// (Q*m + q)*s start delta = a - b apart with delta in [1 - r, s - 1]. Every
// such delta with delta = p*r - q*s (mod g) gives exactly one run per slice
// (g = D*g'). Counting the pairs (x, y) of offsets in the two blocks gives
//   length(p, q) = D * sum of vol(z) over z in [1 - r', s' - 1] with
//                  z = p*r' - q*s' (mod g'),
//   vol(z) = min(r', s', r' + z, s' - z),
// the piecewise linear function of the paper's Fig. 1: it rises by one from 1
// at z = 1 - r', stays at min(r', s'), and falls back to 1 at z = s' - 1.
//
// The pairs (p, q) of class k (p*r' - q*s' = k mod g') in row p satisfy
// q*(s'/h) = (p*r' - k)/h (mod g'/h) with h = gcd(s', g'): one residue of q
// modulo T = g'/h, which divides Q. So a row costs O(its messages).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_CYCLICPAIR_H
#define REDIST_LIB_CYCLICPAIR_H

#include "redist/Distribution.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// One run of a pair within the first slice [0, L).
struct SliceRun {
  int64_t Global; ///< first global index
  int64_t SrcOffset;
  int64_t DstOffset;
  int64_t Length;
};

class CyclicPair {
public:
  /// From and To are block-cyclic layouts of the same extent.
  CyclicPair(const Layout &From, const Layout &To);

  /// L = lcm(P*r, Q*s); 0 when it does not fit in int64_t.
  int64_t sliceLength() const { return L; }
  /// The number m of whole slices in [0, N); 0 when L does not fit.
  int64_t wholeSlices() const { return M; }
  /// Local-index distance between slices on the sender (L/P) and on the
  /// receiver (L/Q); 0 when L does not fit.
  int64_t srcStride() const { return Fits ? L / P : 0; }
  int64_t dstStride() const { return Fits ? L / Q : 0; }

  /// Calls F(Dst, LengthPerSlice) for every target Src sends to within one
  /// slice, in increasing Dst. Scratch is reused storage. Requires
  /// wholeSlices() > 0.
  template <typename Fn>
  void forEachRowPartner(int64_t Src,
                         std::vector<std::pair<int64_t, int64_t>> &Scratch,
                         Fn &&F) const {
    rowResidues(Src, Scratch);
    for (int64_t Base = 0; Base < Q; Base += T)
      for (const auto &E : Scratch)
        F(Base + E.first, E.second);
  }

  /// Number of targets Src sends to within one slice. Requires
  /// wholeSlices() > 0.
  int64_t rowDegree(int64_t Src) const;

  /// The runs of Src -> Dst within [0, L), sorted by global index, each
  /// contiguous in global indices and on both sides; adjacent runs are not
  /// merged, except that a side over one process gives the other side's
  /// blocks whole (P = Q = 1: one run). Requires wholeSlices() > 0.
  void sliceRuns(int64_t Src, int64_t Dst, std::vector<SliceRun> &Out) const;

private:
  /// The residues of Dst modulo T that Src sends to, with the length per
  /// slice, sorted by residue.
  void rowResidues(int64_t Src,
                   std::vector<std::pair<int64_t, int64_t>> &Out) const;
  /// vol(z) of the reduced problem.
  int64_t volume(int64_t Z) const;
  /// Sum of vol(z) over z in [1 - r', s' - 1], z = K (mod g').
  int64_t classVolume(int64_t K) const;
  /// Every class holds at most one z: the grid is sparse.
  bool sparse() const { return Rr - 1 <= Gr - Sr; }

  int64_t P, Q, R, S, N;
  bool Fits = false;
  int64_t L = 0, M = 0;
  int64_t D = 1, Rr = 1, Sr = 1; ///< gcd(r, s), r', s'
  int64_t G = 1, Gr = 1;         ///< g = gcd(P*r, Q*s), g' = g / D
  int64_t H = 1, T = 1, SInv = 0;
  int64_t A = 1, Bm = 1, AInv = 0; ///< P*r/g, Q*s/g, inverse of A mod Bm
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_CYCLICPAIR_H
