// End to end, every parameter constant: translate, compile with mpicxx, run
// under mpirun and let the program check every element after every directive.
// The forced-dynamic translation (the runtime path) must print the same, and
// extra ranks beyond the arrangement take part without data. So must runs
// with each rank its own node (every message over MPI) and with nodes of 3
// ranks (steps mixing the shared-memory handover with MPI).
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic > %t.dynamic.out
// RUN: diff %t.static.out %t.dynamic.out
// RUN: %mpirun -np 6 %t.static | FileCheck --check-prefix=SIX %s
// RUN: %mpirun -np 4 %t.static --ranks-per-node=1 | diff %t.static.out -
// RUN: %mpirun -np 4 %t.static --ranks-per-node=3 | diff %t.static.out -
// The steps as a loop over the tables instead of a call each:
// RUN: redistc --step-call-limit=1 %s -o %t.loop.cpp -- -I%S/Inputs
// RUN: grep -q 'redistc_steps.step(redistc_step);' %t.loop.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.loop.cpp -o %t.loop %redist_libs
// RUN: %mpirun -np 4 %t.loop | diff %t.static.out -
//
// Every directive is static but those in the loop: the first one's source
// depends on the iteration, and x moved onto Q once, so the number of
// processes the second keeps is only known at run time.
// REPORT: constant-phases.cpp:{{[0-9]+}}:1: distribute x: cyclic(3) of 1000 elements onto P
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule caterpillar: 4 steps
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: distribute y: block of 1000 elements onto P
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: assign y = x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: distribute a: block(300) of 1000 elements onto P
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: assign a = y: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: distribute p: cyclic(2) of 1000 elements onto P
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: assign p = a: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: dynamic (the distribution of 'x' is only known at run time)
// REPORT-NEXT: constant-phases.cpp:{{[0-9]+}}:1: redistribute x: dynamic (the distribution of 'x' is only known at run time)
//
// CHECK: ranks: 4
// CHECK-NEXT: distribute x cyclic(3): 1000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(5): 1000 elements, every element in place
// CHECK-NEXT: redistribute x block: 1000 elements, every element in place
// CHECK-NEXT: redistribute x block(300): 1000 elements, every element in place
// CHECK-NEXT: redistribute x gen_block: 1000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic (caterpillar): 1000 elements, every element in place
// CHECK-NEXT: assign y = x, y block: 1000 elements, every element in place
// CHECK-NEXT: assign a = y, a array block(300): 1000 elements, every element in place
// CHECK-NEXT: assign p = a, p pointer cyclic(2): 1000 elements, every element in place
// CHECK-NEXT: redistribute x block onto Q(2): 1000 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(7) onto P: 1000 elements, every element in place
// CHECK-NEXT: repeat 0 block: 1000 elements, every element in place
// CHECK-NEXT: repeat 0 cyclic(2): 1000 elements, every element in place
// CHECK-NEXT: repeat 1 block: 1000 elements, every element in place
// CHECK-NEXT: repeat 1 cyclic(2): 1000 elements, every element in place
// CHECK-NEXT: done
//
// SIX: ranks: 6
// SIX-NOT: MISPLACED
// SIX: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#pragma redist processors P(4)
#pragma redist processors Q(2)

constexpr std::int64_t N = 1000;
constexpr int Sizes[4] = {400, 0, 350, 250};

int main(int argc, char **argv) {
  const int Rank = startTest(argc, argv);

  std::vector<Elem> x = localPart(blockCyclic(3), N, 4, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
  checkPart("distribute x cyclic(3)", x, blockCyclic(3), N, 4);
#pragma redist redistribute x(cyclic(5))
  checkPart("redistribute x cyclic(5)", x, blockCyclic(5), N, 4);
#pragma redist redistribute x(block)
  checkPart("redistribute x block", x, blockOf(N, 4), N, 4);
#pragma redist redistribute x(block(300))
  checkPart("redistribute x block(300)", x, blockCyclic(300), N, 4);
#pragma redist redistribute x(gen_block(Sizes))
  checkPart("redistribute x gen_block", x, genBlock({400, 0, 350, 250}), N,
            4);
#pragma redist redistribute x(cyclic) schedule(caterpillar)
  checkPart("redistribute x cyclic (caterpillar)", x, blockCyclic(1), N, 4);

  // assign into a vector, an array and a pointer.
  std::vector<Elem> y;
#pragma redist distribute y[N](block) onto P
#pragma redist assign y = x
  checkPart("assign y = x, y block", y, blockOf(N, 4), N, 4);
  Elem a[300];
#pragma redist distribute a[N](block(300)) onto P
#pragma redist assign a = y
  checkPart("assign a = y, a array block(300)", a,
            Rank < 3 ? 300 : (Rank == 3 ? 100 : 0), blockCyclic(300), N, 4);
  std::vector<Elem> Storage(500);
  Elem *p = Storage.data();
#pragma redist distribute p[N](cyclic(2)) onto P
#pragma redist assign p = a
  checkPart("assign p = a, p pointer cyclic(2)", p, Rank < 4 ? 250 : 0,
            blockCyclic(2), N, 4);

  // A smaller arrangement, then back.
#pragma redist redistribute x(block) onto Q
  checkPart("redistribute x block onto Q(2)", x, blockOf(N, 2), N, 2);
#pragma redist redistribute x(cyclic(7)) onto P
  checkPart("redistribute x cyclic(7) onto P", x, blockCyclic(7), N, 4);

  // In a loop: the first redistribute's source is only known at run time
  // (cyclic(7) on the first pass, cyclic(2) on the next).
  for (int Repeat = 0; Repeat < 2; ++Repeat) {
#pragma redist redistribute x(block)
    std::string Label = "repeat " + std::to_string(Repeat);
    checkPart((Label + " block").c_str(), x, blockOf(N, 4), N, 4);
#pragma redist redistribute x(cyclic(2))
    checkPart((Label + " cyclic(2)").c_str(), x, blockCyclic(2), N, 4);
  }
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
