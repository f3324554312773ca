//===- Assignment.cpp - Least-cost perfect matching under changing costs --===//
//
// The row-by-row Hungarian method: inserting a row grows a tree of tight
// pairs from it, Dijkstra-like on reduced costs, until it reaches a free
// column, then flips the path. It needs only feasible potentials and tight
// assigned pairs, which setCost keeps: raising a cost keeps the potentials
// feasible (a pair it touches that was assigned is no longer tight, so its
// row is freed); lowering one below u(i) + v(j) lowers u(i) to match, which
// keeps every other constraint of the row and frees the row unless the pair
// was its own.
//
//===----------------------------------------------------------------------===//

#include "Assignment.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace redist {
namespace detail {

Assignment::Assignment(int32_t N)
    : N(N), Cost(static_cast<size_t>(N) * N, 0), U(N + 1, 0), V(N + 1, 0),
      RowOfCol(N + 1, 0), ColOfRow(N, -1), MinSlack(N + 1), Way(N + 1),
      Used(N + 1) {}

void Assignment::unassign(int32_t Row) {
  if (ColOfRow[Row] < 0)
    return;
  RowOfCol[ColOfRow[Row] + 1] = 0;
  ColOfRow[Row] = -1;
}

void Assignment::setCost(int32_t Row, int32_t Col, int64_t Value) {
  int64_t &C = Cost[static_cast<size_t>(Row) * N + Col];
  const bool Assigned = ColOfRow[Row] == Col;
  const int64_t Sum = U[Row + 1] + V[Col + 1];
  if (Value >= C) {
    if (Assigned && Value != C)
      unassign(Row);
  } else if (Value < Sum) {
    U[Row + 1] -= Sum - Value;
    if (!Assigned)
      unassign(Row);
  } else if (Assigned) {
    unassign(Row); // lowered, but still above the potentials: not tight
  }
  C = Value;
}

void Assignment::solve() {
  for (int32_t Row = 0; Row < N; ++Row)
    if (ColOfRow[Row] < 0)
      insertRow(Row);
}

void Assignment::insertRow(int32_t Row) {
  constexpr int64_t Infinite = std::numeric_limits<int64_t>::max();
  RowOfCol[0] = Row + 1;
  int32_t Col0 = 0;
  std::fill(MinSlack.begin(), MinSlack.end(), Infinite);
  std::fill(Used.begin(), Used.end(), 0);
  do {
    Work += N + 1;
    Used[Col0] = 1;
    const int32_t Row0 = RowOfCol[Col0];
    int64_t Delta = Infinite;
    int32_t Next = 0;
    const int64_t *Costs = &Cost[static_cast<size_t>(Row0 - 1) * N];
    for (int32_t Col = 1; Col <= N; ++Col) {
      if (Used[Col])
        continue;
      const int64_t Slack = Costs[Col - 1] - U[Row0] - V[Col];
      if (Slack < MinSlack[Col]) {
        MinSlack[Col] = Slack;
        Way[Col] = Col0;
      }
      if (MinSlack[Col] < Delta) {
        Delta = MinSlack[Col];
        Next = Col;
      }
    }
    for (int32_t Col = 0; Col <= N; ++Col) {
      if (Used[Col]) {
        U[RowOfCol[Col]] += Delta;
        V[Col] -= Delta;
      } else {
        MinSlack[Col] -= Delta;
      }
    }
    Col0 = Next;
  } while (RowOfCol[Col0] != 0);
  do {
    const int32_t Prev = Way[Col0];
    RowOfCol[Col0] = RowOfCol[Prev];
    ColOfRow[RowOfCol[Col0] - 1] = Col0 - 1;
    Col0 = Prev;
  } while (Col0 != 0);
}

} // namespace detail
} // namespace redist
