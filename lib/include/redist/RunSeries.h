//===- redist/RunSeries.h - Runs that repeat at fixed distances -----------===//
//
// A message's runs (redist/MessagePattern.h) often form arithmetic series:
// CYCLIC to BLOCK gives a run of one element per source block, each one
// further on both sides by the same distances. A RunSeries names such a
// series in six numbers, so that a message of a whole slice is a handful of
// series, whatever its number of runs. redistc writes message descriptions in
// this form into the code it generates, and the runtime expands them back.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNSERIES_H
#define REDIST_RUNSERIES_H

#include "redist/MessagePattern.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace redist {

/// Count runs of Length elements: run K starts at SrcOffset + K * SrcStep on
/// the sender and DstOffset + K * DstStep on the receiver. An aggregate, so
/// that generated code can hold constant arrays of it.
struct RunSeries {
  int64_t SrcOffset;
  int64_t DstOffset;
  int64_t Length;
  int64_t SrcStep;
  int64_t DstStep;
  int64_t Count;
};

/// The runs, in order, as few series as a greedy pass finds: each series is
/// extended while the next run continues it, and a run starts a new series
/// rather than end one of two that the runs after it would continue.
std::vector<RunSeries> compressRuns(const std::vector<Run> &Runs);

/// Appends the runs of Series[0, Count) to Out, in order.
void expandRuns(const RunSeries *Series, std::size_t Count,
                std::vector<Run> &Out);

} // namespace redist

#endif // REDIST_RUNSERIES_H
