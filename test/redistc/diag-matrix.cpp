// Mistakes in directives on matrices (2-D arrays, the rank-2 case of the N-D
// path, whose words they share) and 1-D arrays, each at the user's text:
// formats that do not match the array's dimensions, arrangements of the
// wrong rank, bad constant sizes per dimension, more dimensions than
// formats, and clauses that do not fit. The
// parser's errors (PARSE) come before the analysis's.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- -ferror-limit=0 > %t.errors 2>&1
// RUN: FileCheck --check-prefix=PARSE %s < %t.errors
// RUN: FileCheck %s < %t.errors
// RUN: not ls %t.out

#include <cstdint>
#include <mpi.h>
#include <vector>

constexpr int Zero = 0;
constexpr std::int64_t Three[3] = {1, 2, 3};

#pragma redist processors G(2, 3)
#pragma redist processors P(4)
// CHECK: diag-matrix.cpp:[[@LINE+1]]:32: error: number of processes must be positive, got 0
#pragma redist processors Z(2, Zero)
#pragma redist processors T(2, 2, 2)
// PARSE: [[@LINE+1]]:32: error: unknown clause 'order' in processors directive; expected comm(EXPR)
#pragma redist processors L(4) order(column_major)
// PARSE: [[@LINE+1]]:41: error: expected row_major or column_major in order(...)
#pragma redist processors R(2, 2) order(diagonal)

void f(std::vector<double> &A, std::vector<double> &B, std::vector<double> &C,
       std::vector<double> &D, std::vector<double> &E, std::vector<double> &F,
       std::vector<double> &H, std::vector<double> &K, double *Ptr,
       std::vector<double> &X, std::vector<double> &Y) {
// CHECK: [[@LINE+1]]:37: error: 'A' has 2 dimensions but 1 format; give one format, or '*', per dimension
#pragma redist distribute A[10][20](block) onto G
// CHECK: [[@LINE+1]]:38: error: 'B' has one dimension: give one format
#pragma redist distribute B[10](block, block) onto P
// CHECK: [[@LINE+1]]:56: error: 'C' has 2 distributed dimensions (formats other than '*') but arrangement 'P' has rank 1
#pragma redist distribute C[10][20](block, block) onto P
// CHECK: [[@LINE+1]]:45: error: array 'D' needs a 1-D processors arrangement, but 'G' is 2-D
#pragma redist distribute D[10](block) onto G
// CHECK: [[@LINE+1]]:51: error: block size must be positive, got 0
#pragma redist distribute E[10][20](block, cyclic(Zero)) onto G
// CHECK: [[@LINE+1]]:33: error: array extent must not be negative, got -5
#pragma redist distribute F[10][-5](block, block) onto G
// CHECK: [[@LINE+1]]:45: error: 'H' has 3 dimensions but 2 formats; give one format, or '*', per dimension
#pragma redist distribute H[2][3][4](block, block) onto G
// CHECK: [[@LINE+1]]:47: error: gen_block has 3 entries but arrangement 'G' has 2 processes
#pragma redist distribute K[10][20](gen_block(Three), block) onto G
// A pointer to room enough is a matrix's local part too, as any array's.
// CHECK-NOT: Ptr
#pragma redist distribute Ptr[10][20](block, block) onto G
// CHECK: [[@LINE+1]]:37: error: invalid distribution: dimension 0 (extent 10, block(2) over 2 processes):
#pragma redist distribute K[10][20](block(2), block) onto G
#pragma redist distribute X[10][20](block, block) onto G
#pragma redist distribute Y[10][20](cyclic(2), block) onto G
// CHECK: [[@LINE+1]]:31: error: 'Y' has 2 dimensions but 1 format; give one format, or '*', per dimension
#pragma redist redistribute Y(block) onto G
// CHECK: [[@LINE+1]]:50: error: 'Y' has 2 distributed dimensions (formats other than '*') but arrangement 'P' has rank 1
#pragma redist redistribute Y(block, block) onto P
}

void g(std::vector<double> &V) {
#pragma redist distribute V[100](block) onto P
// CHECK: [[@LINE+1]]:43: error: array 'V' needs a 1-D processors arrangement, but 'G' is 2-D
#pragma redist redistribute V(block) onto G
// CHECK: [[@LINE+1]]:43: error: array 'V' needs a 1-D processors arrangement, but 'G' is 2-D
#pragma redist rebalance V(V.size()) onto G
}
