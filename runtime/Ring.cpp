//===- Ring.cpp - rebalanceRing: plan on every rank, move in pieces -------===//

#include "redist/runtime/Ring.h"

#include "redist/Error.h"
#include "redist/RingSimulator.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <utility>

namespace redist {

namespace {

constexpr int ForwardTag = 0, BackwardTag = 1;

std::int64_t wrap(std::int64_t I, std::int64_t N) { return ((I % N) + N) % N; }

/// Items of the probe that times a link: 256 KiB or one item.
std::size_t probeItems(std::size_t ElementBytes) {
  return std::max<std::size_t>(1, (std::size_t(256) << 10) / ElementBytes);
}

// Per communicator, freed with it: a duplicate that keeps the library's
// messages apart from the caller's, created on first use (collectively,
// like every call that uses it), and the measured costs per element size
// and direction set.
using CostCache = std::map<std::pair<std::size_t, bool>,
                           std::pair<std::vector<double>, std::vector<double>>>;
struct RingState {
  MPI_Comm Private = MPI_COMM_NULL;
  CostCache Costs;
};
int StateKeyval = MPI_KEYVAL_INVALID;

int freeRingState(MPI_Comm, int, void *Value, void *) {
  auto *State = static_cast<RingState *>(Value);
  if (State->Private != MPI_COMM_NULL)
    MPI_Comm_free(&State->Private);
  delete State;
  return MPI_SUCCESS;
}

RingState &ringState(MPI_Comm Comm) {
  if (StateKeyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, freeRingState, &StateKeyval,
                           nullptr);
  void *Value = nullptr;
  int Found = 0;
  MPI_Comm_get_attr(Comm, StateKeyval, &Value, &Found);
  if (!Found) {
    auto *State = new RingState;
    MPI_Comm_dup(Comm, &State->Private);
    Value = State;
    MPI_Comm_set_attr(Comm, StateKeyval, Value);
  }
  return *static_cast<RingState *>(Value);
}

/// The link i -> i + 1 and, on a bidirectional ring, i + 1 -> i, timed by a
/// ping-pong between ranks i and i + 1: the sender of a probe of Items items
/// waits for a one-byte reply, so each direction is timed alone. Ranks
/// pair up in at most three rounds (even links, odd links, and the link n-1
/// -> 0 on an odd ring) so that no rank is in two ping-pongs at once, and
/// every pair of a round runs at the same time, as in a rebalancing. The
/// least of a few repeats, after a warm-up, is the link's seconds per item:
/// this rank's outgoing links, {to Rank + 1, to Rank - 1}.
std::array<double, 2> pingPongLinks(MPI_Comm Comm, int Rank, int Size,
                                    bool Bidirectional,
                                    std::size_t ElementBytes) {
  const std::size_t Items = probeItems(ElementBytes);
  const int Bytes = static_cast<int>(
      std::min<std::size_t>(Items * ElementBytes, INT_MAX / 2));
  std::vector<char> Probe(Bytes, 1);
  char Reply = 0;
  constexpr int ProbeTag = 2, ReplyTag = 3, Repeats = 3;
  // Rank Pinger times its probe to Ponger; Ponger answers.
  auto PingPong = [&](int Pinger, int Ponger) {
    double Best = HUGE_VAL;
    for (int R = 0; R <= Repeats; ++R) { // round 0 warms up
      if (Rank == Pinger) {
        const double Start = MPI_Wtime();
        MPI_Send(Probe.data(), Bytes, MPI_BYTE, Ponger, ProbeTag, Comm);
        MPI_Recv(&Reply, 1, MPI_BYTE, Ponger, ReplyTag, Comm,
                 MPI_STATUS_IGNORE);
        if (R > 0)
          Best = std::min(Best, MPI_Wtime() - Start);
      } else {
        MPI_Recv(Probe.data(), Bytes, MPI_BYTE, Pinger, ProbeTag, Comm,
                 MPI_STATUS_IGNORE);
        MPI_Send(&Reply, 1, MPI_BYTE, Pinger, ReplyTag, Comm);
      }
    }
    return Best / static_cast<double>(Items);
  };
  std::array<double, 2> Mine = {1, 1}; // a ring of one rank has no links
  const int Rounds = Size % 2 == 0 ? 2 : 3;
  auto RoundOf = [&](int Link) {
    return Size % 2 == 1 && Link == Size - 1 ? 2 : Link % 2;
  };
  MPI_Barrier(Comm);
  for (int Round = 0; Round < Rounds && Size > 1; ++Round) {
    // This rank is the left end of link Rank, the right end of Rank - 1.
    const int Left = static_cast<int>(wrap(Rank - 1, Size));
    const int Right = static_cast<int>(wrap(Rank + 1, Size));
    if (RoundOf(Rank) == Round) {
      Mine[0] = PingPong(Rank, Right);
      if (Bidirectional)
        PingPong(Right, Rank);
    } else if (RoundOf(Left) == Round) {
      PingPong(Left, Rank);
      if (Bidirectional)
        Mine[1] = PingPong(Rank, Left);
    }
  }
  return Mine;
}

/// FNV-1a over the bytes of the options every rank must agree on.
std::uint64_t optionsHash(const RingOptions &O) {
  std::uint64_t H = 1469598103934665603ull;
  auto Mix = [&](const void *Data, std::size_t Bytes) {
    for (std::size_t I = 0; I < Bytes; ++I) {
      H ^= static_cast<const unsigned char *>(Data)[I];
      H *= 1099511628211ull;
    }
  };
  Mix(&O.Bidirectional, sizeof O.Bidirectional);
  Mix(&O.Algorithm, sizeof O.Algorithm);
  for (const std::vector<double> *Costs : {&O.CostFwd, &O.CostBwd}) {
    const std::size_t Count = Costs->size();
    Mix(&Count, sizeof Count);
    Mix(Costs->data(), Count * sizeof(double));
  }
  Mix(&O.MaxPieceItems, sizeof O.MaxPieceItems);
  return H;
}

/// One value per rank from one-or-n given values.
std::vector<double> perRank(const std::vector<double> &Given,
                            std::int64_t Size) {
  return Given.size() == 1 ? std::vector<double>(Size, Given.front()) : Given;
}

/// A cost as people read it: 0.25, -1, 1e-09, nan.
std::string numberText(double Value) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%g", Value);
  return Text;
}

/// The checks that need no other rank; every rank given the same options
/// throws the same error.
void checkOptions(const RingOptions &O, std::int64_t Size) {
  const std::vector<RingAlgorithm> Known = allRingAlgorithms();
  if (std::find(Known.begin(), Known.end(), O.Algorithm) == Known.end())
    throw InvalidArgument("rebalanceRing: unknown algorithm");
  if (O.Algorithm == RingAlgorithm::Exhaustive)
    throw InvalidArgument("rebalanceRing: the exhaustive search is for small "
                          "reference instances, not for moving items");
  if (O.MaxPieceItems < 0)
    throw InvalidArgument(
        "rebalanceRing: MaxPieceItems = " + std::to_string(O.MaxPieceItems) +
        " must be non-negative");
  if (!O.CostBwd.empty() && !O.Bidirectional)
    throw InvalidArgument("rebalanceRing: CostBwd given for a unidirectional "
                          "ring");
  if (!O.CostBwd.empty() && O.CostFwd.empty())
    throw InvalidArgument("rebalanceRing: CostBwd given without CostFwd");
  for (const auto &[Costs, Name] : {std::make_pair(&O.CostFwd, "CostFwd"),
                                    std::make_pair(&O.CostBwd, "CostBwd")}) {
    const std::int64_t Count = static_cast<std::int64_t>(Costs->size());
    if (Count > 1 && Count != Size)
      throw InvalidArgument("rebalanceRing: " + std::string(Name) + " has " +
                            std::to_string(Count) + " costs for " +
                            std::to_string(Size) +
                            " ranks; give one per rank, or one for all");
    for (std::int64_t I = 0; I < Count; ++I)
      if (!((*Costs)[I] > 0) || !std::isfinite((*Costs)[I]))
        throw InvalidArgument("rebalanceRing: " + std::string(Name) + "[" +
                              std::to_string(I) +
                              "] = " + numberText((*Costs)[I]) +
                              " must be a positive finite number");
  }
  // Whether the algorithm applies to these links, known before any load:
  // try it on the ring holding nothing. Measured costs count as equal (a
  // homogeneous algorithm plans with their mean).
  RingProblem Empty;
  Empty.Loads.assign(Size, 0);
  Empty.Targets.assign(Size, 0);
  Empty.Bidirectional = O.Bidirectional;
  Empty.CostFwd = O.CostFwd.empty() ? std::vector<double>(Size, 1.0)
                                    : perRank(O.CostFwd, Size);
  if (!O.CostBwd.empty())
    Empty.CostBwd = perRank(O.CostBwd, Size);
  if (std::string Why = ringAlgorithmRejects(O.Algorithm, Empty); !Why.empty())
    throw InvalidArgument("rebalanceRing: " + Why);
}

} // namespace

