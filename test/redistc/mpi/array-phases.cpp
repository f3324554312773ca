// End to end, arrays of any rank: a 6 x 5 x 4 array moved between pencils,
// slabs and a 3-D arrangement, in row-major and column-major storage, with
// '*' dimensions, gen_block and a block size known only at run time; an
// assign with a permutation, one between sections and a transpose of a
// matrix; an inquiry's index maps. After every directive each rank's local
// storage is compared element by element, at its storage offset, with the
// layout computed by the test itself from the HPF definitions (below, not
// with redist's index maps); elements outside a section must keep their
// values. The forced-dynamic translation must print the same, and a fifth
// rank beyond the arrangements takes part without data. Last, values wrong
// on one rank only raise the same error on every rank before anything
// moves, naming the dimension.
// (Not clang-formatted: RUN and CHECK lines must stay whole.)
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
// RUN: %mpirun -np 5 %t.static | FileCheck --check-prefix=FIVE %s
// Each static directive's table, once (the pattern is anchored, so that it
// does not match this line, which the translation keeps):
// RUN: grep '^ *static constexpr redist::TranslatedArraySchedule redistc_schedule = {$' %t.static.cpp | count 9
// RUN: not grep -q 'static[A]rrayPlan' %t.dynamic.cpp
// A table edited by hand (a message's length) is refused on every rank,
// naming the directive, before anything moves:
// RUN: sed -e '0,/^ *{0, 0, 0, [0-9]*},$/s//      {0, 0, 0, 1},/' %t.static.cpp > %t.tampered.cpp
// RUN: not diff -q %t.static.cpp %t.tampered.cpp
// RUN: %mpicxx %redist_cxxflags -I%S/Inputs %t.tampered.cpp -o %t.tampered %redist_libs
// RUN: not %mpirun -np 4 %t.tampered 2>&1 | FileCheck --check-prefix=TAMPERED %s
// TAMPERED: array-phases.cpp:{{[0-9]+}}: the translated table of messages does not match the runtime's schedule library (translate the file again): message 0 -> 0 has 1 elements, not {{[0-9]+}}
//
// REPORT: array-phases.cpp:{{[0-9]+}}:1: processors G: a 2 x 2 arrangement, row-major
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: processors L: 4 processes
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: processors T: a 1 x 2 x 2 arrangement, row-major
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: processors C: a 2 x 2 arrangement, column-major
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: processors Q: 4 processes
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute x: (cyclic(NB), *) of 8 x 3 onto Q, column-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute x in blocks<1>: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute x in blocks<2>: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute x in other instantiations: dynamic ('NB' is not a constant)
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute u: (block, block, *) of 6 x 5 x 4 onto G, row-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: dynamic ('YSizes' is not a constant); schedule product(greedy)
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: inquire u into Info: its layout when control gets here
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: dynamic ('YSizes' is not a constant); schedule auto
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute v: (*, *, block) of 4 x 6 x 5 onto L, column-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: assign v = u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute w: (block, *, *) of 8 x 5 x 4 onto L, row-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: assign w = u: static; schedule
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: assign w = u: dynamic (schedule(overlap) orders the messages at run time)
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute a: (block, block) of 6 x 4 onto G, column-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: distribute b: (cyclic, block) of 4 x 6 onto G, column-major storage
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: assign b = a: static; schedule stepwise
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: dynamic (the layout of 'u' is only known at run time)
// REPORT-NEXT: array-phases.cpp:{{[0-9]+}}:1: redistribute u: dynamic (the layout of 'u' is only known at run time)
//
// CHECK: ranks: 4
// CHECK-NEXT: distribute u (block, block, *) onto G: 120 elements, every element in place
// CHECK-NEXT: redistribute u (*, block, block): 120 elements, every element in place
// CHECK-NEXT: redistribute u (cyclic(2), *, block) onto C: 120 elements, every element in place
// CHECK-NEXT: redistribute u (block, *, *) onto L: 120 elements, every element in place
// CHECK-NEXT: redistribute u (block, cyclic, block) onto T: 120 elements, every element in place
// CHECK-NEXT: redistribute u (*, gen_block, cyclic(K)) onto G schedule(product(greedy)): 120 elements, every element in place
// CHECK-NEXT: inquire u: [6,5,4](*,gen_block(2;3),cyclic(2)) onto 2x2 row-major{{.*}}, every index right
// CHECK-NEXT: redistribute u (block, block, *) onto G: 120 elements, every element in place
// CHECK-NEXT: distribute v (*, *, block) onto L: 120 elements, every element in place
// CHECK-NEXT: assign v = permute(u, 2, 0, 1): 120 elements, every element in place
// CHECK-NEXT: distribute w (block, *, *) onto L: 160 elements, every element in place
// CHECK-NEXT: assign w[2:8][:][0:4] = u: 160 elements, every element in place
// CHECK-NEXT: assign w[0:3][1:5][:] = u[3:6][0:4][:] schedule(overlap): 160 elements, every element in place
// CHECK-NEXT: distribute a (block, block) onto G: 24 elements, every element in place
// CHECK-NEXT: distribute b (cyclic, block) onto G: 24 elements, every element in place
// CHECK-NEXT: assign b = transpose(a): 24 elements, every element in place
// CHECK-NEXT: template blocks<1>: 24 elements, every element in place
// CHECK-NEXT: template blocks<2>: 24 elements, every element in place
// CHECK-NEXT: error on every rank: array-phases.cpp:{{[0-9]+}}: on rank 1: dimension 0: {{.*}}CYCLIC(k): the block size k must be positive, got 0
// CHECK-NEXT: after the error: 120 elements, every element in place
// CHECK-NEXT: error on every rank: array-phases.cpp:{{[0-9]+}}: on rank 2: dimension 1 (extent 5, gen_block(2;4) over 2 processes): GEN_BLOCK sizes sum to 6, not to N = 5
// CHECK-NEXT: after the error: 120 elements, every element in place
// CHECK-NOT: MISPLACED
//
// FIVE: ranks: 5
// FIVE-COUNT-19: every element in place
// FIVE-NOT: MISPLACED
// clang-format off
#include "check.h"
#include "report-error.h"

