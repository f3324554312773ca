// Mistakes in run-time values that feed directives: every rank throws
// redist::InvalidArgument naming the directive's file:line, and the program
// goes on (no rank hangs, nothing moves). Ranks that disagree on a value
// the directive needs (its extent, gen_block sizes computed per rank) are
// caught by the default cross-rank check; a run-time cyclic(0) and a null
// pointer variable are caught before any communication.
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 4 %t | FileCheck %s
//
// CHECK: ranks: 4
// CHECK-NEXT: extent differs: 4 of 4 ranks: directive-errors.cpp:55: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: gen_block per rank: 4 of 4 ranks: directive-errors.cpp:65: verify: ranks were given different parameters: target gen_block sizes differs
// CHECK-NEXT: cyclic(0): 4 of 4 ranks: directive-errors.cpp:71: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: null pointer: 4 of 4 ranks: directive-errors.cpp:80: the variable of rank 2 does not fit its distribution
// CHECK-NEXT: done

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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  expectCaught("extent differs", extentDiffers);
  expectCaught("gen_block per rank", genBlockPerRank);
  expectCaught("cyclic(0)", [argc] { cyclicZero(argc - 1); });
  expectCaught("null pointer", nullPointer);
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
