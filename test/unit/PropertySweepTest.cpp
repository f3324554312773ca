//===- PropertySweepTest.cpp - Every P, Q <= 24 and r, s <= 12 ------------===//
//
// The property sweep of the default suite: every CYCLIC(r) on P -> CYCLIC(s)
// on Q with P, Q <= 24 and r, s <= 12, at one whole slice (N = L =
// lcm(P r, Q s), the papers' tables) and at N = L + L/3 + 1, which ends in a
// partial slice. In each case:
// - the grid, and every row and column computed alone, equal an
//   element-by-element count;
// - every algorithm that applies passes the validator and keeps its promises
//   (ScheduleChecks.h): stepwise in exactly max-degree steps, classes and
//   walker_otto at both lower bounds on the whole slice, auto (at N = L).
// The sweep is split into shards, one ctest test each, so that ctest -j runs
// them side by side. Other extents are in the Slow tests (ctest -L slow).
//
//===----------------------------------------------------------------------===//

#include "DescribeLayouts.h"
#include "GridChecks.h"
#include "ScheduleChecks.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

using namespace redist;
using test::describe;
using test::expectSameMessages;

namespace {

constexpr int64_t MaxProcs = 24;
constexpr int64_t MaxBlock = 12;
/// Shard K sweeps P = K + 1 and P = MaxProcs - K: the work grows with P, so
/// pairing small with large P evens the shards out.
constexpr int NumShards = MaxProcs / 2;

int64_t lcm(int64_t A, int64_t B) { return A / std::gcd(A, B) * B; }

/// The grid of CYCLIC(R) on P -> CYCLIC(S) on Q over N elements, counted one
/// element at a time. Each side's owner comes from a cursor advanced element
/// by element: none of computeGrid's closed forms, and none of
/// Layout::owner's divisions, which would make the sweep several times
/// slower (countGridByElements checks this counter below).
CommGrid countElements(int64_t P, int64_t R, int64_t Q, int64_t S, int64_t N) {
  std::vector<int64_t> Count(static_cast<size_t>(P * Q), 0);
  int64_t Src = 0, SrcTaken = 0, Dst = 0, DstTaken = 0;
  for (int64_t I = 0; I < N; ++I) {
    ++Count[static_cast<size_t>(Src * Q + Dst)];
    if (++SrcTaken == R) {
      SrcTaken = 0;
      Src = Src + 1 == P ? 0 : Src + 1;
    }
    if (++DstTaken == S) {
      DstTaken = 0;
      Dst = Dst + 1 == Q ? 0 : Dst + 1;
    }
  }
  CommGrid G;
  G.P = P;
  G.Q = Q;
  for (int64_t I = 0; I < P * Q; ++I)
    if (Count[static_cast<size_t>(I)] > 0)
      G.Messages.push_back({I / Q, I % Q, Count[static_cast<size_t>(I)]});
  return G;
}

void checkCase(int64_t P, int64_t R, int64_t Q, int64_t S) {
  const int64_t L = lcm(P * R, Q * S);
  for (int64_t N : {L, L + L / 3 + 1}) {
    const Layout From = Layout::blockCyclic(P, R, N);
    const Layout To = Layout::blockCyclic(Q, S, N);
    const CommGrid G = computeGrid(From, To);
    {
      SCOPED_TRACE(describe(From, To));
      test::expectGridEquals(From, To, G, countElements(P, R, Q, S, N));
    }
    // auto reruns every other algorithm: once per case is enough.
    test::checkEverySchedule(From, To, G, /*CheckAuto=*/N == L);
  }
}

class PropertySweepTest : public ::testing::TestWithParam<int> {};

} // namespace

TEST(PropertySweepTest, ElementCountMatchesTheLibraryReference) {
  for (int64_t P = 1; P <= 7; ++P)
    for (int64_t Q = 1; Q <= 7; ++Q)
      for (int64_t R = 1; R <= 5; ++R)
        for (int64_t S = 1; S <= 5; ++S) {
          const int64_t L = lcm(P * R, Q * S);
          for (int64_t N : {int64_t(0), int64_t(1), int64_t(13), L,
                            L + L / 3 + 1, 2 * L - 1}) {
            const Layout From = Layout::blockCyclic(P, R, N);
            const Layout To = Layout::blockCyclic(Q, S, N);
            expectSameMessages(countElements(P, R, Q, S, N).Messages,
                               countGridByElements(From, To).Messages,
                               describe(From, To));
          }
        }
}

TEST_P(PropertySweepTest, BlockCyclic) {
  const int64_t Shard = GetParam();
  for (int64_t P : {Shard + 1, MaxProcs - Shard})
    for (int64_t Q = 1; Q <= MaxProcs; ++Q)
      for (int64_t R = 1; R <= MaxBlock; ++R)
        for (int64_t S = 1; S <= MaxBlock; ++S) {
          checkCase(P, R, Q, S);
          // The first failing case says enough; stop before the log floods.
          if (HasFailure())
            return;
        }
}

INSTANTIATE_TEST_SUITE_P(EveryCase, PropertySweepTest,
                         ::testing::Range(0, NumShards),
                         [](const ::testing::TestParamInfo<int> &Info) {
                           return "P" + std::to_string(Info.param + 1) + "And" +
                                  std::to_string(MaxProcs - Info.param);
                         });
