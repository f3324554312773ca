//===- redist/OverlapSchedule.h - Schedules without synchronous steps -----===//
//
// An overlapped schedule (desprez-1998-overlapped, "More on Scheduling
// Block-Cyclic Array Redistribution") drops the steps: a process starts its
// next message as soon as its port is free. It is a list of events, each a
// piece of one message sent over [Start, Start + Len), with time counted in
// elements. At no time does a process send two events, nor receive two
// events; a message may be split into several events. Its makespan is the
// end of the last event. No schedule beats T_opt, the largest number of
// elements one process sends or receives (the paper's Lemma 1).
//
// compactSteps turns any synchronous step schedule into an overlapped one,
// so that every step algorithm gives an overlapped order for free.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_OVERLAPSCHEDULE_H
#define REDIST_OVERLAPSCHEDULE_H

#include "redist/CommGrid.h"
#include "redist/Schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {

struct OverlapEvent {
  int64_t Msg;   ///< message id: index into CommGrid::Messages
  int64_t Start; ///< first time unit
  int64_t Len;   ///< elements sent, one per time unit
  int64_t end() const { return Start + Len; }
  bool operator==(const OverlapEvent &O) const {
    return Msg == O.Msg && Start == O.Start && Len == O.Len;
  }
};

struct OverlapSchedule {
  /// "overlap", "overlap-split", or, for compactSteps, the step algorithm's
  /// name.
  std::string Algorithm;
  /// Sorted by (Start, Msg). A message's events never touch: two events of
  /// one message that would be back to back are one event.
  std::vector<OverlapEvent> Events;
};

struct OverlapStats {
  int64_t Makespan = 0;        ///< end of the last event
  int64_t Events = 0;          ///< number of events
  int64_t SplitMessages = 0;   ///< messages sent as two events or more
  int64_t MakespanBound = 0;   ///< T_opt: the grid's largest process volume
  int64_t StepsLowerBound = 0; ///< the grid's maximum degree
};

/// T_opt: no overlapped schedule of G ends before the largest number of
/// elements one process sends or receives.
int64_t makespanLowerBound(const CommGrid &G);

/// Checks S against G: ids in range, every event at a start >= 0 with a
/// positive length, each message's events add up to its length, and no
/// process sends two events or receives two events at once. Returns the first
/// problem found, or nullopt when S is valid.
std::optional<std::string> validateOverlapSchedule(const CommGrid &G,
                                                   const OverlapSchedule &S);

/// Makespan, events, split messages and bounds of a (valid) schedule.
OverlapStats measureOverlapSchedule(const CommGrid &G,
                                    const OverlapSchedule &S);

/// The events of S sorted by (Start, Msg), with the back-to-back events of a
/// message merged into one.
std::vector<OverlapEvent> normalizeEvents(std::vector<OverlapEvent> Events);

/// The bridge from steps: the messages of Steps (valid for G), one event
/// each, in step order, each starting as soon as both of its processes are
/// free. The makespan is never above the step schedule's cost. Named after
/// Steps.Algorithm.
OverlapSchedule compactSteps(const CommGrid &G, const Schedule &Steps);

/// The step schedule drawn on a time line: step k starts when step k - 1's
/// longest message ends, so the makespan is the schedule's cost. For
/// comparing a synchronous schedule with overlapped ones.
OverlapSchedule stepsOnTimeLine(const CommGrid &G, const Schedule &Steps);

} // namespace redist

#endif // REDIST_OVERLAPSCHEDULE_H
