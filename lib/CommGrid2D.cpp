//===- CommGrid2D.cpp - Who sends how much to whom, for matrices ----------===//

#include "redist/CommGrid2D.h"

#include "BlockCyclicMath.h"
#include "redist/Error.h"
#include "redist/Limits.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

using namespace redist;

namespace {

void checkSameShape(const Layout2D &From, const Layout2D &To) {
  if (From.numRows() != To.numRows() || From.numCols() != To.numCols())
    throw InvalidArgument(
        "source and target matrices differ: " + std::to_string(From.numRows()) +
        " x " + std::to_string(From.numCols()) + " vs " +
        std::to_string(To.numRows()) + " x " + std::to_string(To.numCols()));
  // Every message length is a product of two 1-D lengths, at most M * N.
  if (!detail::checkedMul(From.numRows(), From.numCols()))
    throw InvalidArgument("a " + std::to_string(From.numRows()) + " x " +
                          std::to_string(From.numCols()) +
                          " matrix has more than 2^63 elements");
}

/// The product of a 1-D row and a 1-D column of messages, over process ids.
/// ToIds maps the partner's 1-D ranks to a process id of the partner's grid.
template <typename ToId>
std::vector<Message> productOf(const std::vector<Message> &RowPart,
                               const std::vector<Message> &ColPart, int64_t Own,
                               bool OwnIsSource, ToId &&PartnerId) {
  std::vector<Message> Out;
  Out.reserve(RowPart.size() * ColPart.size());
  for (const Message &R : RowPart)
    for (const Message &C : ColPart) {
      int64_t Partner =
          OwnIsSource ? PartnerId(R.Dst, C.Dst) : PartnerId(R.Src, C.Src);
      int64_t Len = R.Len * C.Len;
      Out.push_back(OwnIsSource ? Message{Own, Partner, Len}
                                : Message{Partner, Own, Len});
    }
  std::sort(Out.begin(), Out.end(), [&](const Message &X, const Message &Y) {
    return OwnIsSource ? X.Dst < Y.Dst : X.Src < Y.Src;
  });
  return Out;
}

} // namespace

CommGrid2D redist::computeGrid2D(const Layout2D &From, const Layout2D &To) {
  checkSameShape(From, To);
  CommGrid2D G;
  G.Rows = computeGrid(From.rows(), To.rows());
  G.Cols = computeGrid(From.cols(), To.cols());
  const int64_t NumRows = static_cast<int64_t>(G.Rows.Messages.size());
  const int64_t NumCols = static_cast<int64_t>(G.Cols.Messages.size());
  std::optional<int64_t> Total = detail::checkedMul(NumRows, NumCols);
  if (!Total || *Total > MaxGridMessages)
    throw InvalidArgument("the 2-D grid has " + std::to_string(NumRows) +
                          " x " + std::to_string(NumCols) +
                          " messages, more than " +
                          std::to_string(MaxGridMessages));
  G.Whole.P = From.procs();
  G.Whole.Q = To.procs();
  std::vector<Message> Pairs;
  Pairs.reserve(static_cast<size_t>(*Total));
  for (const Message &R : G.Rows.Messages)
    for (const Message &C : G.Cols.Messages)
      Pairs.push_back({From.procOfRanks(R.Src, C.Src),
                       To.procOfRanks(R.Dst, C.Dst), R.Len * C.Len});
  // Pair index RowId * NumCols + ColId, sorted by (Src, Dst): a process pair
  // is one (row pair, column pair), so no two entries share it.
  std::vector<int64_t> Order(static_cast<size_t>(*Total));
  std::iota(Order.begin(), Order.end(), int64_t(0));
  std::sort(Order.begin(), Order.end(), [&](int64_t X, int64_t Y) {
    const Message &A = Pairs[static_cast<size_t>(X)];
    const Message &B = Pairs[static_cast<size_t>(Y)];
    return A.Src < B.Src || (A.Src == B.Src && A.Dst < B.Dst);
  });
  G.IdOfPair.resize(static_cast<size_t>(*Total));
  G.Whole.Messages.reserve(static_cast<size_t>(*Total));
  for (size_t Id = 0; Id < Order.size(); ++Id) {
    G.IdOfPair[static_cast<size_t>(Order[Id])] = static_cast<int64_t>(Id);
    G.Whole.Messages.push_back(Pairs[static_cast<size_t>(Order[Id])]);
  }
  return G;
}

std::vector<Message> redist::computeRow2D(const Layout2D &From,
                                          const Layout2D &To, int64_t Src) {
  checkSameShape(From, To);
  auto [GridRow, GridCol] = From.coordsOf(Src);
  return productOf(computeRow(From.rows(), To.rows(), From.rowRankOf(GridRow)),
                   computeRow(From.cols(), To.cols(), From.colRankOf(GridCol)),
                   Src, /*OwnIsSource=*/true, [&](int64_t Row, int64_t Col) {
                     return To.procOfRanks(Row, Col);
                   });
}

std::vector<Message> redist::computeColumn2D(const Layout2D &From,
                                             const Layout2D &To, int64_t Dst) {
  checkSameShape(From, To);
  auto [GridRow, GridCol] = To.coordsOf(Dst);
  return productOf(
      computeColumn(From.rows(), To.rows(), To.rowRankOf(GridRow)),
      computeColumn(From.cols(), To.cols(), To.colRankOf(GridCol)), Dst,
      /*OwnIsSource=*/false,
      [&](int64_t Row, int64_t Col) { return From.procOfRanks(Row, Col); });
}

CommGrid redist::countGrid2DByElements(const Layout2D &From,
                                       const Layout2D &To) {
  checkSameShape(From, To);
  CommGrid G;
  G.P = From.procs();
  G.Q = To.procs();
  std::vector<int64_t> Counts(static_cast<size_t>(G.P * G.Q), 0);
  for (int64_t I = 0; I < From.numRows(); ++I)
    for (int64_t J = 0; J < From.numCols(); ++J)
      ++Counts[static_cast<size_t>(From.toLocal(I, J).Proc * G.Q +
                                   To.toLocal(I, J).Proc)];
  for (int64_t Src = 0; Src < G.P; ++Src)
    for (int64_t Dst = 0; Dst < G.Q; ++Dst)
      if (int64_t Len = Counts[static_cast<size_t>(Src * G.Q + Dst)])
        G.Messages.push_back({Src, Dst, Len});
  return G;
}
