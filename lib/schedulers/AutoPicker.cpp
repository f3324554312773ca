//===- AutoPicker.cpp - How auto picks among candidate schedules ----------===//

#include "AutoPicker.h"

#include "SchedulerImpls.h"

#include "redist/Error.h"
#include "redist/MinCost.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace redist {
namespace detail {

namespace {

/// Seconds as people read them: "41.2 us".
std::string showSeconds(double Seconds) {
  const char *Unit = "s";
  double Shown = Seconds;
  for (const char *U : {"ms", "us", "ns", "ps"}) {
    if (Shown == 0 || std::fabs(Shown) >= 1)
      break;
    Shown *= 1e3;
    Unit = U;
  }
  char Text[64];
  std::snprintf(Text, sizeof(Text), "%.3g %s", Shown, Unit);
  return Text;
}

/// Why auto chose Best among the candidates, in one line.
std::string explainChoice(const std::vector<AutoCandidate> &Candidates,
                          const AutoCandidate &Best, const CostModel &Model,
                          bool StoppedEarly) {
  const ScheduleStats &S = Best.Stats;
  std::string Why =
      Best.Name + ": predicted " + showSeconds(Best.Seconds) + " = " +
      showSeconds(Model.Alpha) + " * " + std::to_string(S.NonEmptySteps) +
      " steps + " + showSeconds(Model.Gamma) + " * " +
      std::to_string(S.CriticalMessages) + " critical messages + " +
      showSeconds(Model.beta()) + " * " + std::to_string(S.Cost) + " elements";
  const AutoCandidate *Next = nullptr;
  int Weighed = 0;
  for (const AutoCandidate &C : Candidates) {
    if (!C.Failure.empty())
      continue;
    ++Weighed;
    if (&C != &Best && (!Next || C.Seconds < Next->Seconds))
      Next = &C;
  }
  if (!Next)
    Why += ", the only candidate";
  else if (Next->Seconds == Best.Seconds)
    Why += ", tied with " + Next->Name +
           " (fewer steps in all, or earlier in the list, wins)";
  else
    Why += ", the least of " + std::to_string(Weighed) +
           " candidates (next: " + Next->Name + ", " +
           showSeconds(Next->Seconds) + ")";
  if (StoppedEarly)
    Why += "; it meets every lower bound, so auto stopped there";
  return Why;
}

} // namespace

bool AutoPicker::run(Algorithm Algo, std::string Name, bool OnGrid,
                     const std::function<Schedule()> &Run) {
  const bool Improve =
      OnGrid && (Algo == Algorithm::MinCost || Algo == Algorithm::MinCostSteps);
  if (Improve && !StepwiseSeed)
    return false; // stepwise failed; so would mincost
  Schedule S;
  try {
    if (Improve) {
      MinCostOptions Opts;
      if (Algo == Algorithm::MinCostSteps)
        Opts.Steps = leastStepLimit(G);
      std::vector<Schedule> Seeds{*StepwiseSeed};
      if (GreedySeed)
        Seeds.push_back(*GreedySeed);
      S = improveMinCost(G, Opts, std::move(Seeds), nullptr);
    } else {
      S = Run();
    }
  } catch (const InvalidArgument &E) {
    fail(Algo, std::move(Name), E.what());
    return false;
  }
  ScheduleStats Stats = measureSchedule(G, Bounds, S);
  // A seed serves the candidates after this one, which run only when it
  // meets not every bound (copying 2 million ids cost a few percent).
  if (!meetsBounds(Stats)) {
    if (OnGrid && Algo == Algorithm::Stepwise)
      StepwiseSeed = S;
    if (OnGrid && Algo == Algorithm::Greedy)
      GreedySeed = S;
  }
  return offer(Algo, std::move(Name), std::move(S), Stats);
}

bool AutoPicker::meetsBounds(const ScheduleStats &St) {
  return St.Steps <= St.StepsLowerBound && St.Cost <= St.CostLowerBound &&
         St.CriticalMessages <= St.CriticalLowerBound;
}

bool AutoPicker::offer(Algorithm Algo, std::string Name, Schedule S,
                       const ScheduleStats &Stats) {
  AutoCandidate C;
  C.Algo = Algo;
  C.Name = std::move(Name);
  C.Stats = Stats;
  C.Seconds = Model.predict(C.Stats);
  if (!Best || C.Seconds < Result.Candidates[*Best].Seconds ||
      (C.Seconds == Result.Candidates[*Best].Seconds &&
       C.Stats.Steps < Result.Candidates[*Best].Stats.Steps)) {
    Best = Result.Candidates.size();
    Result.Chosen = std::move(S);
  }
  StoppedEarly = meetsBounds(C.Stats);
  Result.Candidates.push_back(std::move(C));
  return StoppedEarly;
}

void AutoPicker::fail(Algorithm Algo, std::string Name,
                      const std::string &What) {
  if (FirstFailure.empty())
    FirstFailure = Name + ": " + What;
  AutoCandidate C;
  C.Algo = Algo;
  C.Name = std::move(Name);
  C.Failure = What;
  Result.Candidates.push_back(std::move(C));
}

AutoChoice AutoPicker::take() {
  if (!Best)
    throw InvalidArgument("auto: no algorithm could schedule this grid (" +
                          FirstFailure + ")");
  Result.Best = *Best;
  // Auto says it stopped early only when the last candidate, the one that
  // met every bound, is the one it chose.
  Result.Chosen.Choice =
      explainChoice(Result.Candidates, Result.Candidates[*Best], Model,
                    StoppedEarly && *Best + 1 == Result.Candidates.size());
  if (std::optional<std::string> Problem = validateSchedule(G, Result.Chosen))
    throw std::logic_error(std::string("internal error: the ") +
                           Result.Chosen.Algorithm +
                           " schedule is invalid: " + *Problem);
  return std::move(Result);
}

} // namespace detail
} // namespace redist
