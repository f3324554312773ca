//===- CopyBytes.h - The copy of one run of bytes -------------------------===//
//
// Private to the runtime. Every copy of a run whose length is known only at
// run time goes through copyBytes(). Runs of 0.5-8 KiB, the runs of the
// long-run block-cyclic layouts and of the matrices' blocks, are copied by a
// plain loop of 32-byte moves where the CPU has AVX2: on an AMD EPYC glibc's
// memcpy took up to 1.5 times as long for them, depending on the distance
// between source and target within a page (docs/PERFORMANCE.md, twelfth
// pass). Other lengths, and other CPUs, use memcpy.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_COPYBYTES_H
#define REDIST_RUNTIME_COPYBYTES_H

#include <cstddef>
#include <cstring>

namespace redist {
namespace detail {

/// The lengths the vector loop copies: [VectorCopyMin, VectorCopyEnd).
constexpr std::size_t VectorCopyMin = 512, VectorCopyEnd = 8192;

/// Whether this CPU runs vectorCopy(); false where it was not compiled in.
extern const bool HasVectorCopy;

/// Bytes (at least 32) from From to To, which do not overlap, in 32-byte
/// moves. Call only where HasVectorCopy.
void vectorCopy(char *To, const char *From, std::size_t Bytes);

inline void copyBytes(char *To, const char *From, std::size_t Bytes) {
  if (Bytes >= VectorCopyMin && Bytes < VectorCopyEnd && HasVectorCopy)
    return vectorCopy(To, From, Bytes);
  std::memcpy(To, From, Bytes);
}

} // namespace detail
} // namespace redist

#endif
