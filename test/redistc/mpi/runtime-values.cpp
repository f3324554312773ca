// End to end with parameters known only at run time (the number of
// processes, block sizes, the extent, gen_block sizes in a std::vector, a
// communicator from comm(...)): every directive takes the runtime path. Runs
// at several rank counts; the program checks every element each time.
//
// RUN: redistc %s -o %t.cpp --report -- -I%S/Inputs | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 2 %t | FileCheck --check-prefixes=CHECK,NP2 %s
// RUN: %mpirun -np 3 %t | FileCheck --check-prefixes=CHECK,NP3 %s
// RUN: %mpirun -np 4 %t | FileCheck --check-prefixes=CHECK,NP4 %s
//
// REPORT: processors P: 'Size' processes, known at run time
// REPORT: distribute x: block of 'N' elements onto P
// REPORT: redistribute x: dynamic (the number of processes of 'P' is not a constant)
// REPORT: redistribute x: dynamic (the number of processes of 'P' is not a constant)
// REPORT: redistribute x: dynamic (the number of processes of 'P' is not a constant)
// REPORT: assign y = x: dynamic (the number of processes of 'Half' is not a constant)
//
// NP2: ranks: 2
// NP3: ranks: 3
// NP4: ranks: 4
// NP2-NEXT: distribute x block: 197 elements, every element in place
// NP3-NEXT: distribute x block: 294 elements, every element in place
// NP4-NEXT: distribute x block: 391 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(K): {{[0-9]+}} elements, every element in place
// CHECK-NEXT: redistribute x gen_block(Sizes): {{[0-9]+}} elements, every element in place
// CHECK-NEXT: redistribute x cyclic(2) onto Half: {{[0-9]+}} elements, every element in place
// CHECK-NEXT: assign y = x, y pointer cyclic(3): {{[0-9]+}} elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int Size = worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm Comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
  const std::int64_t N = 97 * Size + argc + 2;
  const int K = Size + 1;

#pragma redist processors P(Size) comm(Comm)
  std::vector<Elem> x = localPart(blockOf(N, Size), N, Size, Rank);
#pragma redist distribute x[N](block) onto P
  checkPart("distribute x block", x, blockOf(N, Size), N, Size);
#pragma redist redistribute x(cyclic(K))
  checkPart("redistribute x cyclic(K)", x, blockCyclic(K), N, Size);

  // Uneven sizes: process p gets a share growing with p, the last the rest.
  std::vector<std::int64_t> Sizes(Size);
  std::int64_t Left = N;
  for (int P = 0; P + 1 < Size; ++P) {
    Sizes[P] = std::min<std::int64_t>(Left, 10 * (P + 1));
    Left -= Sizes[P];
  }
  Sizes[Size - 1] = Left;
#pragma redist redistribute x(gen_block(Sizes))
  checkPart("redistribute x gen_block(Sizes)", x, genBlock(Sizes), N, Size);

  const int HalfSize = Size / 2;
#pragma redist processors Half(HalfSize) comm(Comm)
#pragma redist redistribute x(cyclic(2)) onto Half
  checkPart("redistribute x cyclic(2) onto Half", x, blockCyclic(2), N,
            HalfSize);

  std::vector<Elem> Storage(static_cast<std::size_t>(N)); // room enough
  Elem *y = Storage.data();
#pragma redist distribute y[N](cyclic(3)) onto P
#pragma redist assign y = x
  std::vector<std::int64_t> Mine = expectedGlobals(blockCyclic(3), N, Size, Rank);
  checkPart("assign y = x, y pointer cyclic(3)", y,
            static_cast<std::int64_t>(Mine.size()), blockCyclic(3), N, Size);

  MPI_Comm_free(&Comm);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
