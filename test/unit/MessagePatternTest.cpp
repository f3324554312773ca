//===- MessagePatternTest.cpp - Runs checked by a simulated redistribution ===//
//
// Every source process fills its local part with global indices, packs each
// message by its runs (describeRow), and every target process unpacks by the
// runs of describeColumn. Each target element must then hold its own global
// index, written exactly once. The patterns must also agree with the grid,
// with describeMessage, and be maximal.
//
//===----------------------------------------------------------------------===//

#include "redist/MessagePattern.h"
#include "DescribeLayouts.h"
#include "redist/CommGrid.h"
#include "redist/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

using test::describe;

std::string str(const MessagePattern &Pat) {
  std::string S = std::to_string(Pat.Src) + " -> " + std::to_string(Pat.Dst) +
                  " repeat " + std::to_string(Pat.Repeat) + " strides " +
                  std::to_string(Pat.SrcStride) + "/" +
                  std::to_string(Pat.DstStride) + " slice";
  for (const Run &R : Pat.SliceRuns)
    S += " {" + std::to_string(R.SrcOffset) + "," +
         std::to_string(R.DstOffset) + "," + std::to_string(R.Length) + "}";
  S += " tail";
  for (const Run &R : Pat.TailRuns)
    S += " {" + std::to_string(R.SrcOffset) + "," +
         std::to_string(R.DstOffset) + "," + std::to_string(R.Length) + "}";
  return S;
}

bool samePattern(const MessagePattern &A, const MessagePattern &B) {
  return A.Src == B.Src && A.Dst == B.Dst && A.Repeat == B.Repeat &&
         A.SrcStride == B.SrcStride && A.DstStride == B.DstStride &&
         A.SliceRuns == B.SliceRuns && A.TailRuns == B.TailRuns;
}

bool contiguous(const Run &A, const Run &B) {
  return A.SrcOffset + A.Length == B.SrcOffset &&
         A.DstOffset + A.Length == B.DstOffset;
}

/// Runs are non-empty and maximal: no two neighbours in buffer order that
/// the representation could merge.
void expectMaximal(const MessagePattern &Pat) {
  auto Check = [&](const std::vector<Run> &Runs, const char *Where) {
    for (size_t I = 0; I < Runs.size(); ++I) {
      EXPECT_GT(Runs[I].Length, 0) << Where << " run " << I << ": " << str(Pat);
      if (I > 0) {
        EXPECT_FALSE(contiguous(Runs[I - 1], Runs[I]))
            << Where << " runs " << I - 1 << ", " << I << ": " << str(Pat);
      }
    }
  };
  Check(Pat.SliceRuns, "slice");
  Check(Pat.TailRuns, "tail");
  if (Pat.Repeat > 0 && Pat.SliceRuns.size() == 1) {
    Run Next = Pat.SliceRuns[0];
    Next.SrcOffset += Pat.SrcStride;
    Next.DstOffset += Pat.DstStride;
    EXPECT_FALSE(contiguous(Pat.SliceRuns[0], Next))
        << "a single run continuing across slices: " << str(Pat);
  }
  EXPECT_EQ(Pat.Repeat > 0, !Pat.SliceRuns.empty()) << str(Pat);
}

int64_t lcm(int64_t A, int64_t B) { return A / std::gcd(A, B) * B; }

/// Packs every message by describeRow, unpacks by describeColumn and checks
/// the target parts; checks the patterns against the grid on the way.
void simulate(const Layout &From, const Layout &To) {
  SCOPED_TRACE(describe(From, To));
  int64_t P = From.procs(), Q = To.procs(), N = From.extent();
  CommGrid G = computeGrid(From, To);
  std::vector<std::vector<int64_t>> Src(static_cast<size_t>(P));
  for (int64_t Proc = 0; Proc < P; ++Proc)
    for (int64_t L = 0; L < From.localSize(Proc); ++L)
      Src[static_cast<size_t>(Proc)].push_back(From.toGlobal(Proc, L));

  // Strides, when the slice fits: L/P and L/Q.
  bool Regular = From.isBlockCyclic() && To.isBlockCyclic();
  int64_t L = Regular ? lcm(P * From.blockSize(), Q * To.blockSize()) : 0;

  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> Buffers;
  size_t Patterns = 0;
  for (int64_t Proc = 0; Proc < P; ++Proc) {
    const std::vector<int64_t> &Local = Src[static_cast<size_t>(Proc)];
    int64_t PrevDst = -1;
    for (const MessagePattern &Pat : describeRow(From, To, Proc)) {
      ++Patterns;
      EXPECT_EQ(Pat.Src, Proc);
      EXPECT_GT(Pat.Dst, PrevDst) << "row not sorted by Dst";
      PrevDst = Pat.Dst;
      EXPECT_EQ(Pat.length(), G.length(Proc, Pat.Dst)) << str(Pat);
      EXPECT_EQ(Pat.SrcStride, L / P);
      EXPECT_EQ(Pat.DstStride, L / Q);
      if (Regular && N >= L && Pat.Repeat == 0) {
        // Only a message contiguous across slices folds its repeats.
        ASSERT_FALSE(Pat.TailRuns.empty()) << str(Pat);
        EXPECT_EQ(Pat.TailRuns[0].SrcOffset, 0) << str(Pat);
        EXPECT_EQ(Pat.TailRuns[0].DstOffset, 0) << str(Pat);
        EXPECT_GE(Pat.TailRuns[0].Length, (N / L) * (L / P)) << str(Pat);
      } else {
        EXPECT_EQ(Pat.Repeat, Regular ? N / L : 0) << str(Pat);
      }
      expectMaximal(Pat);
      MessagePattern Single = describeMessage(From, To, Proc, Pat.Dst);
      EXPECT_TRUE(samePattern(Single, Pat))
          << str(Single) << " vs row's " << str(Pat);
      std::vector<int64_t> &Buffer = Buffers[{Proc, Pat.Dst}];
      Pat.forEachRun([&](const Run &R) {
        ASSERT_GE(R.SrcOffset, 0) << str(Pat);
        ASSERT_LE(R.SrcOffset + R.Length, static_cast<int64_t>(Local.size()))
            << str(Pat);
        Buffer.insert(Buffer.end(), Local.begin() + R.SrcOffset,
                      Local.begin() + R.SrcOffset + R.Length);
      });
      EXPECT_EQ(static_cast<int64_t>(Buffer.size()), Pat.length());
    }
  }
  EXPECT_EQ(Patterns, G.Messages.size());

  for (int64_t Proc = 0; Proc < Q; ++Proc) {
    std::vector<int64_t> Dst(static_cast<size_t>(To.localSize(Proc)), -1);
    std::vector<int> Writes(Dst.size(), 0);
    int64_t PrevSrc = -1;
    for (const MessagePattern &Pat : describeColumn(From, To, Proc)) {
      EXPECT_EQ(Pat.Dst, Proc);
      EXPECT_GT(Pat.Src, PrevSrc) << "column not sorted by Src";
      PrevSrc = Pat.Src;
      EXPECT_TRUE(samePattern(Pat, describeMessage(From, To, Pat.Src, Proc)))
          << str(Pat);
      auto It = Buffers.find({Pat.Src, Proc});
      ASSERT_NE(It, Buffers.end()) << "no message sent for " << str(Pat);
      const std::vector<int64_t> &Buffer = It->second;
      ASSERT_EQ(static_cast<int64_t>(Buffer.size()), Pat.length());
      size_t Pos = 0;
      Pat.forEachRun([&](const Run &R) {
        ASSERT_GE(R.DstOffset, 0) << str(Pat);
        ASSERT_LE(R.DstOffset + R.Length, static_cast<int64_t>(Dst.size()))
            << str(Pat);
        for (int64_t I = 0; I < R.Length; ++I) {
          Dst[static_cast<size_t>(R.DstOffset + I)] = Buffer[Pos++];
          ++Writes[static_cast<size_t>(R.DstOffset + I)];
        }
      });
      Buffers.erase(It);
    }
    for (size_t I = 0; I < Dst.size(); ++I) {
      ASSERT_EQ(Writes[I], 1) << "target " << Proc << " local " << I;
      ASSERT_EQ(Dst[I], To.toGlobal(Proc, static_cast<int64_t>(I)))
          << "target " << Proc << " local " << I;
    }
  }
  EXPECT_TRUE(Buffers.empty()) << Buffers.size() << " messages never received";
}

struct Case {
  int64_t P, Q, R, S;
};

void sweep(size_t Count, uint64_t Seed) {
  std::vector<Case> Cases = {{1, 1, 1, 1},   {1, 24, 12, 1},  {24, 1, 1, 12},
                             {16, 16, 3, 5}, {15, 15, 3, 5},  {12, 8, 4, 3},
                             {15, 6, 2, 3},  {16, 16, 7, 11}, {4, 4, 2, 2},
                             {6, 4, 4, 6},   {8, 8, 1, 8},    {5, 5, 3, 3},
                             {3, 2, 1, 1},   {2, 2, 6, 3},    {15, 15, 12, 20}};
  std::mt19937_64 Rng(Seed);
  while (Cases.size() < Count)
    Cases.push_back({static_cast<int64_t>(Rng() % 24 + 1),
                     static_cast<int64_t>(Rng() % 24 + 1),
                     static_cast<int64_t>(Rng() % 12 + 1),
                     static_cast<int64_t>(Rng() % 12 + 1)});
  for (const Case &C : Cases) {
    int64_t L = lcm(C.P * C.R, C.Q * C.S);
    for (int64_t N :
         {int64_t(0), int64_t(1), C.P - 1, L, L + 1 + int64_t(Rng() % 7),
          2 * L + static_cast<int64_t>(Rng() % static_cast<uint64_t>(L)),
          int64_t(997)})
      simulate(Layout::blockCyclic(C.P, C.R, N),
               Layout::blockCyclic(C.Q, C.S, N));
  }
}

} // namespace

TEST(MessagePatternTest, BlockCyclicSweep) { sweep(150, 3); }

TEST(MessagePatternSlowTest, BlockCyclicSweepSlow) { sweep(4000, 17); }

TEST(MessagePatternTest, BlockAndGenBlockFormats) {
  std::mt19937_64 Rng(8);
  for (int64_t N : {0, 1, 7, 60, 101}) {
    for (int64_t P : {1, 3, 5}) {
      for (int64_t Q : {1, 2, 4}) {
        auto Sizes = [&](int64_t Procs) {
          std::vector<int64_t> S(static_cast<size_t>(Procs), 0);
          for (int64_t I = 0; I < N; ++I)
            ++S[Rng() % static_cast<uint64_t>(Procs)];
          return S;
        };
        Layout GenP(Distribution::genBlock(Sizes(P)), N);
        Layout GenQ(Distribution::genBlock(Sizes(Q)), N);
        Layout BlockP(Distribution::block(P), N);
        simulate(GenP, GenQ);
        simulate(GenP, Layout::blockCyclic(Q, 2, N));
        simulate(Layout::blockCyclic(P, 3, N), GenQ);
        simulate(BlockP, GenQ);
        simulate(BlockP, Layout::blockCyclic(Q, 1, N));
        simulate(Layout(Distribution::block(P, N / P + 3), N),
                 Layout(Distribution::block(Q), N));
      }
    }
  }
  std::vector<int64_t> Zeros = {0, 30, 0, 0, 31, 0};
  simulate(Layout(Distribution::genBlock(Zeros), 61),
           Layout(Distribution::genBlock({61, 0}), 61));
  simulate(Layout(Distribution::genBlock(Zeros), 61),
           Layout::blockCyclic(4, 1, 61));
  simulate(Layout::blockCyclic(2, 1, 61),
           Layout(Distribution::genBlock(Zeros), 61));
}

