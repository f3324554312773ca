//===- MatrixBenchConfigs.h - The matrix benchmarks' configurations -------===//
//
// The three moves of an N x N matrix on 4 ranks that redist-matrix-bench
// and redist-scalapack-bench both time: 2x2 -> 4x1 with 64x64 blocks on
// both sides; 2x2 of 32x32 -> 2x2 of 100x100; 2x2 of 64x64 -> 1x4 columns
// (N x N/4 blocks), a square grid to 1-D columns.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_MATRIX_MATRIXBENCHCONFIGS_H
#define REDIST_BENCH_MATRIX_MATRIXBENCHCONFIGS_H

#include <vector>

namespace redist {
namespace bench {

/// A P0 x P1 row-major grid with MB x NB blocks.
struct Grid {
  int P0, P1, MB, NB;
};

struct Config {
  const char *Name;
  Grid From, To;
};

inline std::vector<Config> matrixBenchConfigs(int N) {
  return {{"2x2 64x64 -> 4x1 64x64", {2, 2, 64, 64}, {4, 1, 64, 64}},
          {"2x2 32x32 -> 2x2 100x100", {2, 2, 32, 32}, {2, 2, 100, 100}},
          {"2x2 64x64 -> 1x4 columns (N x N/4)",
           {2, 2, 64, 64},
           {1, 4, N, (N + 3) / 4}}};
}

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_MATRIX_MATRIXBENCHCONFIGS_H
