//===- OverlapDeadlineSearch.h - Unsplit schedules that end by a deadline -===//
//
// Private to the library. The decision form of overlap's problem: is there
// a schedule without splits that ends by Deadline? The search walks time
// forward, the way one fills a schedule table column by column (the
// heuristic of desprez-1998-overlapped §4.3 fills its table greedily): at
// each time some port becomes free, every free port in turn either starts
// one of its messages to a free partner or waits for the next time. Every
// semi-active schedule (no message can start earlier on its own) comes out
// of these choices, so a search that ends without finding one proves that
// none ends by Deadline.
//
// A port with W units of work has Deadline - W units of slack: the search
// decides the port with the least slack first and cuts a node as soon as a
// port cannot end in time, even sending its messages back to back from
// when each partner is free (Jackson's rule on one machine).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_OVERLAPDEADLINESEARCH_H
#define REDIST_LIB_SCHEDULERS_OVERLAPDEADLINESEARCH_H

#include "OverlapPorts.h"

#include "redist/CommGrid.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace redist {
namespace detail {

struct DeadlineOutcome {
  enum Kind {
    Found,      ///< Start holds a schedule that ends by the deadline
    Infeasible, ///< no unsplit schedule ends by the deadline
    Unknown     ///< the node budget ran out first
  } Result = Unknown;
  std::vector<int64_t> Start; ///< of each message, when Found
  /// The work spent, in nodes of one step per message each (a node of the
  /// time-driven search costs about that); at most two nodes over the
  /// budget.
  int64_t Nodes = 0;
};

/// Searches for an unsplit schedule of G ending by Deadline within Budget
/// nodes. Variety (0, 1, ...) breaks ties among equally good choices
/// differently, so that restarts explore other parts of the tree.
DeadlineOutcome scheduleByDeadline(const CommGrid &G, const OverlapPorts &Ports,
                                   int64_t Deadline, int64_t Budget,
                                   uint64_t Variety);

/// The same question when every port of one side has exactly Deadline units
/// of work (OverlapTightSearch.cpp): one order of messages per port of that
/// side. nullopt when neither side is. Budget is in the same nodes: the
/// search counts every step of its work against Budget times the messages.
std::optional<DeadlineOutcome>
scheduleTightSide(const CommGrid &G, const OverlapPorts &Ports,
                  int64_t Deadline, int64_t Budget, uint64_t Variety);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_OVERLAPDEADLINESEARCH_H
