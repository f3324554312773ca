//===- redist/ArrayGrid.h - Who sends how much to whom, for arrays --------===//
//
// The communication grid of an N-D redistribution is the product of 1-D
// grids, one per source axis (desprez-1998 §1: multidimensional
// redistributions are the "tensor product" of their dimensions). Element x
// goes from the source process holding x to the target process holding
// its image, and both processes are tuples of 1-D processes, one per
// dimension; so source process (p_0, ..., p_d-1) sends target process
// (q_0, ..., q_d-1) exactly the product over source axes a of
// axis_a(p_a -> q_perm^-1(a)) elements.
//
// The move may permute axes (target axis k is source axis Permutation[k];
// a matrix transpose is (1, 0)) and take a section: a sub-array of the
// source into a sub-array of the target, the N-D form of ScaLAPACK's
// IA/JA/IB/JB. Each axis's 1-D grid comes from the closed forms of
// redist/CommGrid.h when the axis is whole on both sides, else from a walk
// over the blocks of the section on that axis: never from a pass over the
// elements of the array.
//
// A region may also keep only a band of diagonals of two of its axes (the
// trapezoids of ScaLAPACK's p?trmr2d and PBLAS's p?tradd): the grid is then
// no longer a product, but each message still is per-axis runs, and its
// count sums a closed form over pairs of runs of the two axes.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_ARRAYGRID_H
#define REDIST_ARRAYGRID_H

#include "redist/ArrayLayout.h"
#include "redist/CommGrid.h"
#include "redist/Error.h"
#include "redist/MessagePattern.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace redist {

/// A band of diagonals over two source axes: with i and j the indices of
/// an element of the section along Row and Col (the region's own, from 0),
/// only elements with Begin <= i - j < End move; the others stay as they
/// are in the target. Per index of either axis the indices of the other
/// that move are one interval.
struct ArrayBand {
  int Row = 0, Col = 1;
  int64_t Begin = INT64_MIN, End = INT64_MAX;
};

/// What moves from a source array to a target array of the same rank.
struct ArrayRegion {
  /// Target axis k is source axis Permutation[k]; empty: the identity.
  std::vector<int> Permutation;
  /// The section's extent along each source axis; empty: the whole source
  /// from SourceBegin on.
  std::vector<int64_t> Extents;
  /// The section's first index along each source axis, and along each
  /// target axis; empty: zeros.
  std::vector<int64_t> SourceBegin, TargetBegin;
  /// Only a band of diagonals moves; none: the whole section.
  std::optional<ArrayBand> Band = std::nullopt;
};

/// What resolveRegion throws for a section outside an array: the section's
/// Begin and Length along dimension Dim of the source or the Target, whose
/// extent is Extent, so that a caller can name them in its own words (a
/// matrix plan names rows, columns and the region).
class SectionError : public InvalidArgument {
public:
  SectionError(const std::string &What, bool Target, int Dim, int64_t Begin,
               int64_t Length, int64_t Extent)
      : InvalidArgument(What), Target(Target), Dim(Dim), Begin(Begin),
        Length(Length), Extent(Extent) {}
  bool Target;
  int Dim;
  int64_t Begin, Length, Extent;
};

/// Region with every member filled in: throws InvalidArgument naming the
/// dimension and the value for ranks that differ, a permutation that is
/// not one, a section outside either array (SectionError), whole arrays
/// whose extents differ after the permutation, or a band whose axes are not
/// two distinct axes. A band's diagonals are clamped to those the section has
/// (an empty band keeps Begin = End), and a band that holds the whole section
/// is dropped.
ArrayRegion resolveRegion(const ArrayLayout &From, const ArrayLayout &To,
                          const ArrayRegion &Region = ArrayRegion());

/// Whether a resolved Region is the whole of both arrays, unpermuted and
/// without a band: then the layout-bound 1-D algorithms apply per axis.
bool isWholeArray(const ArrayLayout &From, const ArrayLayout &To,
                  const ArrayRegion &Region);

/// Whether source axis A of a resolved Region is whole on both sides (it
/// starts at 0 on both and spans both extents): then its 1-D grid and runs
/// have closed forms, and its 1-D layouts take every 1-D algorithm.
bool isWholeAxis(const ArrayLayout &From, const ArrayLayout &To,
                 const ArrayRegion &Region, int A);

