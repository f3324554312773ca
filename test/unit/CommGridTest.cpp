//===- CommGridTest.cpp - The communication grid against references -------===//
//
// computeGrid (closed forms plus the tail walk, or the generic walk) must
// equal countGridByElements, and computeRow / computeColumn must equal the
// grid's rows and columns. Huge extents, where counting elements is out of
// reach, are checked against a count over the merged block boundaries.
// PropertySweepTest.cpp checks every P, Q <= 24 and r, s <= 12 at N = L and
// L + L/3 + 1; the sweeps here add the other extents (0, 1, P - 1, 997, two
// slices and more), on random cases and, in the Slow test, on every case.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "DescribeLayouts.h"
#include "GridChecks.h"
#include "redist/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace redist;

namespace {

using test::describe;
using test::expectSameMessages;

/// The grid computed by all three entry points equals the element count.
void expectGridCorrect(const Layout &From, const Layout &To) {
  SCOPED_TRACE(describe(From, To));
  test::expectGridEquals(From, To, computeGrid(From, To),
                         countGridByElements(From, To));
}

int64_t lcm(int64_t A, int64_t B) { return A / std::gcd(A, B) * B; }

/// The extents every block-cyclic case is tried with.
std::vector<int64_t> extentsFor(int64_t P, int64_t Q, int64_t R, int64_t S,
                                std::mt19937_64 &Rng) {
  int64_t L = lcm(P * R, Q * S);
  return {0,
          1,
          P - 1,
          L,
          L + 1 + static_cast<int64_t>(Rng() % 7),
          2 * L + static_cast<int64_t>(Rng() % static_cast<uint64_t>(L)),
          997};
}

struct Case {
  int64_t P, Q, R, S;
};

/// The paper's examples and extreme corners, then random cases with
/// P, Q <= 24 and r, s <= 12.
std::vector<Case> sweepCases(size_t Count, uint64_t Seed) {
  std::vector<Case> Cases = {{1, 1, 1, 1},     {1, 24, 12, 1}, {24, 1, 1, 12},
                             {24, 24, 12, 12}, {16, 16, 3, 5}, {15, 15, 3, 5},
                             {12, 8, 4, 3},    {15, 6, 2, 3},  {16, 16, 7, 11},
                             {4, 4, 2, 2},     {6, 4, 4, 6},   {24, 23, 11, 12},
                             {15, 15, 12, 20}, {8, 8, 1, 8},   {7, 5, 12, 12}};
  std::mt19937_64 Rng(Seed);
  while (Cases.size() < Count)
    Cases.push_back({static_cast<int64_t>(Rng() % 24 + 1),
                     static_cast<int64_t>(Rng() % 24 + 1),
                     static_cast<int64_t>(Rng() % 12 + 1),
                     static_cast<int64_t>(Rng() % 12 + 1)});
  return Cases;
}

void sweep(const std::vector<Case> &Cases, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  for (const Case &C : Cases)
    for (int64_t N : extentsFor(C.P, C.Q, C.R, C.S, Rng))
      expectGridCorrect(Layout::blockCyclic(C.P, C.R, N),
                        Layout::blockCyclic(C.Q, C.S, N));
}

/// Reference for huge extents: split [0, N) at every block boundary of
/// either layout (given as the boundary step of each) and ask owner().
std::vector<Message> countByBoundaries(const Layout &From, const Layout &To) {
  int64_t N = From.extent();
  std::set<int64_t> Cuts = {N};
  for (int64_t Step : {From.blockSize(), To.blockSize()})
    for (int64_t X = 0; X < N; X += Step) {
      Cuts.insert(X);
      if (N - X <= Step)
        break;
    }
  std::map<std::pair<int64_t, int64_t>, int64_t> Lengths;
  int64_t Prev = 0;
  for (int64_t Cut : Cuts) {
    if (Cut > Prev)
      Lengths[{From.owner(Prev), To.owner(Prev)}] += Cut - Prev;
    Prev = Cut;
  }
  std::vector<Message> Ms;
  for (const auto &E : Lengths)
    Ms.push_back({E.first.first, E.first.second, E.second});
  return Ms;
}

} // namespace

