// End to end, 1-D arrays as the rank-1 case of the array directives:
// assigns with sections (target elements outside the section keep their
// values), permute(x, 0), between every 1-D format (cyclic(k), gen_block,
// block, block(k)), into a pointer, with a rank-1 array of the N-D form,
// after a 1-D redistribute and before one (the local part stays the same
// storage), in a function template's instantiations, with values known
// only at run time, on an arrangement of the world's size, and a whole
// assign with schedule(product(greedy)), which is greedy. After every
// directive each rank's local part is compared element by element, at its
// local offset, with the HPF definitions (check.h, not redist's index
// maps). Static and forced-dynamic translations print the same, on 3 ranks
// and on 4 (the fourth beyond the 3-process arrangement, without data). A
// section outside the array on one rank only raises the same error on every
// rank before anything moves.
// (Not clang-formatted: RUN and CHECK lines must stay whole.)
//
// RUN: redistc %s -o %t.static.cpp --report -- -I%S/Inputs > %t.report
// RUN: FileCheck --check-prefix=REPORT %s < %t.report
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.static.cpp -o %t.static %redist_libs
// RUN: %mpirun -np 3 %t.static > %t.static3.out
// RUN: FileCheck --check-prefixes=CHECK,THREE %s < %t.static3.out
// RUN: %mpirun -np 4 %t.static > %t.static4.out
// RUN: FileCheck --check-prefixes=CHECK,FOUR %s < %t.static4.out
// RUN: redistc --dynamic %s -o %t.dynamic.cpp -- -I%S/Inputs
// RUN: not grep -q 'static[A]rrayPlan' %t.dynamic.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.dynamic.cpp -o %t.dynamic %redist_libs
// RUN: %mpirun -np 3 %t.dynamic | diff %t.static3.out -
// RUN: %mpirun -np 4 %t.dynamic | diff %t.static4.out -
// RUN: grep '^ *static constexpr redist::TranslatedArraySchedule redistc_schedule = {$' %t.static.cpp | count 8
//
// REPORT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign u = v in tiles<2>: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign u = v in tiles<5>: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign u = v in other instantiations: dynamic ('B' is not a constant)
// REPORT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = x: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = x: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = x: static; schedule greedy
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = x: static; schedule greedy: {{[0-9]+}} step
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: distribute z: block(25)
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign z = y: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: distribute r: (cyclic(3)) of 60 onto P, row-major storage
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign r = x: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign x = r: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: redistribute x: static; schedule
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: distribute w: cyclic(K)
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign w = x: dynamic ('K' is not a constant)
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = w: dynamic ('K' is not a constant)
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: processors R: 'Size' processes, known at run time
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: distribute q: block of 60 elements onto R
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign q = y: dynamic (the number of processes of 'R' is not a constant)
// REPORT-NEXT: rank-one-arrays.cpp:{{[0-9]+}}:1: assign y = x: dynamic (the distribution of 'x' is only known at run time)
//
// THREE: ranks: 3
// FOUR: ranks: 4
// CHECK: template tiles<2>: 60 elements, every element in place
// CHECK-NEXT: template tiles<5>: 60 elements, every element in place
// CHECK-NEXT: distribute x cyclic(4): 60 elements, every element in place
// CHECK-NEXT: distribute y gen_block(25,5,30): 60 elements, every element in place
// CHECK-NEXT: assign y[10:40] = x[20:50], cyclic(4) -> gen_block: 60 elements, every element in place
// CHECK-NEXT: assign y = permute(x, 0): 60 elements, every element in place
// CHECK-NEXT: redistribute x block: 60 elements, every element in place
// CHECK-NEXT: assign y[0:30] = x[30:60] schedule(greedy), block -> gen_block: 60 elements, every element in place
// CHECK-NEXT: assign y = x schedule(product(greedy)), block -> gen_block: 60 elements, every element in place
// CHECK-NEXT: assign z[5:15] = y[45:55], gen_block -> pointer block(25): 60 elements, every element in place
// CHECK-NEXT: assign r[0:20] = x[40:60], block -> rank-1 (cyclic(3)) row-major: 60 elements, every element in place
// CHECK-NEXT: assign x[50:60] = r[0:10], rank-1 (cyclic(3)) -> block: 60 elements, every element in place
// CHECK-NEXT: redistribute x cyclic(7): 60 elements, every element in place
// CHECK-NEXT: assign w[12:36] = x[0:24], cyclic(7) -> cyclic(K): 60 elements, every element in place
// CHECK-NEXT: assign y[:] = w[:], cyclic(K) -> gen_block: 60 elements, every element in place
// CHECK-NEXT: assign q[30:60] = y[0:30] onto R(ranks): 60 elements, every element in place
// CHECK-NEXT: error on every rank: rank-one-arrays.cpp:{{[0-9]+}}: on rank 1: {{.*}}section of dimension 0, [0, 61), is outside the extent 60
// CHECK-NEXT: after the error: 60 elements, every element in place
// CHECK-NOT: MISPLACED
// clang-format off
#include "check.h"
#include "report-error.h"

