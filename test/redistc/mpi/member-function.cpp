// Directives in member functions defined inside their class (whose bodies
// Clang parses once the class is complete), on a data member and on a
// parameter: distribute, redistribute, assign. Static and dynamic paths, 4
// ranks; the program checks every element after each directive.
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs | FileCheck --check-prefix=STATIC %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static | FileCheck %s
// RUN: redistc --dynamic %s -o %t.dynamic.cpp --report -- -I%S/Inputs | FileCheck --check-prefix=DYNAMIC %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic | FileCheck %s
//
// STATIC: member-function.cpp:[[#L:]]:1: distribute Data: cyclic(3) of 1000 elements onto P
// STATIC-NEXT: member-function.cpp:[[#L+2]]:1: redistribute Data: static;
// STATIC-NEXT: member-function.cpp:[[#L+4]]:1: redistribute Data: static;
// STATIC-NEXT: member-function.cpp:[[#L+9]]:1: distribute Out: cyclic(5) of 1000 elements onto P
// STATIC-NEXT: member-function.cpp:[[#L+10]]:1: assign Out = Data: static;
// DYNAMIC: redistribute Data: dynamic (--dynamic forces the runtime path)
// DYNAMIC: redistribute Data: dynamic (--dynamic forces the runtime path)
// DYNAMIC: assign Out = Data: dynamic (--dynamic forces the runtime path)
//
// CHECK: ranks: 4
// CHECK-NEXT: distribute Data cyclic(3): 1000 elements, every element in place
// CHECK-NEXT: redistribute Data block: 1000 elements, every element in place
// CHECK-NEXT: redistribute Data gen_block: 1000 elements, every element in place
// CHECK-NEXT: assign Out = Data, Out cyclic(5): 1000 elements, every element in place
// CHECK-NEXT: Data after the member function: 1000 elements, every element in place

#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

#pragma redist processors P(4)

constexpr std::int64_t N = 1000;
constexpr std::int64_t Sizes[4] = {100, 400, 0, 500};

class Field {
public:
  explicit Field(int Rank)
      : Rank(Rank), Data(localPart(blockCyclic(3), N, 4, Rank)) {}

  // Defined in the class: its body is parsed after the class, like one
  // defined outside it.
  void phases(std::vector<Elem> &Out) {
#pragma redist distribute Data[N](cyclic(3)) onto P
    checkPart("distribute Data cyclic(3)", Data, blockCyclic(3), N, 4);
#pragma redist redistribute Data(block)
    checkPart("redistribute Data block", Data, blockOf(N, 4), N, 4);
#pragma redist redistribute Data(gen_block(Sizes))
    checkPart("redistribute Data gen_block", Data,
              genBlock({Sizes[0], Sizes[1], Sizes[2], Sizes[3]}), N, 4);
    // Out, a parameter, holds its CYCLIC(5) part; assign overwrites it.
    Out.assign(localPart(blockCyclic(5), N, 4, Rank).size(), Elem{-1, -1});
#pragma redist distribute Out[N](cyclic(5)) onto P
#pragma redist assign Out = Data
    checkPart("assign Out = Data, Out cyclic(5)", Out, blockCyclic(5), N, 4);
  }

  const std::vector<Elem> &data() const { return Data; }

private:
  int Rank;
  std::vector<Elem> Data;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Field F(Rank);
  std::vector<Elem> Out;
  F.phases(Out);
  // The member keeps the distribution the last redistribute gave it.
  checkPart("Data after the member function", F.data(),
            genBlock({Sizes[0], Sizes[1], Sizes[2], Sizes[3]}), N, 4);
  MPI_Finalize();
  return 0;
}
