//===- SharedMemory.cpp - Handing messages over within a node -------------===//
//
// In the Scheduled mode, a message between two ranks of one node need not
// be packed, copied by MPI and unpacked: the sender packs it chunk by chunk
// into a ring of slots in shared memory, and the receiver unpacks each chunk
// straight from the sender's slot. That saves one pass over memory, and a
// chunk is still in the shared cache when it is unpacked. The schedule is
// kept: in a step each rank hands one message to one rank and takes one from
// one rank. Zero-byte messages carry the signals, so waiting ranks yield the
// core as MPI does (ranks may outnumber cores): "chunk C is ready" from
// sender to receiver, "its slot is free" back. Both are ordered per pair of
// ranks, so they need no payload.
//
// The rings are POSIX shared-memory objects, found with
// MPI_COMM_TYPE_SHARED, rather than MPI-3 windows: freeing a window is
// collective, and destroying a plan should never wait for other ranks. Each
// rank creates its ring, the node's ranks exchange names and map their
// senders' rings, and the names are unlinked at once; the mappings stay until
// the plan goes. Where any of that fails, the node's ranks fall back to MPI
// transfers together.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redist {
namespace {

/// Bytes of one chunk, and slots in a sender's ring. Four slots of 256 KiB
/// keep the ring within a core's L2 while the receiver works on one chunk
/// and the sender packs the next.
constexpr int64_t ChunkBytes = 256 << 10;
constexpr int64_t SharedSlots = 4;

/// The signals' tags. Ranks of one node exchange no data transfers, so the
/// tags cannot meet a data transfer's.
constexpr int ReadyTag = 0, FreeTag = 1;

/// Room for a ring's name, "/redist.PID.COUNT".
constexpr int NameBytes = 48;

/// At most this many chunks per message: longer messages get longer chunks,
/// so that the chunk programs of a huge message stay few.
constexpr int64_t MaxChunks = 4096;

/// Elements per chunk of a message of Elements; both sides compute it.
int64_t chunkElements(int64_t Elements, std::size_t ElementBytes) {
  return std::max({int64_t(1), ChunkBytes / static_cast<int64_t>(ElementBytes),
                   (Elements + MaxChunks - 1) / MaxChunks});
}

/// Maps the shared-memory object Fd; nullptr on failure.
void *mapRing(int Fd, std::size_t Bytes, int Protection) {
  int Flags = MAP_SHARED;
#ifdef MAP_POPULATE
  Flags |= MAP_POPULATE; // no page faults in execute()
#endif
  void *P = mmap(nullptr, Bytes, Protection, Flags, Fd, 0);
  return P == MAP_FAILED ? nullptr : P;
}

/// Creates and maps a ring of Bytes; returns its name, empty on failure.
std::string createRing(std::size_t Bytes, void *&Address) {
  static unsigned Counter = 0;
  for (int Attempt = 0; Attempt < 16; ++Attempt) {
    char Name[NameBytes];
    std::snprintf(Name, sizeof Name, "/redist.%ld.%u",
                  static_cast<long>(getpid()), Counter++);
    int Fd = shm_open(Name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (Fd < 0) {
      if (errno == EEXIST)
        continue; // left by a process that died with our pid
      return "";
    }
    Address = ftruncate(Fd, static_cast<off_t>(Bytes)) == 0
                  ? mapRing(Fd, Bytes, PROT_READ | PROT_WRITE)
                  : nullptr;
    close(Fd);
    if (!Address) {
      shm_unlink(Name);
      return "";
    }
    return Name;
  }
  return "";
}

/// Maps another rank's ring read-only; nullptr on failure.
void *openRing(const char *Name, std::size_t &Bytes) {
  int Fd = shm_open(Name, O_RDONLY, 0);
  if (Fd < 0)
    return nullptr;
  struct stat St;
  void *P = nullptr;
  if (fstat(Fd, &St) == 0 && St.st_size > 0) {
    Bytes = static_cast<std::size_t>(St.st_size);
    P = mapRing(Fd, Bytes, PROT_READ);
  }
  close(Fd);
  return P;
}

/// For tests, REDIST_TEST_RANKS_PER_NODE=K makes the runtime take each K
/// consecutive ranks of a communicator for a node, so that one machine can
/// run steps that mix shared-memory and MPI messages. 0 when unset.
int testRanksPerNode() {
  const char *Value = std::getenv("REDIST_TEST_RANKS_PER_NODE");
  return Value ? std::max(0, std::atoi(Value)) : 0;
}

/// Orders this rank's accesses to a ring before the signal that follows
/// (or after the one that preceded).
void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

} // namespace

void Plan::Impl::findNodePeers() {
  if (!Options.SharedMemory || Options.Mode != ExecMode::Scheduled ||
      Options.Pack == Packing::Datatypes || CommSize == 1)
    return;
  MPI_Comm Node;
  if (const int PerNode = testRanksPerNode())
    MPI_Comm_split(Comm, Rank / PerNode, Rank, &Node);
  else
    MPI_Comm_split_type(Comm, MPI_COMM_TYPE_SHARED, Rank, MPI_INFO_NULL, &Node);
  int NodeSize = 0;
  MPI_Comm_size(Node, &NodeSize);
  if (NodeSize == 1) {
    MPI_Comm_free(&Node);
    return;
  }
  // Which ranks of Comm share this node.
  MPI_Group All, NodeGroup;
  MPI_Comm_group(Comm, &All);
  MPI_Comm_group(Node, &NodeGroup);
  std::vector<int> Ranks(static_cast<std::size_t>(CommSize)),
      NodeRank(static_cast<std::size_t>(CommSize));
  for (int R = 0; R < CommSize; ++R)
    Ranks[static_cast<std::size_t>(R)] = R;
  MPI_Group_translate_ranks(All, CommSize, Ranks.data(), NodeGroup,
                            NodeRank.data());
  MPI_Group_free(&All);
  MPI_Group_free(&NodeGroup);
  auto OnNode = [&](int Peer) {
    return NodeRank[static_cast<std::size_t>(Peer)] != MPI_UNDEFINED;
  };

  const int64_t E = static_cast<int64_t>(ElementBytes);
  // This rank's ring: never more than the largest message it hands over.
  // It also serves as the send buffer of its MPI messages (a step has one
  // send), so it holds the largest of those too.
  int64_t RingElements = 0, LargestOffNode = 0;
  for (const detail::PeerMessage &M : Sends) {
    if (OnNode(M.Peer))
      RingElements = std::max(
          RingElements,
          std::min(SharedSlots * chunkElements(M.Elements, ElementBytes),
                   M.Elements));
    else
      LargestOffNode = std::max(LargestOffNode, M.Elements);
  }
  if (RingElements > 0)
    RingElements = std::max(RingElements, LargestOffNode);
  RingBytes = static_cast<std::size_t>(RingElements * E);
  int Ok = 1;
  std::vector<char> Names(static_cast<std::size_t>(NodeSize) * NameBytes);
  std::string Mine;
  if (RingBytes > 0) {
    void *Address = nullptr;
    Mine = createRing(RingBytes, Address);
    if (Mine.empty()) {
      Ok = 0;
    } else {
      Ring = static_cast<char *>(Address);
      Mappings.emplace_back(Address, RingBytes);
    }
  }
  char MyName[NameBytes] = {};
  std::snprintf(MyName, sizeof MyName, "%s", Mine.c_str());
  MPI_Allgather(MyName, NameBytes, MPI_CHAR, Names.data(), NameBytes, MPI_CHAR,
                Node);
  for (detail::PeerMessage &M : Recvs) {
    if (!OnNode(M.Peer) || !Ok)
      continue;
    const char *Name = &Names[static_cast<std::size_t>(
                                  NodeRank[static_cast<std::size_t>(M.Peer)]) *
                              NameBytes];
    std::size_t Bytes = 0;
    void *Address = Name[0] ? openRing(Name, Bytes) : nullptr;
    if (!Address) {
      Ok = 0;
      continue;
    }
    Mappings.emplace_back(Address, Bytes);
    M.PeerRing = static_cast<const char *>(Address);
  }
  // Every ring is mapped where it is needed (or the node gives up): the
  // names can go.
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_LAND, Node);
  MPI_Comm_free(&Node);
  if (!Mine.empty())
    shm_unlink(Mine.c_str());
  if (!AllOk) {
    freeShared();
    return;
  }
  for (std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (detail::PeerMessage &M : *List)
      M.Shared = OnNode(M.Peer);
}

void Plan::Impl::buildShared() {
  std::size_t MostSignals = 0;
  auto Cut = [&](std::vector<detail::PeerMessage> &Ms,
                 const std::vector<detail::MessageCutter> &Cs,
                 detail::CopySide Side) {
    for (std::size_t I = 0; I < Ms.size(); ++I) {
      detail::PeerMessage &M = Ms[I];
      if (!M.Shared)
        continue;
      const int64_t Chunk = chunkElements(M.Elements, ElementBytes);
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
    detail::forEachPiece(SelfCutter->length(),
                         chunkElements(SelfCutter->length(), ElementBytes),
                         [&](int64_t B, int64_t End) {
                           SelfChunks.push_back(SelfCutter->program(
                               detail::CopySide::Direct, B, End));
                         });
    Self = detail::CopyProgram();
  }
}

void Plan::Impl::freeShared() {
  for (const auto &[Address, Bytes] : Mappings)
    munmap(Address, Bytes);
  Mappings.clear();
  Ring = nullptr;
  RingBytes = 0;
}

void Plan::Impl::runShared(const detail::Group &G, const char *Src,
                           char *Dst) const {
  const detail::PeerMessage *Out =
      G.SharedSend >= 0 ? &Sends[static_cast<std::size_t>(G.SharedSend)]
                        : nullptr;
  const detail::PeerMessage *In =
      G.SharedRecv >= 0 ? &Recvs[static_cast<std::size_t>(G.SharedRecv)]
                        : nullptr;
  const std::size_t ToPack = Out ? Out->Chunks.size() : 0;
  const std::size_t ToUnpack = In ? In->Chunks.size() : 0;
  const std::size_t SelfTotal = G.Self ? SelfChunks.size() : 0;
  auto SlotOf = [](const detail::PeerMessage &M, std::size_t C) {
    return C % static_cast<std::size_t>(SharedSlots) * M.SlotBytes;
  };

  // Waiting[0]: the next "slot free" from Out's receiver; Waiting[1]: the
  // next "chunk ready" from In's sender.
  MPI_Request Waiting[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::size_t Packed = 0, Freed = 0, Ready = 0, Unpacked = 0, Copied = 0,
              NumSignals = 0;
  if (ToPack > 0)
    MPI_Irecv(nullptr, 0, MPI_BYTE, Out->Peer, FreeTag, Comm, &Waiting[0]);
  if (ToUnpack > 0)
    MPI_Irecv(nullptr, 0, MPI_BYTE, In->Peer, ReadyTag, Comm, &Waiting[1]);
  auto Arrived = [&](int Index) {
    if (Index == 0 && ++Freed < ToPack)
      MPI_Irecv(nullptr, 0, MPI_BYTE, Out->Peer, FreeTag, Comm, &Waiting[0]);
    if (Index == 1 && ++Ready < ToUnpack)
      MPI_Irecv(nullptr, 0, MPI_BYTE, In->Peer, ReadyTag, Comm, &Waiting[1]);
  };
  auto Poll = [&]() {
    for (;;) {
      int Index = MPI_UNDEFINED, Flag = 0;
      MPI_Testany(2, Waiting, &Index, &Flag, MPI_STATUS_IGNORE);
      if (!Flag || Index == MPI_UNDEFINED)
        return;
      Arrived(Index);
    }
  };
  auto CopySelfUpTo = [&](std::size_t Target) {
    for (; Copied < Target; ++Copied)
      detail::runCopyProgram(SelfChunks[Copied], Src, Dst, ElementBytes);
  };

  for (;;) {
    Poll();
    if (Unpacked == ToUnpack && Freed == ToPack)
      break;
    bool Progress = false;
    // Unpack first: that frees the sender's slots soonest.
    if (Unpacked < Ready) {
      fence();
      detail::runCopyProgram(In->Chunks[Unpacked],
                             In->PeerRing + SlotOf(*In, Unpacked), Dst,
                             ElementBytes);
      fence();
      MPI_Isend(nullptr, 0, MPI_BYTE, In->Peer, FreeTag, Comm,
                &Signals[NumSignals++]);
      ++Unpacked;
      Progress = true;
    }
    if (Packed < ToPack &&
        Packed - Freed < static_cast<std::size_t>(SharedSlots)) {
      fence();
      detail::runCopyProgram(Out->Chunks[Packed], Src,
                             Ring + SlotOf(*Out, Packed), ElementBytes);
      fence();
      MPI_Isend(nullptr, 0, MPI_BYTE, Out->Peer, ReadyTag, Comm,
                &Signals[NumSignals++]);
      ++Packed;
      // The local copy keeps pace with the packing: both read the same
      // source lines.
      CopySelfUpTo(SelfTotal * Packed / ToPack);
      Progress = true;
    }
    if (Progress)
      continue;
    if (Copied < SelfTotal) {
      CopySelfUpTo(Copied + 1);
      continue;
    }
    int Index = MPI_UNDEFINED;
    MPI_Waitany(2, Waiting, &Index, MPI_STATUS_IGNORE);
    if (Index == MPI_UNDEFINED)
      throw std::logic_error("redist runtime: shared step of rank " +
                             std::to_string(Rank) + " waits for nothing");
    Arrived(Index);
  }
  CopySelfUpTo(SelfTotal);
  MPI_Waitall(static_cast<int>(NumSignals), Signals.data(),
              MPI_STATUSES_IGNORE);
}

} // namespace redist
