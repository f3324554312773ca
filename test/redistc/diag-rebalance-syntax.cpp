// Syntax and placement errors of the rebalance directive: each at the
// offending token, in Clang's format; translation fails and writes nothing.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- -ferror-limit=0 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not ls %t.out

#include <vector>

struct Particle {
  double X;
};

void f(long Count) {
#pragma redist processors P(4)
  std::vector<Particle> items;
// CHECK: diag-rebalance-syntax.cpp:[[@LINE+1]]:38: error: expected 'onto NAME' naming a processors arrangement
#pragma redist rebalance items(Count)
// CHECK: [[@LINE+1]]:46: error: unknown clause 'schedule' in rebalance directive; expected onto NAME or ring(bidirectional)
#pragma redist rebalance items(Count) onto P schedule(greedy)
// CHECK: [[@LINE+1]]:51: error: expected 'bidirectional' or 'unidirectional'
#pragma redist rebalance items(Count) onto P ring(sideways)
// CHECK: [[@LINE+1]]:51: error: duplicate 'ring' clause
#pragma redist rebalance items(Count) onto P ring ring
// CHECK: [[@LINE+1]]:32: error: expected '(' and the number of items this process must hold
#pragma redist rebalance items onto P
// CHECK: [[@LINE+1]]:46: error: duplicate 'onto' clause
#pragma redist rebalance items(Count) onto P onto P
}

// Placement is checked after parsing, so this error comes last.
std::vector<Particle> global;
#pragma redist processors Q(4)
// CHECK: [[@LINE+1]]:16: error: rebalance directive must appear in a function body
#pragma redist rebalance global(3) onto Q
