//===- CopyProgram.h - Run lists that packing and copying walk ------------===//
//
// Private to the runtime. A CopyProgram says which elements go where when a
// message is packed into a buffer, unpacked from one, or copied directly
// (a rank's message to itself): segments of runs, each repeated with fixed
// strides, exactly like lib's MessagePattern but with one "from" and one
// "to" offset per run. Programs are built once per plan; the kernels in
// CopyKernels.cpp walk them without any per-element decision.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_COPYPROGRAM_H
#define REDIST_RUNTIME_COPYPROGRAM_H

#include "redist/MessagePattern.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

/// Length elements from element offset From to element offset To.
struct CopyRun {
  int64_t From;
  int64_t To;
  int64_t Length;
};

/// Count repeats of what a level holds, from offsets From / To on, each
/// shifted by the level's steps.
struct CopyItem {
  int64_t From, To, Count;
};

/// One level of nested repeats: its items, one after the other.
struct CopyLevel {
  std::vector<CopyItem> Items;
  int64_t FromStep = 0, ToStep = 0;
};

/// Runs repeated Repeat times, shifted by FromStride / ToStride elements;
/// within Outer's nested repeats when there are any.
struct CopySegment {
  /// Nested repeats around the runs, outermost first (an N-D message, one
  /// level per axis): for every item of every level and every k < Count,
  /// the runs are copied at the sum over the levels of item.From + k *
  /// FromStep (To likewise). The plan holds O(runs of each axis), never one
  /// entry per element. With levels, Repeat is 1: the kernels run the
  /// deepest level's repeats as the repeat of the runs.
  std::vector<CopyLevel> Outer;
  std::vector<CopyRun> Runs;
  int64_t Repeat = 1;
  int64_t FromStride = 0;
  int64_t ToStride = 0;
  /// The length every run has, 0 when they differ (the kernels then branch on
  /// each run's length).
  int64_t UniformLength = 0;
  /// A transposing segment: its one run is one element, its deepest level
  /// is contiguous on one side only and this level (of Outer) on the other.
  /// The kernels walk the two together in tiles (forEachRepeat), so that
  /// both sides are read and written a cache line at a time. -1: none.
  int TileLevel = -1;
  /// For repeated slices of short runs: one entry per element of a repeat,
  /// its offset from FromBase / ToBase. Copying element by element from
  /// these tables beats branching on many runs of 1 to 3 elements. An empty
  /// table means "sequential" for a side whose elements are contiguous.
  bool Elementwise = false;
  int64_t FromBase = 0, ToBase = 0;
  std::vector<int32_t> FromIndex, ToIndex;
};

struct CopyProgram {
  std::vector<CopySegment> Segments;
  int64_t Elements = 0;
  /// Writes the target's storage (an unpack or direct copy): where a
  /// combining execute() applies its combination (Combine.h).
  bool WritesTarget = false;
  bool empty() const { return Elements == 0; }
};

/// Which two of a message's three coordinates a program maps.
enum class CopySide {
  Pack,   ///< sender's local offsets -> position in the message buffer
  Unpack, ///< position in the message buffer -> receiver's local offsets
  Direct, ///< sender's local offsets -> receiver's local offsets
};

/// A run with all three coordinates: sender offset, receiver offset and
/// position in the message's element order.
struct TriRun {
  int64_t Src, Dst, Pos, Len;
};

/// Count repeats, from Src / Dst / Pos on, each shifted by the level's
/// steps.
struct TriItem {
  int64_t Src, Dst, Pos, Count;
};

/// One level of nested repeats with all three coordinates. Its items follow
/// each other in Pos: item I starts where item I - 1's Count repeats of
/// PosStep end.
struct TriLevel {
  std::vector<TriItem> Items;
  int64_t SrcStep = 0, DstStep = 0, PosStep = 0;
};

/// Runs repeated with strides on all three coordinates, or nested in
/// Outer's levels (CopySegment::Outer). With levels, Repeat is 1, the top
/// level's items hold absolute coordinates, every deeper level's and the
/// runs' are relative to the repeat of the level above, and each level's
/// PosStep is the elements of one repeat of it (PerRepeat for the deepest).
struct TriSegment {
  std::vector<TriLevel> Outer;
  std::vector<TriRun> Runs; ///< sorted by Pos, contiguous in Pos
  int64_t Repeat = 1;
  int64_t SrcStride = 0, DstStride = 0, PosStride = 0;
  int64_t PerRepeat = 0; ///< elements in one repeat
};

