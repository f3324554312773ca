//===- redist/Schedulers2D.h - Schedules for matrices ---------------------===//
//
// A 2-D grid (redist/CommGrid2D.h) is scheduled in one of two ways:
//   direct       its flattened grid over process ids is a plain CommGrid,
//                which caterpillar, stepwise, greedy, mincost and
//                mincost-steps schedule as in 1-D;
//   product(A)   the 1-D algorithm A schedules the row grid and the column
//                grid, and step (a, b) of the product sends every message
//                made of a row message of step a and a column message of
//                step b. This is how the layout-bound algorithms (classes,
//                walker_otto, scpa, chain) reach 2-D.
// auto runs both kinds and keeps the one CostModel::predict says is fastest,
// by the same rule as 1-D auto (chooseSchedule2D says what it weighed).
//
// The product of schedules (ProductSchedule below) has steps_row * steps_col
// steps and costs cost_row * cost_col. It meets the 2-D step bound when both
// factors meet theirs AND the bound is set by the same side (senders, or
// receivers) in both dimensions; likewise for the cost bound. Without that
// condition it need not: see productSchedule's comment, which proves both.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULERS2D_H
#define REDIST_SCHEDULERS2D_H

#include "redist/CommGrid2D.h"
#include "redist/Distribution2D.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// Base is the 1-D algorithm; Product says whether it runs per dimension.
/// {Auto, false} is auto; {Auto, true} does not exist.
struct Algorithm2D {
  Algorithm Base;
  bool Product;
  bool operator==(const Algorithm2D &O) const {
    return Base == O.Base && Product == O.Product;
  }
};

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
