// End to end, matrices: a 37 x 23 matrix moved between 2-D grids, formats
// per dimension and grid orders, by static directives (every parameter
// constant) and dynamic ones (a block size known at run time, a layout known
// only at run time in a loop). After every directive each rank's local
// matrix, column-major with the leading dimension its local rows, is
// compared element by element with the layout computed by the test itself
// (Inputs/check.h), and the ranks together hold exactly the matrix's
// elements. The forced-dynamic translation must print the same, and a fifth
// rank beyond the grids takes part without data. Last, values wrong on one
// rank only raise the same error on every rank before anything moves.
// (Not clang-formatted: RUN and CHECK lines must stay whole.)
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
// RUN: %mpirun -np 4 %t.static --ranks-per-node=1 | diff %t.static.out -
// A table edited by hand (a message's length) is refused on every rank,
// naming the directive, before anything moves:
// RUN: sed -e '0,/^ *{0, 0, 0, [0-9]*},$/s//      {0, 0, 0, 1},/' %t.static.cpp > %t.tampered.cpp
// RUN: not diff -q %t.static.cpp %t.tampered.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.tampered.cpp -o %t.tampered %redist_libs
// RUN: not %mpirun -np 4 %t.tampered 2>&1 | FileCheck --check-prefix=TAMPERED %s
// TAMPERED: matrix-phases.cpp:{{[0-9]+}}: the translated table of messages does not match the runtime's schedule library (translate the file again): message 0 -> 0 has 1 elements, not {{[0-9]+}}
//
// REPORT: matrix-phases.cpp:{{[0-9]+}}:1: processors G: a 2 x 2 arrangement, row-major
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: processors H: a 4 x 1 arrangement, row-major
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: processors C: a 2 x 2 arrangement, column-major
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: distribute A: (cyclic(3), cyclic(2)) of 37 x 23 onto G, column-major storage
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: static; schedule
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: static; schedule product(caterpillar):
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: static; schedule stepwise:
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: inquire A into Now: its layout when control gets here
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: static; schedule
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: dynamic ('K' is not a constant)
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: dynamic ('K' is not a constant); schedule overlap-split
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: dynamic (the layout of 'A' is only known at run time)
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: static; schedule
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: dynamic (the layout of 'A' is only known at run time)
// REPORT-NEXT: matrix-phases.cpp:{{[0-9]+}}:1: redistribute A: dynamic (the layout of 'A' is only known at run time)
//
// CHECK: ranks: 4
// CHECK-NEXT: distribute A (cyclic(3), cyclic(2)) onto G: 851 elements, every element in place
// CHECK-NEXT: redistribute A (block, cyclic(5)) onto H: 851 elements, every element in place
// CHECK-NEXT: redistribute A (cyclic(4), block) onto C: 851 elements, every element in place
// CHECK-NEXT: redistribute A (gen_block, cyclic) onto G: 851 elements, every element in place
// CHECK-NEXT: inquire A: [37,23](gen_block(10;27),cyclic) onto 2x2 row-major, column-major storage, every index right
// CHECK-NEXT: redistribute A (block(20), cyclic(3)): 851 elements, every element in place
// CHECK-NEXT: redistribute A (cyclic(K), block) onto H: 851 elements, every element in place
// CHECK-NEXT: redistribute A (cyclic(3), block) onto G schedule(overlap_split): 851 elements, every element in place
// CHECK-NEXT: repeat 0 (cyclic(2), block) onto C: 851 elements, every element in place
// CHECK-NEXT: repeat 0 (block, cyclic(2)): 851 elements, every element in place
// CHECK-NEXT: repeat 1 (cyclic(2), block) onto C: 851 elements, every element in place
// CHECK-NEXT: repeat 1 (block, cyclic(2)): 851 elements, every element in place
// CHECK-NEXT: error on every rank: matrix-phases.cpp:{{[0-9]+}}: on rank 1: dimension 0: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: after the error: 851 elements, every element in place
// CHECK-NEXT: error on every rank:
// CHECK-NEXT: rank 0: matrix-phases.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target dimension 0 block size differs (from 3 to 4); this rank has 4
// CHECK-NEXT: rank 1: matrix-phases.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target dimension 0 block size differs (from 3 to 4); this rank has 3
// CHECK-NEXT: rank 2: matrix-phases.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target dimension 0 block size differs (from 3 to 4); this rank has 3
// CHECK-NEXT: rank 3: matrix-phases.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target dimension 0 block size differs (from 3 to 4); this rank has 3
// CHECK-NEXT: after the error: 851 elements, every element in place
// CHECK-NOT: MISPLACED
//
// FIVE: ranks: 5
// FIVE-COUNT-12: every element in place
// FIVE-NOT: WRONG
// clang-format off
#include "check.h"
#include "report-error.h"

#include <redist/Error.h>
#include <redist/runtime/LocalPart.h>

#include <array>
#include <cstring>
#include <string>

#pragma redist processors G(2, 2)
#pragma redist processors H(4, 1)
#pragma redist processors C(2, 2) order(column_major)

