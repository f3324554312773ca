//===- redist/Schedulers2D.h - Schedules for matrices ---------------------===//
//
// The matrix spelling of redist/ArraySchedulers.h: a matrix is the rank-2
// array of arrayLayoutOf (redist/Distribution2D.h), its grid the rank-2
// array grid (matrixGrid), and its algorithms the array's. Nothing here
// but that conversion.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULERS2D_H
#define REDIST_SCHEDULERS2D_H

#include "redist/ArrayGrid.h"
#include "redist/ArraySchedulers.h"
#include "redist/Distribution2D.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// A matrix's algorithm is an array's.
using Algorithm2D = ArrayAlgorithm;

/// "auto", "stepwise", ..., "product(classes)", ...
inline std::string algorithm2DName(Algorithm2D A) {
  return arrayAlgorithmName(A);
}
inline std::optional<Algorithm2D> parseAlgorithm2D(std::string_view Name) {
  return parseArrayAlgorithm(Name);
}
/// auto, the direct algorithms, then product(A) for every 1-D A but auto.
inline std::vector<Algorithm2D> allAlgorithms2D() {
  return allArrayAlgorithms();
}

/// The grid of the whole matrix From -> To: computeArrayGrid of the two
/// rank-2 arrays, which throws InvalidArgument (naming the dimension) when
/// their sizes differ.
inline ArrayGrid matrixGrid(const Layout2D &From, const Layout2D &To) {
  return computeArrayGrid(arrayLayoutOf(From), arrayLayoutOf(To));
}

/// Whether A can schedule the whole matrix From -> To; when not, Why (if
/// given) says why.
inline bool algorithm2DApplies(Algorithm2D A, const Layout2D &From,
                               const Layout2D &To, std::string *Why = nullptr) {
  const ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  ArrayRegion Whole;
  try {
    Whole = resolveRegion(F, T);
  } catch (const InvalidArgument &E) {
    if (Why)
      *Why = E.what();
    return false;
  }
  return arrayAlgorithmApplies(A, F, T, Whole, Why);
}

/// What makeSchedule2D({Algorithm::Auto, false}, ...) does, with the
/// candidates (each named by algorithm2DName).
inline AutoChoice chooseSchedule2D(const Layout2D &From, const Layout2D &To,
                                   const ArrayGrid &G,
                                   const CostModel &Model = CostModel()) {
  const ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  return chooseArraySchedule(F, T, resolveRegion(F, T), G, Model);
}

/// Schedules G = matrixGrid(From, To) with A: makeArraySchedule of the
/// whole rank-2 arrays. Throws InvalidArgument when A does not apply.
inline Schedule makeSchedule2D(Algorithm2D A, const Layout2D &From,
                               const Layout2D &To, const ArrayGrid &G,
                               const CostModel &Model = CostModel()) {
  const ArrayLayout F = arrayLayoutOf(From), T = arrayLayoutOf(To);
  return makeArraySchedule(A, F, T, resolveRegion(F, T), G, Model);
}

} // namespace redist

#endif // REDIST_SCHEDULERS2D_H
