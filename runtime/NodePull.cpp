//===- NodePull.cpp - Reading the node's sources directly -----------------===//
//
// When every rank of a node passes execute() a source in node memory
// (NodeMemory.h), the group that moves the node's messages all at once
// skips the handover: each receiver copies its messages straight from its
// senders' sources into its target, one read and one write per element,
// and the local copy with them, tile by tile where the layouts have slices.
//
// The node's ranks with such messages (PullComm) agree per execute(), since
// the caller's arrays may change between calls: one MPI_Allgather of where
// each source lies, which also tells every reader that its senders' sources
// are ready; after the copies, one MPI_Barrier, so that no sender returns
// (and its caller writes its source) while it is still read. Whether each
// reader maps every source it reads is agreed by an MPI_Allreduce, only when
// something changed since the previous execute(): the posts, or any rank's
// node memory (its epoch is in its post).
//
//===----------------------------------------------------------------------===//
#include "Combine.h"
#include "CopyBytes.h"
#include "NodeMemoryTable.h"
#include "PlanImpl.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace redist {
namespace {

/// One rank's post: whether its source lies in node memory that every rank
/// of PullComm maps (or nobody reads it), and where.
enum PostField {
  Ok,
  Pid,
  Serial,
  Offset,
  Bytes,
  Epoch,
  Share, ///< this rank can share the tiles: its target lies in node memory
  TargetSerial, ///< where its target lies, as Serial and Offset
  TargetOffset,
  TargetSize,
  PostWidth
};

/// Bytes of target per tile of pullTiles(). Measured at 2 ranks, N = 10^7
/// (docs/PERFORMANCE.md): with runs of 1-3 elements, tiles of 2 KiB beat
/// 1 KiB (4.7 against 5.2 ms) and 8 KiB (8.1 ms), whose element tables
/// grow with them. With runs of 32-64 elements, 8 KiB beat 2 KiB on the
/// Intel machine of the eighth pass (separate launches, under load), but
/// lost to it by 5-15% on an AMD EPYC in the twelfth, where one launch
/// timed both plans side by side; that is the stronger measurement.
constexpr int64_t TileBytes = 2 << 10;

/// To[J] = the element at Base + Address[J], for J < Count, in target
/// order: one table load, one load and one sequential store per element.
template <std::size_t E>
void gather(char *To, const char *Base, const int64_t *Address,
            std::size_t Count) {
  for (std::size_t J = 0; J < Count; ++J)
    std::memcpy(To + J * E, Base + Address[J], E);
}

void gather(char *To, const char *Base, const int64_t *Address,
            std::size_t Count, std::size_t E) {
  switch (E) {
  case 4:
    return gather<4>(To, Base, Address, Count);
  case 8:
    return gather<8>(To, Base, Address, Count);
  case 16:
    return gather<16>(To, Base, Address, Count);
  default:
    for (std::size_t J = 0; J < Count; ++J)
      std::memcpy(To + J * E, Base + Address[J], E);
  }
}

/// P as a number, for offsets between arrays of different ranks' memory.
int64_t addressOf(const char *P) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(P));
}

} // namespace

bool Plan::Impl::pullsAsBuilt(const std::vector<int> &Reads,
                              bool WithSelf) const {
  // Slabs hold every local copy too: the one done elsewhere is skipped.
  return (WithSelf == GathersWithSelf || Slabs) &&
         Reads.size() == PullRecvs.size() && !detail::activeCombine();
}

bool Plan::Impl::buildGathers() {
  if (PullRecvs.size() + 1 >= std::numeric_limits<uint16_t>::max())
    return false;
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t Last = Shape.Slices % PullTile;
  const int64_t TargetElements = TargetBytes / E;
  // Per kind: its program of a message, how many target elements it
  // covers, and where its offsets start (the incomplete slice's are
  // absolute).
  struct Kind {
    detail::CopyProgram detail::RoundPrograms::*Of;
    int64_t Elements, ToBase;
  };
  const int64_t Whole = Shape.Slices * Shape.DstSlice;
  const Kind Kinds[3] = {
      {&detail::RoundPrograms::Tile, PullTile * Shape.DstSlice, 0},
      {&detail::RoundPrograms::LastTile, Last * Shape.DstSlice, 0},
      {&detail::RoundPrograms::Tail, Shape.Tail ? TargetElements - Whole : 0,
       Whole}};
  constexpr uint16_t None = std::numeric_limits<uint16_t>::max();
  Gathers.assign(3, PullGather());
  for (int K = 0; K < 3; ++K) {
    PullGather &G = Gathers[static_cast<std::size_t>(K)];
    const Kind &Kd = Kinds[K];
    G.Source.assign(static_cast<std::size_t>(Kd.Elements), None);
    G.Offset.assign(G.Source.size(), 0);
    bool Fits = true;
    auto Add = [&](const detail::CopyProgram &P, uint16_t Source) {
      detail::forEachRun(P, [&](int64_t From, int64_t To, int64_t Length) {
        for (int64_t I = 0; I < Length; ++I) {
          const int64_t At = To + I - Kd.ToBase;
          if (At < 0 || At >= Kd.Elements ||
              G.Source[static_cast<std::size_t>(At)] != None)
            return Fits = false;
          G.Source[static_cast<std::size_t>(At)] = Source;
          G.Offset[static_cast<std::size_t>(At)] = (From + I) * E;
        }
        return true;
      });
    };
    if (SelfCutter)
      Add(SelfPull.*Kd.Of, 0);
    for (std::size_t I = 0; I < PullRecvs.size() && Fits; ++I)
      Add(Recvs[static_cast<std::size_t>(PullRecvs[I])].PullRound.*Kd.Of,
          static_cast<uint16_t>(I + 1));
    if (!Fits ||
        std::find(G.Source.begin(), G.Source.end(), None) != G.Source.end())
      return false; // some of the target comes from elsewhere
    G.Address.resize(G.Source.size());
  }
  return true;
}

void Plan::Impl::buildShares() {
  int Me = 0, Size = 0;
  MPI_Comm_rank(PullComm, &Me);
  MPI_Comm_size(PullComm, &Size);
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t Whole = PullTile > 0 ? Shape.Slices / PullTile : 0;
  // This rank's whole tile as runs (source: its rank in PullComm; byte
  // offsets in it and in the target; bytes), where it all comes from the
  // node.
  enum { RunSource, RunFrom, RunTo, RunBytes, RunWidth };
  using Run = std::array<int64_t, RunWidth>;
  std::vector<Run> Own;
  bool Can = Whole > 0;
  auto Add = [&](const detail::CopyProgram &P, int64_t Source) {
    detail::forEachRun(P, [&](int64_t From, int64_t To, int64_t Length) {
      Own.push_back(Run{Source, From * E, To * E, Length * E});
      return true;
    });
  };
  std::vector<int64_t> Runs; // Own, sorted by target offset, flat
  if (Can) {
    if (GathersWithSelf)
      Add(SelfPull.Tile, Me);
    for (int I : PullRecvs) {
      const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(I)];
      Add(M.PullRound.Tile, M.PullPeer);
    }
    // Sorted by target offset, the runs must tile the whole tile.
    std::sort(Own.begin(), Own.end(),
              [](const Run &X, const Run &Y) { return X[RunTo] < Y[RunTo]; });
    int64_t End = 0;
    for (const Run &R : Own) {
      Can = Can && R[RunTo] == End;
      End += R[RunBytes];
      Runs.insert(Runs.end(), R.begin(), R.end());
    }
    Can = Can && End == PullTile * Shape.DstSlice * E;
  }
  // Every rank must have whole tiles of the same shape.
  enum { Ok, Tile, SrcSlice, DstSlice, Count, Width };
  const int64_t Mine[Width] = {Can, PullTile, Shape.SrcSlice, Shape.DstSlice,
                               Can ? static_cast<int64_t>(Runs.size()) : 0};
  std::vector<int64_t> All(static_cast<std::size_t>(Size) * Width);
  MPI_Allgather(Mine, Width, MPI_INT64_T, All.data(), Width, MPI_INT64_T,
                PullComm);
  std::vector<int> Counts(static_cast<std::size_t>(Size)),
      Starts(static_cast<std::size_t>(Size));
  for (int R = 0; R < Size; ++R) {
    const int64_t *Its = &All[static_cast<std::size_t>(R) * Width];
    if (!Its[Ok] || !std::equal(Mine + Tile, Mine + Count, Its + Tile) ||
        Its[Count] > std::numeric_limits<int>::max() - Starts.back())
      return; // the same on every rank
    Counts[static_cast<std::size_t>(R)] = static_cast<int>(Its[Count]);
    if (R + 1 < Size)
      Starts[static_cast<std::size_t>(R) + 1] =
          Starts[static_cast<std::size_t>(R)] +
          Counts[static_cast<std::size_t>(R)];
  }
  std::vector<int64_t> Tables(
      static_cast<std::size_t>(Starts.back() + Counts.back()));
  MPI_Allgatherv(Runs.data(), static_cast<int>(Runs.size()), MPI_INT64_T,
                 Tables.data(), Counts.data(), Starts.data(), MPI_INT64_T,
                 PullComm);
  // Short runs (under half a line on average) copy faster element by
  // element, in target order, as the gathers do.
  ShareTables.assign(static_cast<std::size_t>(Size), ShareTable());
  for (std::size_t T = 0; T < ShareTables.size(); ++T) {
    ShareTable &S = ShareTables[T];
    const int64_t *First = &Tables[static_cast<std::size_t>(Starts[T])];
    const std::size_t Number = static_cast<std::size_t>(Counts[T]) / RunWidth;
    S.ByElement =
        PullTile * Shape.DstSlice * E < static_cast<int64_t>(Number) * 32;
    for (std::size_t R = 0; R < Number; ++R) {
      const int64_t *Run = First + R * RunWidth;
      for (int64_t B = 0; B < Run[RunBytes];
           B += S.ByElement ? E : Run[RunBytes]) {
        S.Source.push_back(static_cast<uint16_t>(Run[RunSource]));
        S.From.push_back(Run[RunFrom] + B);
        if (!S.ByElement) {
          S.To.push_back(Run[RunTo]);
          S.Bytes.push_back(Run[RunBytes]);
        }
      }
    }
    S.Address.resize(S.From.size());
  }
  ShareFrom.assign(ShareTables.size(), nullptr);
  ShareTo.assign(ShareTables.size(), nullptr);
}

void Plan::Impl::buildPull() {
  // The same on every rank of the node.
  if (!RingsMapped)
    return;
  PullAtOnce = Options.Mode == ExecMode::Unsynchronized || NodePhase;
  const std::vector<std::vector<int64_t>> Strides = arraySenderStrides(*Rings);
  bool HasShared = false;
  for (const std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (const detail::PeerMessage &M : *List)
      HasShared = HasShared || M.Shared;
  MPI_Comm Node = Rings->comm();
  int NodeRank = 0;
  MPI_Comm_rank(Node, &NodeRank);
  MPI_Comm_split(Node, HasShared ? 0 : MPI_UNDEFINED, NodeRank, &PullComm);
  if (PullComm == MPI_COMM_NULL)
    return;
  int PullSize = 0;
  MPI_Comm_size(PullComm, &PullSize);
  long Mine = static_cast<long>(detail::processId());
  PullPids.resize(static_cast<std::size_t>(PullSize));
  MPI_Allgather(&Mine, 1, MPI_LONG, PullPids.data(), 1, MPI_LONG, PullComm);
  const std::size_t E = ElementBytes;
  SourceBytes = static_cast<int64_t>(E) *
                (Array ? Array->SourceStorage
                       : (Rank < Source.procs() ? Source.localSize(Rank) : 0));
  TargetBytes = static_cast<int64_t>(E) *
                (Array ? Array->TargetStorage
                       : (Rank < Target.procs() ? Target.localSize(Rank) : 0));
  // Where the messages have slices, tiles of a few KiB of the target: every
  // sender's part of a tile lands in the same lines while they are in L1,
  // and each program call copies enough to pay for itself.
  const int64_t DstSliceBytes = Shape.DstSlice * static_cast<int64_t>(E);
  bool ShortRuns = false;
  if (!Groups.empty() && Groups.front().InRounds && DstSliceBytes > 0) {
    const int64_t HandoverTile = Shape.PerTile *
                                 std::max(Shape.SrcSlice, Shape.DstSlice) *
                                 static_cast<int64_t>(E);
    // The handover's tiles (chooseRoundShape) grow past this size only
    // where runs average a cache line: they tell which kind these are.
    ShortRuns = HandoverTile <= TileBytes;
    PullTile =
        std::min(Shape.Slices, std::max<int64_t>(1, TileBytes / DstSliceBytes));
  }
  auto BuildTiles = [&](detail::RoundPrograms &R,
                        const detail::MessageCutter &C) {
    R.build(C, detail::CopySide::Direct, PullTile, Shape.Slices, Shape.Tail);
  };
  if (PullTile > 0 && SelfCutter) {
    SelfPull.PerSlice = SelfRound.PerSlice;
    BuildTiles(SelfPull, *SelfCutter);
  }
  MPI_Group NodeGroup, PullGroup;
  MPI_Comm_group(Node, &NodeGroup);
  MPI_Comm_group(PullComm, &PullGroup);
  for (std::size_t I = 0; I < Recvs.size(); ++I) {
    detail::PeerMessage &M = Recvs[I];
    if (!M.Shared)
      continue;
    PullRecvs.push_back(static_cast<int>(I));
    const int Peer = Rings->nodeRank(M.Peer);
    MPI_Group_translate_ranks(NodeGroup, 1, &Peer, PullGroup, &M.PullPeer);
    if (PullTile > 0) {
      M.PullRound.PerSlice = M.Round.PerSlice;
      BuildTiles(M.PullRound, RecvCutters[I]);
    } else {
      M.PullProgram = directProgram(*Rings, I, Strides);
    }
  }
  MPI_Group_free(&NodeGroup);
  MPI_Group_free(&PullGroup);
  GathersWithSelf = SelfCutter.has_value();
  // Long runs copy faster run by run than element by element.
  if (PullTile > 0 && ShortRuns && !buildGathers())
    Gathers.clear();
  buildShares();
  buildSlabs();
  for (const detail::PeerMessage &M : Sends)
    PullSends = PullSends || M.Shared;
  PullPosts.assign(static_cast<std::size_t>(PullSize) * PostWidth, 0);
  LastPosts.clear();
  PullSources.assign(Recvs.size(), nullptr);
}

void Plan::Impl::pullBeforeSteps(const char *Src, char *Dst) const {
  StepsPulled = PullComm != MPI_COMM_NULL && !PullAtOnce &&
                pull(PullRecvs, false, Src, Dst);
}

bool Plan::Impl::pull(const std::vector<int> &Reads, bool WithSelf,
                      const char *Src, char *Dst) const {
  SelfCopied = false;
  int64_t Post[PostWidth] = {};
  Post[Pid] = detail::processId();
  Post[Epoch] = static_cast<int64_t>(detail::nodeMemoryEpoch());
  Post[Bytes] = SourceBytes;
  Post[TargetSize] = TargetBytes;
  detail::NodeAddress From, To;
  if (SourceBytes > 0)
    From = detail::findOwnNodeMemory(Src, static_cast<std::size_t>(SourceBytes),
                                     PullPids);
  Post[Ok] = !PullSends || SourceBytes == 0 || From.Found;
  Post[Serial] = static_cast<int64_t>(From.Serial);
  Post[Offset] = static_cast<int64_t>(From.Offset);
  if ((!ShareTables.empty() || Slabs) && pullsAsBuilt(Reads, WithSelf) &&
      (SourceBytes == 0 || From.Found)) {
    if (TargetBytes > 0)
      To = detail::findOwnNodeMemory(Dst, static_cast<std::size_t>(TargetBytes),
                                     PullPids);
    Post[Share] = TargetBytes == 0 || To.Found;
    Post[TargetSerial] = static_cast<int64_t>(To.Serial);
    Post[TargetOffset] = static_cast<int64_t>(To.Offset);
  }
  MPI_Allgather(Post, PostWidth, MPI_INT64_T, PullPosts.data(), PostWidth,
                MPI_INT64_T, PullComm);
  bool Shared = true; // every rank can share the tiles
  for (std::size_t R = 0; R < PullPosts.size(); R += PostWidth) {
    if (!PullPosts[R + Ok])
      return false; // the same on every rank
    Shared = Shared && PullPosts[R + Share];
  }
  // Where this rank maps a rank's source (Field Serial) or target
  // (TargetSerial); each is followed by its offset.
  auto View = [&](const int64_t *P, int Field, int64_t Size) -> char * {
    detail::NodeAddress A;
    A.Found = true;
    A.Pid = P[Pid];
    A.Serial = static_cast<uint64_t>(P[Field]);
    A.Offset = static_cast<uint64_t>(P[Field + 1]);
    return detail::findNodeView(A, static_cast<std::size_t>(Size));
  };
  int Resolved[2] = {1, Shared}; // reads, shares
  for (int I : Reads) {
    const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(I)];
    const int64_t *P =
        PullPosts.data() + static_cast<std::size_t>(M.PullPeer) * PostWidth;
    const char *Source = P[Bytes] > 0 ? View(P, Serial, P[Bytes]) : nullptr;
    PullSources[static_cast<std::size_t>(I)] = Source;
    Resolved[0] = Resolved[0] && (Source || P[Bytes] == 0);
  }
  if (Shared) {
    int Me = 0;
    MPI_Comm_rank(PullComm, &Me);
    for (std::size_t R = 0; R < ShareFrom.size(); ++R) {
      const int64_t *P = PullPosts.data() + R * PostWidth;
      const bool Mine = R == static_cast<std::size_t>(Me);
      ShareFrom[R] = Mine           ? Src
                     : P[Bytes] > 0 ? View(P, Serial, P[Bytes])
                                    : nullptr;
      ShareTo[R] = Mine                ? Dst
                   : P[TargetSize] > 0 ? View(P, TargetSerial, P[TargetSize])
                                       : nullptr;
      Resolved[1] = Resolved[1] && (ShareFrom[R] || P[Bytes] == 0) &&
                    (ShareTo[R] || P[TargetSize] == 0);
    }
  }
  // With the same posts as last time (every rank's node memory unchanged),
  // every rank resolves as it did then.
  if (PullPosts != LastPosts) {
    int All[2] = {};
    MPI_Allreduce(Resolved, All, 2, MPI_INT, MPI_LAND, PullComm);
    LastAgreed = All[0] != 0;
    LastShareAgreed = All[1] != 0;
    LastPosts = PullPosts;
  }
  if (LastShareAgreed) {
    if (Slabs) {
      shareSlabs();
      SelfCopied = true;
    } else
      pullTiles(Reads, WithSelf, true, Src, Dst);
    ++Shares;
  } else if (!LastAgreed) {
    return false;
  } else if (PullTile > 0) {
    pullTiles(Reads, WithSelf, false, Src, Dst);
  } else {
    for (int I : Reads) {
      const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(I)];
      if (const char *From = PullSources[static_cast<std::size_t>(I)])
        detail::runCopyProgram(M.PullProgram, From, Dst, ElementBytes);
    }
    if (WithSelf)
      for (const detail::CopyProgram &P : SelfChunks)
        detail::runCopyProgram(P, Src, Dst, ElementBytes);
  }
  MPI_Barrier(PullComm);
  ++Pulls;
  return true;
}

void Plan::Impl::shareTiles(const char *Src) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  for (const ShareTable &S : ShareTables)
    for (std::size_t J = 0; J < S.From.size(); ++J)
      S.Address[J] =
          S.From[J] + addressOf(ShareFrom[S.Source[J]]) - addressOf(Src);
  int Me = 0, Size = 0;
  MPI_Comm_rank(PullComm, &Me);
  MPI_Comm_size(PullComm, &Size);
  const int64_t Whole = Shape.Slices / PullTile;
  const int64_t SrcTile = PullTile * Shape.SrcSlice * E,
                DstTile = PullTile * Shape.DstSlice * E;
  // Every rank's target in turn, tile by tile: the source lines that a
  // tile reads serve all its targets while they are in cache.
  for (int64_t K = Whole * Me / Size; K < Whole * (Me + 1) / Size; ++K)
    for (std::size_t T = 0; T < ShareTables.size(); ++T) {
      const ShareTable &S = ShareTables[T];
      char *To = ShareTo[T] + K * DstTile;
      const char *From = Src + K * SrcTile;
      if (S.ByElement) {
        gather(To, From, S.Address.data(), S.Address.size(), ElementBytes);
        continue;
      }
      for (std::size_t J = 0; J < S.Address.size(); ++J)
        detail::copyBytes(To + S.To[J], From + S.Address[J],
                          static_cast<std::size_t>(S.Bytes[J]));
    }
}

void Plan::Impl::pullTiles(const std::vector<int> &Reads, bool WithSelf,
                           bool Share, const char *Src, char *Dst) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const bool Gathering = !Gathers.empty() && pullsAsBuilt(Reads, WithSelf);
  if (Gathering) {
    // Each source's address from Src's.
    for (const PullGather &G : Gathers)
      for (std::size_t J = 0; J < G.Source.size(); ++J) {
        const uint16_t Q = G.Source[J];
        G.Address[J] = G.Offset[J];
        if (Q > 0)
          G.Address[J] +=
              addressOf(
                  PullSources[static_cast<std::size_t>(PullRecvs[Q - 1u])]) -
              addressOf(Src);
      }
  }
  // Tile K of Count slices (Tail: the incomplete slice), from every source:
  // one gather in target order, or each message's program.
  auto Copy = [&](int64_t K, int64_t Count, bool Tail) {
    if (Gathering) {
      const PullGather &G = Gathers[Tail ? 2 : Count == PullTile ? 0 : 1];
      // The incomplete slice's offsets are absolute.
      gather(Dst + K * Shape.DstSlice * E,
             Tail ? Src : Src + K * Shape.SrcSlice * E, G.Address.data(),
             G.Address.size(), ElementBytes);
      return;
    }
    const int64_t SrcAt = Tail ? 0 : K * Shape.SrcSlice * E;
    char *To = Dst + (Tail ? 0 : K * Shape.DstSlice * E);
    for (int I : Reads) {
      const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(I)];
      if (const char *From = PullSources[static_cast<std::size_t>(I)])
        detail::runCopyProgram(M.PullRound.of(Count, PullTile, Tail),
                               From + SrcAt, To, ElementBytes);
    }
    if (WithSelf)
      detail::runCopyProgram(SelfPull.of(Count, PullTile, Tail), Src + SrcAt,
                             To, ElementBytes);
  };
  // The whole tiles: this rank's share of every rank's, or its own.
  const int64_t Whole = Shape.Slices / PullTile;
  if (Share)
    shareTiles(Src);
  else
    for (int64_t K = 0; K < Whole; ++K)
      Copy(K * PullTile, PullTile, false);
  if (Whole * PullTile < Shape.Slices)
    Copy(Whole * PullTile, Shape.Slices - Whole * PullTile, false);
  if (Shape.Tail)
    Copy(Shape.Slices, 0, true);
}

} // namespace redist
