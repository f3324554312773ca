//===- redist/Ring.h - Rebalancing interchangeable items along a ring ----===//
//
// After a load balancer has run, process i of a ring holds Loads[i] items and
// must end up with Targets[i]. Items are interchangeable (particles, tasks),
// so only counts matter, and a process may only talk to its two ring
// neighbours. This header states that problem, its lower bounds and the
// algorithms of ring-redistribution (docs/ring.md):
//   uni-homogeneous    Algorithm 1: unidirectional ring, equal links.
//   uni-heterogeneous  Algorithm 2: unidirectional ring, any link costs.
//   bi-homogeneous     Algorithm 3: bidirectional ring, equal links.
//   bi-heterogeneous   bidirectional ring, any link costs, which the paper
//                      leaves open: the flow family of redist/RingFlows.h.
//   exhaustive         the true optimum by search; small instances with
//                      integer costs only (redist/RingExhaustive.h).
//   auto               every applicable algorithm but exhaustive, and the
//                      schedule of least makespan (ties: the first above);
//                      it stops at a schedule that meets the lower bound,
//                      and on a bidirectional ring whose flow-family
//                      optimum is light takes bi-heterogeneous at once
//                      (then optimal).
//
// The model is the paper's: sending one item over link i -> i+1 takes
// CostFwd[i] time units, over i -> i-1 CostBwd[i]; a process sends at most
// one item and receives at most one at a time (on a bidirectional ring too,
// so it cannot send both ways at once); an item can be forwarded as soon as
// it has arrived. Every planned schedule passes the simulator of
// redist/RingSimulator.h, which also times it when processes must wait for
// items (the paper assumes every load and target is at least 1; here zero
// loads and targets are allowed).
//
// Everything is deterministic, so MPI ranks plan identically.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RING_H
#define REDIST_RING_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// A ring rebalancing problem. Process indices are taken modulo n.
struct RingProblem {
  std::vector<std::int64_t> Loads;
  std::vector<std::int64_t> Targets;
  /// CostFwd[i]: time to send one item from i to i + 1.
  std::vector<double> CostFwd;
  /// CostBwd[i]: time to send one item from i to i - 1. Used only when
  /// Bidirectional; may then be left empty for symmetric links,
  /// CostBwd[i] = CostFwd[i - 1] (as cost(i, -1) reads it).
  std::vector<double> CostBwd;
  bool Bidirectional = false;

  std::int64_t size() const { return static_cast<std::int64_t>(Loads.size()); }
  /// The unbalance of process I: Loads[I] - Targets[I] (the paper's delta).
  std::int64_t unbalance(std::int64_t I) const;
  /// The cost of link I -> I + Dir, Dir = +1 or -1.
  double cost(std::int64_t I, int Dir) const;
  /// Whether every link the ring uses has the same cost.
  bool homogeneous() const;
};

/// Throws InvalidArgument naming the first offending value: no process,
/// lists of different lengths, negative loads or targets, sums that differ
/// or overflow, a cost that is not a positive finite number.
void validateRingProblem(const RingProblem &P);

/// Items From sends to From + Dir, back to back: item u occupies the link
/// during [Start + u * c, Start + (u + 1) * c), leaves From at the start of
/// that interval and can be forwarded by the receiver from its end.
struct RingTransfer {
  std::int64_t From = 0;
  int Dir = 1;
  double Start = 0;
  std::int64_t Items = 0;
};

struct RingSchedule {
  std::string Algorithm;
  /// Fwd[i]: items i sends to i + 1; Bwd[i]: items i sends to i - 1 (all
  /// zero on a unidirectional ring).
  std::vector<std::int64_t> Fwd;
  std::vector<std::int64_t> Bwd;
  /// Sorted by start, then sender, then direction.
  std::vector<RingTransfer> Transfers;
  /// When the last item arrives (0 if nothing moves).
  double Makespan = 0;
  /// ringLowerBound of the problem.
  double LowerBound = 0;
};

enum class RingAlgorithm {
  Auto,
  UniHomogeneous,
  UniHeterogeneous,
  BiHomogeneous,
  BiHeterogeneous,
  Exhaustive,
};

std::string_view ringAlgorithmName(RingAlgorithm A);
std::optional<RingAlgorithm> parseRingAlgorithm(std::string_view Name);
/// In the order of the list at the top of this file.
std::vector<RingAlgorithm> allRingAlgorithms();
/// Why A cannot plan P (empty if it can): bidirectional algorithms on a
/// unidirectional ring, homogeneous ones on unequal links, exhaustive
/// beyond its size limits.
std::string ringAlgorithmRejects(RingAlgorithm A, const RingProblem &P);

/// Plans P with A. Throws InvalidArgument for an invalid problem or an
/// algorithm that does not apply (with the reason).
RingSchedule planRing(const RingProblem &P,
                      RingAlgorithm A = RingAlgorithm::Auto);

// Lower bounds on the makespan of any schedule, in time units. Each throws
// InvalidArgument on an invalid problem.

/// ring-redistribution's Theorem 2, corrected (docs/paper-corrections.md):
/// a slice with unbalance d > 0 sends d items through the link that leaves
/// it, one with d < 0 receives -d through the link that enters it. For a
/// unidirectional ring; Algorithm 2 reaches it when every load and target
/// is at least 1.
double theorem2Bound(const RingProblem &P);
/// Lemma 1: Theorem 2 on equal links, max |delta_{k,k+l}| * c. Throws
/// InvalidArgument unless the forward links are homogeneous.
double lemma1Bound(const RingProblem &P);
/// Lemma 12, for a bidirectional ring: each process sends its surplus over
/// its cheaper link; each slice of 2 to n - 1 processes splits its surplus
/// between its two end links as well as it can.
double lemma12Bound(const RingProblem &P);
/// Lemma 6: Lemma 12 on equal links, max(max |delta_i|, max
/// ceil(|delta_{k,l}| / 2)) * c. Throws InvalidArgument unless the ring is
/// bidirectional and homogeneous.
double lemma6Bound(const RingProblem &P);
/// theorem2Bound on a unidirectional ring, lemma12Bound on a bidirectional
/// one.
double ringLowerBound(const RingProblem &P);

/// The time tolerance comparisons of times use: floating-point sums of
/// fractional costs are not exact. Relative to the largest time Scale.
double ringTimeTolerance(double Scale);

} // namespace redist

#endif // REDIST_RING_H
