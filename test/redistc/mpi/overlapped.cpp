// schedule(overlap) and schedule(overlap_split) end to end: the static path
// (events computed by redistc, one call into the runtime's Overlapped mode)
// and the dynamic path (events computed by the runtime) move every element to
// its local index on its rank; the program checks each one, and the two
// paths print the same.
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: grep -c '^ *redistc_steps[.]all();' %t.static.cpp | FileCheck --check-prefix=CALLS %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 6 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 6 %t.dynamic | diff %t.static.out -
//
// 6,2 -> 6,3 is the paper's Example 1 (T_opt reached without splitting).
// REPORT: redistribute x: static; overlapped schedule overlap: makespan 12 (lower bound 12)
// REPORT-NEXT: redistribute x: static; overlapped schedule overlap-split: makespan 12 (lower bound 12)
// REPORT-NEXT: redistribute x: static; overlapped schedule overlap-split: makespan 30 (lower bound 30)
// REPORT: assign y = x: static; overlapped schedule overlap:
// REPORT-NEXT: redistribute x: dynamic ('K' is not a constant); schedule overlap-split
// CALLS: {{^}}4{{$}}
//
// CHECK: ranks: 6
// CHECK-NEXT: distribute x cyclic(2): 72 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(3), overlap: 72 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(2), overlap_split: 72 elements, every element in place
// CHECK-NEXT: redistribute x gen_block, overlap_split: 72 elements, every element in place
// CHECK-NEXT: assign y = x, y cyclic(5), overlap: 72 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(K), overlap_split: 72 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(6)

constexpr std::int64_t N = 72;
constexpr int Sizes[6] = {30, 0, 2, 20, 11, 9};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const int K = argc + 3; // 4, unknown to redistc

  std::vector<Elem> x = localPart(blockCyclic(2), N, 6, Rank);
#pragma redist distribute x[N](cyclic(2)) onto P
  checkPart("distribute x cyclic(2)", x, blockCyclic(2), N, 6);
#pragma redist redistribute x(cyclic(3)) schedule(overlap)
  checkPart("redistribute x cyclic(3), overlap", x, blockCyclic(3), N, 6);
#pragma redist redistribute x(cyclic(2)) schedule(overlap_split)
  checkPart("redistribute x cyclic(2), overlap_split", x, blockCyclic(2), N,
            6);
#pragma redist redistribute x(gen_block(Sizes)) schedule(overlap_split)
  checkPart("redistribute x gen_block, overlap_split", x,
            genBlock({30, 0, 2, 20, 11, 9}), N, 6);

  std::vector<Elem> y;
#pragma redist distribute y[N](cyclic(5)) onto P
#pragma redist assign y = x schedule(overlap)
  checkPart("assign y = x, y cyclic(5), overlap", y, blockCyclic(5), N, 6);

#pragma redist redistribute x(cyclic(K)) schedule(overlap_split)
  checkPart("redistribute x cyclic(K), overlap_split", x, blockCyclic(K), N, 6);

  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
