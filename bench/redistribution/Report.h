//===- Report.h - How redist-bench prints what it measured ----------------===//
//
// A table for people (one row per method, with the memcpy reference in the
// header) or, with --json, one JSON object per method with exactly the
// fields method, algorithm, P, r, Q, s, N, ranks, median_s, min_s, gbps and
// verified; for gen_block, source and target (the segment sizes) replace r
// and s. GB/s is N * 8 bytes over the median time.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_REPORT_H
#define REDIST_BENCH_REPORT_H

#include "Session.h"

#include <vector>

namespace redist {
namespace bench {

void printHeader(const Problem &Pb, const std::vector<double> &MemcpyTimes,
                 int Reps);
void printRow(const Result &R, const Problem &Pb, double MemcpyMedian);
void printJson(const Result &R, const Problem &Pb);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_REPORT_H
