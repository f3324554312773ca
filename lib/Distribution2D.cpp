//===- Distribution2D.cpp - Matrices over 2-D process grids ---------------===//

#include "redist/Distribution2D.h"

#include "BlockCyclicMath.h"
#include "redist/Error.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

using namespace redist;

static void checkIndex(const char *What, int64_t Value, int64_t Limit) {
  if (Value < 0 || Value >= Limit)
    throw InvalidArgument(std::string(What) + " " + std::to_string(Value) +
                          " out of range [0, " + std::to_string(Limit) + ")");
}

Layout2D::Layout2D(Layout RowsIn, Layout ColsIn, GridOrder Order,
                   int64_t RowSource, int64_t ColSource, LocalStorage Storage)
    : Rows(std::move(RowsIn)), Cols(std::move(ColsIn)), Order(Order),
      RowSource(RowSource), ColSource(ColSource), Storage(Storage) {
  std::optional<int64_t> Product =
      detail::checkedMul(Rows.procs(), Cols.procs());
  if (!Product)
    throw InvalidArgument("a " + std::to_string(Rows.procs()) + " x " +
                          std::to_string(Cols.procs()) +
                          " process grid has more than 2^63 processes");
  Procs = *Product;
  checkIndex("first process row (RSRC)", RowSource, Rows.procs());
  checkIndex("first process column (CSRC)", ColSource, Cols.procs());
  if (Storage.LeadingDim < 0)
    throw InvalidArgument("the leading dimension must be non-negative, got " +
                          std::to_string(Storage.LeadingDim));
  if (Storage.LeadingDim > 0) {
    // The most local rows (columns) of any process: 1-D process 0's.
    const Layout &Lead =
        Storage.Order == StorageOrder::ColumnMajor ? Rows : Cols;
    int64_t Need = std::max<int64_t>(1, Lead.maxLocalSize());
    if (Storage.LeadingDim < Need)
      throw InvalidArgument(
          "the leading dimension " + std::to_string(Storage.LeadingDim) +
          " is below the " + std::to_string(Need) + " local " +
          (Storage.Order == StorageOrder::ColumnMajor ? "rows" : "columns") +
          " of a process");
  }
}

Layout2D Layout2D::blockCyclic(int64_t M, int64_t N, int64_t P0, int64_t P1,
                               int64_t MB, int64_t NB, int64_t RowSource,
                               int64_t ColSource, int64_t LeadingDim) {
  return Layout2D(Layout::blockCyclic(P0, MB, M),
                  Layout::blockCyclic(P1, NB, N), GridOrder::RowMajor,
                  RowSource, ColSource,
                  {StorageOrder::ColumnMajor, LeadingDim});
}

int64_t Layout2D::procAt(int64_t GridRow, int64_t GridCol) const {
  checkIndex("process row", GridRow, gridRows());
  checkIndex("process column", GridCol, gridCols());
  return Order == GridOrder::RowMajor ? GridRow * gridCols() + GridCol
                                      : GridRow + GridCol * gridRows();
}

std::pair<int64_t, int64_t> Layout2D::coordsOf(int64_t Proc) const {
  checkIndex("process", Proc, Procs);
  if (Order == GridOrder::RowMajor)
    return {Proc / gridCols(), Proc % gridCols()};
  return {Proc % gridRows(), Proc / gridRows()};
}

/// (X + By) % N for X in [0, N) and By in [0, N], written so that it cannot
/// overflow. A rank is the grid index rotated by N - Source, a grid index
/// the rank rotated by Source.
static int64_t rotate(int64_t X, int64_t By, int64_t N) {
  return X < N - By ? X + By : X - (N - By);
}

int64_t Layout2D::rowRankOf(int64_t GridRow) const {
  checkIndex("process row", GridRow, gridRows());
  return rotate(GridRow, gridRows() - RowSource, gridRows());
}

int64_t Layout2D::colRankOf(int64_t GridCol) const {
  checkIndex("process column", GridCol, gridCols());
  return rotate(GridCol, gridCols() - ColSource, gridCols());
}

int64_t Layout2D::gridRowOf(int64_t RowRank) const {
  checkIndex("row process", RowRank, gridRows());
  return rotate(RowRank, RowSource, gridRows());
}

int64_t Layout2D::gridColOf(int64_t ColRank) const {
  checkIndex("column process", ColRank, gridCols());
  return rotate(ColRank, ColSource, gridCols());
}

int64_t Layout2D::procOfRanks(int64_t RowRank, int64_t ColRank) const {
  return procAt(gridRowOf(RowRank), gridColOf(ColRank));
}

