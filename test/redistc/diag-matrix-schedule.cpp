// A schedule that does not apply to a matrix whose layouts are constant:
// redistc asks the library, as it does for arrays (an error of code
// generation, reported once the directives are otherwise right).
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- 2>&1 | FileCheck %s
// RUN: not ls %t.out

#include <mpi.h>
#include <vector>

#pragma redist processors G(2, 3)

void f(std::vector<double> &A) {
#pragma redist distribute A[100][60](cyclic(3), block) onto G
// CHECK: diag-matrix-schedule.cpp:[[@LINE+1]]:58: error: schedule(product(scpa)) does not apply to this redistribution: on the rows, the source cyclic(3) over 100 elements gives some process more than one segment
#pragma redist redistribute A(cyclic(5), block) schedule(scpa)
}
