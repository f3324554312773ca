//===- PlanImpl.h - What a Plan holds -------------------------------------===//
//
// Private to the runtime. Everything execute() needs is computed when the
// plan is built: this rank's messages in the order it handles them, the copy
// programs or datatypes (chosen per message under Packing::Auto) of each MPI
// transfer, the buffers and the request array. execute() then allocates
// nothing and decides nothing per element.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_PLANIMPL_H
#define REDIST_RUNTIME_PLANIMPL_H

#include "ArrayMessages.h"
#include "CopyProgram.h"
#include "NodeHandover.h"
#include "SingleCopy.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/Plan.h"
#include "redist/runtime/Translated.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace redist {
namespace detail {

/// One MPI transfer: a message, or a piece of one when it is longer than
/// MaxTransferBytes (so that no count overflows an int).
struct Transfer {
  int64_t ByteOffset = 0; ///< in the plan's send or receive buffer (Runs)
  int Bytes = 0;          ///< (Runs)
  MPI_Datatype Type = MPI_DATATYPE_NULL; ///< count 1 (Datatypes)
};

/// One message's (or the local copy's) programs for rounds: a tile of
/// PerTile slices, the shorter tile at the end of the whole slices, and
/// the incomplete slice; tiles run at shifted addresses.
struct RoundPrograms {
  int64_t PerSlice = 0; ///< elements in each whole slice
  CopyProgram Tile, LastTile, Tail;
  /// Builds them from C, on Side, for tiles of PerTile slices of Slices
  /// whole slices, and the incomplete slice after them when Incomplete.
  void build(const MessageCutter &C, CopySide Side, int64_t PerTile,
             int64_t Slices, bool Incomplete) {
    const int64_t Last = Slices % PerTile;
    Tile = C.tileProgram(Side, 0, PerTile * PerSlice);
    if (Last > 0)
      LastTile = C.tileProgram(Side, 0, Last * PerSlice);
    if (Incomplete)
      Tail = C.program(Side, Slices * PerSlice, C.length());
  }
  /// The program of a tile of Count slices (the last when fewer than
  /// PerTile), or of the incomplete slice.
  const CopyProgram &of(int64_t Count, int64_t PerTile, bool Incomplete) const {
    return Incomplete ? Tail : Count < PerTile ? LastTile : Tile;
  }
};

/// A message this rank sends or receives over MPI.
struct PeerMessage {
  int Peer = 0;
  int64_t Elements = 0;
  /// The step; in the Overlapped mode, the start of the event this is.
  int64_t Step = 0;
  /// Its id in Plan::Impl::grid(), where the grid is not over ranks (a
  /// matrix plan's, over processes); -1: the grid's message between the
  /// two ranks.
  int64_t GridId = -1;
  /// The Overlapped mode moves a message split into several events as
  /// several parts: this one is elements [First, First + Elements) of it.
  int64_t First = 0;
  std::vector<Transfer> Pieces;
  /// Sent or received with derived datatypes (Transfer::Type), without a
  /// buffer; otherwise packed or unpacked by Program.
  bool Typed = false;
  /// The pack (sent) or unpack (received) program of the whole message, and
  /// where the message starts in the buffer.
  detail::CopyProgram Program;
  int64_t BufferOffset = 0;
  /// Handed over through the node's shared-memory window instead of MPI
  /// transfers (SharedMemory.cpp): packed (sender) or unpacked (receiver)
  /// one chunk program at a time, chunk C in slot C mod HandoverSlots of the
  /// sender's ring.
  bool Shared = false;
  std::vector<detail::CopyProgram> Chunks;
  std::size_t SlotBytes = 0;      ///< bytes of one chunk (and slot)
  int64_t RingOffset = 0;         ///< bytes: where its slots start (sender)
  const char *PeerRing = nullptr; ///< the sender's ring (receiver side)
  /// In rounds (Plan::Impl::Shape): its programs, instead of Chunks.
  RoundPrograms Round;
  /// Read by the receiver straight from the sender's source (SingleCopy.h),
  /// Program being the receiver's CopySide::Direct program; no buffer.
  bool Direct = false;
  /// A Shared receive's CopySide::Direct programs, for reading it straight
  /// from its sender's source in node memory (NodePull.cpp): in rounds, or
  /// whole; and its sender's rank in the plan's PullComm.
  RoundPrograms PullRound;
  CopyProgram PullProgram;
  int PullPeer = -1;
};

/// What one call of runGroup does: one step of the schedule in the Scheduled
/// mode (at most one send and one receive), or the messages within the node
/// that move at once before the steps, or everything in the Unsynchronized
/// and Overlapped modes (in the latter, Sends and Recvs in the order of
/// their events' starts).
struct Group {
  /// The schedule's step it runs in (Plan::executeStep); 0 for the node
  /// phase and the Unsynchronized mode's one group.
  int64_t Step = 0;
  std::vector<int> Sends, Recvs; ///< indices into Sends and Recvs
  bool Self = false;             ///< do the local copy here
  /// (message, piece) of each receive request, in posting order.
  std::vector<std::pair<int, int>> RecvPieces;
  std::size_t SendPieces = 0;
  /// The messages handed over through shared memory (indices into Sends and
  /// Recvs, absent from Sends and Recvs above): at most one each in a step
  /// of the Scheduled mode, all of them in its first group (NodePhase) and
  /// in the Unsynchronized mode.
  std::vector<int> SharedSends, SharedRecvs;
  bool shared() const { return !SharedSends.empty() || !SharedRecvs.empty(); }
  /// Moves them in rounds of whole slices, with the local copy in the
  /// unpacking (SliceRounds.cpp).
  bool InRounds = false;
  /// The Overlapped mode's parts over MPI: Sends and Recvs in the order of
  /// their events, one in flight per direction (runInOrder).
  bool InOrder = false;
  HandoverRounds Rounds;
  /// Their descriptions for handOver(), built with the plan.
  std::vector<HandoverSend> Outs;
  std::vector<HandoverRecv> Ins;
  /// The single-copy messages (indices into Sends and Recvs, absent from
  /// the lists above), all in the first group; the node ranks that read this
  /// rank's source, and those it reads from.
  std::vector<int> DirectSends, DirectRecvs;
  std::vector<int> DirectReaders;
  std::vector<DirectSource> DirectSources;
  bool direct() const { return !DirectSends.empty() || !DirectRecvs.empty(); }
};

/// Splits [0, Elements) into pieces of at most PieceElements.
template <typename Fn>
void forEachPiece(int64_t Elements, int64_t PieceElements, Fn &&F) {
  for (int64_t B = 0; B < Elements; B += PieceElements)
    F(B, std::min(Elements, B + PieceElements));
}

/// One MPI_Alltoallv (or MPI_Alltoallw) call of the Alltoallv mode.
struct AlltoallRound {
  std::vector<int> SendCounts, SendDispls, RecvCounts, RecvDispls;
  /// Per peer rank: the pack / unpack program of its piece (Runs).
  std::vector<detail::CopyProgram> SendPrograms, RecvPrograms;
  /// Per peer rank (Datatypes): count 1 of these, or MPI_BYTE with count 0.
  std::vector<MPI_Datatype> SendTypes, RecvTypes;
};

/// Memory for packed messages, touched once when the plan is built so that
/// execute() never pays page faults; large buffers ask for transparent huge
/// pages, which makes that first touch an order of magnitude cheaper.
class MessageBuffer {
public:
  void allocate(std::size_t Bytes);
  /// Uses memory owned elsewhere (a shared-memory ring) instead.
  void borrow(char *Memory);
  char *get() const { return Data.get(); }

private:
  struct Free {
    Free() : Owned(true) {}
    explicit Free(bool Owned) : Owned(Owned) {}
    bool Owned;
    void operator()(char *P) const;
  };
  std::unique_ptr<char, Free> Data;
};

} // namespace detail

