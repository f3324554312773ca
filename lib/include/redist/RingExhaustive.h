//===- redist/RingExhaustive.h - The optimal ring schedule, by search -----===//
//
// The reference the ring algorithms are measured against where the paper
// gives no optimum (bidirectional heterogeneous rings, and empty processes
// anywhere). With integer link costs, some optimal schedule starts every
// item at an integer time (shift each item as early as it can go: it then
// starts at 0 or when another item ends), so a breadth-first search over
// integer times, in which each process may start sending one item to either
// neighbour or wait, finds the least makespan. Its states are the holdings
// and the items in flight; it is exponential and meant for small instances
// (a few processes and items).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RINGEXHAUSTIVE_H
#define REDIST_RINGEXHAUSTIVE_H

#include "redist/Ring.h"

#include <cstdint>
#include <string>

namespace redist {

/// The limits of the search; beyond them it is refused.
constexpr std::int64_t RingExhaustiveMaxProcesses = 8;
constexpr std::int64_t RingExhaustiveMaxItems = 32;
constexpr double RingExhaustiveMaxCost = 16;
constexpr std::int64_t RingExhaustiveMaxStates = 4'000'000;

/// Why the search does not take P (empty if it does): non-integer costs or
/// P beyond the limits above.
std::string ringExhaustiveRejects(const RingProblem &P);

/// An optimal schedule of P (algorithm "exhaustive"). Throws
/// InvalidArgument if ringExhaustiveRejects(P) is not empty or the search
/// visits more than RingExhaustiveMaxStates states.
RingSchedule exhaustiveRingSchedule(const RingProblem &P);

} // namespace redist

#endif // REDIST_RINGEXHAUSTIVE_H