void measuredRingCosts(MPI_Comm Comm, std::size_t ElementBytes,
                       bool Bidirectional, std::vector<double> &CostFwd,
                       std::vector<double> &CostBwd) {
  if (ElementBytes == 0)
    throw InvalidArgument("measuredRingCosts: element size 0");
  RingState &State = ringState(Comm);
  CostCache &Cache = State.Costs;
  const auto Key = std::make_pair(ElementBytes, Bidirectional);
  auto Hit = Cache.find(Key);
  if (Hit == Cache.end()) {
    int Rank, Size;
    MPI_Comm_rank(Comm, &Rank);
    MPI_Comm_size(Comm, &Size);
    const MPI_Comm Private = State.Private;
    std::array<double, 2> Mine =
        pingPongLinks(Private, Rank, Size, Bidirectional, ElementBytes);
    // A timer may read 0 for a fast link.
    for (double &C : Mine)
      C = std::max(C, 1e-12);
    std::vector<double> All(2 * static_cast<std::size_t>(Size));
    MPI_Allgather(Mine.data(), 2, MPI_DOUBLE, All.data(), 2, MPI_DOUBLE,
                  Private);
    std::vector<double> Fwd(Size), Bwd;
    for (int I = 0; I < Size; ++I)
      Fwd[I] = All[2 * I];
    if (Bidirectional) {
      Bwd.resize(Size);
      for (int I = 0; I < Size; ++I)
        Bwd[I] = All[2 * I + 1];
    }
    Hit = Cache.emplace(Key, std::make_pair(Fwd, Bwd)).first;
  }
  CostFwd = Hit->second.first;
  CostBwd = Hit->second.second;
}

RingRebalancePlan planRingRebalance(std::int64_t Load, std::int64_t TargetCount,
                                    MPI_Comm Ring, std::size_t ElementBytes,
                                    const RingOptions &Options) {
  if (Ring == MPI_COMM_NULL)
    throw InvalidArgument("rebalanceRing: the communicator is MPI_COMM_NULL");
  if (ElementBytes == 0)
    throw InvalidArgument("rebalanceRing: items of 0 bytes");
  int Rank, Size, Topology;
  MPI_Comm_rank(Ring, &Rank);
  MPI_Comm_size(Ring, &Size);
  MPI_Topo_test(Ring, &Topology);
  if (Topology == MPI_CART) {
    int Dims = 0;
    MPI_Cartdim_get(Ring, &Dims);
    int Extent = 0, Periodic = 0, Coord = 0;
    if (Dims == 1)
      MPI_Cart_get(Ring, 1, &Extent, &Periodic, &Coord);
    if (Dims != 1 || !Periodic)
      throw InvalidArgument("rebalanceRing: a Cartesian communicator must be "
                            "one-dimensional and periodic to be a ring (this "
                            "one has " +
                            std::to_string(Dims) + " dimensions" +
                            (Dims == 1 ? ", not periodic)" : ")"));
  }
  checkOptions(Options, Size);

  // Everything every rank needs to plan, and what they must agree on.
  std::int64_t Mine[3] = {Load, TargetCount,
                          static_cast<std::int64_t>(optionsHash(Options))};
  std::vector<std::int64_t> All(3 * static_cast<std::size_t>(Size));
  MPI_Allgather(Mine, 3, MPI_INT64_T, All.data(), 3, MPI_INT64_T, Ring);
  RingProblem P;
  for (int I = 0; I < Size; ++I) {
    if (All[3 * I + 2] != All[2])
      throw InvalidArgument("rebalanceRing: ranks were given different "
                            "options (rank " +
                            std::to_string(I) + "'s differ from rank 0's)");
    if (All[3 * I + 1] < 0)
      throw InvalidArgument("rebalanceRing: rank " + std::to_string(I) +
                            "'s target_count = " +
                            std::to_string(All[3 * I + 1]) + " is negative");
    P.Loads.push_back(All[3 * I]);
    P.Targets.push_back(All[3 * I + 1]);
  }
  P.Bidirectional = Options.Bidirectional;
  // The sums, on every rank alike, before any cost is measured.
  P.CostFwd.assign(Size, 1.0);
  try {
    validateRingProblem(P);
  } catch (const InvalidArgument &E) {
    throw InvalidArgument(std::string("rebalanceRing: ") + E.what());
  }
  if (Options.CostFwd.empty()) {
    measuredRingCosts(Ring, ElementBytes, Options.Bidirectional, P.CostFwd,
                      P.CostBwd);
    // A homogeneous algorithm asserts equal links: use their mean.
    if (Options.Algorithm == RingAlgorithm::UniHomogeneous ||
        Options.Algorithm == RingAlgorithm::BiHomogeneous) {
      double Sum = 0;
      for (double C : P.CostFwd)
        Sum += C;
      for (double C : P.CostBwd)
        Sum += C;
      const double Mean =
          Sum / static_cast<double>(P.CostFwd.size() + P.CostBwd.size());
      P.CostFwd.assign(Size, Mean);
      if (P.Bidirectional)
        P.CostBwd.assign(Size, Mean);
    }
  } else {
    P.CostFwd = perRank(Options.CostFwd, Size);
    if (!Options.CostBwd.empty())
      P.CostBwd = perRank(Options.CostBwd, Size);
  }
  RingRebalancePlan Plan;
  try {
    Plan.Schedule = planRing(P, Options.Algorithm);
  } catch (const InvalidArgument &E) {
    throw InvalidArgument(std::string("rebalanceRing: ") + E.what());
  }
  Plan.Problem = std::move(P);
  return Plan;
}

