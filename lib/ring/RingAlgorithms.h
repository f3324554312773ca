//===- RingAlgorithms.h - The ring algorithms behind planRing -------------===//
//
// Internal to lib/ring: each function plans a valid problem that its
// algorithm applies to (planRing checks both) and fills every field of the
// schedule but LowerBound; and the index arithmetic they all share.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_RING_RINGALGORITHMS_H
#define REDIST_LIB_RING_RINGALGORITHMS_H

#include "../BlockCyclicMath.h"
#include "redist/Ring.h"
#include "redist/RingFlows.h"

#include <cstdint>
#include <vector>

namespace redist {
namespace ring {

/// I modulo N, in 0 .. N - 1: process indices wrap round the ring.
inline std::int64_t wrap(std::int64_t I, std::int64_t N) {
  return detail::floorMod(I, N);
}

/// P with only its forward links: unidirectional, no backward costs.
inline RingProblem forwardOnly(const RingProblem &P) {
  RingProblem Forward = P;
  Forward.Bidirectional = false;
  Forward.CostBwd.clear();
  return Forward;
}

/// Whether the flows Fwd, Bwd are light: no process sends more items than
/// it starts with.
inline bool lightFlows(const RingProblem &P,
                       const std::vector<std::int64_t> &Fwd,
                       const std::vector<std::int64_t> &Bwd) {
  for (std::int64_t I = 0; I < P.size(); ++I)
    if (Fwd[I] + Bwd[I] > P.Loads[I])
      return false;
  return true;
}

/// Algorithms 1 and 2: the minimal forward flows, each item sent as soon as
/// possible. Name is the algorithm's name in the schedule.
RingSchedule planUnidirectional(const RingProblem &P, const char *Name);

/// Algorithm 3, step by step; where empty processes make its steps
/// infeasible, its net per-link counts sent as soon as possible.
RingSchedule planHomogeneousBidirectional(const RingProblem &P);

/// The bidirectional heterogeneous algorithm (searchRingFlows) on a valid
/// bidirectional problem whose solveRingFlows(P) is Light.
RingSchedule searchRingFlows(const RingProblem &P,
                             const RingFlowSolution &Light);

/// Fwd, Bwd and the makespan from Transfers (sorted first).
RingSchedule finishSchedule(const RingProblem &P, const char *Name,
                            std::vector<RingTransfer> Transfers);

} // namespace ring
} // namespace redist

#endif // REDIST_LIB_RING_RINGALGORITHMS_H
