//===- Distribution2DTest.cpp - Matrices over 2-D process grids -----------===//
//
// Block-cyclic layouts are checked against ScaLAPACK's own formulas (numroc,
// indxg2p, indxg2l, written out here independently of the library); every
// format, through a seeded sweep, against the definition: element (i, j)
// lives on grid process ((owner(i) + RSRC) mod P0, (owner(j) + CSRC) mod P1),
// each process's elements fill distinct offsets of its storage, and the maps
// invert each other.
//
//===----------------------------------------------------------------------===//

#include "ExpectInvalid.h"
#include "RandomLayout2D.h"

#include "redist/Distribution2D.h"
#include "redist/Error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

/// ScaLAPACK's NUMROC, 0-based.
int64_t numroc(int64_t N, int64_t NB, int64_t IProc, int64_t ISrc,
               int64_t NProcs) {
  int64_t MyDist = (NProcs + IProc - ISrc) % NProcs;
  int64_t NBlocks = N / NB;
  int64_t Num = (NBlocks / NProcs) * NB;
  int64_t Extra = NBlocks % NProcs;
  if (MyDist < Extra)
    Num += NB;
  else if (MyDist == Extra)
    Num += N % NB;
  return Num;
}

TEST(Distribution2DTest, MatchesScaLAPACKFormulas) {
  for (int64_t M : {0, 1, 5, 9})
    for (int64_t N : {0, 3, 8})
      for (int64_t P0 = 1; P0 <= 3; ++P0)
        for (int64_t P1 = 1; P1 <= 3; ++P1)
          for (int64_t MB : {1, 2, 3})
            for (int64_t NB : {1, 4})
              for (int64_t RSrc = 0; RSrc < P0; ++RSrc)
                for (int64_t CSrc = 0; CSrc < P1; ++CSrc) {
                  Layout2D L =
                      Layout2D::blockCyclic(M, N, P0, P1, MB, NB, RSrc, CSrc);
                  SCOPED_TRACE(L.str());
                  for (int64_t Row = 0; Row < P0; ++Row)
                    for (int64_t Col = 0; Col < P1; ++Col) {
                      int64_t Proc = Row * P1 + Col; // BLACS's default order
                      EXPECT_EQ(L.procAt(Row, Col), Proc);
                      EXPECT_EQ(L.localRows(Proc),
                                numroc(M, MB, Row, RSrc, P0));
                      EXPECT_EQ(L.localCols(Proc),
                                numroc(N, NB, Col, CSrc, P1));
                    }
                  for (int64_t I = 0; I < M; ++I)
                    for (int64_t J = 0; J < N; ++J) {
                      int64_t Row = (RSrc + I / MB) % P0; // indxg2p
                      int64_t Col = (CSrc + J / NB) % P1;
                      int64_t Proc = Row * P1 + Col;
                      int64_t LocalRow = (I / (MB * P0)) * MB + I % MB;
                      int64_t LocalCol = (J / (NB * P1)) * NB + J % NB;
                      int64_t LLD =
                          std::max<int64_t>(1, numroc(M, MB, Row, RSrc, P0));
                      LocalPlace Expected{Proc, LocalRow + LocalCol * LLD};
                      EXPECT_EQ(L.toLocal(I, J), Expected)
                          << "element (" << I << ", " << J << ")";
                    }
                }
}

TEST(Distribution2DTest, ColumnMajorGridAndRowMajorStorage) {
  // 5 x 7 over 2 x 3, CYCLIC(2) x CYCLIC(2); element (4, 3): block row 2 ->
  // process row 0, block column 1 -> process column 1; column-major grid id
  // 0 + 1 * 2 = 2. Local (2, 1); row-major with LD 5 (>= the 3 local columns
  // of process column 0): offset 2 * 5 + 1 = 11. Process column 1 holds
  // columns 2 and 3 only.
  Layout2D L(Layout::blockCyclic(2, 2, 5), Layout::blockCyclic(3, 2, 7),
             GridOrder::ColumnMajor, 0, 0, {StorageOrder::RowMajor, 5});
  EXPECT_EQ(L.procAt(0, 1), 2);
  EXPECT_EQ(L.coordsOf(2), std::make_pair(int64_t(0), int64_t(1)));
  EXPECT_EQ(L.localCols(2), 2);
  EXPECT_EQ(L.toLocal(4, 3), (LocalPlace{2, 11}));
  EXPECT_EQ(L.toGlobal(2, 11), std::make_pair(int64_t(4), int64_t(3)));
  // Offset 3 is local (0, 3): beyond the 2 local columns, in the padding.
  expectInvalid([&] { L.toGlobal(2, 3); }, {"padding"});
}

