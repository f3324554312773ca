//===- RingExhaustive.cpp - Breadth-first search over integer times -------===//

#include "redist/RingExhaustive.h"

#include "RingAlgorithms.h"

#include "redist/Error.h"
#include "redist/RingSimulator.h"

#include <cmath>
#include <numeric>
#include <unordered_map>

namespace redist {

namespace {

using ring::wrap;

/// Per process: items held, the direction of the item it is sending (0
/// none, 1 forward, 2 backward) and the time that item still needs.
using State = std::string;

struct Node {
  State S;
  std::int64_t Parent;
  /// The direction each process started sending in on the way here.
  std::string Moves;
};

} // namespace

std::string ringExhaustiveRejects(const RingProblem &P) {
  validateRingProblem(P);
  const std::int64_t N = P.size();
  if (N > RingExhaustiveMaxProcesses)
    return "the exhaustive search takes at most " +
           std::to_string(RingExhaustiveMaxProcesses) + " processes";
  const std::int64_t Items =
      std::accumulate(P.Loads.begin(), P.Loads.end(), std::int64_t(0));
  if (Items > RingExhaustiveMaxItems)
    return "the exhaustive search takes at most " +
           std::to_string(RingExhaustiveMaxItems) + " items";
  for (std::int64_t I = 0; I < N; ++I)
    for (int Dir : {1, -1}) {
      if (Dir < 0 && !P.Bidirectional)
        continue;
      const double C = P.cost(I, Dir);
      if (C != std::floor(C) || C > RingExhaustiveMaxCost)
        return "the exhaustive search needs integer link costs of at most " +
               std::to_string(static_cast<int>(RingExhaustiveMaxCost));
    }
  return "";
}

RingSchedule exhaustiveRingSchedule(const RingProblem &P) {
  if (std::string Why = ringExhaustiveRejects(P); !Why.empty())
    throw InvalidArgument(Why);
  const std::int64_t N = P.size();
  auto Cost = [&](std::int64_t I, int Dir) {
    return static_cast<int>(P.cost(I, Dir));
  };
  State Start(3 * N, 0), Goal(3 * N, 0);
  for (std::int64_t I = 0; I < N; ++I) {
    Start[3 * I] = static_cast<char>(P.Loads[I]);
    Goal[3 * I] = static_cast<char>(P.Targets[I]);
  }
  std::vector<Node> Nodes{{Start, -1, std::string(N, 0)}};
  std::unordered_map<State, std::int64_t> Seen{{Start, 0}};
  std::vector<std::int64_t> Layer{0};
  std::int64_t Found = -1, Time = 0;
  const int Dirs = P.Bidirectional && N > 1 ? 2 : (N > 1 ? 1 : 0);
  for (;; ++Time) {
    for (std::int64_t Id : Layer)
      if (Nodes[Id].S == Goal) {
        Found = Id;
        break;
      }
    if (Found >= 0)
      break;
    std::vector<std::int64_t> Next;
    for (std::int64_t Id : Layer) {
      const State Here = Nodes[Id].S;
      std::vector<bool> Receiving(N, false);
      for (std::int64_t I = 0; I < N; ++I)
        if (Here[3 * I + 1])
          Receiving[wrap(I + (Here[3 * I + 1] == 1 ? 1 : -1), N)] = true;
      std::string Moves(N, 0);
      // Every choice of new sends, process by process.
      auto Expand = [&](auto &Self, std::int64_t I) -> void {
        if (I == N) {
          State S = Here;
          for (std::int64_t K = 0; K < N; ++K)
            if (Moves[K]) {
              const int Dir = Moves[K] == 1 ? 1 : -1;
              --S[3 * K];
              S[3 * K + 1] = Moves[K];
              S[3 * K + 2] = static_cast<char>(Cost(K, Dir));
            }
          for (std::int64_t K = 0; K < N; ++K)
            if (S[3 * K + 1] && --S[3 * K + 2] == 0) {
              ++S[3 * wrap(K + (S[3 * K + 1] == 1 ? 1 : -1), N)];
              S[3 * K + 1] = 0;
            }
          if (Seen.count(S))
            return;
          if (static_cast<std::int64_t>(Nodes.size()) >=
              RingExhaustiveMaxStates)
            throw InvalidArgument("the exhaustive search visits more than " +
                                  std::to_string(RingExhaustiveMaxStates) +
                                  " states");
          Seen.emplace(S, Nodes.size());
          Next.push_back(static_cast<std::int64_t>(Nodes.size()));
          Nodes.push_back({S, Id, Moves});
          return;
        }
        Self(Self, I + 1); // I waits
        if (Here[3 * I + 1] || Here[3 * I] == 0)
          return;
        for (int D = 1; D <= Dirs; ++D) {
          const std::int64_t To = wrap(I + (D == 1 ? 1 : -1), N);
          if (Receiving[To])
            continue;
          Receiving[To] = true;
          Moves[I] = static_cast<char>(D);
          Self(Self, I + 1);
          Moves[I] = 0;
          Receiving[To] = false;
        }
      };
      Expand(Expand, 0);
    }
    Layer = std::move(Next);
    if (Layer.empty())
      throw InvalidArgument("the exhaustive search found no schedule");
  }
  // Walk back to the start: the node at depth t holds the moves made at
  // time t - 1.
  std::vector<RingTransfer> Transfers;
  std::int64_t Depth = Time;
  for (std::int64_t Id = Found; Nodes[Id].Parent >= 0; Id = Nodes[Id].Parent) {
    --Depth;
    for (std::int64_t I = 0; I < N; ++I)
      if (Nodes[Id].Moves[I])
        Transfers.push_back({I, Nodes[Id].Moves[I] == 1 ? 1 : -1,
                             static_cast<double>(Depth), 1});
  }
  // Merge items that follow each other on one link.
  sortRingTransfers(Transfers);
  std::vector<RingTransfer> Merged;
  std::vector<std::int64_t> Last(N, -1);
  for (const RingTransfer &T : Transfers) {
    std::int64_t &Prev = Last[T.From];
    if (Prev >= 0 && Merged[Prev].Dir == T.Dir &&
        Merged[Prev].Start + static_cast<double>(Merged[Prev].Items) *
                                 P.cost(T.From, T.Dir) ==
            T.Start) {
      ++Merged[Prev].Items;
      continue;
    }
    Prev = static_cast<std::int64_t>(Merged.size());
    Merged.push_back(T);
  }
  return ring::finishSchedule(P, "exhaustive", std::move(Merged));
}

} // namespace redist
