// Mistakes in run-time values that feed directives: every rank throws
// redist::InvalidArgument naming the directive's file:line, and the program
// goes on (no rank hangs, nothing moves). Ranks that disagree on a value
// the directive needs (its extent, gen_block sizes computed per rank) are
// caught by the default cross-rank check; a run-time cyclic(0) and a null
// pointer variable are caught before any data moves. A value invalid on one
// rank only (cyclic(0), a gen_block list of the wrong length or sum, an
// assign's differing extents) is raised on every rank, naming that rank,
// with the default check and without it: the timeout turns a hang into a
// failure. A distribute directive's values are agreed on where it stands
// (with the check): a value invalid on one rank, or different on one rank,
// throws on every rank, and the program goes on to the next case.
//
// RUN: redistc %s -o %t.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.cpp -o %t %redist_libs
// RUN: timeout 120 %mpirun -np 4 %t | FileCheck %s
// RUN: redistc --verify=off %s -o %t.off.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.off.cpp -o %t.off %redist_libs
// RUN: timeout 120 %mpirun -np 4 %t.off some-ranks | FileCheck --check-prefix=OFF %s
//
// Without the check, a rank whose value is invalid where the others may be
// moving data already (their plan is cached; or at a distribute, which no
// collective follows) cannot make them throw: it prints the message and
// aborts the job, which must end with MPI_Abort's code 1, not the
// timeout's 124. One launch per case, since each ends the job.
// RUN: sh -c 'timeout 120 %mpirun -np 4 %t.off cached-directive; echo "exit code $?"' 2>&1 | FileCheck --check-prefix=ABORT-DIRECTIVE %s
// RUN: sh -c 'timeout 120 %mpirun -np 4 %t.off cached-runtime; echo "exit code $?"' 2>&1 | FileCheck --check-prefix=ABORT-RUNTIME %s
// RUN: sh -c 'timeout 120 %mpirun -np 4 %t.off distribute; echo "exit code $?"' 2>&1 | FileCheck --check-prefix=ABORT-DISTRIBUTE %s
//
// CHECK: ranks: 4
// CHECK-NEXT: extent differs: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: verify: ranks were given different parameters: extent N differs (from 1000 to 1001); this rank has 1000
// CHECK-NEXT: gen_block per rank: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: verify: ranks were given different parameters: target gen_block sizes differs
// CHECK-NEXT: cyclic(0): 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: null pointer: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: on rank 2: the target pointer is null, its distribution gives this rank 25
// CHECK-NEXT: distribute cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#DISTRIBUTE:]]: on rank 2: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: distribute block size differs: 4 of 4 ranks: directive-errors.cpp:[[#DISTRIBUTE]]: verify: ranks were given different parameters: block size differs (from 3 to 4); this rank has 3
// CHECK-NEXT: distribute gen_block sum on one rank: 4 of 4 ranks: directive-errors.cpp:{{[0-9]+}}: on rank 1: distribution gen_block(25,25,25,26): GEN_BLOCK sizes sum to 101, not to N = 100
// CHECK-NEXT: matrix distribute cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#MATRIX:]]: on rank 2: dimension 0: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: matrix distribute rows differ: 4 of 4 ranks: directive-errors.cpp:[[#MATRIX]]: verify: ranks were given different parameters: source extents differs at entry 0 (from 8 to 9); this rank has 8
// CHECK-NEXT: cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#CYCLIC:]]: on rank 1: CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: gen_block length on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH:]]: on rank 2: gen_block has 2 entries but the arrangement has 4 processes
// CHECK-NEXT: gen_block sum on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on rank 3: target distribution gen_block(25,25,25,24): GEN_BLOCK sizes sum to 99, not to N = 100
// CHECK-NEXT: gen_block sums on two ranks: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on ranks 0 and 3; on rank 0: target distribution gen_block(25,25,25,26): GEN_BLOCK sizes sum to 101, not to N = 100
// CHECK-NEXT: assign extents on one rank: 4 of 4 ranks: directive-errors.cpp:[[#ASSIGN:]]: on rank 2: assign between arrays of different extents: 100 and 101
// CHECK-NEXT: done
//
// Without the cross-rank check (--verify=off), values invalid on some ranks
// only are still raised on every rank while no plan was built on the
// communicator (a plan's build agrees anyway); ranks that disagree would
// hang, so that run leaves out the first cases, and the distribute cases,
// which end the job.
// OFF:      cyclic(0) on one rank: 4 of 4 ranks: directive-errors.cpp:[[#CYCLIC:]]: on rank 1: CYCLIC(k)
// OFF-NEXT: gen_block length on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH:]]: on rank 2: gen_block has 2 entries
// OFF-NEXT: gen_block sum on one rank: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on rank 3: target distribution gen_block(25,25,25,24)
// OFF-NEXT: gen_block sums on two ranks: 4 of 4 ranks: directive-errors.cpp:[[#LENGTH]]: on ranks 0 and 3
// OFF-NEXT: assign extents on one rank: 4 of 4 ranks: directive-errors.cpp:[[#ASSIGN:]]: on rank 2: assign between arrays of different extents: 100 and 101
// OFF-NEXT: done
//
// (A killed job may lose the ranks' last lines on stdout, so only the
// aborting rank's message, on stderr, is checked.)
// ABORT-DIRECTIVE: directive-errors.cpp:{{[0-9]+}}: on rank 2: CYCLIC(k): the block size k must be positive, got 0
// ABORT-DIRECTIVE: verification is off
// ABORT-DIRECTIVE: exit code 1{{$}}
// ABORT-RUNTIME: on rank 1: extent N = -1 is negative
// ABORT-RUNTIME: verification is off
// ABORT-RUNTIME: exit code 1{{$}}
// ABORT-DISTRIBUTE: directive-errors.cpp:{{[0-9]+}}: on rank 3: CYCLIC(k): the block size k must be positive, got 0
// ABORT-DISTRIBUTE: verification is off
// ABORT-DISTRIBUTE: exit code 1{{$}}

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

