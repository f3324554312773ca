// Names that are not in scope, names declared twice, and directives in places
// where their code cannot go.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not redistc %t/lookup.cpp -o %t/lookup.out -- 2>&1 | FileCheck %t/lookup.cpp
// RUN: not ls %t/lookup.out
// RUN: not redistc %t/placement.cpp -o %t/placement.out -- 2>&1 | FileCheck %t/placement.cpp
// RUN: not ls %t/placement.out
// RUN: not redistc %t/clang-errors.cpp -o %t/clang-errors.out -- 2>&1 | FileCheck %t/clang-errors.cpp
// RUN: not ls %t/clang-errors.out

//--- lookup.cpp
#include <mpi.h>
#include <vector>

#pragma redist processors P(4)

void f(std::vector<double> &X, std::vector<double> &Y, std::vector<int> &Z) {
// CHECK: lookup.cpp:[[@LINE+1]]:29: error: 'X' has no distribute directive in scope
#pragma redist redistribute X(cyclic)
  {
#pragma redist processors Inner(2)
#pragma redist distribute Y[10](block) onto Inner
  }
// CHECK: [[@LINE+1]]:45: error: unknown processors arrangement 'Inner'
#pragma redist distribute X[10](block) onto Inner
// CHECK: [[@LINE+1]]:29: error: 'Y' has no distribute directive in scope
#pragma redist redistribute Y(cyclic)
// An arrangement may shadow one of an enclosing scope, not one of its own.
#pragma redist processors P(8)
// CHECK: [[@LINE+2]]:27: error: processors arrangement 'P' is already declared in this scope
// CHECK: [[@LINE-2]]:27: note: previous declaration is here
#pragma redist processors P(2)
// CHECK: [[@LINE+1]]:43: error: unknown processors arrangement 'Q'
#pragma redist redistribute Y(block) onto Q
#pragma redist distribute Z[10](block) onto P
// CHECK: [[@LINE+2]]:27: error: 'Z' is already distributed
// CHECK: [[@LINE-2]]:16: note: previous distribute is here
#pragma redist distribute Z[10](cyclic) onto P
// CHECK: [[@LINE+1]]:27: error: assign of 'Z' to itself
#pragma redist assign Z = Z
}

// assign needs a distribute for both of its variables.
void g(std::vector<double> &A, std::vector<double> &B) {
#pragma redist distribute A[10](block) onto P
// CHECK: lookup.cpp:[[@LINE+1]]:23: error: 'B' has no distribute directive in scope
#pragma redist assign B = A schedule(greedy)
// CHECK-NEXT: {{^}}#pragma redist assign B = A schedule(greedy)
// CHECK-NEXT: {{^ +\^$}}
// CHECK: lookup.cpp:[[@LINE+1]]:27: error: 'B' has no distribute directive in scope
#pragma redist assign A = B
// CHECK-NEXT: {{^}}#pragma redist assign A = B
}
// CHECK-NOT: error:

//--- placement.cpp
#include <mpi.h>
#include <vector>

#pragma redist processors P(4)
std::vector<double> G;
#pragma redist distribute G[10](block) onto P
std::vector<double> H;
// CHECK-DAG: placement.cpp:[[@LINE+1]]:54: error: verify clause on a distribute directive at namespace scope: its distribution is made where the variable is first used, on each rank alone, with no agreement to turn on or off
#pragma redist distribute H[10](block) onto P verify(on)
// CHECK-DAG: placement.cpp:[[@LINE+1]]:16: error: redistribute directive must appear in a function body
#pragma redist redistribute G(cyclic)

struct S {
  std::vector<double> M;
// The class is refused while parsing, before the others are analysed.
// CHECK-DAG: [[@LINE+1]]:16: error: distribute directive must appear at namespace scope or in a function body, not in a class
#pragma redist distribute M[10](block) onto P
};

void f(bool C) {
  std::vector<double> X;
  if (C)
// CHECK-DAG: [[@LINE+1]]:16: error: distribute directive must appear directly in a block or at namespace scope, not as the body of a statement
#pragma redist distribute X[10](block) onto P
  (void)X;
}
// CHECK-NOT: error:

//--- clang-errors.cpp
// Expressions in directives are parsed by Clang in the directive's scope:
// Clang's own errors point at the user's text.
#include <mpi.h>
#include <vector>

void f(std::vector<double> &X) {
// CHECK: clang-errors.cpp:[[@LINE+1]]:29: error: use of undeclared identifier 'nprocs'
#pragma redist processors P(nprocs)
// CHECK: [[@LINE+1]]:29: error: use of undeclared identifier 'n'
#pragma redist distribute X[n](block) onto P
// CHECK: [[@LINE+1]]:32: error: integer literal is too large to be represented in any integer type
#pragma redist processors Huge(123456789012345678901234567890)
// CHECK: [[@LINE+1]]:29: error: use of undeclared identifier 'Unknown'
#pragma redist redistribute Unknown(block)
}
