// A rank whose vector does not hold its local part: every rank throws
// redist::InvalidArgument from the same directive (one collective decides),
// so none is left waiting in a step. Both paths, 4 ranks.
//
// RUN: redistc %s -o %t.static.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static | FileCheck --check-prefixes=CHECK,STATIC %s
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic | FileCheck --check-prefixes=CHECK,DYNAMIC %s
//
// CHECK: ranks: 4
// STATIC: rank 0 caught: size-mismatch.cpp:{{[0-9]+}}: on rank 1: the source vector holds 24 elements, its distribution gives this rank 25
// DYNAMIC: rank 0 caught: {{.*}}rank 1
// CHECK: 4 of 4 ranks caught the error

#include "check.h"

#include "redist/Error.h"

#include <mpi.h>

#include <cstdio>
#include <vector>

#pragma redist processors P(4)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<Elem> x = localPart(blockCyclic(3), 100, 4, Rank);
  if (Rank == 1)
    x.pop_back();
  int Caught = 0;
  try {
#pragma redist distribute x[100](cyclic(3)) onto P
#pragma redist redistribute x(block)
  } catch (const redist::InvalidArgument &E) {
    Caught = 1;
    if (Rank == 0)
      std::printf("rank 0 caught: %s\n", E.what());
  }
  int Total = 0;
  MPI_Reduce(&Caught, &Total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("%d of 4 ranks caught the error\n", Total);
  MPI_Finalize();
  return 0;
}
