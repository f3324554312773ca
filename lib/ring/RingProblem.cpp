//===- RingProblem.cpp - The ring problem, its checks and lower bounds ----===//

#include "RingAlgorithms.h"
#include "redist/Error.h"
#include "redist/Ring.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace redist {

namespace {

using ring::wrap;

std::string numberText(double V) {
  std::ostringstream OS;
  OS.precision(12);
  OS << V;
  return OS.str();
}

void checkCosts(const std::vector<double> &Costs, const char *Name) {
  for (size_t I = 0; I < Costs.size(); ++I)
    if (!(Costs[I] > 0) || !std::isfinite(Costs[I]))
      throw InvalidArgument(std::string(Name) + "[" + std::to_string(I) +
                            "] = " + numberText(Costs[I]) +
                            ": a link cost must be a positive finite number");
}

void checkCounts(const std::vector<std::int64_t> &Counts, const char *Name,
                 std::int64_t &Sum) {
  Sum = 0;
  for (size_t I = 0; I < Counts.size(); ++I) {
    if (Counts[I] < 0)
      throw InvalidArgument(std::string(Name) + "[" + std::to_string(I) +
                            "] = " + std::to_string(Counts[I]) +
                            " is negative");
    if (Counts[I] > std::numeric_limits<std::int64_t>::max() - Sum)
      throw InvalidArgument(std::string("the ") + Name + " sum beyond 64 bits");
    Sum += Counts[I];
  }
}

/// min over integer I in [0, D] of max(I * A, (D - I) * B): D items leave a
/// slice through two links of costs A and B at once.
double splitTime(std::int64_t D, double A, double B) {
  const double Cross = static_cast<double>(D) * B / (A + B);
  double Best = std::numeric_limits<double>::infinity();
  for (double I : {std::floor(Cross), std::ceil(Cross)}) {
    I = std::clamp(I, 0.0, static_cast<double>(D));
    Best = std::min(Best, std::max(I * A, (static_cast<double>(D) - I) * B));
  }
  return Best;
}

} // namespace

std::int64_t RingProblem::unbalance(std::int64_t I) const {
  return Loads[I] - Targets[I];
}

double RingProblem::cost(std::int64_t I, int Dir) const {
  I = wrap(I, size());
  if (Dir > 0)
    return CostFwd[I];
  return CostBwd.empty() ? CostFwd[wrap(I - 1, size())] : CostBwd[I];
}

bool RingProblem::homogeneous() const {
  const double C = CostFwd.front();
  for (std::int64_t I = 0; I < size(); ++I)
    if (cost(I, 1) != C || (Bidirectional && cost(I, -1) != C))
      return false;
  return true;
}

void validateRingProblem(const RingProblem &P) {
  const size_t N = P.Loads.size();
  if (N == 0)
    throw InvalidArgument("a ring needs at least one process");
  if (P.Targets.size() != N)
    throw InvalidArgument("the ring has " + std::to_string(N) + " loads but " +
                          std::to_string(P.Targets.size()) + " targets");
  if (P.CostFwd.size() != N)
    throw InvalidArgument("the ring has " + std::to_string(N) +
                          " processes but " + std::to_string(P.CostFwd.size()) +
                          " forward link costs");
  if (!P.CostBwd.empty() && !P.Bidirectional)
    throw InvalidArgument("backward link costs given for a unidirectional "
                          "ring");
  if (!P.CostBwd.empty() && P.CostBwd.size() != N)
    throw InvalidArgument("the ring has " + std::to_string(N) +
                          " processes but " + std::to_string(P.CostBwd.size()) +
                          " backward link costs");
  std::int64_t LoadSum, TargetSum;
  checkCounts(P.Loads, "loads", LoadSum);
  checkCounts(P.Targets, "targets", TargetSum);
  if (LoadSum != TargetSum)
    throw InvalidArgument("the loads sum to " + std::to_string(LoadSum) +
                          " but the targets to " + std::to_string(TargetSum) +
                          "; they must be equal");
  checkCosts(P.CostFwd, "c_fwd");
  checkCosts(P.CostBwd, "c_bwd");
}

double ringTimeTolerance(double Scale) {
  return 1e-9 * std::max(1.0, std::fabs(Scale));
}

double theorem2Bound(const RingProblem &P) {
  validateRingProblem(P);
  const std::int64_t N = P.size();
  double Bound = 0;
  // Every slice k..k+l but the whole ring (whose unbalance is 0).
  for (std::int64_t K = 0; K < N; ++K) {
    std::int64_t D = 0;
    for (std::int64_t L = 0; L + 1 < N; ++L) {
      const std::int64_t End = wrap(K + L, N);
      D += P.unbalance(End);
      if (D > 0)
        Bound = std::max(Bound, static_cast<double>(D) * P.cost(End, 1));
      else if (D < 0)
        Bound = std::max(Bound, static_cast<double>(-D) * P.cost(K - 1, 1));
    }
  }
  return Bound;
}

double lemma1Bound(const RingProblem &P) {
  validateRingProblem(P);
  const RingProblem Forward = ring::forwardOnly(P);
  if (!Forward.homogeneous())
    throw InvalidArgument("Lemma 1 needs equal forward link costs");
  return theorem2Bound(Forward);
}

double lemma12Bound(const RingProblem &P) {
  validateRingProblem(P);
  if (!P.Bidirectional)
    throw InvalidArgument("Lemma 12 is a bound for bidirectional rings");
  const std::int64_t N = P.size();
  double Bound = 0;
  for (std::int64_t K = 0; K < N; ++K) {
    const std::int64_t D = P.unbalance(K);
    if (D > 0)
      Bound = std::max(Bound, static_cast<double>(D) *
                                  std::min(P.cost(K, -1), P.cost(K, 1)));
    else if (D < 0)
      Bound =
          std::max(Bound, static_cast<double>(-D) *
                              std::min(P.cost(K - 1, 1), P.cost(K + 1, -1)));
  }
  // Slices of 2 to n - 1 processes, K .. End.
  for (std::int64_t K = 0; K < N; ++K) {
    std::int64_t D = P.unbalance(K);
    for (std::int64_t L = 1; L + 1 < N; ++L) {
      const std::int64_t End = K + L;
      D += P.unbalance(wrap(End, N));
      if (D > 0)
        Bound = std::max(Bound, splitTime(D, P.cost(K, -1), P.cost(End, 1)));
      else if (D < 0)
        Bound = std::max(Bound,
                         splitTime(-D, P.cost(K - 1, 1), P.cost(End + 1, -1)));
    }
  }
  return Bound;
}

double lemma6Bound(const RingProblem &P) {
  validateRingProblem(P);
  if (!P.Bidirectional || !P.homogeneous())
    throw InvalidArgument("Lemma 6 needs a bidirectional ring with equal "
                          "link costs");
  return lemma12Bound(P);
}

double ringLowerBound(const RingProblem &P) {
  return P.Bidirectional ? lemma12Bound(P) : theorem2Bound(P);
}

} // namespace redist