TEST(MessagePatternTest, DesprezExample1Pattern) {
  // P = Q = 16, r = 3, s = 5, L = 240: strides L/P = L/Q = 15, one run per
  // message and slice (the grid is sparse: g = 16 >= r + s - 1).
  const int64_t N = 3 * 240 + 17;
  Layout From = Layout::blockCyclic(16, 3, N);
  Layout To = Layout::blockCyclic(16, 5, N);
  for (int64_t P = 0; P < 16; ++P) {
    std::vector<MessagePattern> Row = describeRow(From, To, P);
    EXPECT_EQ(Row.size(), 7u);
    for (const MessagePattern &Pat : Row) {
      EXPECT_EQ(Pat.Repeat, 3);
      EXPECT_EQ(Pat.SrcStride, 15);
      EXPECT_EQ(Pat.DstStride, 15);
      EXPECT_EQ(Pat.SliceRuns.size(), 1u);
    }
  }
  // Element 0 goes from p = 0 (offset 0) to q = 0 (offset 0); with r = 3,
  // s = 5 the first slice sends global 0..2 as one run.
  MessagePattern Pat = describeMessage(From, To, 0, 0);
  ASSERT_FALSE(Pat.SliceRuns.empty());
  EXPECT_EQ(Pat.SliceRuns[0], (redist::Run{0, 0, 3}));
  simulate(From, To);
}

TEST(MessagePatternTest, SliceLengthsOfThePaperExamples) {
  // desprez-1998's L for Examples 1 to 5 and Table 10: one whole slice at
  // N = L, none at N = L - 1, and strides L/P, L/Q.
  struct Example {
    int64_t P, Q, R, S, L;
  };
  for (const Example &E :
       {Example{16, 16, 3, 5, 240}, Example{16, 16, 7, 11, 1232},
        Example{15, 15, 3, 5, 225}, Example{12, 8, 4, 3, 48},
        Example{15, 6, 2, 3, 90}, Example{15, 15, 12, 20, 900}}) {
    SCOPED_TRACE("L = " + std::to_string(E.L));
    MessagePattern Whole = describeRow(Layout::blockCyclic(E.P, E.R, E.L),
                                       Layout::blockCyclic(E.Q, E.S, E.L), 0)
                               .front();
    EXPECT_EQ(Whole.Repeat, 1);
    EXPECT_EQ(Whole.SrcStride, E.L / E.P);
    EXPECT_EQ(Whole.DstStride, E.L / E.Q);
    MessagePattern Short =
        describeRow(Layout::blockCyclic(E.P, E.R, E.L - 1),
                    Layout::blockCyclic(E.Q, E.S, E.L - 1), 0)
            .front();
    EXPECT_EQ(Short.Repeat, 0);
  }
}

TEST(MessagePatternTest, DesprezExample5Pattern) {
  // P = 15, Q = 6, r = 2, s = 3, L = 90: 30 messages of 2 and 30 of 1 per
  // slice, one run each.
  Layout From = Layout::blockCyclic(15, 2, 90);
  Layout To = Layout::blockCyclic(6, 3, 90);
  int64_t Ones = 0, Twos = 0;
  for (int64_t P = 0; P < 15; ++P)
    for (const MessagePattern &Pat : describeRow(From, To, P)) {
      EXPECT_EQ(Pat.Repeat, 1);
      EXPECT_EQ(Pat.SrcStride, 6);
      EXPECT_EQ(Pat.DstStride, 15);
      ASSERT_EQ(Pat.SliceRuns.size(), 1u);
      Ones += Pat.SliceRuns[0].Length == 1;
      Twos += Pat.SliceRuns[0].Length == 2;
    }
  EXPECT_EQ(Ones, 30);
  EXPECT_EQ(Twos, 30);
}

TEST(MessagePatternTest, FullGridHasSeveralRunsPerSlice) {
  // P = Q = 4, r = 3, s = 5: g = 4 < r + s - 1, so a pair meets in several
  // block offsets per slice (L = 60).
  Layout From = Layout::blockCyclic(4, 3, 120);
  Layout To = Layout::blockCyclic(4, 5, 120);
  size_t Most = 0;
  for (int64_t P = 0; P < 4; ++P)
    for (const MessagePattern &Pat : describeRow(From, To, P)) {
      EXPECT_EQ(Pat.Repeat, 2);
      Most = std::max(Most, Pat.SliceRuns.size());
    }
  EXPECT_GE(Most, 2u);
  simulate(From, To);
}