class Plan::Impl {
public:
  /// Without communicating: the layouts and, where execute() follows it, the
  /// schedule. Throws InvalidArgument when the algorithm cannot schedule
  /// these messages. The parameters must have passed findInvalidParameter.
  /// With Given, the schedule and the messages' runs come from its tables
  /// (translatedPlan), which are checked against the layouts instead.
  Impl(const Distribution &From, const Distribution &To, int64_t N,
       std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options,
       const TranslatedSchedule *Given = nullptr);
  /// An array plan (ArrayPlan.h, MatrixPlan.h): its messages come from
  /// Problem instead of 1-D layouts. Computes the schedule like the
  /// constructor above.
  Impl(std::unique_ptr<detail::ArrayProblem> Problem, std::size_t ElementBytes,
       MPI_Comm Comm, const PlanOptions &Options);
  /// Frees whatever build() acquired, even if it stopped half-way.
  ~Impl();
  /// Collective: duplicates the communicator and builds everything
  /// execute() needs.
  void build();

  void execute(const char *Src, char *Dst) const;
  /// The groups of step K (everything in step 0 in the Alltoallv mode).
  void executeStep(const char *Src, char *Dst, int64_t K) const;
  const CommGrid &grid() const;
  const Schedule &schedule() const;
  /// The Overlapped mode's events: the tables' (Given with events), or
  /// Options.Overlap's scheduler's, or the step schedule compacted.
  const OverlapSchedule &overlapSchedule() const;

