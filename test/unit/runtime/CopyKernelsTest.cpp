//===- CopyKernelsTest.cpp - The copy kernels against a plain loop --------===//
//
// runCopyProgram (runtime/CopyKernels.cpp) dispatches on the element size,
// on a run length shared by every run of a segment (fixed-size copies up to
// 8 elements), and on each run's length otherwise. Each case here runs a
// program and a byte loop over the same runs (forEachRun) on the same
// buffers: every run's bytes must arrive, and no other byte of the target
// may change. The buffers start at odd byte offsets too, so that no copy is
// aligned.
//
//===----------------------------------------------------------------------===//
#include "CopyProgram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {
using namespace redist::detail;

/// One segment of Runs, repeated Repeat times with the strides given.
CopyProgram programOf(std::vector<CopyRun> Runs, int64_t Repeat,
                      int64_t FromStride, int64_t ToStride) {
  CopySegment S;
  S.Runs = std::move(Runs);
  S.Repeat = Repeat;
  S.FromStride = FromStride;
  S.ToStride = ToStride;
  S.UniformLength = S.Runs[0].Length;
  int64_t PerRepeat = 0;
  for (const CopyRun &R : S.Runs) {
    PerRepeat += R.Length;
    if (R.Length != S.UniformLength)
      S.UniformLength = 0;
  }
  CopyProgram P;
  P.Elements = PerRepeat * Repeat;
  P.WritesTarget = true;
  P.Segments.push_back(std::move(S));
  return P;
}

/// A byte that differs from its neighbours and does not repeat every 256.
unsigned char patternByte(std::size_t I, uint32_t Seed) {
  return static_cast<unsigned char>(
      ((static_cast<uint32_t>(I) + Seed) * 2654435761u) >> 17);
}

/// Runs P with elements of E bytes on buffers starting Misalign bytes into
/// their allocation, and expects what a byte loop over P's runs gives.
void expectLikeLoop(const CopyProgram &P, std::size_t E, std::size_t Misalign,
                    const std::string &What) {
  int64_t FromEnd = 0, ToEnd = 0;
  forEachRun(P, [&](int64_t F, int64_t T, int64_t L) {
    FromEnd = std::max(FromEnd, F + L);
    ToEnd = std::max(ToEnd, T + L);
    return true;
  });
  const std::size_t Slack = 64;
  std::vector<unsigned char> From(static_cast<std::size_t>(FromEnd) * E +
                                  Misalign + Slack);
  std::vector<unsigned char> To(static_cast<std::size_t>(ToEnd) * E + Misalign +
                                Slack);
  for (std::size_t I = 0; I < From.size(); ++I)
    From[I] = patternByte(I, 1);
  for (std::size_t I = 0; I < To.size(); ++I)
    To[I] = patternByte(I, 977);
  std::vector<unsigned char> Want = To;
  const int64_t Bytes = static_cast<int64_t>(E);
  forEachRun(P, [&](int64_t F, int64_t T, int64_t L) {
    for (int64_t B = 0; B < L * Bytes; ++B)
      Want[Misalign + static_cast<std::size_t>(T * Bytes + B)] =
          From[Misalign + static_cast<std::size_t>(F * Bytes + B)];
    return true;
  });
  runCopyProgram(P, reinterpret_cast<const char *>(From.data() + Misalign),
                 reinterpret_cast<char *>(To.data() + Misalign), E);
  EXPECT_TRUE(To == Want) << What;
}

/// Run lengths 1 to 64 elements, and longer ones around 1 KiB for every
/// element size.
std::vector<int64_t> runLengths() {
  std::vector<int64_t> L;
  for (int64_t N = 1; N <= 64; ++N)
    L.push_back(N);
  for (int64_t N : {96, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025})
    L.push_back(N);
  return L;
}

// 1, 2, 4, 8 and 16 bytes have kernels of their own; 3 and 12 take the
// loop for any size.
const std::size_t ElementSizes[] = {1, 2, 4, 8, 16, 3, 12};
const std::size_t Misaligns[] = {0, 1, 3, 7};

std::string caseName(const char *Shape, std::size_t E, int64_t Len,
                     std::size_t Misalign) {
  return std::string(Shape) + ": " + std::to_string(E) + "-byte elements, " +
         "runs of " + std::to_string(Len) + ", buffers " +
         std::to_string(Misalign) + " bytes off";
}

// Three runs of one length, repeated: the fixed-length kernels (up to 8
// elements) and the run-by-run loop above.
TEST(CopyKernels, RunsOfOneLengthRepeated) {
  for (std::size_t E : ElementSizes)
    for (int64_t Len : runLengths())
      for (std::size_t M : Misaligns) {
        const CopyProgram P = programOf({{1, 2, Len},
                                         {Len + 3, 2 * Len + 5, Len},
                                         {2 * Len + 7, 4 * Len + 9, Len}},
                                        3, 3 * Len + 10, 6 * Len + 12);
        expectLikeLoop(P, E, M, caseName("three runs", E, Len, M));
      }
}

// One run, repeated with strides: the fixed-length kernels' strided loop.
TEST(CopyKernels, OneRunRepeated) {
  for (std::size_t E : ElementSizes)
    for (int64_t Len : runLengths())
      for (std::size_t M : Misaligns) {
        const CopyProgram P = programOf({{3, 1, Len}}, 4, Len + 5, Len + 2);
        expectLikeLoop(P, E, M, caseName("one run", E, Len, M));
      }
}

// Runs of different lengths: each run's own size decides its copy.
TEST(CopyKernels, RunsOfMixedLengths) {
  for (std::size_t E : ElementSizes)
    for (int64_t Len : runLengths())
      for (std::size_t M : Misaligns) {
        const int64_t Next = Len + 1;
        const CopyProgram P = programOf({{0, 1, Len},
                                         {Len + 2, Len + 1, Next},
                                         {2 * Len + 5, 2 * Len + 4, 1}},
                                        2, 2 * Len + 9, 2 * Len + 8);
        expectLikeLoop(P, E, M, caseName("mixed runs", E, Len, M));
      }
}

} // namespace