#include <redist/Error.h>
#include <redist/runtime/LocalPart.h>

#include <array>
#include <cstring>
#include <functional>
#include <string>

#pragma redist processors G(2, 2)
#pragma redist processors L(4)
#pragma redist processors T(1, 2, 2)
#pragma redist processors C(2, 2) order(column_major)

namespace {

int Rank = 0;

/// One dimension's format as the test sees it: '*', block-cyclic with block
/// size B, or gen_block with explicit sizes (B = 0).
struct Dim {
  bool Star;
  std::int64_t B;
  std::vector<std::int64_t> Sizes;
};
Dim star() { return {true, 0, {}}; }
Dim cyc(std::int64_t B) { return {false, B, {}}; }
Dim blk(std::int64_t N, std::int64_t P) { return {false, (N + P - 1) / P, {}}; }
Dim gen(std::vector<std::int64_t> S) { return {false, 0, S}; }

/// An array layout: extents, formats, the arrangement (process ids
/// row-major over it unless ColumnGrid) and the storage order.
struct Shape {
  std::vector<std::int64_t> Ext;
  std::vector<Dim> F;
  std::vector<std::int64_t> Grid;
  bool RowMajorStorage;
  bool ColumnGrid = false;
};

/// The owner coordinate and local index of global index G of a dimension
/// of format F over P processes (HPF's definitions).
std::pair<std::int64_t, std::int64_t> place(const Dim &F, std::int64_t P,
                                            std::int64_t G) {
  if (F.Star)
    return {0, G};
  if (F.B == 0) {
    std::int64_t Begin = 0;
    for (std::size_t Q = 0; Q < F.Sizes.size(); ++Q) {
      if (G < Begin + F.Sizes[Q])
        return {static_cast<std::int64_t>(Q), G - Begin};
      Begin += F.Sizes[Q];
    }
    return {-1, -1};
  }
  return {(G / F.B) % P, (G / (F.B * P)) * F.B + G % F.B};
}

/// Row-major linear index of Index in Ext.
std::int64_t linear(const std::vector<std::int64_t> &Ext,
                    const std::vector<std::int64_t> &Index) {
  std::int64_t L = 0;
  for (std::size_t K = 0; K < Ext.size(); ++K)
    L = L * Ext[K] + Index[K];
  return L;
}

/// What rank R's storage must hold: Value of each global index it owns, at
/// the offset the tight storage of its local extents gives it.
std::vector<Elem>
expected(const Shape &S, int R,
         const std::function<Elem(const std::vector<std::int64_t> &)> &Value) {
  const std::size_t D = S.Ext.size(), G = S.Grid.size();
  std::int64_t Procs = 1;
  for (std::int64_t P : S.Grid)
    Procs *= P;
  if (R >= Procs)
    return {};
  std::vector<std::int64_t> Coords(G);
  std::int64_t Rest = R;
  for (std::size_t J = 0; J < G; ++J) {
    const std::size_t K = S.ColumnGrid ? J : G - 1 - J;
    Coords[K] = Rest % S.Grid[K];
    Rest /= S.Grid[K];
  }
  std::vector<std::int64_t> P(D, 1), C(D, 0), LocalExt(D, 0);
  std::size_t Next = 0;
  for (std::size_t K = 0; K < D; ++K)
    if (!S.F[K].Star) {
      P[K] = S.Grid[Next];
      C[K] = Coords[Next++];
    }
  for (std::size_t K = 0; K < D; ++K)
    for (std::int64_t I = 0; I < S.Ext[K]; ++I)
      LocalExt[K] += place(S.F[K], P[K], I).first == C[K];
  std::vector<std::int64_t> Stride(D);
  std::int64_t Size = 1;
  for (std::size_t J = 0; J < D; ++J) {
    const std::size_t K = S.RowMajorStorage ? D - 1 - J : J;
    Stride[K] = Size;
    Size *= std::max<std::int64_t>(1, LocalExt[K]);
  }
  for (std::int64_t E : LocalExt)
    if (E == 0)
      Size = 0;
  std::vector<Elem> Out(static_cast<std::size_t>(Size));
  std::vector<std::int64_t> Index(D, 0);
  std::int64_t Total = 1;
  for (std::int64_t E : S.Ext)
    Total *= E;
  for (std::int64_t L = 0; L < Total; ++L) {
    std::int64_t X = L, Offset = 0;
    bool Mine = true;
    for (std::size_t J = 0; J < D; ++J) {
      const std::size_t K = D - 1 - J;
      Index[K] = X % S.Ext[K];
      X /= S.Ext[K];
    }
    for (std::size_t K = 0; K < D && Mine; ++K) {
      const auto [Owner, Local] = place(S.F[K], P[K], Index[K]);
      Mine = Owner == C[K];
      Offset += Local * Stride[K];
    }
    if (Mine)
      Out[static_cast<std::size_t>(Offset)] = Value(Index);
  }
  return Out;
}

/// Checks V against expected(); rank 0 prints one line.
bool check(const char *Label, const std::vector<Elem> &V, const Shape &S,
           const std::function<Elem(const std::vector<std::int64_t> &)> &Value) {
  const std::vector<Elem> Want = expected(S, Rank, Value);
  long Errors = V.size() == Want.size() ? 0 : 1 + static_cast<long>(Want.size());
  if (Errors == 0)
    for (std::size_t I = 0; I < V.size(); ++I)
      Errors += !(V[I] == Want[I]);
  return reportCheck(Label, Errors, static_cast<std::int64_t>(V.size()));
}

constexpr std::int64_t NX = 6, NY = 5, NZ = 4;
const std::vector<std::int64_t> UExt = {NX, NY, NZ};
Elem ofU(const std::vector<std::int64_t> &I) { return makeElem(linear(UExt, I)); }

/// An array in a function template: each instantiation's redistribute is
/// static, with its own tables.
template <int NB> void blocks() {
  const std::vector<std::int64_t> XExt = {8, 3};
  Shape SX{XExt, {cyc(NB), star()}, {4}, false};
  auto OfX = [&](const std::vector<std::int64_t> &I) {
    return makeElem(linear(XExt, I));
  };
  std::vector<Elem> x = expected(SX, Rank, OfX);
#pragma redist processors Q(4)
#pragma redist distribute x[8][3](cyclic(NB), *) onto Q
#pragma redist redistribute x(block, *)
  SX = {XExt, {blk(8, 4), star()}, {4}, false};
  check(("template blocks<" + std::to_string(NB) + ">").c_str(), x, SX, OfX);
}

} // namespace

