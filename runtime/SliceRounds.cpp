//===- SliceRounds.cpp - A node's messages in rounds of whole slices ------===//
//
// When a group moves all of a rank's messages within the node at once (the
// Unsynchronized mode, the Scheduled mode's node phase), chunks cut from
// each message separately make each message sweep the source and target
// once more: with short runs every message touches every cache line. With
// block-cyclic layouts every message repeats with the slice of
// L = lcm(P*r, Q*s) global elements, so the chunks are cut by slices
// instead: round C covers the same slices for every message. Packing a
// round then walks the source once, a tile of a few slices at a time, each
// tile small enough to stay in L1 while every message takes its part; and
// unpacking a round fills each tile of the target from every message and
// the local copy together. Two ranks sharing a core then no longer evict
// each other's lines between the messages.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"

#include <unistd.h>

namespace redist {
namespace {

/// Bytes of each rank's larger local part (source or target) per round, and
/// per tile. Measured with 4 ranks on 2 cores: rounds of 64 KiB to 1 MiB
/// cost the same, and tiles of 0.5 to 2 KiB; larger tiles leave L1.
constexpr int64_t RoundBytes = 256 << 10;
constexpr int64_t TileBytes = 1 << 10;

/// What a core's L2 holds where sysconf cannot tell.
constexpr int64_t DefaultL2Bytes = 1 << 20;

/// The bytes a core sweeps: the source and target parts of the ranks it
/// runs (more than one where the node's ranks outnumber its processors).
int64_t bytesPerCore(int64_t LocalBytes, int NodeRanks) {
  const long Cpus = sysconf(_SC_NPROCESSORS_ONLN);
  const int64_t PerCore = Cpus > 0 ? (NodeRanks + Cpus - 1) / Cpus : int64_t(1);
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

/// Rounds beyond this many would signal more than they move; with fewer,
/// packing and unpacking would hardly overlap (chunks of each message then
/// do better).
constexpr int64_t MinRounds = HandoverSlots, MaxRounds = 1 << 16;

} // namespace

void Plan::Impl::chooseRoundShape(int64_t Largest, int NodeRanks) {
  Shape = detail::RoundShape();
  const int64_t L = patternPeriod(Source, Target);
  if (L == 0 || N / L == 0)
    return; // the same on every rank
  detail::RoundShape S;
  S.Slices = N / L;
  S.Tail = N % L != 0;
  S.SrcSlice = L / Source.procs();
  S.DstSlice = L / Target.procs();
  const int64_t SliceBytes =
      std::max(S.SrcSlice, S.DstSlice) * static_cast<int64_t>(ElementBytes);
  S.PerTile = std::max<int64_t>(1, TileBytes / SliceBytes);
  int64_t PerRound = std::max(S.PerTile, RoundBytes / SliceBytes);
  // Where what a core sweeps stays in its L2, sweeping once per message
  // costs little, and the rounds' signals would cost more (measured: on 2
  // cores, 2 or 4 ranks break even at 1.5 to 3 MB per core).
  if (bytesPerCore(SliceBytes * S.Slices, NodeRanks) < l2Bytes())
    PerRound = 0;
  if (Options.Mode == ExecMode::Scheduled) {
    // The slots of all of a rank's messages must fit the mode's memory bound.
    int64_t PerSlice = 0;
    for (const detail::PeerMessage &M : Sends)
      if (M.Shared)
        PerSlice += M.Round.PerSlice;
    if (PerSlice > 0)
      PerRound = std::min(PerRound, Largest / (HandoverSlots * PerSlice));
  }
  // Both ends of a message must cut it alike.
  int64_t Agreed = 0;
  MPI_Allreduce(&PerRound, &Agreed, 1, MPI_INT64_T, MPI_MIN, Comm);
  if (Agreed < 1)
    return;
  S.PerTile = std::min(S.PerTile, Agreed);
  S.PerRound = Agreed - Agreed % S.PerTile;
  const int64_t Rounds = (S.Slices + S.PerRound - 1) / S.PerRound;
  if (Rounds >= MinRounds && Rounds <= MaxRounds)
    Shape = S;
}

/// Elements of a message in whole slices, and the rest.
static int64_t slotElements(const detail::RoundShape &S,
                            const detail::PeerMessage &M) {
  const int64_t Whole = S.Slices * M.Round.PerSlice;
  return std::max(S.PerRound * M.Round.PerSlice, M.Elements - Whole);
}

int64_t Plan::Impl::ringElements(const detail::PeerMessage &M) const {
  if (Shape.Slices == 0)
    return handoverRingElements(M.Elements, ElementBytes);
  const int64_t Rounds = static_cast<int64_t>(Shape.rounds());
  return std::min(HandoverSlots, Rounds) * slotElements(Shape, M);
}

void Plan::Impl::buildRoundPrograms() {
  const std::size_t E = ElementBytes;
  auto Build = [&](detail::RoundPrograms &R, const detail::MessageCutter &C,
                   detail::CopySide Side) {
    const int64_t Ps = R.PerSlice, LastTile = Shape.Slices % Shape.PerTile;
    R.Tile = C.tileProgram(Side, 0, Shape.PerTile * Ps);
    if (LastTile > 0)
      R.LastTile = C.tileProgram(Side, 0, LastTile * Ps);
    if (Shape.Tail)
      R.Tail = C.program(Side, Shape.Slices * Ps, C.length());
  };
  for (std::size_t I = 0; I < Sends.size(); ++I)
    if (Sends[I].Shared) {
      Build(Sends[I].Round, SendCutters[I], detail::CopySide::Pack);
      Sends[I].SlotBytes =
          static_cast<std::size_t>(slotElements(Shape, Sends[I])) * E;
    }
  for (std::size_t I = 0; I < Recvs.size(); ++I)
    if (Recvs[I].Shared) {
      Build(Recvs[I].Round, RecvCutters[I], detail::CopySide::Unpack);
      Recvs[I].SlotBytes =
          static_cast<std::size_t>(slotElements(Shape, Recvs[I])) * E;
    }
  if (SelfCutter) {
    Build(SelfRound, *SelfCutter, detail::CopySide::Direct);
    Self = detail::CopyProgram(); // the rounds copy it
  }
}

namespace {
/// Calls F(T, false) for each tile of round C's whole slices (T its first
/// slice), or F(T, true) once for the round of the incomplete slice.
template <typename Fn>
void forEachTile(const detail::RoundShape &S, std::size_t C, Fn &&F) {
  const int64_t First = static_cast<int64_t>(C) * S.PerRound;
  if (First >= S.Slices)
    return F(First, true);
  const int64_t End = std::min(S.Slices, First + S.PerRound);
  for (int64_t T = First; T < End; T += S.PerTile)
    F(T, false);
}

/// The program of a tile at slice T, or of the incomplete slice.
const detail::CopyProgram &tileOf(const detail::RoundShape &S,
                                  const detail::RoundPrograms &R, int64_t T,
                                  bool Tail) {
  if (Tail)
    return R.Tail;
  return S.Slices - T < S.PerTile ? R.LastTile : R.Tile;
}
} // namespace

void Plan::Impl::packRound(std::size_t Round, char *const *Slots,
                           const detail::Group &G) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t First = static_cast<int64_t>(Round) * Shape.PerRound;
  forEachTile(Shape, Round, [&](int64_t T, bool Tail) {
    // The incomplete slice's programs hold absolute offsets.
    const char *From = CurrentSrc + (Tail ? 0 : T * Shape.SrcSlice * E);
    for (std::size_t I = 0; I < G.SharedSends.size(); ++I) {
      const detail::PeerMessage &M =
          Sends[static_cast<std::size_t>(G.SharedSends[I])];
      const int64_t At = Tail ? 0 : (T - First) * M.Round.PerSlice * E;
      detail::runCopyProgram(tileOf(Shape, M.Round, T, Tail), From,
                             Slots[I] + At, ElementBytes);
    }
  });
}

void Plan::Impl::unpackRound(std::size_t Round, const char *const *Slots,
                             const detail::Group &G) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t First = static_cast<int64_t>(Round) * Shape.PerRound;
  forEachTile(Shape, Round, [&](int64_t T, bool Tail) {
    char *To = CurrentDst + (Tail ? 0 : T * Shape.DstSlice * E);
    for (std::size_t I = 0; I < G.SharedRecvs.size(); ++I) {
      const detail::PeerMessage &M =
          Recvs[static_cast<std::size_t>(G.SharedRecvs[I])];
      const int64_t At = Tail ? 0 : (T - First) * M.Round.PerSlice * E;
      detail::runCopyProgram(tileOf(Shape, M.Round, T, Tail), Slots[I] + At, To,
                             ElementBytes);
    }
    if (G.Self)
      detail::runCopyProgram(tileOf(Shape, SelfRound, T, Tail),
                             CurrentSrc + (Tail ? 0 : T * Shape.SrcSlice * E),
                             To, ElementBytes);
  });
}

} // namespace redist
