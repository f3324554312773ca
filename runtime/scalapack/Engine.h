//===- Engine.h - One ScaLAPACK-style call, planned once ------*- C++ -*-===//
//
// Private to libredist_scalapack. Every routine it exports (the REDIST
// copies, the PBLAS transposes and sums) is one call of move(): a
// sub-matrix of A, optionally transposed, optionally only a band of its
// diagonals (a trapezoid), written into B, optionally combined with what B
// holds. move() agrees on the call across ICTXT's processes, checks it as
// ScaLAPACK does, and runs a cached redist::MatrixPlan (docs/scalapack.md).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_SCALAPACK_ENGINE_H
#define REDIST_RUNTIME_SCALAPACK_ENGINE_H

#include "redist/runtime/MatrixPlan.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace redist {
namespace scalapack {

/// ScaLAPACK's descriptor entries (9 integers, DTYPE_ = 1).
enum Desc { Dtype, Ctxt, DescM, DescN, Mb, Nb, Rsrc, Csrc, Lld, DescLen };

/// One call.
struct Move {
  const char *Routine; ///< "pdgemr2d", for messages and the trace
  std::size_t ElementBytes;
  /// The source sub-matrix: Rows x Cols of A at (IA, JA), 1-based; B's is
  /// its transpose with Transpose.
  int Rows, Cols;
  const void *A;
  int IA, JA;
  const int *DescA; ///< DESCA as 9 entries (DTYPE_ is not read)
  void *B;
  int IB, JB;
  const int *DescB;
  /// The context holding both grids; every process of it calls.
  int Context;
  bool Transpose = false;
  /// Only these diagonals of the source sub-matrix (MatrixRegion).
  int64_t DiagonalBegin = INT64_MIN, DiagonalEnd = INT64_MAX;
  /// Combine into B instead of copying, or null.
  const Combine *Combining = nullptr;
  /// The arguments every process must pass alike (M, N, UPLO, ...), with
  /// their names for the error message.
  std::vector<std::pair<const char *, long long>> Args = {};
};

/// Moves as M says; collective over M.Context's processes. A process outside
/// the context returns at once. Invalid arguments print what is wrong on
/// the first process and abort the job, as ScaLAPACK's checks stop it.
void move(const Move &M);

/// Counts a call of Routine for REDIST_SCALAPACK_TRACE=count, which prints
/// the counts at exit.
void countCall(const char *Routine);

} // namespace scalapack
} // namespace redist

#endif // REDIST_RUNTIME_SCALAPACK_ENGINE_H