int main(int argc, char **argv) {
  Rank = startTest(argc, argv);
  // A block size the compiler cannot see.
  const std::int64_t K = argc > 1 ? 3 : 2;

  Shape S{UExt, {blk(NX, 2), blk(NY, 2), star()}, {2, 2}, true};
  std::vector<Elem> u = expected(S, Rank, ofU);
#pragma redist distribute u[NX][NY][NZ](block, block, *) onto G storage(row_major)
  check("distribute u (block, block, *) onto G", u, S, ofU);

#pragma redist redistribute u(*, block, block)
  S = {UExt, {star(), blk(NY, 2), blk(NZ, 2)}, {2, 2}, true};
  check("redistribute u (*, block, block)", u, S, ofU);

#pragma redist redistribute u(cyclic(2), *, block) onto C
  S = {UExt, {cyc(2), star(), blk(NZ, 2)}, {2, 2}, true, true};
  check("redistribute u (cyclic(2), *, block) onto C", u, S, ofU);

#pragma redist redistribute u(block, *, *) onto L
  S = {UExt, {blk(NX, 4), star(), star()}, {4}, true};
  check("redistribute u (block, *, *) onto L", u, S, ofU);

#pragma redist redistribute u(block, cyclic, block) onto T
  S = {UExt, {blk(NX, 1), cyc(1), blk(NZ, 2)}, {1, 2, 2}, true};
  check("redistribute u (block, cyclic, block) onto T", u, S, ofU);

  const std::array<int, 2> YSizes = {2, 3};
#pragma redist redistribute u(*, gen_block(YSizes), cyclic(K)) onto G schedule(product(greedy))
  S = {UExt, {star(), gen({2, 3}), cyc(K)}, {2, 2}, true};
  check("redistribute u (*, gen_block, cyclic(K)) onto G schedule(product(greedy))", u, S, ofU);
  {
    // The inquiry's index maps against the elements the check just found in
    // place: each local element's global index, and back.
#pragma redist inquire u into Info
    long Wrong = Info.storageSize() == static_cast<long>(u.size()) ? 0 : 1;
    std::int64_t Count = 1;
    for (std::int64_t E : Info.localExtents())
      Count *= E;
    Wrong += Count != Info.storageSize();
    Wrong += Info.strides().size() != 3 || (Info.storageSize() > 0 && Info.strides()[2] != 1);
    for (std::int64_t Offset = 0; Offset < Info.storageSize(); ++Offset) {
      const std::vector<std::int64_t> I = Info.globalIndex(Offset);
      Wrong += u[Offset].Global != linear(UExt, I) ||
               !(Info.position(I) == redist::LocalPlace{Rank, Offset});
    }
    long Total = 0;
    MPI_Allreduce(&Wrong, &Total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (Rank == 0)
      std::printf("inquire u: %s, %s\n", Info.str().c_str(),
                  Total == 0 ? "every index right" : "WRONG INDICES");
  }
  // A constant layout again: the directives below are static.
#pragma redist redistribute u(block, block, *) onto G
  S = {UExt, {blk(NX, 2), blk(NY, 2), star()}, {2, 2}, true};
  check("redistribute u (block, block, *) onto G", u, S, ofU);

  // v's axis k is u's axis (2, 0, 1)[k]: v(a, b, c) = u(b, c, a).
  const std::vector<std::int64_t> VExt = {NZ, NX, NY};
  Shape SV{VExt, {star(), star(), blk(NY, 4)}, {4}, false};
  auto Zero = [](const std::vector<std::int64_t> &) { return makeElem(-1); };
  std::vector<Elem> v = expected(SV, Rank, Zero);
#pragma redist distribute v[NZ][NX][NY](*, *, block) onto L
  check("distribute v (*, *, block) onto L", v, SV, Zero);
#pragma redist assign v = permute(u, 2, 0, 1)
  check("assign v = permute(u, 2, 0, 1)", v, SV,
        [](const std::vector<std::int64_t> &I) { return ofU({I[1], I[2], I[0]}); });

  // Sections: w's elements outside them keep their values.
  const std::vector<std::int64_t> WExt = {8, NY, NZ};
  Shape SW{WExt, {blk(8, 4), star(), star()}, {4}, true};
  auto Own = [&](const std::vector<std::int64_t> &I) { return makeElem(100000 + linear(WExt, I)); };
  std::vector<Elem> w = expected(SW, Rank, Own);
#pragma redist distribute w[8][NY][NZ](block, *, *) onto L storage(row_major)
  check("distribute w (block, *, *) onto L", w, SW, Own);
#pragma redist assign w[2:8][:][0:NZ] = u
  auto First = [&](const std::vector<std::int64_t> &I) {
    return I[0] >= 2 ? ofU({I[0] - 2, I[1], I[2]}) : Own(I);
  };
  check("assign w[2:8][:][0:4] = u", w, SW, First);
  const int Three = 3;
#pragma redist assign w[0:Three][1:5][:] = u[3:6][0:4][:] schedule(overlap)
  check("assign w[0:3][1:5][:] = u[3:6][0:4][:] schedule(overlap)", w, SW,
        [&](const std::vector<std::int64_t> &I) {
          return I[0] < 3 && I[1] >= 1 ? ofU({I[0] + 3, I[1] - 1, I[2]}) : First(I);
        });

  // A matrix transposed: b(i, j) = a(j, i), both column-major.
  const std::vector<std::int64_t> AExt = {6, 4}, BExt = {4, 6};
  Shape SA{AExt, {blk(6, 2), blk(4, 2)}, {2, 2}, false};
  Shape SB{BExt, {cyc(1), blk(6, 2)}, {2, 2}, false};
  auto OfA = [&](const std::vector<std::int64_t> &I) { return makeElem(linear(AExt, I)); };
  std::vector<Elem> a = expected(SA, Rank, OfA), b = expected(SB, Rank, Zero);
#pragma redist distribute a[6][4](block, block) onto G
  check("distribute a (block, block) onto G", a, SA, OfA);
#pragma redist distribute b[4][6](cyclic, block) onto G
  check("distribute b (cyclic, block) onto G", b, SB, Zero);
#pragma redist assign b = transpose(a)
  check("assign b = transpose(a)", b, SB,
        [&](const std::vector<std::int64_t> &I) { return OfA({I[1], I[0]}); });

  blocks<1>();
  blocks<2>();

  // A block size of 0 on rank 1 only: every rank throws, nothing moves.
  const std::int64_t Bad = Rank == 1 ? 0 : 3;
  std::string Message;
  try {
#pragma redist redistribute u(cyclic(Bad), *, block) onto G
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  reportError(Message, !Message.empty(), 1);
  check("after the error", u, S, ofU);

  // gen_block sizes that do not sum to the extent on rank 2 only.
  const std::array<int, 2> Sizes = {2, Rank == 2 ? 4 : 3};
  Message.clear();
  try {
#pragma redist redistribute u(*, gen_block(Sizes), block) onto G
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  reportError(Message, !Message.empty(), 2);
  check("after the error", u, S, ofU);

  MPI_Finalize();
  return 0;
}
