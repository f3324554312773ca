//===- gemr2d-errors.cpp - Bad PxGEMR2D arguments abort the job -----------===//
//
//   mpirun -np 4 gemr2d-errors CASE
//
// One ScaLAPACK program linked with libredist_scalapack first, which makes
// one Cpdgemr2d call with bad arguments, chosen by CASE (see main). As
// ScaLAPACK's own checks (pxerbla) do, the library prints what is wrong on
// the first process and aborts the job with MPI_Abort; the program must
// never get past the call. Ranks outside the call wait in a barrier, so a
// rank that went on alone would hang instead of exiting.
//
//===----------------------------------------------------------------------===//
#include "Blacs.h"
#include "redist/scalapack.h"

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

/// A 20 x 20 matrix of 4 x 4 blocks on Context, with a valid descriptor
/// (CTXT = -1 outside the grid) and local storage.
struct Matrix {
  int Desc[9] = {1, -1, 20, 20, 4, 4, 0, 0, 1};
  std::vector<double> Data = std::vector<double>(400, 1.0);
  explicit Matrix(int Context) {
    int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
    Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
    if (MyRow < 0)
      return;
    const int LocR = numroc_(&Desc[2], &Desc[4], &MyRow, &Desc[6], &NpRow);
    Desc[1] = Context;
    Desc[8] = LocR > 1 ? LocR : 1;
  }
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0, Procs = 0;
  Cblacs_pinfo(&Rank, &Procs);
  if (Procs != 4 || argc != 2) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: mpirun -np 4 gemr2d-errors CASE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string Case = argv[1];
  int System = 0;
  Cblacs_get(-1, 0, &System);
  int All = System, G22 = System, G41 = System, G12 = System;
  Cblacs_gridinit(&All, "R", 1, 4);
  Cblacs_gridinit(&G22, "R", 2, 2);
  Cblacs_gridinit(&G41, "R", 4, 1);
  int Map12[2] = {0, 1};
  Cblacs_gridmap(&G12, Map12, 1, 1, 2);

  Matrix A(G22), B(G41);
  int M = 10, N = 10, IA = 1, JA = 1, IB = 1, JB = 1, Context = All;
  // Cases that ScaLAPACK accepts, or that go wrong only in a later call
  // with the same descriptors (a cached plan), first call the good copy.
  int Good = 0;
  if (Case == "accepted") {
    // ScaLAPACK never reads DTYPE_, nor IA and JA on a process outside A's
    // grid; LLD_ = 0 is enough for a process without rows (B: 4 rows in
    // blocks of 4 on 4 process rows).
    A.Desc[0] = Rank == 1 ? 0 : 7;
    B.Desc[0] = -3;
    B.Desc[2] = 4;
    M = 4;
    if (Rank != 0)
      B.Desc[8] = 0;
    Good = 1;
  } else if (Case == "cached-leading-dimension") {
    Good = 1; // then LLD_A too small on process (1, 0)
  } else if (Case == "cached-descriptors-differ") {
    Good = 1; // then another N_B on one process
  } else if (Case == "block-size") {
    A.Desc[4] = 0; // MB_A
  } else if (Case == "source-process") {
    B.Desc[6] = 4; // RSRC_B on a grid of 4 process rows
  } else if (Case == "leading-dimension") {
    if (Rank == 2)
      A.Desc[8] = 3; // LLD_A below the 8 local rows of process (1, 0)
  } else if (Case == "descriptors-differ") {
    if (Rank == 3)
      B.Desc[3] = 21; // N_B on one process of B's grid
  } else if (Case == "outside-context") {
    // A's grid holds ranks 2 and 3, which are not in ICTXT.
    Context = G12;
  } else if (Case == "arguments-differ") {
    if (Rank == 1)
      M = 11;
  } else if (Case == "negative-m") {
    M = -1;
  } else if (Case == "sub-matrix") {
    IB = 12; // rows 12 .. 21 of a 20-row B
  } else {
    if (Rank == 0)
      std::fprintf(stderr, "gemr2d-errors: unknown case %s\n", Case.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int Row = -1, Col = -1, NpRow = 0, NpCol = 0;
  Cblacs_gridinfo(Context, &NpRow, &NpCol, &Row, &Col);
  for (int Call = 0; Call < Good + 1; ++Call) {
    if (Call == 1 && Case == "cached-leading-dimension" && Rank == 2)
      A.Desc[8] = 3;
    if (Call == 1 && Case == "cached-descriptors-differ" && Rank == 3)
      B.Desc[3] = 21;
    if (Row >= 0) // ScaLAPACK: only ICTXT's processes call
      Cpdgemr2d(M, N, A.Data.data(), IA, JA, A.Desc, B.Data.data(), IB, JB,
                B.Desc, Context);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("gemr2d-errors: %s: no error\n", Case.c_str());
  MPI_Finalize();
  return 0;
}
