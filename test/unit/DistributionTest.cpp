//===- DistributionTest.cpp - HPF formats and their index maps ------------===//
//
// The index maps are checked against an independent model: walk the global
// indices in order, append each to its owner's list; local index = position
// in that list. Errors are checked for their message.
//
//===----------------------------------------------------------------------===//

#include "ExpectInvalid.h"

#include "redist/Distribution.h"
#include "redist/Error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace redist;
using redist::test::expectInvalid;

namespace {

/// Owner of each global index, by the HPF definition of each format.
int64_t modelOwner(const Distribution &D, int64_t N, int64_t G) {
  switch (D.kind()) {
  case DistKind::Block: {
    int64_t B = N == 0 ? 1 : (N + D.procs() - 1) / D.procs();
    return G / B;
  }
  case DistKind::BlockSized:
    return G / D.param();
  case DistKind::Cyclic:
    return (G / D.param()) % D.procs();
  case DistKind::GenBlock: {
    int64_t Begin = 0;
    for (int64_t P = 0;; ++P) {
      Begin += D.sizes()[static_cast<size_t>(P)];
      if (G < Begin)
        return P;
    }
  }
  }
  return -1;
}

/// Checks every map of Layout(D, N) against the model.
void checkAgainstModel(const Distribution &D, int64_t N) {
  SCOPED_TRACE(D.str() + " over " + std::to_string(D.procs()) +
               " processes, N = " + std::to_string(N));
  Layout Lay(D, N);
  int64_t P = D.procs();
  std::vector<std::vector<int64_t>> Lists(static_cast<size_t>(P));
  for (int64_t G = 0; G < N; ++G)
    Lists[static_cast<size_t>(modelOwner(D, N, G))].push_back(G);
  int64_t Sum = 0;
  for (int64_t Proc = 0; Proc < P; ++Proc) {
    const std::vector<int64_t> &List = Lists[static_cast<size_t>(Proc)];
    ASSERT_EQ(Lay.localSize(Proc), static_cast<int64_t>(List.size()))
        << "process " << Proc;
    Sum += Lay.localSize(Proc);
    for (size_t L = 0; L < List.size(); ++L) {
      int64_t G = List[L];
      ASSERT_EQ(Lay.owner(G), Proc) << "global " << G;
      ASSERT_EQ(Lay.toLocal(G), static_cast<int64_t>(L)) << "global " << G;
      ASSERT_EQ(Lay.toGlobal(Proc, static_cast<int64_t>(L)), G);
    }
    if (D.kind() == DistKind::GenBlock) {
      int64_t Begin = 0;
      for (int64_t Before = 0; Before < Proc; ++Before)
        Begin += D.sizes()[static_cast<size_t>(Before)];
      EXPECT_EQ(Lay.segmentBegin(Proc), Begin) << "process " << Proc;
    }
  }
  EXPECT_EQ(Sum, N);
  if (Lay.isBlockCyclic()) {
    // The header's formula: local = (g / (b*P)) * b + g % b on (g / b) % P.
    int64_t B = Lay.blockSize();
    for (int64_t G = 0; G < N; ++G) {
      ASSERT_EQ(Lay.owner(G), (G / B) % P);
      ASSERT_EQ(Lay.toLocal(G), (G / (B * P)) * B + G % B);
    }
  }
}

} // namespace

TEST(DistributionTest, Spellings) {
  EXPECT_EQ(Distribution::block(4).str(), "block");
  EXPECT_EQ(Distribution::block(4, 5).str(), "block(5)");
  EXPECT_EQ(Distribution::cyclic(4).str(), "cyclic");
  EXPECT_EQ(Distribution::cyclic(4, 3).str(), "cyclic(3)");
  EXPECT_EQ(Distribution::genBlock({4, 0, 7}).str(), "gen_block(4,0,7)");
}

