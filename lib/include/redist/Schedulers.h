//===- redist/Schedulers.h - Building schedules ---------------------------===//
//
// One entry point, makeSchedule, for every scheduling algorithm:
//   caterpillar  ScaLAPACK's total exchange (the baseline): max(P, Q)
//                steps, in step k each source p sends to target
//                (p + k) mod max(P, Q) if it has a message for it; empty
//                steps are kept (desprez-1998 §5.2.3: 6 of the 12 steps of
//                P = 12, Q = 8, r = 4, s = 3 are empty).
//   walker_otto  Walker & Otto's closed forms for P = Q and s = K*r (or
//                r = K*s): min(K, P) steps (the maximum degree), each a
//                permutation at whole superblocks; empty steps are dropped.
//   classes      desprez-1998 §4.3.2, class by class, for gcd(r, Q) =
//                gcd(s, P) = 1 (after dividing r, s by gcd(r, s)): optimal in
//                steps and cost.
//   stepwise     optimal number of steps for any grid (König): each step a
//                matching that saturates every vertex of maximum degree, of
//                maximum weight among those.
//   greedy       a maximum-weight matching per step (ties: serve the
//                processes of maximum remaining degree): often lower cost,
//                may take more steps.
//   scpa         scpa-gen-block's Smallest Conflict Points Algorithm,
//                when every process of both layouts holds one contiguous
//                segment (GEN_BLOCK, BLOCK): maximum-degree steps.
//   chain        same layouts: maximum-degree steps at the least total
//                cost, never above scpa (docs/genblock-scheduling.md).
//   mincost      the least cost with any number of steps (redist/MinCost.h):
//                local search from greedy and stepwise, exact on grids of
//                up to 40 messages; may take more steps than the others.
//   mincost-steps  the same within the grid's maximum degree of steps: the
//                cheapest step-optimal schedule (makeMinCostSchedule takes
//                other step limits).
//   auto         runs every algorithm that applies and keeps the one that
//                minimises CostModel::predict (redist/CostModel.h), alpha *
//                non-empty steps + gamma * critical messages + beta * cost
//                (ties: fewer steps in all, then the earlier in this list, so
//                mincost wins only when strictly faster); a candidate that
//                fails (its arithmetic would overflow) is skipped. mincost and
//                mincost-steps start from the stepwise and greedy schedules
//                auto already has. chooseSchedule says what it weighed and
//                why it chose; the schedule's Choice says it in one line.
//
// Every schedule is deterministic: the same input gives the same schedule on
// every machine, so MPI ranks can compute it independently.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULERS_H
#define REDIST_SCHEDULERS_H

#include "redist/CommGrid.h"
#include "redist/CostModel.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

enum class Algorithm {
  Auto,
  Caterpillar,
  WalkerOtto,
  Classes,
  Stepwise,
  Greedy,
  Scpa,
  Chain,
  MinCost,
  MinCostSteps
};

/// "auto", "caterpillar", "walker_otto", "classes", "stepwise", "greedy",
/// "scpa", "chain", "mincost", "mincost-steps".
const char *algorithmName(Algorithm A);
std::optional<Algorithm> parseAlgorithm(std::string_view Name);
/// Every algorithm, in the order above.
std::vector<Algorithm> allAlgorithms();

/// One algorithm auto weighed: its schedule's statistics and predicted
/// time, or why it could not schedule the grid.
struct AutoCandidate {
  /// In 2-D, the algorithm a product runs on each axis.
  Algorithm Algo = Algorithm::Auto;
  /// The candidate's name: algorithmName(Algo), or algorithm2DName in 2-D.
  std::string Name;
  ScheduleStats Stats;
  double Seconds = 0;
  std::string Failure; ///< non-empty when the algorithm failed
};

/// auto's choice and what it weighed.
struct AutoChoice {
  /// The schedule it chose; its Choice says which and why.
  Schedule Chosen;
  /// The algorithms that apply, in allAlgorithms() order, up to the first
  /// schedule that meets every lower bound (none can beat it: auto stops).
  std::vector<AutoCandidate> Candidates;
  /// The index of the chosen one in Candidates.
  std::size_t Best = 0;
};

/// What makeSchedule(Algorithm::Auto, ...) does, with the candidates.
AutoChoice chooseSchedule(const Layout &From, const Layout &To,
                          const CommGrid &G,
                          const CostModel &Model = CostModel());

/// Whether A can schedule this redistribution; when not, Why (if given) says
/// which condition fails.
bool algorithmApplies(Algorithm A, const Layout &From, const Layout &To,
                      std::string *Why = nullptr);

/// Schedules G, the grid of From -> To, with A. Throws InvalidArgument when A
/// does not apply. The result always passes validateSchedule.
Schedule makeSchedule(Algorithm A, const Layout &From, const Layout &To,
                      const CommGrid &G, const CostModel &Model = CostModel());

/// Schedules a grid that no pair of layouts describes (the runtime's
/// sub-matrix or transposed copies): A must be one of the algorithms that
/// schedule any grid (caterpillar, stepwise, greedy, mincost,
/// mincost-steps), or auto, which picks among them as chooseSchedule does.
/// Throws InvalidArgument, naming A, for any other algorithm.
Schedule makeGridSchedule(Algorithm A, const CommGrid &G,
                          const CostModel &Model = CostModel());

} // namespace redist

#endif // REDIST_SCHEDULERS_H