#include <redist/Error.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#pragma redist processors P(3)

namespace {

int Rank = 0;
constexpr std::int64_t N = 60;
constexpr int GSizes[3] = {25, 5, 30};
const TestFormat GenBlock = genBlock({25, 5, 30});

/// A value no assign writes: what a target held before.
Elem old(std::int64_t G) { return makeElem(100000 + G); }

/// What this rank's local part of an array of format F (N elements over P
/// processes) must hold: Value(G) at the local offset of each global index
/// G it owns, in the order the HPF definitions give (check.h).
std::vector<Elem> part(const TestFormat &F, std::int64_t P,
                       const std::function<Elem(std::int64_t)> &Value) {
  std::vector<Elem> Out;
  for (std::int64_t G : expectedGlobals(F, N, P, Rank))
    Out.push_back(Value(G));
  return Out;
}

/// Compares this rank's Count elements at Data with part(); rank 0 prints
/// one line. Collective.
bool check(const char *Label, const Elem *Data, std::int64_t Count,
           const TestFormat &F, std::int64_t P,
           const std::function<Elem(std::int64_t)> &Value) {
  const std::vector<Elem> Want = part(F, P, Value);
  long Errors = Count == static_cast<std::int64_t>(Want.size())
                    ? 0
                    : 1 + static_cast<long>(Want.size());
  for (std::size_t L = 0; Errors == 0 && L < Want.size(); ++L)
    Errors += !(Data[L] == Want[L]);
  return reportCheck(Label, Errors, Count);
}
bool check(const char *Label, const std::vector<Elem> &V, const TestFormat &F,
           std::int64_t P, const std::function<Elem(std::int64_t)> &Value) {
  return check(Label, V.data(), static_cast<std::int64_t>(V.size()), F, P,
               Value);
}

/// A section of a cyclic(B) array in a function template: each
/// instantiation's assign is static, with its own tables.
template <int B> void tiles() {
  std::vector<Elem> v = part(blockCyclic(B), 3, makeElem);
  std::vector<Elem> u = part(blockOf(N, 3), 3, old);
#pragma redist distribute v[N](cyclic(B)) onto P
#pragma redist distribute u[N](block) onto P
#pragma redist assign u[0:30] = v[30:60]
  check(("template tiles<" + std::to_string(B) + ">").c_str(), u,
        blockOf(N, 3), 3,
        [](std::int64_t G) { return G < 30 ? makeElem(G + 30) : old(G); });
}

} // namespace