TEST(DistributionTest, Accessors) {
  Distribution B = Distribution::block(4, 5);
  EXPECT_EQ(B.kind(), DistKind::BlockSized);
  EXPECT_EQ(B.procs(), 4);
  EXPECT_EQ(B.param(), 5);
  EXPECT_EQ(Distribution::block(3).kind(), DistKind::Block);
  EXPECT_EQ(Distribution::block(3).param(), 0);
  EXPECT_EQ(Distribution::cyclic(3).param(), 1);
  Distribution G = Distribution::genBlock({4, 0, 7});
  EXPECT_EQ(G.kind(), DistKind::GenBlock);
  EXPECT_EQ(G.procs(), 3);
  EXPECT_EQ(G.sizes(), (std::vector<int64_t>{4, 0, 7}));
}

TEST(DistributionTest, Equality) {
  EXPECT_EQ(Distribution::cyclic(4), Distribution::cyclic(4, 1));
  EXPECT_NE(Distribution::cyclic(4, 2), Distribution::cyclic(4, 3));
  EXPECT_NE(Distribution::cyclic(4, 2), Distribution::cyclic(5, 2));
  EXPECT_NE(Distribution::block(4, 2), Distribution::cyclic(4, 2));
  EXPECT_NE(Distribution::block(4), Distribution::block(4, 2));
  EXPECT_EQ(Distribution::genBlock({1, 2}), Distribution::genBlock({1, 2}));
  EXPECT_NE(Distribution::genBlock({1, 2}), Distribution::genBlock({2, 1}));
  EXPECT_EQ(Layout::blockCyclic(3, 2, 10),
            Layout(Distribution::cyclic(3, 2), 10));
  EXPECT_FALSE(Layout::blockCyclic(3, 2, 10) ==
               Layout(Distribution::cyclic(3, 2), 11));
}

TEST(DistributionTest, ResolvedBlockSizes) {
  EXPECT_EQ(Layout(Distribution::block(4), 10).blockSize(), 3);
  EXPECT_EQ(Layout(Distribution::block(4), 12).blockSize(), 3);
  EXPECT_EQ(Layout(Distribution::block(4), 13).blockSize(), 4);
  EXPECT_EQ(Layout(Distribution::block(4), 0).blockSize(), 1);
  EXPECT_EQ(Layout(Distribution::block(5), 3).blockSize(), 1);
  EXPECT_EQ(Layout(Distribution::block(3, 7), 10).blockSize(), 7);
  EXPECT_EQ(Layout(Distribution::cyclic(3), 10).blockSize(), 1);
  EXPECT_EQ(Layout(Distribution::cyclic(3, 9), 10).blockSize(), 9);
  EXPECT_TRUE(Layout(Distribution::cyclic(3), 10).isBlockCyclic());
  EXPECT_FALSE(Layout(Distribution::genBlock({10}), 10).isBlockCyclic());
  Layout L = Layout::blockCyclic(5, 2, 17);
  EXPECT_EQ(L.procs(), 5);
  EXPECT_EQ(L.extent(), 17);
  EXPECT_EQ(L.distribution(), Distribution::cyclic(5, 2));
}

TEST(DistributionTest, NumrocSizes) {
  // N = 23, b = 3, P = 4: blocks 0..7 of 3 (the last one 2 elements long).
  Layout L = Layout::blockCyclic(4, 3, 23);
  EXPECT_EQ(L.localSize(0), 6);
  EXPECT_EQ(L.localSize(1), 6);
  EXPECT_EQ(L.localSize(2), 6);
  EXPECT_EQ(L.localSize(3), 5);
  // BLOCK with N < P leaves the last processes empty.
  Layout B(Distribution::block(5), 3);
  EXPECT_EQ(B.localSize(0), 1);
  EXPECT_EQ(B.localSize(3), 0);
  EXPECT_EQ(B.localSize(4), 0);
  // BLOCK: N = 10, P = 4 gives 3, 3, 3, 1.
  Layout B2(Distribution::block(4), 10);
  EXPECT_EQ(B2.localSize(3), 1);
  // k > N: everything on process 0.
  Layout K = Layout::blockCyclic(3, 50, 7);
  EXPECT_EQ(K.localSize(0), 7);
  EXPECT_EQ(K.localSize(1), 0);
  EXPECT_EQ(K.toGlobal(0, 6), 6);
}

