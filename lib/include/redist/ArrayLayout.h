//===- redist/ArrayLayout.h - Arrays of any rank over process grids -------===//
//
// An ArrayLayout is HPF's DISTRIBUTE of a rank-d array (1 <= d <= 7) onto a
// processor arrangement of rank g <= d: one format per array dimension
// (BLOCK, BLOCK(k), CYCLIC, CYCLIC(k), GEN_BLOCK or *, not distributed), the
// distributed dimensions mapped in order onto the arrangement's dimensions.
// Each distributed dimension is a 1-D Layout (redist/Distribution.h) over
// its arrangement dimension's extent; a * dimension is the 1-D layout of one
// process, so every dimension has a 1-D layout and a 1-D process index.
//
// On top of HPF it has what a ScaLAPACK descriptor has, generalised to d
// dimensions:
//   - the grid order: processes numbered row-major over the arrangement
//     (last arrangement dimension fastest, BLACS's default) or column-major;
//   - first-process offsets (RSRC, CSRC): arrangement coordinate c of a
//     dimension with offset s plays the part of 1-D process (c - s) mod P;
//   - the local storage: every process stores its local part row-major
//     (last index fastest, C) or column-major (first index fastest, Fortran),
//     with element strides that may leave padding (ScaLAPACK's LLD).
//
// Index maps go both ways: global index <-> (process, storage offset).
// Matrices (redist/Distribution2D.h) are the rank-2 case.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_ARRAYLAYOUT_H
#define REDIST_ARRAYLAYOUT_H

#include "redist/Distribution.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// The most dimensions an array has, as in Fortran.
constexpr int MaxArrayRank = 7;

/// How the processes of an arrangement are numbered.
enum class GridOrder {
  RowMajor,   ///< last arrangement dimension fastest (BLACS's default)
  ColumnMajor ///< first arrangement dimension fastest
};

/// How a process stores its local part.
enum class StorageOrder {
  ColumnMajor, ///< first index fastest (Fortran, ScaLAPACK)
  RowMajor     ///< last index fastest (C)
};

/// Where an element lives: the process id and the offset in its storage.
struct LocalPlace {
  int64_t Proc;
  int64_t Offset;
  bool operator==(const LocalPlace &O) const {
    return Proc == O.Proc && Offset == O.Offset;
  }
};

/// The format of one array dimension, independent of its extent and of the
/// number of processes: *, block, block(K), cyclic, cyclic(K) or
/// gen_block(sizes). The factories throw InvalidArgument naming the value
/// for K <= 0, or GEN_BLOCK without sizes or with a negative size.
class DimFormat {
public:
  /// * : the dimension is not distributed.
  static DimFormat collapsed();
  static DimFormat block();
  static DimFormat block(int64_t K);
  static DimFormat cyclic(int64_t K = 1);
  static DimFormat genBlock(std::vector<int64_t> Sizes);
  /// The format of D (its number of processes dropped).
  static DimFormat of(const Distribution &D);
  /// Parses "*", "block", "block(K)", "cyclic", "cyclic(K)" and
  /// "gen_block(S0;S1;...)" (commas also separate sizes). Throws
  /// InvalidArgument naming the text.
  static DimFormat parse(std::string_view Text);

  /// False for *.
  bool distributed() const { return Distributed; }
  /// The 1-D kind (Block for *).
  DistKind kind() const { return Kind; }
  /// The K of block(K) or cyclic(K); 0 otherwise.
  int64_t param() const { return Param; }
  const std::vector<int64_t> &sizes() const { return Sizes; }
  /// The 1-D distribution over Procs processes (* is block over 1). Throws
  /// InvalidArgument as Distribution's factories do, and for GEN_BLOCK with
  /// a number of sizes other than Procs.
  Distribution over(int64_t Procs) const;
  /// "*", "block", "block(4)", "cyclic", "cyclic(2)", "gen_block(1;2;3)":
  /// the spelling parse() reads.
  std::string str() const;

  bool operator==(const DimFormat &O) const;
  bool operator!=(const DimFormat &O) const { return !(*this == O); }

private:
  bool Distributed = false;
  DistKind Kind = DistKind::Block;
  int64_t Param = 0;
  std::vector<int64_t> Sizes;
};

/// A process's local storage. Strides[k] is the element stride of array
/// dimension k. Empty Strides ask for the tightest storage of each process:
/// its local extents (at least 1 each) in Order. Given strides apply to
/// every process and must keep its elements apart: sorted by stride, each
/// stride at least the one before times that dimension's local extent.
struct ArrayStorage {
  StorageOrder Order = StorageOrder::ColumnMajor;
  std::vector<int64_t> Strides;
};

