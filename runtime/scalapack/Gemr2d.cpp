//===- Gemr2d.cpp - ScaLAPACK's REDIST routines: PxGEMR2D, PxTRMR2D -------===//
//
// As ScaLAPACK's: a copy with M or N = 0 returns before anything else; the
// descriptors' DTYPE_ is never read, nor a grid's descriptor, IA or JA on a
// process outside that grid. PxTRMR2D copies a trapezoid whose diagonal
// ends at the sub-matrix's last row and column (ScaLAPACK's convention, not
// LAPACK's): with UPLO = 'U', column j (from 0) holds rows up to
// max(M - N, 0) + j, its diagonal included when DIAG = 'N'; with 'L', rows
// from j - max(N - M, 0), the diagonal excluded when DIAG = 'U'. Like
// ScaLAPACK, any UPLO but 'U' means lower, and only the case of the letters
// is ignored.
//
//===----------------------------------------------------------------------===//
#include "redist/scalapack.h"

#include "Engine.h"

#include <cctype>

namespace {

using namespace redist::scalapack;

void gemr2d(const char *Routine, std::size_t ElementBytes, int M, int N,
            const void *A, int IA, int JA, const int *DescA, void *B, int IB,
            int JB, const int *DescB, int Context) {
  countCall(Routine);
  if (M == 0 || N == 0)
    return;
  Move Mv{Routine, ElementBytes, M,  N,     A,      IA, JA, DescA,
          B,       IB,           JB, DescB, Context};
  Mv.Args = {{"M", M}, {"N", N}};
  move(Mv);
}

void trmr2d(const char *Routine, std::size_t ElementBytes, const char *Uplo,
            const char *Diag, int M, int N, const void *A, int IA, int JA,
            const int *DescA, void *B, int IB, int JB, const int *DescB,
            int Context) {
  countCall(Routine);
  if (M == 0 || N == 0)
    return;
  const bool Upper = std::toupper(static_cast<unsigned char>(*Uplo)) == 'U';
  const char D =
      static_cast<char>(std::toupper(static_cast<unsigned char>(*Diag)));
  Move Mv{Routine, ElementBytes, M,  N,     A,      IA, JA, DescA,
          B,       IB,           JB, DescB, Context};
  // Row i of column j moves when i - j lies in the band.
  if (Upper) {
    Mv.DiagonalEnd = std::max(M - N, 0) + (D == 'N');
  } else {
    Mv.DiagonalBegin = (D == 'U') - std::max(N - M, 0);
  }
  Mv.Args = {{"M", M}, {"N", N}, {"UPLO", Upper}, {"DIAG", D}};
  move(Mv);
}

} // namespace

extern "C" {

#define REDIST_GEMR2D(P, T, BYTES)                                             \
  void Cp##P##gemr2d(int M, int N, T *A, int IA, int JA, int *DescA, T *B,     \
                     int IB, int JB, int *DescB, int Context) {                \
    gemr2d("p" #P "gemr2d", BYTES, M, N, A, IA, JA, DescA, B, IB, JB, DescB,   \
           Context);                                                           \
  }                                                                            \
  void p##P##gemr2d_(int *M, int *N, T *A, int *IA, int *JA, int *DescA, T *B, \
                     int *IB, int *JB, int *DescB, int *Context) {             \
    gemr2d("p" #P "gemr2d", BYTES, *M, *N, A, *IA, *JA, DescA, B, *IB, *JB,    \
           DescB, *Context);                                                   \
  }                                                                            \
  void Cp##P##trmr2d(const char *Uplo, const char *Diag, int M, int N, T *A,   \
                     int IA, int JA, int *DescA, T *B, int IB, int JB,         \
                     int *DescB, int Context) {                                \
    trmr2d("p" #P "trmr2d", BYTES, Uplo, Diag, M, N, A, IA, JA, DescA, B, IB,  \
           JB, DescB, Context);                                                \
  }                                                                            \
  void p##P##trmr2d_(const char *Uplo, const char *Diag, int *M, int *N, T *A, \
                     int *IA, int *JA, int *DescA, T *B, int *IB, int *JB,     \
                     int *DescB, int *Context) {                               \
    trmr2d("p" #P "trmr2d", BYTES, Uplo, Diag, *M, *N, A, *IA, *JA, DescA, B,  \
           *IB, *JB, DescB, *Context);                                         \
  }

REDIST_GEMR2D(d, double, sizeof(double))
REDIST_GEMR2D(s, float, sizeof(float))
REDIST_GEMR2D(z, void, 2 * sizeof(double))
REDIST_GEMR2D(c, void, 2 * sizeof(float))
REDIST_GEMR2D(i, int, sizeof(int))

} // extern "C"
