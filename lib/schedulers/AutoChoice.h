//===- AutoChoice.h - How auto picks among candidate schedules -*- C++ -*-===//
//
// auto, in 1-D (Schedulers.cpp) and in 2-D (Schedulers2D.cpp), offers its
// candidates one by one in a fixed order. The smallest CostModel prediction
// wins; ties go to the schedule with fewer steps in all (the caterpillar's
// empty steps still cost a round of the loop), then to the earlier one. A
// candidate that fails is recorded and skipped. A schedule that meets both
// lower bounds (steps and cost) cannot be beaten, so offer says when to stop.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_AUTOCHOICE_H
#define REDIST_LIB_SCHEDULERS_AUTOCHOICE_H

#include "redist/CommGrid.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstdint>
#include <string>

namespace redist {
namespace detail {

class AutoChoice {
public:
  AutoChoice(const CommGrid &G, const CostModel &Model) : G(G), Model(Model) {}

  /// Considers S, a valid schedule of G; true when S meets both lower
  /// bounds, so that no later candidate can be better.
  bool offer(Schedule S);
  /// Records that candidate Name failed with What (the first one is kept).
  void fail(const std::string &Name, const std::string &What);
  /// The chosen schedule. Throws InvalidArgument, naming the first failure,
  /// when no candidate was offered.
  Schedule take();

private:
  const CommGrid &G;
  const CostModel &Model;
  Schedule Best;
  double BestTime = 0;
  int64_t BestSteps = 0;
  std::string FirstFailure;
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_AUTOCHOICE_H
