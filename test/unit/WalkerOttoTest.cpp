//===- WalkerOttoTest.cpp - walker_otto against the paper's figures -------===//
//
// Figures 6, 8 and 9 of walker-otto-1996, copied from
// the paper as literal tables, checked cell by cell against the closed forms
// and against the step each message gets in our schedule; then sweeps that
// every schedule is valid and optimal in steps and cost.
//
//===----------------------------------------------------------------------===//

#include "../../lib/schedulers/SchedulerImpls.h"
#include "../../lib/schedulers/WalkerOttoFormulas.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace redist;

namespace {

// Figure 6 (K' = 3, P' = 4), entry [k'][p'].
const int64_t Figure6Block[3][4] = {{0, 9, 6, 3}, {4, 1, 10, 7}, {8, 5, 2, 11}};
const int64_t Figure6Target[3][4] = {{0, 3, 2, 1}, {1, 0, 3, 2}, {2, 1, 0, 3}};
const int64_t Figure6LocalBlock[3][4] = {
    {0, 2, 1, 0}, {1, 0, 2, 1}, {2, 1, 0, 2}};

// Figures 8 and 9 (P = 16, K = 12), entry [k][p] or [k][q].
// Figure 8(a): global block B(k, p) sent by p in step k.
const int64_t Figure8Block[12][16] = {
    {0, 49, 98, 147, 36, 85, 134, 183, 24, 73, 122, 171, 12, 61, 110, 159},
    {144, 1, 50, 99, 180, 37, 86, 135, 168, 25, 74, 123, 156, 13, 62, 111},
    {96, 145, 2, 51, 132, 181, 38, 87, 120, 169, 26, 75, 108, 157, 14, 63},
    {48, 97, 146, 3, 84, 133, 182, 39, 72, 121, 170, 27, 60, 109, 158, 15},
    {16, 65, 114, 163, 4, 53, 102, 151, 40, 89, 138, 187, 28, 77, 126, 175},
    {160, 17, 66, 115, 148, 5, 54, 103, 184, 41, 90, 139, 172, 29, 78, 127},
    {112, 161, 18, 67, 100, 149, 6, 55, 136, 185, 42, 91, 124, 173, 30, 79},
    {64, 113, 162, 19, 52, 101, 150, 7, 88, 137, 186, 43, 76, 125, 174, 31},
    {32, 81, 130, 179, 20, 69, 118, 167, 8, 57, 106, 155, 44, 93, 142, 191},
    {176, 33, 82, 131, 164, 21, 70, 119, 152, 9, 58, 107, 188, 45, 94, 143},
    {128, 177, 34, 83, 116, 165, 22, 71, 104, 153, 10, 59, 140, 189, 46, 95},
    {80, 129, 178, 35, 68, 117, 166, 23, 56, 105, 154, 11, 92, 141, 190, 47},
};
// Figure 8(b): the process p sends to in step k.
const int64_t Figure8Target[12][16] = {
    {0, 4, 8, 12, 3, 7, 11, 15, 2, 6, 10, 14, 1, 5, 9, 13},
    {12, 0, 4, 8, 15, 3, 7, 11, 14, 2, 6, 10, 13, 1, 5, 9},
    {8, 12, 0, 4, 11, 15, 3, 7, 10, 14, 2, 6, 9, 13, 1, 5},
    {4, 8, 12, 0, 7, 11, 15, 3, 6, 10, 14, 2, 5, 9, 13, 1},
    {1, 5, 9, 13, 0, 4, 8, 12, 3, 7, 11, 15, 2, 6, 10, 14},
    {13, 1, 5, 9, 12, 0, 4, 8, 15, 3, 7, 11, 14, 2, 6, 10},
    {9, 13, 1, 5, 8, 12, 0, 4, 11, 15, 3, 7, 10, 14, 2, 6},
    {5, 9, 13, 1, 4, 8, 12, 0, 7, 11, 15, 3, 6, 10, 14, 2},
    {2, 6, 10, 14, 1, 5, 9, 13, 0, 4, 8, 12, 3, 7, 11, 15},
    {14, 2, 6, 10, 13, 1, 5, 9, 12, 0, 4, 8, 15, 3, 7, 11},
    {10, 14, 2, 6, 9, 13, 1, 5, 8, 12, 0, 4, 11, 15, 3, 7},
    {6, 10, 14, 2, 5, 9, 13, 1, 4, 8, 12, 0, 7, 11, 15, 3},
};
// Figure 8(c): the local block p sends in step k.
const int64_t Figure8LocalBlock[12][16] = {
    {0, 3, 6, 9, 2, 5, 8, 11, 1, 4, 7, 10, 0, 3, 6, 9},
    {9, 0, 3, 6, 11, 2, 5, 8, 10, 1, 4, 7, 9, 0, 3, 6},
    {6, 9, 0, 3, 8, 11, 2, 5, 7, 10, 1, 4, 6, 9, 0, 3},
    {3, 6, 9, 0, 5, 8, 11, 2, 4, 7, 10, 1, 3, 6, 9, 0},
    {1, 4, 7, 10, 0, 3, 6, 9, 2, 5, 8, 11, 1, 4, 7, 10},
    {10, 1, 4, 7, 9, 0, 3, 6, 11, 2, 5, 8, 10, 1, 4, 7},
    {7, 10, 1, 4, 6, 9, 0, 3, 8, 11, 2, 5, 7, 10, 1, 4},
    {4, 7, 10, 1, 3, 6, 9, 0, 5, 8, 11, 2, 4, 7, 10, 1},
    {2, 5, 8, 11, 1, 4, 7, 10, 0, 3, 6, 9, 2, 5, 8, 11},
    {11, 2, 5, 8, 10, 1, 4, 7, 9, 0, 3, 6, 11, 2, 5, 8},
    {8, 11, 2, 5, 7, 10, 1, 4, 6, 9, 0, 3, 8, 11, 2, 5},
    {5, 8, 11, 2, 4, 7, 10, 1, 3, 6, 9, 0, 5, 8, 11, 2},
};
// Figure 9(a): global block C(k, q) received by q in step k.
const int64_t Figure9Block[12][16] = {
    {0, 12, 24, 36, 49, 61, 73, 85, 98, 110, 122, 134, 147, 159, 171, 183},
    {1, 13, 25, 37, 50, 62, 74, 86, 99, 111, 123, 135, 144, 156, 168, 180},
    {2, 14, 26, 38, 51, 63, 75, 87, 96, 108, 120, 132, 145, 157, 169, 181},
    {3, 15, 27, 39, 48, 60, 72, 84, 97, 109, 121, 133, 146, 158, 170, 182},
    {4, 16, 28, 40, 53, 65, 77, 89, 102, 114, 126, 138, 151, 163, 175, 187},
    {5, 17, 29, 41, 54, 66, 78, 90, 103, 115, 127, 139, 148, 160, 172, 184},
    {6, 18, 30, 42, 55, 67, 79, 91, 100, 112, 124, 136, 149, 161, 173, 185},
    {7, 19, 31, 43, 52, 64, 76, 88, 101, 113, 125, 137, 150, 162, 174, 186},
    {8, 20, 32, 44, 57, 69, 81, 93, 106, 118, 130, 142, 155, 167, 179, 191},
    {9, 21, 33, 45, 58, 70, 82, 94, 107, 119, 131, 143, 152, 164, 176, 188},
    {10, 22, 34, 46, 59, 71, 83, 95, 104, 116, 128, 140, 153, 165, 177, 189},
    {11, 23, 35, 47, 56, 68, 80, 92, 105, 117, 129, 141, 154, 166, 178, 190},
};
// Figure 9(b): the process q receives from in step k.
const int64_t Figure9Source[12][16] = {
    {0, 12, 8, 4, 1, 13, 9, 5, 2, 14, 10, 6, 3, 15, 11, 7},
    {1, 13, 9, 5, 2, 14, 10, 6, 3, 15, 11, 7, 0, 12, 8, 4},
    {2, 14, 10, 6, 3, 15, 11, 7, 0, 12, 8, 4, 1, 13, 9, 5},
    {3, 15, 11, 7, 0, 12, 8, 4, 1, 13, 9, 5, 2, 14, 10, 6},
    {4, 0, 12, 8, 5, 1, 13, 9, 6, 2, 14, 10, 7, 3, 15, 11},
    {5, 1, 13, 9, 6, 2, 14, 10, 7, 3, 15, 11, 4, 0, 12, 8},
    {6, 2, 14, 10, 7, 3, 15, 11, 4, 0, 12, 8, 5, 1, 13, 9},
    {7, 3, 15, 11, 4, 0, 12, 8, 5, 1, 13, 9, 6, 2, 14, 10},
    {8, 4, 0, 12, 9, 5, 1, 13, 10, 6, 2, 14, 11, 7, 3, 15},
    {9, 5, 1, 13, 10, 6, 2, 14, 11, 7, 3, 15, 8, 4, 0, 12},
    {10, 6, 2, 14, 11, 7, 3, 15, 8, 4, 0, 12, 9, 5, 1, 13},
    {11, 7, 3, 15, 8, 4, 0, 12, 9, 5, 1, 13, 10, 6, 2, 14},
};
// Figure 9(c): the slot q stores into in step k.
const int64_t Figure9Slot[12][16] = {
    {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3},
    {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0},
    {2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1},
    {3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
    {4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7},
    {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 4, 4, 4, 4},
    {6, 6, 6, 6, 7, 7, 7, 7, 4, 4, 4, 4, 5, 5, 5, 5},
    {7, 7, 7, 7, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6},
    {8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11},
    {9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 8, 8, 8, 8},
    {10, 10, 10, 10, 11, 11, 11, 11, 8, 8, 8, 8, 9, 9, 9, 9},
    {11, 11, 11, 11, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10},
};

/// Id of message Src -> Dst in G (sorted by (Src, Dst)), or -1.
int64_t idOf(const CommGrid &G, int64_t Src, int64_t Dst) {
  auto It = std::lower_bound(
      G.Messages.begin(), G.Messages.end(), Message{Src, Dst, 0},
      [](const Message &A, const Message &B) {
        return A.Src != B.Src ? A.Src < B.Src : A.Dst < B.Dst;
      });
  if (It == G.Messages.end() || It->Src != Src || It->Dst != Dst)
    return -1;
  return It - G.Messages.begin();
}

/// The schedule of CYCLIC(R) -> CYCLIC(S) on P processes, N elements.
struct Planned {
  CommGrid G;
  Schedule S;
  std::vector<int64_t> StepOf;
};

Planned plan(int64_t P, int64_t R, int64_t S, int64_t N) {
  Layout From = Layout::blockCyclic(P, R, N);
  Layout To = Layout::blockCyclic(P, S, N);
  Planned Result;
  Result.G = computeGrid(From, To);
  Result.S = detail::scheduleWalkerOtto(From, To, Result.G);
  Result.StepOf = stepOfEachMessage(Result.G, Result.S);
  return Result;
}

TEST(WalkerOttoTest, Figure6ReducedSendSchedule) {
  detail::WalkerOttoFormulas F(4, 3);
  EXPECT_EQ(F.gcd(), 1);
  for (int64_t K = 0; K < 3; ++K)
    for (int64_t P = 0; P < 4; ++P) {
      SCOPED_TRACE("k'=" + std::to_string(K) + " p'=" + std::to_string(P));
      EXPECT_EQ(F.reducedSendBlock(K, P), Figure6Block[K][P]);
      EXPECT_EQ(F.sendBlock(K, P), Figure6Block[K][P]);
      EXPECT_EQ(F.sendTarget(K, P), Figure6Target[K][P]);
      EXPECT_EQ(F.targetOf(Figure6Block[K][P]), Figure6Target[K][P]);
      EXPECT_EQ(F.sourceLocalBlock(Figure6Block[K][P]),
                Figure6LocalBlock[K][P]);
      EXPECT_EQ(F.reducedSendTarget(K, P), Figure6Target[K][P]);
      EXPECT_EQ(F.reducedSendLocalBlock(K, P), Figure6LocalBlock[K][P]);
    }
}

TEST(WalkerOttoTest, Figure6ScheduleSteps) {
  // r = 1 -> s = 3 on 4 processes: one superblock is 12 elements.
  for (int64_t R : {1, 5}) {
    SCOPED_TRACE("r=" + std::to_string(R));
    Planned Pl = plan(4, R, 3 * R, 12 * R);
    ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
    ASSERT_EQ(Pl.G.Messages.size(), 12u);
    ASSERT_EQ(Pl.S.Steps.size(), 3u);
    for (int64_t K = 0; K < 3; ++K)
      for (int64_t P = 0; P < 4; ++P) {
        int64_t Id = idOf(Pl.G, P, Figure6Target[K][P]);
        ASSERT_GE(Id, 0);
        EXPECT_EQ(Pl.StepOf[Id], K) << "p=" << P;
      }
  }
}

TEST(WalkerOttoTest, Figure8SendSchedule) {
  detail::WalkerOttoFormulas F(16, 12);
  EXPECT_EQ(F.gcd(), 4);
  for (int64_t K = 0; K < 12; ++K)
    for (int64_t P = 0; P < 16; ++P) {
      SCOPED_TRACE("k=" + std::to_string(K) + " p=" + std::to_string(P));
      int64_t B = F.sendBlock(K, P);
      EXPECT_EQ(B, Figure8Block[K][P]);
      EXPECT_EQ(F.sourceOf(B), P);
      EXPECT_EQ(F.targetOf(B), Figure8Target[K][P]);
      EXPECT_EQ(F.sendTarget(K, P), Figure8Target[K][P]);
      EXPECT_EQ(F.sourceLocalBlock(B), Figure8LocalBlock[K][P]);
    }
}

TEST(WalkerOttoTest, Figure9ReceiveSchedule) {
  detail::WalkerOttoFormulas F(16, 12);
  for (int64_t K = 0; K < 12; ++K)
    for (int64_t Q = 0; Q < 16; ++Q) {
      SCOPED_TRACE("k=" + std::to_string(K) + " q=" + std::to_string(Q));
      int64_t C = F.receiveBlock(K, Q);
      EXPECT_EQ(C, Figure9Block[K][Q]);
      EXPECT_EQ(F.targetOf(C), Q);
      EXPECT_EQ(F.sourceOf(C), Figure9Source[K][Q]);
      EXPECT_EQ(F.targetSlot(C), Figure9Slot[K][Q]);
    }
}

TEST(WalkerOttoTest, Figure8And9ScheduleSteps) {
  // r -> 12 r on 16 processes; the paper's runs use r = 4.
  for (int64_t R : {1, 4}) {
    SCOPED_TRACE("r=" + std::to_string(R));
    Planned Pl = plan(16, R, 12 * R, 192 * R);
    ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
    ASSERT_EQ(Pl.G.Messages.size(), 192u);
    ASSERT_EQ(Pl.S.Steps.size(), 12u);
    for (int64_t K = 0; K < 12; ++K)
      for (int64_t P = 0; P < 16; ++P) {
        // Figure 8(b): p sends to Figure8Target[k][p] in step k.
        int64_t Sent = idOf(Pl.G, P, Figure8Target[K][P]);
        ASSERT_GE(Sent, 0);
        EXPECT_EQ(Pl.StepOf[Sent], K) << "sender p=" << P;
        // Figure 9(b): q = P receives from Figure9Source[k][q] in step k.
        int64_t Received = idOf(Pl.G, Figure9Source[K][P], P);
        ASSERT_GE(Received, 0);
        EXPECT_EQ(Pl.StepOf[Received], K) << "receiver q=" << P;
      }
  }
}

TEST(WalkerOttoTest, ShrinkingRunsFigure8InReverse) {
  // 12 r -> r swaps senders and receivers: q sends back to p in step k.
  Planned Pl = plan(16, 12, 1, 192);
  ASSERT_EQ(validateSchedule(Pl.G, Pl.S), std::nullopt);
  ASSERT_EQ(Pl.S.Steps.size(), 12u);
  for (int64_t K = 0; K < 12; ++K)
    for (int64_t P = 0; P < 16; ++P) {
      int64_t Id = idOf(Pl.G, Figure8Target[K][P], P);
      ASSERT_GE(Id, 0);
      EXPECT_EQ(Pl.StepOf[Id], K) << "p=" << P;
    }
}

TEST(WalkerOttoTest, SendAndReceiveSchedulesAreCompatible) {
  // Eq. 12 and the permutation conditions, for every P and K <= 24.
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t K = 1; K <= 24; ++K) {
      SCOPED_TRACE("P=" + std::to_string(P) + " K=" + std::to_string(K));
      detail::WalkerOttoFormulas F(P, K);
      // Eq. 7 in the reduced system: B' = q'K' + k' = b'P' + p'.
      int64_t RP = P / F.gcd(), RK = K / F.gcd();
      for (int64_t RStep = 0; RStep < RK; ++RStep)
        for (int64_t RProc = 0; RProc < RP; ++RProc) {
          int64_t B = F.reducedSendBlock(RStep, RProc);
          ASSERT_GE(B, 0);
          ASSERT_LT(B, RP * RK);
          ASSERT_EQ(B, F.reducedSendLocalBlock(RStep, RProc) * RP + RProc);
        }
      for (int64_t Step = 0; Step < K; ++Step) {
        std::vector<int> Hits(P, 0);
        for (int64_t Proc = 0; Proc < P; ++Proc) {
          int64_t B = F.sendBlock(Step, Proc);
          ASSERT_GE(B, 0);
          ASSERT_LT(B, P * K);
          ASSERT_EQ(F.sourceOf(B), Proc);
          ASSERT_EQ(F.targetOf(B), F.sendTarget(Step, Proc));
          // The first block p sends to q(k, p) goes in the earliest step.
          ASSERT_LE(F.firstStep(Proc, F.targetOf(B)), Step);
          if (Step < std::min(K, P)) {
            ASSERT_EQ(F.firstStep(Proc, F.targetOf(B)), Step);
          }
          ++Hits[F.targetOf(B)];
          int64_t C = F.receiveBlock(Step, Proc);
          ASSERT_EQ(F.targetOf(C), Proc);
          ASSERT_EQ(F.sendBlock(Step, F.sourceOf(C)), C);
          ASSERT_EQ(F.receiveBlock(Step, F.targetOf(B)), B);
        }
        for (int64_t Q = 0; Q < P; ++Q)
          ASSERT_EQ(Hits[Q], 1) << "step " << Step << " receiver " << Q;
      }
      // Pairs that exchange no block have no step.
      for (int64_t Src = 0; Src < P; ++Src)
        for (int64_t Dst = 0; Dst < P; ++Dst) {
          bool Exchange = false;
          for (int64_t B = Dst * K; B < (Dst + 1) * K; ++B)
            Exchange = Exchange || F.sourceOf(B) == Src;
          ASSERT_EQ(F.firstStep(Src, Dst) >= 0, Exchange);
        }
    }
}

TEST(WalkerOttoTest, AppliesExplainsWhatFails) {
  std::string Why;
  EXPECT_TRUE(detail::walkerOttoApplies(Layout::blockCyclic(4, 2, 100),
                                        Layout::blockCyclic(4, 6, 100), &Why));
  EXPECT_TRUE(detail::walkerOttoApplies(Layout::blockCyclic(4, 6, 100),
                                        Layout::blockCyclic(4, 2, 100), &Why));
  EXPECT_TRUE(detail::walkerOttoApplies(Layout::blockCyclic(4, 3, 100),
                                        Layout::blockCyclic(4, 3, 100), &Why));
  EXPECT_TRUE(detail::walkerOttoApplies(Layout::blockCyclic(4, 5, 100),
                                        Layout(Distribution::block(4), 100),
                                        nullptr));

  EXPECT_FALSE(detail::walkerOttoApplies(Layout::blockCyclic(12, 4, 96),
                                         Layout::blockCyclic(8, 4, 96), &Why));
  EXPECT_EQ(Why, "walker_otto needs P = Q (got P=12, Q=8)");
  EXPECT_FALSE(detail::walkerOttoApplies(Layout::blockCyclic(4, 3, 60),
                                         Layout::blockCyclic(4, 5, 60), &Why));
  EXPECT_EQ(Why, "walker_otto needs one block size to be a multiple of the "
                 "other (got r=3, s=5)");
  Layout Gen(Distribution::genBlock({3, 0, 5, 2}), 10);
  EXPECT_FALSE(
      detail::walkerOttoApplies(Gen, Layout::blockCyclic(4, 1, 10), &Why));
  EXPECT_NE(Why.find("walker_otto needs block-cyclic layouts"),
            std::string::npos);
  EXPECT_NE(Why.find(Gen.distribution().str()), std::string::npos);
  EXPECT_FALSE(
      detail::walkerOttoApplies(Layout::blockCyclic(4, 1, 10), Gen, nullptr));

  Layout From = Layout::blockCyclic(4, 3, 60),
         To = Layout::blockCyclic(4, 5, 60);
  EXPECT_THROW(detail::scheduleWalkerOtto(From, To, computeGrid(From, To)),
               InvalidArgument);
}

TEST(WalkerOttoTest, RejectsAGridOfOtherLayouts) {
  Layout From = Layout::blockCyclic(4, 1, 12),
         To = Layout::blockCyclic(4, 3, 12);
  // Process 0 of the target gets blocks 0, 1, 2: nothing from process 3.
  CommGrid Foreign{4, 4, {Message{3, 0, 1}}};
  EXPECT_THROW(detail::scheduleWalkerOtto(From, To, Foreign), InvalidArgument);
  CommGrid Wide =
      computeGrid(Layout::blockCyclic(5, 1, 15), Layout::blockCyclic(5, 3, 15));
  EXPECT_THROW(detail::scheduleWalkerOtto(From, To, Wide), InvalidArgument);
}

/// Checks one redistribution of the sweeps. At a whole number of
/// superblocks the schedule must also be optimal and follow the paper.
void checkCase(int64_t P, int64_t R, int64_t K, bool Shrink, int64_t N) {
  int64_t Small = R, Big = K * R;
  Layout From = Layout::blockCyclic(P, Shrink ? Big : Small, N);
  Layout To = Layout::blockCyclic(P, Shrink ? Small : Big, N);
  SCOPED_TRACE(
      "P=" + std::to_string(P) + " r=" + std::to_string(From.blockSize()) +
      " s=" + std::to_string(To.blockSize()) + " N=" + std::to_string(N));
  ASSERT_TRUE(detail::walkerOttoApplies(From, To, nullptr));
  CommGrid G = computeGrid(From, To);
  Schedule S = detail::scheduleWalkerOtto(From, To, G);
  EXPECT_EQ(S.Algorithm, "walker_otto");
  ASSERT_EQ(validateSchedule(G, S), std::nullopt);
  ScheduleStats Stats = measureSchedule(G, S);
  EXPECT_EQ(Stats.Steps, Stats.NonEmptySteps) << "empty steps are dropped";
  for (const std::vector<int64_t> &Step : S.Steps)
    EXPECT_TRUE(std::is_sorted(Step.begin(), Step.end())) << "ids ascending";
  int64_t Superblock = P * K * R;
  if (N == 0 || N % Superblock != 0)
    return;
  EXPECT_EQ(Stats.Steps, std::min(K, P));
  EXPECT_EQ(Stats.Steps, Stats.StepsLowerBound);
  EXPECT_EQ(Stats.Cost, Stats.CostLowerBound);
  for (const std::vector<int64_t> &Step : S.Steps)
    EXPECT_EQ(static_cast<int64_t>(Step.size()), P) << "a full permutation";
  // Step k holds exactly the paper's pairs (p, q(k, p)).
  detail::WalkerOttoFormulas F(P, K);
  std::vector<int64_t> StepOf = stepOfEachMessage(G, S);
  for (int64_t Step = 0; Step < std::min(K, P); ++Step)
    for (int64_t Proc = 0; Proc < P; ++Proc) {
      int64_t Target = F.sendTarget(Step, Proc);
      int64_t Id = Shrink ? idOf(G, Target, Proc) : idOf(G, Proc, Target);
      ASSERT_GE(Id, 0);
      ASSERT_EQ(StepOf[Id], Step) << "p=" << Proc << " q=" << Target;
    }
}

/// Array sizes for a sweep case: whole superblocks and ragged ends.
std::vector<int64_t> sizesFor(int64_t P, int64_t R, int64_t K) {
  int64_t Superblock = P * K * R;
  return {Superblock,
          3 * Superblock,
          Superblock - 1,
          Superblock / 2 + 1,
          2 * Superblock + R + 1,
          1,
          0};
}

TEST(WalkerOttoTest, SweepIsValidAndOptimal) {
  // Every r, s <= 12 with s = K r or r = K s, and beyond: up to r = 12 with
  // K = 12 (s = 144).
  for (int64_t P = 1; P <= 24; ++P)
    for (int64_t R = 1; R <= 12; ++R)
      for (int64_t K = 1; K <= 12; ++K)
        for (bool Shrink : {false, true})
          for (int64_t N : sizesFor(P, R, K))
            checkCase(P, R, K, Shrink, N);
}

TEST(WalkerOttoTest, SlowSweepLargeFactors) {
  for (int64_t P = 1; P <= 40; ++P)
    for (int64_t R : {1, 3})
      for (int64_t K = 1; K <= 48; ++K)
        for (bool Shrink : {false, true}) {
          int64_t Superblock = P * K * R;
          for (int64_t N : {Superblock, 2 * Superblock, Superblock - R,
                            Superblock / 3 + 2, Superblock * 5 + 7})
            checkCase(P, R, K, Shrink, N);
        }
}

TEST(WalkerOttoTest, MakeScheduleDispatchesHere) {
  Layout From = Layout::blockCyclic(16, 4, 768),
         To = Layout::blockCyclic(16, 48, 768);
  CommGrid G = computeGrid(From, To);
  ASSERT_TRUE(algorithmApplies(Algorithm::WalkerOtto, From, To));
  Schedule Direct = detail::scheduleWalkerOtto(From, To, G);
  Schedule Made = makeSchedule(Algorithm::WalkerOtto, From, To, G);
  EXPECT_EQ(Made.Algorithm, "walker_otto");
  EXPECT_EQ(Made.Steps, Direct.Steps);
  std::string Why;
  EXPECT_FALSE(algorithmApplies(Algorithm::WalkerOtto,
                                Layout::blockCyclic(12, 4, 96),
                                Layout::blockCyclic(8, 4, 96), &Why));
  EXPECT_EQ(Why, "walker_otto needs P = Q (got P=12, Q=8)");
}

} // namespace
