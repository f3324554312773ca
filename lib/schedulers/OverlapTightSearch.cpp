//===- OverlapTightSearch.cpp - Deadline search when one side is all busy -===//
//
// When every port of one side (every source, or every target) has exactly
// Deadline units of work, as every port of the larger side of a whole
// block-cyclic slice has at T_opt, each of those ports sends its messages
// back to back from 0: a schedule is one order of messages per port, and
// the other side only has to receive without overlap. The search fixes the
// orders port by port, each next port the one that shares the most work
// with the ports already fixed, so that a conflict shows up next to the
// choice that caused it; the time-driven search (OverlapDeadlineSearch.cpp)
// would interleave all ports and backtrack far from the cause.
//
// Two symmetries are cut. Ports with the same messages (same partners and
// lengths) are interchangeable: their orders, read as (partner class,
// length) sequences, must not decrease. And two partners that are alike
// so far (same messages, same sent ones, same busy intervals) are the same
// choice. Both keep the search complete, so an exhausted search proves that
// no schedule ends by the deadline.
//
// The budget counts all the work, not only the nodes: each node as much as
// a node of the time-driven search, and on top of it the checks, above all
// the one made each time a port's order is complete, that every later port
// still has an order of its own (up to 2^16 subsets of its messages each).
// Counting nodes alone let one budget take far longer on some grids than on
// others (issue 26).
//
//===----------------------------------------------------------------------===//

#include "OverlapDeadlineSearch.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

namespace redist {
namespace detail {

namespace {

struct Interval {
  int64_t Start, End;
  bool operator==(const Interval &O) const {
    return Start == O.Start && End == O.End;
  }
};

class TightSearch {
public:
  TightSearch(const CommGrid &G, const OverlapPorts &Ports, bool SourcesTight,
              int64_t Deadline, int64_t Budget, uint64_t Variety)
      : Ports(Ports), Deadline(Deadline),
        StepsPerNode(
            std::max<int64_t>(1, static_cast<int64_t>(G.Messages.size()))),
        WorkBudget(workBudget(Budget, StepsPerNode)), Variety(Variety),
        Len(G.Messages.size()), Placed(G.Messages.size(), 0),
        Start(G.Messages.size(), 0), Busy(Ports.numPorts()),
        Rem(Ports.numPorts(), 0), Class(Ports.numPorts(), 0) {
    for (size_t Id = 0; Id < G.Messages.size(); ++Id) {
      Len[Id] = G.Messages[Id].Len;
      Rem[Ports.SrcPort[Id]] += Len[Id];
      Rem[Ports.DstPort[Id]] += Len[Id];
    }
    const int32_t First = SourcesTight ? 0 : Ports.Sources;
    const int32_t Last = SourcesTight ? Ports.Sources : Ports.numPorts();
    classifyPorts();
    orderTightPorts(First, Last);
  }

  DeadlineOutcome run() {
    DeadlineOutcome Out;
    if (place(0, 0, 0, true)) {
      Out.Result = DeadlineOutcome::Found;
      Out.Start = Start;
    } else {
      Out.Result =
          OutOfBudget ? DeadlineOutcome::Unknown : DeadlineOutcome::Infeasible;
    }
    // In the caller's nodes.
    Out.Nodes = (Work + StepsPerNode - 1) / StepsPerNode;
    return Out;
  }

private:
  /// Budget nodes of the caller's in steps, saturating.
  static int64_t workBudget(int64_t Budget, int64_t PerNode) {
    return Budget > std::numeric_limits<int64_t>::max() / 4 / PerNode
               ? std::numeric_limits<int64_t>::max() / 4
               : Budget * PerNode;
  }

  /// Counts Steps units of work; false, and the search ends undecided, once
  /// the budget is spent.
  bool spend(int64_t Steps) {
    Work += Steps;
    if (Work > WorkBudget)
      OutOfBudget = true;
    return !OutOfBudget;
  }