namespace detail {

RingRebalanceResult rebalanceRing(RingItems Items, std::size_t ElementBytes,
                                  std::int64_t TargetCount, MPI_Comm Ring,
                                  const RingOptions &Options) {
  RingRebalancePlan Plan =
      planRingRebalance(static_cast<std::int64_t>(Items.Size(Items.Vector)),
                        TargetCount, Ring, ElementBytes, Options);
  const RingProblem &P = Plan.Problem;
  int Rank, Size;
  MPI_Comm_rank(Ring, &Rank);
  MPI_Comm_size(Ring, &Size);
  RingRebalanceResult Result;
  Result.Schedule = std::move(Plan.Schedule);

  // This rank's pieces: the outgoing ones in order, the incoming ones posted
  // in order (which keeps each link's order) and awaited by arrival.
  const std::int64_t ByteLimit =
      static_cast<std::int64_t>(INT_MAX / ElementBytes);
  const std::int64_t MaxPiece = Options.MaxPieceItems > 0
                                    ? std::min(Options.MaxPieceItems, ByteLimit)
                                    : ByteLimit;
  const std::vector<RingTransfer> Pieces =
      chunkRingTransfers(P, Result.Schedule.Transfers, MaxPiece);
  std::vector<const RingTransfer *> Out, In;
  for (const RingTransfer &T : Pieces) {
    if (T.From == Rank)
      Out.push_back(&T);
    if (wrap(T.From + T.Dir, Size) == Rank)
      In.push_back(&T);
  }
  std::vector<std::size_t> Arrival(In.size());
  std::iota(Arrival.begin(), Arrival.end(), 0);
  auto End = [&](const RingTransfer *T) {
    return T->Start + static_cast<double>(T->Items) * P.cost(T->From, T->Dir);
  };
  std::stable_sort(
      Arrival.begin(), Arrival.end(),
      [&](std::size_t A, std::size_t B) { return End(In[A]) < End(In[B]); });
  auto Bytes = [&](const RingTransfer *T) {
    return static_cast<std::size_t>(T->Items) * ElementBytes;
  };
  // Buffers aligned for any item type, so the items can be copied out
  // typed.
  auto Buffer = [](std::size_t Bytes) {
    return std::unique_ptr<std::max_align_t[]>(
        new std::max_align_t[Bytes / sizeof(std::max_align_t) + 1]);
  };
  std::size_t InBytes = 0, OutBytes = 0;
  for (const RingTransfer *T : In)
    InBytes += Bytes(T);
  for (const RingTransfer *T : Out)
    OutBytes += Bytes(T);
  auto InBuffer = Buffer(InBytes), OutBuffer = Buffer(OutBytes);
  char *InData = reinterpret_cast<char *>(InBuffer.get());
  char *OutData = reinterpret_cast<char *>(OutBuffer.get());

  const MPI_Comm Private = ringState(Ring).Private;
  const double Start = MPI_Wtime();
  std::vector<MPI_Request> Receives(In.size()), Sends(Out.size());
  std::vector<std::size_t> InOffset(In.size());
  for (std::size_t K = 0, Offset = 0; K < In.size(); ++K) {
    InOffset[K] = Offset;
    MPI_Irecv(InData + Offset, static_cast<int>(Bytes(In[K])), MPI_BYTE,
              static_cast<int>(In[K]->From),
              In[K]->Dir > 0 ? ForwardTag : BackwardTag, Private, &Receives[K]);
    Offset += Bytes(In[K]);
  }
  std::size_t Next = 0; // into Arrival
  auto TakeNext = [&] {
    const std::size_t K = Arrival[Next++];
    MPI_Wait(&Receives[K], MPI_STATUS_IGNORE);
    Items.PushBack(Items.Vector, InData + InOffset[K],
                   static_cast<std::size_t>(In[K]->Items));
  };
  for (std::size_t K = 0, Offset = 0; K < Out.size(); ++K) {
    const std::size_t Count = static_cast<std::size_t>(Out[K]->Items);
    while (Items.Size(Items.Vector) < Count) {
      if (Next == In.size())
        throw InvalidArgument("rebalanceRing: internal error: rank " +
                              std::to_string(Rank) +
                              " has too few items for its next piece");
      TakeNext();
    }
    Items.PopBack(Items.Vector, Count, OutData + Offset);
    MPI_Isend(OutData + Offset, static_cast<int>(Bytes(Out[K])), MPI_BYTE,
              static_cast<int>(wrap(Rank + Out[K]->Dir, Size)),
              Out[K]->Dir > 0 ? ForwardTag : BackwardTag, Private, &Sends[K]);
    Offset += Bytes(Out[K]);
  }
  while (Next < In.size())
    TakeNext();
  MPI_Waitall(static_cast<int>(Sends.size()), Sends.data(),
              MPI_STATUSES_IGNORE);
  Result.Seconds = MPI_Wtime() - Start;
  Result.Messages = static_cast<std::int64_t>(Out.size());
  return Result;
}

} // namespace detail

} // namespace redist
