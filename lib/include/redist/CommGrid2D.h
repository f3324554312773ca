//===- redist/CommGrid2D.h - Who sends how much to whom, for matrices -----===//
//
// The communication grid of a 2-D redistribution is the product of two 1-D
// grids (desprez-1998 §1: multidimensional redistributions are the "tensor
// product" of their dimensions). Element (i, j) goes from the source process
// holding row i and column j to the target process holding them, so source
// process (p0, p1) sends to target process (q0, q1) exactly
//   rows(p0 -> q0) * cols(p1 -> q1)
// elements, where rows is the 1-D grid of the row layouts and cols that of
// the column layouts (in the 1-D ranks of redist/Distribution2D.h, i.e.
// after undoing the offsets). Everything here comes from the 1-D closed forms
// of redist/CommGrid.h: nothing ever scans the matrix.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_COMMGRID2D_H
#define REDIST_COMMGRID2D_H

#include "redist/CommGrid.h"
#include "redist/Distribution2D.h"

#include <cstdint>
#include <vector>

namespace redist {

/// The two 1-D grids and their product over process ids.
struct CommGrid2D {
  CommGrid Rows;  ///< From.rows() -> To.rows(), over 1-D row ranks
  CommGrid Cols;  ///< From.cols() -> To.cols(), over 1-D column ranks
  CommGrid Whole; ///< over process ids, sorted by (Src, Dst) as CommGrid is
  /// Id in Whole of the message made of row message RowId and column message
  /// ColId (every such pair is a message: both lengths are positive).
  int64_t messageId(int64_t RowId, int64_t ColId) const {
    return IdOfPair[static_cast<size_t>(
        RowId * static_cast<int64_t>(Cols.Messages.size()) + ColId)];
  }
  std::vector<int64_t> IdOfPair;
};

/// The whole grid. Throws InvalidArgument when the matrix sizes differ, the
/// matrix has more than 2^63 elements, the grid more than MaxGridMessages
/// messages (redist/Limits.h), or a 1-D grid is refused.
CommGrid2D computeGrid2D(const Layout2D &From, const Layout2D &To);

/// The messages source process Src sends, sorted by Dst, from one row of
/// each 1-D grid: O(messages of Src) plus the two 1-D rows.
std::vector<Message> computeRow2D(const Layout2D &From, const Layout2D &To,
                                  int64_t Src);

/// The messages target process Dst receives, sorted by Src.
std::vector<Message> computeColumn2D(const Layout2D &From, const Layout2D &To,
                                     int64_t Dst);

/// Reference implementation that counts element by element, O(M * N). For
/// tests.
CommGrid countGrid2DByElements(const Layout2D &From, const Layout2D &To);

} // namespace redist

#endif // REDIST_COMMGRID2D_H
