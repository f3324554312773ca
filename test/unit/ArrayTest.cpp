//===- ArrayTest.cpp - Arrays of any rank: layouts, grids, schedules ------===//
//
// A seeded sweep of random layouts of rank 1 to 4 (every format, offsets,
// both grid and storage orders, padded strides), checked against brute
// force: each element lives on the process HPF's definition gives, at the
// offset its strides give, offsets are distinct and the maps invert each
// other; the product grid of two layouts, with a permutation and
// sections, equals an element-by-element count; every algorithm's
// schedule of it passes the validator.
//
//===----------------------------------------------------------------------===//

#include "ExpectInvalid.h"
#include "RandomArray.h"

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"
#include "redist/ArraySchedulers.h"
#include "redist/Distribution2D.h"
#include "redist/Error.h"
#include "redist/OverlapSchedule.h"
#include "redist/OverlapSchedulers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace redist;
using namespace redist::test;

namespace {

/// Calls F(Index) for every index of Extents, last fastest.
template <typename Fn>
void forEachIndex(const std::vector<int64_t> &Extents, Fn &&F) {
  for (int64_t E : Extents)
    if (E == 0)
      return;
  std::vector<int64_t> I(Extents.size(), 0);
  while (true) {
    F(I);
    size_t K = Extents.size();
    while (K > 0) {
      --K;
      if (++I[K] < Extents[K])
        break;
      I[K] = 0;
      if (K == 0)
        return;
    }
  }
}

/// The process HPF's definition gives Index: arrangement coordinate
/// (owner + offset) mod P per distributed dimension, numbered in Order.
int64_t definedOwner(const ArrayLayout &L, const std::vector<int64_t> &Index) {
  std::vector<int64_t> Coords(L.grid().size());
  for (int D = 0; D < L.rank(); ++D) {
    const int G = L.gridDimOf(D);
    if (G < 0)
      continue;
    const int64_t P = L.grid()[static_cast<size_t>(G)];
    Coords[static_cast<size_t>(G)] =
        (L.dim(D).owner(Index[static_cast<size_t>(D)]) + L.firstProc(D)) % P;
  }
  int64_t Id = 0;
  const size_t N = Coords.size();
  for (size_t J = 0; J < N; ++J) {
    const size_t K = L.order() == GridOrder::RowMajor ? J : N - 1 - J;
    Id = Id * L.grid()[K] + Coords[K];
  }
  return Id;
}

TEST(ArrayLayoutTest, IndexMapsMatchBruteForce) {
  std::mt19937_64 Rng(2301);
  for (int Case = 0; Case < 300; ++Case) {
    const int D = static_cast<int>(uniform(Rng, 1, 4));
    const ArrayLayout L =
        randomArrayLayout(Rng, randomExtents(Rng, D, D <= 2 ? 9 : 5), 8);
    SCOPED_TRACE(L.str());
    std::map<int64_t, std::set<int64_t>> Used;
    int64_t Count = 0;
    forEachIndex(L.extents(), [&](const std::vector<int64_t> &I) {
      const LocalPlace At = L.toLocal(I);
      ASSERT_EQ(At.Proc, definedOwner(L, I));
      const std::vector<int64_t> S = L.strides(At.Proc);
      int64_t Offset = 0;
      for (int K = 0; K < D; ++K)
        Offset += L.dim(K).toLocal(I[static_cast<size_t>(K)]) *
                  S[static_cast<size_t>(K)];
      ASSERT_EQ(At.Offset, Offset);
      ASSERT_LT(At.Offset, L.storageSize(At.Proc));
      ASSERT_TRUE(Used[At.Proc].insert(At.Offset).second);
      ASSERT_EQ(L.toGlobal(At.Proc, At.Offset), I);
      ++Count;
    });
    EXPECT_EQ(Count, L.elements());
    // Every process: its local extents hold exactly its elements, and
    // every other offset of its storage is padding.
    for (int64_t P = 0; P < L.procs(); ++P) {
      int64_t Local = 1;
      for (int64_t E : L.localExtents(P))
        Local *= E;
      EXPECT_EQ(static_cast<int64_t>(Used[P].size()), Local);
      EXPECT_EQ(L.procAt(L.coordsOf(P)), P);
      for (int64_t O = 0; O < L.storageSize(P); ++O)
        if (!Used[P].count(O))
          expectInvalid([&] { L.toGlobal(P, O); }, {"padding"});
    }
  }
}

TEST(ArrayLayoutTest, MatrixIsTheRankTwoCase) {
  std::mt19937_64 Rng(2302);
  for (int Case = 0; Case < 100; ++Case) {
    const int64_t M = uniform(Rng, 0, 9), N = uniform(Rng, 0, 9);
    const int64_t P0 = uniform(Rng, 1, 3), P1 = uniform(Rng, 1, 3);
    const int64_t MB = uniform(Rng, 1, 3), NB = uniform(Rng, 1, 3);
    const int64_t LD = uniform(Rng, 0, 1) ? 0 : (M + MB) + uniform(Rng, 0, 2);
    const Layout2D L =
        Layout2D::blockCyclic(M, N, P0, P1, MB, NB, uniform(Rng, 0, P0 - 1),
                              uniform(Rng, 0, P1 - 1), LD);
    const ArrayLayout A = arrayLayoutOf(L);
    SCOPED_TRACE(L.str() + " as " + A.str());
    for (int64_t P = 0; P < L.procs(); ++P)
      EXPECT_EQ(A.storageSize(P), L.storageSize(P));
    for (int64_t I = 0; I < M; ++I)
      for (int64_t J = 0; J < N; ++J)
        EXPECT_EQ(A.toLocal({I, J}), L.toLocal(I, J));
  }
}

// A 1-D array's local part is the same storage when an assign takes it as
// a rank-1 array: every element at the same process and local index.
TEST(ArrayLayoutTest, VectorIsTheRankOneCase) {
  std::mt19937_64 Rng(2303);
  for (int Case = 0; Case < 200; ++Case) {
    const int64_t N = uniform(Rng, 0, 40), P = uniform(Rng, 1, 5);
    std::vector<int64_t> Sizes(static_cast<size_t>(P), 0);
    for (int64_t G = 0; G < N; ++G)
      ++Sizes[static_cast<size_t>(uniform(Rng, 0, P - 1))];
    const int64_t K = uniform(Rng, 1, 4);
    const Distribution Formats[] = {
        Distribution::block(P),
        Distribution::block(P, std::max<int64_t>(1, (N + P - 1) / P) + K - 1),
        Distribution::cyclic(P, K), Distribution::genBlock(Sizes)};
    for (const Distribution &D : Formats) {
      const Layout L(D, N);
      const ArrayLayout A = ArrayLayout::rankOne(D, N);
      SCOPED_TRACE(L.distribution().str() + " as " + A.str());
      ASSERT_EQ(A.procs(), P);
      for (int64_t Proc = 0; Proc < P; ++Proc)
        EXPECT_EQ(A.storageSize(Proc), L.localSize(Proc));
      for (int64_t G = 0; G < N; ++G)
        EXPECT_EQ(A.toLocal({G}), (LocalPlace{L.owner(G), L.toLocal(G)}));
    }
  }
}

TEST(ArrayLayoutTest, FormatsParseAndPrint) {
  for (const char *Text :
       {"*", "block", "block(4)", "cyclic", "cyclic(3)", "gen_block(1;0;7)"})
    EXPECT_EQ(DimFormat::parse(Text).str(), Text);
  EXPECT_EQ(DimFormat::parse("gen_block(2,3)"), DimFormat::genBlock({2, 3}));
  expectInvalid([] { DimFormat::parse("cyclic(0)"); }, {"cyclic(0)"});
  expectInvalid([] { DimFormat::parse("blocks"); }, {"blocks"});
}

TEST(ArrayLayoutTest, ErrorsNameTheDimension) {
  expectInvalid(
      [] {
        ArrayLayout({4, 60},
                    {DimFormat::block(), DimFormat::genBlock({30, 31})},
                    {1, 2});
      },
      {"dimension 1", "extent 60", "61"});
  expectInvalid(
      [] {
        ArrayLayout({4, 4, 4}, {DimFormat::block(), DimFormat::block()}, {2});
      },
      {"2 formats", "rank 3"});
  expectInvalid(
      [] {
        ArrayLayout({4, 4}, {DimFormat::block(), DimFormat::block()}, {2});
      },
      {"2 distributed", "rank 1"});
  expectInvalid(
      [] {
        ArrayLayout({4, 4}, {DimFormat::block(), DimFormat::collapsed()}, {2},
                    GridOrder::RowMajor, {0, 0},
                    {StorageOrder::RowMajor, {3, 1}});
      },
      {"stride 3 of dimension 0", "4 local elements of dimension 1"});
  expectInvalid(
      [] {
        ArrayLayout({4, 4}, {DimFormat::block(), DimFormat::block()}, {2, 2},
                    GridOrder::RowMajor, {0, 2});
      },
      {"first process 2", "dimension 1"});
  const ArrayLayout A({4, 6}, {DimFormat::block(), DimFormat::collapsed()},
                      {2});
  const ArrayLayout B({6, 4}, {DimFormat::block(), DimFormat::collapsed()},
                      {2});
  expectInvalid([&] { resolveRegion(A, B); },
                {"extents differ after the permutation", "dimension 0"});
  expectInvalid(
      [&] {
        resolveRegion(A, B, {{0, 0}, {}, {}, {}});
      },
      {"permutation is not one"});
  expectInvalid(
      [&] {
        resolveRegion(A, B, {{1, 0}, {3, 6}, {2, 0}, {}});
      },
      {"source section of dimension 0"});
}

/// A random move between two random layouts of the same rank.
struct RandomMove {
  ArrayLayout From, To;
  ArrayRegion Region;
};

RandomMove randomMove(std::mt19937_64 &Rng, int64_t MaxProcs) {
  const int D = static_cast<int>(uniform(Rng, 1, 4));
  const int64_t Max = D <= 2 ? 10 : 5;
  const std::vector<int64_t> SrcExt = randomExtents(Rng, D, Max);
  const std::vector<int> Perm = randomPermutation(Rng, D);
  std::vector<int64_t> DstExt(static_cast<size_t>(D));
  const bool Whole = uniform(Rng, 0, 1) == 0;
  for (int T = 0; T < D; ++T)
    DstExt[static_cast<size_t>(T)] =
        Whole ? SrcExt[static_cast<size_t>(Perm[static_cast<size_t>(T)])]
              : uniform(Rng, 0, Max);
  ArrayLayout From = randomArrayLayout(Rng, SrcExt, MaxProcs);
  ArrayLayout To = randomArrayLayout(Rng, DstExt, MaxProcs);
  ArrayRegion R;
  R.Permutation = Perm;
  if (!Whole)
    R = randomSection(Rng, SrcExt, DstExt, Perm);
  return {From, To, R};
}

TEST(ArrayGridTest, ProductMatchesElementCount) {
  std::mt19937_64 Rng(2303);
  for (int Case = 0; Case < 400; ++Case) {
    const RandomMove M = randomMove(Rng, 8);
    SCOPED_TRACE(M.From.str() + " -> " + M.To.str());
    const ArrayGrid G = computeArrayGrid(M.From, M.To, M.Region);
    const CommGrid Count = countArrayGridByElements(M.From, M.To, M.Region);
    ASSERT_EQ(G.Whole.Messages, Count.Messages);
    const ArrayRegion R = resolveRegion(M.From, M.To, M.Region);
    // Rows and columns from the axis grids alone.
    for (int64_t P = 0; P < M.From.procs(); ++P) {
      std::vector<Message> Want;
      for (const Message &X : G.Whole.Messages)
        if (X.Src == P)
          Want.push_back(X);
      EXPECT_EQ(arrayRow(M.From, M.To, G.Axes, P), Want);
    }
    for (int64_t Q = 0; Q < M.To.procs(); ++Q) {
      std::vector<Message> Want;
      for (const Message &X : G.Whole.Messages)
        if (X.Dst == Q)
          Want.push_back(X);
      EXPECT_EQ(arrayColumn(M.From, M.To, G.Axes, Q), Want);
    }
    // Each axis's runs add up to its message lengths, and their product
    // to the message.
    for (const AxisGrid &A : G.Axes)
      for (const Message &X : A.Lines.Messages)
        EXPECT_EQ(
            describeAxis(M.From, M.To, R, A.SourceDim, X.Src, X.Dst).length(),
            X.Len);
  }
}

TEST(ArrayGridTest, BandMatchesElementCount) {
  std::mt19937_64 Rng(2305);
  std::map<std::string, int> Seen;
  for (int Case = 0; Case < 300; ++Case) {
    RandomMove M = randomMove(Rng, 8);
    if (M.From.rank() < 2)
      continue;
    SCOPED_TRACE(M.From.str() + " -> " + M.To.str());
    ArrayRegion R = resolveRegion(M.From, M.To, M.Region);
    R.Band = randomBand(Rng, R.Extents);
    SCOPED_TRACE("band " + std::to_string(R.Band->Row) + "," +
                 std::to_string(R.Band->Col) + " [" +
                 std::to_string(R.Band->Begin) + ", " +
                 std::to_string(R.Band->End) + ")");
    const ArrayRegion Resolved = resolveRegion(M.From, M.To, R);
    ++Seen[Resolved.Band ? "band" : "band dropped"];
    const ArrayGrid G = computeArrayGrid(M.From, M.To, R);
    const CommGrid Count = countArrayGridByElements(M.From, M.To, R);
    ASSERT_EQ(G.Whole.Messages, Count.Messages);
    for (int64_t P = 0; P < M.From.procs(); ++P) {
      std::vector<Message> Want;
      for (const Message &X : G.Whole.Messages)
        if (X.Src == P)
          Want.push_back(X);
      EXPECT_EQ(arrayRow(M.From, M.To, G.Axes, P, Resolved), Want);
    }
    for (int64_t Q = 0; Q < M.To.procs(); ++Q) {
      std::vector<Message> Want;
      for (const Message &X : G.Whole.Messages)
        if (X.Dst == Q)
          Want.push_back(X);
      EXPECT_EQ(arrayColumn(M.From, M.To, G.Axes, Q, Resolved), Want);
    }
    // Every tuple of axis messages names its message, no longer than the
    // product of theirs, or none (-1) where the band leaves it empty; so
    // every message exactly once.
    std::vector<int> Named(G.Whole.Messages.size(), 0);
    size_t Tuples = 1;
    for (const AxisGrid &A : G.Axes)
      Tuples *= A.Lines.Messages.size();
    std::vector<int64_t> Tuple(G.Axes.size());
    for (size_t T = 0; T < Tuples; ++T) {
      size_t Rest = T;
      int64_t Product = 1;
      for (size_t A = G.Axes.size(); A-- > 0;) {
        const std::vector<Message> &Lines = G.Axes[A].Lines.Messages;
        Tuple[A] = static_cast<int64_t>(Rest % Lines.size());
        Rest /= Lines.size();
        Product *= Lines[static_cast<size_t>(Tuple[A])].Len;
      }
      const int64_t Id = G.messageId(Tuple);
      if (Id < 0)
        continue;
      ASSERT_LT(Id, static_cast<int64_t>(Named.size()));
      ++Named[static_cast<size_t>(Id)];
      EXPECT_LE(G.Whole.Messages[static_cast<size_t>(Id)].Len, Product);
      if (!Resolved.Band) {
        EXPECT_EQ(G.Whole.Messages[static_cast<size_t>(Id)].Len, Product);
      }
    }
    for (int Times : Named)
      EXPECT_EQ(Times, 1);
    // A band's grid is no product; every algorithm that schedules any grid
    // gives a valid schedule.
    for (ArrayAlgorithm A : allArrayAlgorithms()) {
      if (!arrayAlgorithmApplies(A, M.From, M.To, Resolved)) {
        EXPECT_TRUE(A.Product || A.Base == Algorithm::Caterpillar)
            << arrayAlgorithmName(A);
        continue;
      }
      EXPECT_TRUE(!A.Product || !Resolved.Band) << arrayAlgorithmName(A);
      const Schedule S = makeArraySchedule(A, M.From, M.To, Resolved, G);
      EXPECT_EQ(validateSchedule(G.Whole, S), std::nullopt)
          << arrayAlgorithmName(A);
    }
  }
  EXPECT_GT(Seen["band"], 100);
  EXPECT_GT(Seen["band dropped"], 0);
}

TEST(ArrayGridTest, BandChecks) {
  const ArrayLayout A(
      {6, 5, 4},
      {DimFormat::block(), DimFormat::cyclic(), DimFormat::collapsed()},
      {2, 2});
  ArrayRegion R;
  R.Band = ArrayBand{1, 1, 0, 2};
  expectInvalid([&] { resolveRegion(A, A, R); },
                {"the band's dimensions are 1 and 1"});
  R.Band = ArrayBand{0, 3, 0, 2};
  expectInvalid([&] { resolveRegion(A, A, R); },
                {"the band's dimensions are 0 and 3",
                 "two different dimensions of [0, 3)"});
  // Diagonals beyond the section keep all (the band is dropped) or none.
  R.Band = ArrayBand{0, 2, -100, 100};
  EXPECT_FALSE(resolveRegion(A, A, R).Band);
  R.Band = ArrayBand{0, 2, -3, 6};
  EXPECT_FALSE(resolveRegion(A, A, R).Band);
  R.Band = ArrayBand{0, 2, 50, 100};
  const ArrayRegion Empty = resolveRegion(A, A, R);
  ASSERT_TRUE(Empty.Band);
  EXPECT_EQ(Empty.Band->Begin, Empty.Band->End);
  EXPECT_TRUE(computeArrayGrid(A, A, R).Whole.Messages.empty());
  // The lower triangle of rows and columns (with depth 4): 6 * 5 - 10
  // elements.
  R.Band = ArrayBand{0, 1, 0, INT64_MAX};
  int64_t Total = 0;
  for (const Message &M : computeArrayGrid(A, A, R).Whole.Messages)
    Total += M.Len;
  EXPECT_EQ(Total, (6 * 5 - 10) * 4);
}

TEST(ArraySchedulersTest, EveryAlgorithmGivesAValidSchedule) {
  std::mt19937_64 Rng(2304);
  std::map<std::string, int> Scheduled;
  for (int Case = 0; Case < 120; ++Case) {
    const RandomMove M = randomMove(Rng, 8);
    SCOPED_TRACE(M.From.str() + " -> " + M.To.str());
    const ArrayRegion R = resolveRegion(M.From, M.To, M.Region);
    const ArrayGrid G = computeArrayGrid(M.From, M.To, R);
    for (ArrayAlgorithm A : allArrayAlgorithms()) {
      if (!arrayAlgorithmApplies(A, M.From, M.To, R)) {
        expectInvalid([&] { makeArraySchedule(A, M.From, M.To, R, G); },
                      {"does not apply"});
        continue;
      }
      const Schedule S = makeArraySchedule(A, M.From, M.To, R, G);
      EXPECT_EQ(validateSchedule(G.Whole, S), std::nullopt)
          << arrayAlgorithmName(A);
      ++Scheduled[arrayAlgorithmName(A)];
    }
    for (OverlapAlgorithm O :
         {OverlapAlgorithm::Overlap, OverlapAlgorithm::OverlapSplit})
      EXPECT_EQ(
          validateOverlapSchedule(G.Whole, makeOverlapSchedule(O, G.Whole)),
          std::nullopt)
          << overlapAlgorithmName(O);
  }
  // Every algorithm ran somewhere in the sweep.
  for (ArrayAlgorithm A : allArrayAlgorithms())
    EXPECT_GT(Scheduled[arrayAlgorithmName(A)], 0) << arrayAlgorithmName(A);
}

TEST(ArraySchedulersTest, ProductOfAxisSchedules) {
  // (block, block, *) on 2x2 -> (*, block, block) on 2x2: each distributed
  // axis a 1-D problem, the product their steps multiplied.
  const ArrayLayout A(
      {8, 8, 8},
      {DimFormat::block(), DimFormat::block(), DimFormat::collapsed()}, {2, 2});
  const ArrayLayout B(
      {8, 8, 8},
      {DimFormat::collapsed(), DimFormat::block(), DimFormat::block()}, {2, 2});
  const ArrayRegion R = resolveRegion(A, B);
  const ArrayGrid G = computeArrayGrid(A, B, R);
  const Schedule S = makeArraySchedule({Algorithm::Stepwise, true}, A, B, R, G);
  EXPECT_EQ(S.Algorithm, "product(stepwise)");
  EXPECT_EQ(validateSchedule(G.Whole, S), std::nullopt);
  EXPECT_EQ(S.Steps.size(), 4u); // 2 x 1 x 2
  EXPECT_EQ(G.Whole.Messages.size(), 8u);
}

} // namespace
