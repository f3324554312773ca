//===- redist/Schedulers2D.h - Schedules for matrices ---------------------===//
//
// The matrix spelling of redist/ArraySchedulers.h: a matrix is the rank-2
// array of arrayLayoutOf (redist/Distribution2D.h), and its grid
// (redist/CommGrid2D.h) the rank-2 array grid. Direct algorithms schedule
// the flattened grid; product(A) schedules the rows and the columns with
// the 1-D algorithm A and multiplies them; auto weighs both.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULERS2D_H
#define REDIST_SCHEDULERS2D_H

#include "redist/ArraySchedulers.h"
#include "redist/CommGrid2D.h"
#include "redist/Distribution2D.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// A matrix's algorithm is an array's (redist/ArraySchedulers.h).
using Algorithm2D = ArrayAlgorithm;

/// "auto", "stepwise", ..., "product(classes)", ...
std::string algorithm2DName(Algorithm2D A);
std::optional<Algorithm2D> parseAlgorithm2D(std::string_view Name);
/// auto, the direct algorithms, then product(A) for every 1-D A but auto.
std::vector<Algorithm2D> allAlgorithms2D();

/// Whether A can schedule From -> To; when not, Why (if given) says why.
bool algorithm2DApplies(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        std::string *Why = nullptr);

/// The product of a schedule of G.Rows and one of G.Cols, a schedule of
/// G.Whole named "product(<row algorithm>)" (or "product(<row>,<col>)" when
/// the two differ).
Schedule productSchedule(const CommGrid2D &G, const Schedule &RowSchedule,
                         const Schedule &ColSchedule);

/// What makeSchedule2D({Algorithm::Auto, false}, ...) does, with the
/// candidates (each named by algorithm2DName). Throws as makeSchedule2D.
AutoChoice chooseSchedule2D(const Layout2D &From, const Layout2D &To,
                            const CommGrid2D &G,
                            const CostModel &Model = CostModel());

/// Schedules G, the grid of From -> To, with A. Throws InvalidArgument when
/// A does not apply. The result always passes validateSchedule(G.Whole, ...).
Schedule makeSchedule2D(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        const CommGrid2D &G,
                        const CostModel &Model = CostModel());

} // namespace redist

#endif // REDIST_SCHEDULERS2D_H
