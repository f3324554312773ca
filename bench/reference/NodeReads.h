//===- NodeReads.h - Whether a benchmarked plan read node memory ----------===//
//
// The benchmarks run redist with its source and its target in node memory
// (NodeMemory.h), where a plan reads the messages within the node straight
// from their senders' sources (and, where the layouts allow, the node's ranks
// share the writing of all their targets), and beside it redist-private, the
// same plan on ordinary memory (the handover). Where the node memory is
// shared but a plan took the handover anyway, its times measure the wrong
// path: the benchmark fails instead of reporting them.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_NODEREADS_H
#define REDIST_BENCH_NODEREADS_H

#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace redist {
namespace bench {

/// The note each benchmark prints once: whether its node memory is shared.
std::string nodeMemoryNote(bool Shared);

/// Empty when Pl read straight from node memory in each of its last Runs
/// executes (nodeReads() grew by Runs since ReadsBefore) on every rank of
/// Comm where it should: where Shared (the source is node memory the node's
/// ranks map) and Pl has messages within the node. Otherwise the message
/// naming the first rank that did not, the same on every rank. Collective.
std::string missedNodeReads(const std::string &Method, const Plan &Pl,
                            int64_t ReadsBefore, int64_t Runs, bool Shared,
                            MPI_Comm Comm);

/// How many of Pl's executes since WritesBefore (its nodeWrites() then)
/// shared the node's tiles among its ranks, the most of any rank of Comm
/// (the ranks of a node agree; a rank with nothing to move shares none).
/// Whether they do depends on the layouts: zero is no error. Collective.
int64_t nodeWritesSince(const Plan &Pl, int64_t WritesBefore, MPI_Comm Comm);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_NODEREADS_H