  Layout Source, Target;
  int64_t N;
  std::size_t ElementBytes;
  MPI_Comm UserComm;
  /// Our duplicate, made by build() unless the plan's agreement made it.
  MPI_Comm Comm = MPI_COMM_NULL;
  int Rank = 0, CommSize = 0;
  PlanOptions Options;
  /// The tables this plan follows (translatedPlan), or null.
  const TranslatedSchedule *Given = nullptr;
  /// An array plan's problem and messages, or null; Source and Target are
  /// then empty placeholders.
  std::unique_ptr<detail::ArrayProblem> Array;
  std::unique_ptr<detail::ArrayMessages> ArrayMsgs;

  std::vector<detail::PeerMessage> Sends, Recvs; ///< in step order
  detail::CopyProgram Self; ///< this rank's message to itself
  /// When the first group also packs a message, that packing and the local
  /// copy read the same source lines: they run interleaved, piece I of one
  /// after piece I of the other, while those lines are still cached.
  struct FusedPiece {
    detail::CopyProgram Pack, Self;
    int64_t BufferByte = 0; ///< where Pack writes, from the message's start
  };
  std::vector<FusedPiece> Fused;
  int FusedSend = -1; ///< the send packed with Fused (index into Sends)
  std::vector<detail::Group> Groups;
  /// Scheduled and Overlapped modes: the messages handed over within the
  /// node move all at once in a first group, before the steps (or events)
  /// of the MPI transfers (SharedMemory.cpp).
  bool NodePhase = false;
  /// Where a group moves all of a node's messages at once, it does so in
  /// rounds of this shape (Slices == 0: chunks of each message instead).
  RoundShape Shape;
  detail::RoundPrograms SelfRound;
  std::vector<detail::AlltoallRound> Rounds;
  MPI_Datatype ElementType = MPI_DATATYPE_NULL;

  detail::MessageBuffer SendBuffer, RecvBuffer;
  std::size_t SendBytes = 0, RecvBytes = 0;
  bool SendBufferInRing = false; ///< SendBuffer borrows ring()