TEST(CommGridTest, BlockCyclicSweep) { sweep(sweepCases(400, 7), 11); }

TEST(CommGridSlowTest, BlockCyclicSweepSlow) {
  // Every P, Q <= 24 and r, s <= 12.
  std::vector<Case> Cases;
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t Q = 1; Q <= 24; ++Q)
      for (int64_t R = 1; R <= 12; ++R)
        for (int64_t S = 1; S <= 12; ++S)
          Cases.push_back({P, Q, R, S});
  sweep(Cases, 13);
}

TEST(CommGridTest, EveryBlockSizePairOnSmallGrids) {
  std::mt19937_64 Rng(5);
  for (int64_t R = 1; R <= 12; ++R)
    for (int64_t S = 1; S <= 12; ++S)
      for (auto PQ : {std::make_pair(4, 6), std::make_pair(5, 5)})
        for (int64_t N : extentsFor(PQ.first, PQ.second, R, S, Rng))
          expectGridCorrect(Layout::blockCyclic(PQ.first, R, N),
                            Layout::blockCyclic(PQ.second, S, N));
}

TEST(CommGridTest, BlockFormats) {
  for (int64_t N : {0, 1, 5, 23, 24, 97, 240}) {
    for (int64_t P : {1, 3, 4, 7}) {
      for (int64_t Q : {1, 2, 5, 8}) {
        Layout BlockP(Distribution::block(P), N);
        Layout BlockQ(Distribution::block(Q), N);
        expectGridCorrect(BlockP, BlockQ);
        expectGridCorrect(BlockP, Layout::blockCyclic(Q, 3, N));
        expectGridCorrect(Layout::blockCyclic(P, 2, N), BlockQ);
        int64_t K = N / P + 2;
        expectGridCorrect(Layout(Distribution::block(P, K), N), BlockQ);
        expectGridCorrect(Layout(Distribution::block(P, K), N),
                          Layout(Distribution::block(Q, N + 1), N));
      }
    }
  }
}

TEST(CommGridTest, GenBlockWithZeroSegments) {
  std::vector<std::vector<int64_t>> Sources = {{12, 20, 15, 14, 11, 9, 9, 11},
                                               {0, 40, 0, 0, 61, 0},
                                               {101},
                                               {0, 0, 101, 0},
                                               {50, 0, 1, 50, 0}};
  std::vector<std::vector<int64_t>> Targets = {{17, 10, 13, 6, 17, 12, 11, 15},
                                               {0, 101},
                                               {101, 0, 0},
                                               {1, 0, 99, 1},
                                               {25, 25, 0, 26, 25}};
  for (const auto &S : Sources) {
    int64_t N = std::accumulate(S.begin(), S.end(), int64_t(0));
    Layout From(Distribution::genBlock(S), N);
    for (const auto &T : Targets) {
      int64_t M = std::accumulate(T.begin(), T.end(), int64_t(0));
      if (M == N)
        expectGridCorrect(From, Layout(Distribution::genBlock(T), N));
    }
    // Segments longer than a cycle of the other side, and shorter.
    for (int64_t Q : {1, 2, 3, 7, 40})
      for (int64_t K : {1, 2, 5, 60}) {
        expectGridCorrect(From, Layout::blockCyclic(Q, K, N));
        expectGridCorrect(Layout::blockCyclic(Q, K, N), From);
      }
    expectGridCorrect(From, Layout(Distribution::block(4), N));
    expectGridCorrect(Layout(Distribution::block(3), N), From);
  }
  expectGridCorrect(Layout(Distribution::genBlock({0, 0}), 0),
                    Layout(Distribution::genBlock({0}), 0));
  expectGridCorrect(Layout(Distribution::genBlock({0, 0}), 0),
                    Layout::blockCyclic(3, 2, 0));
}

