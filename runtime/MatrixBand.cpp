//===- MatrixBand.cpp - The messages of a band of diagonals ---------------===//
//
// See MatrixMessages.h. A trapezoid is a band: per column j the rows that
// move are [j + Begin, j + End), one interval. Counting is closed-form per
// pair of runs; a message's segments repeat its whole columns as a
// rectangle's do and cut only the columns an edge of the band crosses.
//
//===----------------------------------------------------------------------===//
#include "MatrixMessages.h"

#include <algorithm>

namespace redist {
namespace detail {
namespace {

/// The sum of min(max(X, 0), L) for X in [A, B).
int64_t sumClamped(int64_t A, int64_t B, int64_t L) {
  int64_t Sum = 0;
  const int64_t Lo = std::max<int64_t>(A, 0), Hi = std::min(B, L + 1);
  if (Hi > Lo)
    Sum += (Lo + Hi - 1) * (Hi - Lo) / 2;
  const int64_t Top = std::max(A, L + 1);
  if (B > Top)
    Sum += L * (B - Top);
  return Sum;
}

/// Diagonal D, kept where the arithmetic cannot overflow: i - j of the
/// runs lies in (-(C0 + CL), R0 + RL), so D beyond it means "all" or "none".
int64_t clampDiagonal(int64_t D, int64_t Low, int64_t High) {
  return std::min(std::max(D, Low), High);
}

} // namespace

int64_t bandCount(int64_t R0, int64_t RL, int64_t C0, int64_t CL, int64_t Begin,
                  int64_t End) {
  const int64_t Low = R0 - (C0 + CL), High = R0 + RL - C0;
  Begin = clampDiagonal(Begin, Low, High);
  End = clampDiagonal(End, Low, High);
  if (End <= Begin)
    return 0;
  // Elements with i - j < D: per column j, clamp(j + D - R0, 0, RL).
  auto Below = [&](int64_t D) {
    return sumClamped(C0 + D - R0, C0 + D - R0 + CL, RL);
  };
  return Below(End) - Below(Begin);
}

std::vector<TriSegment> bandSegments(const std::vector<AxisRun> &Rows,
                                     const std::vector<AxisRun> &Cols,
                                     int64_t SRow, int64_t SCol, int64_t DRow,
                                     int64_t DCol, int64_t Begin, int64_t End) {
  std::vector<TriSegment> Segments;
  if (Rows.empty() || Cols.empty())
    return Segments;
  const int64_t First = Rows.front().Pos,
                Last = Rows.back().Pos + Rows.back().Len;
  const int64_t Span = Last + Cols.back().Pos + Cols.back().Len + 1;
  Begin = clampDiagonal(Begin, -Span, Span);
  End = clampDiagonal(End, -Span, Span);
  const bool Contiguous = SRow == 1 && DRow == 1;
  int64_t Height = 0;
  for (const AxisRun &R : Rows)
    Height += R.Len;
  int64_t Pos = 0;
  // Rows [Lo, Hi) of the region, of source column C.Src + T: appended to S
  // from message position Pos on.
  auto AddRows = [&](TriSegment &S, const AxisRun &C, int64_t T, int64_t Lo,
                     int64_t Hi) {
    const int64_t SrcCol = (C.Src + T) * SCol, DstCol = (C.Dst + T) * DCol;
    for (const AxisRun &R : Rows) {
      const int64_t From = std::max(Lo, R.Pos),
                    To = std::min(Hi, R.Pos + R.Len);
      if (From >= To)
        continue;
      const int64_t Skip = From - R.Pos, Len = To - From;
      if (Contiguous) {
        S.Runs.push_back({R.Src + Skip + SrcCol, R.Dst + Skip + DstCol,
                          Pos + S.PerRepeat, Len});
      } else {
        for (int64_t I = 0; I < Len; ++I)
          S.Runs.push_back({(R.Src + Skip + I) * SRow + SrcCol,
                            (R.Dst + Skip + I) * DRow + DstCol,
                            Pos + S.PerRepeat + I, 1});
      }
      S.PerRepeat += Len;
    }
  };
  for (const AxisRun &C : Cols) {
    for (int64_t T = 0; T < C.Len;) {
      const int64_t J = C.Pos + T;
      const int64_t Lo = J + Begin, Hi = J + End;
      if (Lo <= First && Hi >= Last) {
        // Whole columns while J + Begin <= First too (J + End only grows).
        const int64_t N = std::min(C.Len - T, First - Begin - J + 1);
        TriSegment S;
        AddRows(S, C, T, First, Last);
        S.Repeat = N;
        S.SrcStride = SCol;
        S.DstStride = DCol;
        S.PosStride = Height;
        Pos += N * Height;
        Segments.push_back(std::move(S));
        T += N;
        continue;
      }
      TriSegment S;
      AddRows(S, C, T, Lo, Hi);
      S.PosStride = S.PerRepeat;
      Pos += S.PerRepeat;
      if (!S.Runs.empty())
        Segments.push_back(std::move(S));
      ++T;
    }
  }
  return Segments;
}

} // namespace detail
} // namespace redist
