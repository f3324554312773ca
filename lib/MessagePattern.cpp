//===- MessagePattern.cpp - Local runs a message covers -------------------===//
//
// Block-cyclic pairs with a whole slice take the runs of one slice from
// CyclicPair (one run per block offset delta, found without scanning) and
// clip them for the last slice. Every other pair walks block boundaries over
// [0, N) and keeps all runs as tail runs.
//
//===----------------------------------------------------------------------===//

#include "redist/MessagePattern.h"

#include "CyclicPair.h"
#include "RunWalker.h"
#include "redist/Error.h"
#include "redist/Limits.h"

#include <algorithm>
#include <optional>
#include <string>

using namespace redist;
using namespace redist::detail;

int64_t MessagePattern::length() const {
  int64_t Len = 0;
  for (const Run &R : SliceRuns)
    Len += R.Length;
  Len *= Repeat;
  for (const Run &R : TailRuns)
    Len += R.Length;
  return Len;
}

int64_t MessagePattern::perSlice() const {
  int64_t Len = 0;
  if (Repeat > 0) {
    for (const Run &R : SliceRuns)
      Len += R.Length;
    return Len;
  }
  // Merged or walked runs: clip them to the first slice.
  for (const Run &R : TailRuns)
    Len += std::max<int64_t>(0, std::min(R.Length, SrcStride - R.SrcOffset));
  return Len;
}

int64_t redist::patternPeriod(const Layout &From, const Layout &To) {
  if (!From.isBlockCyclic() || !To.isBlockCyclic())
    return 0;
  return CyclicPair(From, To).sliceLength();
}

/// Appends R, merging it into the last run when the two are contiguous on
/// both sides: runs stay maximal.
static void appendMerged(std::vector<Run> &Runs, const Run &R) {
  if (!Runs.empty()) {
    Run &Last = Runs.back();
    if (Last.SrcOffset + Last.Length == R.SrcOffset &&
        Last.DstOffset + Last.Length == R.DstOffset) {
      Last.Length += R.Length;
      return;
    }
  }
  Runs.push_back(R);
}

static void checkSameExtent(const Layout &From, const Layout &To) {
  if (From.extent() != To.extent())
    throw InvalidArgument(
        "source and target extents differ: " + std::to_string(From.extent()) +
        " vs " + std::to_string(To.extent()));
}

static void checkProcIndex(const char *Role, int64_t Proc, int64_t P) {
  if (Proc < 0 || Proc >= P)
    throw InvalidArgument(std::string(Role) + " process " +
                          std::to_string(Proc) + " out of range [0, " +
                          std::to_string(P) + ")");
}

/// The pattern of Src -> Dst from the runs of one slice (sorted, unmerged).
static MessagePattern patternFromSlice(const CyclicPair &CP, int64_t N,
                                       int64_t Src, int64_t Dst,
                                       const std::vector<SliceRun> &Runs) {
  MessagePattern Pat;
  Pat.Src = Src;
  Pat.Dst = Dst;
  Pat.Repeat = CP.wholeSlices();
  Pat.SrcStride = CP.srcStride();
  Pat.DstStride = CP.dstStride();
  for (const SliceRun &R : Runs)
    appendMerged(Pat.SliceRuns, {R.SrcOffset, R.DstOffset, R.Length});
  // The last slice holds the runs of a slice that start before its end.
  int64_t TailLength = N - Pat.Repeat * CP.sliceLength();
  int64_t SrcShift = Pat.Repeat * Pat.SrcStride;
  int64_t DstShift = Pat.Repeat * Pat.DstStride;
  std::vector<Run> Tail;
  for (const SliceRun &R : Runs) {
    if (R.Global >= TailLength)
      break;
    appendMerged(Tail, {R.SrcOffset + SrcShift, R.DstOffset + DstShift,
                        std::min(R.Length, TailLength - R.Global)});
  }
  // One run filling both local slices continues into the next slice: the
  // repeats merge into a single run, followed by the tail.
  if (Pat.SliceRuns.size() == 1 && Pat.SliceRuns[0].Length == Pat.SrcStride &&
      Pat.SliceRuns[0].Length == Pat.DstStride) {
    appendMerged(Pat.TailRuns, {0, 0, Pat.Repeat * Pat.SrcStride});
    Pat.SliceRuns.clear();
    Pat.Repeat = 0;
  }
  for (const Run &R : Tail)
    appendMerged(Pat.TailRuns, R);
  return Pat;
}

