/*===- redist/scalapack.h - ScaLAPACK's PxGEMR2D, planned once -----------===*
 *
 * libredist_scalapack exports ScaLAPACK's matrix copy routines with
 * ScaLAPACK's exact arguments: the Fortran pdgemr2d_, psgemr2d_, pzgemr2d_,
 * pcgemr2d_, pigemr2d_ and p?trmr2d_, and the C Cpdgemr2d, ... declared
 * here; and PBLAS's p?tran_, p?tranu_, p?tranc_, p?geadd_ and p?tradd_
 * (Fortran only, as PBLAS's). Linked
 * ahead of ScaLAPACK it replaces them in an unchanged program; it still
 * needs ScaLAPACK's BLACS for the contexts. Each call moves the sub-matrix
 * with a redist::MatrixPlan, kept in a cache keyed by the descriptors, so a
 * loop that calls it with the same descriptors plans once
 * (docs/scalapack.md).
 *
 * Descriptors are ScaLAPACK's 9 integers (DTYPE, CTXT, M, N, MB, NB, RSRC,
 * CSRC, LLD); a process outside a matrix's grid passes CTXT = -1 in that
 * descriptor. IA, JA, IB, JB are 1-based. Every process of GCONTEXT, which
 * holds both grids, calls.
 *
 *===----------------------------------------------------------------------===*/
#ifndef REDIST_SCALAPACK_H
#define REDIST_SCALAPACK_H

#ifdef __cplusplus
extern "C" {
#endif

void Cpdgemr2d(int M, int N, double *A, int IA, int JA, int *DescA, double *B,
               int IB, int JB, int *DescB, int GContext);
void Cpsgemr2d(int M, int N, float *A, int IA, int JA, int *DescA, float *B,
               int IB, int JB, int *DescB, int GContext);
/* Complex elements: two doubles (z) or two floats (c) each. */
void Cpzgemr2d(int M, int N, void *A, int IA, int JA, int *DescA, void *B,
               int IB, int JB, int *DescB, int GContext);
void Cpcgemr2d(int M, int N, void *A, int IA, int JA, int *DescA, void *B,
               int IB, int JB, int *DescB, int GContext);
void Cpigemr2d(int M, int N, int *A, int IA, int JA, int *DescA, int *B, int IB,
               int JB, int *DescB, int GContext);

/* The trapezoid copies PxTRMR2D: UPLO 'U' or 'L', DIAG 'N' (copy the
 * diagonal) or 'U' (leave it), as ScaLAPACK's. */
void Cpdtrmr2d(const char *Uplo, const char *Diag, int M, int N, double *A,
               int IA, int JA, int *DescA, double *B, int IB, int JB,
               int *DescB, int GContext);
void Cpstrmr2d(const char *Uplo, const char *Diag, int M, int N, float *A,
               int IA, int JA, int *DescA, float *B, int IB, int JB, int *DescB,
               int GContext);
void Cpztrmr2d(const char *Uplo, const char *Diag, int M, int N, void *A,
               int IA, int JA, int *DescA, void *B, int IB, int JB, int *DescB,
               int GContext);
void Cpctrmr2d(const char *Uplo, const char *Diag, int M, int N, void *A,
               int IA, int JA, int *DescA, void *B, int IB, int JB, int *DescB,
               int GContext);
void Cpitrmr2d(const char *Uplo, const char *Diag, int M, int N, int *A, int IA,
               int JA, int *DescA, int *B, int IB, int JB, int *DescB,
               int GContext);

/* How many plans this process has built and how many calls reused one. */
void redist_scalapack_stats(long long *Plans, long long *Reused);

#ifdef __cplusplus
}
#endif

#endif /* REDIST_SCALAPACK_H */
