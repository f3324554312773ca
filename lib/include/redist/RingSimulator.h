//===- redist/RingSimulator.h - The ring model, event by event ------------===//
//
// Two discrete-event simulations of ring-redistribution's communication
// model (redist/Ring.h):
//   - checkRingSchedule replays a timed transfer list and checks it: links
//     and directions exist, each process sends one item at a time and
//     receives one at a time, no process ever sends an item it does not
//     hold, and the final loads are the targets. It gives the makespan.
//   - runRingFlows takes per-link counts and sends every item as soon as
//     possible: as soon as its sender holds an item and both the sender's
//     send port and the receiver's receive port are free. This is how
//     schedules are timed when processes must wait for items to forward.
//   - chunkRingTransfers cuts a schedule into pieces whose items the sender
//     all holds when the piece starts, which is what an executor that sends
//     whole messages needs (redist/runtime/Ring.h).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RINGSIMULATOR_H
#define REDIST_RINGSIMULATOR_H

#include "redist/Ring.h"

#include <cstdint>
#include <string>
#include <vector>

namespace redist {

struct RingCheck {
  /// Empty when the schedule is valid; otherwise the first violation.
  std::string Error;
  double Makespan = 0;
  /// Items each process sends each way, counted from the transfers.
  std::vector<std::int64_t> Fwd, Bwd;

  bool valid() const { return Error.empty(); }
};

/// Replays Transfers on P (which must be valid, see validateRingProblem).
/// Times are compared with ringTimeTolerance: an item that arrives at t can
/// leave again at t.
RingCheck checkRingSchedule(const RingProblem &P,
                            const std::vector<RingTransfer> &Transfers);

/// Which link wins when two items could start at the same time on links that
/// share a port (a process sending both ways, or receiving from both sides).
enum class RingPriority { ForwardFirst, BackwardFirst };

/// Sends Fwd[i] items from i to i + 1 and Bwd[i] from i to i - 1, each as
/// soon as possible (see above), and returns the transfers, consecutive
/// items on one link merged. Throws InvalidArgument if the counts do not
/// turn the loads into the targets, or use backward links on a
/// unidirectional ring, or if the sends can never all happen (items
/// circling a ring of empty processes).
std::vector<RingTransfer>
runRingFlows(const RingProblem &P, const std::vector<std::int64_t> &Fwd,
             const std::vector<std::int64_t> &Bwd,
             RingPriority Priority = RingPriority::ForwardFirst);

/// The last arrival of Transfers on P.
double ringMakespan(const RingProblem &P,
                    const std::vector<RingTransfer> &Transfers);

/// The counts each process sends each way in Transfers, into Fwd and Bwd.
void countRingTransfers(std::int64_t N,
                        const std::vector<RingTransfer> &Transfers,
                        std::vector<std::int64_t> &Fwd,
                        std::vector<std::int64_t> &Bwd);

/// Transfers (a valid schedule of P) cut so that the sender holds every item
/// of a piece when the piece starts, counting only items that have arrived
/// by then; no piece has more than MaxItems items (0: no limit). Sorted by
/// start, sender and direction, like RingSchedule::Transfers, so that every
/// process sees its pieces on each link in link order.
std::vector<RingTransfer>
chunkRingTransfers(const RingProblem &P,
                   const std::vector<RingTransfer> &Transfers,
                   std::int64_t MaxItems = 0);

/// Sorts Transfers by start, sender and direction.
void sortRingTransfers(std::vector<RingTransfer> &Transfers);

} // namespace redist

#endif // REDIST_RINGSIMULATOR_H