TEST(CommGridTest, RandomGenBlocks) {
  std::mt19937_64 Rng(99);
  for (int Trial = 0; Trial < 60; ++Trial) {
    int64_t N = static_cast<int64_t>(Rng() % 300);
    auto Sizes = [&](int64_t P) {
      std::vector<int64_t> S(static_cast<size_t>(P), 0);
      for (int64_t I = 0; I < N; ++I)
        ++S[Rng() % static_cast<uint64_t>(P)];
      return S;
    };
    int64_t P = static_cast<int64_t>(Rng() % 12 + 1);
    int64_t Q = static_cast<int64_t>(Rng() % 12 + 1);
    Layout From(Distribution::genBlock(Sizes(P)), N);
    Layout To(Distribution::genBlock(Sizes(Q)), N);
    expectGridCorrect(From, To);
    int64_t K = static_cast<int64_t>(Rng() % 9 + 1);
    expectGridCorrect(From, Layout::blockCyclic(Q, K, N));
    expectGridCorrect(Layout::blockCyclic(P, K, N), To);
  }
}

TEST(CommGridTest, GenBlockPaperFigure) {
  // scpa-gen-block Figure 1 (sizes from docs/paper-corrections.md): 15
  // messages, maximum degree 3.
  Layout From(Distribution::genBlock({12, 20, 15, 14, 11, 9, 9, 11}), 101);
  Layout To(Distribution::genBlock({17, 10, 13, 6, 17, 12, 11, 15}), 101);
  CommGrid G = computeGrid(From, To);
  EXPECT_EQ(G.Messages.size(), 15u);
  EXPECT_EQ(G.maxDegree(), 3);
}

TEST(CommGridTest, DesprezExample1) {
  // P = Q = 16, r = 3, s = 5: 7 messages in every row and column, L = 240,
  // lengths 1 to 3, each process moves L / 16 = 15 elements per slice.
  Layout From = Layout::blockCyclic(16, 3, 240);
  Layout To = Layout::blockCyclic(16, 5, 240);
  CommGrid G = computeGrid(From, To);
  for (int64_t C : G.rowCounts())
    EXPECT_EQ(C, 7);
  for (int64_t C : G.columnCounts())
    EXPECT_EQ(C, 7);
  EXPECT_EQ(G.Messages.size(), 112u);
  EXPECT_EQ(G.maxDegree(), 7);
  EXPECT_EQ(G.maxVolume(), 15);
  std::set<int64_t> Lengths;
  for (const Message &M : G.Messages)
    Lengths.insert(M.Len);
  EXPECT_EQ(Lengths, (std::set<int64_t>{1, 2, 3}));
  // The pattern repeats every 240 elements and not before.
  for (int64_t K : {2, 5}) {
    CommGrid GK = computeGrid(Layout::blockCyclic(16, 3, K * 240),
                              Layout::blockCyclic(16, 5, K * 240));
    ASSERT_EQ(GK.Messages.size(), G.Messages.size());
    for (size_t I = 0; I < G.Messages.size(); ++I)
      EXPECT_EQ(GK.Messages[I].Len, K * G.Messages[I].Len);
  }
  CommGrid Half = computeGrid(Layout::blockCyclic(16, 3, 120),
                              Layout::blockCyclic(16, 5, 120));
  EXPECT_NE(Half.rowCounts(), G.rowCounts());
}

TEST(CommGridTest, DesprezExample2) {
  // P = Q = 16, r = 7, s = 11: all-to-all, lengths 2 to 7, L = 1232; the
  // per-process volume 77 is the class schedule's cost
  // (docs/paper-corrections.md).
  CommGrid G = computeGrid(Layout::blockCyclic(16, 7, 1232),
                           Layout::blockCyclic(16, 11, 1232));
  EXPECT_EQ(G.Messages.size(), 256u);
  EXPECT_EQ(G.maxVolume(), 77);
  int64_t Min = 100, Max = 0;
  for (const Message &M : G.Messages) {
    Min = std::min(Min, M.Len);
    Max = std::max(Max, M.Len);
  }
  EXPECT_EQ(Min, 2);
  EXPECT_EQ(Max, 7);
}