int64_t Layout2D::localRows(int64_t Proc) const {
  return Rows.localSize(rowRankOf(coordsOf(Proc).first));
}

int64_t Layout2D::localCols(int64_t Proc) const {
  return Cols.localSize(colRankOf(coordsOf(Proc).second));
}

int64_t Layout2D::leadingDim(int64_t Proc) const {
  if (Storage.LeadingDim > 0) {
    checkIndex("process", Proc, Procs);
    return Storage.LeadingDim;
  }
  return std::max<int64_t>(1, Storage.Order == StorageOrder::ColumnMajor
                                  ? localRows(Proc)
                                  : localCols(Proc));
}

int64_t Layout2D::storageSize(int64_t Proc) const {
  int64_t LocalRows = localRows(Proc), LocalCols = localCols(Proc);
  if (LocalRows == 0 || LocalCols == 0)
    return 0;
  // The last element's offset plus one; the caller's buffer must hold it.
  int64_t Lines =
      Storage.Order == StorageOrder::ColumnMajor ? LocalCols : LocalRows;
  int64_t Last =
      Storage.Order == StorageOrder::ColumnMajor ? LocalRows : LocalCols;
  std::optional<int64_t> Full = detail::checkedMul(Lines - 1, leadingDim(Proc));
  if (!Full || *Full > INT64_MAX - Last)
    throw InvalidArgument("the local storage of process " +
                          std::to_string(Proc) + " exceeds 2^63 elements");
  return *Full + Last;
}

LocalPlace Layout2D::toLocal(int64_t I, int64_t J) const {
  int64_t Proc = procOfRanks(Rows.owner(I), Cols.owner(J));
  int64_t LocalRow = Rows.toLocal(I), LocalCol = Cols.toLocal(J);
  int64_t LD = leadingDim(Proc);
  return {Proc, Storage.Order == StorageOrder::ColumnMajor
                    ? LocalRow + LocalCol * LD
                    : LocalRow * LD + LocalCol};
}

std::pair<int64_t, int64_t> Layout2D::toGlobal(int64_t Proc,
                                               int64_t Offset) const {
  auto [GridRow, GridCol] = coordsOf(Proc);
  int64_t RowRank = rowRankOf(GridRow), ColRank = colRankOf(GridCol);
  int64_t LD = leadingDim(Proc);
  if (Offset < 0 || Offset >= storageSize(Proc))
    throw InvalidArgument("local offset " + std::to_string(Offset) +
                          " out of range [0, " +
                          std::to_string(storageSize(Proc)) + ") of process " +
                          std::to_string(Proc));
  bool ColumnMajor = Storage.Order == StorageOrder::ColumnMajor;
  int64_t LocalRow = ColumnMajor ? Offset % LD : Offset / LD;
  int64_t LocalCol = ColumnMajor ? Offset / LD : Offset % LD;
  if (LocalRow >= Rows.localSize(RowRank) ||
      LocalCol >= Cols.localSize(ColRank))
    throw InvalidArgument("local offset " + std::to_string(Offset) +
                          " of process " + std::to_string(Proc) +
                          " lies in the padding of the leading dimension " +
                          std::to_string(LD));
  return {Rows.toGlobal(RowRank, LocalRow), Cols.toGlobal(ColRank, LocalCol)};
}

std::string Layout2D::str() const {
  std::string S =
      std::to_string(gridRows()) + "x" + std::to_string(gridCols()) +
      (Order == GridOrder::RowMajor ? " row-major" : " col-major") +
      " grid, rows " + Rows.distribution().str() + " of " +
      std::to_string(numRows()) + ", cols " + Cols.distribution().str() +
      " of " + std::to_string(numCols());
  if (RowSource != 0 || ColSource != 0)
    S += ", source (" + std::to_string(RowSource) + "," +
         std::to_string(ColSource) + ")";
  return S;
}

ArrayLayout redist::arrayLayoutOf(const Layout2D &L) {
  ArrayStorage Storage{L.storage().Order, {}};
  if (const int64_t LD = L.storage().LeadingDim; LD > 0)
    Storage.Strides = L.storage().Order == StorageOrder::ColumnMajor
                          ? std::vector<int64_t>{1, LD}
                          : std::vector<int64_t>{LD, 1};
  return ArrayLayout({L.numRows(), L.numCols()},
                     {DimFormat::of(L.rows().distribution()),
                      DimFormat::of(L.cols().distribution())},
                     {L.gridRows(), L.gridCols()}, L.order(),
                     {L.rowSource(), L.colSource()}, Storage);
}
