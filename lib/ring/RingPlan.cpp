//===- RingPlan.cpp - Algorithm names, applicability and planRing ---------===//

#include "RingAlgorithms.h"

#include "redist/Error.h"
#include "redist/RingExhaustive.h"
#include "redist/RingFlows.h"

#include <cmath>
#include <optional>
#include <stdexcept>

namespace redist {

namespace {

/// Steps times processes squared that Algorithm 3 may take (a second or so).
constexpr std::int64_t MaxAlgorithm3Work = 500'000'000;

struct Entry {
  RingAlgorithm Algo;
  const char *Name;
};

constexpr Entry Names[] = {
    {RingAlgorithm::Auto, "auto"},
    {RingAlgorithm::UniHomogeneous, "uni-homogeneous"},
    {RingAlgorithm::UniHeterogeneous, "uni-heterogeneous"},
    {RingAlgorithm::BiHomogeneous, "bi-homogeneous"},
    {RingAlgorithm::BiHeterogeneous, "bi-heterogeneous"},
    {RingAlgorithm::Exhaustive, "exhaustive"},
};

/// ringAlgorithmRejects for a valid P; Bound, when given, is
/// ringLowerBound(P).
std::string rejectsValid(RingAlgorithm A, const RingProblem &P,
                         std::optional<double> Bound) {
  const std::string Name(ringAlgorithmName(A));
  switch (A) {
  case RingAlgorithm::Auto:
  case RingAlgorithm::UniHeterogeneous:
    return "";
  case RingAlgorithm::UniHomogeneous:
    return ring::forwardOnly(P).homogeneous()
               ? ""
               : Name + " needs equal forward link costs";
  case RingAlgorithm::BiHomogeneous: {
    if (!P.Bidirectional)
      return Name + " needs a bidirectional ring";
    if (!P.homogeneous())
      return Name + " needs equal link costs";
    // One step per unit of Lemma 6's bound (Lemma 12's, on this ring), each
    // O(n^2).
    const double Steps = (Bound ? *Bound : lemma6Bound(P)) / P.CostFwd.front();
    if (Steps * static_cast<double>(P.size() * P.size()) >
        static_cast<double>(MaxAlgorithm3Work))
      return Name + " would take " + std::to_string(std::llround(Steps)) +
             " steps on " + std::to_string(P.size()) +
             " processes, beyond its limit; use bi-heterogeneous";
    return "";
  }
  case RingAlgorithm::BiHeterogeneous:
    return P.Bidirectional ? "" : Name + " needs a bidirectional ring";
  case RingAlgorithm::Exhaustive:
    return ringExhaustiveRejects(P);
  }
  return "unknown ring algorithm";
}

/// Plans a valid P that A applies to; Bound is ringLowerBound(P).
RingSchedule planWith(const RingProblem &P, RingAlgorithm A, double Bound) {
  switch (A) {
  case RingAlgorithm::UniHomogeneous:
  case RingAlgorithm::UniHeterogeneous:
    return ring::planUnidirectional(P, ringAlgorithmName(A).data());
  case RingAlgorithm::BiHomogeneous:
    return ring::planHomogeneousBidirectional(P);
  case RingAlgorithm::BiHeterogeneous:
    return ring::searchRingFlows(P, solveRingFlows(P));
  case RingAlgorithm::Exhaustive:
    return exhaustiveRingSchedule(P);
  case RingAlgorithm::Auto:
    break;
  }
  // Auto: every applicable algorithm but the search, the least makespan.
  // Two shortcuts skip work that cannot win: light flows on a bidirectional
  // ring are optimal (System 6's bound is met), and a schedule that meets
  // the lower bound cannot be beaten.
  std::optional<RingFlowSolution> Light;
  if (P.Bidirectional && P.size() > 1) {
    Light = solveRingFlows(P);
    if (Light->Light)
      return ring::searchRingFlows(P, *Light);
  }
  RingSchedule Best;
  bool Any = false;
  for (RingAlgorithm Candidate : allRingAlgorithms()) {
    if (Candidate == RingAlgorithm::Auto ||
        Candidate == RingAlgorithm::Exhaustive ||
        !rejectsValid(Candidate, P, Bound).empty())
      continue;
    RingSchedule S = Candidate == RingAlgorithm::BiHeterogeneous && Light
                         ? ring::searchRingFlows(P, *Light)
                         : planWith(P, Candidate, Bound);
    if (!Any || S.Makespan < Best.Makespan - ringTimeTolerance(Best.Makespan)) {
      Best = std::move(S);
      Any = true;
    }
    if (Best.Makespan <= Bound + ringTimeTolerance(Bound))
      break;
  }
  return Best;
}

} // namespace

std::string_view ringAlgorithmName(RingAlgorithm A) {
  for (const Entry &E : Names)
    if (E.Algo == A)
      return E.Name;
  throw InvalidArgument("unknown ring algorithm " +
                        std::to_string(static_cast<int>(A)));
}

std::optional<RingAlgorithm> parseRingAlgorithm(std::string_view Name) {
  for (const Entry &E : Names)
    if (Name == E.Name)
      return E.Algo;
  return std::nullopt;
}

std::vector<RingAlgorithm> allRingAlgorithms() {
  std::vector<RingAlgorithm> All;
  for (const Entry &E : Names)
    All.push_back(E.Algo);
  return All;
}

std::string ringAlgorithmRejects(RingAlgorithm A, const RingProblem &P) {
  validateRingProblem(P);
  return rejectsValid(A, P, std::nullopt);
}

RingSchedule planRing(const RingProblem &P, RingAlgorithm A) {
  validateRingProblem(P);
  const double Bound = ringLowerBound(P);
  if (std::string Why = rejectsValid(A, P, Bound); !Why.empty())
    throw InvalidArgument(Why);
  RingSchedule S = planWith(P, A, Bound);
  S.LowerBound = Bound;
  return S;
}

} // namespace redist