  /// The node's shared-memory rings, when a message is handed over
  /// (SharedMemory.cpp); ring() is this rank's, ringBytes() its size.
  std::unique_ptr<NodeRings> Rings;
  char *ring() const;
  std::size_t ringBytes() const;
  /// Process ids of the node's ranks where single copies work, else empty.
  std::vector<long> NodePids;
  mutable SingleCopyScratch Direct;
  mutable uint64_t SourceAddress = 0; ///< sent to the readers (startDirect)
  /// The local copy cut into chunks, interleaved with a shared step's packing.
  std::vector<detail::CopyProgram> SelfChunks;
  /// Reading the node's sources directly (NodePull.cpp): when every
  /// sender's source within the node lies in node memory (NodeMemory.h),
  /// each receiver reads its Shared messages straight from their senders'
  /// sources instead of the handover: in the group that moves them all at
  /// once (PullAtOnce), or else all before the Scheduled mode's steps.
  /// PullComm: the node's ranks with Shared messages (null: never).
  MPI_Comm PullComm = MPI_COMM_NULL;
  bool RingsMapped = false;   ///< findNodePeers mapped the node's rings
  bool PullAtOnce = false;    ///< in the all-at-once group
  std::vector<int> PullRecvs; ///< the Shared receives
  std::vector<long> PullPids; ///< per rank of PullComm
  int64_t SourceBytes = 0;    ///< this rank's source part
  int64_t TargetBytes = 0;    ///< this rank's target part
  bool PullSends = false;     ///< this rank's source is read
  mutable std::vector<int64_t> PullPosts, LastPosts;
  mutable bool LastAgreed = false, LastShareAgreed = false;
  mutable std::vector<const char *> PullSources; ///< per receive
  mutable int64_t Pulls = 0; ///< execute() calls that read directly
  /// The Scheduled mode's steps of this execute() skip their handover:
  /// pullBeforeSteps() read every Shared message.
  mutable bool StepsPulled = false;
  /// Slices per tile of pullTiles() (0: whole messages), and its programs
  /// of the local copy.
  int64_t PullTile = 0;
  detail::RoundPrograms SelfPull;
  /// Where this rank's whole target comes from within the node (its Shared
  /// receives and its local copy), pullTiles() gathers each tile in target
  /// order instead of running each message's program: per kind of tile
  /// (whole, last, the incomplete slice), each target element's source (0:
  /// this rank's, K: PullRecvs[K - 1]'s) and byte offset in it; each
  /// execute() adds the sources' addresses (Address, from Src).
  struct PullGather {
    std::vector<uint16_t> Source;
    std::vector<int64_t> Offset;
    mutable std::vector<int64_t> Address;
  };
  std::vector<PullGather> Gathers; ///< whole, last, incomplete; or none
  bool GathersWithSelf = false;    ///< tiles include the local copy
  /// Sharing the tiles (buildShares): where every rank of PullComm has
  /// whole tiles of one shape that all come from the node, and every target
  /// on the node lies in node memory too, each rank moves a share of the
  /// whole tiles of every rank's target (shareTiles). A source line then
  /// comes from memory once for the node rather than once for each reader
  /// of a part of it. Per rank of PullComm, its whole tile: each element's
  /// (ByElement, in target order) or each run's source (rank of PullComm)
  /// and byte offset From in it; a run's target offset and bytes; and per
  /// execute() the addresses (From plus the source's, less Src's).
  struct ShareTable {
    bool ByElement = false;
    std::vector<uint16_t> Source;
    std::vector<int64_t> From, To, Bytes;
    mutable std::vector<int64_t> Address;
  };
  std::vector<ShareTable> ShareTables; ///< per rank of PullComm, or none
  mutable std::vector<const char *> ShareFrom; ///< per rank: its source
  mutable std::vector<char *> ShareTo;         ///< per rank: its target
  mutable int64_t Shares = 0; ///< execute() calls that shared the tiles
  /// Sharing an array plan's copies (NodeSlabs.cpp): where the whole plan
  /// is one node's PullComm, every message is Shared and one axis has
  /// stride 1 on every rank of both sides, each rank copies a share of the
  /// section's slabs (its indices along all the other axes) from every
  /// source to every target, the stride-1 axis's runs in index order. Each
  /// source and target line is then read or written once for the node, in
  /// sequence, where each rank's own messages read every source line once
  /// per reader of a part of it.
  struct SlabShare {
    /// A run of the stride-1 axis: Len indices at local indices Src and
    /// Dst of its 1-D processes From and To.
    struct Run {
      int64_t From, To, Src, Dst, Len;
    };
    /// An index of another axis: its share of the source and target
    /// process ids (SrcBase, DstBase plus every axis's share) and its local
    /// indices.
    struct Index {
      int64_t SrcId, DstId, Src, Dst;
    };
    std::vector<Run> Runs;  ///< every index of the stride-1 axis, in order
    std::vector<int> Outer; ///< the other source axes, fastest first
    std::vector<std::vector<Index>> At; ///< per Outer axis, per index
    /// The stride-1 axis's share of the ids, per 1-D process.
    std::vector<int64_t> SrcId, DstId;
    int64_t SrcBase = 0, DstBase = 0;
    /// Per process id: its rank of PullComm and its strides (rank() each).
    std::vector<int> SrcRank, DstRank;
    std::vector<int64_t> SrcStrides, DstStrides;
    int64_t Begin = 0, End = 0;             ///< this rank's slabs
    mutable std::vector<const char *> From; ///< per 1-D process, per slab
    mutable std::vector<char *> To;
  };
  std::optional<SlabShare> Slabs;
  /// This execute()'s pull() shared the slabs, the local copy with them.
  mutable bool SelfCopied = false;
  /// The handover's requests and counters, sized for the largest group:
  /// execute() allocates nothing.
  mutable HandoverScratch Scratch;
  /// execute()'s arrays, which the groups' pack and unpack functions read.
  mutable const char *CurrentSrc = nullptr;
  mutable char *CurrentDst = nullptr;
  mutable std::vector<MPI_Request> Requests;
  mutable std::vector<int> Completed; ///< MPI_Testsome's indices
  /// Per received message: transfers not yet complete in this execute().
  mutable std::vector<int> TransfersLeft;

private:
  /// Throws InvalidArgument unless Given's tables describe a valid schedule
  /// of Source -> Target: every message in one step, no process sending or
  /// receiving twice in a step, the runs adding up to each message and the
  /// messages to each process's local sizes.
  void checkGiven() const;
  /// Given's events as ids of the grid's messages; throws InvalidArgument
  /// unless they form a valid overlapped schedule of it.
  OverlapSchedule givenEvents() const;
  /// overlapSchedule(), its failure named as a parameter error of What
  /// ("source -> target").
  void orderEvents(const std::string &What) const;
  /// schedule(), its failure named as a parameter error.
  void stepSchedule(const Distribution &From, const Distribution &To) const;
  /// The Overlapped mode: each message becomes one part per event, Sends
  /// and Recvs ordered by the events' starts.
  void splitIntoEvents();
  /// Collective: throws InvalidArgument on every rank when some rank's
  /// Problem with Given's runs is not empty (tables from another version of
  /// the schedule library, or edited by hand).
  void agreeOnGiven(const std::string &Problem) const;
  /// Adds message M, which this rank sends (Sending) or receives, in Step
  /// (-1: assignSteps finds it).
  void addMessage(const MessagePattern &M, bool Sending, int64_t Step);
  /// The same for a message given by its cutter, between ranks SrcRank and
  /// DstRank (PerSlice as MessagePattern::perSlice, 0 for none), message
  /// GridId of grid() (PeerMessage::GridId).
  void addMessage(detail::MessageCutter Cut, int64_t SrcRank, int64_t DstRank,
                  int64_t PerSlice, bool Sending, int64_t Step,
                  int64_t GridId = -1);
  void buildMessages();
  /// An array plan's messages, with their steps.
  void buildArrayMessages();
  /// An array plan's schedule over process ids.
  Schedule arraySchedule() const;
  void assignSteps();
  void buildGroups();
  void buildTransfers();
  void buildFused();
  void buildRounds();
  void allocate();
  /// Marks the messages between ranks of one node as Shared (Scheduled mode,
  /// SharedMemory on) and maps the rings they need. Collective over Comm.
  void findNodePeers();
  /// The chunk programs of the Shared messages.
  void buildShared();
  /// Collective over Comm, on every rank where singleCopyAsked: probes
  /// single copies on Node and marks the messages that use them Direct (the
  /// receiver chooses, its sender is told).
  void chooseDirect(const NodeRings &Node);
  /// An array plan's source strides of each rank of Node (empty where it
  /// holds no source process); collective over Node. Empty for other plans.
  std::vector<std::vector<int64_t>>
  arraySenderStrides(const NodeRings &Node) const;
  /// The CopySide::Direct program of receive I, its source offsets at its
  /// sender's own strides (SenderStrides, by node rank).
  detail::CopyProgram
  directProgram(const NodeRings &Node, std::size_t I,
                const std::vector<std::vector<int64_t>> &SenderStrides);
  /// The groups' single-copy peers and scratch.
  void buildDirect();
  /// Collective over the node's ranks where its rings are mapped: PullComm
  /// and the Shared receives' direct programs.
  void buildPull();
  /// Collective over PullComm: reads the Shared receives Recvs from their
  /// senders' sources, and does the local copy when WithSelf, if every
  /// rank's source allows; false (the same on every rank, nothing moved)
  /// otherwise.
  bool pull(const std::vector<int> &Recvs, bool WithSelf, const char *Src,
            char *Dst) const;
  /// Where the Scheduled mode hands messages over step by step: pull()s all
  /// of them before the steps, setting StepsPulled. Collective over PullComm.
  void pullBeforeSteps(const char *Src, char *Dst) const;
  /// pull()'s copies tile by tile of whole slices; Share: the whole tiles
  /// shared among PullComm's ranks.
  void pullTiles(const std::vector<int> &Recvs, bool WithSelf, bool Share,
                 const char *Src, char *Dst) const;
  /// Whether a pull() of Reads (WithSelf: and the local copy) moves what
  /// the gathers and shared tiles were built for: every Shared receive, the
  /// local copy where there is one (slabs hold it anyway), and no combining.
  bool pullsAsBuilt(const std::vector<int> &Reads, bool WithSelf) const;
  /// The gathers of pullTiles(), where every tile's target comes from the
  /// node; false where it does not.
  bool buildGathers();
  /// ShareTables, where every rank of PullComm can share its whole tiles.
  /// Collective over PullComm.
  void buildShares();
  /// This rank's share of the whole tiles of every rank's target.
  void shareTiles(const char *Src) const;
  /// Slabs, where an array plan can share its copies. Collective over
  /// PullComm.
  void buildSlabs();
  /// This rank's slabs, from every rank's source to every rank's target.
  void shareSlabs() const;
  /// Shape: whether, and how, all-at-once groups move in rounds. Largest
  /// is the largest message this rank sends or receives, which Shape's
  /// slots must fit in (Scheduled mode); NodeRanks, the ranks on this node.
  /// Collective over Comm: every rank agrees.
  void chooseRoundShape(int64_t Largest, int NodeRanks);
  /// Elements of its sender's ring a Shared message needs.
  int64_t ringElements(const detail::PeerMessage &M) const;
  /// The round programs of the Shared messages and of the local copy.
  void buildRoundPrograms();
  void packRound(std::size_t Round, char *const *Slots,
                 const detail::Group &G) const;
  void unpackRound(std::size_t Round, const char *const *Slots,
                   const detail::Group &G) const;

