//===- GanttChart.h - A schedule drawn as an SVG time chart ---------------===//
//
// redist-plan --gantt: one row per process (the sources' sends, then the
// targets' receives), time in elements on the x axis, one box per event.
// Overlapped schedules are drawn as they run; step schedules on a time line,
// each step starting when the previous step's longest message ends, with
// the step boundaries dashed, so the two kinds compare at a glance. A red
// line marks T_opt. Boxes carry class="event" and data-* attributes, and the
// rows class="row", so tests can check the structure.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_GANTTCHART_H
#define REDIST_TOOLS_REDIST_PLAN_GANTTCHART_H

#include "Plan.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace redistplan {

/// Charts of more processes than this (sources and targets) are refused.
constexpr int64_t MaxGanttProcesses = 512;

/// Writes P's chart. Throws redist::InvalidArgument when P has more than
/// MaxGanttProcesses processes.
void writeGantt(llvm::raw_ostream &OS, const Plan &P);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_GANTTCHART_H
