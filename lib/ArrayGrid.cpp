//===- ArrayGrid.cpp - Who sends how much to whom, for arrays -------------===//
//
// See redist/ArrayGrid.h. Each axis is a 1-D problem: whole axes take the
// closed forms of CommGrid.cpp and MessagePattern.cpp, a section's axis is
// cut at the block boundaries of both sides. The product over process ids
// adds each axis message's share of the source and target process ids, so
// it costs O(1) per message. A band's two axes are counted together, per
// pair of their messages, from their runs (bandCount), once per pair.
//
//===----------------------------------------------------------------------===//
#include "redist/ArrayGrid.h"

#include "BlockCyclicMath.h"
#include "redist/Error.h"
#include "redist/Limits.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace redist;

namespace {

std::string dimName(int D) { return "dimension " + std::to_string(D); }

/// One past the last index of the block of L that holds G.
int64_t blockEnd(const Layout &L, int64_t G) {
  if (L.isBlockCyclic())
    return std::min(L.extent(), (G / L.blockSize() + 1) * L.blockSize());
  int64_t P = L.owner(G);
  return L.segmentBegin(P) + L.localSize(P);
}

/// The target axis of every source axis.
std::vector<int> inverse(const std::vector<int> &Perm) {
  std::vector<int> Inv(Perm.size());
  for (size_t K = 0; K < Perm.size(); ++K)
    Inv[static_cast<size_t>(Perm[K])] = static_cast<int>(K);
  return Inv;
}

bool wholeAxis(const ArrayLayout &From, const ArrayLayout &To,
               const ArrayRegion &R, int A, int T) {
  const size_t I = static_cast<size_t>(A), J = static_cast<size_t>(T);
  return R.SourceBegin[I] == 0 && R.TargetBegin[J] == 0 &&
         R.Extents[I] == From.extent(A) && R.Extents[I] == To.extent(T);
}

/// Walks axis A's section block by block: F(SrcRank, DstRank, Pos, SrcLocal,
/// DstLocal, Len) for each piece, in increasing order.
template <typename Fn>
void walkAxis(const ArrayLayout &From, const ArrayLayout &To,
              const ArrayRegion &R, int A, int T, Fn &&F) {
  const Layout &S = From.dim(A), &D = To.dim(T);
  const int64_t SB = R.SourceBegin[static_cast<size_t>(A)],
                TB = R.TargetBegin[static_cast<size_t>(T)],
                Len = R.Extents[static_cast<size_t>(A)];
  for (int64_t K = 0; K < Len;) {
    const int64_t GS = SB + K, GT = TB + K;
    const int64_t Piece =
        std::min({blockEnd(S, GS) - GS, blockEnd(D, GT) - GT, Len - K});
    F(S.owner(GS), D.owner(GT), K, S.toLocal(GS), D.toLocal(GT), Piece);
    K += Piece;
  }
}

/// The elements (i, j), i in [R0, R0 + RL), j in [C0, C0 + CL), with
/// Begin <= i - j < End, in O(1).
int64_t pairCount(int64_t R0, int64_t RL, int64_t C0, int64_t CL, int64_t Begin,
                  int64_t End) {
  // i - j lies in (Low, High): diagonals beyond mean "all" or "none", and
  // clamping them keeps the sums from overflowing.
  const int64_t Low = R0 - (C0 + CL), High = R0 + RL - C0;
  Begin = std::min(std::max(Begin, Low), High);
  End = std::min(std::max(End, Low), High);
  if (End <= Begin)
    return 0;
  // The sum of min(max(X, 0), L) for X in [A, B).
  auto SumClamped = [](int64_t A, int64_t B, int64_t L) {
    int64_t Sum = 0;
    const int64_t Lo = std::max<int64_t>(A, 0), Hi = std::min(B, L + 1);
    if (Hi > Lo)
      Sum += (Lo + Hi - 1) * (Hi - Lo) / 2;
    const int64_t Top = std::max(A, L + 1);
    if (B > Top)
      Sum += L * (B - Top);
    return Sum;
  };
  // Elements with i - j < D: per column j, clamp(j + D - R0, 0, RL).
  auto Below = [&](int64_t D) {
    return SumClamped(C0 + D - R0, C0 + D - R0 + CL, RL);
  };
  return Below(End) - Below(Begin);
}

/// The length of a tuple of axis messages: the product of the axis
/// lengths, a band's two axes counted together (once per pair of their
/// messages, then remembered).
class TupleLength {
public:
  TupleLength(const ArrayLayout &From, const ArrayLayout &To,
              const ArrayRegion &R, const std::vector<AxisGrid> &Axes)
      : Axes(Axes) {
    if (!R.Band)
      return;
    Band = *R.Band;
    RowRuns = indexedAxisRuns(From, To, R, Band.Row);
    ColRuns = indexedAxisRuns(From, To, R, Band.Col);
    Cols = Axes[static_cast<size_t>(Band.Col)].Lines.Messages.size();
    Known.assign(
        Axes[static_cast<size_t>(Band.Row)].Lines.Messages.size() * Cols, -1);
  }
  /// Whether a tuple's length is the plain product of its axis lengths.
  bool plain() const { return Known.empty(); }
  /// Ids[a] is the message of Axes[a].
  int64_t operator()(const std::vector<int64_t> &Ids) {
    int64_t Len = 1;
    for (size_t A = 0; A < Axes.size(); ++A)
      if (Known.empty() ||
          (static_cast<int>(A) != Band.Row && static_cast<int>(A) != Band.Col))
        Len *= Axes[A].Lines.Messages[static_cast<size_t>(Ids[A])].Len;
    if (Known.empty())
      return Len;
    const int64_t Row = Ids[static_cast<size_t>(Band.Row)],
                  Col = Ids[static_cast<size_t>(Band.Col)];
    int64_t &Count =
        Known[static_cast<size_t>(Row) * Cols + static_cast<size_t>(Col)];
    if (Count < 0) {
      const Message &X = Axes[static_cast<size_t>(Band.Row)]
                             .Lines.Messages[static_cast<size_t>(Row)];
      const Message &Y = Axes[static_cast<size_t>(Band.Col)]
                             .Lines.Messages[static_cast<size_t>(Col)];
      Count = bandCount(Band, RowRuns.at({X.Src, X.Dst}),
                        ColRuns.at({Y.Src, Y.Dst}));
    }
    return Len * Count;
  }

private:
  const std::vector<AxisGrid> &Axes;
  ArrayBand Band;
  std::map<std::pair<int64_t, int64_t>, std::vector<IndexedRun>> RowRuns,
      ColRuns;
  size_t Cols = 0;
  std::vector<int64_t> Known; ///< per (row message, column message)
};

/// Each axis message's share of the source and target process ids.
struct Shares {
  std::vector<std::vector<int64_t>> Src, Dst;
};

/// The weight of each arrangement dimension in a process id.
std::vector<int64_t> gridWeights(const ArrayLayout &L) {
  const std::vector<int64_t> &G = L.grid();
  std::vector<int64_t> W(G.size(), 1);
  const int N = static_cast<int>(G.size());
  int64_t Next = 1;
  for (int J = N - 1; J >= 0; --J) {
    const int K = L.order() == GridOrder::RowMajor ? J : N - 1 - J;
    W[static_cast<size_t>(K)] = Next;
    Next *= G[static_cast<size_t>(K)];
  }
  return W;
}

/// Dimension D's contribution to the id of the process whose 1-D process
/// there is Rank.
int64_t shareOf(const ArrayLayout &L, const std::vector<int64_t> &W, int D,
                int64_t Rank) {
  const int G = L.gridDimOf(D);
  if (G < 0)
    return 0;
  const int64_t P = L.grid()[static_cast<size_t>(G)];
  const int64_t First = L.firstProc(D);
  const int64_t Coord = Rank < P - First ? Rank + First : Rank - (P - First);
  return Coord * W[static_cast<size_t>(G)];
}

Shares sharesOf(const ArrayLayout &From, const ArrayLayout &To,
                const std::vector<AxisGrid> &Axes) {
  Shares S;
  const std::vector<int64_t> WF = gridWeights(From), WT = gridWeights(To);
  for (const AxisGrid &A : Axes) {
    std::vector<int64_t> Src, Dst;
    for (const Message &M : A.Lines.Messages) {
      Src.push_back(shareOf(From, WF, A.SourceDim, M.Src));
      Dst.push_back(shareOf(To, WT, A.TargetDim, M.Dst));
    }
    S.Src.push_back(std::move(Src));
    S.Dst.push_back(std::move(Dst));
  }
  return S;
}

/// Calls F(Src, Dst, Len, Tuple) for every tuple of messages of Lists[a]
/// (indices into Axes[a].Lines.Messages), last axis fastest; Len may be 0
/// within a band.
template <typename Fn>
void forEachTuple(const std::vector<AxisGrid> &Axes, const Shares &S,
                  TupleLength &Length,
                  const std::vector<std::vector<int64_t>> &Lists, Fn &&F) {
  const size_t D = Axes.size();
  for (const std::vector<int64_t> &L : Lists)
    if (L.empty())
      return;
  std::vector<size_t> At(D, 0);
  std::vector<int64_t> Ids(D);
  while (true) {
    int64_t Src = 0, Dst = 0;
    for (size_t A = 0; A < D; ++A) {
      const int64_t Id = Lists[A][At[A]];
      Ids[A] = Id;
      Src += S.Src[A][static_cast<size_t>(Id)];
      Dst += S.Dst[A][static_cast<size_t>(Id)];
    }
    F(Src, Dst, Length(Ids), At);
    size_t A = D;
    while (A > 0) {
      --A;
      if (++At[A] < Lists[A].size())
        break;
      At[A] = 0;
      if (A == 0)
        return;
    }
  }
}

} // namespace

ArrayRegion redist::resolveRegion(const ArrayLayout &From,
                                  const ArrayLayout &To,
                                  const ArrayRegion &Region) {
  const int D = From.rank();
  const size_t N = static_cast<size_t>(D);
  if (To.rank() != D)
    throw InvalidArgument("the source has rank " + std::to_string(D) +
                          " and the target rank " + std::to_string(To.rank()));
  ArrayRegion R = Region;
  if (R.Permutation.empty())
    for (int K = 0; K < D; ++K)
      R.Permutation.push_back(K);
  if (R.Permutation.size() != N)
    throw InvalidArgument("the permutation has " +
                          std::to_string(R.Permutation.size()) +
                          " entries for arrays of rank " + std::to_string(D));
  std::vector<bool> Seen(N, false);
  for (size_t K = 0; K < N; ++K) {
    const int A = R.Permutation[K];
    if (A < 0 || A >= D || Seen[static_cast<size_t>(A)])
      throw InvalidArgument("the permutation is not one: entry " +
                            std::to_string(K) + " is " + std::to_string(A) +
                            (A >= 0 && A < D
                                 ? ", listed twice"
                                 : ", outside [0, " + std::to_string(D) + ")"));
    Seen[static_cast<size_t>(A)] = true;
  }
  const bool Sections =
      !R.Extents.empty() || !R.SourceBegin.empty() || !R.TargetBegin.empty();
  if (R.SourceBegin.empty())
    R.SourceBegin.assign(N, 0);
  if (R.TargetBegin.empty())
    R.TargetBegin.assign(N, 0);
  if (R.SourceBegin.size() != N || R.TargetBegin.size() != N ||
      (!R.Extents.empty() && R.Extents.size() != N))
    throw InvalidArgument("a section of an array of rank " + std::to_string(D) +
                          " needs " + std::to_string(D) +
                          " begins and extents");
  for (int A = 0; A < D; ++A) {
    const int64_t B = R.SourceBegin[static_cast<size_t>(A)];
    if (B < 0 || B > From.extent(A))
      throw SectionError("the source section of " + dimName(A) + " begins at " +
                             std::to_string(B) + ", outside the extent " +
                             std::to_string(From.extent(A)),
                         false, A, B,
                         R.Extents.empty() ? 0
                                           : R.Extents[static_cast<size_t>(A)],
                         From.extent(A));
  }
  if (R.Extents.empty())
    for (int A = 0; A < D; ++A)
      R.Extents.push_back(From.extent(A) -
                          R.SourceBegin[static_cast<size_t>(A)]);
  for (int T = 0; T < D; ++T) {
    const int A = R.Permutation[static_cast<size_t>(T)];
    const size_t I = static_cast<size_t>(A), J = static_cast<size_t>(T);
    const int64_t E = R.Extents[I];
    if (!Sections && To.extent(T) != E)
      throw InvalidArgument(
          "the extents differ after the permutation: target " + dimName(T) +
          " has " + std::to_string(To.extent(T)) + ", source " + dimName(A) +
          " has " + std::to_string(E));
    if (E < 0 || E > From.extent(A) - R.SourceBegin[I])
      throw SectionError("the source section of " + dimName(A) + ", [" +
                             std::to_string(R.SourceBegin[I]) + ", " +
                             std::to_string(R.SourceBegin[I]) + " + " +
                             std::to_string(E) + "), is outside the extent " +
                             std::to_string(From.extent(A)),
                         false, A, R.SourceBegin[I], E, From.extent(A));
    const int64_t TB = R.TargetBegin[J];
    if (TB < 0 || TB > To.extent(T) || E > To.extent(T) - TB)
      throw SectionError(
          "the target section of " + dimName(T) + ", [" + std::to_string(TB) +
              ", " + std::to_string(TB) + " + " + std::to_string(E) +
              "), is outside the extent " + std::to_string(To.extent(T)),
          true, T, TB, E, To.extent(T));
  }
  if (R.Band) {
    ArrayBand &B = *R.Band;
    if (B.Row < 0 || B.Row >= D || B.Col < 0 || B.Col >= D || B.Row == B.Col)
      throw InvalidArgument("the band's dimensions are " +
                            std::to_string(B.Row) + " and " +
                            std::to_string(B.Col) +
                            "; it needs two different dimensions of [0, " +
                            std::to_string(D) + ")");
    const int64_t Rows = R.Extents[static_cast<size_t>(B.Row)],
                  Cols = R.Extents[static_cast<size_t>(B.Col)];
    // i - j lies in [1 - Cols, Rows - 1]: farther diagonals keep all or
    // none.
    auto Clamp = [&](int64_t V) {
      return std::min(std::max(V, 1 - Cols), Rows);
    };
    if (Rows == 0 || Cols == 0) {
      R.Band.reset();
    } else {
      B.Begin = Clamp(B.Begin);
      B.End = std::max(B.Begin, Clamp(B.End));
      if (B.Begin == 1 - Cols && B.End == Rows)
        R.Band.reset();
    }
  }
  return R;
}

bool redist::isWholeAxis(const ArrayLayout &From, const ArrayLayout &To,
                         const ArrayRegion &R, int A) {
  return wholeAxis(From, To, R, A,
                   inverse(R.Permutation)[static_cast<size_t>(A)]);
}

bool redist::isWholeArray(const ArrayLayout &From, const ArrayLayout &To,
                          const ArrayRegion &R) {
  if (R.Band)
    return false;
  for (int K = 0; K < From.rank(); ++K)
    if (R.Permutation[static_cast<size_t>(K)] != K ||
        !wholeAxis(From, To, R, K, K))
      return false;
  return true;
}

int64_t ArrayGrid::messageId(const std::vector<int64_t> &AxisIds) const {
  int64_t Src = 0, Dst = 0;
  for (size_t A = 0; A < Axes.size(); ++A) {
    const size_t I = static_cast<size_t>(AxisIds[A]);
    Src += SrcShare[A][I];
    Dst += DstShare[A][I];
  }
  // A source's messages are sorted by target.
  const auto Begin = Whole.Messages.begin();
  const auto First = Begin + RowStart[static_cast<size_t>(Src)],
             Last = Begin + RowStart[static_cast<size_t>(Src) + 1];
  const auto It = std::lower_bound(
      First, Last, Dst, [](const Message &M, int64_t D) { return M.Dst < D; });
  return It != Last && It->Dst == Dst ? It - Begin : -1;
}

std::vector<AxisGrid> redist::computeAxisGrids(const ArrayLayout &From,
                                               const ArrayLayout &To,
                                               const ArrayRegion &R) {
  const std::vector<int> Inv = inverse(R.Permutation);
  std::vector<AxisGrid> Axes;
  for (int A = 0; A < From.rank(); ++A) {
    AxisGrid G;
    G.SourceDim = A;
    G.TargetDim = Inv[static_cast<size_t>(A)];
    const Layout &S = From.dim(A), &T = To.dim(G.TargetDim);
    try {
      if (wholeAxis(From, To, R, A, G.TargetDim)) {
        G.Lines = computeGrid(S, T);
      } else {
        std::map<std::pair<int64_t, int64_t>, int64_t> Counts;
        walkAxis(
            From, To, R, A, G.TargetDim,
            [&](int64_t P, int64_t Q, int64_t, int64_t, int64_t, int64_t Len) {
              Counts[{P, Q}] += Len;
            });
        G.Lines.P = S.procs();
        G.Lines.Q = T.procs();
        for (const auto &[Pair, Len] : Counts)
          G.Lines.Messages.push_back({Pair.first, Pair.second, Len});
      }
    } catch (const InvalidArgument &E) {
      throw InvalidArgument("source " + dimName(A) + ": " + E.what());
    }
    Axes.push_back(std::move(G));
  }
  return Axes;
}

ArrayGrid redist::computeArrayGrid(const ArrayLayout &From,
                                   const ArrayLayout &To,
                                   const ArrayRegion &Region) {
  const ArrayRegion R = resolveRegion(From, To, Region);
  ArrayGrid G;
  G.Axes = computeAxisGrids(From, To, R);
  int64_t Count = 1;
  for (const AxisGrid &A : G.Axes) {
    std::optional<int64_t> C = detail::checkedMul(
        Count, static_cast<int64_t>(A.Lines.Messages.size()));
    if (!C || *C > MaxGridMessages)
      throw InvalidArgument("the grid has more than " +
                            std::to_string(MaxGridMessages) + " messages");
    Count = *C;
  }
  G.Whole.P = From.procs();
  G.Whole.Q = To.procs();
  Shares S = sharesOf(From, To, G.Axes);
  TupleLength Length(From, To, R, G.Axes);
  const size_t D = G.Axes.size();
  // Each axis grid is sorted by source: the messages of 1-D source process
  // p are ids [First[a][p], First[a][p + 1]).
  std::vector<std::vector<int64_t>> First(D);
  for (size_t A = 0; A < D; ++A) {
    const CommGrid &L = G.Axes[A].Lines;
    First[A].assign(static_cast<size_t>(L.P) + 1, 0);
    for (const Message &M : L.Messages)
      ++First[A][static_cast<size_t>(M.Src) + 1];
    for (size_t P = 0; P < static_cast<size_t>(L.P); ++P)
      First[A][P + 1] += First[A][P];
  }
  // Source process by source process, so that the grid comes out sorted
  // with one short sort per process (by target): O(messages log degree).
  // A band leaves some tuples empty: they are no message.
  G.RowStart.assign(static_cast<size_t>(From.procs()) + 1, 0);
  G.Whole.Messages.reserve(static_cast<size_t>(Count));
  struct Entry {
    int64_t Dst, Len;
  };
  std::vector<Entry> Row;
  std::vector<int64_t> Lo(D), Hi(D), At(D);
  // Steps the odometer At over [Lo, Hi) on axes [0, Axes) to its next
  // tuple; false after the last.
  auto Advance = [&](size_t Axes) {
    size_t A = Axes;
    while (A > 0 && ++At[A - 1] == Hi[A - 1]) {
      At[A - 1] = Lo[A - 1];
      --A;
    }
    return A > 0;
  };
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    G.RowStart[static_cast<size_t>(Src)] =
        static_cast<int64_t>(G.Whole.Messages.size());
    bool Empty = false;
    for (size_t A = 0; A < D; ++A) {
      const size_t Rank =
          static_cast<size_t>(From.dimRankOf(G.Axes[A].SourceDim, Src));
      Lo[A] = First[A][Rank];
      Hi[A] = First[A][Rank + 1];
      At[A] = Lo[A];
      Empty = Empty || Lo[A] == Hi[A];
    }
    if (Empty)
      continue;
    Row.clear();
    if (Length.plain()) {
      // The last axis in an inner loop, the others' shares and lengths
      // taken once per tuple of theirs.
      const size_t Last = D - 1;
      const std::vector<Message> &LastLines = G.Axes[Last].Lines.Messages;
      const std::vector<int64_t> &LastDst = S.Dst[Last];
      while (true) {
        int64_t DstBase = 0, LenBase = 1;
        for (size_t A = 0; A < Last; ++A) {
          const size_t I = static_cast<size_t>(At[A]);
          DstBase += S.Dst[A][I];
          LenBase *= G.Axes[A].Lines.Messages[I].Len;
        }
        for (int64_t K = Lo[Last]; K < Hi[Last]; ++K)
          if (const int64_t Len =
                  LenBase * LastLines[static_cast<size_t>(K)].Len)
            Row.push_back({DstBase + LastDst[static_cast<size_t>(K)], Len});
        if (!Advance(Last))
          break;
      }
    } else {
      while (true) {
        int64_t Dst = 0;
        for (size_t A = 0; A < D; ++A)
          Dst += S.Dst[A][static_cast<size_t>(At[A])];
        if (const int64_t Len = Length(At))
          Row.push_back({Dst, Len});
        if (!Advance(D))
          break;
      }
    }
    auto ByDst = [](const Entry &X, const Entry &Y) { return X.Dst < Y.Dst; };
    if (!std::is_sorted(Row.begin(), Row.end(), ByDst))
      std::sort(Row.begin(), Row.end(), ByDst);
    for (const Entry &E : Row)
      G.Whole.Messages.push_back({Src, E.Dst, E.Len});
  }
  G.RowStart.back() = static_cast<int64_t>(G.Whole.Messages.size());
  G.SrcShare = std::move(S.Src);
  G.DstShare = std::move(S.Dst);
  return G;
}

