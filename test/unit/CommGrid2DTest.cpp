//===- CommGrid2DTest.cpp - The 2-D grid against element counting ---------===//
//
// computeGrid2D builds the grid from the two 1-D closed forms; here it must
// equal the grid counted element by element (each (i, j) from its source
// owner to its target owner) on a seeded sweep of small matrices with every
// format, offsets and both grid orders, and so must every row and column
// computed alone.
//
//===----------------------------------------------------------------------===//

#include "RandomLayout2D.h"

#include "redist/CommGrid2D.h"
#include "redist/Error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

void checkAgainstCounting(const Layout2D &From, const Layout2D &To) {
  SCOPED_TRACE(describe(From, To));
  CommGrid2D G = computeGrid2D(From, To);
  CommGrid Counted = countGrid2DByElements(From, To);
  EXPECT_EQ(G.Whole.P, From.procs());
  EXPECT_EQ(G.Whole.Q, To.procs());
  ASSERT_EQ(G.Whole.Messages, Counted.Messages);
  // Every pair of 1-D messages names its 2-D message.
  for (size_t R = 0; R < G.Rows.Messages.size(); ++R)
    for (size_t C = 0; C < G.Cols.Messages.size(); ++C) {
      const Message &M = G.Whole.Messages[static_cast<size_t>(
          G.messageId(static_cast<int64_t>(R), static_cast<int64_t>(C)))];
      EXPECT_EQ(M.Len, G.Rows.Messages[R].Len * G.Cols.Messages[C].Len);
      EXPECT_EQ(M.Src, From.procOfRanks(G.Rows.Messages[R].Src,
                                        G.Cols.Messages[C].Src));
    }
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    std::vector<Message> Expected;
    for (const Message &M : Counted.Messages)
      if (M.Src == Src)
        Expected.push_back(M);
    EXPECT_EQ(computeRow2D(From, To, Src), Expected) << "row " << Src;
  }
  for (int64_t Dst = 0; Dst < To.procs(); ++Dst) {
    std::vector<Message> Expected;
    for (const Message &M : Counted.Messages)
      if (M.Dst == Dst)
        Expected.push_back(M);
    EXPECT_EQ(computeColumn2D(From, To, Dst), Expected) << "column " << Dst;
  }
}

TEST(CommGrid2DTest, HandCheckedExample) {
  // 4 x 4, 2x1 grid CYCLIC(1) rows -> 1x2 grid CYCLIC(2) columns. Process 0
  // (rows 0, 2) and process 1 (rows 1, 3) each send 2 rows x 2 columns = 4
  // elements to each target (columns 0-1, columns 2-3).
  Layout2D From = Layout2D::blockCyclic(4, 4, 2, 1, 1, 4);
  Layout2D To = Layout2D::blockCyclic(4, 4, 1, 2, 4, 2);
  CommGrid2D G = computeGrid2D(From, To);
  std::vector<Message> Expected{{0, 0, 4}, {0, 1, 4}, {1, 0, 4}, {1, 1, 4}};
  EXPECT_EQ(G.Whole.Messages, Expected);
  checkAgainstCounting(From, To);
}

TEST(CommGrid2DTest, OffsetsRotateTheProcesses) {
  // 3 x 2 on a 3x1 grid CYCLIC(1), first row on process row 2: row 0 lives
  // on process 2, row 1 on 0, row 2 on 1. Target: everything on process 0.
  Layout2D From = Layout2D::blockCyclic(3, 2, 3, 1, 1, 2, /*RowSource=*/2, 0);
  Layout2D To = Layout2D::blockCyclic(3, 2, 1, 1, 3, 2);
  std::vector<Message> Expected{{0, 0, 2}, {1, 0, 2}, {2, 0, 2}};
  EXPECT_EQ(computeGrid2D(From, To).Whole.Messages, Expected);
  EXPECT_EQ(From.toLocal(0, 1).Proc, 2);
  checkAgainstCounting(From, To);
}

TEST(CommGrid2DTest, SeededSweepEqualsElementCounting) {
  std::mt19937_64 Rng(15);
  for (int Trial = 0; Trial < 600; ++Trial) {
    const int64_t M = uniform(Rng, 0, 13), N = uniform(Rng, 0, 13);
    checkAgainstCounting(randomLayout2D(Rng, M, N, 4),
                         randomLayout2D(Rng, M, N, 4));
    if (HasFatalFailure())
      return;
  }
}

TEST(CommGrid2DTest, ShapesMustAgree) {
  Layout2D From = Layout2D::blockCyclic(4, 5, 2, 1, 1, 1);
  Layout2D To = Layout2D::blockCyclic(5, 4, 2, 1, 1, 1);
  try {
    computeGrid2D(From, To);
    ADD_FAILURE() << "no InvalidArgument";
  } catch (const InvalidArgument &E) {
    EXPECT_STREQ(E.what(), "source and target matrices differ: 4 x 5 vs 5 x 4");
  }
  EXPECT_THROW(computeRow2D(From, To, 0), InvalidArgument);
}

} // namespace