/// Cuts one message into programs for any range of its elements. Built once
/// per message; each cut costs O(log runs + runs in the range).
class MessageCutter {
public:
  explicit MessageCutter(const MessagePattern &M);
  /// A message given directly as segments (an array's, ArrayMessages.h):
  /// each with PerRepeat set, their positions consecutive from 0.
  explicit MessageCutter(std::vector<TriSegment> Segments);
  int64_t length() const { return Length; }
  /// The program for elements [Begin, End) of the message. Buffer positions
  /// are relative to Begin. Adjacent runs are merged and contiguous repeats
  /// collapsed.
  CopyProgram program(CopySide Side, int64_t Begin, int64_t End) const;
  /// program() for a range that is run many times at shifted addresses (a
  /// tile of slices): short repeats are unrolled into one element table, so
  /// that the kernel's loop spans the whole tile.
  CopyProgram tileProgram(CopySide Side, int64_t Begin, int64_t End) const;

private:
  std::vector<TriSegment> Segments;
  int64_t Length = 0;
};

/// MessageCutter(M).program(Side, Begin, End).
CopyProgram buildCopyProgram(const MessagePattern &M, CopySide Side,
                             int64_t Begin, int64_t End);

/// One side of a segment (the "from" or the "to" offsets), with runs that
/// are adjacent on that side merged: what an MPI datatype needs.
struct SideBlocks {
  std::vector<int64_t> Offsets; ///< element offsets of one repeat
  std::vector<int64_t> Lengths;
  int64_t Repeat = 1;
  int64_t Stride = 0; ///< elements between repeats
  /// The segment's nested levels (CopySegment::Outer), whose side the
  /// caller reads alike.
  std::vector<CopyLevel> Outer;
};
/// The segments of P seen from one side: "from" when UseFrom, else "to".
std::vector<SideBlocks> programSide(const CopyProgram &P, bool UseFrom);
/// The runs of local elements P gathers (UseFrom) or scatters, adjacent
/// ones merged: what Packing::Auto weighs.
int64_t runsOf(const CopyProgram &P, bool UseFrom);

/// How many times S's runs are copied: its Repeat times the repeats of
/// every nested level.
int64_t segmentRepeats(const CopySegment &S);
/// The runs P copies, every repeat counted: one iovec each in a single
/// copy (SingleCopy.h).
int64_t programRuns(const CopyProgram &P);

namespace impl {
template <typename Fn>
bool visitRuns(const CopySegment &S, std::size_t J, int64_t From, int64_t To,
               Fn &Visit) {
  if (J == S.Outer.size()) {
    for (int64_t K = 0; K < S.Repeat; ++K)
      for (const CopyRun &R : S.Runs)
        if (!Visit(From + R.From + K * S.FromStride, To + R.To + K * S.ToStride,
                   R.Length))
          return false;
    return true;
  }
  const CopyLevel &L = S.Outer[J];
  for (const CopyItem &I : L.Items)
    for (int64_t K = 0; K < I.Count; ++K)
      if (!visitRuns(S, J + 1, From + I.From + K * L.FromStep,
                     To + I.To + K * L.ToStep, Visit))
        return false;
  return true;
}
} // namespace impl

/// Calls Visit(From, To, Length) for every run P copies, at its element
/// offsets, in program order, through every repeat and nested level (an
/// Elementwise segment's tables restate its runs, which are kept). Stops,
/// returning false, as soon as Visit returns false. For what copies run by
/// run anyway (a system call's iovecs); the kernels walk levels per item.
template <typename Fn> bool forEachRun(const CopyProgram &P, Fn &&Visit) {
  for (const CopySegment &S : P.Segments)
    if (!impl::visitRuns(S, 0, 0, 0, Visit))
      return false;
  return true;
}

/// Entries P holds: runs, element-table entries and repeat levels. A plan's
/// memory is O(this), which must grow with runs, never with elements.
int64_t programEntries(const CopyProgram &P);

/// How often a segment's runs are copied, and the shift between copies
/// (in elements): the segment's own Repeat, or a nested level's item.
struct Repeats {
  int64_t Count, FromStride, ToStride;
};

/// The repeats of a transposing segment's two tiled levels (TileLevel's
/// item and the deepest level's): Line's are contiguous in the target (its
/// ToStride is 1), Across's the others.
struct TileRepeats {
  Repeats Line, Across;
};