namespace {

/// The messages of one source (Sending) or target process, sorted by the
/// other end.
std::vector<Message> oneProcess(const ArrayLayout &From, const ArrayLayout &To,
                                const std::vector<AxisGrid> &Axes,
                                const ArrayRegion &R, int64_t Proc,
                                bool Sending) {
  const Shares S = sharesOf(From, To, Axes);
  TupleLength Length(From, To, R, Axes);
  std::vector<std::vector<int64_t>> Lists;
  for (const AxisGrid &A : Axes) {
    const int64_t Rank = Sending ? From.dimRankOf(A.SourceDim, Proc)
                                 : To.dimRankOf(A.TargetDim, Proc);
    std::vector<int64_t> Ids;
    for (size_t I = 0; I < A.Lines.Messages.size(); ++I)
      if ((Sending ? A.Lines.Messages[I].Src : A.Lines.Messages[I].Dst) == Rank)
        Ids.push_back(static_cast<int64_t>(I));
    Lists.push_back(std::move(Ids));
  }
  std::vector<Message> Out;
  forEachTuple(
      Axes, S, Length, Lists,
      [&](int64_t Src, int64_t Dst, int64_t Len, const std::vector<size_t> &) {
        if (Len > 0)
          Out.push_back({Src, Dst, Len});
      });
  std::sort(Out.begin(), Out.end(), [&](const Message &X, const Message &Y) {
    return Sending ? X.Dst < Y.Dst : X.Src < Y.Src;
  });
  return Out;
}

} // namespace

std::vector<Message> redist::arrayRow(const ArrayLayout &From,
                                      const ArrayLayout &To,
                                      const std::vector<AxisGrid> &Axes,
                                      int64_t Src, const ArrayRegion &Region) {
  return oneProcess(From, To, Axes, Region, Src, true);
}

std::vector<Message> redist::arrayColumn(const ArrayLayout &From,
                                         const ArrayLayout &To,
                                         const std::vector<AxisGrid> &Axes,
                                         int64_t Dst,
                                         const ArrayRegion &Region) {
  return oneProcess(From, To, Axes, Region, Dst, false);
}

