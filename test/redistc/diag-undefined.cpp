// A constant expression whose evaluation has undefined behaviour (a division
// by zero, an overflow, a shift too far, an index out of bounds) is an error
// at translation time, at the operation, on both paths: it is no run-time
// value, and the generated code would execute it.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- 2>&1 | FileCheck %s
// RUN: not ls %t.out
// RUN: not redistc --dynamic %s -o %t.out -- 2>&1 | FileCheck %s
// RUN: not ls %t.out

#include <cstdint>
#include <vector>

constexpr int Zero = 0;
constexpr std::int64_t Sizes4[4] = {10, 20, 30, 40};

// CHECK: diag-undefined.cpp:[[@LINE+1]]:33: error: number of processes '1 << 40' has undefined behaviour: shift count 40 >= width of type 'int' (32 bits)
#pragma redist processors Big(1 << 40)
#pragma redist processors P(4)

void f(std::vector<double> &A, std::vector<double> &B,
       std::vector<double> &C, std::vector<double> &D, int k) {
// CHECK: [[@LINE+1]]:41: error: block size '1/0' has undefined behaviour: division by zero
#pragma redist distribute A[100](block(1/0)) onto P
// CHECK: [[@LINE+1]]:39: error: array extent 'INT64_MAX + 1' has undefined behaviour: value 9223372036854775808 is outside the range of representable values of type 'long'
#pragma redist distribute B[INT64_MAX + 1](cyclic) onto P
#pragma redist distribute C[100](cyclic(k)) onto P
// CHECK: [[@LINE+1]]:40: error: block size '4 % Zero' has undefined behaviour: division by zero
#pragma redist redistribute C(cyclic(4 % Zero))
// CHECK: [[@LINE+1]]:37: error: block size 'Sizes4[7]' has undefined behaviour: cannot refer to element 7 of array of 4 elements in a constant expression
#pragma redist redistribute C(block(Sizes4[7]))
#pragma redist distribute D[100](block) onto P
// CHECK: [[@LINE+1]]:49: error: gen_block size '{50, 50 / Zero, 0, 0}' has undefined behaviour: division by zero
#pragma redist redistribute D(gen_block({50, 50 / Zero, 0, 0}))
}
// A value known at run time only stays dynamic: no error for k.
// CHECK-NOT: error:
