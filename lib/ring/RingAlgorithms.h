//===- RingAlgorithms.h - The ring algorithms behind planRing -------------===//
//
// Internal to lib/ring: each function plans a valid problem that its
// algorithm applies to (planRing checks both) and fills every field of the
// schedule but LowerBound.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_RING_RINGALGORITHMS_H
#define REDIST_LIB_RING_RINGALGORITHMS_H

#include "redist/Ring.h"

namespace redist {
namespace ring {

/// Algorithms 1 and 2: the minimal forward flows, each item sent as soon as
/// possible. Name is the algorithm's name in the schedule.
RingSchedule planUnidirectional(const RingProblem &P, const char *Name);

/// Algorithm 3, step by step; where empty processes make its steps
/// infeasible, its net per-link counts sent as soon as possible.
RingSchedule planHomogeneousBidirectional(const RingProblem &P);

/// Fwd, Bwd and the makespan from Transfers (sorted first).
RingSchedule finishSchedule(const RingProblem &P, const char *Name,
                            std::vector<RingTransfer> Transfers);

} // namespace ring
} // namespace redist

#endif // REDIST_LIB_RING_RINGALGORITHMS_H
