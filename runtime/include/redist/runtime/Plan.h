//===- redist/runtime/Plan.h - Plan once, execute many --------------------===//
//
// The MPI runtime of redist. A Plan is built once for a redistribution of a
// 1-D array of N elements from one Distribution to another over an MPI
// communicator; execute() then moves the data as often as needed, like an
// FFTW plan. Source processes are ranks 0..P-1 and target processes ranks
// 0..Q-1 of the communicator; other ranks take part without data.
//
// Invalid parameters throw redist::InvalidArgument on every rank before any
// communication (each rank checks the same parameters the same way).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_PLAN_H
#define REDIST_RUNTIME_PLAN_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/MessagePattern.h"
#include "redist/OverlapSchedule.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace redist {

namespace detail {
struct PlanBuilder;
} // namespace detail

/// How execute() moves the data.
enum class ExecMode {
  Scheduled,      ///< the schedule's steps: one Sendrecv per step per rank
  Unsynchronized, ///< Walker & Otto's: all receives posted, then all sends
  Alltoallv,      ///< one MPI_Alltoallv with packed buffers (MPI_Alltoallw
                  ///< with derived datatypes under Packing::Datatypes)
  /// An overlapped schedule's events (redist/OverlapSchedule.h), without
  /// steps: each rank sends its events in the order of their start times
  /// and receives likewise, one send and one receive in flight at a time.
  Overlapped,
};

/// The overlapped schedule the Overlapped mode follows.
enum class OverlapOrder {
  /// PlanOptions::Schedule's steps, compacted (compactSteps): every message
  /// starts as soon as both of its processes are free, in step order.
  Steps,
  Overlap,      ///< scheduleOverlap: no split message, least makespan
  OverlapSplit, ///< scheduleOverlapSplit: makespan T_opt, few splits
};

/// How message elements are gathered and scattered.
enum class Packing {
  /// Per message and per side: a derived datatype where this rank's runs of
  /// the message average at least AutoDatatypeRunBytes (MPI then moves long
  /// runs with one copy), copy loops otherwise. The Alltoallv mode, whose
  /// collective must be the same call on every rank, uses Runs.
  Auto,
  Runs,      ///< copy loops over the run descriptions of lib/
  Datatypes, ///< MPI derived datatypes built from the same runs
};

// Packing::Auto's threshold, AutoDatatypeRunBytes, is in
// redist/MessagePattern.h: redistc's static path uses it too.

/// "scheduled", "unsync", "alltoallv", "overlapped"; and their parser.
const char *execModeName(ExecMode M);
std::optional<ExecMode> parseExecMode(std::string_view Name);
std::vector<ExecMode> allExecModes();
/// "steps", "overlap", "overlap-split"; and their parser.
const char *overlapOrderName(OverlapOrder O);
std::optional<OverlapOrder> parseOverlapOrder(std::string_view Name);
std::vector<OverlapOrder> allOverlapOrders();
/// "auto", "runs", "datatypes"; and their parser.
const char *packingName(Packing K);
std::optional<Packing> parsePacking(std::string_view Name);
std::vector<Packing> allPackings();

