//===- SharedMemory.cpp - The Scheduled mode's handover within a node -----===//
//
// In the Scheduled, Unsynchronized and Overlapped modes, a message between
// two ranks of one node is handed over through shared memory
// (NodeHandover.h) instead of an MPI transfer: one pass over
// memory less, and each chunk is still in the shared cache when it is
// unpacked. Here the plan decides which messages go that way, gives each
// its slots, cuts its copy programs into chunks, and runs a group's handover
// with the local copy interleaved. A rank's messages within the node move
// all at once, each through its own slots, so that the arrays are read and
// written in one pass: in the Unsynchronized mode always, in the Scheduled
// and Overlapped modes before their steps (events) where the memory bound
// allows. Otherwise a Scheduled step hands over one message and takes one,
// all through the same slots, and the Overlapped mode's go over MPI.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"
#include "SingleCopy.h"

#include <algorithm>

namespace redist {
namespace {

/// The Overlapped mode's messages handed over in its node phase move whole:
/// of the parts of such a message (Plan::Impl::splitIntoEvents, in Ms with
/// their cutters in Cs), the first stays, as the whole message; the others
/// go. A rank has at most one message with each peer in each direction.
void mergeSharedParts(std::vector<detail::PeerMessage> &Ms,
                      std::vector<detail::MessageCutter> &Cs) {
  std::vector<detail::PeerMessage> Whole;
  std::vector<detail::MessageCutter> WholeCutters;
  std::vector<int> Seen;
  for (std::size_t I = 0; I < Ms.size(); ++I) {
    detail::PeerMessage &M = Ms[I];
    if (M.Shared) {
      if (std::find(Seen.begin(), Seen.end(), M.Peer) != Seen.end())
        continue;
      Seen.push_back(M.Peer);
      M.First = 0;
      M.Elements = Cs[I].length();
    }
    Whole.push_back(std::move(M));
    WholeCutters.push_back(std::move(Cs[I]));
  }
  Ms = std::move(Whole);
  Cs = std::move(WholeCutters);
}

} // namespace

void Plan::Impl::findNodePeers() {
  // Every condition here is the same on every rank.
  if (!Options.SharedMemory || Options.Mode == ExecMode::Alltoallv ||
      CommSize == 1)
    return;
  const bool Overlapped = Options.Mode == ExecMode::Overlapped;
  const bool Handover = Options.Pack != Packing::Datatypes;
  const bool Probe = singleCopyAsked(Options, Comm);
  if (!Handover && !Probe)
    return;
  auto Node = std::make_unique<NodeRings>(Comm, Options.RanksPerNode,
                                          Options.FailRingOnRank);
  const int64_t E = static_cast<int64_t>(ElementBytes);
  // Messages with long runs go by single copies where the kernel allows.
  // Every other message to or from a rank of this node is handed over:
  // measured side by side (fair order), the handover beat MPI datatypes,
  // which Open MPI copies once between the arrays, by 5-20% (2,64 -> 2,96
  // and 2,4096 -> 2,8192 at N = 1e6 and 1e7).
  if (Probe)
    chooseDirect(*Node);
  bool AnyDirect = false;
  for (std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (detail::PeerMessage &M : *List) {
      M.Shared = Handover && !M.Direct && Node->onNode(M.Peer);
      AnyDirect = AnyDirect || M.Direct;
    }
  // The Overlapped mode's order is the network ports'. Within the node
  // there are none: it hands the node's messages over all at once in a
  // first group too, before the events of the others, each message whole
  // (its parts merged back), where the slots (which then double as the send
  // buffer) and the buffers of its MPI parts fit in its bound: the largest
  // part a rank sends plus the largest it receives. Otherwise they go over
  // MPI in the events' order, in parts (restored below).
  int64_t PartBound = 0, RecvOverMpi = 0;
  std::vector<detail::PeerMessage> PartSends, PartRecvs;
  std::vector<detail::MessageCutter> PartSendCutters, PartRecvCutters;
  bool Merged = Overlapped && Handover;
  if (Merged) {
    int64_t SendPart = 0, RecvPart = 0;
    for (const detail::PeerMessage &M : Sends)
      SendPart = std::max(SendPart, M.Elements);
    for (const detail::PeerMessage &M : Recvs) {
      RecvPart = std::max(RecvPart, M.Elements);
      if (!M.Shared && !M.Direct)
        RecvOverMpi = std::max(RecvOverMpi, M.Elements);
    }
    PartBound = SendPart + RecvPart;
    PartSends = Sends;
    PartRecvs = Recvs;
    PartSendCutters = SendCutters;
    PartRecvCutters = RecvCutters;
    mergeSharedParts(Sends, SendCutters);
    mergeSharedParts(Recvs, RecvCutters);
  }
  auto RestoreParts = [&] {
    if (!Merged)
      return;
    Merged = false;
    Sends = std::move(PartSends);
    Recvs = std::move(PartRecvs);
    SendCutters = std::move(PartSendCutters);
    RecvCutters = std::move(PartRecvCutters);
    for (std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
      for (detail::PeerMessage &M : *List)
        M.Shared = false;
  };

  // This rank's ring. Each message hands over through slots of its own,
  // all at once, so that the arrays are swept once (the Unsynchronized
  // mode, and the node phase of the Scheduled and Overlapped modes). A
  // Scheduled step hands over one message, so stepwise all share the slots
  // of the largest, which also serve as the send buffer of MPI messages (a
  // step has one send).
  int64_t AllAtOnce = 0, OneAtATime = 0, LargestOverMpi = 0, Largest = 0;
  for (const std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (const detail::PeerMessage &M : *List)
      Largest = std::max(Largest, M.Elements);
  // All at once, block-cyclic messages move in rounds of whole slices, whose
  // slots must fit in what the mode's bound leaves them.
  int NodeRanks = 1;
  MPI_Comm_size(Node->comm(), &NodeRanks);
  chooseRoundShape(Overlapped ? PartBound - RecvOverMpi : Largest, NodeRanks);
  for (const detail::PeerMessage &M : Sends) {
    if (M.Direct)
      continue; // needs no buffer
    if (!M.Shared) {
      LargestOverMpi = std::max(LargestOverMpi, M.Elements);
      continue;
    }
    AllAtOnce += ringElements(M);
    OneAtATime =
        std::max(OneAtATime, handoverRingElements(M.Elements, ElementBytes));
  }
  // The Scheduled mode moves a node's messages all at once too where the
  // slots of all fit in the memory the mode may use beyond the arrays, the
  // largest message a rank sends or receives (see docs/runtime.md, "Shared-
  // memory handover"). The schedule's steps exist for the network; in one
  // node, one message per step would sweep the arrays once per step. Every
  // rank decides alike, so that the two ends of a message agree.
  int Fits = Overlapped ? std::max(AllAtOnce, LargestOverMpi) + RecvOverMpi <=
                              PartBound
                        : AllAtOnce <= Largest;
  int AllFit = Fits;
  if (Options.Mode == ExecMode::Scheduled || Overlapped)
    MPI_Allreduce(&Fits, &AllFit, 1, MPI_INT, MPI_LAND, Comm);
  NodePhase =
      (Options.Mode == ExecMode::Scheduled || Overlapped) && AllFit && Handover;
  const bool Stepwise = Options.Mode == ExecMode::Scheduled && !NodePhase;
  if (Stepwise || (Overlapped && !NodePhase))
    Shape = RoundShape();
  if (Overlapped && !NodePhase)
    RestoreParts();
  int64_t RingElements = Stepwise ? OneAtATime : 0;
  for (detail::PeerMessage &M : Sends)
    if (M.Shared && !Stepwise) {
      M.RingOffset = RingElements * E;
      RingElements += ringElements(M);
    }
  if ((NodePhase || Stepwise) && RingElements > 0)
    RingElements = std::max(RingElements, LargestOverMpi);
  std::vector<int> Senders;
  for (const detail::PeerMessage &M : Recvs)
    if (M.Shared)
      Senders.push_back(M.Peer);
  const bool Mapped =
      Node->map(static_cast<std::size_t>(RingElements) * ElementBytes, Senders);
  // Each receiver learns where its message's slots start in the sender's
  // ring. Every rank takes part, mapped or not.
  std::vector<int64_t> Offsets(static_cast<std::size_t>(CommSize), 0);
  if (!Stepwise) {
    std::vector<int64_t> Mine(Offsets.size(), 0);
    for (const detail::PeerMessage &M : Sends)
      Mine[static_cast<std::size_t>(M.Peer)] = M.RingOffset;
    MPI_Alltoall(Mine.data(), 1, MPI_INT64_T, Offsets.data(), 1, MPI_INT64_T,
                 Comm);
  }
  if (!Mapped) {
    // The node's ranks use MPI, step by step (single copies need no ring).
    NodePhase = false;
    Shape = RoundShape();
    for (std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
      for (detail::PeerMessage &M : *List)
        M.Shared = false;
    RestoreParts();
    if (AnyDirect)
      Rings = std::move(Node);
    return;
  }
  for (detail::PeerMessage &M : Recvs)
    if (M.Shared)
      M.PeerRing =
          Node->ringOf(M.Peer) + Offsets[static_cast<std::size_t>(M.Peer)];
  Rings = std::move(Node);
  RingsMapped = true;
}

void Plan::Impl::buildShared() {
  if (!Rings)
    return;
  std::size_t MostSignals = 0;
  auto Cut = [&](std::vector<detail::PeerMessage> &Ms,
                 const std::vector<detail::MessageCutter> &Cs,
                 detail::CopySide Side) {
    for (std::size_t I = 0; I < Ms.size(); ++I) {
      detail::PeerMessage &M = Ms[I];
      if (!M.Shared)
        continue;
      const int64_t Chunk = handoverChunkElements(M.Elements, ElementBytes);
      M.SlotBytes = static_cast<std::size_t>(Chunk) * ElementBytes;
      detail::forEachPiece(M.Elements, Chunk, [&](int64_t B, int64_t End) {
        M.Chunks.push_back(Cs[I].program(Side, B, End));
      });
    }
  };
  const bool InRounds = !Groups.empty() && Groups.front().InRounds;
  if (InRounds) {
    buildRoundPrograms();
  } else {
    Cut(Sends, SendCutters, detail::CopySide::Pack);
    Cut(Recvs, RecvCutters, detail::CopySide::Unpack);
  }
  // Each group's descriptions for handOver(). The functions capture two
  // pointers, which std::function holds without allocating, and read
  // execute()'s arrays from CurrentSrc and CurrentDst.
  std::size_t MostMessages = 0;
  for (detail::Group &G : Groups) {
    std::size_t Count = 0;
    for (int S : G.SharedSends) {
      const detail::PeerMessage &M = Sends[static_cast<std::size_t>(S)];
      HandoverSend Out;
      Out.Peer = Rings->nodeRank(M.Peer);
      Out.Chunks = M.Chunks.size();
      Out.SlotBytes = M.SlotBytes;
      Out.Ring = ring() + M.RingOffset;
      Out.Pack = [&M, this](std::size_t C, char *Slot) {
        detail::runCopyProgram(M.Chunks[C], CurrentSrc, Slot, ElementBytes);
      };
      G.Outs.push_back(std::move(Out));
      Count += M.Chunks.size();
    }
    for (int R : G.SharedRecvs) {
      const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(R)];
      HandoverRecv In;
      In.Peer = Rings->nodeRank(M.Peer);
      In.Chunks = M.Chunks.size();
      In.SlotBytes = M.SlotBytes;
      In.Ring = M.PeerRing;
      In.Unpack = [&M, this](std::size_t C, const char *Slot) {
        detail::runCopyProgram(M.Chunks[C], Slot, CurrentDst, ElementBytes);
      };
      G.Ins.push_back(std::move(In));
      Count += M.Chunks.size();
    }
    if (G.InRounds) {
      for (HandoverSend &Out : G.Outs)
        Out.Chunks = Shape.rounds();
      for (HandoverRecv &In : G.Ins)
        In.Chunks = Shape.rounds();
      Count = Shape.rounds() * (G.Outs.size() + G.Ins.size());
      G.Rounds.Rounds = Shape.rounds();
      G.Rounds.Slots = static_cast<std::size_t>(Shape.Slots);
      G.Rounds.PackRound = [&G, this](std::size_t C, char *const *Slots) {
        packRound(C, Slots, G);
      };
      G.Rounds.UnpackRound = [&G, this](std::size_t C,
                                        const char *const *Slots) {
        unpackRound(C, Slots, G);
      };
    }
    MostSignals = std::max(MostSignals, Count);
    MostMessages = std::max(MostMessages, G.Outs.size() + G.Ins.size());
  }
  Scratch.reserve(MostMessages, MostSignals);

  // The local copy runs in chunks between the first shared step's packing
  // (or in the rounds' unpacking).
  if (SelfCutter && !InRounds && !Groups.empty() && Groups.front().shared()) {
    detail::forEachPiece(
        SelfCutter->length(),
        handoverChunkElements(SelfCutter->length(), ElementBytes),
        [&](int64_t B, int64_t End) {
          SelfChunks.push_back(
              SelfCutter->program(detail::CopySide::Direct, B, End));
        });
    Self = detail::CopyProgram();
  }
}

std::size_t Plan::Impl::ringBytes() const {
  return Rings ? Rings->ringBytes() : 0;
}

char *Plan::Impl::ring() const { return Rings ? Rings->ring() : nullptr; }

namespace {
/// The local copy in chunks, as runShared() interleaves it.
struct SelfCopy {
  const std::vector<detail::CopyProgram> &Chunks;
  const char *Src;
  char *Dst;
  std::size_t ElementBytes, Total, Copied = 0;
  void upTo(std::size_t Target) {
    for (; Copied < Target; ++Copied)
      detail::runCopyProgram(Chunks[Copied], Src, Dst, ElementBytes);
  }
};
} // namespace

void Plan::Impl::runShared(const detail::Group &G, const char *Src,
                           char *Dst) const {
  CurrentSrc = Src;
  CurrentDst = Dst;
  if (StepsPulled) { // read before the steps; the local copy is left
    if (G.Self && !SelfCopied)
      for (const detail::CopyProgram &P : SelfChunks)
        detail::runCopyProgram(P, Src, Dst, ElementBytes);
    return;
  }
  if (PullComm != MPI_COMM_NULL && PullAtOnce && &G == &Groups.front() &&
      pull(G.SharedRecvs, G.Self, Src, Dst))
    return;
  if (G.InRounds)
    return handOverInRounds(Rings->comm(), G.Outs.data(), G.Outs.size(),
                            G.Ins.data(), G.Ins.size(), G.Rounds, Scratch);
  // The local copy keeps pace with the packing, as both read the same
  // source lines, and fills the waits.
  SelfCopy Copy{SelfChunks, Src, Dst, ElementBytes,
                G.Self ? SelfChunks.size() : 0};
  handOver(
      Rings->comm(), G.Outs.data(), G.Outs.size(), G.Ins.data(), G.Ins.size(),
      [&Copy](std::size_t Packed, std::size_t Total) {
        Copy.upTo(Copy.Total * Packed / Total);
      },
      [&Copy] {
        if (Copy.Copied == Copy.Total)
          return false;
        Copy.upTo(Copy.Copied + 1);
        return true;
      },
      Scratch);
  Copy.upTo(Copy.Total);
}

} // namespace redist
