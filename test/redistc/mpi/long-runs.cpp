// Long runs: a message side whose runs average at least
// redist::AutoDatatypeRunBytes goes straight from or into the array with an
// MPI derived datatype, which the runtime's executor builds from the static
// tables' run series; the other side of the same message may still be copied
// through a buffer. Short mixed runs go element by element. Every element is
// checked after every directive, and the runtime path (--dynamic) must print
// the same. The datatypes move messages between nodes: on one node the ranks
// hand their messages over through shared memory instead, so the program
// also runs with each rank taken for a node of its own (--ranks-per-node=1).
//
// RUN: redistc %s -o %t.static.cpp -- -I%S/Inputs
// RUN: grep -Ev '^// (RUN|CODE|CHECK)' %t.static.cpp | FileCheck --check-prefix=CODE %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: %mpirun -np 4 %t.static --ranks-per-node=1 | diff %t.static.out -
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic > %t.dynamic.out
// RUN: diff %t.static.out %t.dynamic.out
//
// cyclic(64) -> cyclic(96): runs of 32 and 64 elements of 16 bytes on both
// sides, one series each (the tail of N = 5000 has its own).
// CODE:      redistribute x(cyclic(96)): static,
// CODE:      static constexpr redist::RunSeries redistc_series[] = {
// CODE-NEXT: {0, 0, 64, 0, 0, 1}, {1152, 1152, 64, 0, 0, 1}, {64, 32, 64, 0, 0, 1},
// cyclic(96) on 4 -> cyclic(2) on 2: each sender's runs are 2 elements, 4
// apart; each receiver's 48, as series of 24 runs of 2.
// CODE:      redistribute x(cyclic(2)) onto Q: static,
// CODE:      static constexpr redist::RunSeries redistc_series[] = {
// CODE-NEXT: {0, 0, 2, 4, 2, 24},
// CODE:      {redist::DistKind::Cyclic, 4, 96, nullptr},
// CODE-NEXT: {redist::DistKind::Cyclic, 2, 2, nullptr},
// cyclic(3) -> cyclic(5): short runs only.
// CODE:      redistribute x(cyclic(5)): static,
//
// CHECK: ranks: 4
// CHECK-NEXT: redistribute x cyclic(96): 5000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(2) onto Q: 5000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(96) onto P: 5000 elements, every element in place
// CHECK-NEXT: again cyclic(64): 5000 elements, every element in place
// CHECK-NEXT: again cyclic(96): 5000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(3): 5000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(5): 5000 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(4)
#pragma redist processors Q(2)

// Not a multiple of lcm(4 * 64, 4 * 96) = 768: the datatypes have a tail.
constexpr std::int64_t N = 5000;

int main(int argc, char **argv) {
  const int Rank = startTest(argc, argv);

  std::vector<Elem> x = localPart(blockCyclic(64), N, 4, Rank);
#pragma redist distribute x[N](cyclic(64)) onto P
#pragma redist redistribute x(cyclic(96))
  checkPart("redistribute x cyclic(96)", x, blockCyclic(96), N, 4);
#pragma redist redistribute x(cyclic(2)) onto Q
  checkPart("redistribute x cyclic(2) onto Q", x, blockCyclic(2), N, 2);
#pragma redist redistribute x(cyclic(96)) onto P
  checkPart("redistribute x cyclic(96) onto P", x, blockCyclic(96), N, 4);

  // The datatypes are built once: a second pass reuses them.
#pragma redist redistribute x(cyclic(64))
  checkPart("again cyclic(64)", x, blockCyclic(64), N, 4);
#pragma redist redistribute x(cyclic(96))
  checkPart("again cyclic(96)", x, blockCyclic(96), N, 4);

#pragma redist redistribute x(cyclic(3))
  checkPart("redistribute x cyclic(3)", x, blockCyclic(3), N, 4);
#pragma redist redistribute x(cyclic(5))
  checkPart("redistribute x cyclic(5)", x, blockCyclic(5), N, 4);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
