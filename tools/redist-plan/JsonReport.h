//===- JsonReport.h - A plan in the redist-schedule/1 JSON format ---------===//
//
// The machine-readable report of redist-plan, for scripts and other tools.
// docs/redist-plan.md specifies the format field by field; any change to it
// needs a new "format" string.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_JSONREPORT_H
#define REDIST_TOOLS_REDIST_PLAN_JSONREPORT_H

#include "Plan.h"

#include "llvm/Support/raw_ostream.h"

namespace redistplan {

/// The value of the "format" field.
constexpr const char *JsonFormatName = "redist-schedule/1";

void printJson(llvm::raw_ostream &OS, const Plan &P);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_JSONREPORT_H