TEST(Distribution2DTest, SeededSweepOfEveryFormat) {
  std::mt19937_64 Rng(20261124);
  for (int Trial = 0; Trial < 400; ++Trial) {
    const int64_t M = uniform(Rng, 0, 9), N = uniform(Rng, 0, 9);
    Layout2D L = randomLayout2D(Rng, M, N, 4);
    SCOPED_TRACE(L.str());
    for (int64_t Proc = 0; Proc < L.procs(); ++Proc) {
      auto [Row, Col] = L.coordsOf(Proc);
      EXPECT_EQ(L.procAt(Row, Col), Proc);
      EXPECT_EQ(Proc, L.order() == GridOrder::RowMajor
                          ? Row * L.gridCols() + Col
                          : Row + Col * L.gridRows());
    }
    std::vector<std::set<int64_t>> Used(static_cast<size_t>(L.procs()));
    for (int64_t I = 0; I < M; ++I)
      for (int64_t J = 0; J < N; ++J) {
        LocalPlace At = L.toLocal(I, J);
        auto [Row, Col] = L.coordsOf(At.Proc);
        EXPECT_EQ(Row, (L.rows().owner(I) + L.rowSource()) % L.gridRows());
        EXPECT_EQ(Col, (L.cols().owner(J) + L.colSource()) % L.gridCols());
        EXPECT_GE(At.Offset, 0);
        EXPECT_LT(At.Offset, L.storageSize(At.Proc));
        EXPECT_TRUE(Used[static_cast<size_t>(At.Proc)].insert(At.Offset).second)
            << "two elements at offset " << At.Offset;
        EXPECT_EQ(L.toGlobal(At.Proc, At.Offset), std::make_pair(I, J));
      }
    for (int64_t Proc = 0; Proc < L.procs(); ++Proc)
      EXPECT_EQ(static_cast<int64_t>(Used[static_cast<size_t>(Proc)].size()),
                L.localRows(Proc) * L.localCols(Proc));
  }
}

TEST(Distribution2DTest, ErrorsNameTheValue) {
  expectInvalid([] { Layout2D::blockCyclic(4, 4, 2, 2, 1, 1, 2, 0); },
                {"first process row (RSRC) 2 out of range [0, 2)"});
  expectInvalid([] { Layout2D::blockCyclic(4, 4, 2, 2, 1, 1, 0, -1); },
                {"first process column (CSRC) -1"});
  // 5 rows over 2 processes in blocks of 1: up to 3 local rows.
  expectInvalid([] { Layout2D::blockCyclic(5, 4, 2, 2, 1, 1, 0, 0, 2); },
                {"leading dimension 2 is below the 3 local rows"});
  expectInvalid([] { Layout2D::blockCyclic(5, 4, 2, 2, 1, 1, 0, 0, -1); },
                {"leading dimension must be non-negative, got -1"});
  Layout2D L = Layout2D::blockCyclic(5, 4, 2, 2, 1, 1);
  // The index maps are the rank-2 array's, and so are their errors.
  expectInvalid([&] { L.toLocal(5, 0); },
                {"index of dimension 0 5 out of range [0, 5)"});
  expectInvalid([&] { L.procAt(0, 2); },
                {"coordinate 1 2 out of range [0, 2)"});
  expectInvalid([&] { L.coordsOf(4); }, {"process 4 out of range [0, 4)"});
  expectInvalid([&] { L.toGlobal(0, 6); },
                {"offset 6 is outside the 6 storage elements of process 0"});
  expectInvalid([&] { L.rowRankOf(2); }, {"process row 2 out of range"});
}

} // namespace
