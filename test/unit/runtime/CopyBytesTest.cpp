//===- CopyBytesTest.cpp - copyBytes and its vector loop against memcpy ---===//
//
// copyBytes (runtime/CopyBytes.h) copies runs of 0.5-8 KiB with a loop of
// 32-byte moves whose last move overlaps the one before. Every length around
// the loop's steps and the range's ends, at source and target offsets spread
// over a cache line, must give exactly the source's bytes, and leave the
// bytes on either side of the target as they were.
//
//===----------------------------------------------------------------------===//
#include "CopyBytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {
using namespace redist::detail;

using Copier = void (*)(char *, const char *, std::size_t);

/// Copies Bytes with Copy between offsets FromAt and ToAt of two buffers,
/// and checks the target against the source and its surroundings.
void expectCopy(Copier Copy, std::size_t Bytes, std::size_t FromAt,
                std::size_t ToAt) {
  const std::size_t Margin = 64;
  ASSERT_LT(Bytes, std::size_t(1) << 20); // and GCC knows the sizes are sane
  std::vector<char> From(Bytes + 2 * Margin), To(Bytes + 2 * Margin);
  for (std::size_t I = 0; I < From.size(); ++I) {
    From[I] = static_cast<char>((I * 2654435761u) >> 13);
    To[I] = static_cast<char>(~From[I]);
  }
  const std::vector<char> Before = To;
  Copy(To.data() + ToAt, From.data() + FromAt, Bytes);
  for (std::size_t I = 0; I < To.size(); ++I) {
    const bool Inside = I >= ToAt && I < ToAt + Bytes;
    const char Want = Inside ? From[I - ToAt + FromAt] : Before[I];
    ASSERT_EQ(To[I], Want) << "byte " << I << " of a copy of " << Bytes
                           << " bytes from offset " << FromAt << " to " << ToAt;
  }
}

std::vector<std::size_t> lengthsAround(std::size_t Low, std::size_t High) {
  std::vector<std::size_t> Lengths;
  for (std::size_t N = Low; N < High; N += 97)
    Lengths.push_back(N);
  for (std::size_t Edge :
       {VectorCopyMin, VectorCopyEnd, std::size_t(1024), std::size_t(4096)})
    for (std::size_t N = Edge - 40; N <= Edge + 40; ++N)
      if (N >= Low && N < High)
        Lengths.push_back(N);
  return Lengths;
}

TEST(CopyBytesTest, EveryLengthAndOffset) {
  for (std::size_t N : lengthsAround(0, VectorCopyEnd + 200))
    for (std::size_t FromAt : {0, 1, 7, 32, 63})
      for (std::size_t ToAt : {0, 3, 31, 64})
        expectCopy(copyBytes, N, FromAt, ToAt);
}

// The loop itself, for every length it may be given (at least 32), where
// the CPU runs it; copyBytes above hands it only the lengths it is chosen
// for.
TEST(CopyBytesTest, VectorLoop) {
  if (!HasVectorCopy)
    GTEST_SKIP() << "no AVX2 on this CPU: copyBytes uses memcpy alone";
  for (std::size_t N : lengthsAround(32, VectorCopyEnd + 200))
    for (std::size_t FromAt : {0, 5, 32})
      for (std::size_t ToAt : {0, 9, 33})
        expectCopy(vectorCopy, N, FromAt, ToAt);
}

} // namespace
