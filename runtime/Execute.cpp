//===- Execute.cpp - Moving the data --------------------------------------===//
//
// The Scheduled, Unsynchronized and Overlapped modes run groups of
// transfers: one group per step of the schedule (at most one send and one
// receive, matched pairwise, so ranks progress without global
// synchronisation, walker-otto-1996 §2.2.3), after a first group of the
// messages within the node where they move at once (SharedMemory.cpp), or a
// single group holding every message (walker-otto-1996's unsynchronized version
// 2). A group posts its receives, packs and sends its messages (testing for
// arrivals in between), copies this rank's own message directly (in the first
// group) while the transfers are in flight (or, when both are large,
// interleaved with the packing of the first send, so that the source is read
// once), then unpacks each received message as soon as it has arrived. One
// transfer per message (unless it exceeds MaxTransferBytes) keeps the ranks'
// synchronisation points few: measured, this beats cutting messages into
// cache-sized pieces. The Alltoallv mode packs everything, runs one
// MPI_Ialltoallv (MPI_Ialltoallw with datatypes) per round, and copies locally
// meanwhile. The Overlapped mode's group of MPI parts (after its node
// phase, where it has one) runs them in the order of their events' starts
// instead, one send and one receive in flight (runInOrder), with the same
// packing, posting and unpacking per message.
// Nothing here allocates. A group's messages between ranks of one node skip
// MPI's copy: SharedMemory.cpp hands them over, meanwhile the group's MPI
// transfers progress.
//
// Tags are the piece number of a message (mod 32768, MPI's guaranteed tag
// range): messages between one pair of ranks never overtake each other.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"

#include <algorithm>

namespace redist {
namespace {

int tagOf(std::size_t Piece) { return static_cast<int>(Piece % 32768); }

} // namespace

void Plan::Impl::copySelf(const char *Src, char *Dst) const {
  if (!Self.empty() && !SelfCopied)
    detail::runCopyProgram(Self, Src, Dst, ElementBytes);
}

void Plan::Impl::execute(const char *Src, char *Dst) const {
  if (Options.Mode == ExecMode::Alltoallv)
    return executeAlltoall(Src, Dst);
  pullBeforeSteps(Src, Dst);
  for (const detail::Group &G : Groups)
    runGroup(G, Src, Dst);
}

void Plan::Impl::executeStep(const char *Src, char *Dst, int64_t K) const {
  if (Options.Mode == ExecMode::Alltoallv) {
    if (K == 0)
      executeAlltoall(Src, Dst);
    return;
  }
  if (K == 0)
    pullBeforeSteps(Src, Dst);
  // Groups are in step order.
  auto It = std::lower_bound(
      Groups.begin(), Groups.end(), K,
      [](const detail::Group &G, int64_t Step) { return G.Step < Step; });
  for (; It != Groups.end() && It->Step == K; ++It)
    runGroup(*It, Src, Dst);
}

void Plan::Impl::postRecv(int R, char *Dst, MPI_Request *Reqs) const {
  const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(R)];
  for (std::size_t I = 0; I < M.Pieces.size(); ++I) {
    const detail::Transfer &T = M.Pieces[I];
    if (!M.Typed)
      MPI_Irecv(RecvBuffer.get() + T.ByteOffset, T.Bytes, MPI_BYTE, M.Peer,
                tagOf(I), Comm, &Reqs[I]);
    else
      MPI_Irecv(Dst, 1, T.Type, M.Peer, tagOf(I), Comm, &Reqs[I]);
  }
}

int Plan::Impl::postSend(int S, bool WithSelf, const char *Src, char *Dst,
                         MPI_Request *Reqs) const {
  const detail::PeerMessage &M = Sends[static_cast<std::size_t>(S)];
  if (WithSelf && S == FusedSend) {
    char *Buf = SendBuffer.get() + M.BufferOffset;
    for (const FusedPiece &F : Fused) {
      detail::runCopyProgram(F.Pack, Src, Buf + F.BufferByte, ElementBytes);
      detail::runCopyProgram(F.Self, Src, Dst, ElementBytes);
    }
  } else if (!M.Typed) {
    detail::runCopyProgram(M.Program, Src, SendBuffer.get() + M.BufferOffset,
                           ElementBytes);
  }
  for (std::size_t I = 0; I < M.Pieces.size(); ++I) {
    const detail::Transfer &T = M.Pieces[I];
    if (!M.Typed)
      MPI_Isend(SendBuffer.get() + T.ByteOffset, T.Bytes, MPI_BYTE, M.Peer,
                tagOf(I), Comm, &Reqs[I]);
    else
      MPI_Isend(Src, 1, T.Type, M.Peer, tagOf(I), Comm, &Reqs[I]);
  }
  return static_cast<int>(M.Pieces.size());
}

void Plan::Impl::unpack(int R, char *Dst) const {
  const detail::PeerMessage &M = Recvs[static_cast<std::size_t>(R)];
  if (!M.Typed)
    detail::runCopyProgram(M.Program, RecvBuffer.get() + M.BufferOffset, Dst,
                           ElementBytes);
}

