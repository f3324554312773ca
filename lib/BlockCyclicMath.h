//===- BlockCyclicMath.h - Integer helpers for block-cyclic closed forms --===//
//
// Private to the library. gcd, checked products, modular inverses and
// products modulo m that never overflow int64_t: the closed forms multiply
// process counts by block sizes, which users may choose near the int64 range.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_BLOCKCYCLICMATH_H
#define REDIST_LIB_BLOCKCYCLICMATH_H

#include <cstdint>
#include <optional>

namespace redist {
namespace detail {

/// 128-bit intermediates for products of two int64 values.
using Int128 = __int128;

inline int64_t gcd64(int64_t A, int64_t B) {
  if (A < 0)
    A = -A;
  if (B < 0)
    B = -B;
  while (B != 0) {
    int64_t T = A % B;
    A = B;
    B = T;
  }
  return A;
}

/// A * B, or nullopt when it does not fit in int64_t.
inline std::optional<int64_t> checkedMul(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_mul_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

/// lcm(A, B) for A, B > 0, or nullopt when it does not fit in int64_t.
inline std::optional<int64_t> checkedLcm(int64_t A, int64_t B) {
  return checkedMul(A / gcd64(A, B), B);
}

/// A mod M in [0, M), for M > 0 and any sign of A.
inline int64_t floorMod(Int128 A, int64_t M) {
  Int128 R = A % M;
  if (R < 0)
    R += M;
  return static_cast<int64_t>(R);
}

/// Floor of A / M for M > 0.
inline int64_t floorDiv(int64_t A, int64_t M) {
  int64_t Q = A / M;
  if (A % M != 0 && A < 0)
    --Q;
  return Q;
}

/// A * B mod M in [0, M), for M > 0.
inline int64_t mulMod(int64_t A, int64_t B, int64_t M) {
  return floorMod(static_cast<Int128>(A) * B, M);
}

/// The inverse of A modulo M, for gcd(A, M) = 1 and M > 0 (0 when M = 1).
/// Extended Euclid, keeping only the coefficient of A.
inline int64_t modInverse(int64_t A, int64_t M) {
  int64_t OldR = floorMod(A, M), R = M;
  int64_t OldX = 1, X = 0;
  while (R != 0) {
    int64_t Q = OldR / R;
    int64_t T = OldR - Q * R;
    OldR = R;
    R = T;
    Int128 TX = static_cast<Int128>(OldX) - static_cast<Int128>(Q) * X;
    OldX = X;
    X = floorMod(TX, M);
  }
  return floorMod(OldX, M);
}

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_BLOCKCYCLICMATH_H
