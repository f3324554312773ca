//===- CommGrid2D.cpp - Who sends how much to whom, for matrices ----------===//
//
// A matrix's grid is the rank-2 array grid (ArrayGrid.cpp).
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid2D.h"

#include "BlockCyclicMath.h"
#include "redist/ArrayGrid.h"
#include "redist/Error.h"

#include <string>

using namespace redist;

namespace {

void checkSameShape(const Layout2D &From, const Layout2D &To) {
  if (From.numRows() != To.numRows() || From.numCols() != To.numCols())
    throw InvalidArgument(
        "source and target matrices differ: " + std::to_string(From.numRows()) +
        " x " + std::to_string(From.numCols()) + " vs " +
        std::to_string(To.numRows()) + " x " + std::to_string(To.numCols()));
  // Every message length is a product of two 1-D lengths, at most M * N.
  if (!detail::checkedMul(From.numRows(), From.numCols()))
    throw InvalidArgument("a " + std::to_string(From.numRows()) + " x " +
                          std::to_string(From.numCols()) +
                          " matrix has more than 2^63 elements");
}

/// The rank-2 array grid of From -> To.
ArrayGrid arrayGridOf(const Layout2D &From, const Layout2D &To) {
  checkSameShape(From, To);
  return computeArrayGrid(arrayLayoutOf(From), arrayLayoutOf(To));
}

} // namespace

CommGrid2D redist::computeGrid2D(const Layout2D &From, const Layout2D &To) {
  ArrayGrid A = arrayGridOf(From, To);
  CommGrid2D G;
  G.Rows = std::move(A.Axes[0].Lines);
  G.Cols = std::move(A.Axes[1].Lines);
  G.Whole = std::move(A.Whole);
  G.IdOfPair = std::move(A.IdOfTuple); // the same mixed radix
  return G;
}

std::vector<Message> redist::computeRow2D(const Layout2D &From,
                                          const Layout2D &To, int64_t Src) {
  checkSameShape(From, To);
  const ArrayLayout A = arrayLayoutOf(From), B = arrayLayoutOf(To);
  return arrayRow(A, B, computeAxisGrids(A, B, resolveRegion(A, B)), Src);
}

std::vector<Message> redist::computeColumn2D(const Layout2D &From,
                                             const Layout2D &To, int64_t Dst) {
  checkSameShape(From, To);
  const ArrayLayout A = arrayLayoutOf(From), B = arrayLayoutOf(To);
  return arrayColumn(A, B, computeAxisGrids(A, B, resolveRegion(A, B)), Dst);
}

CommGrid redist::countGrid2DByElements(const Layout2D &From,
                                       const Layout2D &To) {
  checkSameShape(From, To);
  return countArrayGridByElements(arrayLayoutOf(From), arrayLayoutOf(To));
}
