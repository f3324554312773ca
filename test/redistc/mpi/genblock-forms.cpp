// End to end, gen_block sizes in every form: a constexpr std::array, a
// constexpr C array and braced lists of constants take the static path
// (tables computed by redistc), a braced list of run-time values the runtime
// path; empty segments first, last and in a row. Translated statically and
// with --dynamic, both must move every element to its place. The arrangement
// has NP processes (-DNP=2, 3 or 4, given to redistc and to the compiler as
// CMake would), and each NP is its own static translation.
//
// RUN: redistc %s -o %t.static4.cpp --report -- -I%S/Inputs -DNP=4 > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=4 %t.static4.cpp -o %t.static4 %redist_libs
// RUN: %mpirun -np 4 %t.static4 > %t.static4.out
// RUN: FileCheck --check-prefixes=CHECK,NP4 %s < %t.static4.out
// RUN: redistc --dynamic %s -o %t.dynamic4.cpp -- -I%S/Inputs -DNP=4
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=4 %t.dynamic4.cpp -o %t.dynamic4 %redist_libs
// RUN: %mpirun -np 4 %t.dynamic4 > %t.dynamic4.out
// RUN: diff %t.static4.out %t.dynamic4.out
//
// RUN: redistc %s -o %t.static3.cpp --report -- -I%S/Inputs -DNP=3 | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=3 %t.static3.cpp -o %t.static3 %redist_libs
// RUN: %mpirun -np 3 %t.static3 > %t.static3.out
// RUN: FileCheck --check-prefixes=CHECK,NP3 %s < %t.static3.out
// RUN: redistc --dynamic %s -o %t.dynamic3.cpp -- -I%S/Inputs -DNP=3
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=3 %t.dynamic3.cpp -o %t.dynamic3 %redist_libs
// RUN: %mpirun -np 3 %t.dynamic3 > %t.dynamic3.out
// RUN: diff %t.static3.out %t.dynamic3.out
//
// RUN: redistc %s -o %t.static2.cpp --report -- -I%S/Inputs -DNP=2 | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=2 %t.static2.cpp -o %t.static2 %redist_libs
// RUN: %mpirun -np 2 %t.static2 > %t.static2.out
// RUN: FileCheck --check-prefixes=CHECK,NP2 %s < %t.static2.out
// RUN: redistc --dynamic %s -o %t.dynamic2.cpp -- -I%S/Inputs -DNP=2
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs -DNP=2 %t.dynamic2.cpp -o %t.dynamic2 %redist_libs
// RUN: %mpirun -np 2 %t.dynamic2 > %t.dynamic2.out
// RUN: diff %t.static2.out %t.dynamic2.out
//
// REPORT: genblock-forms.cpp:{{[0-9]+}}:1: distribute x: block of 1000 elements onto P
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: dynamic ('{RUN_TIME_SIZES}' is not a constant)
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: dynamic (
// REPORT-NEXT: genblock-forms.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
//
// NP4: ranks: 4
// NP4-NEXT: std::array 400,300,200,100: 1000 elements, every element in place
// NP4-NEXT: C array 0,1000,0,0: 1000 elements, every element in place
// NP4-NEXT: braced 250,0,250,500: 1000 elements, every element in place
// NP4-NEXT: braced constants 100,200,0,700: 1000 elements, every element in place
// NP4-NEXT: braced run-time values 1000,0,0,0: 1000 elements, every element in place
// NP4-NEXT: braced 0,0,0,1000 to cyclic(3): 1000 elements, every element in place
// NP3: ranks: 3
// NP3-NEXT: std::array 501,333,166: 1000 elements, every element in place
// NP3-NEXT: C array 0,1000,0: 1000 elements, every element in place
// NP3-NEXT: braced 250,0,750: 1000 elements, every element in place
// NP3-NEXT: braced constants 100,0,900: 1000 elements, every element in place
// NP3-NEXT: braced run-time values 1000,0,0: 1000 elements, every element in place
// NP3-NEXT: braced 0,0,1000 to cyclic(3): 1000 elements, every element in place
// NP2: ranks: 2
// NP2-NEXT: std::array 667,333: 1000 elements, every element in place
// NP2-NEXT: C array 0,1000: 1000 elements, every element in place
// NP2-NEXT: braced 250,750: 1000 elements, every element in place
// NP2-NEXT: braced constants 100,900: 1000 elements, every element in place
// NP2-NEXT: braced run-time values 1000,0: 1000 elements, every element in place
// NP2-NEXT: braced 0,1000 to cyclic(3): 1000 elements, every element in place
// CHECK-NEXT: done

#include "check.h"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#ifndef NP
#define NP 4
#endif

constexpr std::int64_t N = 1000;
constexpr int K = 100;

// Sizes that need one entry per process, in braced lists.
#if NP == 2
#define BRACED_SIZES 250, 750
#define CONSTANT_SIZES K, N - K
#define RUN_TIME_SIZES First, N - First
#define LAST_SIZES 0, N
#elif NP == 3
#define BRACED_SIZES 250, 0, 750
#define CONSTANT_SIZES K, 0, N - K
#define RUN_TIME_SIZES First, 0, N - First
#define LAST_SIZES 0, 0, N
#elif NP == 4
#define BRACED_SIZES 250, 0, 250, 500
#define CONSTANT_SIZES K, 2 * K, 0, N - 3 * K
#define RUN_TIME_SIZES First, 0, 0, N - First
#define LAST_SIZES 0, 0, 0, N
#else
#error "NP must be 2, 3 or 4"
#endif

#pragma redist processors P(NP)

/// Descending sizes NP, NP - 1, ..., 1 scaled to N; the first takes the
/// rounding remainder.
constexpr std::array<long, NP> descendingSizes() {
  std::array<long, NP> S{};
  long Sum = 0;
  for (int I = 0; I < NP; ++I) {
    S[I] = N * 2 * (NP - I) / (NP * (NP + 1));
    Sum += S[I];
  }
  S[0] += N - Sum;
  return S;
}

constexpr std::array<long, NP> StdSizes = descendingSizes();
// Empty first; the entries not given are 0: empty last (and in a row).
constexpr std::int64_t CSizes[NP] = {0, N};

/// "Label 1,2,3": the label and the sizes it checks.
template <typename Sizes> std::string label(const char *Label, const Sizes &S) {
  std::string Out = Label;
  const char *Sep = " ";
  for (auto Size : S) {
    Out += Sep + std::to_string(Size);
    Sep = ",";
  }
  return Out;
}

/// Checks x against gen_block sizes S.
template <typename Sizes>
void check(const char *Label, const std::vector<Elem> &x, const Sizes &S) {
  std::vector<std::int64_t> V(std::begin(S), std::end(S));
  checkPart(label(Label, V).c_str(), x, genBlock(V), N, NP);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (worldSize() != NP) {
    std::printf("WRONG: expected %d processes\n", NP);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  // A run-time value the translator cannot know (argc is 1).
  const std::int64_t First = N * argc;

  std::vector<Elem> x = localPart(blockOf(N, NP), N, NP, Rank);
#pragma redist distribute x[N](block) onto P
#pragma redist redistribute x(gen_block(StdSizes))
  check("std::array", x, StdSizes);
#pragma redist redistribute x(gen_block(CSizes))
  check("C array", x, CSizes);
#pragma redist redistribute x(gen_block({BRACED_SIZES}))
  check("braced", x, std::vector<std::int64_t>{BRACED_SIZES});
#pragma redist redistribute x(gen_block({CONSTANT_SIZES}))
  check("braced constants", x, std::vector<std::int64_t>{CONSTANT_SIZES});
#pragma redist redistribute x(gen_block({RUN_TIME_SIZES}))
  check("braced run-time values", x, std::vector<std::int64_t>{RUN_TIME_SIZES});
  // Back to a known distribution (at run time: the source is not known),
  // so that the next directive is static.
#pragma redist redistribute x(gen_block({LAST_SIZES}))
#pragma redist redistribute x(cyclic(3))
  checkPart(label("braced", std::vector<std::int64_t>{LAST_SIZES})
                .append(" to cyclic(3)")
                .c_str(),
            x, blockCyclic(3), N, NP);

  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