  int32_t partner(int32_t Id, int32_t Port) const {
    return Ports.SrcPort[Id] == Port ? Ports.DstPort[Id] : Ports.SrcPort[Id];
  }

  /// Class of each port: ports with the same partners and lengths share one.
  void classifyPorts() {
    std::map<std::vector<int64_t>, int32_t> Seen;
    for (int32_t Port = 0; Port < Ports.numPorts(); ++Port) {
      std::vector<int64_t> Key{Port < Ports.Sources};
      for (int32_t Id : Ports.MessagesAt[Port]) {
        Key.push_back(partner(Id, Port));
        Key.push_back(Len[Id]);
      }
      Class[Port] =
          Seen.emplace(Key, static_cast<int32_t>(Seen.size())).first->second;
    }
  }

  /// The tight ports in search order; Twin[K] is the last earlier port of
  /// Order[K]'s class, or -1.
  void orderTightPorts(int32_t First, int32_t Last) {
    std::vector<int64_t> Shared(Ports.numPorts(), 0);
    std::vector<char> Taken(Ports.numPorts(), 0), Touched(Ports.numPorts(), 0);
    for (int32_t K = First; K < Last; ++K) {
      // Next: most work shared with the ports taken; then the most
      // messages; then the lowest port, rotated by Variety.
      int32_t Best = -1;
      for (int32_t Port = First; Port < Last; ++Port) {
        if (Taken[Port])
          continue;
        const auto Key = [&](int32_t P) {
          const int32_t Span = Last - First;
          return std::make_tuple(
              Shared[P], Ports.MessagesAt[P].size(),
              -((P - First + Span - static_cast<int32_t>(Variety % Span)) %
                Span));
        };
        if (Best < 0 || Key(Port) > Key(Best))
          Best = Port;
      }
      Taken[Best] = 1;
      Order.push_back(Best);
      for (int32_t Id : Ports.MessagesAt[Best]) {
        const int32_t Other = partner(Id, Best);
        if (Touched[Other])
          continue;
        Touched[Other] = 1;
        for (int32_t Next : Ports.MessagesAt[Other])
          Shared[partner(Next, Other)] += Len[Next];
      }
    }
    Twin.assign(Order.size(), -1);
    for (size_t K = 0; K < Order.size(); ++K)
      for (size_t J = K; J-- > 0;)
        if (Class[Order[J]] == Class[Order[K]]) {
          Twin[K] = static_cast<int32_t>(J);
          break;
        }
    Sequence.assign(Order.size(), {});
  }

  /// Whether [At, At + Length) is free on Port; Where is then its place.
  bool fits(int32_t Port, int64_t At, int64_t Length, size_t &Where) const {
    const std::vector<Interval> &List = Busy[Port];
    Where =
        static_cast<size_t>(std::lower_bound(List.begin(), List.end(), At,
                                             [](const Interval &I, int64_t T) {
                                               return I.End <= T;
                                             }) -
                            List.begin());
    return Where == List.size() || List[Where].Start >= At + Length;
  }

  /// Whether Port can still take its unsent messages: gaps shorter than
  /// the shortest of them are lost.
  bool roomLeft(int32_t Port) {
    if (Rem[Port] == 0)
      return true;
    if (!spend(static_cast<int64_t>(Ports.MessagesAt[Port].size() +
                                    Busy[Port].size())))
      return false;
    int64_t Shortest = Deadline;
    for (int32_t Id : Ports.MessagesAt[Port])
      if (!Placed[Id])
        Shortest = std::min(Shortest, Len[Id]);
    int64_t Room = 0, From = 0;
    for (const Interval &I : Busy[Port]) {
      if (I.Start - From >= Shortest)
        Room += I.Start - From;
      From = I.End;
    }
    if (Deadline - From >= Shortest)
      Room += Deadline - From;
    return Room >= Rem[Port];
  }

