// Constant parameters with bad values, found by evaluating the directive's
// expressions with Clang: non-positive sizes, gen_block mismatches, values
// the schedule library rejects, and expressions of the wrong type.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- 2>&1 | FileCheck %s
// RUN: not ls %t.out

#include <array>
#include <cstdint>
#include <mpi.h>
#include <vector>

constexpr int Zero = 0;
constexpr int64_t Sizes4[4] = {10, 20, 30, 40};
constexpr std::array<int, 3> Sizes3 = {1, 2, 3};
constexpr int Negative[4] = {50, -1, 25, 26};
const double Fractions[4] = {0.25, 0.25, 0.25, 0.25};
enum { Four = 4 };

// CHECK: diag-values.cpp:[[@LINE+1]]:29: error: number of processes must be positive, got 0
#pragma redist processors Z(Zero)
// CHECK: [[@LINE+1]]:37: error: comm expression must be an MPI_Comm, not 'int'
#pragma redist processors C(4) comm(42)
// CHECK: [[@LINE+1]]:29: error: number of processes must be an integer expression, not 'double'
#pragma redist processors D(2.5)
#pragma redist processors P(Four)

void f(std::vector<double> &A, std::vector<double> &B, std::vector<double> &G,
       std::vector<double> &H, std::vector<double> &K, std::vector<double> &L,
       std::vector<double> &M) {
// CHECK: [[@LINE+1]]:40: error: block size must be positive, got 0
#pragma redist distribute A[100](block(Zero)) onto P
// CHECK: [[@LINE+1]]:41: error: block size must be positive, got -2
#pragma redist distribute B[100](cyclic(-2)) onto P
// CHECK: [[@LINE+1]]:29: error: array extent must not be negative, got -1
#pragma redist distribute G[-1](block) onto P
// CHECK: [[@LINE+1]]:42: error: gen_block has 3 entries but arrangement 'P' has 4 processes
#pragma redist distribute H[6](gen_block(Sizes3)) onto P
// CHECK: [[@LINE+1]]:43: error: gen_block sizes sum to 100 but the extent of 'K' is 99
#pragma redist distribute K[99](gen_block(Sizes4)) onto P
// CHECK: [[@LINE+1]]:44: error: gen_block size -1 of process 1 is negative
#pragma redist distribute L[100](gen_block(Negative)) onto P
// CHECK: [[@LINE+1]]:44: error: gen_block sizes must be an array or a std::vector of integers, not 'const double[4]'
#pragma redist distribute M[100](gen_block(Fractions)) onto P
}

void g(std::vector<double> &A, std::vector<double> &B, std::vector<float> &C) {
// CHECK: [[@LINE+1]]:34: error: invalid distribution: BLOCK(10) {{.*}}100
#pragma redist distribute A[100](block(10)) onto P
// CHECK: [[@LINE+1]]:41: error: block size must be an integer expression, not 'std::vector<double>'
#pragma redist distribute B[100](cyclic(A)) onto P
// CHECK: [[@LINE+1]]:42: error: unexpected ',' in block size: expected one expression
#pragma redist distribute C[100](cyclic(2, 3)) onto P
}

void h(std::vector<double> &A, std::vector<double> &B) {
#pragma redist distribute A[1000](cyclic(3)) onto P
#pragma redist distribute B[999](block) onto P
// CHECK: [[@LINE+1]]:16: error: assign between arrays of different extents: 'B' has 999 elements, 'A' has 1000
#pragma redist assign B = A
// CHECK: [[@LINE+1]]:38: error: block size must be positive, got 0
#pragma redist redistribute A(cyclic(Zero))
#pragma redist processors Two(2)
// CHECK: [[@LINE+1]]:41: error: gen_block has 4 entries but arrangement 'Two' has 2 processes
#pragma redist redistribute A(gen_block(Sizes4)) onto Two
}
// CHECK-NOT: error:
