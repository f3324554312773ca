//===- Assignment.h - Least-cost perfect matching under changing costs ----===//
//
// Private to the library. overlap-split peels perfect matchings off a dense
// square matrix whose costs change a little between two matchings (an entry
// runs out, a message starts or stops being in progress). Assignment keeps
// the Hungarian method's dual potentials u, v (u(i) + v(j) <= cost(i, j),
// with equality on the assigned pairs) across those changes, so that each
// new matching re-inserts only the rows whose pair changed, O(n^2) each,
// instead of solving from scratch in O(n^3). StepMatcher (StepMatcher.h) is
// for sparse graphs whose edges disappear once matched; here every entry
// stays until it runs out and the matching must be perfect.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_ASSIGNMENT_H
#define REDIST_LIB_SCHEDULERS_ASSIGNMENT_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

class Assignment {
public:
  /// An N x N problem, every cost 0 and no row assigned.
  explicit Assignment(int32_t N);

  int32_t size() const { return N; }
  int64_t cost(int32_t Row, int32_t Col) const {
    return Cost[static_cast<size_t>(Row) * N + Col];
  }
  /// Changes one cost; the rows whose assigned pair stops being tight lose
  /// it, and solve() assigns them again.
  void setCost(int32_t Row, int32_t Col, int64_t Value);
  /// Assigns every unassigned row: afterwards the assignment is perfect and
  /// of least total cost.
  void solve();
  /// The column of Row (after solve()).
  int32_t columnOf(int32_t Row) const { return ColOfRow[Row]; }
  /// Columns scanned by solve() so far: what the matchings cost.
  int64_t work() const { return Work; }

private:
  void insertRow(int32_t Row);
  void unassign(int32_t Row);

  int32_t N;
  std::vector<int64_t> Cost;
  std::vector<int64_t> U, V; ///< potentials; V[0] unused (columns from 1)
  /// RowOfCol[j], j in 1..N: the row (1-based) assigned to column j - 1, 0 if
  /// none; RowOfCol[0] is the row being inserted.
  std::vector<int32_t> RowOfCol;
  std::vector<int32_t> ColOfRow; ///< 0-based, -1 if unassigned
  // Scratch of insertRow.
  std::vector<int64_t> MinSlack;
  std::vector<int32_t> Way;
  std::vector<char> Used;
  int64_t Work = 0;
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_ASSIGNMENT_H
