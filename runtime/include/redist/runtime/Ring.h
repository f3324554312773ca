//===- redist/runtime/Ring.h - Rebalancing items along a ring with MPI ----===//
//
// rebalanceRing moves interchangeable items (particles, tasks: any trivially
// copyable T) so that each rank ends with its target count, sending only
// between ring neighbours, as ring-redistribution plans it (docs/ring.md).
// Every rank plans the same schedule from the allgathered loads and targets;
// items then move in pieces that follow the schedule's order, each sent once
// its sender holds all of its items, so a rank forwards what it receives
// while the rest is still arriving. Link costs are given, or measured once
// per communicator by a short ping-pong between neighbours (each direction
// of each link) and cached on the communicator.
// docs/runtime.md#ring-rebalancing has the details.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_RING_H
#define REDIST_RUNTIME_RING_H

#include "redist/Error.h"
#include "redist/Ring.h"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace redist {

struct RingOptions {
  /// Whether ranks may also send to their predecessor.
  bool Bidirectional = false;
  RingAlgorithm Algorithm = RingAlgorithm::Auto;
  /// Seconds per item from rank i to i + 1: one value for every link, or one
  /// per rank. Empty: measured (and cached on the communicator).
  std::vector<double> CostFwd;
  /// Seconds per item from rank i to i - 1, likewise; empty with CostFwd
  /// given: symmetric links, CostBwd[i] = CostFwd[i - 1]. Bidirectional only.
  std::vector<double> CostBwd;
  /// At most this many items per MPI message (0: as many as an int count of
  /// bytes allows).
  std::int64_t MaxPieceItems = 0;
};

struct RingRebalanceResult {
  /// The whole ring's schedule (identical on every rank); its makespan is
  /// the model's prediction, in the costs' unit (seconds when measured).
  RingSchedule Schedule;
  /// This rank's wall time moving items, from the first send or receive to
  /// the last (planning and measurement excluded).
  double Seconds = 0;
  /// Messages this rank sent.
  std::int64_t Messages = 0;
};

/// What every rank plans: the ring's problem (allgathered loads and
/// targets, the costs used) and its schedule.
struct RingRebalancePlan {
  RingProblem Problem;
  RingSchedule Schedule;
};

/// The plan rebalanceRing would follow for a rank holding Load items of
/// ElementBytes bytes, without moving any: collective, with the same checks
/// and errors. For deciding whether to move (redist/RingBalance.h).
RingRebalancePlan planRingRebalance(std::int64_t Load, std::int64_t TargetCount,
                                    MPI_Comm Ring, std::size_t ElementBytes,
                                    const RingOptions &Options = RingOptions());

/// The link costs the runtime would use for Comm's ring and items of
/// ElementBytes bytes: measured by a ping-pong between neighbours on first
/// use (collective; both directions of every link on a bidirectional ring)
/// and cached on the communicator.
void measuredRingCosts(MPI_Comm Comm, std::size_t ElementBytes,
                       bool Bidirectional, std::vector<double> &CostFwd,
                       std::vector<double> &CostBwd);

namespace detail {

/// How rebalanceRing reaches the caller's vector without knowing T.
struct RingItems {
  void *Vector;
  std::size_t (*Size)(void *Vector);
  /// Moves the last Count items into Out (Count * element bytes, aligned
  /// for any type) and drops them.
  void (*PopBack)(void *Vector, std::size_t Count, void *Out);
  void (*PushBack)(void *Vector, const void *In, std::size_t Count);
};

RingRebalanceResult rebalanceRing(RingItems Items, std::size_t ElementBytes,
                                  std::int64_t TargetCount, MPI_Comm Ring,
                                  const RingOptions &Options);

} // namespace detail

/// Collective over Ring, whose rank order is the ring (a one-dimensional
/// periodic Cartesian communicator is accepted; other Cartesian ones are
/// not). Each rank passes its items and the count it must end with. Throws
/// InvalidArgument on every rank, before any item moves, when the options
/// are invalid, the targets are negative or do not sum to the items, the
/// ranks were given different options, or the algorithm does not apply.
template <typename T>
RingRebalanceResult rebalanceRing(std::vector<T> &Items,
                                  std::int64_t TargetCount, MPI_Comm Ring,
                                  const RingOptions &Options = RingOptions()) {
  static_assert(std::is_trivially_copyable<T>::value,
                "rebalanceRing moves trivially copyable items only");
  detail::RingItems Access{
      &Items, [](void *V) { return static_cast<std::vector<T> *>(V)->size(); },
      [](void *V, std::size_t Count, void *Out) {
        auto &Vec = *static_cast<std::vector<T> *>(V);
        std::memcpy(Out, Vec.data() + (Vec.size() - Count), Count * sizeof(T));
        Vec.erase(Vec.end() - Count, Vec.end());
      },
      [](void *V, const void *In, std::size_t Count) {
        auto &Vec = *static_cast<std::vector<T> *>(V);
        const T *First = static_cast<const T *>(In);
        Vec.insert(Vec.end(), First, First + Count);
      }};
  return detail::rebalanceRing(Access, sizeof(T), TargetCount, Ring, Options);
}

namespace directive {

/// The costs of a rebalance directive's costs(C) or back_costs(C), named
/// Clause, as RingOptions holds them: a number (every link), or an array,
/// std::array, std::vector or braced list of numbers (one per rank).
/// rebalanceRing checks the values and the count; an empty list would mean
/// "measure", so it is an error here, naming Where.
inline std::vector<double> ringCosts(std::vector<double> Costs,
                                     const char *Clause, const char *Where) {
  if (Costs.empty())
    throw InvalidArgument(std::string(Where) + ": " + Clause +
                          "(...) has no entries; give one cost for every "
                          "link or one per rank");
  return Costs;
}
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
std::vector<double> ringCosts(T Cost, const char *Clause, const char *Where) {
  return ringCosts(std::vector<double>{static_cast<double>(Cost)}, Clause,
                   Where);
}
template <typename T, std::size_t K>
std::vector<double> ringCosts(const T (&Costs)[K], const char *Clause,
                              const char *Where) {
  return ringCosts(std::vector<double>(Costs, Costs + K), Clause, Where);
}
template <typename T, std::size_t K>
std::vector<double> ringCosts(const std::array<T, K> &Costs, const char *Clause,
                              const char *Where) {
  return ringCosts(std::vector<double>(Costs.begin(), Costs.end()), Clause,
                   Where);
}
template <typename T, typename A>
std::vector<double> ringCosts(const std::vector<T, A> &Costs,
                              const char *Clause, const char *Where) {
  return ringCosts(std::vector<double>(Costs.begin(), Costs.end()), Clause,
                   Where);
}
inline std::vector<double> ringCosts(std::initializer_list<double> Costs,
                                     const char *Clause, const char *Where) {
  return ringCosts(std::vector<double>(Costs), Clause, Where);
}

/// What `#pragma redist rebalance VAR(COUNT) onto P ring(...)` does: its
/// errors name the directive's Where ("file.cpp:12").
template <typename T>
RingRebalanceResult rebalance(std::vector<T> &Items, std::int64_t Count,
                              MPI_Comm Comm, const RingOptions &Options,
                              const char *Where) {
  try {
    return rebalanceRing(Items, Count, Comm, Options);
  } catch (const InvalidArgument &E) {
    throw InvalidArgument(std::string(Where) + ": " + E.what());
  }
}

} // namespace directive

} // namespace redist

#endif // REDIST_RUNTIME_RING_H
