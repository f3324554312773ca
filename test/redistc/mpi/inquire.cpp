// inquire: the redist::ArrayInfo of a variable's current distribution, after
// a distribute, a static redistribute and a GEN_BLOCK redistribute with
// sizes known at run time. On every rank, each answer is compared with the
// HPF definitions of the format (check.h): the extent, this rank's and every
// process's local size, the global index of each local element (and of the
// element that arrived there), and the owner and local index of every
// global element. Both paths, 4 ranks.
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static | FileCheck %s
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic | FileCheck %s
//
// REPORT: redistribute x: static;
// REPORT: redistribute x: dynamic ('Sizes' is not a constant)
//
// CHECK: ranks: 4
// CHECK-NEXT: distribute: cyclic(3) over 4 processes, 1000 elements: every answer right on 4 ranks
// CHECK-NEXT: redistribute block: block over 4 processes, 1000 elements: every answer right on 4 ranks
// CHECK-NEXT: redistribute gen_block: gen_block(100,0,300,600) over 4 processes, 1000 elements: every answer right on 4 ranks

#include "check.h"

#include <redist/runtime/LocalPart.h>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#pragma redist processors P(4)

/// Compares Info's answers on this rank with F's definition; rank 0 prints
/// one line with the total of wrong answers. Collective.
void checkInfo(const char *Label, const redist::ArrayInfo &Info,
               const std::vector<Elem> &X, const TestFormat &F, std::int64_t N,
               int Rank) {
  long Wrong = 0;
  Wrong += Info.extent() != N;
  Wrong += Info.rank() != Rank;
  std::vector<std::int64_t> Mine = expectedGlobals(F, N, 4, Rank);
  Wrong += Info.localSize() != static_cast<std::int64_t>(Mine.size());
  Wrong += X.size() != Mine.size();
  for (std::size_t L = 0; L < Mine.size() && L < X.size(); ++L) {
    const std::int64_t I = static_cast<std::int64_t>(L);
    Wrong += Info.globalIndex(I) != Mine[L];
    Wrong += Info.globalIndex(I) != X[L].Global;
  }
  for (int Proc = 0; Proc < 4; ++Proc) {
    std::vector<std::int64_t> Theirs = expectedGlobals(F, N, 4, Proc);
    Wrong += Info.localSize(Proc) != static_cast<std::int64_t>(Theirs.size());
    for (std::size_t L = 0; L < Theirs.size(); ++L) {
      const std::int64_t I = static_cast<std::int64_t>(L);
      Wrong += Info.globalIndex(Proc, I) != Theirs[L];
      Wrong += !(Info.position(Theirs[L]) == redist::LocalPosition{Proc, I});
    }
  }
  long Total = 0;
  MPI_Reduce(&Wrong, &Total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int Size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Rank == 0)
    std::printf("%s: %s: %s on %d ranks\n", Label, Info.str().c_str(),
                Total == 0 ? "every answer right" : "WRONG ANSWERS", Size);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  constexpr std::int64_t N = 1000;
  // Known at run time only (argc is 1).
  const std::vector<std::int64_t> Sizes = {99 + argc, 0, 300, 601 - argc};

  std::vector<Elem> x = localPart(blockCyclic(3), N, 4, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
#pragma redist inquire x into Declared
  checkInfo("distribute", Declared, x, blockCyclic(3), N, Rank);
#pragma redist redistribute x(block)
#pragma redist inquire x into Even
  checkInfo("redistribute block", Even, x, blockOf(N, 4), N, Rank);
#pragma redist redistribute x(gen_block(Sizes))
#pragma redist inquire x into Uneven
  checkInfo("redistribute gen_block", Uneven, x, genBlock(Sizes), N, Rank);
  MPI_Finalize();
  return 0;
}
