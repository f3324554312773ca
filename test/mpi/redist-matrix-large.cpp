//===- redist-matrix-large.cpp - A matrix of more than 2^31 elements ------===//
//
//   mpirun -np 2 redist-matrix-large ROWS COLS
//
// Moves a ROWS x COLS matrix of bytes, held by rank 0 (a 1x1 grid with
// 1000 x 777 blocks), to rank 1 (a 1x1 grid, 4096 x 64 blocks, padded
// leading dimension), so that the one message exceeds 2^31 elements when
// ROWS * COLS does, and checks every element. Prints one line; exits 1 on
// any error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/MatrixPlan.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace redist;

namespace {
unsigned char valueOf(int64_t I, int64_t J) {
  return static_cast<unsigned char>(I * 31 + J * 7 + (I >> 8) + (J >> 5));
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(2);
  if (argc < 3)
    MPI_Abort(MPI_COMM_WORLD, 2);
  const int64_t M = std::atoll(argv[1]), N = std::atoll(argv[2]);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const int64_t LD = M + 3;
  MatrixSide From{Layout2D::blockCyclic(M, N, 1, 1, 1000, 777), {0}, 0};
  MatrixSide To{Layout2D(Layout::blockCyclic(1, 4096, M),
                         Layout::blockCyclic(1, 64, N), GridOrder::RowMajor, 0,
                         0, LocalStorage{StorageOrder::ColumnMajor, LD}),
                {1},
                0};
  MatrixPlan Plan(From, To, 1, MPI_COMM_WORLD);
  std::vector<unsigned char> Src, Dst;
  if (Rank == 0) {
    Src.resize(static_cast<std::size_t>(M * N));
    for (int64_t J = 0; J < N; ++J)
      for (int64_t I = 0; I < M; ++I)
        Src[static_cast<std::size_t>(I + J * M)] = valueOf(I, J);
  } else {
    Dst.assign(static_cast<std::size_t>(Plan.targetStorageSize()), 0);
  }
  Plan.execute(Src.data(), Dst.data());
  int64_t Errors = 0;
  if (Rank == 1)
    for (int64_t J = 0; J < N; ++J)
      for (int64_t I = 0; I < M; ++I)
        Errors += Dst[static_cast<std::size_t>(I + J * LD)] != valueOf(I, J);
  int64_t Total = 0;
  MPI_Allreduce(&Errors, &Total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("redist-matrix-large: %lld x %lld bytes (%lld elements, "
                "%lld transfers from rank 0), %lld errors\n",
                static_cast<long long>(M), static_cast<long long>(N),
                static_cast<long long>(M * N),
                static_cast<long long>(Plan.transfers()),
                static_cast<long long>(Total));
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
