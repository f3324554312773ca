//===- Schedulers.cpp - Algorithm names and the makeSchedule dispatcher ---===//
//
// makeSchedule checks that the algorithm applies, runs it, and checks the
// result with validateSchedule before handing it out, so that no caller ever
// executes an invalid schedule. auto runs every algorithm that applies and
// keeps the schedule the cost model predicts fastest.
//
//===----------------------------------------------------------------------===//

#include "redist/Schedulers.h"

#include "redist/Error.h"
#include "redist/MinCost.h"
#include "schedulers/GenBlockSchedulers.h"
#include "schedulers/SchedulerImpls.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace redist {

namespace detail {

bool bothBlockCyclic(const char *Name, const Layout &From, const Layout &To,
                     std::string *Why) {
  for (const Layout *L : {&From, &To}) {
    if (L->isBlockCyclic())
      continue;
    if (Why)
      *Why = std::string(Name) + " needs block-cyclic layouts (the " +
             (L == &From ? "source" : "target") + " is " +
             L->distribution().str() + ")";
    return false;
  }
  return true;
}

void requireGridOfLayouts(const char *Name, const Layout &From,
                          const Layout &To, const CommGrid &G) {
  if (G.P != From.procs() || G.Q != To.procs())
    throw InvalidArgument(std::string(Name) + ": the grid is " +
                          std::to_string(G.P) + " x " + std::to_string(G.Q) +
                          ", the layouts have " + std::to_string(From.procs()) +
                          " and " + std::to_string(To.procs()) + " processes");
}

} // namespace detail

namespace {

/// The caterpillar's schedule holds max(P, Q) step lists, empty or not; past
/// this many processes on one side that alone would take gigabytes.
constexpr int64_t MaxCaterpillarSteps = int64_t(1) << 24;

struct NamedAlgorithm {
  Algorithm Algo;
  const char *Name;
};

constexpr NamedAlgorithm Names[] = {
    {Algorithm::Auto, "auto"},
    {Algorithm::Caterpillar, "caterpillar"},
    {Algorithm::WalkerOtto, "walker_otto"},
    {Algorithm::Classes, "classes"},
    {Algorithm::Stepwise, "stepwise"},
    {Algorithm::Greedy, "greedy"},
    {Algorithm::Scpa, "scpa"},
    {Algorithm::Chain, "chain"},
    {Algorithm::MinCost, "mincost"},
    {Algorithm::MinCostSteps, "mincost-steps"},
};

void setWhy(std::string *Why, const std::string &Text) {
  if (Why)
    *Why = Text;
}

Schedule runAlgorithm(Algorithm A, const Layout &From, const Layout &To,
                      const CommGrid &G) {
  switch (A) {
  case Algorithm::Caterpillar:
    return detail::scheduleCaterpillar(G);
  case Algorithm::WalkerOtto:
    return detail::scheduleWalkerOtto(From, To, G);
  case Algorithm::Classes:
    return detail::scheduleClasses(From, To, G);
  case Algorithm::Stepwise:
    return detail::scheduleStepwise(G);
  case Algorithm::Greedy:
    return detail::scheduleGreedy(G);
  case Algorithm::Scpa:
    return detail::scheduleScpa(G);
  case Algorithm::Chain:
    return detail::scheduleChain(G);
  case Algorithm::MinCost:
    return makeMinCostSchedule(G);
  case Algorithm::MinCostSteps: {
    MinCostOptions Opts;
    Opts.Steps = std::max<int64_t>(G.maxDegree(), 1);
    return makeMinCostSchedule(G, Opts);
  }
  case Algorithm::Auto:
    break;
  }
  throw std::logic_error("runAlgorithm: auto is not an algorithm");
}

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
      std::string(algorithmName(Best.Algo)) + ": predicted " +
      showSeconds(Best.Seconds) + " = " + showSeconds(Model.Alpha) + " * " +
      std::to_string(S.NonEmptySteps) + " steps + " + showSeconds(Model.Gamma) +
      " * " + std::to_string(S.CriticalMessages) + " critical messages + " +
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
    Why += ", tied with " + std::string(algorithmName(Next->Algo)) +
           " (fewer steps in all, or earlier in the list, wins)";
  else
    Why += ", the least of " + std::to_string(Weighed) +
           " candidates (next: " + algorithmName(Next->Algo) + ", " +
           showSeconds(Next->Seconds) + ")";
  if (StoppedEarly)
    Why += "; it meets every lower bound, so auto stopped there";
  return Why;
}

} // namespace