/// One source axis of a move.
struct AxisGrid {
  int SourceDim = 0; ///< the source axis
  int TargetDim = 0; ///< the target axis it becomes
  /// From the source's 1-D processes of SourceDim (ArrayLayout::dimRankOf)
  /// to the target's of TargetDim, sorted by (Src, Dst); lengths count
  /// indices of the section along the axis.
  CommGrid Lines;
};

/// The per-axis grids and their product over process ids.
struct ArrayGrid {
  std::vector<AxisGrid> Axes; ///< one per source axis, in source order
  CommGrid Whole; ///< over process ids, sorted by (Src, Dst) as CommGrid is
  /// Id in Whole of the message made of message AxisIds[a] of each
  /// Axes[a].Lines. Without a band every such tuple is a message (all
  /// lengths are positive); with one, a tuple the band leaves empty is
  /// none, and its id is -1.
  /// O(axes + log of the source's messages).
  int64_t messageId(const std::vector<int64_t> &AxisIds) const;
  /// What messageId needs, O(axis messages + P) where a table of tuples
  /// would be O(messages): each axis message's share of the source and of
  /// the target process id (an id is the sum of its axes' shares), and
  /// where each source process's messages begin in Whole (size P + 1).
  std::vector<std::vector<int64_t>> SrcShare, DstShare;
  std::vector<int64_t> RowStart;
};

/// The per-axis grids alone: O(axis messages + blocks of sections).
/// Region must be resolved (resolveRegion).
std::vector<AxisGrid> computeAxisGrids(const ArrayLayout &From,
                                       const ArrayLayout &To,
                                       const ArrayRegion &Region);

/// The whole grid, O(messages) beyond computeAxisGrids. Resolves Region
/// and throws as resolveRegion does, and InvalidArgument when the grid has
/// more than MaxGridMessages messages (redist/Limits.h).
ArrayGrid computeArrayGrid(const ArrayLayout &From, const ArrayLayout &To,
                           const ArrayRegion &Region = ArrayRegion());

/// The messages source process Src sends (sorted by Dst), and those target
/// process Dst receives (sorted by Src), from the axis grids (and, for a
/// band, the runs of its two axes) of the resolved Region.
std::vector<Message> arrayRow(const ArrayLayout &From, const ArrayLayout &To,
                              const std::vector<AxisGrid> &Axes, int64_t Src,
                              const ArrayRegion &Region = ArrayRegion());
std::vector<Message> arrayColumn(const ArrayLayout &From, const ArrayLayout &To,
                                 const std::vector<AxisGrid> &Axes, int64_t Dst,
                                 const ArrayRegion &Region = ArrayRegion());

/// A run of one axis of a message: Len indices of the section from Index
/// on, at local indices Src and Dst of that axis on each side.
struct IndexedRun {
  int64_t Src, Dst, Index, Len;
};
/// Every message's runs of source axis A of a resolved Region, keyed by
/// (source 1-D process, target 1-D process), in increasing index, adjacent
/// runs merged: O(blocks of the section along A). A band's messages are
/// counted and cut from these.
std::map<std::pair<int64_t, int64_t>, std::vector<IndexedRun>>
indexedAxisRuns(const ArrayLayout &From, const ArrayLayout &To,
                const ArrayRegion &Region, int A);
/// The elements of Band among the products of runs Rows (of Band.Row) and
/// Cols (of Band.Col): O(1) per pair of runs.
int64_t bandCount(const ArrayBand &Band, const std::vector<IndexedRun> &Rows,
                  const std::vector<IndexedRun> &Cols);

/// The runs of one axis of a message: the section's indices along source
/// axis A that source 1-D process SrcRank holds and target 1-D process
/// DstRank receives, as local indices of that axis on each side, in
/// increasing order (MessagePattern's buffer order). Whole axes repeat
/// their runs per slice as describeMessage does; a section's axis lists
/// them (one per block intersection). Region must be resolved.
MessagePattern describeAxis(const ArrayLayout &From, const ArrayLayout &To,
                            const ArrayRegion &Region, int A, int64_t SrcRank,
                            int64_t DstRank);

/// Reference implementation that counts element by element, O(elements).
/// For tests.
CommGrid countArrayGridByElements(const ArrayLayout &From,
                                  const ArrayLayout &To,
                                  const ArrayRegion &Region = ArrayRegion());

} // namespace redist

#endif // REDIST_ARRAYGRID_H