  void runGroup(const detail::Group &G, const char *Src, char *Dst) const;
  /// The Overlapped mode's group: G's sends in order, one in flight, and
  /// its receives likewise, each started when the one before completes.
  void runInOrder(const detail::Group &G, const char *Src, char *Dst) const;
  /// What both run per message: posts the receive of Recvs[R]'s pieces at
  /// Reqs; packs Sends[S] (fused with the local copy when WithSelf) and
  /// posts its pieces at Reqs, returning their count; unpacks Recvs[R].
  void postRecv(int R, char *Dst, MPI_Request *Reqs) const;
  int postSend(int S, bool WithSelf, const char *Src, char *Dst,
               MPI_Request *Reqs) const;
  void unpack(int R, char *Dst) const;
  /// G's single copies: startDirect sends this rank's source address to its
  /// readers (first thing in a group); finishDirect reads from each source
  /// as its address arrives, then waits until its readers are done.
  void startDirect(const detail::Group &G, const char *Src) const;
  void finishDirect(const detail::Group &G, char *Dst) const;
  /// G's shared send and receive, and its local copy.
  void runShared(const detail::Group &G, const char *Src, char *Dst) const;
  void executeAlltoall(const char *Src, char *Dst) const;
  void copySelf(const char *Src, char *Dst) const;