std::map<std::pair<int64_t, int64_t>, std::vector<IndexedRun>>
redist::indexedAxisRuns(const ArrayLayout &From, const ArrayLayout &To,
                        const ArrayRegion &R, int A) {
  std::map<std::pair<int64_t, int64_t>, std::vector<IndexedRun>> Runs;
  walkAxis(From, To, R, A, inverse(R.Permutation)[static_cast<size_t>(A)],
           [&](int64_t P, int64_t Q, int64_t K, int64_t LS, int64_t LT,
               int64_t Len) {
             std::vector<IndexedRun> &List = Runs[{P, Q}];
             if (!List.empty()) {
               IndexedRun &B = List.back();
               if (B.Src + B.Len == LS && B.Dst + B.Len == LT &&
                   B.Index + B.Len == K) {
                 B.Len += Len;
                 return;
               }
             }
             List.push_back({LS, LT, K, Len});
           });
  return Runs;
}

int64_t redist::bandCount(const ArrayBand &Band,
                          const std::vector<IndexedRun> &Rows,
                          const std::vector<IndexedRun> &Cols) {
  int64_t Count = 0;
  for (const IndexedRun &X : Rows)
    for (const IndexedRun &Y : Cols)
      Count += pairCount(X.Index, X.Len, Y.Index, Y.Len, Band.Begin, Band.End);
  return Count;
}

MessagePattern redist::describeAxis(const ArrayLayout &From,
                                    const ArrayLayout &To, const ArrayRegion &R,
                                    int A, int64_t SrcRank, int64_t DstRank) {
  const int T = inverse(R.Permutation)[static_cast<size_t>(A)];
  if (wholeAxis(From, To, R, A, T))
    return describeMessage(From.dim(A), To.dim(T), SrcRank, DstRank);
  MessagePattern M;
  M.Src = SrcRank;
  M.Dst = DstRank;
  walkAxis(
      From, To, R, A, T,
      [&](int64_t P, int64_t Q, int64_t, int64_t LS, int64_t LT, int64_t Len) {
        if (P != SrcRank || Q != DstRank)
          return;
        if (!M.TailRuns.empty()) {
          Run &B = M.TailRuns.back();
          if (B.SrcOffset + B.Length == LS && B.DstOffset + B.Length == LT) {
            B.Length += Len;
            return;
          }
        }
        M.TailRuns.push_back({LS, LT, Len});
      });
  return M;
}

CommGrid redist::countArrayGridByElements(const ArrayLayout &From,
                                          const ArrayLayout &To,
                                          const ArrayRegion &Region) {
  const ArrayRegion R = resolveRegion(From, To, Region);
  const size_t D = static_cast<size_t>(From.rank());
  std::map<std::pair<int64_t, int64_t>, int64_t> Counts;
  std::vector<int64_t> K(D, 0), SI(D), TI(D);
  bool More = std::all_of(R.Extents.begin(), R.Extents.end(),
                          [](int64_t E) { return E > 0; });
  while (More) {
    for (size_t A = 0; A < D; ++A)
      SI[A] = R.SourceBegin[A] + K[A];
    for (size_t T = 0; T < D; ++T)
      TI[T] = R.TargetBegin[T] + K[static_cast<size_t>(R.Permutation[T])];
    const int64_t Diagonal = R.Band ? K[static_cast<size_t>(R.Band->Row)] -
                                          K[static_cast<size_t>(R.Band->Col)]
                                    : 0;
    if (!R.Band || (Diagonal >= R.Band->Begin && Diagonal < R.Band->End))
      ++Counts[{From.toLocal(SI).Proc, To.toLocal(TI).Proc}];
    More = false;
    for (size_t A = D; A-- > 0;) {
      if (++K[A] < R.Extents[A]) {
        More = true;
        break;
      }
      K[A] = 0;
    }
  }
  CommGrid G;
  G.P = From.procs();
  G.Q = To.procs();
  for (const auto &[Pair, Len] : Counts)
    G.Messages.push_back({Pair.first, Pair.second, Len});
  return G;
}
