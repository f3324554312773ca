//===- NodeReads.h - Which plans must read the node's sources directly ----===//
//
// Shared by the MPI sweeps run with --node-memory, whose every source lies
// in node memory (redist/runtime/NodeMemory.h). A plan reads its messages
// within the node straight from their senders' sources (Plan::nodeReads())
// wherever it would hand them over through shared memory
// (Plan::sharedMessages()) and every source of the node is shared: in the
// Unsynchronized mode, the Overlapped mode (without a node phase it hands
// nothing over) and the Scheduled mode, in its node phase or, where its
// slots do not fit at once, before its steps; never with datatypes or in
// the Alltoallv mode, which hand nothing over. The Scheduled plans that
// hand over step by step are counted, so that a sweep can require some:
// whether a plan does (the memory bound decides, on every rank alike) is
// read off activeSteps(): a node phase makes this rank's messages within
// the node one step, stepwise each keeps its own.
//
// With the targets in node memory too (--node-targets), a node's ranks may
// share the whole tiles of all their targets (Plan::nodeWrites()). Whether
// a plan must is not exposed, so checkNodeWrites requires it only of plans
// the caller knows must (1-D: one node, the Unsynchronized mode, CYCLIC(r)
// -> CYCLIC(s) with short runs on every rank, moving in rounds; arrays: see
// ArrayShareFacts), and "never where it must not" of every plan: not more
// often than it reads, never on a node where a rank with messages within
// it passes a target outside shared node memory, and alike on every rank
// of a node with such messages; 1-D plans never without rounds
// (handoverRounds()). Array plans (ArrayPlan, MatrixPlan), whose ranks
// split the section's slabs, never unless all the communicator's ranks are
// on one node, each with a message to or from another rank, every source
// and target in shared node memory, the region neither permuted nor
// banded, not a combining execute, and not in the Alltoallv mode or with
// datatypes.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_NODEREADS_H
#define REDIST_TEST_MPI_NODEREADS_H

#include "redist/Schedule.h"
#include "redist/runtime/ArrayPlan.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// Plans (counted per rank) that read within the node, by mode; Scheduled
/// plans that hand over step by step (counted once); plans whose sources
/// were in node memory that the node did not share (per rank).
struct NodeReadTally {
  std::vector<int64_t> ByMode = std::vector<int64_t>(allExecModes().size(), 0);
  int64_t Stepwise = 0, Unshared = 0;

  /// Sums every count over Comm, on every rank.
  void sum(MPI_Comm Comm = MPI_COMM_WORLD) {
    MPI_Allreduce(MPI_IN_PLACE, ByMode.data(), static_cast<int>(ByMode.size()),
                  MPI_INT64_T, MPI_SUM, Comm);
    MPI_Allreduce(MPI_IN_PLACE, &Stepwise, 1, MPI_INT64_T, MPI_SUM, Comm);
    MPI_Allreduce(MPI_IN_PLACE, &Unshared, 1, MPI_INT64_T, MPI_SUM, Comm);
  }

  void print() const {
    std::printf("plans that read within the node, per rank:");
    for (ExecMode M : allExecModes())
      std::printf(" %s %lld", execModeName(M),
                  static_cast<long long>(ByMode[static_cast<std::size_t>(M)]));
    std::printf("; scheduled stepwise %lld; unshared sources %lld\n",
                static_cast<long long>(Stepwise),
                static_cast<long long>(Unshared));
  }
};

