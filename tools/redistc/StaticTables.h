//===- StaticTables.h - Schedules computed at translation time ------------===//
//
// For a redistribution whose parameters are all constant, redistc computes
// the schedule with lib/ (the same makeSchedule the runtime uses, with the
// cost model of redistc's --model) and describes each message with lib's
// MessagePattern, its runs written as run series (redist/RunSeries.h). The
// generated code holds these as the constant tables of a
// redist::TranslatedSchedule (redist/runtime/Translated.h), which the runtime's
// executor follows. A table has one row per message and one per run series,
// whatever N: when it would exceed the limit, planStatically says so and the
// directive uses the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_STATICTABLES_H
#define REDISTC_STATICTABLES_H

#include "redist/ArrayGrid.h"
#include "redist/ArraySchedulers.h"
#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/OverlapSchedulers.h"
#include "redist/RunSeries.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redistc {

/// One row of the message table (redist::TranslatedMessage).
struct TableMessage {
  int64_t Step = 0, Src = 0, Dst = 0, Elements = 0;
  int64_t First = 0, SliceSeries = 0, Repeat = 0, SrcStride = 0, DstStride = 0,
          TailSeries = 0;
};

/// One row of the event table (redist::TranslatedEvent).
struct TableEvent {
  int64_t Msg = 0, Start = 0, Len = 0;
};

struct StaticTables {
  std::string Algorithm;
  redist::ScheduleStats Stats;
  int64_t Steps = 0;
  /// Sorted by step, then source.
  std::vector<TableMessage> Messages;
  std::vector<redist::RunSeries> Series;
  /// An overlapped schedule (schedule(overlap), schedule(overlap_split)):
  /// its events, sorted by start, and its statistics. Its messages are then
  /// all in step 0 of one step.
  std::vector<TableEvent> Events;
  std::optional<redist::OverlapStats> Overlap;

  /// Rows of the two tables.
  int64_t rows() const {
    return static_cast<int64_t>(Messages.size() + Series.size() +
                                Events.size());
  }
};

struct StaticLimits {
  /// Largest number of table rows (messages plus run series) one directive
  /// may emit; redistc's --static-table-limit.
  int64_t MaxRows = 4096;
  /// Largest number of steps written as one call each; a schedule with more
  /// steps runs them in a loop over the tables' step numbers.
  int64_t MaxStepCalls = 64;
};

/// What to schedule with: a step algorithm, or an overlapped scheduler.
struct StaticAlgorithm {
  redist::Algorithm Steps = redist::Algorithm::Auto;
  std::optional<redist::OverlapAlgorithm> Overlap;
  int64_t OverlapEffort = 1; ///< redist::OverlapOptions::Effort
  /// False where the tables will be dropped (--dynamic): the overlapped
  /// schedulers then run with no search budget, which checks the directive
  /// with the same errors as the static path without the search.
  bool Search = true;
};

/// The outcome of trying the static path.
struct StaticPlan {
  std::optional<StaticTables> Tables;
  /// Why there are no tables: too large (the runtime takes over) ...
  std::string Fallback;
  /// ... or an error in the directive: the algorithm does not apply ...
  std::string Error;
  /// ... or the layouts exceed what the schedule library can describe
  /// (redist/Limits.h), which the runtime would refuse too.
  std::string Beyond;
};

StaticPlan planStatically(const redist::Layout &From, const redist::Layout &To,
                          const StaticAlgorithm &Algorithm,
                          int64_t ElementBytes, const StaticLimits &Limits,
                          const redist::CostModel &Model = redist::CostModel());

/// The same for an array of rank 2 or more moved with Region
/// (redist/ArrayGrid.h), with makeArraySchedule on computeArrayGrid (the
/// runtime's calls): the tables have only messages, between processes, and
/// no run series (the runtime cuts each message from its layouts).
StaticPlan planArrayStatically(
    const redist::ArrayLayout &From, const redist::ArrayLayout &To,
    const redist::ArrayRegion &Region, redist::ArrayAlgorithm Algorithm,
    int64_t ElementBytes, const StaticLimits &Limits,
    const redist::CostModel &Model = redist::CostModel());

} // namespace redistc

#endif // REDISTC_STATICTABLES_H