TEST(DistributionTest, MapsMatchModelForEveryFormat) {
  std::mt19937_64 Rng(12345);
  for (int64_t P : {1, 2, 3, 4, 7, 8}) {
    for (int64_t N :
         {int64_t(0), int64_t(1), P - 1, P, P + 1, int64_t(17), int64_t(100)}) {
      if (N < 0)
        continue;
      checkAgainstModel(Distribution::block(P), N);
      int64_t MinK = N == 0 ? 1 : (N + P - 1) / P;
      for (int64_t K : {MinK, MinK + 1, N + 3})
        checkAgainstModel(Distribution::block(P, K), N);
      for (int64_t K = 1; K <= N + 2; K += (K < 8 ? 1 : 13))
        checkAgainstModel(Distribution::cyclic(P, K), N);
      // GEN_BLOCK: random sizes; only odd processes non-empty; all on one.
      for (int Trial = 0; Trial < 3; ++Trial) {
        std::vector<int64_t> Sizes(static_cast<size_t>(P), 0);
        uint64_t One = Rng() % static_cast<uint64_t>(P);
        for (int64_t I = 0; I < N; ++I) {
          uint64_t Proc = Rng() % static_cast<uint64_t>(P);
          if (Trial == 1 && P > 1)
            Proc = (Proc / 2) * 2 + 1 < static_cast<uint64_t>(P)
                       ? (Proc / 2) * 2 + 1
                       : 1;
          if (Trial == 2)
            Proc = One;
          ++Sizes[Proc];
        }
        checkAgainstModel(Distribution::genBlock(Sizes), N);
      }
    }
  }
  checkAgainstModel(Distribution::genBlock({0, 0, 5, 0, 3, 0}), 8);
  checkAgainstModel(Distribution::genBlock({0, 0, 0}), 0);
}

TEST(DistributionTest, GenBlockSegments) {
  Layout L(Distribution::genBlock({0, 4, 0, 0, 3, 0}), 7);
  EXPECT_EQ(L.segmentBegin(0), 0);
  EXPECT_EQ(L.segmentBegin(1), 0);
  EXPECT_EQ(L.segmentBegin(2), 4);
  EXPECT_EQ(L.segmentBegin(4), 4);
  EXPECT_EQ(L.segmentBegin(5), 7);
  EXPECT_EQ(L.owner(0), 1);
  EXPECT_EQ(L.owner(3), 1);
  EXPECT_EQ(L.owner(4), 4);
  EXPECT_EQ(L.owner(6), 4);
  EXPECT_EQ(L.toLocal(5), 1);
  EXPECT_EQ(L.toGlobal(4, 2), 6);
  EXPECT_EQ(L.blockSize(), 0);
}

TEST(DistributionTest, InvalidFormats) {
  expectInvalid([] { Distribution::block(0); }, {"0"});
  expectInvalid([] { Distribution::block(-3); }, {"-3", "processes"});
  expectInvalid([] { Distribution::block(4, 0); }, {"block size", "0"});
  expectInvalid([] { Distribution::block(-2, 4); }, {"-2"});
  expectInvalid([] { Distribution::cyclic(0); }, {"processes", "0"});
  expectInvalid([] { Distribution::cyclic(4, -7); }, {"-7"});
  expectInvalid([] { Distribution::cyclic(4, 0); }, {"CYCLIC", "0"});
  expectInvalid([] { Distribution::genBlock({}); }, {"GEN_BLOCK", "0"});
  expectInvalid(
      [] {
        Distribution::genBlock({3, -4, 2});
      },
      {"process 1", "-4"});
}