struct PlanOptions {
  Algorithm Schedule = Algorithm::Auto;
  ExecMode Mode = ExecMode::Scheduled;
  /// The Overlapped mode's order. Overlap and OverlapSplit need that mode
  /// and make their own schedule, so Schedule must then stay Auto.
  OverlapOrder Overlap = OverlapOrder::Steps;
  /// How long the Overlap and OverlapSplit orders search
  /// (redist::OverlapOptions::Effort): 1 bounds a schedule search to about
  /// a second; N buys N times the work. From 1 to redist::MaxOverlapEffort.
  int64_t OverlapEffort = 1;
  Packing Pack = Packing::Auto;
  /// Check, with one collective, that every rank passed the same parameters;
  /// a mismatch throws InvalidArgument on every rank, naming the parameter
  /// and its values, instead of hanging or moving data wrongly. It rides on
  /// the MPI_Allreduce (of four numbers) by which the ranks agree on invalid
  /// parameters when the plan is built, and with it cachedPlan agrees on
  /// every lookup (docs/runtime.md gives its cost); turn it off only where
  /// every rank is known to compute the same parameters.
  bool Verify = true;
  /// In the Scheduled, Unsynchronized and Overlapped modes, a message
  /// between two ranks of one node moves through shared memory (found with
  /// MPI_COMM_TYPE_SHARED): the sender packs chunks of 256 KiB into four
  /// slots of its ring, and the receiver unpacks each straight from there
  /// while the next is packed. That is one copy less than an MPI transfer,
  /// and the chunks stay in cache. All of a rank's messages within the node
  /// move at once, so that each array is swept once: in the Scheduled mode
  /// before its steps (which then carry the MPI transfers only), where the
  /// slots of all fit in the largest message the rank sends or receives,
  /// otherwise one per step; in the Overlapped mode before its events, where
  /// they fit in its bound (bufferBytes()), otherwise over MPI. Zero-byte MPI
  /// messages carry the signals. Off, under Packing::Datatypes, or where a node
  /// cannot map shared memory, messages use MPI point-to-point transfers.
  bool SharedMemory = true;
  /// Which ranks SharedMemory takes for one node: 0 asks MPI
  /// (MPI_COMM_TYPE_SHARED); K > 0 splits each such node further into groups
  /// of K consecutive ranks, so that one machine runs the mix of handovers
  /// and MPI transfers a cluster sees (K = 1: every message over MPI).
  int RanksPerNode = 0;
  /// With SharedMemory, in every mode but Alltoallv: a message between two
  /// ranks of one node whose runs in the sender's source (adjacent ones
  /// read as one) average at least this many bytes, and its runs in the
  /// receiver's target at least 1 KiB (or this, when less), is read
  /// by the receiver straight from the sender's source into its target, one
  /// copy per element (Linux cross-memory attach, process_vm_readv): no
  /// buffer, no packing. 0: every such message; negative: none (the
  /// handover or MPI instead). None by default: the kernel pins every 4 KiB
  /// page it reads, and on a quiet machine the handover's two copies
  /// through cached chunks were faster at every run length measured; 8192
  /// pays where the arrays are in transparent huge pages or the node is
  /// heavily loaded. Where the kernel refuses on any rank of a node (Yama's
  /// ptrace_scope, a container), the whole node falls back, found when the
  /// plan is built. REDIST_SINGLE_COPY in the environment overrides it per
  /// receiving rank: "off" (the fallback, for the node), or a number of
  /// bytes (also where this asks none). See docs/runtime.md, "Single
  /// copies".
  int64_t SingleCopyRunBytes = -1;
  /// Fault injection, for tests: this rank fails to create its shared-memory
  /// ring, as a full /dev/shm would, and its node falls back to MPI. -1: none.
  int FailRingOnRank = -1;
  /// The cost model auto picks the schedule with (redist/CostModel.h); the
  /// plan sets its ElementBytes to the element size. By default the model
  /// in the file the environment variable REDIST_MODEL names (read once per
  /// process: a bad file throws InvalidArgument, naming the file and the
  /// member, from this constructor, so on every rank before any
  /// communication), or CostModel()'s documented defaults without it.
  CostModel Model = defaultCostModel();
  /// Largest number of bytes one MPI transfer carries; longer messages go in
  /// several pieces so that MPI's int counts never overflow. 0 means the
  /// default, INT_MAX. Tests set small values to exercise the splitting.
  int64_t MaxTransferBytes = 0;
};

class Plan {
public:
  /// ElementBytes is the size of one (trivially copyable) element.
  Plan(const Distribution &From, const Distribution &To, int64_t N,
       std::size_t ElementBytes, MPI_Comm Comm,
       const PlanOptions &Options = PlanOptions());
  ~Plan();
  Plan(Plan &&) noexcept;
  Plan &operator=(Plan &&) noexcept;
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  /// Moves this rank's source part (sourceLocalSize() elements at Src) into
  /// its target part (targetLocalSize() elements at Dst). Collective. Src and
  /// Dst must not overlap. A null Src or Dst where that part is not empty
  /// throws InvalidArgument on this rank, before it communicates (the other
  /// ranks then wait for it: catch it only to end the program cleanly).
  void execute(const void *Src, void *Dst) const;
  /// execute() in the steps of schedule(), for code that shows them as calls
  /// (redistc's): calling executeStep(Src, Dst, K) on every rank for K = 0,
  /// 1, ..., schedule().Steps.size() - 1, in this order, moves what execute()
  /// moves, with the same executor. Step K runs this rank's messages of step
  /// K, nothing when it has none. The local copy moves in this rank's first
  /// step with messages (step 0 when it has none); what execute() moves
  /// before the steps (the Scheduled mode's messages within the node) or
  /// without them (the Unsynchronized and Alltoallv modes) moves in step 0.
  void executeStep(const void *Src, void *Dst, int64_t K) const;

