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
// CHECK: [[@LINE+1]]:46: error: unknown clause 'verify' in rebalance directive; expected onto NAME, schedule(ALG), ring(bidirectional), costs(C) or back_costs(C)
#pragma redist rebalance items(Count) onto P verify(on)
// CHECK: [[@LINE+1]]:55: error: unknown ring algorithm 'greedy'; expected auto, uni_homogeneous, uni_heterogeneous, bi_homogeneous or bi_heterogeneous
#pragma redist rebalance items(Count) onto P schedule(greedy)
// CHECK: [[@LINE+1]]:55: error: unknown ring algorithm 'bi'; expected auto, uni_homogeneous, uni_heterogeneous, bi_homogeneous or bi_heterogeneous
#pragma redist rebalance items(Count) onto P schedule(bi-heterogeneous)
// CHECK: [[@LINE+1]]:55: error: the exhaustive search plans small reference instances and cannot move items; expected auto, uni_homogeneous, uni_heterogeneous, bi_homogeneous or bi_heterogeneous
#pragma redist rebalance items(Count) onto P schedule(exhaustive)
// CHECK: [[@LINE+1]]:55: error: expected a ring algorithm name: auto, uni_homogeneous, uni_heterogeneous, bi_homogeneous or bi_heterogeneous
#pragma redist rebalance items(Count) onto P schedule(1)
// CHECK: [[@LINE+1]]:60: error: expected ')' after the ring algorithm name
#pragma redist rebalance items(Count) onto P schedule(auto auto)
// CHECK: [[@LINE+1]]:61: error: duplicate 'schedule' clause
#pragma redist rebalance items(Count) onto P schedule(auto) schedule(auto)
// CHECK: [[@LINE+1]]:52: error: expected '(' and the link costs: a number, an array or a braced list of numbers
#pragma redist rebalance items(Count) onto P costs 2
// CHECK: [[@LINE+1]]:52: error: expected an expression
#pragma redist rebalance items(Count) onto P costs()
// CHECK: [[@LINE+1]]:55: error: duplicate 'costs' clause
#pragma redist rebalance items(Count) onto P costs(1) costs(2)
// CHECK: [[@LINE+1]]:69: error: duplicate 'back_costs' clause
#pragma redist rebalance items(Count) onto P back_costs(1) costs(1) back_costs(1)
// CHECK: [[@LINE+2]]:57: error: unbalanced ')'
// CHECK: [[@LINE+1]]:52: note: to match this '{'
#pragma redist rebalance items(Count) onto P costs({1, 2)
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
