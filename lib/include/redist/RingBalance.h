//===- redist/RingBalance.h - Targets from speeds, and whether to move ----===//
//
// The two decisions around a ring rebalancing (ring-redistribution ends on
// the second): how many items each process should hold, given how fast it
// processes them, and whether moving them pays off. A bulk-synchronous
// iteration lasts as long as its slowest process, Loads[i] *
// SecondsPerItem[i]; rebalancing pays when the time it saves over the next
// iterations exceeds the predicted time of the move (the schedule's
// makespan).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RINGBALANCE_H
#define REDIST_RINGBALANCE_H

#include <cstdint>
#include <vector>

namespace redist {

/// Total items split in proportion to each process's speed, 1 /
/// SecondsPerItem[i] (largest remainders first, ties to the lower index).
/// Throws InvalidArgument for a negative total or a time per item that is
/// not positive and finite.
std::vector<std::int64_t>
proportionalTargets(const std::vector<double> &SecondsPerItem,
                    std::int64_t Total);

struct RebalanceDecision {
  /// One iteration now, and after the move (the slowest process).
  double IterationNow = 0, IterationAfter = 0;
  /// (IterationNow - IterationAfter) * Iterations.
  double Gain = 0;
  /// The predicted time of the move.
  double Cost = 0;
  bool Worthwhile = false;
};

/// Whether moving from Loads to Targets, predicted to take MoveSeconds,
/// saves time over the next Iterations iterations.
RebalanceDecision decideRebalance(const std::vector<double> &SecondsPerItem,
                                  const std::vector<std::int64_t> &Loads,
                                  const std::vector<std::int64_t> &Targets,
                                  double MoveSeconds, std::int64_t Iterations);

} // namespace redist

#endif // REDIST_RINGBALANCE_H
