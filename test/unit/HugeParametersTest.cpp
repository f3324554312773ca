//===- HugeParametersTest.cpp - Inputs near the int64 range fail cleanly --===//
//
// Huge block sizes and extents make the walks outside whole slices and the
// message patterns astronomically long. Every entry point must refuse them
// with InvalidArgument naming the values, at once and without allocating,
// while large but real layouts still pass (redist/Limits.h). Also the
// arithmetic that used to overflow on such inputs (UBSan: signed overflow).
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "redist/Error.h"
#include "redist/Limits.h"
#include "redist/MessagePattern.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace redist;

namespace {

const int64_t Max = std::numeric_limits<int64_t>::max();

/// Runs F, which must throw InvalidArgument whose message holds every one
/// of Names.
void expectRefused(const std::function<void()> &F,
                   const std::vector<std::string> &Names) {
  try {
    F();
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument &E) {
    for (const std::string &Name : Names)
      EXPECT_NE(std::string(E.what()).find(Name), std::string::npos)
          << "'" << Name << "' not in: " << E.what();
  }
}

TEST(HugeParametersTest, SliceBeyondInt64IsRefusedEverywhere) {
  // The input: L = lcm(2, 2^63) overflows, so [0, N) is walked
  // block by block, and each process holds 2^62 blocks of one element.
  // computeGrid used to abort with std::length_error (an overflowing
  // reserve), describeRow to grow without bound.
  const int64_t S = int64_t(1) << 62;
  Layout From = Layout::blockCyclic(2, 1, Max);
  Layout To = Layout::blockCyclic(2, S, Max);
  const std::vector<std::string> Names = {"cyclic(4611686018427387904)",
                                          "N = 9223372036854775807", "runs"};
  expectRefused([&] { checkRunLimit(From, To); }, Names);
  expectRefused([&] { computeGrid(From, To); }, Names);
  for (int64_t Proc : {0, 1}) {
    // Every process gets the same verdict: MPI ranks must agree.
    expectRefused([&] { computeRow(From, To, Proc); }, Names);
    expectRefused([&] { computeColumn(From, To, Proc); }, Names);
    expectRefused([&] { describeRow(From, To, Proc); }, Names);
    expectRefused([&] { describeColumn(From, To, Proc); }, Names);
    expectRefused([&] { describeMessage(From, To, Proc, 1 - Proc); }, Names);
  }
}

TEST(HugeParametersTest, GridsBeyondTheLimitsAreRefused) {
  // 2^20 and 2^20 - 1 processes in blocks of 2^11: each process holds 2^31
  // elements in 2^20 runs (within the limit). Below one slice of
  // L = 2^31 (2^20 - 1) the grid walks 2^40 blocks (the reserve for it used
  // to throw std::length_error); from there on it has 2^40 messages.
  const int64_t P = int64_t(1) << 20, L = (int64_t(1) << 31) * (P - 1);
  for (int64_t N : {L - 1, L}) {
    Layout From = Layout::blockCyclic(P, 2048, N);
    Layout To = Layout::blockCyclic(P - 1, 2048, N);
    EXPECT_NO_THROW(checkRunLimit(From, To));
    expectRefused([&] { computeGrid(From, To); },
                  {"cyclic(2048) on 1048576 processes", "limit of 4294967296",
                   N < L ? "block visits" : "messages"});
  }
}

TEST(HugeParametersTest, RunLimitIsTight) {
  // One target process gets N elements from two sources, N/2 runs from each
  // (every other element of its local array). N = 2^32 + 2 is one whole
  // slice of L = lcm(2, N) and really takes 2^32 + 2 runs.
  for (int64_t N : {int64_t(1) << 32, (int64_t(1) << 32) + 2}) {
    Layout From = Layout::blockCyclic(2, 1, N);
    Layout To(Distribution::block(1), N);
    if (N <= MaxRunsPerProcess)
      EXPECT_NO_THROW(checkRunLimit(From, To)) << N;
    else
      expectRefused([&] { checkRunLimit(From, To); },
                    {"target process", std::to_string(N) + " runs"});
  }
  // With a short period the same array is cheap to describe: one slice of
  // two elements, repeated.
  Layout Periodic = Layout::blockCyclic(1, 1, (int64_t(1) << 40) + 1);
  Layout Cyclic = Layout::blockCyclic(2, 1, (int64_t(1) << 40) + 1);
  std::vector<MessagePattern> Column = describeColumn(Cyclic, Periodic, 0);
  ASSERT_EQ(Column.size(), 2u);
  EXPECT_EQ(Column[0].length() + Column[1].length(), (int64_t(1) << 40) + 1);
}

TEST(HugeParametersTest, LargeRealLayoutsPass) {
  // 64 processes holding 2^27 elements each, in blocks of one on one side:
  // 2^27 runs a process, well within the limit, and cheap grids.
  const int64_t N = int64_t(1) << 33;
  Layout Cyclic = Layout::blockCyclic(64, 1, N);
  Layout Block(Distribution::block(64), N);
  EXPECT_NO_THROW(checkRunLimit(Cyclic, Block));
  CommGrid G = computeGrid(Cyclic, Block);
  EXPECT_EQ(G.Messages.size(), 64u * 64u);
  EXPECT_EQ(G.maxVolume(), int64_t(1) << 27);
  Layout Gen(Distribution::genBlock(std::vector<int64_t>(64, N / 64)), N);
  CommGrid H = computeGrid(Gen, Cyclic);
  ASSERT_EQ(H.Messages.size(), 64u * 64u);
  for (const Message &M : H.Messages)
    EXPECT_EQ(M.Len, int64_t(1) << 21);
  EXPECT_EQ(computeRow(Gen, Cyclic, 5).size(), 64u);
}

TEST(HugeParametersTest, ChainSchedulersSeeOneHugeBlockAsOneSegment) {
  // b * P = 3 * 2^62 overflows int64_t; each process still has one block
  // (here process 0 holds all ten elements and sends two messages).
  Layout From = Layout::blockCyclic(3, int64_t(1) << 62, 10);
  Layout To(Distribution::block(2), 10);
  std::string Why;
  EXPECT_TRUE(algorithmApplies(Algorithm::Scpa, From, To, &Why)) << Why;
  EXPECT_TRUE(algorithmApplies(Algorithm::Chain, To, From, &Why)) << Why;
  CommGrid G = computeGrid(From, To);
  Schedule S = makeSchedule(Algorithm::Scpa, From, To, G);
  EXPECT_EQ(measureSchedule(G, S).Steps, 2);
  // Two blocks for three processes of CYCLIC(4) over 10: a second round.
  EXPECT_FALSE(algorithmApplies(Algorithm::Scpa, Layout::blockCyclic(2, 4, 10),
                                To, &Why));
}

} // namespace