  /// Whether Port, not ordered yet, still has an order that fits around the
  /// busy intervals of its partners on its own: a search over the subsets
  /// of its messages sent so far (their lengths give the time). Ports with
  /// too many messages for that pass. Each subset visited costs one step
  /// per message of the port.
  bool hasOrder(int32_t Port) {
    const std::vector<int32_t> &Mine = Ports.MessagesAt[Port];
    if (Mine.size() > MaxSubsetMessages)
      return true;
    // A new stamp forgets the last port's dead subsets without clearing
    // 2^16 entries each time.
    if (Dead.size() < size_t(1) << Mine.size())
      Dead.resize(size_t(1) << Mine.size(), 0);
    if (++Stamp == 0) {
      std::fill(Dead.begin(), Dead.end(), 0);
      Stamp = 1;
    }
    return extend(Port, 0, 0);
  }

  bool extend(int32_t Port, uint32_t Sent, int64_t T) {
    const std::vector<int32_t> &Mine = Ports.MessagesAt[Port];
    if (T == Deadline)
      return true;
    if (Dead[Sent] == Stamp || !spend(static_cast<int64_t>(Mine.size())))
      return false;
    for (size_t K = 0; K < Mine.size(); ++K) {
      size_t Where;
      if (!(Sent >> K & 1) &&
          fits(partner(Mine[K], Port), T, Len[Mine[K]], Where) &&
          extend(Port, Sent | uint32_t(1) << K, T + Len[Mine[K]]))
        return true;
      if (OutOfBudget)
        return false;
    }
    Dead[Sent] = Stamp;
    return false;
  }

  /// Whether every port after the K-th still has an order of its own.
  bool othersHaveOrders(size_t K) {
    for (size_t Later = K + 1; Later < Order.size(); ++Later)
      if (!hasOrder(Order[Later]))
        return false;
    return !OutOfBudget;
  }

  /// A and B have the same messages, sent alike, and the same busy time.
  bool interchangeable(int32_t A, int32_t B) {
    spend(static_cast<int64_t>(Ports.MessagesAt[A].size() + Busy[A].size()));
    if (Class[A] != Class[B] || Rem[A] != Rem[B] || !(Busy[A] == Busy[B]))
      return false;
    const std::vector<int32_t> &MA = Ports.MessagesAt[A];
    const std::vector<int32_t> &MB = Ports.MessagesAt[B];
    for (size_t K = 0; K < MA.size(); ++K)
      if (Placed[MA[K]] != Placed[MB[K]])
        return false;
    return true;
  }

  /// The (partner class, length) key of a message of a tight port.
  std::pair<int32_t, int64_t> key(int32_t Id, int32_t Port) const {
    return {Class[partner(Id, Port)], Len[Id]};
  }

  /// Orders the K-th tight port from time T on, its Pos-th message next;
  /// Equal: its keys so far equal its twin's.
  bool place(size_t K, size_t Pos, int64_t T, bool Equal) {
    if (K == Order.size())
      return true;
    const int32_t Port = Order[K];
    if (T == Deadline)
      return othersHaveOrders(K) && place(K + 1, 0, 0, true);
    // A node costs what one of the time-driven search costs (its own scans
    // are smaller); the checks below count on top of it.
    if (!spend(StepsPerNode))
      return false;
    struct Option {
      int64_t First, Second;
      int32_t Id;
    };
    std::vector<Option> Options;
    const std::vector<int32_t> *TwinSeq =
        Twin[K] >= 0 ? &Sequence[Twin[K]] : nullptr;
    for (int32_t Id : Ports.MessagesAt[Port]) {
      size_t Where;
      if (Placed[Id] || !fits(partner(Id, Port), T, Len[Id], Where))
        continue;
      if (TwinSeq && Equal &&
          key(Id, Port) < key((*TwinSeq)[Pos], Order[Twin[K]]))
        continue;
      const int32_t Other = partner(Id, Port);
      const int64_t Crowd = Rem[Other];
      switch (Variety % 3) {
      case 0:
        Options.push_back({-Len[Id], -Crowd, Id});
        break;
      case 1:
        Options.push_back({Len[Id], -Crowd, Id});
        break;
      default:
        Options.push_back({-Crowd, -Len[Id], Id});
        break;
      }
    }
    std::sort(Options.begin(), Options.end(),
              [](const Option &A, const Option &B) {
                return std::tie(A.First, A.Second, A.Id) <
                       std::tie(B.First, B.Second, B.Id);
              });
    std::vector<int32_t> &Seq = Sequence[K];
    for (size_t I = 0; I < Options.size(); ++I) {
      const int32_t Id = Options[I].Id;
      const int32_t Other = partner(Id, Port);
      bool Repeat = false;
      for (size_t J = 0; J < I && !Repeat; ++J)
        Repeat = Len[Options[J].Id] == Len[Id] &&
                 interchangeable(partner(Options[J].Id, Port), Other);
      if (OutOfBudget)
        return false;
      if (Repeat)
        continue;
      size_t Where;
      fits(Other, T, Len[Id], Where);
      // Inserting and later erasing the interval moves those after it.
      spend(static_cast<int64_t>(Busy[Other].size()));
      Busy[Other].insert(Busy[Other].begin() + static_cast<ptrdiff_t>(Where),
                         {T, T + Len[Id]});
      Placed[Id] = 1;
      Start[Id] = T;
      Rem[Port] -= Len[Id];
      Rem[Other] -= Len[Id];
      Seq.resize(Pos);
      Seq.push_back(Id);
      const bool StillEqual =
          Equal && TwinSeq &&
          key(Id, Port) == key((*TwinSeq)[Pos], Order[Twin[K]]);
      if (roomLeft(Other) && place(K, Pos + 1, T + Len[Id], StillEqual))
        return true;
      Busy[Other].erase(Busy[Other].begin() + static_cast<ptrdiff_t>(Where));
      Placed[Id] = 0;
      Rem[Port] += Len[Id];
      Rem[Other] += Len[Id];
      if (OutOfBudget)
        return false;
    }
    return false;
  }

  const OverlapPorts &Ports;
  int64_t Deadline;
  /// A node of the caller's budget, in steps: one per message, as a node of
  /// the time-driven search scans them.
  int64_t StepsPerNode;
  int64_t WorkBudget; ///< in steps
  uint64_t Variety;
  std::vector<int64_t> Len;
  std::vector<char> Placed;
  std::vector<int64_t> Start;
  std::vector<std::vector<Interval>> Busy; ///< of each port, sorted
  std::vector<int64_t> Rem;                ///< work left of each port
  std::vector<int32_t> Class;
  std::vector<int32_t> Order, Twin;
  std::vector<std::vector<int32_t>> Sequence; ///< of each tight port
  /// hasOrder's subsets that lead nowhere: those holding Stamp.
  std::vector<uint32_t> Dead;
  uint32_t Stamp = 0;
  int64_t Work = 0; ///< steps spent

  bool OutOfBudget = false;
  static constexpr size_t MaxSubsetMessages = 16;
};

} // namespace

std::optional<DeadlineOutcome>
scheduleTightSide(const CommGrid &G, const OverlapPorts &Ports,
                  int64_t Deadline, int64_t Budget, uint64_t Variety) {
  std::vector<int64_t> Work(Ports.numPorts(), 0);
  for (size_t Id = 0; Id < G.Messages.size(); ++Id) {
    Work[Ports.SrcPort[Id]] += G.Messages[Id].Len;
    Work[Ports.DstPort[Id]] += G.Messages[Id].Len;
  }
  const auto AllTight = [&](int32_t First, int32_t Last) {
    return First < Last &&
           std::all_of(Work.begin() + First, Work.begin() + Last,
                       [&](int64_t W) { return W == Deadline; });
  };
  const bool Sources = AllTight(0, Ports.Sources);
  if (!Sources && !AllTight(Ports.Sources, Ports.numPorts()))
    return std::nullopt;
  return TightSearch(G, Ports, Sources, Deadline, Budget, Variety).run();
}

} // namespace detail
} // namespace redist
