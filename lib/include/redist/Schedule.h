//===- redist/Schedule.h - Contention-free communication steps ------------===//
//
// A schedule splits the messages of a CommGrid into steps. In a valid step no
// process sends twice and no process receives twice. The cost of a step is
// its longest message; the cost of a schedule is the sum over its steps
// (desprez-1998 §4.3.1). redist/CostModel.h turns a schedule's statistics
// into a predicted time.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_SCHEDULE_H
#define REDIST_SCHEDULE_H

#include "redist/CommGrid.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {

struct Schedule {
  /// Name of the algorithm that produced it, as parseAlgorithm accepts it.
  std::string Algorithm;
  /// Message ids (indices into CommGrid::Messages), one list per step. A step
  /// may be empty (the caterpillar has empty steps).
  std::vector<std::vector<int64_t>> Steps;
  /// Empty, or says how the schedule departs from what Algorithm builds on
  /// whole slices (classes and walker_otto repair an incomplete slice).
  std::string Note;
  /// Set by auto only: which algorithm it picked and why, in one line.
  std::string Choice;
};

struct ScheduleStats {
  int64_t Steps = 0;           ///< number of steps, empty ones included
  int64_t NonEmptySteps = 0;   ///< steps with at least one message
  int64_t Cost = 0;            ///< sum over steps of the longest message
  int64_t StepsLowerBound = 0; ///< the grid's maximum degree
  int64_t CostLowerBound = 0;  ///< the largest volume of one process
  /// The most messages on one chain of start-ups. Source process p and
  /// target process p are one rank, as in the runtime, and a message between
  /// them is a local copy, not a message. A rank takes part in its messages
  /// one step after another, each waiting for the earlier steps of both its
  /// ranks, so a chain is a sequence of messages in increasing steps, each
  /// sharing a rank with the one before; this counts the longest. At most
  /// NonEmptySteps; fewer when no rank is busy in every step.
  int64_t CriticalMessages = 0;
  /// No schedule has fewer: the most messages one rank sends, or receives
  /// (local copies not counted).
  int64_t CriticalLowerBound = 0;
};

/// Checks S against G: every message appears in exactly one step, ids are in
/// range, and no process sends or receives twice in a step. Returns a
/// description of the first problem found, or nullopt when S is valid.
std::optional<std::string> validateSchedule(const CommGrid &G,
                                            const Schedule &S);

/// What every schedule of a grid shares: its lower bounds (as in
/// ScheduleStats), and the ranks measureSchedule walks the critical chains
/// on. Worth keeping when several schedules of one grid are measured.
struct GridBounds {
  int64_t StepsLowerBound = 0;
  int64_t CostLowerBound = 0;
  int64_t CriticalLowerBound = 0;
  /// Dense rank of message Id's source at 2 Id, of its target at 2 Id + 1
  /// (one cache miss for both); source p and target p are one rank. Empty
  /// when the ranks are the process numbers themselves (few processes next
  /// to messages): then the messages' own Src and Dst serve, and a copy of
  /// them would only cost memory.
  std::vector<int32_t> RankOf;
  size_t Ranks = 0; ///< how many ranks RankOf numbers
};

/// The bounds of G.
GridBounds measureGrid(const CommGrid &G);

/// Steps, cost and lower bounds of a (valid) schedule of G, B being
/// measureGrid(G).
ScheduleStats measureSchedule(const CommGrid &G, const GridBounds &B,
                              const Schedule &S);

/// Steps, cost and lower bounds of a (valid) schedule.
ScheduleStats measureSchedule(const CommGrid &G, const Schedule &S);

/// Step of each message (index = message id), -1 if unscheduled.
std::vector<int64_t> stepOfEachMessage(const CommGrid &G, const Schedule &S);

} // namespace redist

#endif // REDIST_SCHEDULE_H
