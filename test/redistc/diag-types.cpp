// Variables that cannot be distributed or redistributed: wrong kinds, element
// types that are not trivially copyable, and variables that cannot be
// resized.
//
// RUN: rm -f %t.out
// RUN: not redistc %s -o %t.out -- 2>&1 | FileCheck %s
// RUN: not ls %t.out

#include <list>
#include <mpi.h>
#include <string>
#include <vector>

#pragma redist processors P(4)

void work(double *Ptr, std::list<double> &L, int Scalar) {
  std::vector<std::string> Names;
  double Arr[100];
  std::vector<double> Fine;
// CHECK: diag-types.cpp:[[@LINE+1]]:27: error: 'L' has type 'std::list<double>': a distributed variable must be a std::vector, a pointer or an array
#pragma redist distribute L[100](block) onto P
// CHECK: [[@LINE+1]]:27: error: 'Scalar' has type 'int': a distributed variable must be a std::vector, a pointer or an array
#pragma redist distribute Scalar[100](block) onto P
// CHECK: [[@LINE+1]]:27: error: element type 'std::{{.*}}string{{.*}}' of 'Names' is not trivially copyable
#pragma redist distribute Names[100](block) onto P
// CHECK: [[@LINE+1]]:27: error: expected a variable name
#pragma redist distribute work[100](block) onto P
#pragma redist distribute Ptr[100](block) onto P
#pragma redist distribute Arr[100](block) onto P
#pragma redist distribute Fine[100](block) onto P
// CHECK: [[@LINE+2]]:29: error: cannot redistribute 'Ptr' of type 'double *': it cannot be resized (only a std::vector can)
// CHECK: [[@LINE+1]]:16: note: use 'assign' to copy it into a variable distributed the new way
#pragma redist redistribute Ptr(cyclic)
// CHECK: [[@LINE+1]]:29: error: cannot redistribute 'Arr' of type 'double[100]': it cannot be resized
#pragma redist redistribute Arr(cyclic)
}

void constant(const std::vector<double> &In, std::vector<double> &Out) {
#pragma redist distribute In[100](block) onto P
#pragma redist distribute Out[100](cyclic) onto P
// CHECK: [[@LINE+1]]:29: error: cannot write to 'In' of type 'const std::vector<double>'
#pragma redist redistribute In(cyclic)
// CHECK: [[@LINE+1]]:23: error: cannot write to 'In' of type 'const std::vector<double>'
#pragma redist assign In = Out
}
// CHECK-NOT: error:
