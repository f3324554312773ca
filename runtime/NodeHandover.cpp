//===- NodeHandover.cpp - Handing messages over within a node -------------===//
//
// The rings and the step loop of NodeHandover.h. Each rank
// creates its ring (a memfd), the node's ranks exchange the names and map
// their senders' rings, and each closes its own at once; the mappings stay
// until the owner goes. Memory files rather than MPI-3 windows: freeing a
// window is collective, and destroying a plan should never wait for other
// ranks; rather than POSIX shared memory objects, which a rank killed
// between creating and unlinking one would leave in /dev/shm. Where any of
// that fails, the node's ranks fall back to MPI transfers together.
//
//===----------------------------------------------------------------------===//
#include "NodeHandover.h"
#include "MemoryFile.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace redist {
namespace {

/// Bytes of one chunk. Four slots of 256 KiB keep the ring within a core's
/// L2 while the receiver works on one chunk and the sender packs the next.
constexpr int64_t ChunkBytes = 256 << 10;

/// The signals' tags. Ranks of one node exchange no data transfers in the
/// same steps, so the tags cannot meet a data transfer's.
constexpr int ReadyTag = 0, FreeTag = 1;

/// At most this many chunks per message: longer messages get longer chunks,
/// so that the chunk programs of a huge message stay few.
constexpr int64_t MaxChunks = 4096;

/// Bytes of each rank's larger local part (source or target) per round, and
/// per tile. Measured with 4 ranks on 2 cores: rounds of 64 KiB to 1 MiB
/// cost the same, and tiles of 0.5 to 2 KiB; larger tiles leave L1.
constexpr int64_t RoundBytes = 256 << 10;
constexpr int64_t TileBytes = 1 << 10;
/// Where runs average a cache line or more, messages share few lines, so a
/// tile need not be small to be reused in L1; a longer one calls the copy
/// programs less often per byte (2,64 -> 2,96: slices of 1.5 KiB, a tile
/// each at 1 KiB, and 20-25% less time in packing and unpacking with
/// tiles of 8 KiB, docs/PERFORMANCE.md). Short runs keep 1 KiB: their
/// element tables grow with the tile, and 8 KiB cost them more.
constexpr int64_t LineBytes = 64;
constexpr int64_t LongRunTileBytes = 8 << 10;

/// Rounds beyond this many would signal more than they move; with fewer,
/// packing and unpacking would hardly overlap (chunks of each message then
/// do better).
constexpr int64_t MinRounds = 4, MaxRounds = 1 << 16;

/// Slots per message in rounds: at least four, and up to MaxSlots where the
/// memory bound allows. Four kept a sender within about 0.3 ms of work
/// ahead of its receiver at N = 10^7, so that a rank the OS preempted for
/// longer stalled its peers; more let them carry on (docs/PERFORMANCE.md,
/// issue 25).
constexpr int64_t MinSlots = 4;
constexpr int64_t MaxSlots = 64;

/// What a core's L2 holds where sysconf cannot tell.
constexpr int64_t DefaultL2Bytes = 1 << 20;

/// The bytes a core sweeps: the source and target parts of the ranks it
/// runs (more than one where the node's ranks outnumber its processors).
int64_t bytesPerCore(int64_t LocalBytes, int NodeRanks) {
  const long Cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const int64_t PerCore = Cpus > 0 ? (NodeRanks + Cpus - 1) / Cpus : 1;
  return 2 * LocalBytes * std::max<int64_t>(1, PerCore);
}

int64_t l2Bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long Bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (Bytes > 0)
    return Bytes;
#endif
  return DefaultL2Bytes;
}

/// Orders this rank's accesses to a ring before the signal that follows
/// (or after the one that preceded).
void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

/// Calls Take(M) for each signal already arrived among the Messages
/// requests of Waiting.
template <typename Fn>
void takeArrived(std::size_t Messages, MPI_Request *Waiting, Fn &&Take) {
  for (;;) {
    int Index = MPI_UNDEFINED, Flag = 0;
    MPI_Testany(static_cast<int>(Messages), Waiting, &Index, &Flag,
                MPI_STATUS_IGNORE);
    if (!Flag || Index == MPI_UNDEFINED)
      return;
    Take(Index);
  }
}

/// Waits for the next signal and calls Take(M).
template <typename Fn>
void takeNext(std::size_t Messages, MPI_Request *Waiting, Fn &&Take) {
  int Index = MPI_UNDEFINED;
  MPI_Waitany(static_cast<int>(Messages), Waiting, &Index, MPI_STATUS_IGNORE);
  if (Index == MPI_UNDEFINED)
    throw std::logic_error("redist runtime: a handover waits for nothing");
  Take(Index);
}

} // namespace

int64_t handoverChunkElements(int64_t Elements, std::size_t ElementBytes) {
  return std::max({int64_t(1), ChunkBytes / static_cast<int64_t>(ElementBytes),
                   (Elements + MaxChunks - 1) / MaxChunks});
}

std::size_t handoverChunks(int64_t Elements, std::size_t ElementBytes) {
  const int64_t Chunk = handoverChunkElements(Elements, ElementBytes);
  return static_cast<std::size_t>((Elements + Chunk - 1) / Chunk);
}

int64_t handoverRingElements(int64_t Elements, std::size_t ElementBytes) {
  return std::min(HandoverSlots * handoverChunkElements(Elements, ElementBytes),
                  Elements);
}

int64_t RoundShape::slotElements(int64_t PerSlice, int64_t Elements) const {
  return std::max(PerRound * PerSlice, Elements - Slices * PerSlice);
}

int64_t RoundShape::ringElements(int64_t PerSlice, int64_t Elements) const {
  return std::min(Slots, static_cast<int64_t>(rounds())) *
         slotElements(PerSlice, Elements);
}

RoundShape chooseRoundShape(MPI_Comm Comm, const RoundShape &Slicing,
                            std::size_t ElementBytes, int NodeRanks,
                            int64_t SentPerSlice, int64_t Largest,
                            int64_t RunBytes) {
  RoundShape S = Slicing;
  const int64_t SliceBytes =
      std::max(S.SrcSlice, S.DstSlice) * static_cast<int64_t>(ElementBytes);
  const int64_t Tile = RunBytes >= LineBytes ? LongRunTileBytes : TileBytes;
  const int64_t PerTile = std::max<int64_t>(1, Tile / SliceBytes);
  int64_t PerRound = std::max(PerTile, RoundBytes / SliceBytes);
  // Where what a core sweeps stays in its L2, sweeping once per message
  // costs little, and the rounds' signals would cost more (measured: on 2
  // cores, 2 or 4 ranks break even at 1.5 to 3 MB per core).
  if (bytesPerCore(SliceBytes * S.Slices, NodeRanks) < l2Bytes())
    PerRound = 0;
  // The slices of every message this rank sends that its slots may hold.
  const int64_t Budget = Largest > 0 && SentPerSlice > 0
                             ? Largest / SentPerSlice
                             : std::numeric_limits<int64_t>::max();
  // Both ends of a message must cut it alike, and rounds are whole tiles.
  const int64_t Mine[3] = {PerRound, PerTile, Budget};
  int64_t Agreed[3] = {0, 0, 0};
  MPI_Allreduce(Mine, Agreed, 3, MPI_INT64_T, MPI_MIN, Comm);
  PerRound = std::min(Agreed[0], Agreed[2] / MinSlots);
  if (PerRound < 1)
    return RoundShape();
  S.PerTile = std::min(Agreed[1], PerRound);
  S.PerRound = PerRound - PerRound % S.PerTile;
  const int64_t Rounds = (S.Slices + S.PerRound - 1) / S.PerRound;
  if (Rounds < MinRounds || Rounds > MaxRounds)
    return RoundShape();
  S.Slots = std::max(MinSlots, std::min({MaxSlots, Agreed[2] / S.PerRound,
                                         static_cast<int64_t>(S.rounds())}));
  return S;
}

NodeRings::NodeRings(MPI_Comm Comm, int RanksPerNode, int FailRingOnRank)
    : FailingRank(FailRingOnRank) {
  int Size = 0;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  MPI_Comm_split_type(Comm, MPI_COMM_TYPE_SHARED, Rank, MPI_INFO_NULL, &Node);
  if (RanksPerNode > 0) {
    MPI_Comm Shared = Node;
    MPI_Comm_split(Shared, Rank / RanksPerNode, Rank, &Node);
    MPI_Comm_free(&Shared);
  }
  MPI_Group All, NodeGroup;
  MPI_Comm_group(Comm, &All);
  MPI_Comm_group(Node, &NodeGroup);
  std::vector<int> Ranks(static_cast<std::size_t>(Size));
  for (int R = 0; R < Size; ++R)
    Ranks[static_cast<std::size_t>(R)] = R;
  NodeRank.resize(Ranks.size());
  MPI_Group_translate_ranks(All, Size, Ranks.data(), NodeGroup,
                            NodeRank.data());
  MPI_Group_free(&All);
  MPI_Group_free(&NodeGroup);
}

NodeRings::~NodeRings() {
  unmap();
  int Finalized = 0;
  MPI_Finalized(&Finalized);
  if (!Finalized && Node != MPI_COMM_NULL)
    MPI_Comm_free(&Node);
}

int NodeRings::nodeRank(int R) const {
  return NodeRank[static_cast<std::size_t>(R)];
}

bool NodeRings::onNode(int R) const {
  return R != Rank && R >= 0 && static_cast<std::size_t>(R) < NodeRank.size() &&
         NodeRank[static_cast<std::size_t>(R)] != MPI_UNDEFINED;
}

const char *NodeRings::ringOf(int Sender) const {
  for (const auto &[R, Address] : SenderRings)
    if (R == Sender)
      return Address;
  return nullptr;
}

void NodeRings::unmap() {
  for (const auto &[Address, Bytes] : Mappings)
    munmap(Address, Bytes);
  Mappings.clear();
  SenderRings.clear();
  Ring = nullptr;
  RingBytes = 0;
}

bool NodeRings::map(std::size_t Bytes, const std::vector<int> &Senders) {
  if (!Mappings.empty())
    throw std::logic_error("redist runtime: NodeRings::map called twice");
  int NodeSize = 0;
  MPI_Comm_size(Node, &NodeSize);
  int Ok = 1, MineFd = -1;
  std::string Mine;
  if (Rank == FailingRank) {
    Ok = 0;
  } else if (Bytes > 0) {
    void *Address = nullptr;
    Mine = createMemoryFile("redist-ring", Bytes, Address, MineFd);
    if (Mine.empty()) {
      Ok = 0;
    } else {
      Ring = static_cast<char *>(Address);
      RingBytes = Bytes;
      Mappings.emplace_back(Address, Bytes);
    }
  }
  std::vector<char> Names(static_cast<std::size_t>(NodeSize) *
                          MemoryFileNameBytes);
  char MyName[MemoryFileNameBytes] = {};
  std::snprintf(MyName, sizeof MyName, "%s", Mine.c_str());
  MPI_Allgather(MyName, MemoryFileNameBytes, MPI_CHAR, Names.data(),
                MemoryFileNameBytes, MPI_CHAR, Node);
  for (int Sender : Senders) {
    if (!Ok)
      break;
    const char *Name =
        onNode(Sender)
            ? &Names[static_cast<std::size_t>(
                         NodeRank[static_cast<std::size_t>(Sender)]) *
                     MemoryFileNameBytes]
            : "";
    std::size_t RingSize = 0;
    void *Address = Name[0] ? openMemoryFile(Name, RingSize) : nullptr;
    if (!Address) {
      Ok = 0;
      break;
    }
    Mappings.emplace_back(Address, RingSize);
    SenderRings.emplace_back(Sender, static_cast<const char *>(Address));
  }
  // Every ring is mapped where it is needed (or the node gives up): the
  // name can go; the mappings keep the memory.
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_LAND, Node);
  if (MineFd >= 0)
    close(MineFd);
  if (!AllOk)
    unmap();
  return AllOk != 0;
}

void HandoverScratch::reserve(std::size_t Messages, std::size_t Chunks) {
  Signals.resize(std::max(Signals.size(), Chunks));
  Waiting.resize(std::max(Waiting.size(), Messages));
  Done.resize(std::max(Done.size(), 2 * Messages));
  OutSlots.resize(std::max(OutSlots.size(), Messages));
  InSlots.resize(std::max(InSlots.size(), Messages));
}

void handOver(MPI_Comm Comm, const HandoverSend *Outs, std::size_t NumOuts,
              const HandoverRecv *Ins, std::size_t NumIns,
              const std::function<void(std::size_t, std::size_t)> &Paced,
              const std::function<bool()> &Filler, HandoverScratch &Scratch) {
  const std::size_t Slots = static_cast<std::size_t>(HandoverSlots);
  const std::size_t Messages = NumOuts + NumIns;
  std::size_t TotalChunks = 0, ToPack = 0;
  for (std::size_t I = 0; I < NumOuts; ++I)
    ToPack += Outs[I].Chunks;
  TotalChunks = ToPack;
  for (std::size_t I = 0; I < NumIns; ++I)
    TotalChunks += Ins[I].Chunks;
  if (Scratch.Signals.size() < TotalChunks ||
      Scratch.Waiting.size() < Messages || Scratch.Done.size() < 2 * Messages)
    throw std::logic_error("redist runtime: handOver's scratch holds too "
                           "little");

  // Message M (Outs, then Ins) waits in Waiting[M] for its next "slot free"
  // (Outs) or "chunk ready" (Ins). Done[2M] counts the chunks packed or
  // unpacked, Done[2M + 1] the slots freed or chunks ready.
  MPI_Request *Waiting = Scratch.Waiting.data();
  std::size_t *Done = Scratch.Done.data();
  auto Peer = [&](std::size_t M) {
    return M < NumOuts ? Outs[M].Peer : Ins[M - NumOuts].Peer;
  };
  auto Chunks = [&](std::size_t M) {
    return M < NumOuts ? Outs[M].Chunks : Ins[M - NumOuts].Chunks;
  };
  auto Post = [&](std::size_t M) {
    MPI_Irecv(nullptr, 0, MPI_BYTE, Peer(M), M < NumOuts ? FreeTag : ReadyTag,
              Comm, &Waiting[M]);
  };
  std::size_t Unfinished = 0;
  for (std::size_t M = 0; M < Messages; ++M) {
    Done[2 * M] = Done[2 * M + 1] = 0;
    Waiting[M] = MPI_REQUEST_NULL;
    if (Chunks(M) > 0) {
      Post(M);
      ++Unfinished;
    }
  }
  auto Arrived = [&](int Index) {
    const std::size_t M = static_cast<std::size_t>(Index);
    if (++Done[2 * M + 1] < Chunks(M))
      Post(M);
    else
      --Unfinished;
  };
  // The message least far along among those Ready allows.
  auto Pick = [&](std::size_t First, std::size_t Last, auto Ready) {
    std::size_t Best = Last;
    for (std::size_t M = First; M < Last; ++M)
      if (Ready(M) && (Best == Last ||
                       Done[2 * M] * Chunks(Best) < Done[2 * Best] * Chunks(M)))
        Best = M;
    return Best;
  };

  std::size_t Packed = 0, NumSignals = 0;
  // One chunk: its copy between fences, then its signal to rank To.
  auto Move = [&](auto &&Copy, int To, int Tag) {
    fence();
    Copy();
    fence();
    MPI_Isend(nullptr, 0, MPI_BYTE, To, Tag, Comm,
              &Scratch.Signals[NumSignals++]);
  };
  bool MoreFiller = true;
  for (;;) {
    takeArrived(Messages, Waiting, Arrived);
    bool Busy = Unfinished > 0;
    for (std::size_t M = NumOuts; !Busy && M < Messages; ++M)
      Busy = Done[2 * M] < Chunks(M);
    if (!Busy)
      break;
    bool Progress = false;
    // Unpack first: that frees the sender's slots soonest.
    const std::size_t U = Pick(NumOuts, Messages, [&](std::size_t M) {
      return Done[2 * M] < Done[2 * M + 1];
    });
    if (U < Messages) {
      const HandoverRecv &In = Ins[U - NumOuts];
      const std::size_t C = Done[2 * U]++;
      Move([&] { In.Unpack(C, In.Ring + C % Slots * In.SlotBytes); }, In.Peer,
           FreeTag);
      Progress = true;
    }
    const std::size_t P = Pick(0, NumOuts, [&](std::size_t M) {
      return Done[2 * M] < Outs[M].Chunks &&
             Done[2 * M] - Done[2 * M + 1] < Slots;
    });
    if (P < NumOuts) {
      const HandoverSend &Out = Outs[P];
      const std::size_t C = Done[2 * P]++;
      Move([&] { Out.Pack(C, Out.Ring + C % Slots * Out.SlotBytes); }, Out.Peer,
           ReadyTag);
      if (Paced)
        Paced(++Packed, ToPack);
      Progress = true;
    }
    if (Progress)
      continue;
    if (MoreFiller && Filler && (MoreFiller = Filler()))
      continue;
    takeNext(Messages, Waiting, Arrived);
  }
  MPI_Waitall(static_cast<int>(NumSignals), Scratch.Signals.data(),
              MPI_STATUSES_IGNORE);
}