TEST(MessagePatternTest, IdentityIsOneRun) {
  // The same layout on both sides: each process copies its whole part.
  for (int64_t N : {0, 5, 1000, 1003}) {
    for (auto PB :
         {std::make_pair(4, 3), std::make_pair(1, 1), std::make_pair(3, 1)}) {
      Layout Lay = Layout::blockCyclic(PB.first, PB.second, N);
      for (int64_t P = 0; P < PB.first; ++P) {
        std::vector<MessagePattern> Row = describeRow(Lay, Lay, P);
        if (Lay.localSize(P) == 0) {
          EXPECT_TRUE(Row.empty());
          continue;
        }
        ASSERT_EQ(Row.size(), 1u);
        EXPECT_EQ(Row[0].Repeat, 0);
        EXPECT_TRUE(Row[0].SliceRuns.empty());
        ASSERT_EQ(Row[0].TailRuns.size(), 1u);
        EXPECT_EQ(Row[0].TailRuns[0], (redist::Run{0, 0, Lay.localSize(P)}));
      }
      simulate(Lay, Lay);
    }
  }
  // One process on each side, different block sizes: one run too.
  Layout A = Layout::blockCyclic(1, 3, 100), B = Layout::blockCyclic(1, 7, 100);
  MessagePattern Pat = describeMessage(A, B, 0, 0);
  ASSERT_EQ(Pat.TailRuns.size(), 1u);
  EXPECT_EQ(Pat.TailRuns[0], (redist::Run{0, 0, 100}));
}

/// Src -> Dst's runs found element by element in global order, adjacent
/// ones merged.
std::vector<Run> elementWalkRuns(const Layout &From, const Layout &To,
                                 int64_t Src, int64_t Dst) {
  std::vector<Run> Runs;
  int64_t SrcLocal = 0, DstLocal = 0;
  for (int64_t G = 0; G < From.extent(); ++G) {
    bool Mine = From.owner(G) == Src, Theirs = To.owner(G) == Dst;
    if (Mine && Theirs) {
      Run R{SrcLocal, DstLocal, 1};
      if (!Runs.empty() && contiguous(Runs.back(), R))
        ++Runs.back().Length;
      else
        Runs.push_back(R);
    }
    SrcLocal += Mine;
    DstLocal += Theirs;
  }
  return Runs;
}

/// Pat's runs in buffer order, adjacent ones merged.
std::vector<Run> mergedRuns(const MessagePattern &Pat) {
  std::vector<Run> Runs;
  Pat.forEachRun([&](const Run &R) {
    if (!Runs.empty() && contiguous(Runs.back(), R))
      Runs.back().Length += R.Length;
    else
      Runs.push_back(R);
  });
  return Runs;
}

TEST(MessagePatternTest, OneProcessSideMatchesElementWalk) {
  // A side over one process takes the other side's blocks whole (and one run
  // for P = Q = 1) instead of one run per block offset; the runs must be
  // those of a walk over every element, including BLOCK against CYCLIC(k).
  std::mt19937_64 Rng(41);
  auto Draw = [&](int64_t Lo, int64_t Hi) {
    return Lo +
           static_cast<int64_t>(Rng() % static_cast<uint64_t>(Hi - Lo + 1));
  };
  for (int Case = 0; Case < 600; ++Case) {
    // One process on the source side, on both, on the target side.
    int64_t P = Case % 3 == 2 ? Draw(2, 6) : 1;
    int64_t Q = Case % 3 == 0 ? Draw(2, 6) : 1;
    int64_t R = Draw(1, 12), S = Draw(1, 12);
    int64_t L = lcm(P * R, Q * S);
    // Mostly whole slices, some with a last slice that is not.
    int64_t N = Draw(0, 3) == 0 ? Draw(0, 3 * L + 2)
                                : L * Draw(1, 3) + Draw(0, 1) * Draw(1, L);
    // BLOCK on one side: one block per process.
    if (Draw(0, 2) == 0)
      R = std::max<int64_t>(1, (N + P - 1) / P);
    else if (Draw(0, 2) == 0)
      S = std::max<int64_t>(1, (N + Q - 1) / Q);
    Layout From = Layout::blockCyclic(P, R, N),
           To = Layout::blockCyclic(Q, S, N);
    SCOPED_TRACE(describe(From, To));
    for (int64_t Src = 0; Src < P; ++Src)
      for (int64_t Dst = 0; Dst < Q; ++Dst) {
        MessagePattern Pat = describeMessage(From, To, Src, Dst);
        EXPECT_EQ(mergedRuns(Pat), elementWalkRuns(From, To, Src, Dst))
            << str(Pat);
      }
    simulate(From, To);
  }
}