TEST(CommGridTest, DesprezExample3) {
  // P = Q = 15, r = 3, s = 5, L = 225: rows hold 5 or 10 messages, columns 6
  // or 9 (docs/paper-corrections.md); p = 0 sends only messages of length 3,
  // p = 1 only of length 1 or 2.
  CommGrid G = computeGrid(Layout::blockCyclic(15, 3, 225),
                           Layout::blockCyclic(15, 5, 225));
  for (int64_t C : G.rowCounts())
    EXPECT_TRUE(C == 5 || C == 10) << C;
  for (int64_t C : G.columnCounts())
    EXPECT_TRUE(C == 6 || C == 9) << C;
  EXPECT_EQ(G.maxDegree(), 10);
  EXPECT_EQ(G.rowCounts()[1], 10);
  for (const Message &M : G.Messages) {
    if (M.Src == 0) {
      EXPECT_EQ(M.Len, 3);
    } else if (M.Src == 1) {
      EXPECT_TRUE(M.Len == 1 || M.Len == 2) << M.Len;
    }
  }
  // class(1) of §4.4.2 (p*r - q*s = 1 mod 15) has 15 pairs, all in rows 2,
  // 7, 12 and columns 1, 4, 7, 10, 13, with message length vol(1) = 3.
  std::vector<std::pair<int64_t, int64_t>> Class1 = {
      {2, 1},   {7, 4},  {12, 7}, {2, 10}, {7, 13}, {12, 1}, {2, 4},  {7, 7},
      {12, 10}, {2, 13}, {7, 1},  {12, 4}, {2, 7},  {7, 10}, {12, 13}};
  for (auto PQ : Class1)
    EXPECT_EQ(G.length(PQ.first, PQ.second), 3);
}

TEST(CommGridTest, DesprezTable10Scaling) {
  // r = 12, s = 20 (D = 4) keeps Example 3's messages with lengths times 4
  // for L = 900.
  CommGrid Small = computeGrid(Layout::blockCyclic(15, 3, 225),
                               Layout::blockCyclic(15, 5, 225));
  CommGrid Big = computeGrid(Layout::blockCyclic(15, 12, 900),
                             Layout::blockCyclic(15, 20, 900));
  ASSERT_EQ(Big.Messages.size(), Small.Messages.size());
  for (size_t I = 0; I < Big.Messages.size(); ++I) {
    EXPECT_EQ(Big.Messages[I].Src, Small.Messages[I].Src);
    EXPECT_EQ(Big.Messages[I].Dst, Small.Messages[I].Dst);
    EXPECT_EQ(Big.Messages[I].Len, 4 * Small.Messages[I].Len);
  }
}

TEST(CommGridTest, DesprezExample4) {
  // P = 12, Q = 8, r = 4, s = 3, L = 48: four steps are optimal since q = 1
  // receives four messages; p = 11 sends nothing to q = 0 but sends to q = 6.
  CommGrid G = computeGrid(Layout::blockCyclic(12, 4, 48),
                           Layout::blockCyclic(8, 3, 48));
  EXPECT_EQ(G.maxDegree(), 4);
  EXPECT_EQ(G.columnCounts()[1], 4);
  EXPECT_EQ(G.length(11, 0), 0);
  EXPECT_GT(G.length(11, 6), 0);
  // 48 is the period: 47 elements already differ from a scaled grid.
  CommGrid Twice = computeGrid(Layout::blockCyclic(12, 4, 96),
                               Layout::blockCyclic(8, 3, 96));
  for (const Message &M : Twice.Messages)
    EXPECT_EQ(M.Len, 2 * G.length(M.Src, M.Dst));
  EXPECT_EQ(Twice.Messages.size(), G.Messages.size());
}

TEST(CommGridTest, DesprezExample5) {
  // P = 15, Q = 6, r = 2, s = 3, L = 90: 30 messages of length 2 and 30 of
  // length 1; 10 steps are optimal.
  CommGrid G = computeGrid(Layout::blockCyclic(15, 2, 90),
                           Layout::blockCyclic(6, 3, 90));
  int64_t Ones = 0, Twos = 0;
  for (const Message &M : G.Messages) {
    Ones += M.Len == 1;
    Twos += M.Len == 2;
  }
  EXPECT_EQ(Ones, 30);
  EXPECT_EQ(Twos, 30);
  EXPECT_EQ(G.Messages.size(), 60u);
  EXPECT_EQ(G.maxDegree(), 10);
}

