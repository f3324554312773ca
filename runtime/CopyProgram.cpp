//===- CopyProgram.cpp - Building copy programs from message patterns -----===//
//
// A message's elements are described by lib's MessagePattern (slice runs
// repeated with strides, then tail runs). A program for a range of the
// message clips that description to the range: a partial repeat at each end
// becomes a plain segment, the whole repeats in between stay one repeated
// segment, so the program's size never depends on N.
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

/// Merges runs that continue each other on both sides, collapses a repeated
/// single run that is contiguous on both sides, and sets UniformLength.
void simplify(CopySegment &S) {
  std::vector<CopyRun> Merged;
  for (const CopyRun &R : S.Runs) {
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
  S.Runs = std::move(Merged);
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

} // namespace

MessageCutter::MessageCutter(const MessagePattern &M)
    : Segments(messageSegments(M)) {
  for (const TriSegment &S : Segments)
    Length += S.Repeat * S.PerRepeat;
}

MessageCutter::MessageCutter(std::vector<TriSegment> Given)
    : Segments(std::move(Given)) {
  for (const TriSegment &S : Segments)
    Length += S.Repeat * S.PerRepeat;
}

CopyProgram buildCopyProgram(const MessagePattern &M, CopySide Side,
                             int64_t Begin, int64_t End) {
  return MessageCutter(M).program(Side, Begin, End);
}

CopyProgram MessageCutter::program(CopySide Side, int64_t Begin,
                                   int64_t End) const {
  std::vector<TriSegment> Clipped;
  for (const TriSegment &S : Segments)
    clipSegment(S, Begin, End, Clipped);

  CopyProgram P;
  P.WritesTarget = Side != CopySide::Pack;
  for (const TriSegment &T : Clipped) {
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
    if (C.Repeat == 1 && !P.Segments.empty() && P.Segments.back().Repeat == 1) {
      CopySegment &L = P.Segments.back();
      L.Runs.insert(L.Runs.end(), C.Runs.begin(), C.Runs.end());
      simplify(L);
      continue;
    }
    P.Segments.push_back(std::move(C));
  }
  for (CopySegment &S : P.Segments)
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
    if (S.Repeat < 2 || S.Repeat * PerRepeat > ElementwiseMaxElements)
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

int64_t runsOf(const CopyProgram &P, bool UseFrom) {
  int64_t Runs = 0;
  for (const SideBlocks &B : programSide(P, UseFrom))
    Runs += static_cast<int64_t>(B.Offsets.size()) * B.Repeat;
  return Runs;
}

} // namespace detail
} // namespace redist