TEST(MessagePatternTest, NoWholeSliceMeansTailOnly) {
  // N < L, and L beyond int64: no repeats, strides 0 when L does not fit.
  Layout From = Layout::blockCyclic(16, 3, 239);
  Layout To = Layout::blockCyclic(16, 5, 239);
  MessagePattern Pat = describeMessage(From, To, 1, 0);
  EXPECT_EQ(Pat.Repeat, 0);
  EXPECT_TRUE(Pat.SliceRuns.empty());
  EXPECT_EQ(Pat.SrcStride, 15);
  simulate(From, To);
  const int64_t Big = int64_t(1) << 40;
  Layout HugeFrom = Layout::blockCyclic(1 << 20, Big, 5 * Big + 3);
  Layout HugeTo = Layout::blockCyclic(1 << 20, Big + 1, 5 * Big + 3);
  MessagePattern H = describeMessage(HugeFrom, HugeTo, 2, 1);
  EXPECT_EQ(H.Repeat, 0);
  EXPECT_EQ(H.SrcStride, 0);
  EXPECT_EQ(H.DstStride, 0);
  // Block 2 of the source, [2B, 3B), meets target block 1, [B+1, 2B+2).
  ASSERT_EQ(H.TailRuns.size(), 1u);
  EXPECT_EQ(H.TailRuns[0], (redist::Run{0, Big - 1, 2}));
  std::vector<MessagePattern> Row = describeRow(HugeFrom, HugeTo, 2);
  ASSERT_EQ(Row.size(), 2u);
  EXPECT_EQ(Row[0].Dst, 1);
  EXPECT_EQ(Row[1].Dst, 2);
  EXPECT_EQ(Row[1].TailRuns[0], (redist::Run{2, 0, Big - 2}));
  EXPECT_EQ(Row[0].length() + Row[1].length(), Big);
}

TEST(MessagePatternTest, SlicesNearInt64Limits) {
  // Whole slices with L close to 2^63: every run's first and last elements
  // must be the same global element on both sides, and lengths must add up
  // to the grid's.
  const int64_t Max = std::numeric_limits<int64_t>::max();
  struct Huge {
    int64_t P, R, Q, S, N;
  };
  for (const Huge &C :
       {Huge{2, int64_t(1) << 61, 1, int64_t(1) << 62, Max},
        Huge{3, 1000000000000000000, 2, 1500000000000000000, Max},
        Huge{4, 1000000000000, 6, 1000000000000000, 60000000000012345}}) {
    Layout From = Layout::blockCyclic(C.P, C.R, C.N);
    Layout To = Layout::blockCyclic(C.Q, C.S, C.N);
    SCOPED_TRACE(describe(From, To));
    CommGrid G = computeGrid(From, To);
    for (int64_t P = 0; P < C.P; ++P) {
      std::vector<MessagePattern> Row = describeRow(From, To, P);
      for (const MessagePattern &Pat : Row) {
        EXPECT_GT(Pat.Repeat, 0) << str(Pat);
        EXPECT_EQ(Pat.length(), G.length(P, Pat.Dst)) << str(Pat);
        Pat.forEachRun([&](const redist::Run &R) {
          EXPECT_EQ(From.toGlobal(P, R.SrcOffset),
                    To.toGlobal(Pat.Dst, R.DstOffset));
          EXPECT_EQ(From.toGlobal(P, R.SrcOffset + R.Length - 1),
                    To.toGlobal(Pat.Dst, R.DstOffset + R.Length - 1));
        });
      }
    }
  }
  // P = 2, r = 2^61 into one process: per slice of 2^62, p sends its one
  // block; the last slice holds 2^62 - 1 elements.
  const int64_t B = int64_t(1) << 61;
  Layout From = Layout::blockCyclic(2, B, Max);
  Layout To = Layout::blockCyclic(1, 2 * B, Max);
  MessagePattern P1 = describeMessage(From, To, 1, 0);
  EXPECT_EQ(P1.Repeat, 1);
  EXPECT_EQ(P1.SrcStride, B);
  EXPECT_EQ(P1.DstStride, 2 * B);
  ASSERT_EQ(P1.SliceRuns.size(), 1u);
  EXPECT_EQ(P1.SliceRuns[0], (redist::Run{0, B, B}));
  ASSERT_EQ(P1.TailRuns.size(), 1u);
  EXPECT_EQ(P1.TailRuns[0], (redist::Run{B, 3 * B, B - 1}));
}

