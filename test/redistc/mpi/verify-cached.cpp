// Ranks that disagree on an array directive's values after each of them
// planned it once: the rank given the new value plans anew while the others
// find their plan in the cache, and with verification on (the default) they
// all compare the same parameters, the region resolved as a plan being
// built has it. So every rank's error names the value that differs, with
// its own value, not a parameter that only looks different (the cached
// ranks' unresolved permutation). First a section's extent known only at
// run time (the dynamic path), then a plan option of one rank on a static
// assign. Nothing moves. 4 ranks.
// (Not clang-formatted: RUN and CHECK lines must stay whole.)
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 4 %t | FileCheck %s
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic | FileCheck %s
//
// CHECK: ranks: 4
// CHECK-NEXT: assign y[0:30] = x[0:30], round 0: 60 elements, every element in place
// CHECK-NEXT: error on every rank:
// CHECK-NEXT: rank 0: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: section extents differs at entry 0 (from 20 to 30); this rank has 30
// CHECK-NEXT: rank 1: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: section extents differs at entry 0 (from 20 to 30); this rank has 20
// CHECK-NEXT: rank 2: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: section extents differs at entry 0 (from 20 to 30); this rank has 30
// CHECK-NEXT: rank 3: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: section extents differs at entry 0 (from 20 to 30); this rank has 30
// CHECK-NEXT: assign y[0:Len] = x[0:Len], round 1: 60 elements, every element in place
// CHECK-NEXT: assign b = a, round 0: 24 elements, every element in place
// CHECK-NEXT: error on every rank:
// CHECK-NEXT: rank 0: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: maximum transfer size differs (from 0 to 4096); this rank has 0
// CHECK-NEXT: rank 1: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: maximum transfer size differs (from 0 to 4096); this rank has 0
// CHECK-NEXT: rank 2: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: maximum transfer size differs (from 0 to 4096); this rank has 4096
// CHECK-NEXT: rank 3: verify-cached.cpp:{{[0-9]+}}: verify: ranks were given different parameters: maximum transfer size differs (from 0 to 4096); this rank has 0
// CHECK-NEXT: assign b = a, round 1: 24 elements, every element in place
// CHECK-NOT: MISPLACED
// clang-format off
#include "check.h"
#include "report-error.h"

#include <redist/Error.h>

#include <cstdint>
#include <string>
#include <vector>

#pragma redist processors P(4)
#pragma redist processors G(2, 2)

int main(int argc, char **argv) {
  const int Rank = startTest(argc, argv);
  constexpr std::int64_t N = 60;

  // Both arrays hold every element at its own global index, so an assign
  // between equal sections leaves them as they are: what differs after a
  // failed round is what moved.
  std::vector<Elem> x = localPart(blockCyclic(3), N, 4, Rank);
  std::vector<Elem> y = localPart(blockOf(N, 4), N, 4, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
#pragma redist distribute y[N](block) onto P
  for (int Round = 0; Round < 2; ++Round) {
    const std::int64_t Len = Round == 1 && Rank == 1 ? 20 : 30;
    std::string Message;
    try {
#pragma redist assign y[0:Len] = x[0:Len]
    } catch (const redist::InvalidArgument &E) {
      Message = E.what();
    }
    if (Round == 1)
      reportError(Message, !Message.empty(), -1);
    checkPart(("assign y[0:" + std::string(Round == 0 ? "30" : "Len") +
               "] = x[0:" + (Round == 0 ? "30" : "Len") + "], round " +
               std::to_string(Round)).c_str(),
              y, blockOf(N, 4), N, 4);
  }

  // A 6 x 4 matrix, (block, block) -> (cyclic, block): each rank's local
  // part of a holds the global indices i * 4 + j of its elements.
  TestMatrix TA{blockOf(6, 2), blockOf(4, 2), 6, 4, 2, 2};
  TestMatrix TB{blockCyclic(1), blockOf(4, 2), 6, 4, 2, 2};
  std::vector<Elem> a = expectedMatrix(TA, Rank);
  std::vector<Elem> b = expectedMatrix(TB, Rank);
#pragma redist distribute a[6][4](block, block) onto G
#pragma redist distribute b[6][4](cyclic, block) onto G
  for (int Round = 0; Round < 2; ++Round) {
    if (Round == 1 && Rank == 2)
      redist::directiveOptions().MaxTransferBytes = 4096;
    std::string Message;
    try {
#pragma redist assign b = a
    } catch (const redist::InvalidArgument &E) {
      Message = E.what();
    }
    if (Round == 1)
      reportError(Message, !Message.empty(), -1);
    checkMatrix(("assign b = a, round " + std::to_string(Round)).c_str(), b,
                TB);
  }

  MPI_Finalize();
  return 0;
}
