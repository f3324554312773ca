// Mistakes in directives on arrays of any rank, each at the user's text:
// a format count that differs from the array's rank, a count of non-'*'
// formats that differs from the arrangement's rank, a permutation that is
// not one, extents that differ after the permutation, a constant section
// out of range, gen_block sums named by dimension and extent (the
// library's words), and the same rules for a 1-D array, the rank-1 case.
// The parser's errors (PARSE) come before the analysis's.
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
constexpr std::int64_t Sizes[2] = {3, 4};

#pragma redist processors G(2, 3)
#pragma redist processors P(4)
#pragma redist processors T(2, 2, 2)
#pragma redist processors Q(2)
// CHECK: diag-array.cpp:[[@LINE+1]]:35: error: number of processes must be positive, got 0
#pragma redist processors Z(2, 2, Zero)
// PARSE: [[@LINE+1]]:48: error: redist distributes arrays of rank 1 to 7 over arrangements of rank 1 to 7
#pragma redist processors H(1, 1, 1, 1, 1, 1, 1, 1)

void f(std::vector<double> &A, std::vector<double> &B, std::vector<double> &C,
       std::vector<double> &D, std::vector<double> &E, std::vector<double> &F,
       std::vector<double> &U, std::vector<double> &V, std::vector<double> &W,
       std::vector<double> &M, std::vector<double> &X, double *Y) {
// CHECK: [[@LINE+1]]:45: error: 'A' has 3 dimensions but 2 formats; give one format, or '*', per dimension
#pragma redist distribute A[4][5][6](block, block) onto G
// CHECK: [[@LINE+1]]:60: error: 'B' has 2 distributed dimensions (formats other than '*') but arrangement 'T' has rank 3
#pragma redist distribute B[4][5][6](block, block, *) onto T
// CHECK: [[@LINE+1]]:64: error: 'C' has 3 distributed dimensions (formats other than '*') but arrangement 'G' has rank 2
#pragma redist distribute C[4][5][6](block, block, block) onto G
// CHECK: [[@LINE+1]]:38: error: invalid distribution: dimension 1 (extent 5, gen_block(3;4) over 2 processes): GEN_BLOCK sizes sum to 7, not to N = 5
#pragma redist distribute D[4][5](*, gen_block(Sizes)) onto Q storage(row_major)
// CHECK: [[@LINE+1]]:32: error: array extent must not be negative, got -5
#pragma redist distribute E[4][-5][6](*, block, block) onto G
// PARSE: [[@LINE+1]]:70: error: expected row_major or column_major in storage(...)
#pragma redist distribute F[4][5][6](*, block, block) onto G storage(diagonal)
#pragma redist distribute U[4][5][6](*, block, block) onto G storage(row_major)
#pragma redist distribute V[6][4][5](block, *, *) onto P
#pragma redist distribute W[4][5][6](block, *, *) onto P
#pragma redist distribute M[4][5](block, block) onto G
#pragma redist distribute X[20](block) onto P
#pragma redist distribute Y[20](cyclic(2)) onto P
// CHECK: [[@LINE+1]]:38: error: 'U' has 3 dimensions but 2 formats; give one format, or '*', per dimension
#pragma redist redistribute U(block, *) onto P
// CHECK: [[@LINE+1]]:53: error: 'U' has 2 distributed dimensions (formats other than '*') but arrangement 'P' has rank 1
#pragma redist redistribute U(block, *, block) onto P
// A matrix takes '*' as any array does; then it needs a 1-D arrangement.
// CHECK: [[@LINE+1]]:46: error: 'M' has 1 distributed dimension (formats other than '*') but arrangement 'G' has rank 2
#pragma redist redistribute M(*, block) onto G
// CHECK: [[@LINE+1]]:27: error: invalid assign: the permutation is not one: entry 2 is 1, listed twice
#pragma redist assign V = permute(U, 2, 1, 1)
// CHECK: [[@LINE+1]]:27: error: invalid assign: the permutation has 2 entries for arrays of rank 3
#pragma redist assign V = permute(U, 1, 0)
// CHECK: [[@LINE+1]]:16: error: invalid assign: the extents differ after the permutation: target dimension 0 has 6, source dimension 1 has 5
#pragma redist assign V = permute(U, 1, 2, 0)
// CHECK: [[@LINE+1]]:31: error: invalid assign: the source section of dimension 1, [2, 9), is outside the extent 5
#pragma redist assign W = U[:][2:9][:]
// CHECK: [[@LINE+1]]:24: error: invalid assign: the target section of dimension 0, [3, 2), is outside the extent 4
#pragma redist assign W[3:2][:][:] = U
// CHECK: [[@LINE+1]]:16: error: invalid assign: the extents differ after the permutation: target dimension 0 has 2, source dimension 0 has 4
#pragma redist assign W[0:2][:][:] = U
// CHECK: [[@LINE+1]]:16: error: assign between 'M' of rank 2 and 'U' of rank 3
#pragma redist assign M = U
// A 1-D array is the rank-1 case, with sections and permute as any array.
// CHECK: [[@LINE+1]]:16: error: assign between 'W' of rank 3 and 'X' of rank 1
#pragma redist assign W = X[0:4]
// CHECK: [[@LINE+1]]:27: error: invalid assign: the permutation is not one: entry 0 is 1, outside [0, 1)
#pragma redist assign Y = permute(X, 1)
// CHECK: [[@LINE+1]]:28: error: invalid assign: the source section of dimension 0, [4, 24), is outside the extent 20
#pragma redist assign Y = X[4:24]
// CHECK: [[@LINE+1]]:16: error: invalid assign: the extents differ after the permutation: target dimension 0 has 20, source dimension 0 has 8
#pragma redist assign Y = X[0:8]
// PARSE: [[@LINE+1]]:44: error: expected an axis number (an integer literal) in permute(...)
#pragma redist assign V = permute(U, 2, 0, Zero)
}
