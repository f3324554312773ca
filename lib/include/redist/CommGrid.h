//===- redist/CommGrid.h - Who sends how much to whom ---------------------===//
//
// The communication grid of a redistribution: one Message per (source process,
// target process) pair that exchanges at least one element, with its length
// in elements of the whole N-element array. Source and target processes are
// seen as disjoint sets (p -> p is still a message), as in the papers.
//
// For block-cyclic pairs the grid comes from the closed forms of
// desprez-1998 (§4.1-4.2): the gcd(r, s)
// reduction, congruence classes of p*r - q*s modulo g and the vol function,
// for the whole slices of L = lcm(P*r, Q*s) elements, plus the incomplete
// last slice. Their cost is O(messages) plus the blocks of that last slice,
// independent of N otherwise. GEN_BLOCK on either side (and N < L, or an L
// beyond int64_t) walks block boundaries over [0, N): O(P + Q) between two
// GEN_BLOCKs, never a cost per element.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_COMMGRID_H
#define REDIST_COMMGRID_H

#include "redist/Distribution.h"

#include <cstdint>
#include <vector>

namespace redist {

struct Message {
  int64_t Src;
  int64_t Dst;
  int64_t Len;
  bool operator==(const Message &O) const {
    return Src == O.Src && Dst == O.Dst && Len == O.Len;
  }
};

/// All messages of a redistribution, sorted by (Src, Dst). A message's id is
/// its index in Messages.
struct CommGrid {
  int64_t P = 0; ///< number of source processes
  int64_t Q = 0; ///< number of target processes
  std::vector<Message> Messages;

  /// Length of the message Src -> Dst, 0 if there is none. O(log n).
  int64_t length(int64_t Src, int64_t Dst) const;
  /// Number of messages each source process sends (size P).
  std::vector<int64_t> rowCounts() const;
  /// Number of messages each target process receives (size Q).
  std::vector<int64_t> columnCounts() const;
  /// Largest number of messages of any one process: the step lower bound.
  int64_t maxDegree() const;
  /// Largest element count any one process sends or receives: the cost lower
  /// bound.
  int64_t maxVolume() const;
};

/// The whole grid. Throws InvalidArgument when the extents differ or the
/// redistribution is beyond the limits of redist/Limits.h.
CommGrid computeGrid(const Layout &From, const Layout &To);

/// The messages source process Src sends, sorted by Dst, computed without
/// building the whole grid: O(Q) plus Src's blocks outside whole slices.
/// Throws InvalidArgument when the extents differ, Src is out of range or
/// checkRunLimit refuses the layouts.
std::vector<Message> computeRow(const Layout &From, const Layout &To,
                                int64_t Src);

/// The messages target process Dst receives, sorted by Src, computed without
/// building the whole grid (a row of the reverse redistribution). Throws as
/// computeRow does.
std::vector<Message> computeColumn(const Layout &From, const Layout &To,
                                   int64_t Dst);

/// Reference implementation that counts element by element, O(N). For tests.
CommGrid countGridByElements(const Layout &From, const Layout &To);

} // namespace redist

#endif // REDIST_COMMGRID_H
