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
#include "redist/Limits.h"
#include "redist/MinCost.h"
#include "schedulers/AutoPicker.h"
#include "schedulers/GenBlockSchedulers.h"
#include "schedulers/SchedulerImpls.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace redist {

namespace detail {

bool schedulesAnyGrid(Algorithm A) {
  switch (A) {
  case Algorithm::Caterpillar:
  case Algorithm::Stepwise:
  case Algorithm::Greedy:
  case Algorithm::MinCost:
  case Algorithm::MinCostSteps:
    return true;
  case Algorithm::Auto:
  case Algorithm::WalkerOtto:
  case Algorithm::Classes:
  case Algorithm::Scpa:
  case Algorithm::Chain:
    break;
  }
  return false;
}

Schedule scheduleAnyGrid(Algorithm A, const CommGrid &G) {
  switch (A) {
  case Algorithm::Caterpillar:
    return scheduleCaterpillar(G);
  case Algorithm::Stepwise:
    return scheduleStepwise(G);
  case Algorithm::Greedy:
    return scheduleGreedy(G);
  case Algorithm::MinCost:
    return makeMinCostSchedule(G);
  case Algorithm::MinCostSteps: {
    MinCostOptions Opts;
    Opts.Steps = leastStepLimit(G);
    return makeMinCostSchedule(G, Opts);
  }
  default:
    break;
  }
  throw std::logic_error(std::string("scheduleAnyGrid: ") + algorithmName(A) +
                         " needs layouts");
}

bool caterpillarFits(int64_t P, int64_t Q, std::string *Why) {
  // Its max(P, Q) steps exist even when empty: keep them countable.
  if (std::max(P, Q) <= MaxCaterpillarSteps)
    return true;
  if (Why)
    *Why =
        "the caterpillar takes max(P, Q) = " + std::to_string(std::max(P, Q)) +
        " steps, more than " + std::to_string(MaxCaterpillarSteps);
  return false;
}

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
  case Algorithm::WalkerOtto:
    return detail::scheduleWalkerOtto(From, To, G);
  case Algorithm::Classes:
    return detail::scheduleClasses(From, To, G);
  case Algorithm::Scpa:
    return detail::scheduleScpa(G);
  case Algorithm::Chain:
    return detail::scheduleChain(G);
  default:
    return detail::scheduleAnyGrid(A, G);
  }
}

} // namespace

// auto: every applicable algorithm, in allAlgorithms() order, offered to
// AutoPicker (which says how it picks). A candidate whose own arithmetic
// fails is skipped: another one can still schedule the grid. mincost and
// mincost-steps, last, start from the stepwise and greedy schedules already
// computed (AutoPicker::run), so auto pays only for their search (bounded,
// and skipped on large grids).
AutoChoice chooseSchedule(const Layout &From, const Layout &To,
                          const CommGrid &G, const CostModel &Model) {
  std::string Why;
  if (!algorithmApplies(Algorithm::Auto, From, To, &Why))
    throw InvalidArgument("algorithm 'auto' does not apply: " + Why);
  detail::requireGridOfLayouts("auto", From, To, G);
  detail::AutoPicker Picker(G, Model);
  for (Algorithm A : allAlgorithms())
    if (A != Algorithm::Auto && algorithmApplies(A, From, To) &&
        Picker.run(A, algorithmName(A), /*OnGrid=*/true,
                   [&] { return runAlgorithm(A, From, To, G); }))
      break;
  return Picker.take();
}

Schedule makeGridSchedule(Algorithm A, const CommGrid &G,
                          const CostModel &Model) {
  auto Fits = [&](Algorithm C, std::string *Why) {
    return C != Algorithm::Caterpillar ||
           detail::caterpillarFits(G.P, G.Q, Why);
  };
  Schedule S;
  if (A == Algorithm::Auto) {
    detail::AutoPicker Picker(G, Model);
    for (Algorithm C : allAlgorithms())
      if (detail::schedulesAnyGrid(C) && Fits(C, nullptr) &&
          Picker.run(C, algorithmName(C), /*OnGrid=*/true,
                     [&] { return detail::scheduleAnyGrid(C, G); }))
        break;
    S = Picker.take().Chosen;
  } else {
    std::string Why;
    if (!detail::schedulesAnyGrid(A))
      throw InvalidArgument(std::string("algorithm '") + algorithmName(A) +
                            "' needs layouts and cannot schedule this grid");
    if (!Fits(A, &Why))
      throw InvalidArgument(std::string("algorithm '") + algorithmName(A) +
                            "' does not apply: " + Why);
    S = detail::scheduleAnyGrid(A, G);
  }
  if (std::optional<std::string> Problem = validateSchedule(G, S))
    throw std::logic_error("internal error: the " + S.Algorithm +
                           " schedule is invalid: " + *Problem);
  return S;
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
    return detail::caterpillarFits(From.procs(), To.procs(), Why);
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
