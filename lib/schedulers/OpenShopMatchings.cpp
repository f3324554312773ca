//===- OpenShopMatchings.cpp - Sending messages by perfect matchings ------===//

#include "OpenShopMatchings.h"

#include "Assignment.h"

#include <algorithm>
#include <stdexcept>

namespace redist {
namespace detail {

std::optional<std::vector<OverlapEvent>>
sendByMatchings(const OverlapPorts &Ports,
                const std::vector<int64_t> &Remaining,
                std::vector<char> InProgress, int64_t Now, int64_t Deadline,
                MatchingRules Rules) {
  const int32_t S = Ports.Sources, T = Ports.Targets, N = S + T;
  const int32_t NumMessages = static_cast<int32_t>(Remaining.size());
  // Entries of the square matrix; the real block's message ids.
  std::vector<int64_t> Entry(static_cast<size_t>(N) * N, 0);
  std::vector<int32_t> MessageAt(static_cast<size_t>(S) * T, -1);
  auto At = [&](int32_t Row, int32_t Col) -> int64_t & {
    return Entry[static_cast<size_t>(Row) * N + Col];
  };
  int64_t Window = Deadline - Now;
  std::vector<int64_t> Load(N, 0); // of each port
  for (int32_t Id = 0; Id < NumMessages; ++Id) {
    if (Remaining[Id] == 0)
      continue;
    const int32_t Src = Ports.SrcPort[Id], Dst = Ports.DstPort[Id] - S;
    MessageAt[static_cast<size_t>(Src) * T + Dst] = Id;
    At(Src, Dst) = Remaining[Id];
    At(S + Dst, T + Src) = Remaining[Id];
    Load[Src] += Remaining[Id];
    Load[S + Dst] += Remaining[Id];
  }
  for (int32_t Port = 0; Port < N; ++Port) {
    if (Load[Port] > Window)
      throw std::logic_error("sendByMatchings: a port has more work than time");
    if (Port < S)
      At(Port, T + Port) = Window - Load[Port];
    else
      At(Port, Port - S) = Window - Load[Port];
  }

  // Keeping one more message in progress outweighs any preference among the
  // others (at most N entries of 1), and an entry that ran out outweighs
  // every assignment of the others.
  constexpr int64_t Spread = 4; // preferences among the others: 0 .. 3
  const int64_t Base = N * Spread + 1;
  const int64_t RunOut = static_cast<int64_t>(N) * (Base + Spread) + 1;
  // Rules.Variety > 0 draws each message's preference from a fixed hash.
  auto preference = [&](int32_t Id) -> int64_t {
    if (Rules.Variety == 0)
      return 0;
    uint64_t H = (static_cast<uint64_t>(Id) + 1) * 0x9e3779b97f4a7c15ULL ^
                 Rules.Variety * 0xc2b2ae3d27d4eb4fULL;
    H ^= H >> 29;
    H *= 0xbf58476d1ce4e5b9ULL;
    H ^= H >> 32;
    return static_cast<int64_t>(H % (Spread - 1));
  };
  auto messageOf = [&](int32_t Row, int32_t Col) {
    return Row < S && Col < T ? MessageAt[static_cast<size_t>(Row) * T + Col]
                              : -1;
  };
  auto costOf = [&](int32_t Row, int32_t Col) -> int64_t {
    if (At(Row, Col) == 0)
      return RunOut;
    const int32_t Id = messageOf(Row, Col);
    if (Id >= 0)
      return InProgress[Id] ? 0 : Base + preference(Id);
    return Rules.PreferMessages ? Base + Spread - 1 : Base;
  };
  Assignment Match(N);
  for (int32_t Row = 0; Row < N; ++Row)
    for (int32_t Col = 0; Col < N; ++Col)
      Match.setCost(Row, Col, costOf(Row, Col));

  int64_t Charged = 0; // of Match.work(), taken from Rules.Budget
  if (Rules.Budget)
    *Rules.Budget -= static_cast<int64_t>(N) * N;
  std::vector<OverlapEvent> Pieces;
  std::vector<int32_t> Running, StillRunning, Matched(N);
  for (int32_t Id = 0; Id < NumMessages; ++Id)
    if (InProgress[Id])
      Running.push_back(Id);
  while (Window > 0) {
    Match.solve();
    if (Rules.Budget) {
      *Rules.Budget -= Match.work() - Charged;
      Charged = Match.work();
      if (Rules.NoSplit && *Rules.Budget < 0)
        return std::nullopt;
    }
    int64_t Delta = Window;
    for (int32_t Row = 0; Row < N; ++Row) {
      const int64_t Value = At(Row, Match.columnOf(Row));
      if (Value <= 0)
        throw std::logic_error("sendByMatchings: no perfect matching");
      Delta = std::min(Delta, Value);
    }
    if (Rules.NoSplit)
      for (int32_t Id : Running)
        if (Match.columnOf(Ports.SrcPort[Id]) != Ports.DstPort[Id] - S)
          return std::nullopt;
    StillRunning.clear();
    for (int32_t Row = 0; Row < N; ++Row) {
      const int32_t Col = Matched[Row] = Match.columnOf(Row);
      At(Row, Col) -= Delta;
      const int32_t Id = messageOf(Row, Col);
      if (Id >= 0) {
        Pieces.push_back({Id, Now, Delta});
        if (At(Row, Col) > 0)
          StillRunning.push_back(Id);
      }
    }
    Now += Delta;
    Window -= Delta;
    // Messages that stopped, or ran out, lose their place; the others keep
    // it; the matching's new messages are now in progress.
    for (int32_t Id : Running)
      InProgress[Id] = 0;
    for (int32_t Id : StillRunning)
      InProgress[Id] = 1;
    for (int32_t Id : Running) {
      const int32_t Src = Ports.SrcPort[Id], Dst = Ports.DstPort[Id] - S;
      Match.setCost(Src, Dst, costOf(Src, Dst));
    }
    // setCost frees rows: read the matching from Matched.
    for (int32_t Row = 0; Row < N; ++Row)
      Match.setCost(Row, Matched[Row], costOf(Row, Matched[Row]));
    std::swap(Running, StillRunning);
  }
  return Pieces;
}

} // namespace detail
} // namespace redist
