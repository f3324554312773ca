//===- CopyBytes.cpp - The vector loop for runs of 0.5-8 KiB --------------===//
//
// The runtime is built for the baseline of its target; the loop is compiled
// for AVX2 alone and chosen once, when the library loads, by the CPU's
// feature bits.
//
//===----------------------------------------------------------------------===//
#include "CopyBytes.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define REDIST_HAVE_VECTOR_COPY 1
#endif

namespace redist {
namespace detail {

#ifdef REDIST_HAVE_VECTOR_COPY

// Initialised among the constructors, perhaps before the CPU model's own.
const bool HasVectorCopy = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();

// Helpers would need the target attribute too; the moves are spelled out.
__attribute__((target("avx2"))) void vectorCopy(char *To, const char *From,
                                                std::size_t Bytes) {
  using V = __m256i;
  std::size_t I = 0;
  for (; I + 128 <= Bytes; I += 128) {
    const V A = _mm256_loadu_si256(reinterpret_cast<const V *>(From + I));
    const V B = _mm256_loadu_si256(reinterpret_cast<const V *>(From + I + 32));
    const V C = _mm256_loadu_si256(reinterpret_cast<const V *>(From + I + 64));
    const V D = _mm256_loadu_si256(reinterpret_cast<const V *>(From + I + 96));
    _mm256_storeu_si256(reinterpret_cast<V *>(To + I), A);
    _mm256_storeu_si256(reinterpret_cast<V *>(To + I + 32), B);
    _mm256_storeu_si256(reinterpret_cast<V *>(To + I + 64), C);
    _mm256_storeu_si256(reinterpret_cast<V *>(To + I + 96), D);
  }
  for (; I + 32 <= Bytes; I += 32)
    _mm256_storeu_si256(
        reinterpret_cast<V *>(To + I),
        _mm256_loadu_si256(reinterpret_cast<const V *>(From + I)));
  // The last 32 bytes again, overlapping what is copied: no byte loop.
  if (I < Bytes)
    _mm256_storeu_si256(
        reinterpret_cast<V *>(To + Bytes - 32),
        _mm256_loadu_si256(reinterpret_cast<const V *>(From + Bytes - 32)));
}

#else

const bool HasVectorCopy = false;

void vectorCopy(char *To, const char *From, std::size_t Bytes) {
  std::memcpy(To, From, Bytes);
}

#endif

} // namespace detail
} // namespace redist
