// The static code hands all of a rank's messages within the node over at
// once, before the steps, where the slots of all fit in its largest message
// (Handover::AtOnce): here every rank sends two messages of more than two
// rings each, so both move together, each through slots of its own at an
// offset both ends compute. Every element is checked after every
// directive, and the runs must print the same: all 3 ranks on one node
// (all at once), two ranks on a node (one message at once, then the MPI
// steps), each rank its own node (MPI only), and the runtime path
// (--dynamic).
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 3 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: %mpirun -np 3 %t.static --ranks-per-node=2 | diff %t.static.out -
// RUN: %mpirun -np 3 %t.static --ranks-per-node=1 | diff %t.static.out -
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 3 %t.dynamic | diff %t.static.out -
//
// REPORT-COUNT-3: handover-at-once.cpp:{{[0-9]+}}:1: redistribute x: static;
//
// CHECK: ranks: 3
// CHECK-NEXT: cyclic(5): 1300007 elements, every element in place
// CHECK-NEXT: cyclic(1): 1300007 elements, every element in place
// CHECK-NEXT: cyclic(7): 1300007 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(3)

// 16-byte elements: a ring of four chunks holds 65536, and each of a rank's
// two messages about 144000.
constexpr std::int64_t N = 1300007;

int main(int argc, char **argv) {
  const int Rank = startTest(argc, argv);

  std::vector<Elem> x = localPart(blockCyclic(3), N, 3, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
#pragma redist redistribute x(cyclic(5))
  checkPart("cyclic(5)", x, blockCyclic(5), N, 3);
#pragma redist redistribute x(cyclic(1))
  checkPart("cyclic(1)", x, blockCyclic(1), N, 3);
#pragma redist redistribute x(cyclic(7))
  checkPart("cyclic(7)", x, blockCyclic(7), N, 3);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
