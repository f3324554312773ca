// Ranks that disagree on a run-time extent: with verification on, every rank
// throws redist::InvalidArgument from the directive, naming the extent, its
// range and the rank's own value, instead of hanging or moving elements
// wrongly. First with the program's defaults (verification on), where the
// distribute directive's own agreement finds it, then with the program's
// default turned off (the distribute checks nothing) and the redistribute's
// verify(on) clause overriding it. 4 ranks.
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 4 %t | FileCheck %s
//
// CODE: "verify-extent.cpp:{{61}}"),
// CODE: "verify-extent.cpp:{{79}}", redist::Verification::On),
//
// CHECK: ranks: 4
// CHECK-NEXT: default:
// CHECK-NEXT: error on every rank:
// CHECK-NEXT: rank 0: verify-extent.cpp:60: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1001
// CHECK-NEXT: rank 1: verify-extent.cpp:60: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: rank 2: verify-extent.cpp:60: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: rank 3: verify-extent.cpp:60: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: clause:
// CHECK-NEXT: error on every rank:
// CHECK-NEXT: rank 0: verify-extent.cpp:79: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1001
// CHECK-NEXT: rank 1: verify-extent.cpp:79: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: rank 2: verify-extent.cpp:79: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: rank 3: verify-extent.cpp:79: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: agreeing ranks: 1000 elements, every element in place

#include "check.h"
#include "report-error.h"

#include "redist/Error.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#pragma redist processors P(4)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  // Rank 0 computes one element more than the others.
  const std::int64_t N = Rank == 0 ? 1001 : 1000;
  const int K = argc + 2; // 3, known at run time only

  {
    std::vector<Elem> x = localPart(blockOf(N, 4), N, 4, Rank);
    int Caught = 0;
    std::string What;
    try {
#pragma redist distribute x[N](block) onto P
#pragma redist redistribute x(cyclic(K))
    } catch (const redist::InvalidArgument &E) {
      Caught = 1;
      What = E.what();
    }
    if (Rank == 0)
      std::printf("default:\n");
    reportError(What, Caught, -1);
  }

  // The program turns the check off; the clause turns it on again.
  redist::directiveOptions().Verify = false;
  {
    std::vector<Elem> x = localPart(blockOf(N, 4), N, 4, Rank);
    int Caught = 0;
    std::string What;
    try {
#pragma redist distribute x[N](block) onto P
#pragma redist redistribute x(cyclic(K)) verify(on)
    } catch (const redist::InvalidArgument &E) {
      Caught = 1;
      What = E.what();
    }
    if (Rank == 0)
      std::printf("clause:\n");
    reportError(What, Caught, -1);
  }

  // With agreeing ranks the same directive moves every element.
  {
    const std::int64_t M = 1000;
    std::vector<Elem> x = localPart(blockOf(M, 4), M, 4, Rank);
#pragma redist distribute x[M](block) onto P
#pragma redist redistribute x(cyclic(K)) verify(on)
    checkPart("agreeing ranks", x, blockCyclic(K), M, 4);
  }
  MPI_Finalize();
  return 0;
}
