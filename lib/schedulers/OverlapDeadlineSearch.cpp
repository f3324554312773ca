//===- OverlapDeadlineSearch.cpp - Unsplit schedules that end by a deadline
//===//

#include "OverlapDeadlineSearch.h"
#include "DeepStack.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <tuple>
#include <vector>

namespace redist {
namespace detail {

namespace {

class DeadlineSearch {
public:
  DeadlineSearch(const CommGrid &G, const OverlapPorts &Ports, int64_t Deadline,
                 int64_t Budget, uint64_t Variety)
      : Ports(Ports), NumMessages(static_cast<int32_t>(G.Messages.size())),
        Deadline(Deadline), Budget(Budget), Variety(Variety),
        Len(G.Messages.size()), Tie(G.Messages.size()),
        Free(Ports.numPorts(), 0), Rem(Ports.numPorts(), 0),
        WaitStamp(Ports.numPorts(), -1), Placed(G.Messages.size(), 0),
        Start(G.Messages.size(), 0) {
    for (int32_t Id = 0; Id < NumMessages; ++Id) {
      Len[Id] = G.Messages[Id].Len;
      Rem[Ports.SrcPort[Id]] += Len[Id];
      Rem[Ports.DstPort[Id]] += Len[Id];
      // A fixed mix of the id and Variety: the same on every platform.
      uint64_t H = (static_cast<uint64_t>(Id) + 1) * 0x9e3779b97f4a7c15ULL ^
                   Variety * 0xbf58476d1ce4e5b9ULL;
      H ^= H >> 31;
      Tie[Id] = Variety < 4 ? static_cast<uint64_t>(Id) : H;
    }
  }

  DeadlineOutcome run() {
    DeadlineOutcome Out;
    bool Possible = true;
    for (int32_t Port = 0; Port < Ports.numPorts(); ++Port)
      Possible = Possible && Rem[Port] <= Deadline;
    // MaxDepth levels need more stack than a caller's thread may have.
    bool Found = false;
    if (Possible)
      runOnDeepStack(DeepStackBytes, [&] { Found = search(0, 0); });
    if (Found)
      Out.Result = DeadlineOutcome::Found;
    else
      Out.Result =
          OutOfBudget ? DeadlineOutcome::Unknown : DeadlineOutcome::Infeasible;
    if (Out.Result == DeadlineOutcome::Found)
      Out.Start = Start;
    Out.Nodes = Nodes;
    return Out;
  }

private:
  struct Option {
    int64_t First, Second; ///< the rule's keys, smaller first
    uint64_t Tie;
    int32_t Id;
    bool operator<(const Option &O) const {
      return std::tie(First, Second, Tie) < std::tie(O.First, O.Second, O.Tie);
    }
  };

  int32_t partner(int32_t Id, int32_t Port) const {
    return Ports.SrcPort[Id] == Port ? Ports.DstPort[Id] : Ports.SrcPort[Id];
  }

  bool waiting(int32_t Port) const { return WaitStamp[Port] == Epoch; }

  /// Whether swapping free ports A and B maps the state onto itself: the
  /// same partners, lengths and messages already sent. Then sending to one
  /// or to the other are the same choice.
  bool interchangeable(int32_t A, int32_t B) const {
    const std::vector<int32_t> &MA = Ports.MessagesAt[A];
    const std::vector<int32_t> &MB = Ports.MessagesAt[B];
    if (MA.size() != MB.size() || Rem[A] != Rem[B])
      return false;
    for (size_t K = 0; K < MA.size(); ++K)
      if (partner(MA[K], A) != partner(MB[K], B) || Len[MA[K]] != Len[MB[K]] ||
          Placed[MA[K]] != Placed[MB[K]])
        return false;
    return true;
  }

  /// Whether every port can still end by the deadline from time T, each
  /// unplaced message released when its partner is free (Jackson's rule).
  bool portsCanFinish(int64_t T) {
    for (int32_t Port = 0; Port < Ports.numPorts(); ++Port) {
      if (Rem[Port] == 0)
        continue;
      int64_t End = std::max(T, Free[Port]);
      if (End + Rem[Port] > Deadline)
        return false;
      Jobs.clear();
      for (int32_t Id : Ports.MessagesAt[Port])
        if (!Placed[Id])
          Jobs.push_back({std::max(End, Free[partner(Id, Port)]), Len[Id]});
      std::sort(Jobs.begin(), Jobs.end());
      for (const auto &[At, Length] : Jobs)
        End = std::max(End, At) + Length;
      if (End > Deadline)
        return false;
    }
    return true;
  }

