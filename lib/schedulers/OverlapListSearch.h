//===- OverlapListSearch.h - Local search over unsplit message orders -----===//
//
// Private to the library. An order of the messages gives an unsplit
// overlapped schedule: each message in turn takes the earliest time at
// which both of its ports are free for its whole length, gaps left by the
// messages before it included. Every active schedule, an optimal one among
// them, comes out of some order (list its messages by start time). The
// search starts from the order of a given schedule and tries moves that put
// a message that ends last earlier in the order, or swap two messages,
// keeping a move unless it makes the schedule worse: a larger makespan,
// then more messages ending at it, then a larger sum of the ports' last
// ends. A fixed-seed generator of its own keeps it deterministic.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_OVERLAPLISTSEARCH_H
#define REDIST_LIB_SCHEDULERS_OVERLAPLISTSEARCH_H

#include "OverlapPorts.h"

#include "redist/CommGrid.h"

#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

struct UnsplitSchedule {
  std::vector<int64_t> Start; ///< of each message
  int64_t Makespan = 0;
};

/// The best schedule found from Seed's order; stops early at LowerBound.
/// Never worse than Seed. Work is the budget, in messages placed plus busy
/// intervals passed while decoding orders (what a move costs); the search
/// stops once it is spent and subtracts what it used.
UnsplitSchedule improveByListSearch(const CommGrid &G,
                                    const OverlapPorts &Ports,
                                    const UnsplitSchedule &Seed,
                                    int64_t LowerBound, int64_t &Work);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_OVERLAPLISTSEARCH_H
