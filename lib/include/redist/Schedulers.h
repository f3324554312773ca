//===- redist/Schedulers.h - Building schedules ---------------------------===//
//
// One entry point, makeSchedule, for every scheduling algorithm:
//   caterpillar  ScaLAPACK's pairwise exchange (the baseline): max(P, Q)
//                steps, step k pairs each source p with target (k - p) mod
//                max(P, Q); empty steps are kept.
//   walker_otto  Walker & Otto's closed forms for P = Q and s = K*r (or
//                r = K*s): K steps, each a permutation.
//   classes      desprez-1998 §4.3.2, class by class, for gcd(r, Q) =
//                gcd(s, P) = 1 (after dividing r, s by gcd(r, s)): optimal in
//                steps and cost.
//   stepwise     optimal number of steps for any grid (König): each step a
//                matching that saturates every vertex of maximum degree, of
//                maximum weight among those.
//   greedy       a maximum-weight matching per step: lower cost, may take
//                more steps.
//   auto         the candidate that minimises alpha * steps + beta * cost.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULERS_H
#define REDIST_SCHEDULERS_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

enum class Algorithm { Auto, Caterpillar, WalkerOtto, Classes, Stepwise, Greedy };

/// "auto", "caterpillar", "walker_otto", "classes", "stepwise", "greedy".
const char *algorithmName(Algorithm A);
std::optional<Algorithm> parseAlgorithm(std::string_view Name);
/// Every algorithm, in the order above.
std::vector<Algorithm> allAlgorithms();

/// The affine cost model of desprez-1998 §4.3.1, in seconds. The defaults are
/// rough figures for a commodity MPI on one node: 5 microseconds per step and
/// 8 bytes per element at 2.5 GB/s.
struct CostModel {
  double Alpha = 5e-6;      ///< seconds per step
  double Beta = 8.0 / 2.5e9; ///< seconds per element
  double ElementBytes = 8;  ///< used to rescale Beta for other element sizes
  double predict(const ScheduleStats &S) const {
    return Alpha * static_cast<double>(S.NonEmptySteps) +
           Beta * static_cast<double>(S.Cost);
  }
};

/// Whether A can schedule this redistribution; when not, Why (if given) says
/// which condition fails.
bool algorithmApplies(Algorithm A, const Layout &From, const Layout &To,
                      std::string *Why = nullptr);

/// Schedules G, the grid of From -> To, with A. Throws InvalidArgument when A
/// does not apply. The result always passes validateSchedule.
Schedule makeSchedule(Algorithm A, const Layout &From, const Layout &To,
                      const CommGrid &G, const CostModel &Model = CostModel());

} // namespace redist

#endif // REDIST_SCHEDULERS_H