  std::vector<detail::MessageCutter> SendCutters, RecvCutters;
  std::optional<detail::MessageCutter> SelfCutter;
  mutable std::optional<CommGrid> Grid;
  mutable std::optional<Schedule> Sched;
  mutable std::optional<OverlapSchedule> Overlapped;
};

namespace detail {
/// Checks every parameter the same way on every rank, without
/// communicating; returns the first problem, naming the value.
std::optional<std::string>
findInvalidParameter(const Distribution &From, const Distribution &To,
                     int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                     const PlanOptions &Options);
/// Collective over Comm (not MPI_COMM_NULL), before any data moves: when
/// some rank's Problem is not empty, throws InvalidArgument on every rank,
/// naming those ranks and the first one's problem. One MPI_Allreduce when
/// none has one.
void agreeOnProblem(const std::string &Problem, MPI_Comm Comm);
/// agreeOnProblem, and with Compare (the Verify option), in the same
/// MPI_Allreduce, a comparison of every parameter: throws InvalidArgument on
/// every rank, naming the parameter, when ranks were given different ones.
void agreeOnParameters(const std::optional<std::string> &Problem, bool Compare,
                       const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options);
/// agreeOnParameters for a distribute directive's values: Problem, and
/// (with the Verify option, which the caller decides) D and its extent N
/// compared across the ranks.
void agreeOnDistribution(const std::optional<std::string> &Problem,
                         const Distribution &D, int64_t N, MPI_Comm Comm);
/// What a distribute directive in a function body does with Problem, this
/// rank's problem with its values (std::nullopt if none): with Verify (the
/// directive's Verify option), Agree (an agreeOn... call) raises it on every
/// rank, naming Where; without, a problem aborts the job (abortAlone). On ranks
/// where Comm is MPI_COMM_NULL, only this rank's problem is thrown.
void checkAtDistribute(const std::optional<std::string> &Problem, MPI_Comm Comm,
                       const char *Where, bool Verify,
                       const std::function<void()> &Agree);
/// Where the other ranks of Comm may already be moving data and cannot be
/// told (without the Verify option, or in execute()): prints "Where: on rank
/// R: Problem" and Why to stderr and aborts the job (MPI_Abort on Comm), so
/// that no rank waits forever. Where may be null.
[[noreturn]] void
abortAlone(const char *Where, const std::string &Problem, MPI_Comm Comm,
           const char *Why = "verification is off and the other ranks may be "
                             "moving data already");
/// The id of message Src -> Dst in G (an index into G.Messages), if any.
std::optional<int64_t> findGridId(const CommGrid &G, int64_t Src, int64_t Dst);
/// The largest transfer in bytes that Options allow.
int64_t maxTransferBytes(const PlanOptions &Options);
/// The pattern of a translated message, its runs expanded from Series.
MessagePattern patternOf(const TranslatedMessage &M, const RunSeries *Series);
/// "" when Given's pattern of a message has the runs of lib's description
/// Lib of it for From -> To, else what differs.
std::string differingRuns(const MessagePattern &Given,
                          const MessagePattern &Lib, const Layout &From,
                          const Layout &To);

/// A plan checked and scheduled on this rank alone, not yet agreed on.
struct PreparedPlan {
  std::unique_ptr<Plan::Impl> Built;
  /// The first problem with the parameters on this rank.
  std::optional<std::string> Problem;
  /// Any other failure (out of memory), rethrown after the agreement.
  std::exception_ptr Failure;
};

/// cachedPlan, where Problem, set when the caller's values make no plan (a
/// directive's), is raised on every rank as a parameter's would be.
/// Where, if not null, names the caller in abortAlone's message.
const Plan &cachedPlan(const std::optional<std::string> &Problem,
                       const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options, const char *Where = nullptr);

/// What an array directive's plan is cached by (TranslatedArray.cpp): the
/// layouts (ArrayLayout::str(), which names all a directive can set, and
/// the region), the element size, the algorithm, the tables it follows (or
/// null), the communicator and the options.
struct ArrayPlanKey {
  std::string From, To;
  std::size_t ElementBytes;
  std::string Algorithm;
  const void *Given;
  MPI_Comm Comm;
  PlanOptions Options;
  bool operator==(const ArrayPlanKey &O) const;
};
/// The cached plan of Key, or null; and the plan Built kept under Key until
/// Comm is freed, as cachedPlan's are.
const Plan *findArrayPlan(const ArrayPlanKey &Key);
const Plan &keepArrayPlan(ArrayPlanKey Key, std::unique_ptr<Plan> Built);
/// The schedule over G (an array plan's grid of process ids) that T's table
/// lists; throws InvalidArgument unless it is a valid schedule of G, every
/// message with its length.
Schedule givenArraySchedule(const GivenTable &T, const CommGrid &G);

/// An array plan (ArrayPlan.h): Problem, set on a rank whose caller's
/// values make no plan (a directive's; From and To are then stand-ins),
/// joins the checks, and every rank throws alike or builds. Collective.
std::unique_ptr<Plan>
buildArrayPlan(const ArraySide &From, const ArraySide &To,
               std::size_t ElementBytes, MPI_Comm Comm,
               const ArrayRegion &Region, const PlanOptions &Options,
               ArrayAlgorithm Algorithm,
               const std::optional<std::string> &Problem = std::nullopt,
               const GivenTable *Given = nullptr);

/// How plans are built; a friend of Plan. A plan is prepared on each rank
/// alone, then the ranks agree (agreeOnParameters), then it is finished
/// collectively: so that a problem on any rank is raised on every rank.
struct PlanBuilder {
  /// Checks the parameters and computes the schedule, without communicating.
  /// With Given, the plan follows its tables.
  static PreparedPlan prepare(const Distribution &From, const Distribution &To,
                              int64_t N, std::size_t ElementBytes,
                              MPI_Comm Comm, const PlanOptions &Options,
                              const TranslatedSchedule *Given = nullptr);
  /// After the agreement: throws the prepared problem or failure, else
  /// builds the plan (collective).
  static std::unique_ptr<Plan::Impl> finishImpl(PreparedPlan Prepared);
  static std::unique_ptr<Plan> finish(PreparedPlan Prepared);
  /// prepare, agreeOnParameters (comparing the parameters with Verify),
  /// finish.
  static std::unique_ptr<Plan::Impl>
  impl(const Distribution &From, const Distribution &To, int64_t N,
       std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options,
       bool Verify);
  /// The Impl of a plan, for ArrayPlan's accessors.
  static const Plan::Impl &of(const Plan &P) { return *P.P; }
  /// For ArrayPlan and MatrixPlan: Bad is the first problem the caller's
  /// checks found on this rank; without one, Problem is built into a plan
  /// (a problem found then joins Bad). Then the ranks agree, comparing
  /// Problem's arrayParameters with the Verify option (its region's as
  /// Region names them, when given), and every rank throws alike or
  /// finishes the plan.
  static std::unique_ptr<Plan>
  array(std::unique_ptr<ArrayProblem> Problem, std::optional<std::string> Bad,
        std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options,
        const std::vector<Parameter> *Region = nullptr);
  /// For MatrixPlan: the rank-2 array plan, checked as array() does, its
  /// errors naming rows, columns and leading dimensions.
  static std::unique_ptr<Plan>
  matrix(const MatrixSide &From, const MatrixSide &To,
         const MatrixRegion &Region, Algorithm2D Algorithm,
         std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options);
};

} // namespace detail

} // namespace redist

#endif // REDIST_RUNTIME_PLANIMPL_H