TEST(MessagePatternTest, HugeRepeatCount) {
  // m = 10^15 slices: the description does not grow with N.
  const int64_t L = 240, M = 1000000000000000;
  Layout From = Layout::blockCyclic(16, 3, M * L + 100);
  Layout To = Layout::blockCyclic(16, 5, M * L + 100);
  CommGrid G = computeGrid(From, To);
  for (int64_t P : {0, 7, 15}) {
    std::vector<MessagePattern> Row = describeRow(From, To, P);
    EXPECT_EQ(Row.size(), 7u);
    for (const MessagePattern &Pat : Row) {
      EXPECT_EQ(Pat.Repeat, M);
      EXPECT_EQ(Pat.length(), G.length(P, Pat.Dst));
      for (const redist::Run &R : Pat.TailRuns) {
        EXPECT_GE(R.SrcOffset, M * 15);
        EXPECT_LE(R.SrcOffset + R.Length, From.localSize(P));
      }
    }
  }
}

TEST(MessagePatternTest, InvalidArguments) {
  Layout A = Layout::blockCyclic(4, 2, 100);
  Layout B = Layout::blockCyclic(3, 5, 100);
  auto ExpectInvalid = [](const std::function<void()> &Fn,
                          const std::string &Part) {
    try {
      Fn();
      ADD_FAILURE() << "accepted; expected an error naming " << Part;
    } catch (const InvalidArgument &E) {
      EXPECT_NE(std::string(E.what()).find(Part), std::string::npos)
          << E.what();
    }
  };
  ExpectInvalid([&] { describeMessage(A, B, 4, 0); }, "source process 4");
  ExpectInvalid([&] { describeMessage(A, B, 0, 3); }, "target process 3");
  ExpectInvalid([&] { describeMessage(A, B, -1, 0); }, "-1");
  ExpectInvalid([&] { describeRow(A, B, 7); }, "source process 7");
  ExpectInvalid([&] { describeColumn(A, B, -2); }, "target process -2");
  Layout C = Layout::blockCyclic(3, 5, 99);
  ExpectInvalid([&] { describeMessage(A, C, 0, 0); }, "99");
  ExpectInvalid([&] { describeRow(A, C, 0); }, "99");
  ExpectInvalid([&] { describeColumn(A, C, 0); }, "99");
}

TEST(MessagePatternTest, LengthAndRunOrder) {
  MessagePattern Pat;
  Pat.SliceRuns = {{0, 4, 2}, {5, 9, 1}};
  Pat.Repeat = 3;
  Pat.SrcStride = 10;
  Pat.DstStride = 20;
  Pat.TailRuns = {{30, 60, 4}};
  EXPECT_EQ(Pat.length(), 13);
  std::vector<redist::Run> Order;
  Pat.forEachRun([&](const redist::Run &R) { Order.push_back(R); });
  std::vector<redist::Run> Want = {{0, 4, 2},   {5, 9, 1},   {10, 24, 2},
                                   {15, 29, 1}, {20, 44, 2}, {25, 49, 1},
                                   {30, 60, 4}};
  EXPECT_EQ(Order, Want);
}