/// Checks Pl.nodeReads() after Pl ran Executes times (execute() calls and
/// step-0 calls of executeStep) since it was ReadsBefore, every rank's
/// source in node memory whose shared() was Shared on this rank. G and S
/// are the messages and schedule Pl follows, SrcRank and DstRank map their
/// process ids to ranks of Pl's communicator, RanksPerNode is the plan's
/// option. Collective over Pl's communicator. Returns the errors on this
/// rank; counts the plan in Tally (per rank; Stepwise on rank 0 only).
template <typename SrcRankFn, typename DstRankFn>
int64_t checkNodeReads(const Plan &Pl, int64_t ReadsBefore, int64_t Executes,
                       bool Shared, const CommGrid &G, const Schedule &S,
                       SrcRankFn SrcRank, DstRankFn DstRank,
                       NodeReadTally &Tally, const std::string &Label) {
  MPI_Comm Comm = Pl.communicator();
  const PlanOptions &O = Pl.options();
  const int Rank = Pl.rank();
  const int64_t Reads = Pl.nodeReads() - ReadsBefore;
  const bool HasShared = Pl.sharedMessages() > 0;
  int AllShared = Shared;
  MPI_Allreduce(MPI_IN_PLACE, &AllShared, 1, MPI_INT, MPI_LAND, Comm);
  // Scheduled: 1 where this rank sees a node phase, 2 where it sees none.
  int Sees = 0;
  if (O.Mode == ExecMode::Scheduled && HasShared) {
    const std::vector<int64_t> Steps = stepOfEachMessage(G, S);
    auto NodeOf = [&](int64_t R) {
      return O.RanksPerNode > 0 ? R / O.RanksPerNode : 0;
    };
    std::set<int64_t> Within, Across; // this rank's steps, by peer
    for (std::size_t I = 0; I < G.Messages.size(); ++I) {
      const int64_t From = SrcRank(G.Messages[I].Src),
                    To = DstRank(G.Messages[I].Dst);
      if (From == To || (From != Rank && To != Rank))
        continue;
      (NodeOf(From) == NodeOf(To) ? Within : Across).insert(Steps[I]);
    }
    std::set<int64_t> Any = Within;
    Any.insert(Across.begin(), Across.end());
    const auto Phase = static_cast<int64_t>(!Within.empty() + Across.size());
    const auto Stepwise = static_cast<int64_t>(Any.size());
    if (Phase != Stepwise)
      Sees = Pl.activeSteps() == Phase      ? 1
             : Pl.activeSteps() == Stepwise ? 2
                                            : 3;
  }
  MPI_Allreduce(MPI_IN_PLACE, &Sees, 1, MPI_INT, MPI_BOR, Comm);
  int64_t Errors = 0;
  auto Report = [&](const std::string &What) {
    ++Errors;
    std::printf("ERROR %s rank %d: %s\n", Label.c_str(), Rank, What.c_str());
  };
  if (Sees == 3)
    Report("activeSteps() " + std::to_string(Pl.activeSteps()) +
           " fits neither a node phase nor stepwise handovers");
  Tally.Unshared += !AllShared;
  Tally.Stepwise += Rank == 0 && Sees == 2;
  const int64_t Want = AllShared && HasShared && O.Pack != Packing::Datatypes &&
                               O.Mode != ExecMode::Alltoallv
                           ? Executes
                           : 0;
  if (Reads != Want)
    Report("read within the node " + std::to_string(Reads) + " times, " +
           "expected " + std::to_string(Want) + " (" +
           std::to_string(Pl.sharedMessages()) + " shared messages, " +
           std::to_string(Pl.activeSteps()) + " active steps)");
  Tally.ByMode[static_cast<std::size_t>(O.Mode)] += Reads > 0;
  return Errors;
}

/// Plans (counted per rank) whose executes shared the node's tiles, by
/// mode; plans required to (per rank); plans with some target outside
/// shared node memory (per rank).
struct NodeWriteTally {
  std::vector<int64_t> ByMode = std::vector<int64_t>(allExecModes().size(), 0);
  int64_t Required = 0, Private = 0;

  /// Sums every count over Comm, on every rank.
  void sum(MPI_Comm Comm = MPI_COMM_WORLD) {
    MPI_Allreduce(MPI_IN_PLACE, ByMode.data(), static_cast<int>(ByMode.size()),
                  MPI_INT64_T, MPI_SUM, Comm);
    MPI_Allreduce(MPI_IN_PLACE, &Required, 1, MPI_INT64_T, MPI_SUM, Comm);
    MPI_Allreduce(MPI_IN_PLACE, &Private, 1, MPI_INT64_T, MPI_SUM, Comm);
  }

  void print() const {
    std::printf("plans that wrote the node's targets, per rank:");
    for (ExecMode M : allExecModes())
      std::printf(" %s %lld", execModeName(M),
                  static_cast<long long>(ByMode[static_cast<std::size_t>(M)]));
    std::printf("; required %lld; private targets %lld\n",
                static_cast<long long>(Required),
                static_cast<long long>(Private));
  }
};

