//===- CopyProgram.cpp - Building copy programs from message patterns -----===//
//
// A message's elements are described by lib's MessagePattern (slice runs
// repeated with strides, then tail runs), or, for an N-D message, by nested
// levels of repeats, one per axis (ArrayMessages.h). A program for a range
// of the message clips that description to the range: a partial repeat at
// each end becomes a plain segment (descended into, level by level), the
// whole repeats in between stay one repeated segment, so the program's size
// never depends on N.
//
//===----------------------------------------------------------------------===//
#include "CopyProgram.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace redist {
namespace detail {
namespace {

std::vector<TriSegment> messageSegments(const MessagePattern &M) {
  std::vector<TriSegment> Segs;
  int64_t Pos = 0;
  if (M.Repeat > 0 && !M.SliceRuns.empty()) {
    TriSegment S;
    for (const Run &R : M.SliceRuns) {
      S.Runs.push_back({R.SrcOffset, R.DstOffset, Pos, R.Length});
      Pos += R.Length;
    }
    S.Repeat = M.Repeat;
    S.SrcStride = M.SrcStride;
    S.DstStride = M.DstStride;
    S.PosStride = Pos;
    S.PerRepeat = Pos;
    Pos *= M.Repeat;
    Segs.push_back(std::move(S));
  }
  if (!M.TailRuns.empty()) {
    TriSegment S;
    for (const Run &R : M.TailRuns) {
      S.Runs.push_back({R.SrcOffset, R.DstOffset, Pos, R.Length});
      S.PerRepeat += R.Length;
      Pos += R.Length;
    }
    Segs.push_back(std::move(S));
  }
  return Segs;
}

/// Repeat K of S's runs clipped to positions [Lo, Hi), appended to Out. The
/// runs are sorted by position: binary search for the first one, so that
/// cutting a long run list into many pieces stays linear.
void appendClippedRepeat(const TriSegment &S, int64_t K, int64_t Lo, int64_t Hi,
                         std::vector<TriRun> &Out) {
  const int64_t Shift = K * S.PosStride;
  auto First = std::upper_bound(
      S.Runs.begin(), S.Runs.end(), Lo - Shift,
      [](int64_t P, const TriRun &R) { return P < R.Pos + R.Len; });
  for (auto It = First; It != S.Runs.end(); ++It) {
    const TriRun &R = *It;
    int64_t Pos = R.Pos + Shift;
    if (Pos >= Hi)
      break;
    int64_t B = std::max(Lo, Pos), E = std::min(Hi, Pos + R.Len);
    if (B >= E)
      continue;
    int64_t Skip = B - Pos;
    Out.push_back({R.Src + K * S.SrcStride + Skip,
                   R.Dst + K * S.DstStride + Skip, B, E - B});
  }
}

/// S restricted to message positions [Lo, Hi).
void clipSegment(const TriSegment &S, int64_t Lo, int64_t Hi,
                 std::vector<TriSegment> &Out) {
  if (S.Runs.empty())
    return;
  const int64_t PerRep = S.PerRepeat;
  int64_t Start = S.Runs.front().Pos;
  int64_t End = Start + S.Repeat * PerRep;
  Lo = std::max(Lo, Start);
  Hi = std::min(Hi, End);
  if (Lo >= Hi || PerRep == 0)
    return;
  int64_t FirstTouched = (Lo - Start) / PerRep;
  int64_t EndTouched = (Hi - Start + PerRep - 1) / PerRep;
  int64_t FirstWhole = (Lo - Start + PerRep - 1) / PerRep;
  int64_t EndWhole = (Hi - Start) / PerRep;
  auto Partial = [&](int64_t K) {
    TriSegment P;
    appendClippedRepeat(S, K, Lo, Hi, P.Runs);
    for (const TriRun &R : P.Runs)
      P.PerRepeat += R.Len;
    Out.push_back(std::move(P));
  };
  if (FirstWhole >= EndWhole) {
    for (int64_t K = FirstTouched; K < EndTouched; ++K)
      Partial(K);
    return;
  }
  if (FirstTouched < FirstWhole)
    Partial(FirstTouched);
  TriSegment Whole;
  for (const TriRun &R : S.Runs)
    Whole.Runs.push_back({R.Src + FirstWhole * S.SrcStride,
                          R.Dst + FirstWhole * S.DstStride,
                          R.Pos + FirstWhole * S.PosStride, R.Len});
  Whole.Repeat = EndWhole - FirstWhole;
  Whole.SrcStride = S.SrcStride;
  Whole.DstStride = S.DstStride;
  Whole.PosStride = S.PosStride;
  Whole.PerRepeat = S.PerRepeat;
  Out.push_back(std::move(Whole));
  if (EndWhole < EndTouched)
    Partial(EndWhole);
}

/// Merges runs that continue each other on both sides.
void mergeRuns(std::vector<CopyRun> &Runs) {
  std::vector<CopyRun> Merged;
  for (const CopyRun &R : Runs) {
    if (R.Length == 0)
      continue;
    if (!Merged.empty()) {
      CopyRun &L = Merged.back();
      if (L.From + L.Length == R.From && L.To + L.Length == R.To) {
        L.Length += R.Length;
        continue;
      }
    }
    Merged.push_back(R);
  }
  Runs = std::move(Merged);
}

/// Merges runs that continue each other on both sides, collapses a repeated
/// single run that is contiguous on both sides, and sets UniformLength.
void simplify(CopySegment &S) {
  mergeRuns(S.Runs);
  if (S.Runs.size() == 1 && S.Repeat > 1 && S.FromStride == S.Runs[0].Length &&
      S.ToStride == S.Runs[0].Length) {
    S.Runs[0].Length *= S.Repeat;
    S.Repeat = 1;
  }
  if (S.Repeat == 1) {
    S.FromStride = 0;
    S.ToStride = 0;
  }
  S.UniformLength = S.Runs.empty() ? 0 : S.Runs[0].Length;
  for (const CopyRun &R : S.Runs)
    if (R.Length != S.UniformLength)
      S.UniformLength = 0;
}

/// Runs shorter than this on average are copied element by element.
constexpr int64_t ElementwiseBelowRunLength = 4;
/// Largest repeat turned into element tables.
constexpr int64_t ElementwiseMaxElements = 4096;

/// Adds element tables to a repeated segment of short runs (or to an
/// unrepeated one that is Reused at shifted addresses).
void addElementTables(CopySegment &S, bool Reused = false) {
  if ((S.Repeat < 2 && !Reused) || S.Runs.empty())
    return;
  int64_t Elements = 0, FromMin = INT64_MAX, ToMin = INT64_MAX;
  int64_t FromMax = 0, ToMax = 0;
  for (const CopyRun &R : S.Runs) {
    Elements += R.Length;
    FromMin = std::min(FromMin, R.From);
    ToMin = std::min(ToMin, R.To);
    FromMax = std::max(FromMax, R.From + R.Length);
    ToMax = std::max(ToMax, R.To + R.Length);
  }
  if (Elements > ElementwiseMaxElements ||
      Elements >=
          ElementwiseBelowRunLength * static_cast<int64_t>(S.Runs.size()) ||
      FromMax - FromMin > INT32_MAX || ToMax - ToMin > INT32_MAX)
    return;
  // A side that is contiguous in run order (the buffer side of packing and
  // unpacking) needs no table.
  bool FromSequential = true, ToSequential = true;
  int64_t NextFrom = FromMin, NextTo = ToMin;
  for (const CopyRun &R : S.Runs) {
    FromSequential = FromSequential && R.From == NextFrom;
    ToSequential = ToSequential && R.To == NextTo;
    NextFrom = R.From + R.Length;
    NextTo = R.To + R.Length;
  }
  if (FromSequential && ToSequential)
    return;
  S.Elementwise = true;
  S.FromBase = FromMin;
  S.ToBase = ToMin;
  for (const CopyRun &R : S.Runs)
    for (int64_t I = 0; I < R.Length; ++I) {
      if (!FromSequential)
        S.FromIndex.push_back(static_cast<int32_t>(R.From + I - FromMin));
      if (!ToSequential)
        S.ToIndex.push_back(static_cast<int32_t>(R.To + I - ToMin));
    }
}

/// Elements of a nested segment's levels from J on.
int64_t nestedSize(const TriSegment &S, std::size_t J) {
  if (J == S.Outer.size())
    return S.PerRepeat;
  int64_t Count = 0;
  for (const TriItem &I : S.Outer[J].Items)
    Count += I.Count;
  return Count * S.Outer[J].PosStep;
}

/// Where a repeat of a nested segment's level starts.
struct TriBase {
  int64_t Src = 0, Dst = 0, Pos = 0;
};

/// The part of nested segment S within message positions [Lo, Hi), from
/// level J on at base B (levels above J folded into B), appended to Out as
/// nested segments whose top level is absolute. The repeats [Lo, Hi) covers
/// whole stay one piece per level; only those it cuts are descended into,
/// so a cut costs O(levels * (items + runs)).
void clipNested(const TriSegment &S, std::size_t J, TriBase B, int64_t Lo,
                int64_t Hi, std::vector<TriSegment> &Out) {
  if (J == S.Outer.size()) {
    TriSegment P;
    for (const TriRun &R : S.Runs) {
      const int64_t Pos = B.Pos + R.Pos;
      const int64_t Begin = std::max(Lo, Pos), End = std::min(Hi, Pos + R.Len);
      if (Begin >= End)
        continue;
      const int64_t Skip = Begin - Pos;
      P.Runs.push_back(
          {B.Src + R.Src + Skip, B.Dst + R.Dst + Skip, Begin, End - Begin});
      P.PerRepeat += End - Begin;
    }
    if (!P.Runs.empty())
      Out.push_back(std::move(P));
    return;
  }
  const TriLevel &L = S.Outer[J];
  // Pieces go out in position order: a datatype built from the program
  // lays the message out in the order of its segments.
  TriSegment Whole;
  auto Flush = [&] {
    if (Whole.Outer.empty() || Whole.Outer[0].Items.empty())
      return;
    Whole.Outer.insert(Whole.Outer.end(),
                       S.Outer.begin() + static_cast<std::ptrdiff_t>(J) + 1,
                       S.Outer.end());
    Whole.Runs = S.Runs;
    Whole.PerRepeat = S.PerRepeat;
    Out.push_back(std::move(Whole));
    Whole = TriSegment();
  };
  for (const TriItem &I : L.Items) {
    const int64_t Start = B.Pos + I.Pos, End = Start + I.Count * L.PosStep;
    if (End <= Lo)
      continue;
    if (Start >= Hi)
      break;
    const int64_t First = std::max<int64_t>(0, (Lo - Start) / L.PosStep);
    const int64_t Last =
        std::min(I.Count, (Hi - Start + L.PosStep - 1) / L.PosStep);
    const int64_t WholeFirst =
        std::max<int64_t>(0, (Lo - Start + L.PosStep - 1) / L.PosStep);
    const int64_t WholeEnd =
        std::max(WholeFirst, std::min(I.Count, (Hi - Start) / L.PosStep));
    auto Descend = [&](int64_t K) {
      Flush();
      clipNested(S, J + 1,
                 {B.Src + I.Src + K * L.SrcStep, B.Dst + I.Dst + K * L.DstStep,
                  Start + K * L.PosStep},
                 Lo, Hi, Out);
    };
    for (int64_t K = First; K < std::min(WholeFirst, Last); ++K)
      Descend(K);
    if (WholeFirst < WholeEnd) {
      if (Whole.Outer.empty())
        Whole.Outer.push_back(TriLevel{{}, L.SrcStep, L.DstStep, L.PosStep});
      Whole.Outer[0].Items.push_back({B.Src + I.Src + WholeFirst * L.SrcStep,
                                      B.Dst + I.Dst + WholeFirst * L.DstStep,
                                      Start + WholeFirst * L.PosStep,
                                      WholeEnd - WholeFirst});
    }
    for (int64_t K = std::max(WholeEnd, WholeFirst); K < Last; ++K)
      Descend(K);
  }
  Flush();
}

/// A nested piece (clipNested's) as a copy segment for Side, buffer
/// positions from Begin.
CopySegment nestedSegment(const TriSegment &T, CopySide Side, int64_t Begin) {
  CopySegment C;
  auto FromOf = [&](int64_t Src, int64_t Pos) {
    return Side == CopySide::Unpack ? Pos : Src;
  };
  auto ToOf = [&](int64_t Dst, int64_t Pos) {
    return Side == CopySide::Pack ? Pos : Dst;
  };
  for (std::size_t J = 0; J < T.Outer.size(); ++J) {
    const TriLevel &L = T.Outer[J];
    const int64_t Shift = J == 0 ? Begin : 0; // the top level is absolute
    CopyLevel Out;
    Out.FromStep = FromOf(L.SrcStep, L.PosStep);
    Out.ToStep = ToOf(L.DstStep, L.PosStep);
    for (const TriItem &I : L.Items)
      Out.Items.push_back(
          {FromOf(I.Src, I.Pos - Shift), ToOf(I.Dst, I.Pos - Shift), I.Count});
    C.Outer.push_back(std::move(Out));
  }
  for (const TriRun &R : T.Runs)
    C.Runs.push_back({FromOf(R.Src, R.Pos), ToOf(R.Dst, R.Pos), R.Len});
  return C;
}

/// Makes a nested segment's levels as few as its layout allows: a deepest
/// level whose repeats continue a single run on both sides becomes runs,
/// a level of one item of one repeat folds into the level below (or the
/// runs), and a single level of one item becomes a plain repeat, which the
/// element tables and fixed-length kernels then serve.
void flattenLevels(CopySegment &S) {
  mergeRuns(S.Runs);
  // A level of one repeat shifts every item of the level below (or the
  // runs) by its one offset.
  for (std::size_t J = 0; J < S.Outer.size();) {
    const CopyLevel &L = S.Outer[J];
    if (L.Items.size() != 1 || L.Items[0].Count != 1) {
      ++J;
      continue;
    }
    const CopyItem I = L.Items[0];
    if (J + 1 < S.Outer.size()) {
      for (CopyItem &Below : S.Outer[J + 1].Items) {
        Below.From += I.From;
        Below.To += I.To;
      }
    } else {
      for (CopyRun &R : S.Runs) {
        R.From += I.From;
        R.To += I.To;
      }
    }
    S.Outer.erase(S.Outer.begin() + static_cast<std::ptrdiff_t>(J));
  }
  while (!S.Outer.empty() && S.Runs.size() == 1 &&
         S.Outer.back().FromStep == S.Runs[0].Length &&
         S.Outer.back().ToStep == S.Runs[0].Length) {
    const CopyRun R = S.Runs[0];
    S.Runs.clear();
    for (const CopyItem &I : S.Outer.back().Items)
      S.Runs.push_back({R.From + I.From, R.To + I.To, I.Count * R.Length});
    S.Outer.pop_back();
    mergeRuns(S.Runs);
  }
  if (S.Outer.size() == 1 && S.Outer[0].Items.size() == 1) {
    const CopyLevel L = S.Outer[0];
    S.Outer.clear();
    for (CopyRun &R : S.Runs) {
      R.From += L.Items[0].From;
      R.To += L.Items[0].To;
    }
    S.Repeat = L.Items[0].Count;
    S.FromStride = L.FromStep;
    S.ToStride = L.ToStep;
  }
}

/// Marks a transposing segment (CopySegment::TileLevel): one run of one
/// element, the deepest level contiguous on one side only, and a level
/// contiguous on the other side, which the kernels pair with it in tiles.
/// Each element is copied once in any order, since the levels' offsets
/// add up independently; only the kernels' walk changes, never the
/// program's order, which datatypes and single copies follow.
void markTile(CopySegment &S) {
  if (S.Outer.size() < 2 || S.Runs.size() != 1 || S.Runs[0].Length != 1)
    return;
  const CopyLevel &D = S.Outer.back();
  const bool FromUnit = D.FromStep == 1, ToUnit = D.ToStep == 1;
  if (FromUnit == ToUnit)
    return;
  for (std::size_t J = S.Outer.size() - 1; J-- > 0;)
    if ((FromUnit ? S.Outer[J].ToStep : S.Outer[J].FromStep) == 1) {
      S.TileLevel = static_cast<int>(J);
      return;
    }
}

/// Elements a nested copy segment copies.
int64_t nestedElements(const CopySegment &S) {
  int64_t N = 0;
  for (const CopyRun &R : S.Runs)
    N += R.Length;
  return N * segmentRepeats(S);
}

/// Repeats of Outer's levels, and of Repeat.
int64_t levelRepeats(const std::vector<CopyLevel> &Outer, int64_t Repeat) {
  for (const CopyLevel &L : Outer) {
    int64_t Count = 0;
    for (const CopyItem &I : L.Items)
      Count += I.Count;
    Repeat *= Count;
  }
  return Repeat;
}

} // namespace

int64_t segmentRepeats(const CopySegment &S) {
  return levelRepeats(S.Outer, S.Repeat);
}

int64_t programRuns(const CopyProgram &P) {
  int64_t Runs = 0;
  for (const CopySegment &S : P.Segments)
    Runs += static_cast<int64_t>(S.Runs.size()) * segmentRepeats(S);
  return Runs;
}

MessageCutter::MessageCutter(const MessagePattern &M)
    : Segments(messageSegments(M)) {
  for (const TriSegment &S : Segments)
    Length += S.Repeat * S.PerRepeat;
}

MessageCutter::MessageCutter(std::vector<TriSegment> Given)
    : Segments(std::move(Given)) {
  for (const TriSegment &S : Segments)
    Length += S.Outer.empty() ? S.Repeat * S.PerRepeat : nestedSize(S, 0);
}

CopyProgram buildCopyProgram(const MessagePattern &M, CopySide Side,
                             int64_t Begin, int64_t End) {
  return MessageCutter(M).program(Side, Begin, End);
}

CopyProgram MessageCutter::program(CopySide Side, int64_t Begin,
                                   int64_t End) const {
  std::vector<TriSegment> Clipped;
  for (const TriSegment &S : Segments)
    if (S.Outer.empty())
      clipSegment(S, Begin, End, Clipped);
    else
      clipNested(S, 0, TriBase(), Begin, End, Clipped);

  CopyProgram P;
  P.WritesTarget = Side != CopySide::Pack;
  for (const TriSegment &T : Clipped) {
    if (!T.Outer.empty()) {
      CopySegment C = nestedSegment(T, Side, Begin);
      flattenLevels(C);
      if (C.Runs.empty())
        continue;
      markTile(C);
      C.UniformLength = C.Runs[0].Length;
      for (const CopyRun &R : C.Runs)
        if (R.Length != C.UniformLength)
          C.UniformLength = 0;
      P.Elements += nestedElements(C);
      P.Segments.push_back(std::move(C));
      continue;
    }
    CopySegment C;
    C.Repeat = T.Repeat;
    for (const TriRun &R : T.Runs) {
      int64_t Pos = R.Pos - Begin;
      switch (Side) {
      case CopySide::Pack:
        C.Runs.push_back({R.Src, Pos, R.Len});
        break;
      case CopySide::Unpack:
        C.Runs.push_back({Pos, R.Dst, R.Len});
        break;
      case CopySide::Direct:
        C.Runs.push_back({R.Src, R.Dst, R.Len});
        break;
      }
    }
    C.FromStride = Side == CopySide::Unpack ? T.PosStride : T.SrcStride;
    C.ToStride = Side == CopySide::Pack ? T.PosStride : T.DstStride;
    simplify(C);
    if (C.Runs.empty())
      continue;
    for (const CopyRun &R : C.Runs)
      P.Elements += R.Length * C.Repeat;
    // Consecutive unrepeated segments become one: fewer dispatches.
    if (C.Repeat == 1 && !P.Segments.empty() && P.Segments.back().Repeat == 1 &&
        P.Segments.back().Outer.empty()) {
      CopySegment &L = P.Segments.back();
      L.Runs.insert(L.Runs.end(), C.Runs.begin(), C.Runs.end());
      simplify(L);
      continue;
    }
    P.Segments.push_back(std::move(C));
  }
  for (CopySegment &S : P.Segments)
    if (S.Outer.empty())
      addElementTables(S);
  return P;
}

CopyProgram MessageCutter::tileProgram(CopySide Side, int64_t Begin,
                                       int64_t End) const {
  CopyProgram P = program(Side, Begin, End);
  for (CopySegment &S : P.Segments) {
    int64_t PerRepeat = 0;
    for (const CopyRun &R : S.Runs)
      PerRepeat += R.Length;
    if (!S.Outer.empty() || S.Repeat < 2 ||
        S.Repeat * PerRepeat > ElementwiseMaxElements)
      continue;
    std::vector<CopyRun> Unrolled;
    for (int64_t K = 0; K < S.Repeat; ++K)
      for (const CopyRun &R : S.Runs)
        Unrolled.push_back(
            {R.From + K * S.FromStride, R.To + K * S.ToStride, R.Length});
    S = CopySegment();
    S.Runs = std::move(Unrolled);
    simplify(S);
    addElementTables(S, /*Reused=*/true);
  }
  return P;
}

std::vector<SideBlocks> programSide(const CopyProgram &P, bool UseFrom) {
  std::vector<SideBlocks> Out;
  for (const CopySegment &S : P.Segments) {
    SideBlocks B;
    B.Repeat = S.Repeat;
    B.Stride = UseFrom ? S.FromStride : S.ToStride;
    B.Outer = S.Outer;
    for (const CopyRun &R : S.Runs) {
      int64_t Off = UseFrom ? R.From : R.To;
      if (!B.Offsets.empty() && B.Offsets.back() + B.Lengths.back() == Off) {
        B.Lengths.back() += R.Length;
        continue;
      }
      B.Offsets.push_back(Off);
      B.Lengths.push_back(R.Length);
    }
    Out.push_back(std::move(B));
  }
  return Out;
}

int64_t programEntries(const CopyProgram &P) {
  int64_t Entries = 0;
  for (const CopySegment &S : P.Segments) {
    Entries += 1 + static_cast<int64_t>(S.Runs.size() + S.FromIndex.size() +
                                        S.ToIndex.size());
    for (const CopyLevel &L : S.Outer)
      Entries += 1 + static_cast<int64_t>(L.Items.size());
  }
  return Entries;
}

int64_t runsOf(const CopyProgram &P, bool UseFrom) {
  int64_t Runs = 0;
  for (const SideBlocks &B : programSide(P, UseFrom))
    Runs += static_cast<int64_t>(B.Offsets.size()) *
            levelRepeats(B.Outer, B.Repeat);
  return Runs;
}

} // namespace detail
} // namespace redist
