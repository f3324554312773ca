//===- NodeHandover.h - Messages within a node ----------------------------===//
//
// Private to the runtime. Hands messages over between ranks of one node
// through shared memory, without MPI's copy: the sender packs a message
// chunk by chunk into a ring of slots, and the receiver unpacks each chunk
// straight from the sender's slot while the next is packed. Plan's
// Scheduled and Unsynchronized modes use it (SharedMemory.cpp).
//
// NodeRings finds the ranks of a communicator that share this node and maps
// their rings (POSIX shared-memory objects, unlinked as soon as mapped, so
// that destroying them never waits for other ranks). handOver() moves a set
// of messages (one handed over and one taken in a step of a schedule, or all
// of a rank's at once), signalled by zero-byte MPI messages ("chunk C is
// ready", "its slot is free"), so that a waiting rank polls and yields as
// MPI does when ranks outnumber cores.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_NODEHANDOVER_H
#define REDIST_RUNTIME_NODEHANDOVER_H

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace redist {

/// Slots per message in a sender's ring: the sender may pack this many
/// chunks ahead of the receiver.
constexpr int64_t HandoverSlots = 4;

/// Elements per chunk of a message of Elements: 256 KiB, or longer so that
/// no message has more than 4096 chunks. Both ends compute it.
int64_t handoverChunkElements(int64_t Elements, std::size_t ElementBytes);
/// The number of chunks of a message of Elements (at most 4096).
std::size_t handoverChunks(int64_t Elements, std::size_t ElementBytes);
/// Elements of ring a sender needs to hand over a message of Elements: four
/// chunks, or the whole message when shorter.
int64_t handoverRingElements(int64_t Elements, std::size_t ElementBytes);

/// The shared-memory rings of one communicator's ranks on this node.
class NodeRings {
public:
  /// Collective over Comm: finds which of its ranks share this node
  /// (MPI_COMM_TYPE_SHARED), each node cut into groups of RanksPerNode
  /// consecutive ranks when that is positive (PlanOptions::RanksPerNode).
  /// FailRingOnRank (PlanOptions::FailRingOnRank) makes that rank's map()
  /// fail.
  NodeRings(MPI_Comm Comm, int RanksPerNode, int FailRingOnRank);
  /// Unmaps the rings and frees the node's communicator.
  ~NodeRings();
  NodeRings(const NodeRings &) = delete;
  NodeRings &operator=(const NodeRings &) = delete;

  /// Whether Rank (of Comm) shares this node with this rank (and is not it).
  bool onNode(int Rank) const;
  /// The node's communicator, which handOver() signals on (it carries
  /// nothing else), and the rank in it of Rank of Comm.
  MPI_Comm comm() const { return Node; }
  int nodeRank(int Rank) const;
  /// Collective over the node's ranks: creates this rank's ring of
  /// Bytes (none for 0) and maps the rings of Senders (ranks on this node).
  /// False on every rank of the node when any of them failed; then no ring
  /// is kept and messages must go over MPI.
  bool map(std::size_t Bytes, const std::vector<int> &Senders);

  char *ring() const { return Ring; }
  std::size_t ringBytes() const { return RingBytes; }
  /// The ring of Sender, mapped read-only by map().
  const char *ringOf(int Sender) const;

private:
  MPI_Comm Node = MPI_COMM_NULL;
  std::vector<int> NodeRank; ///< per rank of Comm, or MPI_UNDEFINED
  int Rank = 0;
  int FailingRank = -1;
  char *Ring = nullptr;
  std::size_t RingBytes = 0;
  std::vector<std::pair<int, const char *>> SenderRings;
  std::vector<std::pair<void *, std::size_t>> Mappings;
  void unmap();
};

/// A message a rank hands over: Chunks chunks of SlotBytes (the last may be
/// shorter), through Ring, four slots of this rank's ring reserved for it;
/// Pack(C, Slot) packs chunk C into Slot.
struct HandoverSend {
  int Peer = -1;
  std::size_t Chunks = 0;
  std::size_t SlotBytes = 0;
  char *Ring = nullptr;
  std::function<void(std::size_t, char *)> Pack;
};
/// A message a rank takes, from Ring (the sender's slots for it);
/// Unpack(C, Slot) unpacks chunk C from Slot.
struct HandoverRecv {
  int Peer = -1;
  std::size_t Chunks = 0;
  std::size_t SlotBytes = 0;
  const char *Ring = nullptr;
  std::function<void(std::size_t, const char *)> Unpack;
};

/// What handOver() works in, sized once so that it allocates nothing.
struct HandoverScratch {
  std::vector<MPI_Request> Signals; ///< one per chunk sent or received
  std::vector<MPI_Request> Waiting; ///< one per message
  std::vector<std::size_t> Done;    ///< two counters per message
  std::vector<char *> OutSlots;     ///< handOverInRounds: a round's slots
  std::vector<const char *> InSlots;
  /// Room for up to Messages messages of Chunks chunks in all.
  void reserve(std::size_t Messages, std::size_t Chunks);
};

/// Hands Outs over and takes Ins, all at once, signalling on Comm (a
/// NodeRings' comm(), peers given as ranks in it): one message each in
/// a step of a schedule, or every message of a rank. The message packed
/// next is the one least far along, and so is the one unpacked next, so
/// that every message's chunks come from (and go to) the same region of
/// the arrays at a time. After each chunk packed, Paced(Packed, Total) may
/// do work that keeps pace with the packing (chunks of all Outs); Filler()
/// does one piece of other work while the rank would wait, and returns
/// false when it has none. Returns when every In is unpacked and every
/// Out's receiver has unpacked every chunk.
void handOver(MPI_Comm Comm, const HandoverSend *Outs, std::size_t NumOuts,
              const HandoverRecv *Ins, std::size_t NumIns,
              const std::function<void(std::size_t, std::size_t)> &Paced,
              const std::function<bool()> &Filler, HandoverScratch &Scratch);

/// How a rank's messages within the node, moving all at once, are cut
/// into rounds of whole slices when both layouts are block-cyclic: every
/// message repeats with the slice of L = lcm(P*r, Q*s) global elements,
/// so round C covers whole slices [C*PerRound, (C+1)*PerRound) for every
/// message, and a last round the incomplete slice. Each round is packed,
/// and unpacked, in tiles of PerTile slices over all messages, so that a
/// tile of the source (or target) stays in L1 while every message takes
/// its part. The runtime and redistc's static code cut alike.
struct RoundShape {
  int64_t Slices = 0;   ///< whole slices in [0, N); 0: no rounds
  int64_t PerRound = 0; ///< slices per round, a multiple of PerTile
  int64_t PerTile = 0;
  /// Slots of each message in its sender's ring, round C in slot C mod
  /// Slots: how many rounds a sender may pack ahead of its receivers.
  int64_t Slots = 0;
  int64_t SrcSlice = 0, DstSlice = 0; ///< local elements per slice
  bool Tail = false;                  ///< N is not a multiple of L
  std::size_t rounds() const {
    return static_cast<std::size_t>((Slices + PerRound - 1) / PerRound +
                                    (Tail ? 1 : 0));
  }
  /// Elements of one slot of a message of Elements, PerSlice of them in
  /// each whole slice: a round's, or the incomplete slice's.
  int64_t slotElements(int64_t PerSlice, int64_t Elements) const;
  /// Elements of its sender's ring such a message needs.
  int64_t ringElements(int64_t PerSlice, int64_t Elements) const;
  /// Calls F(First, Count, false) for each tile of round C (Count slices
  /// from slice First), or F(Slices, 0, true) once for the round of the
  /// incomplete slice.
  template <typename Fn> void forEachTile(std::size_t C, Fn &&F) const {
    const int64_t First = static_cast<int64_t>(C) * PerRound;
    if (First >= Slices)
      return F(Slices, int64_t(0), true);
    const int64_t End = First + PerRound < Slices ? First + PerRound : Slices;
    for (int64_t T = First; T < End; T += PerTile)
      F(T, End - T < PerTile ? End - T : PerTile, false);
  }
};

/// Collective over Comm, whose every rank passes the same Slicing (Slices,
/// Tail, SrcSlice, DstSlice; Slices > 0): the shape of rounds, or one with
/// Slices == 0 where they would not pay. They pay once what a core sweeps
/// exceeds its L2 (NodeRanks ranks share this node's processors), and
/// with at least four rounds. SentPerSlice: elements per slice of the
/// messages this rank hands over; the slots of all must fit in Largest
/// elements (0: no bound), and there are as many as fit, up to one per
/// round (at least four, rounds shrinking for them). RunBytes: the shortest
/// average run, in bytes, of this rank's messages and local copy in its own
/// arrays; where every rank's runs span cache lines, tiles are longer.
RoundShape chooseRoundShape(MPI_Comm Comm, const RoundShape &Slicing,
                            std::size_t ElementBytes, int NodeRanks,
                            int64_t SentPerSlice, int64_t Largest,
                            int64_t RunBytes);

/// Hands Outs over and takes Ins, all at once, in Rounds rounds: every
/// message has Rounds chunks (some may be empty), chunk C in slot C mod
/// Slots of its slots, and round C's chunks cover the same slices of the global
/// array for every message. PackRound(C, Slots) packs round C of every Out,
/// Out I into Slots[I]; UnpackRound(C, Slots) unpacks round C of every In
/// from Slots[I] (and does the round's local copy): each sweeps its region
/// of the arrays once for all messages. The messages' Pack and Unpack are
/// not used. Signals as handOver(). Returns when every round is unpacked
/// and every Out's receiver has unpacked every round.
struct HandoverRounds {
  std::size_t Rounds = 0, Slots = 0;
  std::function<void(std::size_t, char *const *)> PackRound;
  std::function<void(std::size_t, const char *const *)> UnpackRound;
};
void handOverInRounds(MPI_Comm Comm, const HandoverSend *Outs,
                      std::size_t NumOuts, const HandoverRecv *Ins,
                      std::size_t NumIns, const HandoverRounds &Rounds,
                      HandoverScratch &Scratch);

} // namespace redist

#endif // REDIST_RUNTIME_NODEHANDOVER_H
