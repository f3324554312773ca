//===- MatrixMessages.cpp - A matrix plan's messages as strided runs ------===//
//
// See MatrixMessages.h.
//
//===----------------------------------------------------------------------===//
#include "MatrixMessages.h"

#include "redist/Error.h"

#include <algorithm>
#include <functional>

namespace redist {
namespace detail {
namespace {

/// One past the last index of the block of L that holds G.
int64_t blockEnd(const Layout &L, int64_t G) {
  if (L.isBlockCyclic())
    return std::min(L.extent(), (G / L.blockSize() + 1) * L.blockSize());
  int64_t P = L.owner(G);
  return L.segmentBegin(P) + L.localSize(P);
}

/// Stride between consecutive local rows and local columns of a storage.
std::pair<int64_t, int64_t> strides(const Layout2D &L, int64_t LD) {
  return L.storage().Order == StorageOrder::ColumnMajor
             ? std::make_pair(int64_t(1), LD)
             : std::make_pair(LD, int64_t(1));
}

/// Cuts one axis: Len indices from SrcStart of source layout Src (whose 1-D
/// process p is grid line SrcLine(p)) onto TgtStart of Tgt. Keeps the runs
/// of pairs with source line KeepSrc or target line KeepDst.
MatrixAxis cutAxis(const Layout &Src,
                   const std::function<int64_t(int64_t)> &SrcLine,
                   int64_t SrcStart, const Layout &Tgt,
                   const std::function<int64_t(int64_t)> &TgtLine,
                   int64_t TgtStart, int64_t Len, int64_t KeepSrc,
                   int64_t KeepDst, bool KeepAll) {
  MatrixAxis A;
  for (int64_t K = 0; K < Len;) {
    const int64_t GS = SrcStart + K, GT = TgtStart + K;
    const int64_t Piece =
        std::min({blockEnd(Src, GS) - GS, blockEnd(Tgt, GT) - GT, Len - K});
    const std::pair<int64_t, int64_t> Pair{SrcLine(Src.owner(GS)),
                                           TgtLine(Tgt.owner(GT))};
    A.Counts[Pair] += Piece;
    if (KeepAll || Pair.first == KeepSrc || Pair.second == KeepDst) {
      std::vector<AxisRun> &Runs = A.Runs[Pair];
      const int64_t LS = Src.toLocal(GS), LT = Tgt.toLocal(GT);
      if (!Runs.empty() && Runs.back().Pos + Runs.back().Len == K &&
          Runs.back().Src + Runs.back().Len == LS &&
          Runs.back().Dst + Runs.back().Len == LT)
        Runs.back().Len += Piece;
      else
        Runs.push_back({K, LS, LT, Piece});
    }
    K += Piece;
  }
  return A;
}

} // namespace

int64_t leadingDimOf(const MatrixSide &Side, int64_t Proc, int64_t MyProc) {
  if (Proc == MyProc && Side.LocalLeadingDim > 0)
    return Side.LocalLeadingDim;
  return Side.Layout.leadingDim(Proc);
}

bool MatrixProblem::wholeMatrix() const {
  const Layout2D &A = From.Layout, &B = To.Layout;
  return !Region.Transpose && Region.SourceRow == 0 && Region.SourceCol == 0 &&
         Region.TargetRow == 0 && Region.TargetCol == 0 &&
         Region.Rows == A.numRows() && Region.Cols == A.numCols() &&
         A.numRows() == B.numRows() && A.numCols() == B.numCols() &&
         !Region.banded();
}

MatrixMessages::MatrixMessages(const MatrixProblem &Problem) : M(Problem) {
  const Layout2D &A = M.From.Layout, &B = M.To.Layout;
  const MatrixRegion &R = M.Region;
  const bool T = R.Transpose;
  // The grid lines this rank needs runs of.
  int64_t KeepRow = -1, KeepCol = -1, KeepX = -1, KeepY = -1;
  if (M.FromProc >= 0)
    std::tie(KeepRow, KeepCol) = A.coordsOf(M.FromProc);
  if (M.ToProc >= 0) {
    auto [TR, TC] = B.coordsOf(M.ToProc);
    KeepX = T ? TC : TR; // the target line the source's rows land on
    KeepY = T ? TR : TC;
  }
  auto RowLine = [&](const Layout2D &L) {
    return [&L](int64_t P) { return L.gridRowOf(P); };
  };
  auto ColLine = [&](const Layout2D &L) {
    return [&L](int64_t P) { return L.gridColOf(P); };
  };
  const Layout &BX = T ? B.cols() : B.rows(), &BY = T ? B.rows() : B.cols();
  std::function<int64_t(int64_t)> XLine = RowLine(B), YLine = ColLine(B);
  if (T)
    std::swap(XLine, YLine);
  const int64_t XStart = T ? R.TargetCol : R.TargetRow;
  const int64_t YStart = T ? R.TargetRow : R.TargetCol;
  if (R.Rows > 0 && R.Cols > 0) {
    // A band's counts need every pair's runs.
    RowAxis = cutAxis(A.rows(), RowLine(A), R.SourceRow, BX, XLine, XStart,
                      R.Rows, KeepRow, KeepX, R.banded());
    ColAxis = cutAxis(A.cols(), ColLine(A), R.SourceCol, BY, YLine, YStart,
                      R.Cols, KeepCol, KeepY, R.banded());
  }
  Grid.P = A.procs();
  Grid.Q = B.procs();
  for (const auto &[RowPair, RowCount] : RowAxis.Counts)
    for (const auto &[ColPair, ColCount] : ColAxis.Counts) {
      const int64_t Src = A.procAt(RowPair.first, ColPair.first);
      const int64_t Dst = T ? B.procAt(ColPair.second, RowPair.second)
                            : B.procAt(RowPair.second, ColPair.second);
      int64_t Count = RowCount * ColCount;
      if (R.banded()) {
        Count = 0;
        for (const AxisRun &X : RowAxis.Runs.at(RowPair))
          for (const AxisRun &Y : ColAxis.Runs.at(ColPair))
            Count += bandCount(X.Pos, X.Len, Y.Pos, Y.Len, R.DiagonalBegin,
                               R.DiagonalEnd);
        if (Count == 0)
          continue;
      }
      Grid.Messages.push_back({Src, Dst, Count});
    }
  std::sort(Grid.Messages.begin(), Grid.Messages.end(),
            [](const Message &X, const Message &Y) {
              return X.Src != Y.Src ? X.Src < Y.Src : X.Dst < Y.Dst;
            });
}

MessageCutter MatrixMessages::cutter(int64_t Src, int64_t Dst) const {
  const Layout2D &A = M.From.Layout, &B = M.To.Layout;
  const bool T = M.Region.Transpose;
  auto [SR, SC] = A.coordsOf(Src);
  auto [TR, TC] = B.coordsOf(Dst);
  const std::vector<AxisRun> &Rows = RowAxis.Runs.at({SR, T ? TC : TR});
  const std::vector<AxisRun> &Cols = ColAxis.Runs.at({SC, T ? TR : TC});
  // Offsets: the source's local (row, column) at Row * SRow + Col * SCol;
  // the target's, for the source's local row and column, at
  // Row * DRow + Col * DCol (transposed: its rows are the source's columns).
  auto [SRow, SCol] = strides(A, leadingDimOf(M.From, Src, M.FromProc));
  auto [BRow, BCol] = strides(B, leadingDimOf(M.To, Dst, M.ToProc));
  const int64_t DRow = T ? BCol : BRow, DCol = T ? BRow : BCol;
  if (M.Region.banded())
    return MessageCutter(bandSegments(Rows, Cols, SRow, SCol, DRow, DCol,
                                      M.Region.DiagonalBegin,
                                      M.Region.DiagonalEnd));
  int64_t Height = 0;
  for (const AxisRun &R : Rows)
    Height += R.Len;
  const bool Contiguous = SRow == 1 && DRow == 1;
  std::vector<TriSegment> Segments;
  int64_t Pos = 0;
  for (const AxisRun &C : Cols) {
    TriSegment S;
    S.Repeat = C.Len;
    S.SrcStride = SCol;
    S.DstStride = DCol;
    S.PosStride = Height;
    S.PerRepeat = Height;
    int64_t P = Pos;
    for (const AxisRun &R : Rows) {
      if (Contiguous) {
        S.Runs.push_back(
            {R.Src + C.Src * SCol, R.Dst + C.Dst * DCol, P, R.Len});
      } else {
        for (int64_t I = 0; I < R.Len; ++I)
          S.Runs.push_back({(R.Src + I) * SRow + C.Src * SCol,
                            (R.Dst + I) * DRow + C.Dst * DCol, P + I, 1});
      }
      P += R.Len;
    }
    Pos += C.Len * Height;
    Segments.push_back(std::move(S));
  }
  return MessageCutter(std::move(Segments));
}

} // namespace detail
} // namespace redist