class ArrayLayout {
public:
  /// Extents has the array's rank d, Formats one entry per dimension, Grid
  /// the arrangement's extents, one per non-* format. FirstProc is the
  /// first-process offset of each array dimension (0 for *), empty for all
  /// zeros. Throws InvalidArgument naming the dimension and the value for a
  /// rank outside [1, 7], a count of formats other than d, a count of
  /// non-* formats other than the arrangement's rank, a negative extent, a
  /// format that does not fit its extent (BLOCK(k) too small, GEN_BLOCK not
  /// summing to the extent), an offset outside [0, P), strides that do not
  /// fit some process, or more than 2^63 processes or elements.
  ArrayLayout(std::vector<int64_t> Extents, std::vector<DimFormat> Formats,
              std::vector<int64_t> Grid, GridOrder Order = GridOrder::RowMajor,
              std::vector<int64_t> FirstProc = {},
              ArrayStorage Storage = ArrayStorage());
  /// The rank-1 array that a 1-D array of N elements distributed by D is:
  /// element G at the same process and local index as in Layout(D, N).
  /// Throws as Layout(D, N) does.
  static ArrayLayout rankOne(const Distribution &D, int64_t N);

  int rank() const { return static_cast<int>(Extents.size()); }
  const std::vector<int64_t> &extents() const { return Extents; }
  int64_t extent(int D) const { return Extents[static_cast<size_t>(D)]; }
  /// Elements of the whole array.
  int64_t elements() const { return Elements; }
  const std::vector<DimFormat> &formats() const { return Formats; }
  const DimFormat &format(int D) const {
    return Formats[static_cast<size_t>(D)];
  }
  /// The arrangement's extents (rank g).
  const std::vector<int64_t> &grid() const { return Grid; }
  GridOrder order() const { return Order; }
  const std::vector<int64_t> &firstProcs() const { return FirstProc; }
  int64_t firstProc(int D) const { return FirstProc[static_cast<size_t>(D)]; }
  const ArrayStorage &storage() const { return Storage; }
  /// The number of processes, the product of the arrangement's extents.
  int64_t procs() const { return Procs; }

  /// The 1-D layout of dimension D: its format over its arrangement
  /// dimension's extent (one process for *).
  const Layout &dim(int D) const { return Dims[static_cast<size_t>(D)]; }
  /// The arrangement dimension of array dimension D, -1 for *.
  int gridDimOf(int D) const { return GridDim[static_cast<size_t>(D)]; }

  /// The id of the process at arrangement coordinates Coords, and back.
  /// Throw InvalidArgument for a coordinate or id out of range.
  int64_t procAt(const std::vector<int64_t> &Coords) const;
  std::vector<int64_t> coordsOf(int64_t Proc) const;
  /// The 1-D process of dimension D that process Proc plays the part of
  /// (the rotation by the offset; 0 for *).
  int64_t dimRankOf(int D, int64_t Proc) const;
  /// The process whose 1-D process in each array dimension is
  /// DimRanks[D] (entries of * dimensions are ignored).
  int64_t procOfDimRanks(const std::vector<int64_t> &DimRanks) const;

  /// Process Proc's local extent in dimension D, and in every dimension.
  int64_t localExtent(int64_t Proc, int D) const;
  std::vector<int64_t> localExtents(int64_t Proc) const;
  /// Process Proc's element strides (Storage.Strides, or its tightest).
  std::vector<int64_t> strides(int64_t Proc) const;
  /// Why Strides cannot hold process Proc's part, or std::nullopt.
  std::optional<std::string>
  stridesProblem(int64_t Proc, const std::vector<int64_t> &Strides) const;
  /// Elements Proc's storage must hold with Strides (strides(Proc) when
  /// empty): the offset of its last local element plus one, 0 when it holds
  /// nothing.
  int64_t storageSize(int64_t Proc,
                      const std::vector<int64_t> &Strides = {}) const;

  /// The process and storage offset of global element Index (one entry per
  /// dimension). Throws InvalidArgument for an index out of range.
  LocalPlace toLocal(const std::vector<int64_t> &Index) const;
  /// The global index at storage offset Offset of Proc. Throws
  /// InvalidArgument when Offset is outside the storage or in its padding.
  std::vector<int64_t> toGlobal(int64_t Proc, int64_t Offset) const;

  /// E.g. "[64,32,16](*,block,cyclic(2)) onto 2x3 row-major, first (0,1,0),
  /// row-major storage".
  std::string str() const;

  bool operator==(const ArrayLayout &O) const;
  bool operator!=(const ArrayLayout &O) const { return !(*this == O); }

private:
  std::vector<int64_t> Extents;
  std::vector<DimFormat> Formats;
  std::vector<int64_t> Grid;
  GridOrder Order;
  std::vector<int64_t> FirstProc;
  ArrayStorage Storage;
  std::vector<Layout> Dims;
  std::vector<int> GridDim;
  int64_t Procs = 1;
  int64_t Elements = 1;
};

} // namespace redist

#endif // REDIST_ARRAYLAYOUT_H
