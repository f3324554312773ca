// End to end, gen_block sizes in every form: a constexpr std::array, a
// constexpr C array and braced lists of constants take the static path
// (tables computed by redistc), a braced list of run-time values the runtime
// path; empty segments first, last and in a row. Translated statically and
// with --dynamic, both must move every element to its place.
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 4 %t.static > %t.static.out
// RUN: FileCheck %s < %t.static.out
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 4 %t.dynamic > %t.dynamic.out
// RUN: diff %t.static.out %t.dynamic.out
//
// REPORT: genblock-forms.cpp:{{[0-9]+}}:1: distribute x: block of 1000 elements onto P
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: dynamic ('{First, 0, 0, N - First}' is not a constant)
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: dynamic (
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
//
// CHECK: ranks: 4
// CHECK-NEXT: std::array 400,300,200,100: 1000 elements, every element in place
// CHECK-NEXT: C array 0,0,600,400: 1000 elements, every element in place
// CHECK-NEXT: braced 250,0,250,500: 1000 elements, every element in place
// CHECK-NEXT: braced constants 100,200,0,700: 1000 elements, every element in place
// CHECK-NEXT: braced run-time values 1000,0,0,0: 1000 elements, every element in place
// CHECK-NEXT: braced 0,0,0,1000 to cyclic(3): 1000 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <vector>

#pragma redist processors P(4)

constexpr std::int64_t N = 1000;
constexpr int K = 100;
constexpr std::array<long, 4> StdSizes = {400, 300, 200, 100};
constexpr std::int64_t CSizes[4] = {0, 0, 600, 400};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  worldSize();
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  // A run-time value the translator cannot know (argc is 1).
  const std::int64_t First = N * argc;

  std::vector<Elem> x = localPart(blockOf(N, 4), N, 4, Rank);
#pragma redist distribute x[N](block) onto P
#pragma redist redistribute x(gen_block(StdSizes))
  checkPart("std::array 400,300,200,100", x, genBlock({400, 300, 200, 100}), N,
            4);
#pragma redist redistribute x(gen_block(CSizes))
  checkPart("C array 0,0,600,400", x, genBlock({0, 0, 600, 400}), N, 4);
#pragma redist redistribute x(gen_block({250, 0, 250, 500}))
  checkPart("braced 250,0,250,500", x, genBlock({250, 0, 250, 500}), N, 4);
#pragma redist redistribute x(gen_block({K, 2 * K, 0, N - 3 * K}))
  checkPart("braced constants 100,200,0,700", x, genBlock({100, 200, 0, 700}),
            N, 4);
#pragma redist redistribute x(gen_block({First, 0, 0, N - First}))
  checkPart("braced run-time values 1000,0,0,0", x, genBlock({1000, 0, 0, 0}),
            N, 4);
  // Back to a known distribution (at run time: the source is not known),
  // so that the next directive is static.
#pragma redist redistribute x(gen_block({0, 0, 0, 1000}))
#pragma redist redistribute x(cyclic(3))
  checkPart("braced 0,0,0,1000 to cyclic(3)", x, blockCyclic(3), N, 4);

  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