namespace impl {
template <typename Fn, typename TileFn>
void walkLevels(const CopySegment &Sg, const char *From, char *To, int64_t E,
                Fn &Copy, TileFn &CopyTile, std::size_t J) {
  if (static_cast<int>(J) == Sg.TileLevel) // walked with the deepest level
    return walkLevels(Sg, From, To, E, Copy, CopyTile, J + 1);
  const CopyLevel &L = Sg.Outer[J];
  if (J + 1 < Sg.Outer.size()) {
    for (const CopyItem &I : L.Items)
      for (int64_t K = 0; K < I.Count; ++K)
        walkLevels(Sg, From + (I.From + K * L.FromStep) * E,
                   To + (I.To + K * L.ToStep) * E, E, Copy, CopyTile, J + 1);
    return;
  }
  if (Sg.TileLevel < 0) {
    for (const CopyItem &I : L.Items)
      Copy(Repeats{I.Count, L.FromStep, L.ToStep}, From + I.From * E,
           To + I.To * E);
    return;
  }
  const CopyLevel &T = Sg.Outer[static_cast<std::size_t>(Sg.TileLevel)];
  const bool DeepestIsLine = L.ToStep == 1;
  for (const CopyItem &X : T.Items)
    for (const CopyItem &I : L.Items) {
      const Repeats Mine{I.Count, L.FromStep, L.ToStep};
      const Repeats Other{X.Count, T.FromStep, T.ToStep};
      CopyTile(DeepestIsLine ? TileRepeats{Mine, Other}
                             : TileRepeats{Other, Mine},
               From + (X.From + I.From) * E, To + (X.To + I.To) * E);
    }
}
} // namespace impl

/// Calls Copy(Repeats, From, To) so that Sg's runs, repeated as each call
/// says from the addresses it gets, cover Sg: once for a plain segment,
/// once per item of the deepest of its nested levels (CopySegment::Outer)
/// otherwise. A transposing segment's (CopySegment::TileLevel) two tiled
/// levels go to CopyTile(TileRepeats, From, To) instead, once per pair of their
/// items. E is one element's size. Every kernel that walks a program
/// (copying or combining) goes through here.
template <typename Fn, typename TileFn>
void forEachRepeat(const CopySegment &Sg, const char *From, char *To, int64_t E,
                   Fn &&Copy, TileFn &&CopyTile) {
  if (Sg.Outer.empty())
    return Copy(Repeats{Sg.Repeat, Sg.FromStride, Sg.ToStride}, From, To);
  impl::walkLevels(Sg, From, To, E, Copy, CopyTile, 0);
}

/// Calls Element(To, From) for every element of tile Tl (one run of one
/// element at From and To), a block of lines at a time: a block covers
/// AcrossBlock of Across's repeats and a cache line's worth of Line's, so
/// that it reads a few lines of the source, each across the block, and
/// writes AcrossBlock whole lines of the target, both in L1.
template <typename Fn>
inline void forEachTileElement(const TileRepeats &Tl, const char *From,
                               char *To, int64_t E, Fn &&Element) {
  constexpr int64_t AcrossBlock = 128, LineBytes = 64;
  const int64_t LineBlock = E >= LineBytes ? 1 : LineBytes / E;
  const int64_t LF = Tl.Line.FromStride * E, LT = Tl.Line.ToStride * E;
  const int64_t AF = Tl.Across.FromStride * E, AT = Tl.Across.ToStride * E;
  for (int64_t A0 = 0; A0 < Tl.Across.Count; A0 += AcrossBlock) {
    const int64_t A1 = std::min(Tl.Across.Count, A0 + AcrossBlock);
    for (int64_t L0 = 0; L0 < Tl.Line.Count; L0 += LineBlock) {
      const int64_t N = std::min(Tl.Line.Count - L0, LineBlock);
      for (int64_t A = A0; A < A1; ++A) {
        const char *F = From + A * AF + L0 * LF;
        char *T = To + A * AT + L0 * LT;
        for (int64_t L = 0; L < N; ++L, F += LF, T += LT)
          Element(T, F);
      }
    }
  }
}

/// Copies P's elements from From to To; ElementBytes is one element's size.
/// Within a combining execute() (Combine.h), a program that writes the
/// target combines instead.
void runCopyProgram(const CopyProgram &P, const char *From, char *To,
                    std::size_t ElementBytes);

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_COPYPROGRAM_H
