//===- CommGrid.cpp - Who sends how much to whom --------------------------===//
//
// Block-cyclic pairs with at least one whole slice use the closed forms of
// CyclicPair for the slices, then add the incomplete last slice. That slice,
// and every other pair (GEN_BLOCK on either side, or N < L), is summed row by
// row over block boundaries: each source piece is split among the targets
// (whole cycles of a block-cyclic target at once), or, when the targets have
// fewer pieces, each target piece counts the source's elements by prefix
// counts. Nothing is ever done per element.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"

#include "BlockCyclicMath.h"
#include "CyclicPair.h"
#include "RunWalker.h"
#include "WalkBounds.h"
#include "redist/Error.h"
#include "redist/Limits.h"

#include <algorithm>
#include <optional>
#include <string>

using namespace redist;
using namespace redist::detail;

int64_t CommGrid::length(int64_t Src, int64_t Dst) const {
  auto It = std::lower_bound(
      Messages.begin(), Messages.end(), std::make_pair(Src, Dst),
      [](const Message &M, const std::pair<int64_t, int64_t> &Key) {
        return M.Src < Key.first || (M.Src == Key.first && M.Dst < Key.second);
      });
  if (It != Messages.end() && It->Src == Src && It->Dst == Dst)
    return It->Len;
  return 0;
}

std::vector<int64_t> CommGrid::rowCounts() const {
  std::vector<int64_t> Counts(static_cast<size_t>(P), 0);
  for (const Message &M : Messages)
    ++Counts[static_cast<size_t>(M.Src)];
  return Counts;
}

std::vector<int64_t> CommGrid::columnCounts() const {
  std::vector<int64_t> Counts(static_cast<size_t>(Q), 0);
  for (const Message &M : Messages)
    ++Counts[static_cast<size_t>(M.Dst)];
  return Counts;
}

int64_t CommGrid::maxDegree() const {
  // One pass over the messages for both sides, not one each.
  std::vector<int64_t> Counts(static_cast<size_t>(P + Q), 0);
  int64_t Max = 0;
  for (const Message &M : Messages)
    Max = std::max({Max, ++Counts[static_cast<size_t>(M.Src)],
                    ++Counts[static_cast<size_t>(P + M.Dst)]});
  return Max;
}

int64_t CommGrid::maxVolume() const {
  std::vector<int64_t> Sent(static_cast<size_t>(P), 0);
  std::vector<int64_t> Received(static_cast<size_t>(Q), 0);
  for (const Message &M : Messages) {
    Sent[static_cast<size_t>(M.Src)] += M.Len;
    Received[static_cast<size_t>(M.Dst)] += M.Len;
  }
  int64_t Max = 0;
  for (int64_t V : Sent)
    Max = std::max(Max, V);
  for (int64_t V : Received)
    Max = std::max(Max, V);
  return Max;
}

static void checkSameExtent(const Layout &From, const Layout &To) {
  if (From.extent() != To.extent())
    throw InvalidArgument(
        "source and target extents differ: " + std::to_string(From.extent()) +
        " (" + From.distribution().str() + ") vs " +
        std::to_string(To.extent()) + " (" + To.distribution().str() + ")");
}

static void checkProcIndex(const char *Role, int64_t Proc, int64_t P) {
  if (Proc < 0 || Proc >= P)
    throw InvalidArgument(std::string(Role) + " process " +
                          std::to_string(Proc) + " out of range [0, " +
                          std::to_string(P) + ")");
}

/// Orders messages by (Src, Dst); a function object so sorts inline it.
struct BySrcDst {
  bool operator()(const Message &X, const Message &Y) const {
    return X.Src < Y.Src || (X.Src == Y.Src && X.Dst < Y.Dst);
  }
};

/// Sorts by (Src, Dst) and adds up the lengths of equal pairs.
static void sortAndCombine(std::vector<Message> &Ms) {
  std::sort(Ms.begin(), Ms.end(), BySrcDst());
  size_t Out = 0;
  for (size_t I = 0; I < Ms.size(); ++I) {
    if (Out > 0 && Ms[Out - 1].Src == Ms[I].Src && Ms[Out - 1].Dst == Ms[I].Dst)
      Ms[Out - 1].Len += Ms[I].Len;
    else
      Ms[Out++] = Ms[I];
  }
  Ms.resize(Out);
}

/// Appends a run to a list of messages, extending the last one when the pair
/// is the same (consecutive runs of one pair are common).
static void appendRun(std::vector<Message> &Ms, int64_t Src, int64_t Dst,
                      int64_t Len) {
  if (!Ms.empty() && Ms.back().Src == Src && Ms.back().Dst == Dst)
    Ms.back().Len += Len;
  else
    Ms.push_back({Src, Dst, Len});
}