TEST(CommGridTest, HugeExtentsArePeriodic) {
  // grid(m*L + t) = (m - 1) * grid(L) + grid(L + t), m near 10^15.
  const int64_t L = 240, M = 1000000000000000, Tail = 17;
  Layout From = Layout::blockCyclic(16, 3, M * L + Tail);
  Layout To = Layout::blockCyclic(16, 5, M * L + Tail);
  CommGrid Whole = countGridByElements(Layout::blockCyclic(16, 3, L),
                                       Layout::blockCyclic(16, 5, L));
  CommGrid Last = countGridByElements(Layout::blockCyclic(16, 3, L + Tail),
                                      Layout::blockCyclic(16, 5, L + Tail));
  std::vector<Message> Want = Last.Messages;
  for (Message &W : Want)
    W.Len += (M - 1) * Whole.length(W.Src, W.Dst);
  expectSameMessages(computeGrid(From, To).Messages, Want, "grid");
  std::vector<Message> Row3;
  for (const Message &W : Want)
    if (W.Src == 3)
      Row3.push_back(W);
  expectSameMessages(computeRow(From, To, 3), Row3, "row 3");
}

TEST(CommGridTest, BlockSizesNearInt64Limits) {
  const int64_t Max = std::numeric_limits<int64_t>::max();
  struct Huge {
    int64_t P, R, Q, S, N;
  };
  std::vector<Huge> Cases = {
      // L = lcm(P*r, Q*s) overflows: everything is one incomplete slice.
      {1 << 20, int64_t(1) << 40, 1 << 20, (int64_t(1) << 40) + 1,
       int64_t(100000000000000)},
      // L = 2^62 fits: one whole slice and a tail.
      {2, int64_t(1) << 61, 1, int64_t(1) << 62, Max},
      // L = 3 * 10^18: three whole slices.
      {3, 1000000000000000000, 2, 1500000000000000000, Max},
      // Large coprime blocks, L = 6 * 10^18 fits, N < L.
      {2, 1000000007, 3, 998244353, 1000000000000},
      // L = 1.2 * 10^16: five whole slices and a tail.
      {4, 1000000000000, 6, 1000000000000000, 60000000000012345}};
  for (const Huge &C : Cases) {
    Layout From = Layout::blockCyclic(C.P, C.R, C.N);
    Layout To = Layout::blockCyclic(C.Q, C.S, C.N);
    SCOPED_TRACE(describe(From, To));
    std::vector<Message> Want = countByBoundaries(From, To);
    CommGrid G = computeGrid(From, To);
    expectSameMessages(G.Messages, Want, "grid");
    for (int64_t P : {int64_t(0), C.P - 1})
      for (const Message &M : computeRow(From, To, P))
        EXPECT_EQ(M.Len, G.length(M.Src, M.Dst));
    for (int64_t Q : {int64_t(0), C.Q - 1})
      for (const Message &M : computeColumn(From, To, Q))
        EXPECT_EQ(M.Len, G.length(M.Src, M.Dst));
  }
}

TEST(CommGridTest, LargeSparseGrid) {
  // P = Q = 4096, r = 3, s = 5: g = 4096 >= r + s - 1, 7 classes of
  // P*Q/g = 4096 pairs, so 7 messages per row and column.
  const int64_t L = 61440;
  Layout From = Layout::blockCyclic(4096, 3, 3 * L + 1000);
  Layout To = Layout::blockCyclic(4096, 5, 3 * L + 1000);
  CommGrid G = computeGrid(From, To);
  EXPECT_EQ(G.maxDegree(), 7);
  int64_t Sum = 0;
  for (const Message &M : G.Messages)
    Sum += M.Len;
  EXPECT_EQ(Sum, 3 * L + 1000);
  EXPECT_EQ(G.Messages.size(), 7u * 4096u);
  for (int64_t P : {0, 1, 2047, 4095})
    expectSameMessages(computeRow(From, To, P),
                       std::vector<Message>(G.Messages.begin() + 7 * P,
                                            G.Messages.begin() + 7 * P + 7),
                       "row " + std::to_string(P));
  std::vector<Message> Want = countByBoundaries(From, To);
  expectSameMessages(G.Messages, Want, "grid");
}

