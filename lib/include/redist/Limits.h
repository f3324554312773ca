//===- redist/Limits.h - How large a redistribution the library takes on --===//
//
// The closed forms make whole slices of L = lcm(P*r, Q*s) elements cost
// nothing per element, but what lies outside them (the incomplete last slice,
// or the whole array when N < L or L overflows int64_t) is walked block by
// block, and a message pattern lists its runs one by one. With huge block
// sizes or extents (N near 2^63, L beyond it) both can reach 2^60 and more.
// Rather than abort on an allocation or run for years, every entry point of
// computeGrid, computeRow, computeColumn and describeMessage, describeRow,
// describeColumn first bounds that work in O(1) and throws InvalidArgument,
// naming the values, when it exceeds these limits. The verdict depends on the
// two layouts only, never on the process asked about, so that every MPI rank
// of a collective plan reaches the same one.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIMITS_H
#define REDIST_LIMITS_H

#include "redist/Distribution.h"

#include <cstdint>

namespace redist {

/// The most runs (local index ranges, MessagePattern's Run) the messages of
/// one process, as a sender or as a receiver, may take to describe: one
/// slice and the last one, or all of [0, N) without a whole slice. 2^32 runs
/// already take 96 GiB; real layouts stay far below (a process holding
/// 2^30 elements in blocks of one has 2^30).
constexpr int64_t MaxRunsPerProcess = int64_t(1) << 32;

/// The most block visits computeGrid may spend outside whole slices, summed
/// over the source processes: about ten seconds of walking.
constexpr int64_t MaxGridWalk = int64_t(1) << 32;

/// The most messages computeGrid builds (96 GiB of them); more is refused
/// before anything is allocated.
constexpr int64_t MaxGridMessages = int64_t(1) << 32;

/// The caterpillar's schedule holds max(P, Q) step lists, empty or not; past
/// this many processes on one side that alone would take gigabytes.
constexpr int64_t MaxCaterpillarSteps = int64_t(1) << 24;

/// Throws InvalidArgument when the messages of some process of From -> To
/// take more than MaxRunsPerProcess runs, by an upper bound at most about
/// twice the runs before merging. O(1). Every entry point of CommGrid.h and
/// MessagePattern.h calls it; callers may call it first for an early error.
void checkRunLimit(const Layout &From, const Layout &To);

} // namespace redist

#endif // REDIST_LIMITS_H