namespace {
/// Sums per partner of what one process exchanges; partners come out sorted.
class PartnerSums {
public:
  explicit PartnerSums(int64_t Partners)
      : Sums(static_cast<size_t>(Partners), 0) {}
  void add(int64_t Partner, int64_t Len) {
    int64_t &Sum = Sums[static_cast<size_t>(Partner)];
    if (Sum == 0)
      Touched.push_back(Partner);
    Sum += Len;
  }
  /// Calls F(Partner, Sum) in increasing Partner order, then clears.
  template <typename Fn> void drain(Fn &&F) {
    // Sorting a few partners beats scanning all; many are cheaper to scan.
    if (Touched.size() * 16 < Sums.size()) {
      std::sort(Touched.begin(), Touched.end());
      for (int64_t Partner : Touched) {
        F(Partner, Sums[static_cast<size_t>(Partner)]);
        Sums[static_cast<size_t>(Partner)] = 0;
      }
    } else {
      for (size_t Partner = 0; Partner < Sums.size(); ++Partner)
        if (Sums[Partner] != 0) {
          F(static_cast<int64_t>(Partner), Sums[Partner]);
          Sums[Partner] = 0;
        }
    }
    Touched.clear();
  }

private:
  std::vector<int64_t> Sums;
  std::vector<int64_t> Touched;
};
} // namespace

/// Adds each process's share of the interval [Begin, End) of Lay to Sums.
/// Any B*P consecutive elements of a block-cyclic layout hold B of every
/// process, so whole cycles cost O(P) and only the rest is walked: at most
/// O(min(P, pieces)) per interval.
static void addShares(const Layout &Lay, int64_t Begin, int64_t End,
                      PartnerSums &Sums) {
  if (Lay.isBlockCyclic() && Lay.procs() > 1) {
    int64_t B = Lay.blockSize();
    std::optional<int64_t> Cycle = checkedMul(B, Lay.procs());
    if (Cycle && End - Begin >= *Cycle) {
      int64_t Cycles = (End - Begin) / *Cycle;
      for (int64_t Proc = 0; Proc < Lay.procs(); ++Proc)
        Sums.add(Proc, Cycles * B);
      Begin += Cycles * *Cycle;
    }
  }
  if (Begin < End)
    for (PieceCursor C(Lay, Begin, End); !C.done(); C.next())
      Sums.add(C.owner(), C.end() - C.begin());
}

/// Adds to Sums what Proc of From exchanges with each process of To in
/// [Begin, End): either Proc's pieces, each split among To's processes, or,
/// when To has fewer pieces there, To's pieces, counting Proc's elements in
/// each by prefix counts.
static void sumPartners(const Layout &From, const Layout &To, int64_t Proc,
                        int64_t Begin, int64_t End, PartnerSums &Sums) {
  int64_t OwnPieces = procPieceCount(From, Proc, Begin, End);
  if (OwnPieces == 0)
    return;
  if (pieceCount(To, Begin, End) < OwnPieces) {
    for (PieceCursor C(To, Begin, End); !C.done(); C.next()) {
      int64_t Len =
          prefixCount(From, Proc, C.end()) - prefixCount(From, Proc, C.begin());
      if (Len > 0)
        Sums.add(C.owner(), Len);
    }
    return;
  }
  forEachProcPiece(From, Proc, Begin, End,
                   [&](int64_t S, int64_t E) { addShares(To, S, E, Sums); });
}

/// Calls F(Src, Dst, Len) with every pair's total over [Begin, End), in
/// (Src, Dst) order.
template <typename Fn>
static void forEachPairTotal(const Layout &From, const Layout &To,
                             int64_t Begin, int64_t End, Fn &&F) {
  PartnerSums Sums(To.procs());
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    sumPartners(From, To, Src, Begin, End, Sums);
    Sums.drain([&](int64_t Dst, int64_t Len) { F(Src, Dst, Len); });
  }
}

/// Start of each row in messages sorted by Src (size P + 1).
static std::vector<size_t> rowStarts(const std::vector<Message> &Ms,
                                     int64_t P) {
  std::vector<size_t> Start(static_cast<size_t>(P) + 1, 0);
  for (const Message &M : Ms)
    ++Start[static_cast<size_t>(M.Src) + 1];
  for (size_t I = 1; I < Start.size(); ++I)
    Start[I] += Start[I - 1];
  return Start;
}

/// The message to Dst in the row [Begin, End), sorted by Dst, which must
/// hold it: directly in a full row of Q messages, by binary search otherwise.
static Message &findInRow(Message *Begin, Message *End, int64_t Q,
                          int64_t Dst) {
  if (End - Begin == Q)
    return Begin[Dst];
  return *std::lower_bound(
      Begin, End, Dst, [](const Message &M, int64_t D) { return M.Dst < D; });
}

