//===- AutoChoice.cpp - How auto picks among candidate schedules ----------===//

#include "AutoChoice.h"

#include "redist/Error.h"

#include <utility>

namespace redist {
namespace detail {

bool AutoChoice::offer(Schedule S) {
  const ScheduleStats Stats = measureSchedule(G, S);
  const double Time = Model.predict(Stats);
  if (Best.Algorithm.empty() || Time < BestTime ||
      (Time == BestTime && Stats.Steps < BestSteps)) {
    Best = std::move(S);
    BestTime = Time;
    BestSteps = Stats.Steps;
  }
  return Stats.Steps <= Stats.StepsLowerBound &&
         Stats.Cost <= Stats.CostLowerBound;
}

void AutoChoice::fail(const std::string &Name, const std::string &What) {
  if (FirstFailure.empty())
    FirstFailure = Name + ": " + What;
}

Schedule AutoChoice::take() {
  if (Best.Algorithm.empty())
    throw InvalidArgument("auto: no algorithm could schedule this grid (" +
                          FirstFailure + ")");
  return std::move(Best);
}

} // namespace detail
} // namespace redist
