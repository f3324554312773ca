//===- RingBalance.cpp - Targets from speeds, and whether to move ---------===//

#include "redist/RingBalance.h"

#include "redist/Error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace redist {

namespace {

void checkTimes(const std::vector<double> &SecondsPerItem) {
  if (SecondsPerItem.empty())
    throw InvalidArgument("no process to balance over");
  for (std::size_t I = 0; I < SecondsPerItem.size(); ++I)
    if (!(SecondsPerItem[I] > 0) || !std::isfinite(SecondsPerItem[I]))
      throw InvalidArgument("seconds per item of process " + std::to_string(I) +
                            " = " + std::to_string(SecondsPerItem[I]) +
                            " must be positive and finite");
}

double iteration(const std::vector<double> &SecondsPerItem,
                 const std::vector<std::int64_t> &Counts) {
  double Longest = 0;
  for (std::size_t I = 0; I < Counts.size(); ++I)
    Longest =
        std::max(Longest, static_cast<double>(Counts[I]) * SecondsPerItem[I]);
  return Longest;
}

} // namespace

std::vector<std::int64_t>
proportionalTargets(const std::vector<double> &SecondsPerItem,
                    std::int64_t Total) {
  checkTimes(SecondsPerItem);
  if (Total < 0)
    throw InvalidArgument("total items " + std::to_string(Total) +
                          " is negative");
  const std::size_t N = SecondsPerItem.size();
  double SpeedSum = 0;
  for (double S : SecondsPerItem)
    SpeedSum += 1 / S;
  std::vector<std::int64_t> Targets(N);
  std::vector<double> Remainder(N);
  std::int64_t Given = 0;
  for (std::size_t I = 0; I < N; ++I) {
    const double Share =
        static_cast<double>(Total) * (1 / SecondsPerItem[I]) / SpeedSum;
    Targets[I] = std::min<std::int64_t>(
        Total - Given, static_cast<std::int64_t>(std::floor(Share)));
    Remainder[I] = Share - static_cast<double>(Targets[I]);
    Given += Targets[I];
  }
  std::vector<std::size_t> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::size_t A, std::size_t B) {
                     return Remainder[A] > Remainder[B];
                   });
  for (std::size_t K = 0; Given < Total; K = (K + 1) % N, ++Given)
    ++Targets[Order[K]];
  return Targets;
}

RebalanceDecision decideRebalance(const std::vector<double> &SecondsPerItem,
                                  const std::vector<std::int64_t> &Loads,
                                  const std::vector<std::int64_t> &Targets,
                                  double MoveSeconds, std::int64_t Iterations) {
  checkTimes(SecondsPerItem);
  if (Loads.size() != SecondsPerItem.size() ||
      Targets.size() != SecondsPerItem.size())
    throw InvalidArgument(
        "decideRebalance: one load, target and time per process expected, "
        "got " +
        std::to_string(Loads.size()) + " loads, " +
        std::to_string(Targets.size()) + " targets and " +
        std::to_string(SecondsPerItem.size()) + " times");
  if (Iterations < 0)
    throw InvalidArgument("decideRebalance: iterations = " +
                          std::to_string(Iterations) + " is negative");
  if (!(MoveSeconds >= 0) || !std::isfinite(MoveSeconds))
    throw InvalidArgument(
        "decideRebalance: move time = " + std::to_string(MoveSeconds) +
        " must be non-negative and finite");
  RebalanceDecision D;
  D.IterationNow = iteration(SecondsPerItem, Loads);
  D.IterationAfter = iteration(SecondsPerItem, Targets);
  D.Gain =
      (D.IterationNow - D.IterationAfter) * static_cast<double>(Iterations);
  D.Cost = MoveSeconds;
  D.Worthwhile = D.Gain > D.Cost;
  return D;
}

} // namespace redist