/// A distribute of x with a block size of K, then a redistribute that the
/// ranks must not reach after a failed distribute (x's size is wrong for
/// it, which its own check would name instead).
void distributeCyclic(int K) {
  std::vector<Elem> x(100);
#pragma redist distribute x[100](cyclic(K)) onto P
#pragma redist redistribute x(block)
}

void distributeGenBlock(const std::vector<std::int64_t> &Sizes) {
  std::vector<Elem> x(100);
#pragma redist distribute x[100](gen_block(Sizes)) onto P
#pragma redist redistribute x(block)
}

#pragma redist processors G(2, 2)

/// The same for a matrix of M x 8 with rows cyclic(K) on a 2 x 2 grid.
void distributeMatrix(int K, std::int64_t M) {
  std::vector<Elem> a(64);
#pragma redist distribute a[M][8](cyclic(K), block) onto G
#pragma redist redistribute a(block, block)
}

/// Verification off: every rank builds the plan of block -> cyclic(3) and
/// moves x with it, then rank 2 alone asks for cyclic(0) while the others
/// find theirs cached.
void cachedThenBad() {
  for (int K : {3, Rank == 2 ? 0 : 3}) {
    std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
#pragma redist distribute x[100](block) onto P
#pragma redist redistribute x(cyclic(K))
    checkPart("cached", x, blockCyclic(3), 100, 4);
    std::fflush(stdout);
  }
}

/// The same through the runtime's own API (redist/runtime/Redistribute.h),
/// where the ranks that hit the cache go straight to their messages: rank
/// 1 alone passes an invalid extent the second time.
void cachedThenBadRuntime() {
  redist::PlanOptions O;
  O.Verify = false;
  const redist::Distribution From = redist::Distribution::block(4),
                             To = redist::Distribution::cyclic(4, 3);
  for (std::int64_t N : {100, Rank == 1 ? -1 : 100}) {
    std::vector<Elem> x = localPart(blockOf(100, 4), 100, 4, Rank);
    std::vector<Elem> y(
        static_cast<std::size_t>(redist::Layout(To, 100).localSize(Rank)));
    const redist::Plan &Pl =
        redist::cachedPlan(From, To, N, sizeof(Elem), MPI_COMM_WORLD, O);
    Pl.execute(x.data(), y.data());
    checkPart("cached", y, blockCyclic(3), 100, 4);
    std::fflush(stdout);
  }
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
  // verify(off): y's extent, which differs on rank 2, is left to the
  // assign's own check.
#pragma redist distribute y[M](cyclic) onto P verify(off)
#pragma redist assign y = x
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const std::string Mode = argc > 1 ? argv[1] : "";
  // The cases that end the job (verification off).
  if (Mode == "cached-directive")
    cachedThenBad();
  if (Mode == "cached-runtime")
    cachedThenBadRuntime();
  if (Mode == "distribute")
    distributeCyclic(Rank == 3 ? 0 : 3);
  if (Mode.empty()) {
    expectCaught("extent differs", extentDiffers);
    expectCaught("gen_block per rank", genBlockPerRank);
    expectCaught("cyclic(0)", [argc] { cyclicZero(argc - 1); });
    expectCaught("null pointer", nullPointer);
    expectCaught("distribute cyclic(0) on one rank",
                 [] { distributeCyclic(Rank == 2 ? 0 : 3); });
    expectCaught("distribute block size differs",
                 [] { distributeCyclic(Rank == 1 ? 4 : 3); });
    expectCaught("distribute gen_block sum on one rank", [] {
      distributeGenBlock(Rank == 1 ? std::vector<std::int64_t>{25, 25, 25, 26}
                                   : std::vector<std::int64_t>{25, 25, 25, 25});
    });
    expectCaught("matrix distribute cyclic(0) on one rank",
                 [] { distributeMatrix(Rank == 2 ? 0 : 3, 8); });
    expectCaught("matrix distribute rows differ",
                 [] { distributeMatrix(3, Rank == 1 ? 9 : 8); });
  }
  if (Mode != "" && Mode != "some-ranks") {
    // Not reached: the job was to end above.
    std::printf("rank %d: not aborted\n", Rank);
    MPI_Finalize();
    return 1;
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
