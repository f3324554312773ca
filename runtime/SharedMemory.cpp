//===- SharedMemory.cpp - The Scheduled mode's handover within a node -----===//
//
// In the Scheduled mode, a message between two ranks of one node is handed
// over through shared memory (redist/runtime/NodeHandover.h) instead of an
// MPI transfer: one pass over memory less, and each chunk is still in the
// shared cache when it is unpacked. Here the plan decides which messages
// go that way, cuts their copy programs into chunks, and runs a step's
// handover with the local copy interleaved.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"

namespace redist {

void Plan::Impl::findNodePeers() {
  if (!Options.SharedMemory || Options.Mode != ExecMode::Scheduled ||
      Options.Pack == Packing::Datatypes || CommSize == 1)
    return;
  auto Node = std::make_unique<NodeRings>(Comm);
  // This rank's ring: never more than the largest message it hands over.
  // It also serves as the send buffer of its MPI messages (a step has one
  // send), so it holds the largest of those too.
  int64_t RingElements = 0, LargestOffNode = 0;
  for (const detail::PeerMessage &M : Sends) {
    if (Node->onNode(M.Peer))
      RingElements = std::max(RingElements,
                              handoverRingElements(M.Elements, ElementBytes));
    else
      LargestOffNode = std::max(LargestOffNode, M.Elements);
  }
  if (RingElements > 0)
    RingElements = std::max(RingElements, LargestOffNode);
  std::vector<int> Senders;
  for (const detail::PeerMessage &M : Recvs)
    if (Node->onNode(M.Peer))
      Senders.push_back(M.Peer);
  if (!Node->map(static_cast<std::size_t>(RingElements) * ElementBytes,
                 Senders))
    return; // the node's ranks use MPI
  for (detail::PeerMessage &M : Sends)
    M.Shared = Node->onNode(M.Peer);
  for (detail::PeerMessage &M : Recvs) {
    M.Shared = Node->onNode(M.Peer);
    M.PeerRing = M.Shared ? Node->ringOf(M.Peer) : nullptr;
  }
  Rings = std::move(Node);
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
  Cut(Sends, SendCutters, detail::CopySide::Pack);
  Cut(Recvs, RecvCutters, detail::CopySide::Unpack);
  for (const detail::Group &G : Groups) {
    std::size_t Count = 0;
    if (G.SharedSend >= 0)
      Count += Sends[static_cast<std::size_t>(G.SharedSend)].Chunks.size();
    if (G.SharedRecv >= 0)
      Count += Recvs[static_cast<std::size_t>(G.SharedRecv)].Chunks.size();
    MostSignals = std::max(MostSignals, Count);
  }
  Signals.resize(MostSignals);

  // The local copy runs in chunks between the first shared step's packing.
  if (SelfCutter && !Groups.empty() && Groups.front().shared()) {
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

void Plan::Impl::runShared(const detail::Group &G, const char *Src,
                           char *Dst) const {
  HandoverSend Out;
  HandoverRecv In;
  if (G.SharedSend >= 0) {
    const detail::PeerMessage &M =
        Sends[static_cast<std::size_t>(G.SharedSend)];
    Out.Peer = M.Peer;
    Out.Chunks = M.Chunks.size();
    Out.SlotBytes = M.SlotBytes;
    Out.Pack = [&](std::size_t C, char *Slot) {
      detail::runCopyProgram(M.Chunks[C], Src, Slot, ElementBytes);
    };
  }
  if (G.SharedRecv >= 0) {
    const detail::PeerMessage &M =
        Recvs[static_cast<std::size_t>(G.SharedRecv)];
    In.Peer = M.Peer;
    In.Chunks = M.Chunks.size();
    In.SlotBytes = M.SlotBytes;
    In.Ring = M.PeerRing;
    In.Unpack = [&](std::size_t C, const char *Slot) {
      detail::runCopyProgram(M.Chunks[C], Slot, Dst, ElementBytes);
    };
  }
  // The local copy keeps pace with the packing, as both read the same
  // source lines, and fills the waits.
  const std::size_t SelfTotal = G.Self ? SelfChunks.size() : 0;
  std::size_t Copied = 0;
  auto CopySelfUpTo = [&](std::size_t Target) {
    for (; Copied < Target; ++Copied)
      detail::runCopyProgram(SelfChunks[Copied], Src, Dst, ElementBytes);
  };
  handOver(
      Comm, ring(), G.SharedSend >= 0 ? &Out : nullptr,
      G.SharedRecv >= 0 ? &In : nullptr,
      [&](std::size_t Packed, std::size_t Total) {
        CopySelfUpTo(SelfTotal * Packed / Total);
      },
      [&] {
        if (Copied == SelfTotal)
          return false;
        CopySelfUpTo(Copied + 1);
        return true;
      },
      Signals);
  CopySelfUpTo(SelfTotal);
}

} // namespace redist