TEST(CommGridTest, LargeFullGrid) {
  // r = 1, s = 512 on 512 processes: every target block spans every source
  // process, a full grid of 512 * 512 messages of 2 elements for N = 2L.
  const int64_t L = 512 * 512;
  CommGrid G = computeGrid(Layout::blockCyclic(512, 1, 2 * L),
                           Layout::blockCyclic(512, 512, 2 * L));
  ASSERT_EQ(G.Messages.size(), 512u * 512u);
  for (const Message &M : G.Messages)
    ASSERT_EQ(M.Len, 2);
}

TEST(CommGridTest, GridQueries) {
  CommGrid G = computeGrid(Layout::blockCyclic(12, 4, 48),
                           Layout::blockCyclic(8, 3, 48));
  CommGrid Ref = countGridByElements(Layout::blockCyclic(12, 4, 48),
                                     Layout::blockCyclic(8, 3, 48));
  std::vector<int64_t> Rows(12, 0), Columns(8, 0), Sent(12, 0), Recv(8, 0);
  for (const Message &M : Ref.Messages) {
    ++Rows[static_cast<size_t>(M.Src)];
    ++Columns[static_cast<size_t>(M.Dst)];
    Sent[static_cast<size_t>(M.Src)] += M.Len;
    Recv[static_cast<size_t>(M.Dst)] += M.Len;
  }
  EXPECT_EQ(G.rowCounts(), Rows);
  EXPECT_EQ(G.columnCounts(), Columns);
  EXPECT_EQ(G.maxDegree(),
            std::max(*std::max_element(Rows.begin(), Rows.end()),
                     *std::max_element(Columns.begin(), Columns.end())));
  EXPECT_EQ(G.maxVolume(),
            std::max(*std::max_element(Sent.begin(), Sent.end()),
                     *std::max_element(Recv.begin(), Recv.end())));
  for (int64_t P = 0; P < 12; ++P)
    for (int64_t Q = 0; Q < 8; ++Q) {
      int64_t Want = 0;
      for (const Message &M : Ref.Messages)
        if (M.Src == P && M.Dst == Q)
          Want = M.Len;
      EXPECT_EQ(G.length(P, Q), Want);
    }
  EXPECT_EQ(G.length(12, 0), 0);
  EXPECT_EQ(G.length(-1, 0), 0);
  CommGrid Empty;
  EXPECT_EQ(Empty.maxDegree(), 0);
  EXPECT_EQ(Empty.maxVolume(), 0);
}

TEST(CommGridTest, InvalidArguments) {
  Layout A = Layout::blockCyclic(4, 2, 100);
  Layout B = Layout::blockCyclic(3, 5, 101);
  for (auto Fn :
       {+[](const Layout &X, const Layout &Y) { computeGrid(X, Y); },
        +[](const Layout &X, const Layout &Y) { countGridByElements(X, Y); },
        +[](const Layout &X, const Layout &Y) { computeRow(X, Y, 0); },
        +[](const Layout &X, const Layout &Y) { computeColumn(X, Y, 0); }}) {
    try {
      Fn(A, B);
      ADD_FAILURE() << "extents 100 and 101 accepted";
    } catch (const InvalidArgument &E) {
      std::string What = E.what();
      EXPECT_NE(What.find("100"), std::string::npos) << What;
      EXPECT_NE(What.find("101"), std::string::npos) << What;
    }
  }
  Layout C = Layout::blockCyclic(3, 5, 100);
  for (int64_t Bad : {-1, 4}) {
    try {
      computeRow(A, C, Bad);
      ADD_FAILURE() << "source " << Bad << " accepted";
    } catch (const InvalidArgument &E) {
      EXPECT_NE(std::string(E.what()).find(std::to_string(Bad)),
                std::string::npos)
          << E.what();
    }
  }
  for (int64_t Bad : {-1, 3}) {
    try {
      computeColumn(A, C, Bad);
      ADD_FAILURE() << "target " << Bad << " accepted";
    } catch (const InvalidArgument &E) {
      EXPECT_NE(
          std::string(E.what()).find("target process " + std::to_string(Bad)),
          std::string::npos)
          << E.what();
    }
  }
}
