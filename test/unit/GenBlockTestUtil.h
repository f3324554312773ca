//===- GenBlockTestUtil.h - GEN_BLOCK grids and checks for the tests ------===//
//
// Shared by ScpaTest.cpp and GenBlockSchedulersTest.cpp: the grid of a
// GEN_BLOCK -> GEN_BLOCK redistribution built independently of computeGrid
// (intersections of the two prefix-sum partitions), random segment sizes
// with zero-size segments, and an independent schedule check.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_GENBLOCKTESTUTIL_H
#define REDIST_TEST_UNIT_GENBLOCKTESTUTIL_H

#include "redist/CommGrid.h"
#include "redist/Schedule.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace test {

/// The messages of Source -> Target segment sizes: one per non-empty
/// intersection of a source segment with a target segment.
inline CommGrid genBlockGrid(const std::vector<int64_t> &Source,
                             const std::vector<int64_t> &Target) {
  CommGrid G;
  G.P = static_cast<int64_t>(Source.size());
  G.Q = static_cast<int64_t>(Target.size());
  int64_t SrcBegin = 0;
  for (int64_t P = 0; P < G.P; ++P) {
    int64_t SrcEnd = SrcBegin + Source[P];
    int64_t DstBegin = 0;
    for (int64_t Q = 0; Q < G.Q; ++Q) {
      int64_t DstEnd = DstBegin + Target[Q];
      int64_t Len = std::min(SrcEnd, DstEnd) - std::max(SrcBegin, DstBegin);
      if (Len > 0)
        G.Messages.push_back({P, Q, Len});
      DstBegin = DstEnd;
    }
    SrcBegin = SrcEnd;
  }
  return G;
}

/// Procs segment sizes summing to Total: each segment is empty with
/// probability ZeroChance (and may also come out empty by chance); the
/// others split Total at uniformly random cut points.
inline std::vector<int64_t> randomSizes(std::mt19937_64 &Rng, int64_t Procs,
                                        int64_t Total, double ZeroChance) {
  std::bernoulli_distribution Zero(ZeroChance);
  std::vector<int64_t> Owners;
  for (int64_t P = 0; P < Procs; ++P)
    if (!Zero(Rng))
      Owners.push_back(P);
  if (Owners.empty())
    Owners.push_back(Procs - 1);
  std::uniform_int_distribution<int64_t> Cut(0, Total);
  std::vector<int64_t> Cuts;
  for (size_t I = 0; I + 1 < Owners.size(); ++I)
    Cuts.push_back(Cut(Rng));
  std::sort(Cuts.begin(), Cuts.end());
  Cuts.push_back(Total);
  std::vector<int64_t> Sizes(Procs, 0);
  int64_t Prev = 0;
  for (size_t I = 0; I < Owners.size(); ++I) {
    Sizes[Owners[I]] = Cuts[I] - Prev;
    Prev = Cuts[I];
  }
  return Sizes;
}

/// A random bipartite grid, not a chain: 1 to MaxSide processes on each
/// side, each pair a message with probability EdgeChance (while there are
/// fewer than MaxMessages), of a length from 1 to MaxLen.
inline CommGrid randomBipartiteGrid(std::mt19937_64 &Rng, int64_t MaxSide,
                                    double EdgeChance, size_t MaxMessages,
                                    int64_t MaxLen = 9) {
  std::uniform_int_distribution<int64_t> Side(1, MaxSide), Len(1, MaxLen);
  std::bernoulli_distribution Edge(EdgeChance);
  CommGrid G;
  G.P = Side(Rng);
  G.Q = Side(Rng);
  for (int64_t P = 0; P < G.P; ++P)
    for (int64_t Q = 0; Q < G.Q; ++Q)
      if (Edge(Rng) && G.Messages.size() < MaxMessages)
        G.Messages.push_back({P, Q, Len(Rng)});
  return G;
}

/// Independent of validateSchedule: every message exactly once, ids in
/// range, nobody sending or receiving twice in a step.
inline std::optional<std::string> checkSchedule(const CommGrid &G,
                                                const Schedule &S) {
  std::vector<int64_t> Seen(G.Messages.size(), 0);
  for (size_t Step = 0; Step < S.Steps.size(); ++Step) {
    std::set<int64_t> Senders, Receivers;
    for (int64_t Id : S.Steps[Step]) {
      if (Id < 0 || Id >= static_cast<int64_t>(G.Messages.size()))
        return "step " + std::to_string(Step) + " names message " +
               std::to_string(Id);
      ++Seen[Id];
      if (!Senders.insert(G.Messages[Id].Src).second)
        return "step " + std::to_string(Step) + ": sender " +
               std::to_string(G.Messages[Id].Src) + " sends twice";
      if (!Receivers.insert(G.Messages[Id].Dst).second)
        return "step " + std::to_string(Step) + ": receiver " +
               std::to_string(G.Messages[Id].Dst) + " receives twice";
    }
  }
  for (size_t Id = 0; Id < Seen.size(); ++Id)
    if (Seen[Id] != 1)
      return "message " + std::to_string(Id) + " is scheduled " +
             std::to_string(Seen[Id]) + " times";
  return std::nullopt;
}

/// Sum over steps of the longest message.
inline int64_t costOf(const CommGrid &G, const Schedule &S) {
  int64_t Cost = 0;
  for (const std::vector<int64_t> &Step : S.Steps) {
    int64_t Max = 0;
    for (int64_t Id : Step)
      Max = std::max(Max, G.Messages[Id].Len);
    Cost += Max;
  }
  return Cost;
}

/// Largest number of messages of one process.
inline int64_t maxDegreeOf(const CommGrid &G) {
  std::vector<int64_t> Row(G.P, 0), Col(G.Q, 0);
  int64_t Max = 0;
  for (const Message &M : G.Messages)
    Max = std::max({Max, ++Row[M.Src], ++Col[M.Dst]});
  return Max;
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_GENBLOCKTESTUTIL_H