  /// Number of elements this rank holds before and after.
  int64_t sourceLocalSize() const;
  int64_t targetLocalSize() const;

  const Layout &source() const;
  const Layout &target() const;
  /// The schedule the Scheduled and Unsynchronized modes follow, and its
  /// statistics. Computed on first use when the plan did not need it (the
  /// caterpillar's steps have a closed form; Alltoallv needs no schedule).
  const Schedule &schedule() const;
  ScheduleStats stats() const;
  /// The events the Overlapped mode follows, as ids of the grid's messages
  /// (computeGrid(source(), target())). Computed on first use in the other
  /// modes.
  const OverlapSchedule &overlapSchedule() const;

  /// The parameters the plan was built with.
  const PlanOptions &options() const;
  std::size_t elementBytes() const;
  /// The communicator passed to the constructor (the plan communicates on a
  /// duplicate of it, so its messages never match the program's).
  MPI_Comm communicator() const;
  /// This rank's rank in that communicator.
  int rank() const;

  /// Number of this rank's messages (sent plus received) that move by
  /// single copies (PlanOptions::SingleCopyRunBytes).
  int64_t directMessages() const;
  /// Bytes of message buffers this plan holds on this rank, its shared ring
  /// included. In the Scheduled and Overlapped modes this is at most the
  /// largest message (Overlapped: part) the rank sends plus the largest it
  /// receives (messages sent or received with a datatype need none; a
  /// message handed over through shared memory needs four chunks, or up to
  /// 64 rounds within that bound, of the sender's ring, which also holds its
  /// MPI sends; a single copy none).
  std::size_t bufferBytes() const;
  /// Number of steps in which this rank sends or receives; in the Scheduled
  /// and Overlapped modes, the messages within the node that move at once
  /// count as one.
  int64_t activeSteps() const;
  /// Number of MPI transfers of data this rank posts per execute():
  /// point-to-point sends plus receives (a message longer than
  /// MaxTransferBytes counts once per piece; one through shared memory counts
  /// none), or the number of collective calls in the Alltoallv mode.
  int64_t transfers() const;
  /// Number of messages this rank sends plus receives through shared memory.
  int64_t sharedMessages() const;
  /// Where those move all at once with block-cyclic layouts: the number of
  /// rounds of whole slices of lcm(P*r, Q*s) elements they move in, each
  /// round packed and unpacked in one sweep over all of them. 0 when they
  /// move chunk by chunk of each message, or there are none.
  int64_t handoverRounds() const;
  /// Number of execute() calls (or step-0 calls of executeStep) so far in
  /// which this rank read its messages within the node straight from their
  /// senders' sources, all of them in node memory (NodeMemory.h), instead
  /// of taking the handover.
  int64_t nodeReads() const;
  /// Number of those in which this rank also wrote parts of the node's
  /// other ranks' targets: where every source and every target on the node
  /// lies in node memory, and each rank's target comes from the node in
  /// short runs with whole tiles of one shape (block-cyclic layouts), the
  /// node's ranks split the tiles of all their targets among them; an
  /// array plan (ArrayPlan, MatrixPlan) on one node splits the section's
  /// slabs instead (docs/runtime.md, "Node memory").
  int64_t nodeWrites() const;

  class Impl;

private:
  friend struct detail::PlanBuilder;
  explicit Plan(std::unique_ptr<Impl> Built);
  void checkBuffers(const void *Src, const void *Dst) const;
  std::unique_ptr<Impl> P;
};

} // namespace redist

#endif // REDIST_RUNTIME_PLAN_H
