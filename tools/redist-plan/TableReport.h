//===- TableReport.h - A plan as the papers' tables show it ---------------===//
//
// The human-readable report of redist-plan: the communication grid with the
// length and step of every message and the number of messages (N.M.) of each
// row and column, the steps with their messages and costs, and a summary with
// the lower bounds. docs/redist-plan.md describes the format; lit tests match
// it, so change both together.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_TABLEREPORT_H
#define REDIST_TOOLS_REDIST_PLAN_TABLEREPORT_H

#include "Plan.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace redistplan {

/// Grids with more processes than this on either side get the summary only.
constexpr int64_t MaxTableProcesses = 32;

/// The papers' name of step Index: a, b, ..., z, aa, ab, ..., zz, aaa, ...
std::string stepLabel(int64_t Index);

void printTable(llvm::raw_ostream &OS, const Plan &P);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_TABLEREPORT_H