/// What only the caller of an array plan's (ArrayPlan's, MatrixPlan's)
/// execute knows, for checkNodeWrites. Such a plan must share the slabs
/// (every rank of its communicator on one node with a message to or from
/// another rank, every source and target in shared node memory, no single
/// copies, neither Reshaped nor Combining, the Unsynchronized mode without
/// datatypes, one axis with stride 1 in every rank's source and target
/// storage, and at least as many slabs, the product of the section's other
/// extents, as ranks): the caller says so with Must.
struct ArrayShareFacts {
  bool Reshaped = false;     ///< the region is permuted (transposed) or banded
  bool Combining = false;    ///< a combining execute (MatrixPlan's Combine)
  bool PeerMessages = false; ///< this rank sends to or receives from another
};

/// Where the array and matrix sweeps put one configuration's arrays, and
/// which of these checks they run on its plan.
struct NodeRun {
  /// Sources in node memory: checkNodeReads, counted here.
  NodeReadTally *Reads = nullptr;
  /// Targets there too (with Reads): checkNodeWrites, counted here.
  NodeWriteTally *Writes = nullptr;
  int HeapTarget = -1; ///< the rank whose target stays in ordinary memory
  bool Must = false;   ///< the plan must share the node's slabs
  std::string Tag;     ///< added to the labels of errors
};

/// Checks Pl.nodeWrites() of a fresh plan that ran Executes times
/// (execute() calls and step-0 calls of executeStep), this rank's source
/// and target in node memory its node shares where SourceShared and
/// TargetShared. Must: Pl is one the caller knows must share the tiles
/// wherever every source and target of the node is shared (then a 1-D plan
/// must move in rounds, too). Array: Pl is an array plan's (nullptr: a 1-D
/// plan's), with what its caller knows of it. Collective over Pl's
/// communicator. Returns the errors on this rank; counts the plan in Tally
/// (per rank).
inline int64_t checkNodeWrites(const Plan &Pl, int64_t Executes,
                               bool SourceShared, bool TargetShared, bool Must,
                               NodeWriteTally &Tally, const std::string &Label,
                               const ArrayShareFacts *Array = nullptr) {
  MPI_Comm Comm = Pl.communicator();
  const int Rank = Pl.rank();
  const int PerNode = Pl.options().RanksPerNode;
  const int64_t Writes = Pl.nodeWrites(), Reads = Pl.nodeReads();
  // Per rank: has messages within the node, source and target shared,
  // its writes, has messages with another rank (arrays), moves some by
  // single copies.
  enum { Within, Sources, Targets, Wrote, Peers, Direct, Width };
  const int64_t Mine[Width] = {Pl.sharedMessages() > 0,
                               SourceShared,
                               TargetShared,
                               Writes,
                               Array && Array->PeerMessages,
                               Pl.directMessages() > 0};
  int Size = 0;
  MPI_Comm_size(Comm, &Size);
  std::vector<int64_t> All(static_cast<std::size_t>(Size) * Width);
  MPI_Allgather(Mine, Width, MPI_INT64_T, All.data(), Width, MPI_INT64_T, Comm);
  auto NodeOf = [&](int R) { return PerNode > 0 ? R / PerNode : 0; };
  bool NodeShared = true, Alike = true;
  for (int R = 0; R < Size; ++R) {
    const int64_t *P = &All[static_cast<std::size_t>(R) * Width];
    if (NodeOf(R) != NodeOf(Rank))
      continue;
    // An array plan's node shares on every rank of it or on none.
    Alike = Alike && (!Array || P[Wrote] == Writes);
    if (!P[Within])
      continue;
    NodeShared = NodeShared && P[Sources] && P[Targets];
    Alike = Alike && (!Mine[Within] || P[Wrote] == Writes);
  }
  int64_t Errors = 0;
  auto Report = [&](const std::string &What) {
    ++Errors;
    std::printf("ERROR %s rank %d: %s (wrote %lld, read %lld times)\n",
                Label.c_str(), Rank, What.c_str(),
                static_cast<long long>(Writes), static_cast<long long>(Reads));
  };
  if (Writes > Reads)
    Report("wrote the node's targets more often than it read");
  if (Writes > 0 && !NodeShared)
    Report("wrote the node's targets, some of them outside node memory");
  if (!Array && Writes > 0 && Pl.handoverRounds() == 0)
    Report("wrote the node's targets without rounds");
  if (!Alike)
    Report("wrote the node's targets as often as not every rank of its node");
  if (!Array && Must && Pl.handoverRounds() == 0)
    Report("must share tiles but moves in no rounds (N too small here?)");
  if (Array) {
    // The rules over the whole communicator: the first that fails.
    const PlanOptions &O = Pl.options();
    bool EveryPeer = true, AllShared = true, Singles = false;
    for (int R = 0; R < Size; ++R) {
      const int64_t *P = &All[static_cast<std::size_t>(R) * Width];
      EveryPeer = EveryPeer && P[Peers];
      AllShared = AllShared && P[Sources] && P[Targets];
      Singles = Singles || P[Direct];
    }
    const char *Never = PerNode > 0 && PerNode < Size ? "on several nodes"
                        : !EveryPeer
                            ? "a rank with no message to or from another"
                        : !AllShared ? "a source or target outside node memory"
                        : Array->Reshaped  ? "a permuted or banded region"
                        : Array->Combining ? "a combining execute"
                        : O.Mode == ExecMode::Alltoallv ? "the Alltoallv mode"
                        : O.Pack == Packing::Datatypes  ? "datatypes"
                                                        : nullptr;
    if (Writes > 0 && Never)
      Report(std::string("shared the node's slabs with ") + Never);
    if (Must && Never && AllShared)
      Report(std::string("must share the node's slabs, but has ") + Never +
             " (a wrong case)");
    if (Must && AllShared && Singles)
      Report("must share the node's slabs, but some ranks move single copies "
             "(REDIST_SINGLE_COPY set?)");
    NodeShared = AllShared;
  }
  if (Must && NodeShared && Writes != Executes)
    Report("must write the node's targets on each of " +
           std::to_string(Executes) + " executes");
  Tally.ByMode[static_cast<std::size_t>(Pl.options().Mode)] += Writes > 0;
  Tally.Required += Must && NodeShared;
  Tally.Private += !TargetShared;
  return Errors;
}

