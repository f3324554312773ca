//===- CopyKernels.cpp - The loops that pack, unpack and copy -------------===//
//
// Block-cyclic messages are made of many short runs, so the cost of a
// redistribution is the cost of these loops. Each segment is dispatched once
// to a loop specialised for the element size (1, 2, 4, 8 or 16 bytes) and,
// when every run has the same length of at most 8 elements, for that length:
// the copy of one run is then a fixed-size memcpy the compiler turns into a
// few moves. Repeated slices of short mixed runs go element by element
// through offset tables (CopySegment::Elementwise). Other runs branch on
// their length once; long runs use copyBytes(). An N-D message's nested levels
// (CopySegment::Outer) are walked item by item around these loops, the
// deepest level's repeats run as their repeat; a transposing message's
// (CopySegment::TileLevel) in tiles of cache lines instead.
//
//===----------------------------------------------------------------------===//
#include "CopyProgram.h"

#include "Combine.h"
#include "CopyBytes.h"

#include <cstring>

namespace redist {
namespace detail {
namespace {

template <std::size_t E>
inline void copyRun(char *D, const char *S, int64_t N) {
  switch (N) {
  case 1:
    std::memcpy(D, S, E);
    return;
  case 2:
    std::memcpy(D, S, 2 * E);
    return;
  case 3:
    std::memcpy(D, S, 3 * E);
    return;
  case 4:
    std::memcpy(D, S, 4 * E);
    return;
  case 5:
    std::memcpy(D, S, 5 * E);
    return;
  case 6:
    std::memcpy(D, S, 6 * E);
    return;
  case 7:
    std::memcpy(D, S, 7 * E);
    return;
  case 8:
    std::memcpy(D, S, 8 * E);
    return;
  default:
    copyBytes(D, S, static_cast<std::size_t>(N) * E);
  }
}

/// Every run has K elements of E bytes.
template <std::size_t E, std::size_t K>
void copyFixed(const CopySegment &Sg, Repeats Rp, const char *From, char *To) {
  const CopyRun *Runs = Sg.Runs.data();
  const std::size_t NumRuns = Sg.Runs.size();
  const int64_t FromStep = Rp.FromStride * static_cast<int64_t>(E);
  const int64_t ToStep = Rp.ToStride * static_cast<int64_t>(E);
  if (NumRuns == 1) {
    const char *F = From + Runs[0].From * static_cast<int64_t>(E);
    char *T = To + Runs[0].To * static_cast<int64_t>(E);
    for (int64_t Rep = 0; Rep < Rp.Count; ++Rep)
      std::memcpy(T + Rep * ToStep, F + Rep * FromStep, K * E);
    return;
  }
  for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
    const char *F = From + Rep * FromStep;
    char *T = To + Rep * ToStep;
    for (std::size_t I = 0; I < NumRuns; ++I)
      std::memcpy(T + Runs[I].To * static_cast<int64_t>(E),
                  F + Runs[I].From * static_cast<int64_t>(E), K * E);
  }
}

/// Runs of any length, elements of E bytes.
template <std::size_t E>
void copyMixed(const CopySegment &Sg, Repeats Rp, const char *From, char *To) {
  const CopyRun *Runs = Sg.Runs.data();
  const std::size_t NumRuns = Sg.Runs.size();
  const int64_t FromStep = Rp.FromStride * static_cast<int64_t>(E);
  const int64_t ToStep = Rp.ToStride * static_cast<int64_t>(E);
  for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
    const char *F = From + Rep * FromStep;
    char *T = To + Rep * ToStep;
    for (std::size_t I = 0; I < NumRuns; ++I)
      copyRun<E>(T + Runs[I].To * static_cast<int64_t>(E),
                 F + Runs[I].From * static_cast<int64_t>(E), Runs[I].Length);
  }
}

/// Element by element through the tables of one repeat. The side without a
/// table is contiguous.
template <std::size_t E>
void copyElementwise(const CopySegment &Sg, Repeats Rp, const char *From,
                     char *To) {
  const int64_t FromStep = Rp.FromStride * static_cast<int64_t>(E);
  const int64_t ToStep = Rp.ToStride * static_cast<int64_t>(E);
  From += Sg.FromBase * static_cast<int64_t>(E);
  To += Sg.ToBase * static_cast<int64_t>(E);
  const int32_t *FI = Sg.FromIndex.data();
  const int32_t *TI = Sg.ToIndex.data();
  const std::size_t N =
      Sg.FromIndex.empty() ? Sg.ToIndex.size() : Sg.FromIndex.size();
  if (Sg.ToIndex.empty()) { // packing: gather into a contiguous buffer
    for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
      const char *F = From + Rep * FromStep;
      char *T = To + Rep * ToStep;
      for (std::size_t J = 0; J < N; ++J)
        std::memcpy(T + J * E, F + static_cast<int64_t>(FI[J]) * E, E);
    }
  } else if (Sg.FromIndex.empty()) { // unpacking: scatter a contiguous buffer
    for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
      const char *F = From + Rep * FromStep;
      char *T = To + Rep * ToStep;
      for (std::size_t J = 0; J < N; ++J)
        std::memcpy(T + static_cast<int64_t>(TI[J]) * E, F + J * E, E);
    }
  } else {
    for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
      const char *F = From + Rep * FromStep;
      char *T = To + Rep * ToStep;
      for (std::size_t J = 0; J < N; ++J)
        std::memcpy(T + static_cast<int64_t>(TI[J]) * E,
                    F + static_cast<int64_t>(FI[J]) * E, E);
    }
  }
}