  /// Decides the free ports at time T one by one; true when a schedule was
  /// found (in Start).
  bool search(int64_t T, int32_t Depth) {
    if (PlacedCount == NumMessages)
      return true;
    // Waits and new times deepen the recursion as well as messages: past
    // MaxDepth the stack could run out, so the run stops, undecided.
    if (++Nodes > Budget || Depth > MaxDepth) {
      OutOfBudget = true;
      return false;
    }
    // The free, undecided port with the least slack, then the fewest
    // options, decides next.
    int32_t Chosen = -1;
    int64_t ChosenSlack = 0;
    size_t ChosenOptions = 0;
    for (int32_t Port = 0; Port < Ports.numPorts(); ++Port) {
      if (Rem[Port] == 0 || Free[Port] > T || waiting(Port))
        continue;
      const int64_t Slack = Deadline - T - Rem[Port];
      size_t Count = 0;
      for (int32_t Id : Ports.MessagesAt[Port]) {
        const int32_t Other = partner(Id, Port);
        Count += !Placed[Id] && Free[Other] <= T && !waiting(Other);
      }
      // It waits at least one unit: it must have the slack for it.
      if (Count == 0 && Slack < 1)
        return false;
      if (Count > 0 && (Chosen < 0 || Slack < ChosenSlack ||
                        (Slack == ChosenSlack && Count < ChosenOptions))) {
        Chosen = Port;
        ChosenSlack = Slack;
        ChosenOptions = Count;
      }
    }
    if (Chosen < 0) {
      // Every free port waits: go on to the next time a port is free.
      int64_t Next = std::numeric_limits<int64_t>::max();
      for (int32_t Port = 0; Port < Ports.numPorts(); ++Port)
        if (Free[Port] > T)
          Next = std::min(Next, Free[Port]);
      if (Next == std::numeric_limits<int64_t>::max() || !portsCanFinish(Next))
        return false;
      const int64_t OldEpoch = Epoch;
      Epoch = ++Epochs;
      const bool Done = search(Next, Depth + 1);
      Epoch = OldEpoch;
      return Done;
    }
    // A deque: growing it keeps the lists of the levels above in place.
    if (Options.size() <= static_cast<size_t>(Depth))
      Options.resize(Depth + 1);
    std::vector<Option> &List = Options[Depth];
    List.clear();
    for (int32_t Id : Ports.MessagesAt[Chosen]) {
      const int32_t Other = partner(Id, Chosen);
      if (Placed[Id] || Free[Other] > T || waiting(Other) ||
          T + Len[Id] > Deadline)
        continue;
      const int64_t PartnerSlack =
          Deadline - std::max(T, Free[Other]) - Rem[Other];
      // Variety picks the rule: longest first, shortest first, or the
      // partner with the least slack first; then the ties.
      switch (Variety % 4) {
      case 0:
        List.push_back({-Len[Id], PartnerSlack, Tie[Id], Id});
        break;
      case 1:
        List.push_back({Len[Id], PartnerSlack, Tie[Id], Id});
        break;
      case 2:
        List.push_back({PartnerSlack, -Len[Id], Tie[Id], Id});
        break;
      default:
        List.push_back({PartnerSlack, Len[Id], Tie[Id], Id});
        break;
      }
    }
    std::sort(List.begin(), List.end());
    for (size_t K = 0; K < List.size(); ++K) {
      const int32_t Id = List[K].Id;
      bool Repeat = false;
      for (size_t J = 0; J < K && !Repeat; ++J)
        Repeat =
            Len[List[J].Id] == Len[Id] &&
            interchangeable(partner(List[J].Id, Chosen), partner(Id, Chosen));
      if (Repeat)
        continue;
      const int32_t Src = Ports.SrcPort[Id], Dst = Ports.DstPort[Id];
      const int64_t OldSrcFree = Free[Src], OldDstFree = Free[Dst];
      Placed[Id] = 1;
      ++PlacedCount;
      Start[Id] = T;
      Free[Src] = Free[Dst] = T + Len[Id];
      Rem[Src] -= Len[Id];
      Rem[Dst] -= Len[Id];
      if (search(T, Depth + 1))
        return true;
      Placed[Id] = 0;
      --PlacedCount;
      Free[Src] = OldSrcFree;
      Free[Dst] = OldDstFree;
      Rem[Src] += Len[Id];
      Rem[Dst] += Len[Id];
      if (OutOfBudget)
        return false;
    }
    if (ChosenSlack < 1)
      return false;
    WaitStamp[Chosen] = Epoch;
    const bool Done = search(T, Depth + 1);
    WaitStamp[Chosen] = -1;
    return Done;
  }

  const OverlapPorts &Ports;
  int32_t NumMessages;
  int64_t Deadline, Budget;
  uint64_t Variety;
  std::vector<int64_t> Len;
  std::vector<uint64_t> Tie;
  std::vector<int64_t> Free, Rem, WaitStamp;
  std::vector<char> Placed;
  std::vector<int64_t> Start;
  std::deque<std::vector<Option>> Options; ///< of each depth
  std::vector<std::pair<int64_t, int64_t>> Jobs;
  int32_t PlacedCount = 0;
  int64_t Epoch = 0, Epochs = 0;
  int64_t Nodes = 0;
  bool OutOfBudget = false;
  static constexpr int32_t MaxDepth = 12000;
  /// Room for MaxDepth frames, sanitized ones included.
  static constexpr std::size_t DeepStackBytes = std::size_t(256) << 20;
};

} // namespace

DeadlineOutcome scheduleByDeadline(const CommGrid &G, const OverlapPorts &Ports,
                                   int64_t Deadline, int64_t Budget,
                                   uint64_t Variety) {
  return DeadlineSearch(G, Ports, Deadline, Budget, Variety).run();
}

} // namespace detail
} // namespace redist