/// The node checks of one array or matrix configuration (both sweeps),
/// after it ran twice, step by step where Steps: checkNodeReads where
/// Node.Reads, checkNodeWrites where Node.Writes. Reshaped: its region is
/// permuted or banded. SrcRank and DstRank map its process ids to ranks.
/// Src and Dst are the sweep's arrays (shared(), size()). Collective over
/// the plan's communicator. Returns the errors on this rank.
template <typename SrcBytes, typename DstBytes, typename SrcRankFn,
          typename DstRankFn>
int64_t checkArrayNodeRun(const ArrayPlan &Plan, const NodeRun &Node,
                          bool Steps, bool Reshaped, const SrcBytes &Src,
                          const DstBytes &Dst, SrcRankFn SrcRank,
                          DstRankFn DstRank, const std::string &Label) {
  const ExecMode Mode = Plan.plan().options().Mode;
  // Step 0 runs only where the schedule has steps.
  const int64_t Runs =
      Steps && Plan.schedule().Steps.empty() && Mode != ExecMode::Alltoallv ? 0
                                                                            : 2;
  int64_t Errors = 0;
  if (Node.Reads)
    Errors +=
        checkNodeReads(Plan.plan(), 0, Runs, Src.shared(), Plan.grid(),
                       Plan.schedule(), SrcRank, DstRank, *Node.Reads, Label);
  if (!Node.Writes)
    return Errors;
  ArrayShareFacts Facts;
  Facts.Reshaped = Reshaped;
  const int Rank = Plan.plan().rank();
  for (const Message &M : Plan.grid().Messages) {
    const int64_t From = SrcRank(M.Src), To = DstRank(M.Dst);
    Facts.PeerMessages =
        Facts.PeerMessages || (From != To && (From == Rank || To == Rank));
  }
  // An empty array is nowhere: it keeps no node from sharing.
  return Errors + checkNodeWrites(Plan.plan(), Runs,
                                  Src.shared() || !Src.size(),
                                  Dst.shared() || !Dst.size(), Node.Must,
                                  *Node.Writes, Label, &Facts);
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_NODEREADS_H