int main(int argc, char **argv) {
  Rank = startTest(argc, argv);
  int Size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  tiles<2>();
  tiles<5>();

  std::vector<Elem> x = part(blockCyclic(4), 3, makeElem);
#pragma redist distribute x[N](cyclic(4)) onto P
  check("distribute x cyclic(4)", x, blockCyclic(4), 3, makeElem);
  std::vector<Elem> y = part(GenBlock, 3, old);
#pragma redist distribute y[N](gen_block(GSizes)) onto P
  check("distribute y gen_block(25,5,30)", y, GenBlock, 3, old);

#pragma redist assign y[10:40] = x[20:50]
  check("assign y[10:40] = x[20:50], cyclic(4) -> gen_block", y, GenBlock, 3,
        [](std::int64_t G) { return G >= 10 && G < 40 ? makeElem(G + 10) : old(G); });
#pragma redist assign y = permute(x, 0)
  check("assign y = permute(x, 0)", y, GenBlock, 3, makeElem);

  // The 1-D path moves x; the assign after it knows x's new layout.
#pragma redist redistribute x(block)
  check("redistribute x block", x, blockOf(N, 3), 3, makeElem);
#pragma redist assign y[0:30] = x[30:60] schedule(greedy)
  auto YNow = [](std::int64_t G) { return G < 30 ? makeElem(G + 30) : makeElem(G); };
  check("assign y[0:30] = x[30:60] schedule(greedy), block -> gen_block", y, GenBlock, 3, YNow);
  // product(ALG) of a 1-D array is ALG: the whole assign keeps the 1-D path.
#pragma redist assign y = x schedule(product(greedy))
  check("assign y = x schedule(product(greedy)), block -> gen_block", y, GenBlock, 3, makeElem);

  // Into a pointer to room enough.
  std::vector<Elem> ZStorage = part(blockCyclic(25), 3, old);
  ZStorage.resize(25);
  Elem *z = ZStorage.data();
#pragma redist distribute z[N](block(25)) onto P
#pragma redist assign z[5:15] = y[45:55]
  check("assign z[5:15] = y[45:55], gen_block -> pointer block(25)", z,
        static_cast<std::int64_t>(expectedGlobals(blockCyclic(25), N, 3, Rank).size()),
        blockCyclic(25), 3,
        [](std::int64_t G) { return G >= 5 && G < 15 ? makeElem(G + 40) : old(G); });

  // A rank-1 array of the N-D form and a 1-D array: the same storage.
  std::vector<Elem> r = part(blockCyclic(3), 3, old);
#pragma redist distribute r[N](cyclic(3)) onto P storage(row_major)
#pragma redist assign r[0:20] = x[40:60]
  auto RNow = [](std::int64_t G) { return G < 20 ? makeElem(G + 40) : old(G); };
  check("assign r[0:20] = x[40:60], block -> rank-1 (cyclic(3)) row-major", r, blockCyclic(3), 3, RNow);
#pragma redist assign x[50:60] = r[0:10]
  auto XNow = [](std::int64_t G) { return G >= 50 ? makeElem(G - 10) : makeElem(G); };
  check("assign x[50:60] = r[0:10], rank-1 (cyclic(3)) -> block", x, blockOf(N, 3), 3, XNow);

  // x's redistribute after the assigns moves what they left.
#pragma redist redistribute x(cyclic(7))
  check("redistribute x cyclic(7)", x, blockCyclic(7), 3, XNow);

  // A block size known only at run time: the runtime plans.
  const std::int64_t K = argc > 100 ? 2 : 6;
  std::vector<Elem> w = part(blockCyclic(K), 3, old);
#pragma redist distribute w[N](cyclic(K)) onto P
#pragma redist assign w[12:36] = x[0:24]
  auto WNow = [&](std::int64_t G) { return G >= 12 && G < 36 ? XNow(G - 12) : old(G); };
  check("assign w[12:36] = x[0:24], cyclic(7) -> cyclic(K)", w, blockCyclic(K), 3, WNow);
#pragma redist assign y[:] = w[:]
  check("assign y[:] = w[:], cyclic(K) -> gen_block", y, GenBlock, 3, WNow);

  // An arrangement of every rank: as many processes as the run has.
#pragma redist processors R(Size)
  std::vector<Elem> q = part(blockOf(N, Size), Size, old);
#pragma redist distribute q[N](block) onto R
#pragma redist assign q[30:60] = y[0:30]
  check("assign q[30:60] = y[0:30] onto R(ranks)", q, blockOf(N, Size), Size,
        [&](std::int64_t G) { return G >= 30 ? WNow(G - 30) : old(G); });

  // A section beyond the array on rank 1 only: every rank throws, nothing
  // moves.
  const std::int64_t End = Rank == 1 ? N + 1 : N;
  std::string Message;
  try {
#pragma redist assign y[0:End] = x[0:End]
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  reportError(Message, !Message.empty(), 1);
  check("after the error", y, GenBlock, 3, WNow);

  MPI_Finalize();
  return 0;
}
