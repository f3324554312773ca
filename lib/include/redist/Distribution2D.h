//===- redist/Distribution2D.h - Matrices over 2-D process grids ----------===//
//
// A Layout2D is an M x N matrix distributed over a P0 x P1 process grid, as
// ScaLAPACK distributes it: one 1-D Layout (redist/Distribution.h) for the
// rows over the P0 process rows and one for the columns over the P1 process
// columns. Element (i, j) lives on grid process (rows' owner of i, columns'
// owner of j), at local row (rows' local index of i) and local column
// (columns' local index of j).
//
// It is the rank-2 case of an array (redist/ArrayLayout.h), which it holds
// and whose index maps it uses; it only spells ScaLAPACK's parameters:
//   - the grid order: process (i, j) has id i*P1 + j (RowMajor, BLACS's
//     default) or i + j*P0 (ColumnMajor);
//   - first-process offsets (RSRC, CSRC): grid row RowSource holds the first
//     block of rows, i.e. grid row i plays the part of 1-D process
//     (i - RowSource) mod P0, for every format (numroc's "mydist");
//   - the local storage: column-major with a leading dimension (LLD), or
//     row-major for C++ users.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_DISTRIBUTION2D_H
#define REDIST_DISTRIBUTION2D_H

#include "redist/ArrayLayout.h"
#include "redist/Distribution.h"

#include <cstdint>
#include <string>
#include <utility>

namespace redist {

// GridOrder, StorageOrder and LocalPlace are redist/ArrayLayout.h's: a
// matrix is the rank-2 case of an array.

/// A process's local storage: the order and the leading dimension LD. LD = 0
/// asks for the tightest one, each process's own max(1, local rows) in
/// column-major order (max(1, local columns) in row-major order), as
/// ScaLAPACK programs usually set LLD. A positive LD applies to every
/// process and must be at least that on each.
struct LocalStorage {
  StorageOrder Order = StorageOrder::ColumnMajor;
  int64_t LeadingDim = 0;
};

/// A matrix layout: the rank-2 ArrayLayout it holds, spelled in rows,
/// columns, offsets and a leading dimension. Every index map is the
/// array's.
class Layout2D {
public:
  /// Rows distributes the M rows over P0 = Rows.procs() process rows,
  /// Cols the N columns over P1 process columns. Throws InvalidArgument
  /// naming the value for an offset outside [0, P0) or [0, P1), a negative
  /// leading dimension, one below some process's need, or what ArrayLayout
  /// refuses (more than 2^63 processes or elements).
  Layout2D(Layout Rows, Layout Cols, GridOrder Order = GridOrder::RowMajor,
           int64_t RowSource = 0, int64_t ColSource = 0,
           LocalStorage Storage = LocalStorage());

  /// ScaLAPACK's descriptor: CYCLIC(MB) rows over P0, CYCLIC(NB) columns
  /// over P1, row-major grid, column-major storage.
  static Layout2D blockCyclic(int64_t M, int64_t N, int64_t P0, int64_t P1,
                              int64_t MB, int64_t NB, int64_t RowSource = 0,
                              int64_t ColSource = 0, int64_t LeadingDim = 0);

  /// The rank-2 array this matrix is: formats of its rows and columns, its
  /// grid, grid order, offsets as first processes, a positive leading
  /// dimension as strides (1, LD) in column-major order or (LD, 1) in
  /// row-major order.
  const ArrayLayout &array() const { return Array; }

  const Layout &rows() const { return Array.dim(0); }
  const Layout &cols() const { return Array.dim(1); }
  int64_t numRows() const { return Array.extent(0); }
  int64_t numCols() const { return Array.extent(1); }
  int64_t gridRows() const { return Array.grid()[0]; }
  int64_t gridCols() const { return Array.grid()[1]; }
  /// P0 * P1.
  int64_t procs() const { return Array.procs(); }
  GridOrder order() const { return Array.order(); }
  int64_t rowSource() const { return Array.firstProc(0); }
  int64_t colSource() const { return Array.firstProc(1); }
  const LocalStorage &storage() const { return Storage; }

  /// The id of grid process (GridRow, GridCol), and back. Throw
  /// InvalidArgument for a coordinate or id out of range.
  int64_t procAt(int64_t GridRow, int64_t GridCol) const {
    return Array.procAt({GridRow, GridCol});
  }
  std::pair<int64_t, int64_t> coordsOf(int64_t Proc) const;

  /// The 1-D process of Rows (Cols) that grid row (column) GridRow plays the
  /// part of, and back: the rotation by the offset.
  int64_t rowRankOf(int64_t GridRow) const;
  int64_t colRankOf(int64_t GridCol) const;
  int64_t gridRowOf(int64_t RowRank) const;
  int64_t gridColOf(int64_t ColRank) const;
  /// The process id that holds the 1-D processes (RowRank, ColRank).
  int64_t procOfRanks(int64_t RowRank, int64_t ColRank) const {
    return Array.procOfDimRanks({RowRank, ColRank});
  }

  /// Local rows and columns of process Proc (numroc with the offsets).
  int64_t localRows(int64_t Proc) const { return Array.localExtent(Proc, 0); }
  int64_t localCols(int64_t Proc) const { return Array.localExtent(Proc, 1); }
  /// Process Proc's leading dimension (resolves LeadingDim = 0): its
  /// stride of columns (column-major) or rows (row-major).
  int64_t leadingDim(int64_t Proc) const;
  /// Elements Proc's storage must hold: the offset of its last local
  /// element plus one, 0 when it holds nothing.
  int64_t storageSize(int64_t Proc) const { return Array.storageSize(Proc); }

  /// The process and storage offset of global element (I, J).
  LocalPlace toLocal(int64_t I, int64_t J) const {
    return Array.toLocal({I, J});
  }
  /// The global element at storage offset Offset of Proc. Throws
  /// InvalidArgument when Offset is outside the storage or in the padding
  /// beyond the local rows (columns) of a leading dimension.
  std::pair<int64_t, int64_t> toGlobal(int64_t Proc, int64_t Offset) const;

  /// E.g. "2x3 row-major grid, rows cyclic(32) of 100, cols block of 50,
  /// source (1,0)".
  std::string str() const;

private:
  ArrayLayout Array;
  LocalStorage Storage;
};

/// L as the rank-2 array it is (Layout2D::array).
inline ArrayLayout arrayLayoutOf(const Layout2D &L) { return L.array(); }

} // namespace redist

#endif // REDIST_DISTRIBUTION2D_H