void handOverInRounds(MPI_Comm Comm, const HandoverSend *Outs,
                      std::size_t NumOuts, const HandoverRecv *Ins,
                      std::size_t NumIns, const HandoverRounds &Rounds,
                      HandoverScratch &Scratch) {
  const std::size_t Slots = Rounds.Slots;
  const std::size_t Messages = NumOuts + NumIns, Total = Rounds.Rounds;
  if (Scratch.Signals.size() < Total * Messages ||
      Scratch.Waiting.size() < Messages || Scratch.Done.size() < Messages ||
      Scratch.OutSlots.size() < NumOuts || Scratch.InSlots.size() < NumIns)
    throw std::logic_error("redist runtime: handOverInRounds' scratch holds "
                           "too little");
  // Message M (Outs, then Ins) waits in Waiting[M] for its next "slot free"
  // (Outs) or "chunk ready" (Ins); Done[M] counts those arrived.
  MPI_Request *Waiting = Scratch.Waiting.data();
  std::size_t *Arrived = Scratch.Done.data();
  auto Post = [&](std::size_t M) {
    const bool Out = M < NumOuts;
    MPI_Irecv(nullptr, 0, MPI_BYTE, Out ? Outs[M].Peer : Ins[M - NumOuts].Peer,
              Out ? FreeTag : ReadyTag, Comm, &Waiting[M]);
  };
  for (std::size_t M = 0; M < Messages; ++M) {
    Arrived[M] = 0;
    Waiting[M] = MPI_REQUEST_NULL;
    if (Total > 0)
      Post(M);
  }
  auto Take = [&](int Index) {
    const std::size_t M = static_cast<std::size_t>(Index);
    if (++Arrived[M] < Total)
      Post(M);
  };
  // The fewest signals that arrived for messages [First, Last).
  auto Least = [&](std::size_t First, std::size_t Last) {
    std::size_t Min = Total;
    for (std::size_t M = First; M < Last; ++M)
      Min = std::min(Min, Arrived[M]);
    return Min;
  };
  std::size_t Packed = 0, Unpacked = 0, NumSignals = 0;
  // Round C of Count messages: their slots into SlotsOf, Move between
  // fences, then a signal with Tag to each peer.
  auto MoveRound = [&](std::size_t C, const auto *Msgs, std::size_t Count,
                       auto *SlotsOf, const auto &Move, int Tag) {
    for (std::size_t I = 0; I < Count; ++I)
      SlotsOf[I] = Msgs[I].Ring + C % Slots * Msgs[I].SlotBytes;
    fence();
    Move(C, SlotsOf);
    fence();
    for (std::size_t I = 0; I < Count; ++I)
      MPI_Isend(nullptr, 0, MPI_BYTE, Msgs[I].Peer, Tag, Comm,
                &Scratch.Signals[NumSignals++]);
  };
  for (;;) {
    takeArrived(Messages, Waiting, Take);
    // Unpack first, as that frees the senders' slots soonest, then pack:
    // one of each per pass, so that neither starves the other.
    bool Progress = false;
    if (Unpacked < Total && Least(NumOuts, Messages) > Unpacked) {
      MoveRound(Unpacked++, Ins, NumIns, Scratch.InSlots.data(),
                Rounds.UnpackRound, FreeTag);
      Progress = true;
    }
    if (Packed < Total && Packed < Least(0, NumOuts) + Slots) {
      MoveRound(Packed++, Outs, NumOuts, Scratch.OutSlots.data(),
                Rounds.PackRound, ReadyTag);
      Progress = true;
    }
    if (Progress)
      continue;
    if (Unpacked == Total && Packed == Total && Least(0, NumOuts) == Total)
      break;
    takeNext(Messages, Waiting, Take);
  }
  MPI_Waitall(static_cast<int>(NumSignals), Scratch.Signals.data(),
              MPI_STATUSES_IGNORE);
}

} // namespace redist
