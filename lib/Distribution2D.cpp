//===- Distribution2D.cpp - Matrices over 2-D process grids ---------------===//
//
// A Layout2D is the rank-2 ArrayLayout it holds: here are only the
// conversion of its arguments (offsets to first processes, a leading
// dimension to strides, with errors in ScaLAPACK's words) and the maps
// spelled per grid row or column.
//
//===----------------------------------------------------------------------===//

#include "redist/Distribution2D.h"

#include "redist/Error.h"

#include <algorithm>
#include <string>
#include <utility>

using namespace redist;

namespace {

void checkIndex(const char *What, int64_t Value, int64_t Limit) {
  if (Value < 0 || Value >= Limit)
    throw InvalidArgument(std::string(What) + " " + std::to_string(Value) +
                          " out of range [0, " + std::to_string(Limit) + ")");
}

/// The rank-2 array of the matrix. The offsets and the leading dimension
/// are checked here first, so that their errors name RSRC, CSRC and the
/// leading dimension: ScaLAPACK's rule (LD at least the local rows in
/// column-major order) is stricter than ArrayLayout's, which accepts any
/// strides that keep the elements apart.
ArrayLayout arrayOf(const Layout &Rows, const Layout &Cols, GridOrder Order,
                    int64_t RowSource, int64_t ColSource,
                    const LocalStorage &Storage) {
  checkIndex("first process row (RSRC)", RowSource, Rows.procs());
  checkIndex("first process column (CSRC)", ColSource, Cols.procs());
  const bool ColumnMajor = Storage.Order == StorageOrder::ColumnMajor;
  const int64_t LD = Storage.LeadingDim;
  if (LD < 0)
    throw InvalidArgument("the leading dimension must be non-negative, got " +
                          std::to_string(LD));
  ArrayStorage Array{Storage.Order, {}};
  if (LD > 0) {
    // The most local rows (columns) of any process: 1-D process 0's.
    const int64_t Need =
        std::max<int64_t>(1, (ColumnMajor ? Rows : Cols).maxLocalSize());
    if (LD < Need)
      throw InvalidArgument("the leading dimension " + std::to_string(LD) +
                            " is below the " + std::to_string(Need) +
                            " local " + (ColumnMajor ? "rows" : "columns") +
                            " of a process");
    Array.Strides =
        ColumnMajor ? std::vector<int64_t>{1, LD} : std::vector<int64_t>{LD, 1};
  }
  return ArrayLayout(
      {Rows.extent(), Cols.extent()},
      {DimFormat::of(Rows.distribution()), DimFormat::of(Cols.distribution())},
      {Rows.procs(), Cols.procs()}, Order, {RowSource, ColSource},
      std::move(Array));
}

} // namespace

Layout2D::Layout2D(Layout Rows, Layout Cols, GridOrder Order, int64_t RowSource,
                   int64_t ColSource, LocalStorage Storage)
    : Array(arrayOf(Rows, Cols, Order, RowSource, ColSource, Storage)),
      Storage(Storage) {}

Layout2D Layout2D::blockCyclic(int64_t M, int64_t N, int64_t P0, int64_t P1,
                               int64_t MB, int64_t NB, int64_t RowSource,
                               int64_t ColSource, int64_t LeadingDim) {
  return Layout2D(Layout::blockCyclic(P0, MB, M),
                  Layout::blockCyclic(P1, NB, N), GridOrder::RowMajor,
                  RowSource, ColSource,
                  {StorageOrder::ColumnMajor, LeadingDim});
}

std::pair<int64_t, int64_t> Layout2D::coordsOf(int64_t Proc) const {
  const std::vector<int64_t> C = Array.coordsOf(Proc);
  return {C[0], C[1]};
}

// The rotations by the offsets are ArrayLayout's, through a process of the
// grid row (column) in question.
int64_t Layout2D::rowRankOf(int64_t GridRow) const {
  checkIndex("process row", GridRow, gridRows());
  return Array.dimRankOf(0, procAt(GridRow, 0));
}

int64_t Layout2D::colRankOf(int64_t GridCol) const {
  checkIndex("process column", GridCol, gridCols());
  return Array.dimRankOf(1, procAt(0, GridCol));
}

int64_t Layout2D::gridRowOf(int64_t RowRank) const {
  checkIndex("row process", RowRank, gridRows());
  return coordsOf(procOfRanks(RowRank, 0)).first;
}

int64_t Layout2D::gridColOf(int64_t ColRank) const {
  checkIndex("column process", ColRank, gridCols());
  return coordsOf(procOfRanks(0, ColRank)).second;
}

int64_t Layout2D::leadingDim(int64_t Proc) const {
  return Array.strides(
      Proc)[Storage.Order == StorageOrder::ColumnMajor ? 1 : 0];
}

std::pair<int64_t, int64_t> Layout2D::toGlobal(int64_t Proc,
                                               int64_t Offset) const {
  const std::vector<int64_t> Index = Array.toGlobal(Proc, Offset);
  return {Index[0], Index[1]};
}

std::string Layout2D::str() const {
  std::string S =
      std::to_string(gridRows()) + "x" + std::to_string(gridCols()) +
      (order() == GridOrder::RowMajor ? " row-major" : " col-major") +
      " grid, rows " + rows().distribution().str() + " of " +
      std::to_string(numRows()) + ", cols " + cols().distribution().str() +
      " of " + std::to_string(numCols());
  if (rowSource() != 0 || colSource() != 0)
    S += ", source (" + std::to_string(rowSource()) + "," +
         std::to_string(colSource()) + ")";
  return S;
}