/// The closed forms when both layouts are block-cyclic with a whole slice.
static std::optional<CyclicPair> wholeSlicePair(const Layout &From,
                                                const Layout &To) {
  if (!From.isBlockCyclic() || !To.isBlockCyclic())
    return std::nullopt;
  CyclicPair CP(From, To);
  if (CP.wholeSlices() == 0)
    return std::nullopt;
  return CP;
}

/// An empty pattern for walked runs: strides L/P and L/Q when both layouts
/// are block-cyclic and L fits, else 0.
static MessagePattern walkedPattern(const Layout &From, const Layout &To,
                                    int64_t Src, int64_t Dst) {
  MessagePattern Pat;
  Pat.Src = Src;
  Pat.Dst = Dst;
  if (From.isBlockCyclic() && To.isBlockCyclic()) {
    CyclicPair CP(From, To);
    Pat.SrcStride = CP.srcStride();
    Pat.DstStride = CP.dstStride();
  }
  return Pat;
}

MessagePattern redist::describeMessage(const Layout &From, const Layout &To,
                                       int64_t Src, int64_t Dst) {
  checkSameExtent(From, To);
  checkProcIndex("source", Src, From.procs());
  checkProcIndex("target", Dst, To.procs());
  checkRunLimit(From, To);
  if (std::optional<CyclicPair> CP = wholeSlicePair(From, To)) {
    std::vector<SliceRun> Runs;
    CP->sliceRuns(Src, Dst, Runs);
    return patternFromSlice(*CP, From.extent(), Src, Dst, Runs);
  }
  MessagePattern Pat = walkedPattern(From, To, Src, Dst);
  forEachPairRun(
      From, To, Src, Dst, 0, From.extent(), [&](int64_t Begin, int64_t Len) {
        appendMerged(Pat.TailRuns, {localIndexOn(From, Src, Begin),
                                    localIndexOn(To, Dst, Begin), Len});
      });
  return Pat;
}

static std::vector<MessagePattern> rowPatterns(const Layout &From,
                                               const Layout &To, int64_t Src) {
  std::vector<MessagePattern> Row;
  if (std::optional<CyclicPair> CP = wholeSlicePair(From, To)) {
    std::vector<std::pair<int64_t, int64_t>> Scratch;
    std::vector<SliceRun> Runs;
    CP->forEachRowPartner(Src, Scratch, [&](int64_t Dst, int64_t) {
      CP->sliceRuns(Src, Dst, Runs);
      Row.push_back(patternFromSlice(*CP, From.extent(), Src, Dst, Runs));
    });
    return Row;
  }
  // Walk the row once in global order, then group the runs by target; the
  // stable sort keeps each target's runs in global order.
  struct TaggedRun {
    int64_t Dst;
    Run R;
  };
  std::vector<TaggedRun> Runs;
  forEachRowRun(From, To, Src, 0, From.extent(),
                [&](int64_t Begin, int64_t Len, int64_t Dst) {
                  Runs.push_back({Dst,
                                  {localIndexOn(From, Src, Begin),
                                   localIndexOn(To, Dst, Begin), Len}});
                });
  std::stable_sort(
      Runs.begin(), Runs.end(),
      [](const TaggedRun &X, const TaggedRun &Y) { return X.Dst < Y.Dst; });
  const MessagePattern Empty = walkedPattern(From, To, Src, 0);
  for (const TaggedRun &T : Runs) {
    if (Row.empty() || Row.back().Dst != T.Dst) {
      Row.push_back(Empty);
      Row.back().Dst = T.Dst;
    }
    appendMerged(Row.back().TailRuns, T.R);
  }
  return Row;
}

std::vector<MessagePattern> redist::describeRow(const Layout &From,
                                                const Layout &To, int64_t Src) {
  checkSameExtent(From, To);
  checkProcIndex("source", Src, From.procs());
  checkRunLimit(From, To);
  return rowPatterns(From, To, Src);
}

std::vector<MessagePattern>
redist::describeColumn(const Layout &From, const Layout &To, int64_t Dst) {
  checkSameExtent(From, To);
  checkProcIndex("target", Dst, To.procs());
  checkRunLimit(From, To);
  // A column is a row of the reverse redistribution, with the two sides of
  // every run swapped; buffer order (global order) is the same.
  std::vector<MessagePattern> Column = rowPatterns(To, From, Dst);
  for (MessagePattern &Pat : Column) {
    std::swap(Pat.Src, Pat.Dst);
    std::swap(Pat.SrcStride, Pat.DstStride);
    for (Run &R : Pat.SliceRuns)
      std::swap(R.SrcOffset, R.DstOffset);
    for (Run &R : Pat.TailRuns)
      std::swap(R.SrcOffset, R.DstOffset);
  }
  return Column;
}
