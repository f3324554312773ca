//===- WalkBounds.h - What walking the blocks of a range costs ------------===//
//
// Private to the library. O(1) upper bounds on the runs a process exchanges
// and on the blocks computeGrid visits within a range of Length elements
// that starts where the cycles of both layouts start (0, or a multiple of
// L), so that the entry points can refuse, before any allocation, a
// redistribution whose description would not fit (redist/Limits.h).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_WALKBOUNDS_H
#define REDIST_LIB_WALKBOUNDS_H

#include "redist/Distribution.h"

#include <cstdint>

namespace redist {
namespace detail {

/// Most runs any one process of Own exchanges with Other's processes within
/// such a range, before merging; saturates at INT64_MAX.
int64_t processRunBound(const Layout &Own, const Layout &Other, int64_t Length);

/// Bounds computeGrid's walk of such a range, summed over From's processes
/// (which also bounds the messages it finds there). Throws InvalidArgument
/// when that exceeds MaxGridWalk.
int64_t checkGridWalk(const Layout &From, const Layout &To, int64_t Length);

/// Throws InvalidArgument when a grid of Messages exceeds MaxGridMessages.
void checkGridMessages(const Layout &From, const Layout &To, int64_t Messages);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_WALKBOUNDS_H
