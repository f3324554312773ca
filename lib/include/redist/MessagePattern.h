//===- redist/MessagePattern.h - Local runs a message covers --------------===//
//
// A message Src -> Dst carries its elements in increasing global index. On
// both sides those elements form contiguous runs of local indices: one run per
// intersection of a source block of Src with a target block of Dst. Because
// the pattern repeats every slice of L = lcm(P*r, Q*s) global elements, a
// message is described by the runs of one slice, repeated with a fixed local
// stride on each side, plus the runs of the incomplete last slice. Packing and
// unpacking walk these runs; they never scan element by element.
//
// Element order in the message buffer:
//   for Rep in [0, Repeat): for R in SliceRuns: R shifted by Rep * stride
//   then for R in TailRuns: R
//
// Runs are maximal: runs contiguous on both sides are merged, within a slice
// and within the tail. When one slice of a message is a single run that fills
// both local slices (P = Q, same block size, or one process on each side), it
// continues into the next slice: the repeats then merge into one run at the
// head of TailRuns, and Repeat is 0. Everything is a tail run as well when
// N < L, when L does not fit in int64_t, and for GEN_BLOCK on either side.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_MESSAGEPATTERN_H
#define REDIST_MESSAGEPATTERN_H

#include "redist/Distribution.h"

#include <cstdint>
#include <vector>

namespace redist {

/// Length consecutive elements at local index SrcOffset on the sender and
/// DstOffset on the receiver.
struct Run {
  int64_t SrcOffset;
  int64_t DstOffset;
  int64_t Length;
  bool operator==(const Run &O) const {
    return SrcOffset == O.SrcOffset && DstOffset == O.DstOffset &&
           Length == O.Length;
  }
};

struct MessagePattern {
  int64_t Src = 0;
  int64_t Dst = 0;
  /// Runs within the first slice, in increasing global order.
  std::vector<Run> SliceRuns;
  /// Number of whole slices that repeat SliceRuns.
  int64_t Repeat = 0;
  /// Local-index distance between repeats: L / P on the sender, L / Q on the
  /// receiver (for block-cyclic layouts whose L fits in int64_t, else 0).
  int64_t SrcStride = 0;
  int64_t DstStride = 0;
  /// Runs after the repeats (the incomplete last slice), offsets already
  /// absolute.
  std::vector<Run> TailRuns;

  /// Total number of elements: Repeat * sum(SliceRuns) + sum(TailRuns).
  int64_t length() const;
  /// Elements within the first slice [0, L) (those with SrcOffset below
  /// SrcStride); 0 without strides. Every whole slice holds as many.
  int64_t perSlice() const;
  /// Calls F(Run) for every run in buffer order, offsets absolute.
  template <typename Fn> void forEachRun(Fn &&F) const {
    for (int64_t Rep = 0; Rep < Repeat; ++Rep)
      for (const Run &R : SliceRuns)
        F(Run{R.SrcOffset + Rep * SrcStride, R.DstOffset + Rep * DstStride,
              R.Length});
    for (const Run &R : TailRuns)
      F(R);
  }
};

/// L = lcm(P*r, Q*s), the period of every message's pattern between two
/// block-cyclic layouts; 0 for GEN_BLOCK or when L does not fit in int64_t.
int64_t patternPeriod(const Layout &From, const Layout &To);

/// The runs of message Src -> Dst. Empty (length 0) if the pair exchanges
/// nothing. With a whole slice the cost is independent of N: O(runs per
/// slice), one per pair of blocks that meet; with one process on a side,
/// O(the other side's blocks in a slice), and O(1) with one on each.
/// Otherwise the walk costs O(runs + blocks of the side with fewer blocks in
/// [0, N)). Throws InvalidArgument for a process out of range,
/// extents that differ, or layouts that checkRunLimit refuses (the same
/// verdict for every process).
MessagePattern describeMessage(const Layout &From, const Layout &To,
                               int64_t Src, int64_t Dst);

/// Patterns of every message Src sends, sorted by Dst (non-empty only), in
/// O(runs of the row) (plus Src's blocks when there is no whole slice).
/// Throws as describeMessage does.
std::vector<MessagePattern> describeRow(const Layout &From, const Layout &To,
                                        int64_t Src);
/// Patterns of every message Dst receives, sorted by Src (non-empty only).
std::vector<MessagePattern> describeColumn(const Layout &From, const Layout &To,
                                           int64_t Dst);

/// From this average run length (bytes, on one side of a message) MPI derived
/// datatypes move the side faster than copy loops: measured on Open MPI 4.1
/// (docs/runtime.md, "Packing"), datatypes already win at runs of 32 to 64
/// doubles and lose at runs of a few elements. Shared by the runtime's
/// Packing::Auto and redistc's static path, so that both choose alike.
constexpr int64_t AutoDatatypeRunBytes = 256;

/// The rule itself: whether one side of a message, Elements elements of
/// ElementBytes bytes in Runs runs of the local array, averages at least
/// AutoDatatypeRunBytes per run.
inline bool preferDatatype(int64_t Elements, int64_t ElementBytes,
                           int64_t Runs) {
  return Runs > 0 && static_cast<double>(Elements) *
                             static_cast<double>(ElementBytes) /
                             static_cast<double>(Runs) >=
                         static_cast<double>(AutoDatatypeRunBytes);
}

} // namespace redist

#endif // REDIST_MESSAGEPATTERN_H
