//===- AutoPicker.h - How auto picks among candidate schedules -*- C++ -*-===//
//
// auto, in 1-D (Schedulers.cpp) and in N-D (ArraySchedulers.cpp), offers its
// candidates one by one in a fixed order. The smallest CostModel prediction
// (alpha * non-empty steps + gamma * critical messages + beta * cost) wins;
// ties go to the schedule with fewer steps in all (the caterpillar's empty
// steps still cost a round of the loop), then to the earlier one. A
// candidate that fails is recorded and skipped. A schedule that meets every
// lower bound (steps, cost and critical messages) cannot be beaten, so offer
// says when to stop. take returns every candidate and, in the chosen
// schedule's Choice, one line that says why it won.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_AUTOPICKER_H
#define REDIST_LIB_SCHEDULERS_AUTOPICKER_H

#include "redist/CommGrid.h"
#include "redist/CostModel.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace redist {
namespace detail {

class AutoPicker {
public:
  AutoPicker(const CommGrid &G, const CostModel &Model)
      : G(G), Model(Model), Bounds(measureGrid(G)) {}

  /// Runs candidate Algo, named Name, and offers its schedule, or records
  /// its failure (an InvalidArgument); true as offer says. OnGrid says that
  /// Algo schedules the picker's grid itself (not a product of 1-D ones):
  /// then the stepwise and greedy schedules are kept, and mincost and
  /// mincost-steps improve them (detail::improveMinCost) instead of calling
  /// Run, which would compute them again; without a stepwise schedule
  /// (stepwise failed, and so would they) they are skipped.
  bool run(Algorithm Algo, std::string Name, bool OnGrid,
           const std::function<Schedule()> &Run);
  /// Records that candidate Algo, named Name, failed with What.
  void fail(Algorithm Algo, std::string Name, const std::string &What);
  /// The choice, its Chosen.Choice set to the reason. Throws InvalidArgument,
  /// naming the first failure, when no candidate was offered.
  AutoChoice take();

private:
  /// Considers S, a valid schedule of G made by the candidate Algo named
  /// Name, of statistics Stats; true when S meets every lower bound, so
  /// that no later candidate can be better.
  bool offer(Algorithm Algo, std::string Name, Schedule S,
             const ScheduleStats &Stats);
  /// Whether a schedule of these statistics meets every lower bound.
  static bool meetsBounds(const ScheduleStats &Stats);

  const CommGrid &G;
  const CostModel &Model;
  const GridBounds Bounds; // shared by every candidate
  std::optional<Schedule> StepwiseSeed, GreedySeed;
  AutoChoice Result;
  std::optional<std::size_t> Best;
  bool StoppedEarly = false;
  std::string FirstFailure;
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_AUTOPICKER_H
