//===- Report.h - How redist-bench prints what it measured ----------------===//
//
// A table for people (one row per method, with the references in the
// header) or, with --json, one JSON object per method with exactly the
// fields method, algorithm, P, r, Q, s, N, ranks, median_s, min_s, gbps,
// memcpy_s, limit_s, x_memcpy, x_limit and verified, and node_writes for
// the methods on node memory; for gen_block, source and target (the segment
// sizes) replace r and s. GB/s is N * 8 bytes over the median time;
// x_memcpy and x_limit are the method's median over the medians of the
// references (one core's memcpy, the parallel copy limit); node_writes, in
// how many of the timed runs the node's ranks shared the writing of their
// targets (Result::NodeWrites; "-" in the table for the other methods).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_REPORT_H
#define REDIST_BENCH_REPORT_H

#include "Session.h"

#include <vector>

namespace redist {
namespace bench {

/// NodeShared: whether the node memory the plans read is shared.
void printHeader(const Problem &Pb, const ReferenceTimes &Refs, int Reps,
                 bool NodeShared);
void printRow(const Result &R, const Problem &Pb, const ReferenceTimes &Refs);
void printJson(const Result &R, const Problem &Pb, const ReferenceTimes &Refs);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_REPORT_H
