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

namespace redist {

void Plan::Impl::chooseRoundShape(int64_t Largest, int NodeRanks) {
  Shape = RoundShape();
  if (Array)
    return; // an array's messages have no common slice (same on every rank)
  const int64_t L = patternPeriod(Source, Target);
  if (L == 0 || N / L == 0)
    return; // the same on every rank
  RoundShape Slicing;
  Slicing.Slices = N / L;
  Slicing.Tail = N % L != 0;
  Slicing.SrcSlice = L / Source.procs();
  Slicing.DstSlice = L / Target.procs();
  int64_t SentPerSlice = 0;
  for (const detail::PeerMessage &M : Sends)
    if (M.Shared)
      SentPerSlice += M.Round.PerSlice;
  // The shortest average run of one slice, on this rank's side of each
  // message the rounds move (both sides of the local copy).
  const int64_t E = static_cast<int64_t>(ElementBytes);
  int64_t RunBytes = INT64_MAX;
  auto Weigh = [&](const detail::MessageCutter &C, int64_t PerSlice,
                   detail::CopySide Side) {
    if (PerSlice == 0)
      return;
    const detail::CopyProgram P = C.program(Side, 0, PerSlice);
    for (bool UseFrom : {true, false})
      if ((Side == detail::CopySide::Pack) == UseFrom ||
          Side == detail::CopySide::Direct)
        RunBytes = std::min(
            RunBytes,
            PerSlice * E / std::max<int64_t>(1, detail::runsOf(P, UseFrom)));
  };
  for (std::size_t I = 0; I < Sends.size(); ++I)
    if (Sends[I].Shared)
      Weigh(SendCutters[I], Sends[I].Round.PerSlice, detail::CopySide::Pack);
  for (std::size_t I = 0; I < Recvs.size(); ++I)
    if (Recvs[I].Shared)
      Weigh(RecvCutters[I], Recvs[I].Round.PerSlice, detail::CopySide::Unpack);
  if (SelfCutter)
    Weigh(*SelfCutter, SelfRound.PerSlice, detail::CopySide::Direct);
  // The Scheduled and Overlapped modes' slots must fit their memory bound.
  Shape = redist::chooseRoundShape(
      Comm, Slicing, ElementBytes, NodeRanks, SentPerSlice,
      Options.Mode != ExecMode::Unsynchronized ? std::max<int64_t>(1, Largest)
                                               : 0,
      RunBytes);
}

int64_t Plan::Impl::ringElements(const detail::PeerMessage &M) const {
  if (Shape.Slices == 0)
    return handoverRingElements(M.Elements, ElementBytes);
  return Shape.ringElements(M.Round.PerSlice, M.Elements);
}

void Plan::Impl::buildRoundPrograms() {
  const std::size_t E = ElementBytes;
  auto Build = [&](detail::RoundPrograms &R, const detail::MessageCutter &C,
                   detail::CopySide Side) {
    R.build(C, Side, Shape.PerTile, Shape.Slices, Shape.Tail);
  };
  for (std::size_t I = 0; I < Sends.size(); ++I)
    if (Sends[I].Shared) {
      Build(Sends[I].Round, SendCutters[I], detail::CopySide::Pack);
      Sends[I].SlotBytes = static_cast<std::size_t>(Shape.slotElements(
                               Sends[I].Round.PerSlice, Sends[I].Elements)) *
                           E;
    }
  for (std::size_t I = 0; I < Recvs.size(); ++I)
    if (Recvs[I].Shared) {
      Build(Recvs[I].Round, RecvCutters[I], detail::CopySide::Unpack);
      Recvs[I].SlotBytes = static_cast<std::size_t>(Shape.slotElements(
                               Recvs[I].Round.PerSlice, Recvs[I].Elements)) *
                           E;
    }
  if (SelfCutter) {
    Build(SelfRound, *SelfCutter, detail::CopySide::Direct);
    Self = detail::CopyProgram(); // the rounds copy it
  }
}

void Plan::Impl::packRound(std::size_t Round, char *const *Slots,
                           const detail::Group &G) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t First = static_cast<int64_t>(Round) * Shape.PerRound;
  Shape.forEachTile(Round, [&](int64_t T, int64_t Count, bool Tail) {
    // The incomplete slice's programs hold absolute offsets.
    const char *From = CurrentSrc + (Tail ? 0 : T * Shape.SrcSlice * E);
    for (std::size_t I = 0; I < G.SharedSends.size(); ++I) {
      const detail::PeerMessage &M =
          Sends[static_cast<std::size_t>(G.SharedSends[I])];
      const int64_t At = Tail ? 0 : (T - First) * M.Round.PerSlice * E;
      detail::runCopyProgram(M.Round.of(Count, Shape.PerTile, Tail), From,
                             Slots[I] + At, ElementBytes);
    }
  });
}

void Plan::Impl::unpackRound(std::size_t Round, const char *const *Slots,
                             const detail::Group &G) const {
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t First = static_cast<int64_t>(Round) * Shape.PerRound;
  Shape.forEachTile(Round, [&](int64_t T, int64_t Count, bool Tail) {
    char *To = CurrentDst + (Tail ? 0 : T * Shape.DstSlice * E);
    for (std::size_t I = 0; I < G.SharedRecvs.size(); ++I) {
      const detail::PeerMessage &M =
          Recvs[static_cast<std::size_t>(G.SharedRecvs[I])];
      const int64_t At = Tail ? 0 : (T - First) * M.Round.PerSlice * E;
      detail::runCopyProgram(M.Round.of(Count, Shape.PerTile, Tail),
                             Slots[I] + At, To, ElementBytes);
    }
    if (G.Self)
      detail::runCopyProgram(SelfRound.of(Count, Shape.PerTile, Tail),
                             CurrentSrc + (Tail ? 0 : T * Shape.SrcSlice * E),
                             To, ElementBytes);
  });
}

} // namespace redist