template <std::size_t E>
void copySegment(const CopySegment &Sg, Repeats Rp, const char *From,
                 char *To) {
  if (Sg.Elementwise)
    return copyElementwise<E>(Sg, Rp, From, To);
  switch (Sg.UniformLength) {
  case 1:
    return copyFixed<E, 1>(Sg, Rp, From, To);
  case 2:
    return copyFixed<E, 2>(Sg, Rp, From, To);
  case 3:
    return copyFixed<E, 3>(Sg, Rp, From, To);
  case 4:
    return copyFixed<E, 4>(Sg, Rp, From, To);
  case 5:
    return copyFixed<E, 5>(Sg, Rp, From, To);
  case 6:
    return copyFixed<E, 6>(Sg, Rp, From, To);
  case 7:
    return copyFixed<E, 7>(Sg, Rp, From, To);
  case 8:
    return copyFixed<E, 8>(Sg, Rp, From, To);
  default:
    return copyMixed<E>(Sg, Rp, From, To);
  }
}

/// Any element size: one copyBytes() per run (element tables are not used).
void copySegmentBytes(const CopySegment &Sg, Repeats Rp, const char *From,
                      char *To, std::size_t ElementBytes) {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
    const char *F = From + Rep * Rp.FromStride * E;
    char *T = To + Rep * Rp.ToStride * E;
    for (const CopyRun &R : Sg.Runs)
      copyBytes(T + R.To * E, F + R.From * E,
                static_cast<std::size_t>(R.Length * E));
  }
}

/// A transposing segment's tile (CopySegment::TileLevel), element by
/// element in blocks of cache lines; E is 0 for another element size.
template <std::size_t E>
void copyTile(const CopySegment &Sg, const TileRepeats &Tl, const char *From,
              char *To, std::size_t ElementBytes) {
  const int64_t Bytes = static_cast<int64_t>(E ? E : ElementBytes);
  forEachTileElement(
      Tl, From + Sg.Runs[0].From * Bytes, To + Sg.Runs[0].To * Bytes, Bytes,
      [&](char *T, const char *F) { std::memcpy(T, F, E ? E : ElementBytes); });
}

template <std::size_t E>
void runSegment(const CopySegment &Sg, const char *From, char *To) {
  forEachRepeat(
      Sg, From, To, static_cast<int64_t>(E),
      [&](Repeats Rp, const char *F, char *T) { copySegment<E>(Sg, Rp, F, T); },
      [&](const TileRepeats &Tl, const char *F, char *T) {
        copyTile<E>(Sg, Tl, F, T, E);
      });
}

} // namespace

void runCopyProgram(const CopyProgram &P, const char *From, char *To,
                    std::size_t ElementBytes) {
  if (P.WritesTarget)
    if (const Combine *C = activeCombine())
      return runCombineProgram(P, From, To, *C);
  for (const CopySegment &Sg : P.Segments) {
    switch (ElementBytes) {
    case 1:
      runSegment<1>(Sg, From, To);
      break;
    case 2:
      runSegment<2>(Sg, From, To);
      break;
    case 4:
      runSegment<4>(Sg, From, To);
      break;
    case 8:
      runSegment<8>(Sg, From, To);
      break;
    case 16:
      runSegment<16>(Sg, From, To);
      break;
    default:
      forEachRepeat(
          Sg, From, To, static_cast<int64_t>(ElementBytes),
          [&](Repeats Rp, const char *F, char *T) {
            copySegmentBytes(Sg, Rp, F, T, ElementBytes);
          },
          [&](const TileRepeats &Tl, const char *F, char *T) {
            copyTile<0>(Sg, Tl, F, T, ElementBytes);
          });
    }
  }
}

} // namespace detail
} // namespace redist
