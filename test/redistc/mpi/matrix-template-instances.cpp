// End to end, matrix directives in a function template whose grid and block
// size are template arguments, constant in each instantiation only. A matrix
// is the rank-2 case of the N-D path, so each instantiation gets static
// tables of its own (the report names them, the code holds one table per
// instantiation and directive), chosen at compile time; any other
// instantiation would take the runtime path. After every directive each
// rank's local matrix is compared element by element with the layout the
// test computes (Inputs/check.h); the forced-dynamic translation must print
// the same, and a fifth rank beyond the grids takes part without data.
// (Not clang-formatted: RUN and CHECK lines must stay whole.)
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: grep -c "^ *static constexpr redist::TranslatedArraySchedule" %t.static.cpp | FileCheck --check-prefix=TABLES %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: not grep "^ *static constexpr redist::TranslatedArraySchedule" %t.dynamic.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic > %t.dynamic.out
// RUN: diff %t.static.out %t.dynamic.out
// RUN: %mpirun -np 5 %t.static | FileCheck --check-prefix=FIVE %s
//
// REPORT: redistribute A in phases<2, 2, 3>: static; schedule
// REPORT-NEXT: redistribute A in phases<4, 1, 5>: static; schedule
// REPORT-NEXT: redistribute A in other instantiations: dynamic (
// REPORT: assign B = A in phases<2, 2, 3>: static; schedule
// REPORT-NEXT: assign B = A in phases<4, 1, 5>: static; schedule
// REPORT-NEXT: assign B = A in other instantiations: dynamic (
// REPORT: assign C = A in phases<2, 2, 3>: static; schedule
// REPORT-NEXT: assign C = A in phases<4, 1, 5>: static; schedule
// REPORT-NEXT: assign C = A in other instantiations: dynamic (
//
// Two instantiations of three directives: six tables.
// TABLES: {{^}}6{{$}}
//
// CHECK: ranks: 4
// CHECK-NEXT: phases<2, 2, 3> A (cyclic(3), cyclic(2)): 851 elements, every element in place
// CHECK-NEXT: phases<2, 2, 3> A (block, cyclic(4)): 851 elements, every element in place
// CHECK-NEXT: phases<2, 2, 3> B = A (cyclic(2), block): 851 elements, every element in place
// CHECK-NEXT: phases<2, 2, 3> C = transpose(A): 851 elements, every element in place
// CHECK-NEXT: phases<4, 1, 5> A (cyclic(5), cyclic(2)): 851 elements, every element in place
// CHECK-NEXT: phases<4, 1, 5> A (block, cyclic(6)): 851 elements, every element in place
// CHECK-NEXT: phases<4, 1, 5> B = A (cyclic(2), block): 851 elements, every element in place
// CHECK-NEXT: phases<4, 1, 5> C = transpose(A): 851 elements, every element in place
// CHECK-NOT: MISPLACED
//
// FIVE: ranks: 5
// FIVE-COUNT-8: every element in place
// FIVE-NOT: MISPLACED
// clang-format off
#include "check.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

constexpr std::int64_t M = 37, N = 23;

/// A matrix on a P0 x P1 grid, cyclic(K) rows, moved to (block, cyclic(K +
/// 1)), assigned to another layout and transposed into an N x M matrix.
template <int P0, int P1, int K> void phases() {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const std::string Name = "phases<" + std::to_string(P0) + ", " +
                           std::to_string(P1) + ", " + std::to_string(K) + ">";
#pragma redist processors G(P0, P1)
  TestMatrix T{blockCyclic(K), blockCyclic(2), M, N, P0, P1};
  std::vector<Elem> A = expectedMatrix(T, Rank);
  std::vector<Elem> B, C;
#pragma redist distribute A[M][N](cyclic(K), cyclic(2)) onto G
#pragma redist distribute B[M][N](cyclic(2), block) onto G
#pragma redist distribute C[N][M](block, cyclic(2)) onto G
  checkMatrix((Name + " A (cyclic(" + std::to_string(K) + "), cyclic(2))").c_str(), A, T);
#pragma redist redistribute A(block, cyclic(K + 1))
  T = {blockOf(M, P0), blockCyclic(K + 1), M, N, P0, P1};
  checkMatrix((Name + " A (block, cyclic(" + std::to_string(K + 1) + "))").c_str(), A, T);
#pragma redist assign B = A
  checkMatrix((Name + " B = A (cyclic(2), block)").c_str(), B,
              TestMatrix{blockCyclic(2), blockOf(N, P1), M, N, P0, P1});
#pragma redist assign C = transpose(A)
  // C(j, i) = A(i, j): element (j, i) of C carries A's global index i * N + j.
  const TestMatrix TC{blockOf(N, P0), blockCyclic(2), N, M, P0, P1};
  std::vector<Elem> Want = expectedMatrix(TC, Rank);
  for (Elem &E : Want) {
    const std::int64_t J = E.Global / M, I = E.Global % M;
    E = makeElem(I * N + J);
  }
  long Errors = C == Want ? 0 : 1;
  reportCheck((Name + " C = transpose(A)").c_str(), Errors,
              static_cast<std::int64_t>(C.size()));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  phases<2, 2, 3>();
  phases<4, 1, 5>();
  MPI_Finalize();
  return 0;
}
