//===- MatrixGridTest.cpp - A matrix's grid against element counting -----===//
//
// A matrix's grid is the rank-2 array grid (matrixGrid), the product of the
// two 1-D closed forms; here it must
// equal the grid counted element by element (each (i, j) from its source
// owner to its target owner) on a seeded sweep of small matrices with every
// format, offsets and both grid orders, and so must every row and column
// computed alone.
//
//===----------------------------------------------------------------------===//

#include "RandomLayout2D.h"

#include "redist/ArrayGrid.h"
#include "redist/Error.h"
#include "redist/Schedulers2D.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

void checkAgainstCounting(const Layout2D &From, const Layout2D &To) {
  SCOPED_TRACE(describe(From, To));
  const ArrayLayout A = arrayLayoutOf(From), B = arrayLayoutOf(To);
  ArrayGrid G = matrixGrid(From, To);
  CommGrid Counted = countArrayGridByElements(A, B);
  EXPECT_EQ(G.Whole.P, From.procs());
  EXPECT_EQ(G.Whole.Q, To.procs());
  ASSERT_EQ(G.Whole.Messages, Counted.Messages);
  // Every pair of 1-D messages names its 2-D message.
  const CommGrid &Rows = G.Axes[0].Lines, &Cols = G.Axes[1].Lines;
  for (size_t R = 0; R < Rows.Messages.size(); ++R)
    for (size_t C = 0; C < Cols.Messages.size(); ++C) {
      const Message &M = G.Whole.Messages[static_cast<size_t>(
          G.messageId({static_cast<int64_t>(R), static_cast<int64_t>(C)}))];
      EXPECT_EQ(M.Len, Rows.Messages[R].Len * Cols.Messages[C].Len);
      EXPECT_EQ(M.Src,
                From.procOfRanks(Rows.Messages[R].Src, Cols.Messages[C].Src));
    }
  const std::vector<AxisGrid> Axes =
      computeAxisGrids(A, B, resolveRegion(A, B));
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    std::vector<Message> Expected;
    for (const Message &M : Counted.Messages)
      if (M.Src == Src)
        Expected.push_back(M);
    EXPECT_EQ(arrayRow(A, B, Axes, Src), Expected) << "row " << Src;
  }
  for (int64_t Dst = 0; Dst < To.procs(); ++Dst) {
    std::vector<Message> Expected;
    for (const Message &M : Counted.Messages)
      if (M.Dst == Dst)
        Expected.push_back(M);
    EXPECT_EQ(arrayColumn(A, B, Axes, Dst), Expected) << "column " << Dst;
  }
}

TEST(MatrixGridTest, HandCheckedExample) {
  // 4 x 4, 2x1 grid CYCLIC(1) rows -> 1x2 grid CYCLIC(2) columns. Process 0
  // (rows 0, 2) and process 1 (rows 1, 3) each send 2 rows x 2 columns = 4
  // elements to each target (columns 0-1, columns 2-3).
  Layout2D From = Layout2D::blockCyclic(4, 4, 2, 1, 1, 4);
  Layout2D To = Layout2D::blockCyclic(4, 4, 1, 2, 4, 2);
  ArrayGrid G = matrixGrid(From, To);
  std::vector<Message> Expected{{0, 0, 4}, {0, 1, 4}, {1, 0, 4}, {1, 1, 4}};
  EXPECT_EQ(G.Whole.Messages, Expected);
  checkAgainstCounting(From, To);
}

TEST(MatrixGridTest, OffsetsRotateTheProcesses) {
  // 3 x 2 on a 3x1 grid CYCLIC(1), first row on process row 2: row 0 lives
  // on process 2, row 1 on 0, row 2 on 1. Target: everything on process 0.
  Layout2D From = Layout2D::blockCyclic(3, 2, 3, 1, 1, 2, /*RowSource=*/2, 0);
  Layout2D To = Layout2D::blockCyclic(3, 2, 1, 1, 3, 2);
  std::vector<Message> Expected{{0, 0, 2}, {1, 0, 2}, {2, 0, 2}};
  EXPECT_EQ(matrixGrid(From, To).Whole.Messages, Expected);
  EXPECT_EQ(From.toLocal(0, 1).Proc, 2);
  checkAgainstCounting(From, To);
}

TEST(MatrixGridTest, SeededSweepEqualsElementCounting) {
  std::mt19937_64 Rng(15);
  for (int Trial = 0; Trial < 600; ++Trial) {
    const int64_t M = uniform(Rng, 0, 13), N = uniform(Rng, 0, 13);
    checkAgainstCounting(randomLayout2D(Rng, M, N, 4),
                         randomLayout2D(Rng, M, N, 4));
    if (HasFatalFailure())
      return;
  }
}

TEST(MatrixGridTest, ShapesMustAgree) {
  Layout2D From = Layout2D::blockCyclic(4, 5, 2, 1, 1, 1);
  Layout2D To = Layout2D::blockCyclic(5, 4, 2, 1, 1, 1);
  try {
    matrixGrid(From, To);
    ADD_FAILURE() << "no InvalidArgument";
  } catch (const InvalidArgument &E) {
    EXPECT_STREQ(E.what(), "the extents differ after the permutation: target "
                           "dimension 0 has 5, source dimension 0 has 4");
  }
}

} // namespace
