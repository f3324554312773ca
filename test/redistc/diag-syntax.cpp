// Syntax errors in directives: each is reported at the offending token with
// Clang's format (file:line:col, the source line and a caret), translation
// fails and no output file is written.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- -ferror-limit=0 2>&1 | FileCheck %s
// RUN: not ls %t.out

#include <vector>

// CHECK: diag-syntax.cpp:[[@LINE+1]]:16: error: unknown redist directive 'scatter'; expected processors, distribute, redistribute, assign, rebalance or inquire
#pragma redist scatter x
// CHECK: [[@LINE+1]]:15: error: expected a redist directive
#pragma redist
// CHECK: [[@LINE+1]]:16: error: unknown redist directive '42'
#pragma redist 42
// CHECK: [[@LINE+1]]:27: error: expected an arrangement name after 'processors'
#pragma redist processors (4)
// CHECK: [[@LINE+1]]:28: error: expected '(' and the number of processes
#pragma redist processors P
// CHECK: [[@LINE+1]]:29: error: expected an expression
#pragma redist processors P()
// CHECK: [[@LINE+1]]:32: error: unknown clause 'onto' in processors directive; expected comm(EXPR)
#pragma redist processors P(4) onto Q
// CHECK: [[@LINE+1]]:53: error: duplicate 'comm' clause
#pragma redist processors P(4) comm(MPI_COMM_WORLD) comm(MPI_COMM_WORLD)
// CHECK: [[@LINE+1]]:32: error: expected ')'
#pragma redist processors P((4)
// CHECK: [[@LINE+1]]:30: error: unbalanced ']'
#pragma redist processors P(4]
// CHECK: [[@LINE-1]]:28: note: to match this '('

std::vector<double> x;
// CHECK: [[@LINE+1]]:27: error: expected a variable name
#pragma redist distribute 3[8](block) onto P
// CHECK: [[@LINE+1]]:28: error: expected '[' and the global number of elements
#pragma redist distribute x(block) onto P
// CHECK: [[@LINE+1]]:32: error: malformed distribution format: expected block, block(E), cyclic, cyclic(E) or gen_block(A)
#pragma redist distribute x[8](blocky) onto P
// CHECK: [[@LINE+1]]:38: error: expected ')'
#pragma redist distribute x[8](block 2) onto P
// CHECK: [[@LINE+1]]:41: error: expected '(' and an array of sizes after gen_block
#pragma redist distribute x[8](gen_block) onto P
// CHECK: [[@LINE+1]]:38: error: expected 'onto NAME' naming a processors arrangement
#pragma redist distribute x[8](block)
// CHECK: [[@LINE+1]]:39: error: unknown clause 'schedule' in distribute directive; expected onto NAME
#pragma redist distribute x[8](block) schedule(auto) onto P
// CHECK: [[@LINE+1]]:46: error: duplicate 'onto' clause
#pragma redist distribute x[8](block) onto P onto P

void f() {
// CHECK: [[@LINE+1]]:30: error: expected '(' and a distribution format
#pragma redist redistribute x
// CHECK: [[@LINE+1]]:38: error: unknown clause 'into' in redistribute directive; expected onto NAME, schedule(ALG) or verify(on|off)
#pragma redist redistribute x(block) into P
// CHECK: [[@LINE+1]]:47: error: unknown schedule algorithm 'fastest'; expected auto, caterpillar, walker_otto, classes, stepwise
#pragma redist redistribute x(block) schedule(fastest)
// CHECK: [[@LINE+1]]:46: error: expected '(' and an algorithm name
#pragma redist redistribute x(block) schedule
// CHECK: [[@LINE+1]]:51: error: expected ')' after the algorithm name
#pragma redist redistribute x(block) schedule(auto
// CHECK: [[@LINE+1]]:25: error: expected '=' after the target variable
#pragma redist assign x x
// CHECK: [[@LINE+1]]:29: error: unknown clause 'onto' in assign directive; expected schedule(ALG) or verify(on|off)
#pragma redist assign x = x onto P
// CHECK: [[@LINE+1]]:33: error: expected '->' after 'this'
#pragma redist redistribute this.x(block)
}