/// The whole-slice messages of row Src, appended in Dst order.
static void appendSliceRow(const CyclicPair &CP, int64_t Src,
                           std::vector<std::pair<int64_t, int64_t>> &Scratch,
                           std::vector<Message> &Out) {
  int64_t Slices = CP.wholeSlices();
  CP.forEachRowPartner(Src, Scratch, [&](int64_t Dst, int64_t Len) {
    Out.push_back({Src, Dst, Len * Slices});
  });
}

static std::vector<Message> rowOf(const Layout &From, const Layout &To,
                                  int64_t Src) {
  int64_t N = From.extent();
  std::vector<Message> Row;
  PartnerSums Sums(To.procs());
  if (From.isBlockCyclic() && To.isBlockCyclic()) {
    CyclicPair CP(From, To);
    if (CP.wholeSlices() > 0) {
      std::vector<std::pair<int64_t, int64_t>> Scratch;
      appendSliceRow(CP, Src, Scratch, Row);
      // Every pair of the last slice also exchanges in each whole slice.
      sumPartners(From, To, Src, CP.wholeSlices() * CP.sliceLength(), N, Sums);
      Sums.drain([&](int64_t Dst, int64_t Len) {
        findInRow(Row.data(), Row.data() + Row.size(), To.procs(), Dst).Len +=
            Len;
      });
      return Row;
    }
  }
  sumPartners(From, To, Src, 0, N, Sums);
  Sums.drain([&](int64_t Dst, int64_t Len) { Row.push_back({Src, Dst, Len}); });
  return Row;
}

CommGrid redist::computeGrid(const Layout &From, const Layout &To) {
  checkSameExtent(From, To);
  checkRunLimit(From, To);
  CommGrid G;
  G.P = From.procs();
  G.Q = To.procs();
  int64_t N = From.extent();
  std::vector<Message> &Ms = G.Messages;
  if (From.isBlockCyclic() && To.isBlockCyclic()) {
    CyclicPair CP(From, To);
    if (CP.wholeSlices() > 0) {
      int64_t Total = 0;
      for (int64_t Src = 0; Src < G.P; ++Src)
        Total += CP.rowDegree(Src);
      checkGridMessages(From, To, Total);
      Ms.reserve(static_cast<size_t>(Total));
      std::vector<std::pair<int64_t, int64_t>> Scratch;
      for (int64_t Src = 0; Src < G.P; ++Src)
        appendSliceRow(CP, Src, Scratch, Ms);
      // The last slice adds to messages that every whole slice has.
      int64_t TailBegin = CP.wholeSlices() * CP.sliceLength();
      checkGridWalk(From, To, N - TailBegin);
      std::vector<size_t> Starts = rowStarts(Ms, G.P);
      forEachPairTotal(
          From, To, TailBegin, N, [&](int64_t S, int64_t D, int64_t Len) {
            Message *Row = Ms.data();
            findInRow(Row + Starts[static_cast<size_t>(S)],
                      Row + Starts[static_cast<size_t>(S) + 1], G.Q, D)
                .Len += Len;
          });
      return G;
    }
  } else if (!From.isBlockCyclic() && !To.isBlockCyclic()) {
    // Two sets of segments: runs come out sorted and distinct, O(P + Q).
    forEachRun(From, To, 0, N, [&](int64_t, int64_t Len, int64_t S, int64_t D) {
      Ms.push_back({S, D, Len});
    });
    return G;
  }
  // Each message takes a block visit of the walk: an upper bound that saves
  // regrowing a large grid. Pages reserved but never written cost nothing.
  int64_t Visits = checkGridWalk(From, To, N);
  std::optional<int64_t> Pairs = checkedMul(G.P, G.Q);
  Ms.reserve(static_cast<size_t>(Pairs && *Pairs < Visits ? *Pairs : Visits));
  forEachPairTotal(From, To, 0, N, [&](int64_t S, int64_t D, int64_t Len) {
    Ms.push_back({S, D, Len});
  });
  return G;
}

std::vector<Message> redist::computeRow(const Layout &From, const Layout &To,
                                        int64_t Src) {
  checkSameExtent(From, To);
  checkProcIndex("source", Src, From.procs());
  checkRunLimit(From, To);
  return rowOf(From, To, Src);
}

std::vector<Message> redist::computeColumn(const Layout &From, const Layout &To,
                                           int64_t Dst) {
  checkSameExtent(From, To);
  checkProcIndex("target", Dst, To.procs());
  checkRunLimit(From, To);
  // A column is a row of the reverse redistribution.
  std::vector<Message> Column = rowOf(To, From, Dst);
  for (Message &M : Column)
    std::swap(M.Src, M.Dst);
  return Column;
}

CommGrid redist::countGridByElements(const Layout &From, const Layout &To) {
  checkSameExtent(From, To);
  CommGrid G;
  G.P = From.procs();
  G.Q = To.procs();
  for (int64_t I = 0; I < From.extent(); ++I)
    appendRun(G.Messages, From.owner(I), To.owner(I), 1);
  sortAndCombine(G.Messages);
  return G;
}
