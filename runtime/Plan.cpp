//===- Plan.cpp - Building a plan -----------------------------------------===//
//
// A plan is built in this order, identically on every rank: check the
// parameters and compute the schedule without communicating (so that every
// parameter error is raised on every rank before anything collective), with
// Verify compare the parameters across ranks, then duplicate the
// communicator, describe this rank's messages with lib's MessagePattern,
// place them in the schedule's steps, find the peers on this node and map
// their shared-memory rings (SharedMemory.cpp), build the copy programs or
// datatypes of every MPI transfer and the chunks of every handover, and
// allocate the buffers.
//
//===----------------------------------------------------------------------===//
#include "Datatypes.h"
#include "PlanImpl.h"
#include "redist/OverlapSchedulers.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace redist {

const char *execModeName(ExecMode M) {
  switch (M) {
  case ExecMode::Scheduled:
    return "scheduled";
  case ExecMode::Unsynchronized:
    return "unsync";
  case ExecMode::Alltoallv:
    return "alltoallv";
  case ExecMode::Overlapped:
    return "overlapped";
  }
  return "unknown";
}

std::optional<ExecMode> parseExecMode(std::string_view Name) {
  for (ExecMode M : allExecModes())
    if (Name == execModeName(M))
      return M;
  return std::nullopt;
}

std::vector<ExecMode> allExecModes() {
  return {ExecMode::Scheduled, ExecMode::Unsynchronized, ExecMode::Alltoallv,
          ExecMode::Overlapped};
}

const char *overlapOrderName(OverlapOrder O) {
  switch (O) {
  case OverlapOrder::Steps:
    return "steps";
  case OverlapOrder::Overlap:
    return overlapAlgorithmName(OverlapAlgorithm::Overlap);
  case OverlapOrder::OverlapSplit:
    return overlapAlgorithmName(OverlapAlgorithm::OverlapSplit);
  }
  return "unknown";
}

std::optional<OverlapOrder> parseOverlapOrder(std::string_view Name) {
  for (OverlapOrder O : allOverlapOrders())
    if (Name == overlapOrderName(O))
      return O;
  return std::nullopt;
}

std::vector<OverlapOrder> allOverlapOrders() {
  return {OverlapOrder::Steps, OverlapOrder::Overlap,
          OverlapOrder::OverlapSplit};
}

const char *packingName(Packing K) {
  switch (K) {
  case Packing::Auto:
    return "auto";
  case Packing::Runs:
    return "runs";
  case Packing::Datatypes:
    return "datatypes";
  }
  return "unknown";
}

std::optional<Packing> parsePacking(std::string_view Name) {
  for (Packing K : allPackings())
    if (Name == packingName(K))
      return K;
  return std::nullopt;
}

std::vector<Packing> allPackings() {
  return {Packing::Auto, Packing::Runs, Packing::Datatypes};
}

std::optional<int64_t> detail::findGridId(const CommGrid &G, int64_t Src,
                                          int64_t Dst) {
  // G's messages are sorted by source, then target.
  auto It = std::lower_bound(
      G.Messages.begin(), G.Messages.end(), Message{Src, Dst, 0},
      [](const Message &A, const Message &B) {
        return A.Src != B.Src ? A.Src < B.Src : A.Dst < B.Dst;
      });
  if (It == G.Messages.end() || It->Src != Src || It->Dst != Dst)
    return std::nullopt;
  return It - G.Messages.begin();
}

namespace {

/// The id of message Src -> Dst in G, which must have it.
int64_t gridIdOf(const CommGrid &G, int64_t Src, int64_t Dst) {
  if (std::optional<int64_t> Id = detail::findGridId(G, Src, Dst))
    return *Id;
  throw std::logic_error("redist runtime: message " + std::to_string(Src) +
                         " -> " + std::to_string(Dst) + " is not in the grid");
}

/// Elements per MPI transfer.
int64_t transferElements(const PlanOptions &O, std::size_t ElementBytes) {
  return std::max<int64_t>(1, detail::maxTransferBytes(O) /
                                  static_cast<int64_t>(ElementBytes));
}

} // namespace

Plan::Impl::Impl(const Distribution &From, const Distribution &To, int64_t N,
                 std::size_t ElementBytes, MPI_Comm Comm,
                 const PlanOptions &Options, const TranslatedSchedule *Given)
    : Source(From, N), Target(To, N), N(N), ElementBytes(ElementBytes),
      UserComm(Comm), Options(Options), Given(Given) {
  if (Given) {
    checkGiven();
    if (Options.Mode == ExecMode::Overlapped)
      overlapSchedule(); // from the tables' steps when they have no events
    return;
  }
  // The schedule, where the mode follows one without a closed form. An
  // algorithm that applies may still fail on these messages (its arithmetic
  // would overflow): that is a parameter error, raised before communicating.
  if (Options.Mode == ExecMode::Overlapped) {
    if (Options.Overlap == OverlapOrder::Steps)
      stepSchedule(From, To);
    orderEvents(From.str() + " -> " + To.str());
    return;
  }
  if (Options.Mode == ExecMode::Alltoallv ||
      Options.Schedule == Algorithm::Caterpillar)
    return;
  stepSchedule(From, To);
}

void Plan::Impl::orderEvents(const std::string &What) const {
  try {
    overlapSchedule();
  } catch (const InvalidArgument &E) {
    throw InvalidArgument(std::string("overlap order ") +
                          overlapOrderName(Options.Overlap) +
                          " cannot schedule " + What + ": " + E.what());
  }
}

void Plan::Impl::stepSchedule(const Distribution &From,
                              const Distribution &To) const {
  try {
    schedule();
  } catch (const InvalidArgument &E) {
    throw InvalidArgument(
        std::string("schedule algorithm ") + algorithmName(Options.Schedule) +
        " cannot schedule " + From.str() + " -> " + To.str() + ": " + E.what());
  }
}

void Plan::Impl::build() {
  if (Comm == MPI_COMM_NULL) // a matrix plan's agreement may have made it
    MPI_Comm_dup(UserComm, &Comm);
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &CommSize);
  MPI_Type_contiguous(static_cast<int>(ElementBytes), MPI_BYTE, &ElementType);
  MPI_Type_commit(&ElementType);
  buildMessages();
  if (Options.Mode == ExecMode::Alltoallv) {
    buildRounds();
  } else {
    assignSteps();
    findNodePeers();
    buildGroups();
    buildTransfers();
    buildShared();
    buildDirect();
    buildPull();
    buildFused();
  }
  allocate();
  // The cutters were only needed to build programs and datatypes.
  SendCutters.clear();
  SendCutters.shrink_to_fit();
  RecvCutters.clear();
  RecvCutters.shrink_to_fit();
  SelfCutter.reset();
}

namespace {
/// Message bytes (packed plus copied) per fused piece: the source lines the
/// two share stay in L2 between them.
constexpr int64_t FusedPieceBytes = 512 << 10;
} // namespace

void Plan::Impl::buildFused() {
  // A shared first step interleaves the local copy itself (runShared).
  if (!SelfCutter || Groups.empty() || !Groups.front().Self ||
      Groups.front().Sends.empty() || Groups.front().shared())
    return;
  const int S = Groups.front().Sends.front();
  detail::PeerMessage &M = Sends[static_cast<std::size_t>(S)];
  const detail::MessageCutter &PackCut =
      SendCutters[static_cast<std::size_t>(S)];
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t SelfLen = SelfCutter->length(), PackLen = M.Elements;
  if (M.Typed || std::min(SelfLen, PackLen) * E < FusedPieceBytes)
    return;
  // Equal shares of both messages: with block-cyclic layouts both are spread
  // evenly over the source, so piece I of each reads the same lines.
  const int64_t Pieces = (SelfLen + PackLen) * E / FusedPieceBytes;
  for (int64_t I = 0; I < Pieces; ++I) {
    FusedPiece F;
    const int64_t B = PackLen * I / Pieces;
    F.Pack = PackCut.program(detail::CopySide::Pack, M.First + B,
                             M.First + PackLen * (I + 1) / Pieces);
    F.Self = SelfCutter->program(detail::CopySide::Direct, SelfLen * I / Pieces,
                                 SelfLen * (I + 1) / Pieces);
    F.BufferByte = B * E;
    Fused.push_back(std::move(F));
  }
  FusedSend = S;
  // The pieces replace both whole programs.
  M.Program = detail::CopyProgram();
  Self = detail::CopyProgram();
}

Plan::Impl::~Impl() {
  for (std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (detail::PeerMessage &M : *List)
      for (detail::Transfer &T : M.Pieces)
        detail::freeDatatype(T.Type);
  for (detail::AlltoallRound &R : Rounds)
    for (std::vector<MPI_Datatype> *Types : {&R.SendTypes, &R.RecvTypes})
      for (MPI_Datatype &T : *Types)
        if (T != MPI_BYTE)
          detail::freeDatatype(T);
  detail::freeDatatype(ElementType);
  int Finalized = 0;
  MPI_Finalized(&Finalized);
  if (!Finalized && PullComm != MPI_COMM_NULL)
    MPI_Comm_free(&PullComm);
  if (!Finalized && Comm != MPI_COMM_NULL)
    MPI_Comm_free(&Comm);
}

void Plan::Impl::addMessage(const MessagePattern &M, bool Sending,
                            int64_t Step) {
  addMessage(detail::MessageCutter(M), M.Src, M.Dst, M.perSlice(), Sending,
             Step);
}

void Plan::Impl::addMessage(detail::MessageCutter Cut, int64_t SrcRank,
                            int64_t DstRank, int64_t PerSlice, bool Sending,
                            int64_t Step, int64_t GridId) {
  if (Cut.length() == 0)
    return;
  if (SrcRank == DstRank) {
    if (!Sending)
      return; // the sender's copy
    Self = Cut.program(detail::CopySide::Direct, 0, Cut.length());
    SelfCutter = std::move(Cut);
    SelfRound.PerSlice = PerSlice;
    return;
  }
  detail::PeerMessage Msg;
  Msg.Peer = static_cast<int>(Sending ? DstRank : SrcRank);
  Msg.Elements = Cut.length();
  Msg.Step = Step;
  Msg.GridId = GridId;
  Msg.Round.PerSlice = PerSlice;
  (Sending ? Sends : Recvs).push_back(std::move(Msg));
  (Sending ? SendCutters : RecvCutters).push_back(std::move(Cut));
}

void Plan::Impl::buildMessages() {
  if (Array)
    return buildArrayMessages();
  if (Given) {
    // Each of this rank's messages is checked against lib's description
    // of it, which costs what describing it would; one reduction then
    // tells every rank whether some table was wrong.
    std::string Problem;
    for (int64_t I = 0; I < Given->MessageCount; ++I) {
      const TranslatedMessage &T = Given->Messages[I];
      if (T.Src != Rank && T.Dst != Rank)
        continue;
      const MessagePattern M = detail::patternOf(T, Given->Series);
      if (Problem.empty())
        Problem = detail::differingRuns(
            M, describeMessage(Source, Target, T.Src, T.Dst), Source, Target);
      if (T.Src == Rank)
        addMessage(M, /*Sending=*/true, T.Step);
      if (T.Dst == Rank)
        addMessage(M, /*Sending=*/false, T.Step);
    }
    agreeOnGiven(Problem);
    return;
  }
  if (Rank < Source.procs())
    for (const MessagePattern &M : describeRow(Source, Target, Rank))
      addMessage(M, /*Sending=*/true, -1);
  if (Rank < Target.procs())
    for (const MessagePattern &M : describeColumn(Source, Target, Rank))
      addMessage(M, /*Sending=*/false, -1);
}

const CommGrid &Plan::Impl::grid() const {
  if (!Grid)
    Grid = computeGrid(Source, Target);
  return *Grid;
}

const Schedule &Plan::Impl::schedule() const {
  if (!Sched && Array)
    Sched = arraySchedule();
  if (!Sched && Given) {
    // The tables' steps, as ids of the grid's messages.
    const CommGrid &G = grid();
    Schedule S;
    S.Algorithm = Given->Algorithm;
    S.Steps.resize(static_cast<std::size_t>(Given->Steps));
    for (int64_t I = 0; I < Given->MessageCount; ++I) {
      const TranslatedMessage &T = Given->Messages[I];
      S.Steps[static_cast<std::size_t>(T.Step)].push_back(
          gridIdOf(G, T.Src, T.Dst));
    }
    Sched = std::move(S);
  }
  if (!Sched) {
    CostModel Model = Options.Model;
    Model.ElementBytes = static_cast<double>(ElementBytes);
    Sched = makeSchedule(Options.Schedule, Source, Target, grid(), Model);
  }
  return *Sched;
}

const OverlapSchedule &Plan::Impl::overlapSchedule() const {
  if (Overlapped)
    return *Overlapped;
  if (Given && Given->Events) {
    // checkGiven validated the events against the grid.
    Overlapped = givenEvents();
  } else if (Options.Overlap == OverlapOrder::Steps) {
    Overlapped = compactSteps(grid(), schedule());
  } else {
    OverlapOptions Search;
    Search.Effort = Options.OverlapEffort;
    Overlapped = makeOverlapSchedule(Options.Overlap == OverlapOrder::Overlap
                                         ? OverlapAlgorithm::Overlap
                                         : OverlapAlgorithm::OverlapSplit,
                                     grid(), Search);
  }
  return *Overlapped;
}

void Plan::Impl::splitIntoEvents() {
  // Each message becomes one part per event, in the order of its events'
  // starts (the order both of its ranks use), each the next Len elements of
  // the message; parts are then ordered by start.
  const CommGrid &G = grid();
  std::vector<std::vector<const OverlapEvent *>> EventsOf(G.Messages.size());
  for (const OverlapEvent &E : overlapSchedule().Events)
    EventsOf[static_cast<std::size_t>(E.Msg)].push_back(&E);
  auto Split = [&](std::vector<detail::PeerMessage> &Ms,
                   std::vector<detail::MessageCutter> &Cs, bool Sending) {
    std::vector<detail::PeerMessage> Parts;
    std::vector<detail::MessageCutter> PartCutters;
    for (std::size_t I = 0; I < Ms.size(); ++I) {
      const int64_t Id = Ms[I].GridId >= 0 ? Ms[I].GridId
                         : Sending         ? gridIdOf(G, Rank, Ms[I].Peer)
                                           : gridIdOf(G, Ms[I].Peer, Rank);
      int64_t First = 0;
      for (const OverlapEvent *E : EventsOf[static_cast<std::size_t>(Id)]) {
        detail::PeerMessage Part;
        Part.Peer = Ms[I].Peer;
        Part.Step = E->Start;
        Part.First = First;
        Part.Elements = E->Len;
        Part.Round.PerSlice = Ms[I].Round.PerSlice;
        First += E->Len;
        Parts.push_back(std::move(Part));
        PartCutters.push_back(Cs[I]);
      }
    }
    Ms = std::move(Parts);
    Cs = std::move(PartCutters);
  };
  Split(Sends, SendCutters, true);
  Split(Recvs, RecvCutters, false);
}

void Plan::Impl::assignSteps() {
  if (Options.Mode == ExecMode::Overlapped) {
    splitIntoEvents();
  } else if (Given || Array) {
    // buildMessages took the steps from the tables or the array schedule.
  } else if (Options.Schedule == Algorithm::Caterpillar) {
    // Closed form: lib's caterpillar sends p -> (p + k) mod max(P, Q) in
    // step k, so message p -> q is in step (q - p) mod max(P, Q). No grid
    // needed; redist-sweep checks this against lib's schedule.
    const int64_t M = std::max(Source.procs(), Target.procs());
    auto StepOf = [M](int64_t Src, int64_t Dst) {
      return ((Dst - Src) % M + M) % M;
    };
    for (detail::PeerMessage &S : Sends)
      S.Step = StepOf(Rank, S.Peer);
    for (detail::PeerMessage &R : Recvs)
      R.Step = StepOf(R.Peer, Rank);
  } else {
    const CommGrid &G = grid();
    std::vector<int64_t> StepOf = stepOfEachMessage(G, schedule());
    auto StepOfMessage = [&](int64_t Src, int64_t Dst) {
      return StepOf[static_cast<std::size_t>(gridIdOf(G, Src, Dst))];
    };
    for (detail::PeerMessage &S : Sends)
      S.Step = StepOfMessage(Rank, S.Peer);
    for (detail::PeerMessage &R : Recvs)
      R.Step = StepOfMessage(R.Peer, Rank);
  }
  // Order messages (and their cutters) by step.
  auto SortByStep = [](std::vector<detail::PeerMessage> &Ms,
                       std::vector<detail::MessageCutter> &Cs) {
    std::vector<std::size_t> Order(Ms.size());
    for (std::size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::stable_sort(Order.begin(), Order.end(),
                     [&](auto A, auto B) { return Ms[A].Step < Ms[B].Step; });
    std::vector<detail::PeerMessage> SortedMs;
    std::vector<detail::MessageCutter> SortedCs;
    for (std::size_t I : Order) {
      SortedMs.push_back(std::move(Ms[I]));
      SortedCs.push_back(std::move(Cs[I]));
    }
    Ms = std::move(SortedMs);
    Cs = std::move(SortedCs);
  };
  SortByStep(Sends, SendCutters);
  SortByStep(Recvs, RecvCutters);
}

void Plan::Impl::buildGroups() {
  // The Overlapped mode's MPI parts run in one group, in order (runInOrder),
  // after the node phase where there is one.
  const bool Overlapped = Options.Mode == ExecMode::Overlapped;
  const bool Unsync =
      Options.Mode == ExecMode::Unsynchronized || (Overlapped && !NodePhase);
  // Whether a message moves in the first group, without the steps: within
  // the node by a single copy, or handed over in the node phase.
  auto First = [&](const detail::PeerMessage &M) {
    return M.Direct || (NodePhase && M.Shared);
  };
  bool AnyDirect = false;
  for (const std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (const detail::PeerMessage &M : *List)
      AnyDirect = AnyDirect || M.Direct;
  if (Unsync || NodePhase || AnyDirect) {
    // One group: everything (Unsynchronized, and Overlapped without a node
    // phase), or every message moved within the node, with the local copy
    // (the node phase of the Scheduled and Overlapped modes).
    detail::Group G;
    auto Place = [&](const detail::PeerMessage &M, int I,
                     std::vector<int> &Direct, std::vector<int> &Shared,
                     std::vector<int> &Other) {
      if (M.Direct)
        Direct.push_back(I);
      else if (Unsync || First(M))
        (M.Shared ? Shared : Other).push_back(I);
    };
    for (std::size_t I = 0; I < Sends.size(); ++I)
      Place(Sends[I], static_cast<int>(I), G.DirectSends, G.SharedSends,
            G.Sends);
    for (std::size_t I = 0; I < Recvs.size(); ++I)
      Place(Recvs[I], static_cast<int>(I), G.DirectRecvs, G.SharedRecvs,
            G.Recvs);
    G.Self = true;
    G.InOrder = Overlapped && !NodePhase;
    G.InRounds = Shape.Slices > 0 && G.shared();
    Groups.push_back(std::move(G));
    if (Unsync)
      return;
  }
  if (Overlapped) {
    // After the node phase, the parts that go over MPI, in order.
    detail::Group G;
    G.InOrder = true;
    for (std::size_t I = 0; I < Sends.size(); ++I)
      if (!First(Sends[I]))
        G.Sends.push_back(static_cast<int>(I));
    for (std::size_t I = 0; I < Recvs.size(); ++I)
      if (!First(Recvs[I]))
        G.Recvs.push_back(static_cast<int>(I));
    Groups.push_back(std::move(G));
    return;
  }
  // Merge the two step-ordered lists into this rank's active steps. A valid
  // schedule never has a rank send (or receive) twice in one step.
  std::size_t S = 0, R = 0;
  auto Skip = [&] {
    while (S < Sends.size() && First(Sends[S]))
      ++S;
    while (R < Recvs.size() && First(Recvs[R]))
      ++R;
  };
  for (Skip(); S < Sends.size() || R < Recvs.size(); Skip()) {
    int64_t Step = INT64_MAX;
    if (S < Sends.size())
      Step = std::min(Step, Sends[S].Step);
    if (R < Recvs.size())
      Step = std::min(Step, Recvs[R].Step);
    detail::Group G;
    G.Step = Step;
    if (S < Sends.size() && Sends[S].Step == Step) {
      if (Sends[S].Shared)
        G.SharedSends.push_back(static_cast<int>(S++));
      else
        G.Sends.push_back(static_cast<int>(S++));
    }
    if (R < Recvs.size() && Recvs[R].Step == Step) {
      if (Recvs[R].Shared)
        G.SharedRecvs.push_back(static_cast<int>(R++));
      else
        G.Recvs.push_back(static_cast<int>(R++));
    }
    if ((S < Sends.size() && Sends[S].Step == Step) ||
        (R < Recvs.size() && Recvs[R].Step == Step))
      throw std::logic_error("redist runtime: rank " + std::to_string(Rank) +
                             " has two sends or receives in step " +
                             std::to_string(Step));
    Groups.push_back(std::move(G));
  }
  // The local copy overlaps the first step's transfers.
  if (Groups.empty())
    Groups.emplace_back();
  Groups.front().Self = true;
}

void Plan::Impl::buildTransfers() {
  const int64_t TransferElems = transferElements(Options, ElementBytes);
  const int64_t E = static_cast<int64_t>(ElementBytes);
  // The Scheduled mode reuses one buffer per direction for every step, the
  // Overlapped mode for every part (one in flight per direction); the
  // Unsynchronized mode gives every message its own place.
  const bool OneBuffer = Options.Mode == ExecMode::Scheduled ||
                         Options.Mode == ExecMode::Overlapped;
  auto Build = [&](std::vector<detail::PeerMessage> &Ms,
                   const std::vector<detail::MessageCutter> &Cs, bool Sending) {
    const detail::CopySide Side =
        Sending ? detail::CopySide::Pack : detail::CopySide::Unpack;
    int64_t Offset = 0;
    for (std::size_t I = 0; I < Ms.size(); ++I) {
      detail::PeerMessage &M = Ms[I];
      if (M.Shared || M.Direct)
        continue; // buildShared's, chooseDirect's
      if (OneBuffer)
        Offset = 0;
      M.Program = Cs[I].program(Side, M.First, M.First + M.Elements);
      // Both sides' transfers are plain bytes, so each side chooses alone.
      M.Typed = Options.Pack == Packing::Datatypes ||
                (Options.Pack == Packing::Auto &&
                 preferDatatype(M.Program.Elements,
                                static_cast<int64_t>(ElementBytes),
                                detail::runsOf(M.Program, Sending)));
      detail::forEachPiece(
          M.Elements, TransferElems, [&](int64_t B, int64_t End) {
            detail::Transfer T;
            T.ByteOffset = Offset + B * E;
            T.Bytes = static_cast<int>((End - B) * E);
            if (M.Typed)
              T.Type = detail::buildDatatype(
                  Cs[I].program(Side, M.First + B, M.First + End), Sending,
                  ElementType, ElementBytes);
            M.Pieces.push_back(T);
          });
      M.BufferOffset = Offset;
      if (M.Typed)
        M.Program = detail::CopyProgram();
      else
        Offset += M.Elements * E;
    }
  };
  Build(Sends, SendCutters, true);
  Build(Recvs, RecvCutters, false);
  for (detail::Group &G : Groups) {
    for (int S : G.Sends)
      G.SendPieces += Sends[static_cast<std::size_t>(S)].Pieces.size();
    for (int R : G.Recvs)
      for (std::size_t P = 0;
           P < Recvs[static_cast<std::size_t>(R)].Pieces.size(); ++P)
        G.RecvPieces.emplace_back(R, static_cast<int>(P));
  }
  TransfersLeft.resize(Recvs.size());
}

void Plan::Impl::buildRounds() {
  // Each round moves at most PerPeer elements of every message, so that the
  // byte counts and displacements of one call stay below the transfer limit.
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t PerPeer =
      std::max<int64_t>(1, detail::maxTransferBytes(Options) / (E * CommSize));
  int64_t LocalMax = 0;
  for (const detail::PeerMessage &M : Sends)
    LocalMax = std::max(LocalMax, M.Elements);
  for (const detail::PeerMessage &M : Recvs)
    LocalMax = std::max(LocalMax, M.Elements);
  int64_t LocalRounds = (LocalMax + PerPeer - 1) / PerPeer, NumRounds = 0;
  MPI_Allreduce(&LocalRounds, &NumRounds, 1, MPI_INT64_T, MPI_MAX, Comm);
  NumRounds = std::max<int64_t>(NumRounds, 1);

  // Auto means Runs here: every rank must make the same collective call.
  const bool Runs = Options.Pack != Packing::Datatypes;
  const std::size_t Size = static_cast<std::size_t>(CommSize);
  for (int64_t Rd = 0; Rd < NumRounds; ++Rd) {
    detail::AlltoallRound R;
    R.SendCounts.assign(Size, 0);
    R.SendDispls.assign(Size, 0);
    R.RecvCounts.assign(Size, 0);
    R.RecvDispls.assign(Size, 0);
    if (Runs) {
      R.SendPrograms.resize(Size);
      R.RecvPrograms.resize(Size);
    } else {
      R.SendTypes.assign(Size, MPI_BYTE);
      R.RecvTypes.assign(Size, MPI_BYTE);
    }
    auto Fill = [&](const std::vector<detail::PeerMessage> &Ms,
                    const std::vector<detail::MessageCutter> &Cs,
                    bool Sending) {
      std::vector<int> &Counts = Sending ? R.SendCounts : R.RecvCounts;
      std::vector<int> &Displs = Sending ? R.SendDispls : R.RecvDispls;
      int64_t Offset = 0;
      for (std::size_t I = 0; I < Ms.size(); ++I) {
        int64_t B = Rd * PerPeer;
        int64_t End = std::min(Ms[I].Elements, B + PerPeer);
        if (B >= End)
          continue;
        std::size_t Peer = static_cast<std::size_t>(Ms[I].Peer);
        detail::CopyProgram Piece = Cs[I].program(
            Sending ? detail::CopySide::Pack : detail::CopySide::Unpack, B,
            End);
        if (Runs) {
          Counts[Peer] = static_cast<int>((End - B) * E);
          Displs[Peer] = static_cast<int>(Offset);
          Offset += (End - B) * E;
          (Sending ? R.SendPrograms : R.RecvPrograms)[Peer] = std::move(Piece);
        } else {
          Counts[Peer] = 1;
          (Sending ? R.SendTypes : R.RecvTypes)[Peer] =
              detail::buildDatatype(Piece, Sending, ElementType, ElementBytes);
        }
      }
    };
    Fill(Sends, SendCutters, true);
    Fill(Recvs, RecvCutters, false);
    Rounds.push_back(std::move(R));
  }
}

void Plan::Impl::allocate() {
  std::size_t MaxRequests = 1, MaxRecvRequests = 1;
  // Bytes of buffer a message needs: none when it moves with a datatype.
  auto Bytes = [&](const detail::PeerMessage &M) {
    return M.Typed || M.Shared || M.Direct
               ? 0
               : static_cast<std::size_t>(M.Elements) * ElementBytes;
  };
  if (Options.Mode == ExecMode::Alltoallv) {
    if (Options.Pack != Packing::Datatypes)
      for (const detail::AlltoallRound &R : Rounds) {
        std::size_t S = 0, Rv = 0;
        for (int C : R.SendCounts)
          S += static_cast<std::size_t>(C);
        for (int C : R.RecvCounts)
          Rv += static_cast<std::size_t>(C);
        SendBytes = std::max(SendBytes, S);
        RecvBytes = std::max(RecvBytes, Rv);
      }
  } else if (Options.Mode == ExecMode::Overlapped) {
    // One part in flight per direction: the receive pieces' requests first,
    // then the send's (runInOrder).
    std::size_t SendPieces = 0, RecvPieces = 0;
    for (const detail::PeerMessage &M : Sends) {
      SendBytes = std::max(SendBytes, Bytes(M));
      SendPieces = std::max(SendPieces, M.Pieces.size());
    }
    for (const detail::PeerMessage &M : Recvs) {
      RecvBytes = std::max(RecvBytes, Bytes(M));
      RecvPieces = std::max(RecvPieces, M.Pieces.size());
    }
    MaxRequests = std::max(MaxRequests, SendPieces + RecvPieces);
  } else {
    for (const detail::Group &G : Groups) {
      std::size_t GroupSend = 0, GroupRecv = 0;
      for (int S : G.Sends)
        GroupSend += Bytes(Sends[static_cast<std::size_t>(S)]);
      for (int R : G.Recvs)
        GroupRecv += Bytes(Recvs[static_cast<std::size_t>(R)]);
      SendBytes = std::max(SendBytes, GroupSend);
      RecvBytes = std::max(RecvBytes, GroupRecv);
      MaxRequests = std::max(MaxRequests, G.SendPieces + G.RecvPieces.size());
      MaxRecvRequests = std::max(MaxRecvRequests, G.RecvPieces.size());
    }
  }
  Requests.resize(MaxRequests);
  Completed.resize(MaxRecvRequests);
  // A Scheduled step sends one message, and the Overlapped mode's MPI parts
  // follow its node phase: the shared ring (sized for them) doubles as the
  // buffer of MPI sends.
  SendBufferInRing = (Options.Mode == ExecMode::Scheduled || NodePhase) &&
                     ring() && SendBytes <= ringBytes();
  if (SendBufferInRing)
    SendBuffer.borrow(ring());
  else
    SendBuffer.allocate(SendBytes);
  RecvBuffer.allocate(RecvBytes);
}

void detail::MessageBuffer::allocate(std::size_t Bytes) {
  if (Bytes == 0)
    return;
  constexpr std::size_t HugePage = 2 << 20;
  if (Bytes < HugePage) {
    Data.reset(static_cast<char *>(std::malloc(Bytes)));
  } else {
    std::size_t Rounded = (Bytes + HugePage - 1) / HugePage * HugePage;
    Data.reset(static_cast<char *>(std::aligned_alloc(HugePage, Rounded)));
#ifdef MADV_HUGEPAGE
    if (Data)
      madvise(Data.get(), Rounded, MADV_HUGEPAGE);
#endif
  }
  if (!Data)
    throw std::bad_alloc();
  std::memset(Data.get(), 0xA5, Bytes);
}

void detail::MessageBuffer::borrow(char *Memory) {
  Data = std::unique_ptr<char, Free>(Memory, Free(false));
}

void detail::MessageBuffer::Free::operator()(char *P) const {
  if (Owned)
    std::free(P);
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

detail::PreparedPlan
detail::PlanBuilder::prepare(const Distribution &From, const Distribution &To,
                             int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                             const PlanOptions &Options,
                             const TranslatedSchedule *Given) {
  // Everything that can fail on the parameters happens here, on each rank
  // alone; every rank then reaches the agreement before anyone throws.
  PreparedPlan P;
  P.Problem = findInvalidParameter(From, To, N, ElementBytes, Comm, Options);
  if (P.Problem)
    return P;
  try {
    P.Built = std::make_unique<Plan::Impl>(From, To, N, ElementBytes, Comm,
                                           Options, Given);
  } catch (const InvalidArgument &E) {
    P.Problem = E.what();
  } catch (...) {
    P.Failure = std::current_exception();
  }
  return P;
}

std::unique_ptr<Plan::Impl>
detail::PlanBuilder::finishImpl(PreparedPlan Prepared) {
  if (Prepared.Problem)
    throw InvalidArgument(*Prepared.Problem);
  if (Prepared.Failure)
    std::rethrow_exception(Prepared.Failure);
  // Collective from here on. Built owns what it has acquired so far, so a
  // failure here (out of memory) frees the duplicate and the datatypes.
  Prepared.Built->build();
  return std::move(Prepared.Built);
}

std::unique_ptr<Plan> detail::PlanBuilder::finish(PreparedPlan Prepared) {
  return std::unique_ptr<Plan>(new Plan(finishImpl(std::move(Prepared))));
}

std::unique_ptr<Plan::Impl>
detail::PlanBuilder::impl(const Distribution &From, const Distribution &To,
                          int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                          const PlanOptions &Options, bool Verify) {
  PreparedPlan P = prepare(From, To, N, ElementBytes, Comm, Options);
  if (Comm != MPI_COMM_NULL)
    agreeOnParameters(P.Problem, Verify, From, To, N, ElementBytes, Comm,
                      Options);
  return finishImpl(std::move(P));
}

Plan::Plan(const Distribution &From, const Distribution &To, int64_t N,
           std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options)
    : P(detail::PlanBuilder::impl(From, To, N, ElementBytes, Comm, Options,
                                  Options.Verify)) {}

Plan::Plan(std::unique_ptr<Impl> Built) : P(std::move(Built)) {}

Plan::~Plan() = default;
Plan::Plan(Plan &&) noexcept = default;
Plan &Plan::operator=(Plan &&) noexcept = default;

void Plan::checkBuffers(const void *Src, const void *Dst) const {
  // Checked on this rank alone: a collective on every call would cost small
  // redistributions more than the check is worth. The local sizes are looked
  // up only for a null pointer: this runs on every step call. The other
  // ranks may be moving data already and cannot be told, so on more than
  // one rank the job ends (thrown there, the others would wait forever).
  auto Check = [&](const char *Role, int64_t Elements) {
    if (Elements <= 0)
      return;
    const std::string Problem = std::string("execute: the ") + Role +
                                " pointer is null, but this " + "rank's " +
                                Role + " part has " + std::to_string(Elements) +
                                (Elements == 1 ? " element" : " elements");
    if (P->CommSize > 1)
      detail::abortAlone(nullptr, Problem, P->UserComm,
                         "the other ranks may be moving data already");
    throw InvalidArgument(Problem);
  };
  if (!Src)
    Check("source", sourceLocalSize());
  if (!Dst)
    Check("target", targetLocalSize());
}

void Plan::execute(const void *Src, void *Dst) const {
  checkBuffers(Src, Dst);
  P->execute(static_cast<const char *>(Src), static_cast<char *>(Dst));
}

void Plan::executeStep(const void *Src, void *Dst, int64_t K) const {
  checkBuffers(Src, Dst);
  P->executeStep(static_cast<const char *>(Src), static_cast<char *>(Dst), K);
}

int64_t Plan::sourceLocalSize() const {
  if (P->Array)
    return P->Array->SourceStorage;
  return P->Rank < P->Source.procs() ? P->Source.localSize(P->Rank) : 0;
}

int64_t Plan::targetLocalSize() const {
  if (P->Array)
    return P->Array->TargetStorage;
  return P->Rank < P->Target.procs() ? P->Target.localSize(P->Rank) : 0;
}

const Layout &Plan::source() const { return P->Source; }
const Layout &Plan::target() const { return P->Target; }
const Schedule &Plan::schedule() const { return P->schedule(); }
const OverlapSchedule &Plan::overlapSchedule() const {
  return P->overlapSchedule();
}
ScheduleStats Plan::stats() const {
  return measureSchedule(P->grid(), P->schedule());
}
const PlanOptions &Plan::options() const { return P->Options; }
std::size_t Plan::elementBytes() const { return P->ElementBytes; }
MPI_Comm Plan::communicator() const { return P->UserComm; }
int Plan::rank() const { return P->Rank; }
std::size_t Plan::bufferBytes() const {
  return (P->SendBufferInRing ? 0 : P->SendBytes) + P->RecvBytes +
         P->ringBytes();
}
int64_t Plan::transfers() const {
  if (P->Options.Mode == ExecMode::Alltoallv)
    return static_cast<int64_t>(P->Rounds.size());
  int64_t Count = 0;
  for (const std::vector<detail::PeerMessage> *List : {&P->Sends, &P->Recvs})
    for (const detail::PeerMessage &M : *List)
      Count += static_cast<int64_t>(M.Pieces.size());
  return Count;
}
namespace {
/// The messages of Impl, sent and received, with Flag set.
int64_t countMessages(const Plan::Impl &Impl, bool detail::PeerMessage::*Flag) {
  int64_t Count = 0;
  for (const std::vector<detail::PeerMessage> *List :
       {&Impl.Sends, &Impl.Recvs})
    for (const detail::PeerMessage &M : *List)
      Count += M.*Flag;
  return Count;
}
} // namespace
int64_t Plan::sharedMessages() const {
  return countMessages(*P, &detail::PeerMessage::Shared);
}
int64_t Plan::directMessages() const {
  return countMessages(*P, &detail::PeerMessage::Direct);
}
int64_t Plan::nodeReads() const { return P->Pulls; }
int64_t Plan::nodeWrites() const { return P->Shares; }
int64_t Plan::handoverRounds() const {
  const bool InRounds = !P->Groups.empty() && P->Groups.front().InRounds;
  return InRounds ? static_cast<int64_t>(P->Shape.rounds()) : 0;
}
int64_t Plan::activeSteps() const {
  int64_t Count = 0;
  for (const detail::Group &G : P->Groups)
    Count += !G.Sends.empty() || !G.Recvs.empty() || G.shared() || G.direct();
  return Count;
}

} // namespace redist
