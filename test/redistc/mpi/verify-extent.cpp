// Ranks that disagree on a run-time extent: with verification on, every rank
// throws redist::InvalidArgument from the directive, naming the extent and
// its values, instead of hanging or moving elements wrongly. First with the
// program's defaults (verification on), where the distribute directive's
// own agreement finds it, then with the program's default turned off (the
// distribute checks nothing) and the redistribute's verify(on) clause
// overriding it. 4 ranks.
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 4 %t | FileCheck %s
//
// CODE: "verify-extent.cpp:{{61}}"),
// CODE: "verify-extent.cpp:{{77}}", redist::Verification::On),
//
// CHECK: ranks: 4
// CHECK-NEXT: default: rank 0 caught: verify-extent.cpp:60: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1001
// CHECK-NEXT: default: 4 of 4 ranks caught the error
// CHECK-NEXT: clause: rank 0 caught: verify-extent.cpp:77: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1001
// CHECK-NEXT: clause: 4 of 4 ranks caught the error
// CHECK-NEXT: agreeing ranks: 1000 elements, every element in place

#include "check.h"

#include "redist/Error.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#pragma redist processors P(4)

/// Every rank must catch the error of the directive (collective).
void report(const char *Label, int Caught, int Rank, const std::string &What) {
  int Total = 0;
  MPI_Reduce(&Caught, &Total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("%s: rank 0 caught: %s\n%s: %d of 4 ranks caught the error\n",
                Label, What.c_str(), Label, Total);
}

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
    report("default", Caught, Rank, What);
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
    report("clause", Caught, Rank, What);
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
