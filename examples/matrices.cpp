//===- matrices.cpp - redist's matrix example: multiply, then hand over ---===//
//
// A matrix product C = A * B computed in one layout and handed to a phase
// that wants another:
//   phase 1 multiplies by block rows: on a 4 x 1 grid each process computes
//     its block of rows of C, which needs only its rows of A and all of B
//     (both generated from closed forms here, as a solver would read them);
//   phase 2 wants C as ScaLAPACK keeps it, 2-D block-cyclic with 8 x 8
//     blocks on a 2 x 2 grid, and works on its local blocks: each process
//     sums its part of every column, and the grid adds the sums up.
// One directive moves C between the two; redistc computes its schedule at
// build time (every parameter is constant). A second directive, with a
// block size read from the command line, goes through the runtime. After
// each, every process checks each of its elements, column-major with its
// leading dimension, against the product's closed form; `inquire` gives the
// matrix's current layout, a rank-2 redist::ArrayLayout.
//
// Build and run: see examples/CMakeLists.txt and docs/directives.md.
//
//===----------------------------------------------------------------------===//

#include "redist/ArrayLayout.h"
#include "redist/runtime/LocalPart.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// The processes: a column of 4 for phase 1, a 2 x 2 grid for phase 2.
#pragma redist processors Rows(4, 1)
#pragma redist processors Grid(2, 2)

constexpr int P = 4;
constexpr std::int64_t M = 96, K = 40, N = 72;

namespace {

int Rank = 0;

// The factors, small integers so that every product is exact in double.
double a(std::int64_t I, std::int64_t L) {
  return static_cast<double>((I + 2 * L) % 7 - 3);
}
double b(std::int64_t L, std::int64_t J) {
  return static_cast<double>((L * J + 1) % 5 - 2);
}
double product(std::int64_t I, std::int64_t J) {
  double Sum = 0;
  for (std::int64_t L = 0; L < K; ++L)
    Sum += a(I, L) * b(L, J);
  return Sum;
}

/// The M x N matrix with Rows over the P0 grid rows and Cols over the P1
/// grid columns; each process's part column-major, its leading dimension its
/// local rows (the default storage, a directive's too).
redist::ArrayLayout matrix(redist::DimFormat Rows, redist::DimFormat Cols,
                           std::int64_t P0, std::int64_t P1) {
  return redist::ArrayLayout({M, N}, {std::move(Rows), std::move(Cols)},
                             {P0, P1});
}

/// Calls F(I, J, At) for every element (I, J) of this rank's local matrix
/// under Layout, at index At of its column-major storage.
template <typename Fn>
void forEachLocal(const redist::ArrayLayout &Layout, Fn F) {
  if (Rank >= Layout.procs())
    return;
  const std::vector<std::int64_t> Local = Layout.localExtents(Rank),
                                  Strides = Layout.strides(Rank);
  for (std::int64_t LocalCol = 0; LocalCol < Local[1]; ++LocalCol)
    for (std::int64_t LocalRow = 0; LocalRow < Local[0]; ++LocalRow) {
      const std::int64_t Offset = LocalRow * Strides[0] + LocalCol * Strides[1];
      const std::vector<std::int64_t> Index = Layout.toGlobal(Rank, Offset);
      F(Index[0], Index[1], static_cast<std::size_t>(Offset));
    }
}

/// Checks every local element of C, stored as Layout says (column-major
/// with its leading dimension), against the product; rank 0 prints the
/// total. Collective.
void check(const std::vector<double> &C, const redist::ArrayLayout &Layout) {
  long Right = 0, Held = static_cast<long>(C.size());
  forEachLocal(Layout, [&](std::int64_t I, std::int64_t J, std::size_t At) {
    Right += C[At] == product(I, J);
  });
  long TotalRight = 0, TotalHeld = 0;
  MPI_Reduce(&Right, &TotalRight, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&Held, &TotalHeld, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("  check: %ld of %lld elements of C in place, %ld held%s\n",
                TotalRight, static_cast<long long>(M * N), TotalHeld,
                TotalRight == M * N && TotalHeld == M * N ? "" : "  <-- WRONG");
}

/// Phase 2: the column sums of C from the local blocks of Layout, a 2-D
/// grid's, added up over the grid. Returns how many match the product's.
long columnSums(const std::vector<double> &C,
                const redist::ArrayLayout &Layout) {
  std::vector<double> Sums(static_cast<std::size_t>(N), 0.0);
  forEachLocal(Layout, [&](std::int64_t, std::int64_t J, std::size_t At) {
    Sums[static_cast<std::size_t>(J)] += C[At];
  });
  MPI_Allreduce(MPI_IN_PLACE, Sums.data(), static_cast<int>(N), MPI_DOUBLE,
                MPI_SUM, MPI_COMM_WORLD);
  long Right = 0;
  for (std::int64_t J = 0; J < N; ++J) {
    double Want = 0;
    for (std::int64_t I = 0; I < M; ++I)
      Want += product(I, J);
    Right += Sums[static_cast<std::size_t>(J)] == Want;
  }
  return Right;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Size < P) {
    if (Rank == 0)
      std::fprintf(stderr, "run on at least %d MPI processes (got %d)\n", P,
                   Size);
    MPI_Finalize();
    return 1;
  }
  // Phase 2's second block size, known at run time only.
  const std::int64_t NB = argc > 1 ? std::atoll(argv[1]) : 12;
  if (Rank == 0)
    std::printf("redist matrix example: C = A * B, %lld x %lld doubles, on "
                "%d processes (%d ranks)\n",
                static_cast<long long>(M), static_cast<long long>(N), P, Size);

  // Phase 1, by block rows: this process's rows of C, column-major with
  // the leading dimension its number of rows.
  const redist::ArrayLayout ByRows =
      matrix(redist::DimFormat::block(), redist::DimFormat::block(), P, 1);
  std::vector<double> C(
      Rank < P ? static_cast<std::size_t>(ByRows.storageSize(Rank)) : 0);
  forEachLocal(ByRows, [&](std::int64_t I, std::int64_t J, std::size_t At) {
    C[At] = product(I, J);
  });
#pragma redist distribute C[M][N](block, block) onto Rows
  if (Rank == 0)
    std::printf("phase 1 (multiply by block rows) on a 4 x 1 grid\n");
  check(C, ByRows);

  // Phase 2 wants ScaLAPACK's layout: 8 x 8 blocks on the 2 x 2 grid.
#pragma redist redistribute C(cyclic(8), cyclic(8)) onto Grid
  // C's layout as of here, without writing it out again.
#pragma redist inquire C into BlockCyclic
  if (Rank == 0)
    std::printf("redistribute C(cyclic(8), cyclic(8)) onto Grid: %s\n",
                BlockCyclic.str().c_str());
  check(C, BlockCyclic.layout());
  const long Sums = columnSums(C, BlockCyclic.layout());
  if (Rank == 0)
    std::printf("phase 2 (column sums from local blocks): %ld of %lld "
                "right\n",
                Sums, static_cast<long long>(N));

    // A block size known at run time: the runtime plans this one.
#pragma redist redistribute C(cyclic(NB), cyclic(NB))
#pragma redist inquire C into Now
  if (Rank == 0)
    std::printf("redistribute C(cyclic(NB), cyclic(NB)), NB = %lld: %s\n",
                static_cast<long long>(NB), Now.str().c_str());
  // Checked against ScaLAPACK's layout of these blocks, written out.
  check(C, matrix(redist::DimFormat::cyclic(NB), redist::DimFormat::cyclic(NB),
                  2, 2));

  MPI_Finalize();
  return 0;
}