// auto: every applicable algorithm, in allAlgorithms() order; the smallest
// prediction wins. Ties go to the schedule with fewer steps in all (the
// caterpillar's empty steps still cost a round of the loop), then to the
// earlier one. A candidate whose own arithmetic fails is skipped: another
// one can still schedule the grid. mincost and mincost-steps, last, start
// from the stepwise and greedy schedules already computed, so auto pays only
// for their search (bounded, and skipped on large grids). A schedule that
// meets every lower bound (steps, cost and critical messages) cannot be
// beaten, so the search stops there.
AutoChoice chooseSchedule(const Layout &From, const Layout &To,
                          const CommGrid &G, const CostModel &Model) {
  std::string Why;
  if (!algorithmApplies(Algorithm::Auto, From, To, &Why))
    throw InvalidArgument("algorithm 'auto' does not apply: " + Why);
  detail::requireGridOfLayouts("auto", From, To, G);
  AutoChoice Result;
  std::optional<std::size_t> Best;
  std::string FirstFailure;
  std::optional<Schedule> StepwiseSeed, GreedySeed;
  bool StoppedEarly = false;
  for (Algorithm A : allAlgorithms()) {
    if (A == Algorithm::Auto || !algorithmApplies(A, From, To))
      continue;
    AutoCandidate C;
    C.Algo = A;
    Schedule S;
    try {
      if (A == Algorithm::MinCost || A == Algorithm::MinCostSteps) {
        // Reuse the matchers' schedules as seeds rather than recompute them.
        if (!StepwiseSeed)
          continue; // stepwise failed; so would mincost
        MinCostOptions Opts;
        if (A == Algorithm::MinCostSteps)
          Opts.Steps = std::max<int64_t>(G.maxDegree(), 1);
        std::vector<Schedule> Seeds{*StepwiseSeed};
        if (GreedySeed)
          Seeds.push_back(*GreedySeed);
        S = detail::improveMinCost(G, Opts, std::move(Seeds), nullptr);
      } else {
        S = runAlgorithm(A, From, To, G);
      }
    } catch (const InvalidArgument &E) {
      C.Failure = E.what();
      if (FirstFailure.empty())
        FirstFailure = std::string(algorithmName(A)) + ": " + E.what();
      Result.Candidates.push_back(std::move(C));
      continue;
    }
    if (A == Algorithm::Stepwise)
      StepwiseSeed = S;
    if (A == Algorithm::Greedy)
      GreedySeed = S;
    C.Stats = measureSchedule(G, S);
    C.Seconds = Model.predict(C.Stats);
    if (!Best || C.Seconds < Result.Candidates[*Best].Seconds ||
        (C.Seconds == Result.Candidates[*Best].Seconds &&
         C.Stats.Steps < Result.Candidates[*Best].Stats.Steps)) {
      Best = Result.Candidates.size();
      Result.Chosen = std::move(S);
    }
    const ScheduleStats &St = C.Stats;
    Result.Candidates.push_back(std::move(C));
    if (St.Steps <= St.StepsLowerBound && St.Cost <= St.CostLowerBound &&
        St.CriticalMessages <= St.CriticalLowerBound) {
      StoppedEarly = true;
      break;
    }
  }
  if (!Best)
    throw InvalidArgument("auto: no algorithm could schedule this grid (" +
                          FirstFailure + ")");
  Result.Best = *Best;
  Result.Chosen.Choice =
      explainChoice(Result.Candidates, Result.Candidates[*Best], Model,
                    StoppedEarly && *Best + 1 == Result.Candidates.size());
  if (std::optional<std::string> Problem = validateSchedule(G, Result.Chosen))
    throw std::logic_error(std::string("internal error: the ") +
                           Result.Chosen.Algorithm +
                           " schedule is invalid: " + *Problem);
  return Result;
}

const char *algorithmName(Algorithm A) {
  for (const NamedAlgorithm &N : Names)
    if (N.Algo == A)
      return N.Name;
  throw std::logic_error("algorithmName: unknown algorithm");
}

std::optional<Algorithm> parseAlgorithm(std::string_view Name) {
  for (const NamedAlgorithm &N : Names)
    if (Name == N.Name)
      return N.Algo;
  return std::nullopt;
}

std::vector<Algorithm> allAlgorithms() {
  std::vector<Algorithm> All;
  for (const NamedAlgorithm &N : Names)
    All.push_back(N.Algo);
  return All;
}

bool algorithmApplies(Algorithm A, const Layout &From, const Layout &To,
                      std::string *Why) {
  if (From.extent() != To.extent()) {
    setWhy(Why, "the source has " + std::to_string(From.extent()) +
                    " elements and the target " + std::to_string(To.extent()));
    return false;
  }
  switch (A) {
  case Algorithm::Caterpillar:
    // Its max(P, Q) steps exist even when empty: keep them countable.
    if (std::max(From.procs(), To.procs()) > MaxCaterpillarSteps) {
      setWhy(Why, "the caterpillar takes max(P, Q) = " +
                      std::to_string(std::max(From.procs(), To.procs())) +
                      " steps, more than " +
                      std::to_string(MaxCaterpillarSteps));
      return false;
    }
    return true;
  case Algorithm::WalkerOtto:
    return detail::walkerOttoApplies(From, To, Why);
  case Algorithm::Classes:
    return detail::classesApplies(From, To, Why);
  case Algorithm::Scpa:
  case Algorithm::Chain:
    return detail::chainSchedulersApply(From, To, Why);
  case Algorithm::Auto:
  case Algorithm::Stepwise:
  case Algorithm::Greedy:
  case Algorithm::MinCost:
  case Algorithm::MinCostSteps:
    return true; // any grid
  }
  throw std::logic_error("algorithmApplies: unknown algorithm");
}

Schedule makeSchedule(Algorithm A, const Layout &From, const Layout &To,
                      const CommGrid &G, const CostModel &Model) {
  std::string Why;
  if (!algorithmApplies(A, From, To, &Why))
    throw InvalidArgument(std::string("algorithm '") + algorithmName(A) +
                          "' does not apply: " + Why);
  if (G.P != From.procs() || G.Q != To.procs())
    throw InvalidArgument(
        "the grid is for " + std::to_string(G.P) + " x " + std::to_string(G.Q) +
        " processes but the layouts have " + std::to_string(From.procs()) +
        " and " + std::to_string(To.procs()));
  if (A == Algorithm::Auto)
    return chooseSchedule(From, To, G, Model).Chosen; // validated there
  Schedule S = runAlgorithm(A, From, To, G);
  if (std::optional<std::string> Problem = validateSchedule(G, S))
    throw std::logic_error(std::string("internal error: the ") + S.Algorithm +
                           " schedule is invalid: " + *Problem);
  return S;
}

} // namespace redist
