// Mistakes in run-time values that feed directives: every rank throws
// redist::InvalidArgument naming the directive's file:line, and the program
// goes on (no rank hangs, nothing moves). Ranks that disagree on a value
// the directive needs (its extent, gen_block sizes computed per rank) are
// caught by the default cross-rank check; a run-time cyclic(0) and a null
// pointer variable are caught before any data moves. A value invalid on one
// rank only (cyclic(0), a gen_block list of the wrong length or sum, an
// assign's differing extents) is raised on every rank, naming that rank,
// with the default check and without it: the timeout turns a hang into a
// failure.
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: timeout 120 %mpirun -np 4 %t | FileCheck %s
// RUN: redistc --verify=off %s -o %t.off.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.off.cpp -o %t.off %redist_libs
// RUN: timeout 120 %mpirun -np 4 %t.off some-ranks | FileCheck --check-prefix=OFF %s
//
// CHECK: ranks: 4
// CHECK-NEXT: extent differs: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: gen_block per rank: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target gen_block sizes differs
// CHECK-NEXT: cyclic(0): 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: null pointer: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: on rank 2: the target pointer is null, its distribution gives this rank 25
// CHECK-NEXT: cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#CYCLIC:]]: on rank 1: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: gen_block length on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH:]]: on rank 2: gen_block has 2 entries but the arrangement has 4 processes
// CHECK-NEXT: gen_block sum on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on rank 3: target distribution gen_block(25,25,25,24): GEN_BLOCK sizes sum to 99, not to N = 100
// CHECK-NEXT: gen_block sums on two ranks: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on ranks 0 and 3; on rank 0: target distribution gen_block(25,25,25,26): GEN_BLOCK sizes sum to 101, not to N = 100
// CHECK-NEXT: assign extents on one rank: 4 of 4 ranks: directive-errors.cpp:[[#ASSIGN:]]: on rank 2: assign between arrays of different extents: 100 and 101
// CHECK-NEXT: done
//
// Without the cross-rank check (--verify=off), values invalid on some ranks
// only are still raised on every rank (a plan's build agrees anyway); ranks
// that disagree would hang, so that run leaves out the first cases.
// OFF:      cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#CYCLIC:]]: on rank 1: CYCLIC(k)
// OFF-NEXT: gen_block length on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH:]]: on rank 2: gen_block has 2 entries
// OFF-NEXT: gen_block sum on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on rank 3: target distribution gen_block(25,25,25,24)
// OFF-NEXT: gen_block sums on two ranks: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on ranks 0 and 3
// OFF-NEXT: assign extents on one rank: 4 of 4 ranks: directive-errors.cpp:[[#ASSIGN:]]: on rank 2: assign between arrays of different extents: 100 and 101
// OFF-NEXT: done

#include "check.h"

#include "redist/Error.h"

#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

int Rank = 0;

/// Runs Body; rank 0 prints how many ranks caught InvalidArgument, and its
/// message.
void expectCaught(const char *Name, const std::function<void()> &Body) {
  int Caught = 0;
  std::string Message = "no error";
  try {
    Body();
  } catch (const redist::InvalidArgument &E) {
    Caught = 1;
    Message = E.what();
  }
  int Total = 0;
  MPI_Reduce(&Caught, &Total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("%s: %d of 4 ranks: %s\n", Name, Total, Message.c_str());
}

#pragma redist processors P(4)

void extentDiffers() {
  const std::int64_t N = Rank == 3 ? 1001 : 1000;
  std::vector<Elem> x = localPart(blockCyclic(3), N, 4, Rank);
#pragma redist distribute x[N](cyclic(3)) onto P
#pragma redist redistribute x(block)
}

void genBlockPerRank() {
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
  // Each rank computes the sizes from its own measurement: here they differ.
  std::vector<std::int64_t> Sizes{25, 25, 25, 25};
  if (Rank == 1)
    Sizes = {40, 20, 20, 20};
#pragma redist distribute x[100](block) onto P
#pragma redist redistribute x(gen_block(Sizes))
}

void cyclicZero(int K) {
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
#pragma redist distribute x[100](block) onto P
#pragma redist redistribute x(cyclic(K))
}

void nullPointer() {
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
  std::vector<Elem> Storage(100);
  Elem *y = Rank == 2 ? nullptr : Storage.data();
#pragma redist distribute x[100](block) onto P
#pragma redist distribute y[100](cyclic) onto P
#pragma redist assign y = x
}

void cyclicZeroOnOneRank() {
  const int K = Rank == 1 ? 0 : 3;
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
#pragma redist distribute x[100](block) onto P
#pragma redist redistribute x(cyclic(K))
}

void genBlockOnSomeRanks(const std::vector<std::int64_t> &Sizes) {
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
#pragma redist distribute x[100](block) onto P
#pragma redist redistribute x(gen_block(Sizes))
}

void assignExtentOnOneRank() {
  const std::int64_t M = Rank == 2 ? 101 : 100;
  std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
  std::vector<Elem> y;
#pragma redist distribute x[100](block) onto P
#pragma redist distribute y[M](cyclic) onto P
#pragma redist assign y = x
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (argc == 1) {
    expectCaught("extent differs", extentDiffers);
    expectCaught("gen_block per rank", genBlockPerRank);
    expectCaught("cyclic(0)", [argc] { cyclicZero(argc - 1); });
    expectCaught("null pointer", nullPointer);
  }
  expectCaught("cyclic(0) on one rank", cyclicZeroOnOneRank);
  using Sizes = std::vector<std::int64_t>;
  expectCaught("gen_block length on one rank", [] {
    genBlockOnSomeRanks(Rank == 2 ? Sizes{50, 50} : Sizes{25, 25, 25, 25});
  });
  expectCaught("gen_block sum on one rank", [] {
    genBlockOnSomeRanks(Rank == 3 ? Sizes{25, 25, 25, 24}
                                  : Sizes{25, 25, 25, 25});
  });
  expectCaught("gen_block sums on two ranks", [] {
    genBlockOnSomeRanks(Rank == 0 || Rank == 3 ? Sizes{25, 25, 25, 26}
                                               : Sizes{25, 25, 25, 25});
  });
  expectCaught("assign extents on one rank", assignExtentOnOneRank);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
