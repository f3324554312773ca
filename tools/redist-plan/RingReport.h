//===- RingReport.h - A ring rebalancing as a table or redist-ring/1 JSON -===//
//
// What `redist-plan ring` prints: the problem, the items each process sends
// each way, the timed transfers, the makespan and the lower bound, either
// for people or as the redist-ring/1 JSON document, which docs/ring.md
// specifies field by field (any change to it needs a new "format" string).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_RINGREPORT_H
#define REDIST_TOOLS_REDIST_PLAN_RINGREPORT_H

#include "redist/Ring.h"

#include "llvm/Support/raw_ostream.h"

namespace redistplan {

/// The value of the "format" field.
constexpr const char *RingJsonFormatName = "redist-ring/1";

void printRingJson(llvm::raw_ostream &OS, const redist::RingProblem &P,
                   const redist::RingSchedule &S);
void printRingTable(llvm::raw_ostream &OS, const redist::RingProblem &P,
                    const redist::RingSchedule &S,
                    redist::RingAlgorithm Requested);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_RINGREPORT_H
