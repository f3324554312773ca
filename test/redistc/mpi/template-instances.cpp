// End to end, directives in function templates whose parameters are only
// constant in each instantiation: the number of processes and the block
// size as template arguments, and an element type as one. redistc computes
// static tables for every instantiation; the forced-dynamic translation must
// print the same, on 4 ranks and with a rank to spare.
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
// RUN: %mpirun -np 5 %t.static | FileCheck --check-prefix=FIVE %s
//
// REPORT: processors Q: 'NP' processes, known at run time
// REPORT: redistribute x in phases<4, 3>: static; schedule
// REPORT-NEXT: redistribute x in phases<3, 5>: static; schedule
// REPORT-NEXT: redistribute x in phases<2, 7>: static; schedule
// REPORT-NEXT: redistribute x in other instantiations: dynamic ('B' is not a constant)
// REPORT: assign y = x in phases<4, 3>: static; schedule
// REPORT-NEXT: assign y = x in phases<3, 5>: static; schedule
// REPORT-NEXT: assign y = x in phases<2, 7>: static; schedule
// REPORT-NEXT: assign y = x in other instantiations: dynamic (the number of processes of 'Q' is not a constant)
// REPORT: redistribute x in typed<Elem>: static; schedule
// REPORT-NEXT: redistribute x in other instantiations: dynamic (the element type depends on a template parameter)
//
// CHECK: ranks: 4
// CHECK-NEXT: phases<4, 3> x block: 1000 elements, every element in place
// CHECK-NEXT: phases<4, 3> y = x, cyclic(4): 1000 elements, every element in place
// CHECK-NEXT: phases<3, 5> x block: 1000 elements, every element in place
// CHECK-NEXT: phases<3, 5> y = x, cyclic(6): 1000 elements, every element in place
// CHECK-NEXT: phases<2, 7> x block: 1000 elements, every element in place
// CHECK-NEXT: phases<2, 7> y = x, cyclic(8): 1000 elements, every element in place
// CHECK-NEXT: typed<Elem> gen_block: 1000 elements, every element in place
// CHECK-NEXT: done
// FIVE: ranks: 5
// FIVE-NOT: MISPLACED
// FIVE: done

#include "check.h"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

constexpr std::int64_t N = 1000;
constexpr std::array<long, 4> Sizes = {0, 100, 600, 300};

#pragma redist processors P(4)

/// Block-cyclic B on NP processes, then BLOCK, then assigned to cyclic(B + 1).
template <int NP, int B> void phases() {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const std::string Name =
      "phases<" + std::to_string(NP) + ", " + std::to_string(B) + ">";
#pragma redist processors Q(NP)
  std::vector<Elem> x = localPart(blockCyclic(B), N, NP, Rank);
  std::vector<Elem> y;
#pragma redist distribute x[N](cyclic(B)) onto Q
#pragma redist distribute y[N](cyclic(B + 1)) onto Q
#pragma redist redistribute x(block)
  checkPart((Name + " x block").c_str(), x, blockOf(N, NP), N, NP);
#pragma redist assign y = x
  checkPart((Name + " y = x, cyclic(" + std::to_string(B + 1) + ")").c_str(), y,
            blockCyclic(B + 1), N, NP);
}

/// BLOCK to gen_block of an element type the template is given.
template <typename T> void typed(std::vector<T> &x) {
#pragma redist distribute x[N](block) onto P
#pragma redist redistribute x(gen_block(Sizes))
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  phases<4, 3>();
  phases<3, 5>();
  phases<2, 7>();
  std::vector<Elem> x = localPart(blockOf(N, 4), N, 4, Rank);
  typed(x);
  const std::vector<std::int64_t> Want(Sizes.begin(), Sizes.end());
  checkPart("typed<Elem> gen_block", x, genBlock(Want), N, 4);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
