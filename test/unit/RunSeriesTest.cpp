//===- RunSeriesTest.cpp - Run series round-trip and stay compact ---------===//
//
// compressRuns must give back exactly the runs it was given, in order, when
// expanded; and it must find the series the layouts make: CYCLIC to BLOCK
// is one series per message, whatever N.
//
//===----------------------------------------------------------------------===//

#include "redist/RunSeries.h"
#include "redist/MessagePattern.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace redist;

namespace {

std::vector<redist::Run> roundTrip(const std::vector<redist::Run> &Runs) {
  std::vector<RunSeries> S = compressRuns(Runs);
  std::vector<redist::Run> Out;
  expandRuns(S.data(), S.size(), Out);
  return Out;
}

TEST(RunSeriesTest, EmptyAndSingle) {
  EXPECT_TRUE(compressRuns({}).empty());
  std::vector<redist::Run> One{{5, 7, 3}};
  std::vector<RunSeries> S = compressRuns(One);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Count, 1);
  EXPECT_EQ(roundTrip(One), One);
}

TEST(RunSeriesTest, ArithmeticRunsBecomeOneSeries) {
  std::vector<redist::Run> Runs;
  for (int64_t K = 0; K < 100; ++K)
    Runs.push_back(redist::Run{10 + 3 * K, 2 + 12 * K, 3});
  std::vector<RunSeries> S = compressRuns(Runs);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].SrcOffset, 10);
  EXPECT_EQ(S[0].DstOffset, 2);
  EXPECT_EQ(S[0].Length, 3);
  EXPECT_EQ(S[0].SrcStep, 3);
  EXPECT_EQ(S[0].DstStep, 12);
  EXPECT_EQ(S[0].Count, 100);
}

TEST(RunSeriesTest, AStrayRunDoesNotSplitTheSeriesAfterIt) {
  // A run of another length first, then a clean series: two series, not
  // a pair and the rest.
  std::vector<redist::Run> Runs{{0, 0, 3}, {100, 50, 3}};
  for (int64_t K = 1; K < 6; ++K)
    Runs.push_back(redist::Run{100 + 4 * K, 50 + 8 * K, 3});
  std::vector<RunSeries> S = compressRuns(Runs);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Count, 1);
  EXPECT_EQ(S[1].Count, 6);
  EXPECT_EQ(roundTrip(Runs), Runs);
}

TEST(RunSeriesTest, RandomRunsRoundTrip) {
  std::mt19937_64 Gen(7);
  for (int Case = 0; Case < 500; ++Case) {
    std::vector<redist::Run> Runs;
    int64_t Src = 0, Dst = 0;
    const int Count = static_cast<int>(Gen() % 40);
    for (int I = 0; I < Count; ++I) {
      // Mostly regular, sometimes not, so that series start and stop.
      const int64_t Len = Gen() % 4 == 0 ? 1 + Gen() % 5 : 2;
      Src += Gen() % 3 == 0 ? 1 + Gen() % 9 : 4;
      Dst += Gen() % 3 == 0 ? 1 + Gen() % 9 : 6;
      Runs.push_back(redist::Run{Src, Dst, Len});
      Src += Len;
      Dst += Len;
    }
    ASSERT_EQ(roundTrip(Runs), Runs) << "case " << Case;
  }
}

TEST(RunSeriesTest, CyclicToBlockIsOneSeriesPerMessage) {
  // One series per message whatever N (under BLOCK one slice is the whole
  // array, so its runs grow with N; the series do not).
  for (int64_t Slices : {1, 4, 16}) {
    const int64_t N = 4096 * Slices;
    const Layout From = Layout::blockCyclic(4, 1, N);
    const Layout To(Distribution::block(4), N);
    for (int64_t P = 0; P < 4; ++P)
      for (const MessagePattern &M : describeRow(From, To, P)) {
        EXPECT_EQ(compressRuns(M.SliceRuns).size() +
                      compressRuns(M.TailRuns).size(),
                  1u)
            << "N " << N << ", " << P << " -> " << M.Dst;
        std::vector<redist::Run> All = M.SliceRuns;
        All.insert(All.end(), M.TailRuns.begin(), M.TailRuns.end());
        std::vector<redist::Run> Back = roundTrip(M.SliceRuns);
        std::vector<redist::Run> Tail = roundTrip(M.TailRuns);
        Back.insert(Back.end(), Tail.begin(), Tail.end());
        EXPECT_EQ(Back, All);
      }
  }
}

TEST(RunSeriesTest, WholeSlicesDoNotGrowWithN) {
  // Block-cyclic pairs repeat every slice: the series of one slice serve
  // every N that is a multiple of it.
  const int64_t L = 60; // lcm(4 * 3, 4 * 5)
  auto SeriesOf = [](int64_t N) {
    size_t Total = 0;
    const Layout From = Layout::blockCyclic(4, 3, N),
                 To = Layout::blockCyclic(4, 5, N);
    for (int64_t P = 0; P < 4; ++P)
      for (const MessagePattern &M : describeRow(From, To, P))
        Total +=
            compressRuns(M.SliceRuns).size() + compressRuns(M.TailRuns).size();
    return Total;
  };
  EXPECT_EQ(SeriesOf(L * 10), SeriesOf(L * 100000));
}

} // namespace