void Plan::Impl::runGroup(const detail::Group &G, const char *Src,
                          char *Dst) const {
  if (G.InOrder)
    return runInOrder(G, Src, Dst);
  startDirect(G, Src);
  MPI_Request *Reqs = Requests.data();
  const int NumRecv = static_cast<int>(G.RecvPieces.size());
  // G.RecvPieces lists each message's pieces together, in G.Recvs' order.
  int Posted = 0;
  for (int R : G.Recvs) {
    TransfersLeft[static_cast<std::size_t>(R)] =
        static_cast<int>(Recvs[static_cast<std::size_t>(R)].Pieces.size());
    postRecv(R, Dst, Reqs + Posted);
    Posted += TransfersLeft[static_cast<std::size_t>(R)];
  }

  // Unpacks each received message once all its transfers have arrived
  // (waiting for all of them when Block).
  int Pending = NumRecv;
  auto Drain = [&](bool Block) {
    while (Pending > 0) {
      int Count = 0;
      if (Block)
        MPI_Waitsome(NumRecv, Reqs, &Count, Completed.data(),
                     MPI_STATUSES_IGNORE);
      else
        MPI_Testsome(NumRecv, Reqs, &Count, Completed.data(),
                     MPI_STATUSES_IGNORE);
      if (Count == MPI_UNDEFINED || Count == 0)
        return;
      Pending -= Count;
      for (int C = 0; C < Count; ++C) {
        const int Msg =
            G.RecvPieces[static_cast<std::size_t>(Completed[C])].first;
        if (--TransfersLeft[static_cast<std::size_t>(Msg)] == 0)
          unpack(Msg, Dst);
      }
      if (!Block)
        return;
    }
  };

  // Pack and send every message of the group, then copy locally while the
  // transfers are in flight.
  int NumRequests = NumRecv;
  for (int S : G.Sends) {
    NumRequests += postSend(S, G.Self, Src, Dst, Reqs + NumRequests);
    Drain(false);
  }
  if (G.shared())
    runShared(G, Src, Dst); // and the local copy, when G.Self
  if (G.Self)
    copySelf(Src, Dst); // empty when fused with a send or run in chunks
  Drain(true);
  MPI_Waitall(NumRequests - NumRecv, Reqs + NumRecv, MPI_STATUSES_IGNORE);
  finishDirect(G, Dst);
}

void Plan::Impl::runInOrder(const detail::Group &G, const char *Src,
                            char *Dst) const {
  // Requests: the current receive's pieces from 0, the current send's from
  // RecvSlots. A rank starts its next part as soon as the one before it in
  // the same direction completes. This cannot deadlock: the part of least
  // start not yet complete is the current one on both of its ranks (each
  // rank's parts in one direction have distinct starts, being one port's
  // events), so both have posted it.
  startDirect(G, Src);
  MPI_Request *Reqs = Requests.data();
  std::size_t RecvSlots = 0;
  for (int R : G.Recvs)
    RecvSlots =
        std::max(RecvSlots, Recvs[static_cast<std::size_t>(R)].Pieces.size());
  const int Slots =
      static_cast<int>(std::min(Requests.size(), RecvSlots + G.SendPieces));
  std::fill(Reqs, Reqs + Slots, MPI_REQUEST_NULL);
  std::size_t NextRecv = 0, NextSend = 0;
  int RecvLeft = 0, SendLeft = 0;
  auto StartRecv = [&] {
    if (NextRecv == G.Recvs.size())
      return;
    const int R = G.Recvs[NextRecv];
    postRecv(R, Dst, Reqs);
    RecvLeft =
        static_cast<int>(Recvs[static_cast<std::size_t>(R)].Pieces.size());
  };
  auto StartSend = [&] {
    if (NextSend == G.Sends.size())
      return;
    SendLeft = postSend(G.Sends[NextSend], NextSend == 0 && G.Self, Src, Dst,
                        Reqs + RecvSlots);
  };
  StartRecv();
  StartSend();
  if (G.Self)
    copySelf(Src, Dst); // empty when fused with the first send
  for (;;) {
    int Index = MPI_UNDEFINED;
    MPI_Waitany(Slots, Reqs, &Index, MPI_STATUS_IGNORE);
    if (Index == MPI_UNDEFINED)
      break; // nothing in flight: all parts have moved
    if (static_cast<std::size_t>(Index) < RecvSlots) {
      if (--RecvLeft == 0) {
        unpack(G.Recvs[NextRecv++], Dst);
        StartRecv();
      }
    } else if (--SendLeft == 0) {
      ++NextSend;
      StartSend();
    }
  }
  finishDirect(G, Dst);
}

void Plan::Impl::executeAlltoall(const char *Src, char *Dst) const {
  const bool Runs = Options.Pack != Packing::Datatypes;
  bool SelfDone = false;
  for (const detail::AlltoallRound &R : Rounds) {
    if (Runs) {
      for (std::size_t Peer = 0; Peer < R.SendPrograms.size(); ++Peer)
        if (!R.SendPrograms[Peer].empty())
          detail::runCopyProgram(R.SendPrograms[Peer], Src,
                                 SendBuffer.get() + R.SendDispls[Peer],
                                 ElementBytes);
      MPI_Ialltoallv(SendBuffer.get(), R.SendCounts.data(), R.SendDispls.data(),
                     MPI_BYTE, RecvBuffer.get(), R.RecvCounts.data(),
                     R.RecvDispls.data(), MPI_BYTE, Comm, &Requests[0]);
    } else {
      MPI_Ialltoallw(Src, R.SendCounts.data(), R.SendDispls.data(),
                     R.SendTypes.data(), Dst, R.RecvCounts.data(),
                     R.RecvDispls.data(), R.RecvTypes.data(), Comm,
                     &Requests[0]);
    }
    if (!SelfDone) {
      copySelf(Src, Dst);
      SelfDone = true;
    }
    MPI_Wait(&Requests[0], MPI_STATUS_IGNORE);
    if (Runs)
      for (std::size_t Peer = 0; Peer < R.RecvPrograms.size(); ++Peer)
        if (!R.RecvPrograms[Peer].empty())
          detail::runCopyProgram(R.RecvPrograms[Peer],
                                 RecvBuffer.get() + R.RecvDispls[Peer], Dst,
                                 ElementBytes);
  }
  if (!SelfDone)
    copySelf(Src, Dst);
}

} // namespace redist
