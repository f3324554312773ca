//===- OverlapListSearch.cpp - Local search over unsplit message orders ---===//

#include "OverlapListSearch.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace redist {
namespace detail {

namespace {

struct Interval {
  int64_t Start, End;
};

/// Decodes orders into schedules; keeps its buffers between calls.
class ListDecoder {
public:
  ListDecoder(const CommGrid &G, const OverlapPorts &Ports)
      : G(G), Ports(Ports), Busy(Ports.numPorts()), Start(G.Messages.size()) {}

  /// Schedules Order; returns (makespan, messages ending at it, sum of the
  /// ports' last ends): smaller is better. Adds to Work the messages placed
  /// and the busy intervals passed, which is what the decoding costs.
  std::tuple<int64_t, int64_t, int64_t>
  decode(const std::vector<int32_t> &Order, int64_t &Work) {
    for (std::vector<Interval> &List : Busy)
      List.clear();
    for (int32_t Id : Order) {
      const int64_t Len = G.Messages[Id].Len;
      std::vector<Interval> &A = Busy[Ports.SrcPort[Id]];
      std::vector<Interval> &B = Busy[Ports.DstPort[Id]];
      // Both lists are sorted and disjoint; T only grows, so each list is
      // scanned once.
      int64_t T = 0;
      size_t IA = 0, IB = 0;
      while (true) {
        while (IA < A.size() && A[IA].End <= T)
          ++IA;
        if (IA < A.size() && A[IA].Start < T + Len) {
          T = A[IA].End;
          continue;
        }
        while (IB < B.size() && B[IB].End <= T)
          ++IB;
        if (IB < B.size() && B[IB].Start < T + Len) {
          T = B[IB].End;
          continue;
        }
        break;
      }
      Work += 1 + static_cast<int64_t>(IA + IB);
      Start[Id] = T;
      A.insert(A.begin() + IA, {T, T + Len});
      B.insert(B.begin() + IB, {T, T + Len});
    }
    int64_t Makespan = 0, AtMakespan = 0, PortEnds = 0;
    for (const std::vector<Interval> &List : Busy)
      if (!List.empty()) {
        PortEnds += List.back().End;
        Makespan = std::max(Makespan, List.back().End);
      }
    for (size_t Id = 0; Id < Start.size(); ++Id)
      AtMakespan += Start[Id] + G.Messages[Id].Len == Makespan;
    return {Makespan, AtMakespan, PortEnds};
  }

  const std::vector<int64_t> &starts() const { return Start; }

private:
  const CommGrid &G;
  const OverlapPorts &Ports;
  std::vector<std::vector<Interval>> Busy;
  std::vector<int64_t> Start;
};

/// A 64-bit linear congruential generator (Knuth's MMIX constants): the
/// same numbers on every platform, unlike std:: distributions.
class Generator {
public:
  explicit Generator(uint64_t Seed) : State(Seed) {}
  uint64_t below(uint64_t Bound) {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return (State >> 33) % Bound;
  }

private:
  uint64_t State;
};

} // namespace

UnsplitSchedule improveByListSearch(const CommGrid &G,
                                    const OverlapPorts &Ports,
                                    const UnsplitSchedule &Seed,
                                    int64_t LowerBound, int64_t &Work) {
  const int32_t NumMessages = static_cast<int32_t>(G.Messages.size());
  UnsplitSchedule Best = Seed;
  if (NumMessages < 2 || Best.Makespan <= LowerBound || Work <= 0)
    return Best;
  std::vector<int32_t> Order(NumMessages);
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](int32_t A, int32_t B) {
    return std::tie(Seed.Start[A], A) < std::tie(Seed.Start[B], B);
  });
  ListDecoder Decoder(G, Ports);
  int64_t Done = 0;
  auto Current = Decoder.decode(Order, Done);
  if (std::get<0>(Current) < Best.Makespan) {
    Best.Makespan = std::get<0>(Current);
    Best.Start = Decoder.starts();
  }
  Generator Random(0x5eed);
  std::vector<int64_t> CurrentStart = Decoder.starts();
  std::vector<int32_t> Late;
  for (int64_t Iteration = 0; Done < Work && Best.Makespan > LowerBound;
       ++Iteration) {
    std::vector<int32_t> Candidate = Order;
    if (Iteration % 2 == 0) {
      // Move a message that ends last to an earlier place in the order.
      Late.clear();
      for (int32_t K = 0; K < NumMessages; ++K) {
        const int32_t Id = Order[K];
        if (CurrentStart[Id] + G.Messages[Id].Len == std::get<0>(Current))
          Late.push_back(K);
      }
      const int32_t From = Late[Random.below(Late.size())];
      if (From == 0)
        continue;
      const int32_t To = static_cast<int32_t>(Random.below(From));
      std::rotate(Candidate.begin() + To, Candidate.begin() + From,
                  Candidate.begin() + From + 1);
    } else {
      const int32_t A = static_cast<int32_t>(Random.below(NumMessages));
      const int32_t B = static_cast<int32_t>(Random.below(NumMessages));
      if (A == B)
        continue;
      std::swap(Candidate[A], Candidate[B]);
    }
    const auto Score = Decoder.decode(Candidate, Done);
    if (Score <= Current) {
      Current = Score;
      Order = std::move(Candidate);
      CurrentStart = Decoder.starts();
      if (std::get<0>(Current) < Best.Makespan) {
        Best.Makespan = std::get<0>(Current);
        Best.Start = Decoder.starts();
      }
    }
  }
  Work -= Done;
  return Best;
}

} // namespace detail
} // namespace redist
