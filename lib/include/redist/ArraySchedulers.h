//===- redist/ArraySchedulers.h - Schedules for arrays of any rank --------===//
//
// An N-D grid (redist/ArrayGrid.h) is scheduled in one of two ways:
//   direct       its flattened grid over process ids is a plain CommGrid,
//                which caterpillar, stepwise, greedy, mincost and
//                mincost-steps schedule as in 1-D (and the overlapped
//                schedulers of redist/OverlapSchedulers.h, overlap and
//                overlap-split, schedule as any grid);
//   product(A)   the 1-D algorithm A schedules each axis's grid, and step
//                (s_0, ..., s_d-1) of the product sends every message made
//                of a message of step s_a of each axis a. This is how the
//                layout-bound algorithms (classes, walker_otto, scpa, chain)
//                reach N-D; it needs whole, unpermuted arrays.
// auto runs both kinds and keeps the one CostModel::predict says is
// fastest, by the same rule as 1-D auto.
//
// A product has prod(steps_a) steps and costs prod(cost_a); it meets the
// N-D step bound when every factor meets its own and the same side
// (senders or receivers) sets every factor's bound (docs/matrices.md).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_ARRAYSCHEDULERS_H
#define REDIST_ARRAYSCHEDULERS_H

#include "redist/ArrayGrid.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// Base is the 1-D algorithm; Product says whether it runs per axis.
/// {Auto, false} is auto; {Auto, true} does not exist.
struct ArrayAlgorithm {
  Algorithm Base;
  bool Product;
  bool operator==(const ArrayAlgorithm &O) const {
    return Base == O.Base && Product == O.Product;
  }
  bool operator!=(const ArrayAlgorithm &O) const { return !(*this == O); }
};

/// "auto", "stepwise", ..., "product(classes)", ...
std::string arrayAlgorithmName(ArrayAlgorithm A);
std::optional<ArrayAlgorithm> parseArrayAlgorithm(std::string_view Name);
/// auto, the direct algorithms, then product(A) for every 1-D A but auto.
std::vector<ArrayAlgorithm> allArrayAlgorithms();

/// Whether A can schedule From -> To with the resolved Region; when not,
/// Why (if given) says why, naming the axis.
bool arrayAlgorithmApplies(ArrayAlgorithm A, const ArrayLayout &From,
                           const ArrayLayout &To, const ArrayRegion &Region,
                           std::string *Why = nullptr);

/// The product of one schedule per axis of G (AxisSchedules[a] schedules
/// G.Axes[a].Lines), a schedule of G.Whole named "product(<algorithm>)"
/// (or "product(<a0>,<a1>,...)" when they differ).
Schedule productSchedule(const ArrayGrid &G,
                         const std::vector<Schedule> &AxisSchedules);

/// What makeArraySchedule({Algorithm::Auto, false}, ...) does, with the
/// candidates (each named by arrayAlgorithmName).
AutoChoice chooseArraySchedule(const ArrayLayout &From, const ArrayLayout &To,
                               const ArrayRegion &Region, const ArrayGrid &G,
                               const CostModel &Model = CostModel());

/// Schedules G, the grid of From -> To with the resolved Region, with A.
/// Throws InvalidArgument when A does not apply. The result always passes
/// validateSchedule(G.Whole, ...).
Schedule makeArraySchedule(ArrayAlgorithm A, const ArrayLayout &From,
                           const ArrayLayout &To, const ArrayRegion &Region,
                           const ArrayGrid &G,
                           const CostModel &Model = CostModel());

} // namespace redist

#endif // REDIST_ARRAYSCHEDULERS_H
