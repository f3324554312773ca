//===- redist/runtime/NodeHandover.h - Messages within a node -------------===//
//
// Hands messages over between ranks of one node through shared memory,
// without MPI's copy: the sender packs a message chunk by chunk into a ring
// of slots, and the receiver unpacks each chunk straight from the sender's
// slot while the next is packed. The Scheduled mode of Plan uses it, and so
// does the code redistc generates for static schedules: both move a step's
// messages the same way. Programs call Plan, not this.
//
// NodeRings finds the ranks of a communicator that share this node and maps
// their rings (POSIX shared-memory objects, unlinked as soon as mapped, so
// that destroying them never waits for other ranks). handOver() runs one
// step: at most one message handed over and one taken, signalled by
// zero-byte MPI messages ("chunk C is ready", "its slot is free"), so that a
// waiting rank polls and yields as MPI does when ranks outnumber cores.
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

/// Elements per chunk of a message of Elements: 256 KiB, or longer so that
/// no message has more than 4096 chunks. Both ends compute it.
int64_t handoverChunkElements(int64_t Elements, std::size_t ElementBytes);
/// Elements of ring a sender needs to hand over a message of Elements: four
/// chunks, or the whole message when shorter.
int64_t handoverRingElements(int64_t Elements, std::size_t ElementBytes);

/// The shared-memory rings of one communicator's ranks on this node.
class NodeRings {
public:
  /// Collective over Comm: finds which of its ranks share this node
  /// (MPI_COMM_TYPE_SHARED; for tests, REDIST_TEST_RANKS_PER_NODE=K takes
  /// each K consecutive ranks for a node).
  explicit NodeRings(MPI_Comm Comm);
  /// Unmaps the rings; local.
  ~NodeRings();
  NodeRings(const NodeRings &) = delete;
  NodeRings &operator=(const NodeRings &) = delete;

  /// Whether Rank (of Comm) shares this node with this rank (and is not it).
  bool onNode(int Rank) const;
  /// Collective over the node's ranks, once: creates this rank's ring of
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
  char *Ring = nullptr;
  std::size_t RingBytes = 0;
  std::vector<std::pair<int, const char *>> SenderRings;
  std::vector<std::pair<void *, std::size_t>> Mappings;
  void unmap();
};

/// The message a rank hands over in a step: Chunks chunks of SlotBytes (the
/// last may be shorter); Pack(C, Slot) packs chunk C into Slot.
struct HandoverSend {
  int Peer = -1;
  std::size_t Chunks = 0;
  std::size_t SlotBytes = 0;
  std::function<void(std::size_t, char *)> Pack;
};
/// The message a rank takes in a step, from Ring (the sender's);
/// Unpack(C, Slot) unpacks chunk C from Slot.
struct HandoverRecv {
  int Peer = -1;
  std::size_t Chunks = 0;
  std::size_t SlotBytes = 0;
  const char *Ring = nullptr;
  std::function<void(std::size_t, const char *)> Unpack;
};

/// Runs one step on Comm: hands Out over (when not null) through Ring,
/// this rank's ring, and takes In (when not null). After packing chunk C,
/// Paced(C + 1, Out->Chunks) may do work that keeps pace with the packing;
/// Filler() does one piece of other work while the rank would wait, and
/// returns false when it has none. Signals must hold Out's plus In's chunks.
/// Returns when In is unpacked and Out's receiver has unpacked every chunk.
void handOver(MPI_Comm Comm, char *Ring, const HandoverSend *Out,
              const HandoverRecv *In,
              const std::function<void(std::size_t, std::size_t)> &Paced,
              const std::function<bool()> &Filler,
              std::vector<MPI_Request> &Signals);

} // namespace redist

#endif // REDIST_RUNTIME_NODEHANDOVER_H
