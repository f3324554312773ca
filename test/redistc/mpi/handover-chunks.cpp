// The static code's handover within a node (the runtime's NodeHandover)
// on messages of several 256 KiB chunks: chunk boundaries fall inside
// slices and pieces, on both sides. Every element is checked after every
// directive, and the runs must print the same: all 4 ranks on one node
// (every message handed over), each rank its own node (every message over
// MPI, --ranks-per-node=1), two ranks per node (steps mixing both), rank 1
// failing to create its ring (the node falls back to MPI,
// --ring-fails-on=1), and the runtime path (--dynamic).
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: %mpirun -np 4 %t.static --ranks-per-node=1 | diff %t.static.out -
// RUN: %mpirun -np 4 %t.static --ranks-per-node=2 | diff %t.static.out -
// RUN: %mpirun -np 4 %t.static --ring-fails-on=1 | diff %t.static.out -
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic | diff %t.static.out -
//
// REPORT-COUNT-5: handover-chunks.cpp:{{[0-9]+}}:1: redistribute x: static;
//
// CHECK: ranks: 4
// CHECK-NEXT: cyclic(5): 1000003 elements, every element in place
// CHECK-NEXT: cyclic(8): 1000003 elements, every element in place
// CHECK-NEXT: cyclic(1): 1000003 elements, every element in place
// CHECK-NEXT: cyclic(64): 1000003 elements, every element in place
// CHECK-NEXT: cyclic(96): 1000003 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(4)

// 16-byte elements: a chunk holds 16384, a message about 62500. Prime-ish,
// so that every layout has a tail.
constexpr std::int64_t N = 1000003;

int main(int argc, char **argv) {
  const int Rank = startTest(argc, argv);

  std::vector<Elem> x = localPart(blockCyclic(3), N, 4, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
  // Short mixed runs on both sides.
#pragma redist redistribute x(cyclic(5))
  checkPart("cyclic(5)", x, blockCyclic(5), N, 4);
  // Runs of up to 5 on the senders, up to 8 on the receivers.
#pragma redist redistribute x(cyclic(8))
  checkPart("cyclic(8)", x, blockCyclic(8), N, 4);
  // Single elements on the receivers.
#pragma redist redistribute x(cyclic(1))
  checkPart("cyclic(1)", x, blockCyclic(1), N, 4);
  // Long uniform runs.
#pragma redist redistribute x(cyclic(64))
  checkPart("cyclic(64)", x, blockCyclic(64), N, 4);
#pragma redist redistribute x(cyclic(96))
  checkPart("cyclic(96)", x, blockCyclic(96), N, 4);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