TEST(DistributionTest, InvalidLayouts) {
  expectInvalid([] { Layout(Distribution::cyclic(4, 2), -5); }, {"N", "-5"});
  expectInvalid([] { Layout(Distribution::block(4), -1); }, {"-1"});
  expectInvalid([] { Layout(Distribution::block(4, 3), 13); },
                {"BLOCK(3)", "12", "13"});
  expectInvalid(
      [] {
        Layout(Distribution::genBlock({4, 0, 5}), 10);
      },
      {"9", "10"});
  expectInvalid(
      [] {
        Layout(Distribution::genBlock({4, 0, 5}), 8);
      },
      {"9", "8"});
  int64_t Big = std::numeric_limits<int64_t>::max() / 2 + 1;
  expectInvalid(
      [&] {
        Layout(Distribution::genBlock({Big, Big}), 7);
      },
      {"GEN_BLOCK", "7"});
  expectInvalid([] { Layout::blockCyclic(0, 2, 10); }, {"0"});
  expectInvalid([] { Layout::blockCyclic(2, -1, 10); }, {"-1"});
  // Exactly covering is fine, as is k*P overflowing int64.
  EXPECT_NO_THROW(Layout(Distribution::block(4, 3), 12));
  EXPECT_NO_THROW(Layout(Distribution::block(4, Big), 100));
}

TEST(DistributionTest, IndicesOutOfRange) {
  Layout L = Layout::blockCyclic(3, 2, 10);
  expectInvalid([&] { L.owner(10); }, {"10"});
  expectInvalid([&] { L.owner(-1); }, {"-1"});
  expectInvalid([&] { L.toLocal(12); }, {"12"});
  expectInvalid([&] { L.localSize(3); }, {"process 3"});
  expectInvalid([&] { L.localSize(-1); }, {"-1"});
  expectInvalid([&] { L.toGlobal(3, 0); }, {"3"});
  expectInvalid([&] { L.toGlobal(1, L.localSize(1)); },
                {std::to_string(L.localSize(1))});
  expectInvalid([&] { L.toGlobal(1, -2); }, {"-2"});
  expectInvalid([&] { L.segmentBegin(0); }, {"GEN_BLOCK", "cyclic(2)"});
  Layout G(Distribution::genBlock({2, 3}), 5);
  expectInvalid([&] { G.segmentBegin(2); }, {"2"});
  expectInvalid([&] { G.owner(5); }, {"5"});
  Layout Empty = Layout::blockCyclic(2, 3, 0);
  expectInvalid([&] { Empty.owner(0); }, {"0"});
  EXPECT_EQ(Empty.localSize(0), 0);
  EXPECT_EQ(Empty.localSize(1), 0);
}

TEST(DistributionTest, NearInt64Limits) {
  const int64_t Max = std::numeric_limits<int64_t>::max();
  // CYCLIC(5) over 3 processes of 2^63 - 1 elements.
  Layout C = Layout::blockCyclic(3, 5, Max);
  int64_t Sum = 0;
  for (int64_t P = 0; P < 3; ++P)
    Sum += C.localSize(P);
  EXPECT_EQ(Sum, Max);
  for (int64_t G : {Max - 1, Max - 7, Max / 2, int64_t(0)}) {
    int64_t Owner = C.owner(G);
    EXPECT_EQ(Owner, (G / 5) % 3);
    EXPECT_EQ(C.toGlobal(Owner, C.toLocal(G)), G);
  }
  // BLOCK(k) whose k*P overflows: blocks of Max/2 + 1.
  int64_t K = Max / 2 + 1;
  Layout B(Distribution::block(4, K), Max);
  EXPECT_EQ(B.localSize(0), K);
  EXPECT_EQ(B.localSize(1), Max - K);
  EXPECT_EQ(B.localSize(2), 0);
  EXPECT_EQ(B.owner(Max - 1), 1);
  EXPECT_EQ(B.toLocal(Max - 1), Max - 1 - K);
  EXPECT_EQ(B.toGlobal(1, Max - 1 - K), Max - 1);
  // BLOCK over many processes of a huge array.
  Layout Bl(Distribution::block(7), Max);
  Sum = 0;
  for (int64_t P = 0; P < 7; ++P)
    Sum += Bl.localSize(P);
  EXPECT_EQ(Sum, Max);
  EXPECT_EQ(Bl.owner(Max - 1), 6);
}
