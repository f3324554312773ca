//===- Schedulers2D.cpp - Schedules for matrices --------------------------===//
//
// The rank-2 case of ArraySchedulers.cpp, which proves what a product of
// per-axis schedules is and costs.
//
//===----------------------------------------------------------------------===//

#include "redist/Schedulers2D.h"

#include "redist/Error.h"

#include <string>

namespace redist {

namespace {

/// G as the rank-2 array grid it is.
ArrayGrid arrayGridOf(const CommGrid2D &G) {
  ArrayGrid A;
  A.Axes.resize(2);
  A.Axes[0].Lines = G.Rows;
  A.Axes[1] = {1, 1, G.Cols};
  A.Whole = G.Whole;
  A.IdOfTuple = G.IdOfPair;
  return A;
}

/// The same shape on both sides, or InvalidArgument (Why, when given).
bool sameShape(const Layout2D &From, const Layout2D &To, std::string *Why) {
  if (From.numRows() == To.numRows() && From.numCols() == To.numCols())
    return true;
  const std::string Text = "the source is " + std::to_string(From.numRows()) +
                           " x " + std::to_string(From.numCols()) +
                           " and the target " + std::to_string(To.numRows()) +
                           " x " + std::to_string(To.numCols());
  if (Why)
    *Why = Text;
  return false;
}

ArrayRegion wholeRegion() { return ArrayRegion{{0, 1}, {}, {0, 0}, {0, 0}}; }

} // namespace

std::string algorithm2DName(Algorithm2D A) { return arrayAlgorithmName(A); }

std::optional<Algorithm2D> parseAlgorithm2D(std::string_view Name) {
  return parseArrayAlgorithm(Name);
}

std::vector<Algorithm2D> allAlgorithms2D() { return allArrayAlgorithms(); }

bool algorithm2DApplies(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        std::string *Why) {
  if (!sameShape(From, To, Why))
    return false;
  ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  ArrayRegion R = wholeRegion();
  R.Extents = F.extents();
  return arrayAlgorithmApplies(A, F, T, R, Why);
}

Schedule productSchedule(const CommGrid2D &G, const Schedule &RowSchedule,
                         const Schedule &ColSchedule) {
  return productSchedule(arrayGridOf(G), {RowSchedule, ColSchedule});
}

AutoChoice chooseSchedule2D(const Layout2D &From, const Layout2D &To,
                            const CommGrid2D &G, const CostModel &Model) {
  std::string Why;
  if (!sameShape(From, To, &Why))
    throw InvalidArgument("algorithm 'auto' does not apply: " + Why);
  ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  ArrayRegion R = wholeRegion();
  R.Extents = F.extents();
  return chooseArraySchedule(F, T, R, arrayGridOf(G), Model);
}

Schedule makeSchedule2D(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        const CommGrid2D &G, const CostModel &Model) {
  std::string Why;
  if (!sameShape(From, To, &Why))
    throw InvalidArgument("algorithm '" + algorithm2DName(A) +
                          "' does not apply: " + Why);
  ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  ArrayRegion R = wholeRegion();
  R.Extents = F.extents();
  return makeArraySchedule(A, F, T, R, arrayGridOf(G), Model);
}

} // namespace redist
