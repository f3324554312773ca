// Verification helpers of the end-to-end programs. Each element carries its
// global index; a check compares a rank's local part with the global indices
// the HPF definitions of the format put there, in local order. The expected
// layout is computed here from the definitions, not with redist's own index
// maps, so that the check is independent of the code under test.
#ifndef REDISTC_TEST_CHECK_H
#define REDISTC_TEST_CHECK_H

#include <redist/runtime/Translated.h>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct Elem {
  std::int64_t Global;
  std::int32_t Tag; // a function of Global: catches partial copies
  bool operator==(const Elem &O) const {
    return Global == O.Global && Tag == O.Tag;
  }
};

inline Elem makeElem(std::int64_t G) {
  return Elem{G, static_cast<std::int32_t>((G * 7919) % 10007)};
}

/// A format as the test sees it: block-cyclic with block size B, or
/// gen_block with explicit sizes (B = 0).
struct TestFormat {
  std::int64_t B;
  std::vector<std::int64_t> Sizes;
};

inline TestFormat blockCyclic(std::int64_t B) { return TestFormat{B, {}}; }
inline TestFormat blockOf(std::int64_t N, std::int64_t P) {
  return TestFormat{N == 0 ? 1 : (N + P - 1) / P, {}};
}
inline TestFormat genBlock(std::vector<std::int64_t> Sizes) {
  return TestFormat{0, Sizes};
}

/// The global indices rank Rank holds, in local order.
inline std::vector<std::int64_t>
expectedGlobals(const TestFormat &F, std::int64_t N, std::int64_t P, int Rank) {
  std::vector<std::int64_t> Out;
  if (F.B == 0) {
    std::int64_t Begin = 0;
    for (int R = 0; R < Rank && R < static_cast<int>(F.Sizes.size()); ++R)
      Begin += F.Sizes[R];
    if (Rank < static_cast<int>(F.Sizes.size()))
      for (std::int64_t G = Begin; G < Begin + F.Sizes[Rank]; ++G)
        Out.push_back(G);
    return Out;
  }
  // Element G belongs to rank (G / B) % P; a rank's elements are stored in
  // increasing global order.
  for (std::int64_t G = 0; G < N; ++G)
    if ((G / F.B) % P == Rank)
      Out.push_back(G);
  return Out;
}

/// This rank's part of a freshly distributed array.
inline std::vector<Elem> localPart(const TestFormat &F, std::int64_t N,
                                   std::int64_t P, int Rank) {
  std::vector<Elem> Out;
  for (std::int64_t G : expectedGlobals(F, N, P, Rank))
    Out.push_back(makeElem(G));
  return Out;
}

/// Adds up every rank's Errors and Count; rank 0 prints one line for them.
/// Collective.
inline bool reportCheck(const char *Label, long Errors, std::int64_t Count) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  long Total = 0, Elements = 0, Mine = static_cast<long>(Count);
  MPI_Allreduce(&Errors, &Total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&Mine, &Elements, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("%s: %ld elements, %s\n", Label, Elements,
                Total == 0 ? "every element in place" : "MISPLACED");
  return Total == 0;
}

/// Checks the Count local elements at Data on every rank; rank 0 prints one
/// line with the total number of misplaced elements. Collective.
inline bool checkPart(const char *Label, const Elem *Data, std::int64_t Count,
                      const TestFormat &F, std::int64_t N, std::int64_t P) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<std::int64_t> Want = expectedGlobals(F, N, P, Rank);
  long Errors = 0;
  if (Count != static_cast<std::int64_t>(Want.size()))
    Errors += 1 + static_cast<long>(Want.size());
  else
    for (std::int64_t L = 0; L < Count; ++L)
      if (!(Data[L] == makeElem(Want[L])))
        ++Errors;
  return reportCheck(Label, Errors, Count);
}

inline bool checkPart(const char *Label, const std::vector<Elem> &V,
                      const TestFormat &F, std::int64_t N, std::int64_t P) {
  return checkPart(Label, V.data(), static_cast<std::int64_t>(V.size()), F, N,
                   P);
}

/// A matrix as the test sees it: M x N, rows by format Rows over P0 grid
/// rows, columns by Cols over P1 grid columns; process (i, j) is rank
/// i * P1 + j, or i + j * P0 when ColumnMajor.
struct TestMatrix {
  TestFormat Rows, Cols;
  std::int64_t M, N, P0, P1;
  bool ColumnMajor = false;
};

/// Rank's local matrix, column-major with the leading dimension its number
/// of rows: element (i, j) carries global index i * N + j.
inline std::vector<Elem> expectedMatrix(const TestMatrix &T, int Rank) {
  std::vector<Elem> Out;
  if (Rank >= T.P0 * T.P1)
    return Out;
  const int Row = static_cast<int>(T.ColumnMajor ? Rank % T.P0 : Rank / T.P1);
  const int Col = static_cast<int>(T.ColumnMajor ? Rank / T.P0 : Rank % T.P1);
  const std::vector<std::int64_t> Rows =
                                      expectedGlobals(T.Rows, T.M, T.P0, Row),
                                  Cols =
                                      expectedGlobals(T.Cols, T.N, T.P1, Col);
  for (std::int64_t J : Cols)
    for (std::int64_t I : Rows)
      Out.push_back(makeElem(I * T.N + J));
  return Out;
}

/// Checks every rank's local matrix V against T; rank 0 prints one line.
/// Collective.
inline bool checkMatrix(const char *Label, const std::vector<Elem> &V,
                        const TestMatrix &T) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const std::vector<Elem> Want = expectedMatrix(T, Rank);
  long Errors =
      V.size() == Want.size() ? 0 : 1 + static_cast<long>(Want.size());
  for (std::size_t L = 0; Errors == 0 && L < V.size(); ++L)
    Errors += !(V[L] == Want[L]);
  return reportCheck(Label, Errors, static_cast<std::int64_t>(V.size()));
}

/// Applies the program's options to every directive's plan:
/// --ranks-per-node=K (PlanOptions::RanksPerNode) and --ring-fails-on=R
/// (PlanOptions::FailRingOnRank), so that one machine runs the mixes of
/// shared-memory and MPI messages of several nodes.
inline void applyNodeOptions(int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    const char *A = argv[I];
    if (std::strncmp(A, "--ranks-per-node=", 17) == 0)
      redist::directiveOptions().RanksPerNode = std::atoi(A + 17);
    else if (std::strncmp(A, "--ring-fails-on=", 16) == 0)
      redist::directiveOptions().FailRingOnRank = std::atoi(A + 16);
  }
}

/// Prints the communicator size: a binary launched by another MPI's mpirun
/// runs as separate 1-rank jobs, and the checks must notice.
inline int worldSize() {
  int Size = 0, Rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0)
    std::printf("ranks: %d\n", Size);
  return Size;
}

/// Starts a test program: MPI_Init, the node options, the communicator size
/// printed. Returns this rank.
inline int startTest(int &argc, char **&argv) {
  MPI_Init(&argc, &argv);
  applyNodeOptions(argc, argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  return Rank;
}

#endif // REDISTC_TEST_CHECK_H