constexpr std::int64_t M = 37, N = 23;
constexpr std::array<long, 2> RowSizes = {10, 27};

namespace {

int Rank = 0;

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  applyNodeOptions(argc, argv);
  worldSize();
  // A block size the compiler cannot see: 2, or 3 with an extra argument.
  const std::int64_t K =
      argc > 1 && std::strcmp(argv[argc - 1], "3") == 0 ? 3 : 2;
  const TestFormat Block37x4 = blockOf(M, 4), Block37x2 = blockOf(M, 2),
                   Block23x2 = blockOf(N, 2);

  TestMatrix T{blockCyclic(3), blockCyclic(2), M, N, 2, 2};
  std::vector<Elem> A = expectedMatrix(T, Rank);
#pragma redist distribute A[M][N](cyclic(3), cyclic(2)) onto G
  checkMatrix("distribute A (cyclic(3), cyclic(2)) onto G", A, T);

#pragma redist redistribute A(block, cyclic(5)) onto H
  T = {Block37x4, blockCyclic(5), M, N, 4, 1};
  checkMatrix("redistribute A (block, cyclic(5)) onto H", A, T);

#pragma redist redistribute A(cyclic(4), block) onto C schedule(               \
    product(caterpillar))
  T = {blockCyclic(4), Block23x2, M, N, 2, 2, true};
  checkMatrix("redistribute A (cyclic(4), block) onto C", A, T);

#pragma redist redistribute A(gen_block(RowSizes), cyclic) onto G schedule(    \
    stepwise)
  T = {genBlock({10, 27}), blockCyclic(1), M, N, 2, 2};
  checkMatrix("redistribute A (gen_block, cyclic) onto G", A, T);
  {
    // The inquiry's index maps against the elements the check just found in
    // place: each local element's global index, and back.
#pragma redist inquire A into Now
    // Column-major, the leading dimension the local rows.
    const std::vector<std::int64_t> Local = Now.localExtents(),
                                    Strides = Now.strides();
    long Wrong = Now.storageSize() == static_cast<long>(A.size()) &&
                         Local[0] * Local[1] == Now.storageSize() &&
                         Strides[0] == 1 && Strides[1] == Local[0]
                     ? 0
                     : 1;
    for (std::int64_t Offset = 0; Offset < Now.storageSize(); ++Offset) {
      const std::vector<std::int64_t> Index = Now.globalIndex(Offset);
      Wrong += A[Offset].Global != Index[0] * N + Index[1] ||
               !(Now.position(Index) == redist::LocalPlace{Rank, Offset});
    }
    long Total = 0;
    MPI_Allreduce(&Wrong, &Total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (Rank == 0)
      std::printf("inquire A: %s, %s\n", Now.str().c_str(),
                  Total == 0 ? "every index right" : "WRONG INDICES");
  }

#pragma redist redistribute A(block(20), cyclic(3))
  T = {blockCyclic(20), blockCyclic(3), M, N, 2, 2};
  checkMatrix("redistribute A (block(20), cyclic(3))", A, T);

#pragma redist redistribute A(cyclic(K), block) onto H
  T = {blockCyclic(K), blockOf(N, 1), M, N, 4, 1};
  checkMatrix("redistribute A (cyclic(K), block) onto H", A, T);

  // An overlapped schedule: the array plan's Overlapped mode.
#pragma redist redistribute A(cyclic(3), block) onto G schedule(overlap_split)
  T = {blockCyclic(3), Block23x2, M, N, 2, 2};
  checkMatrix("redistribute A (cyclic(3), block) onto G schedule(overlap_split)",
              A, T);

  for (int Repeat = 0; Repeat < 2; ++Repeat) {
#pragma redist redistribute A(cyclic(2), block) onto C
    T = {blockCyclic(2), Block23x2, M, N, 2, 2, true};
    checkMatrix(
        ("repeat " + std::to_string(Repeat) + " (cyclic(2), block) onto C")
            .c_str(),
        A, T);
#pragma redist redistribute A(block, cyclic(2)) onto G
    T = {Block37x2, blockCyclic(2), M, N, 2, 2};
    checkMatrix(
        ("repeat " + std::to_string(Repeat) + " (block, cyclic(2))").c_str(), A,
        T);
  }
  (void)Block37x4;

  // A block size of 0 on rank 1 only: every rank throws, nothing moves.
  const std::int64_t Bad = Rank == 1 ? 0 : 3;
  std::string Message;
  try {
#pragma redist redistribute A(cyclic(Bad), block) onto G
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  // Rank 1's message names its own problem; print that one.
  reportError(Message, !Message.empty(), 1);
  checkMatrix("after the error", A, T);

  // Valid values that differ between ranks: Verify's comparison, which
  // each rank's message names with that rank's value.
  const std::int64_t Mine = Rank == 0 ? 4 : 3;
  Message.clear();
  try {
#pragma redist redistribute A(cyclic(Mine), block) onto G
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  reportError(Message, !Message.empty(), -1);
  checkMatrix("after the error", A, T);

  MPI_Finalize();
  return 0;
}
