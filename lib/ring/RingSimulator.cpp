//===- RingSimulator.cpp - Replaying, timing and cutting ring schedules ---===//

#include "redist/RingSimulator.h"
#include "RingAlgorithms.h"

#include "redist/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <tuple>

namespace redist {

namespace {

using ring::wrap;

/// Item-level replays allocate per item: refuse absurd totals clearly.
constexpr std::int64_t MaxReplayedItems = 50'000'000;

std::string transferText(std::size_t K, const RingTransfer &T) {
  return "transfer " + std::to_string(K) + " (from " + std::to_string(T.From) +
         ", dir " + std::to_string(T.Dir) + ")";
}

struct Interval {
  double Begin, End;
  std::size_t Transfer;
};

/// The first pair of overlapping intervals, as an error naming What.
std::string overlap(std::vector<Interval> &Spans, double Tol,
                    const std::string &What) {
  std::sort(Spans.begin(), Spans.end(),
            [](const Interval &A, const Interval &B) {
              return std::tie(A.Begin, A.End) < std::tie(B.Begin, B.End);
            });
  for (std::size_t I = 1; I < Spans.size(); ++I)
    if (Spans[I].Begin < Spans[I - 1].End - Tol)
      return What + " during transfers " +
             std::to_string(Spans[I - 1].Transfer) + " and " +
             std::to_string(Spans[I].Transfer);
  return "";
}

void checkFlows(const RingProblem &P, const std::vector<std::int64_t> &Fwd,
                const std::vector<std::int64_t> &Bwd) {
  const std::int64_t N = P.size();
  if (static_cast<std::int64_t>(Fwd.size()) != N ||
      static_cast<std::int64_t>(Bwd.size()) != N)
    throw InvalidArgument("ring flows: one forward and one backward count per "
                          "process expected");
  for (std::int64_t I = 0; I < N; ++I) {
    if (Fwd[I] < 0 || Bwd[I] < 0)
      throw InvalidArgument("ring flows: process " + std::to_string(I) +
                            " has a negative count");
    if (Bwd[I] > 0 && !P.Bidirectional)
      throw InvalidArgument("ring flows: process " + std::to_string(I) +
                            " sends backwards on a unidirectional ring");
    if (N == 1 && Fwd[I] + Bwd[I] > 0)
      throw InvalidArgument("ring flows: a ring of one process has no links");
  }
  for (std::int64_t I = 0; I < N; ++I) {
    const std::int64_t Final = P.Loads[I] - Fwd[I] - Bwd[I] +
                               Fwd[wrap(I - 1, N)] + Bwd[wrap(I + 1, N)];
    if (Final != P.Targets[I])
      throw InvalidArgument("ring flows leave process " + std::to_string(I) +
                            " with " + std::to_string(Final) +
                            " items instead of its target " +
                            std::to_string(P.Targets[I]));
  }
}

} // namespace

void sortRingTransfers(std::vector<RingTransfer> &Transfers) {
  std::stable_sort(Transfers.begin(), Transfers.end(),
                   [](const RingTransfer &A, const RingTransfer &B) {
                     return std::make_tuple(A.Start, A.From, -A.Dir) <
                            std::make_tuple(B.Start, B.From, -B.Dir);
                   });
}

void countRingTransfers(std::int64_t N,
                        const std::vector<RingTransfer> &Transfers,
                        std::vector<std::int64_t> &Fwd,
                        std::vector<std::int64_t> &Bwd) {
  Fwd.assign(N, 0);
  Bwd.assign(N, 0);
  for (const RingTransfer &T : Transfers)
    (T.Dir > 0 ? Fwd : Bwd)[T.From] += T.Items;
}

double ringMakespan(const RingProblem &P,
                    const std::vector<RingTransfer> &Transfers) {
  double Makespan = 0;
  for (const RingTransfer &T : Transfers)
    Makespan = std::max(Makespan, T.Start + static_cast<double>(T.Items) *
                                                P.cost(T.From, T.Dir));
  return Makespan;
}

RingCheck checkRingSchedule(const RingProblem &P,
                            const std::vector<RingTransfer> &Transfers) {
  RingCheck R;
  const std::int64_t N = P.size();
  R.Fwd.assign(N, 0);
  R.Bwd.assign(N, 0);
  std::vector<std::vector<Interval>> Sends(N), Receives(N);
  std::int64_t Items = 0;
  for (std::size_t K = 0; K < Transfers.size(); ++K) {
    const RingTransfer &T = Transfers[K];
    if (T.From < 0 || T.From >= N) {
      R.Error = transferText(K, T) + ": no such process";
      return R;
    }
    if (T.Dir != 1 && T.Dir != -1) {
      R.Error = transferText(K, T) + ": the direction must be 1 or -1";
      return R;
    }
    if (T.Dir < 0 && !P.Bidirectional) {
      R.Error = transferText(K, T) + ": backwards on a unidirectional ring";
      return R;
    }
    if (N == 1) {
      R.Error = transferText(K, T) + ": a ring of one process has no links";
      return R;
    }
    if (T.Items < 1 || T.Items > MaxReplayedItems - Items) {
      R.Error = transferText(K, T) + ": " + std::to_string(T.Items) +
                " items (at least 1, and at most " +
                std::to_string(MaxReplayedItems) + " in all)";
      return R;
    }
    if (!(T.Start >= 0) || !std::isfinite(T.Start)) {
      R.Error = transferText(K, T) + ": the start must be a time >= 0";
      return R;
    }
    Items += T.Items;
    const double End =
        T.Start + static_cast<double>(T.Items) * P.cost(T.From, T.Dir);
    Sends[T.From].push_back({T.Start, End, K});
    Receives[wrap(T.From + T.Dir, N)].push_back({T.Start, End, K});
    (T.Dir > 0 ? R.Fwd : R.Bwd)[T.From] += T.Items;
    R.Makespan = std::max(R.Makespan, End);
  }
  const double Tol = ringTimeTolerance(R.Makespan);
  for (std::int64_t I = 0; I < N; ++I) {
    const std::string Who = "process " + std::to_string(I);
    R.Error = overlap(Sends[I], Tol, Who + " sends two items at once");
    if (R.Error.empty())
      R.Error = overlap(Receives[I], Tol, Who + " receives two items at once");
    if (!R.Error.empty())
      return R;
  }
  // Holdings: after each departure, count the arrivals up to that time
  // (an item that arrives at t can leave at t).
  std::vector<std::vector<double>> Departures(N), Arrivals(N);
  for (const RingTransfer &T : Transfers) {
    const double C = P.cost(T.From, T.Dir);
    const std::int64_t To = wrap(T.From + T.Dir, N);
    for (std::int64_t U = 0; U < T.Items; ++U) {
      Departures[T.From].push_back(T.Start + static_cast<double>(U) * C);
      Arrivals[To].push_back(T.Start + static_cast<double>(U + 1) * C);
    }
  }
  for (std::int64_t I = 0; I < N; ++I) {
    std::sort(Departures[I].begin(), Departures[I].end());
    std::sort(Arrivals[I].begin(), Arrivals[I].end());
    std::size_t Arrived = 0;
    for (std::size_t D = 0; D < Departures[I].size(); ++D) {
      while (Arrived < Arrivals[I].size() &&
             Arrivals[I][Arrived] <= Departures[I][D] + Tol)
        ++Arrived;
      const std::int64_t Held = P.Loads[I] +
                                static_cast<std::int64_t>(Arrived) -
                                static_cast<std::int64_t>(D + 1);
      if (Held < 0) {
        R.Error = "process " + std::to_string(I) +
                  " sends an item it does not hold at time " +
                  std::to_string(Departures[I][D]);
        return R;
      }
    }
    const std::int64_t Final = P.Loads[I] +
                               static_cast<std::int64_t>(Arrivals[I].size()) -
                               static_cast<std::int64_t>(Departures[I].size());
    if (Final != P.Targets[I]) {
      R.Error = "process " + std::to_string(I) + " ends with " +
                std::to_string(Final) + " items instead of its target " +
                std::to_string(P.Targets[I]);
      return R;
    }
  }
  return R;
}

std::vector<RingTransfer> runRingFlows(const RingProblem &P,
                                       const std::vector<std::int64_t> &Fwd,
                                       const std::vector<std::int64_t> &Bwd,
                                       RingPriority Priority) {
  validateRingProblem(P);
  checkFlows(P, Fwd, Bwd);
  const std::int64_t N = P.size();
  // Light flows (no process sends more than it holds at the start) never
  // wait for items: then the greedy below sends each link's items back to
  // back, the preferred direction from time 0 and the other as soon as both
  // the sender and the receiver are done with the preferred one (the
  // paper's Lemma 9 schedule). Computed directly, in O(n).
  if (ring::lightFlows(P, Fwd, Bwd)) {
    const bool ForwardFirst = Priority == RingPriority::ForwardFirst;
    const std::vector<std::int64_t> &First = ForwardFirst ? Fwd : Bwd;
    const std::vector<std::int64_t> &Second = ForwardFirst ? Bwd : Fwd;
    const int FirstDir = ForwardFirst ? 1 : -1;
    std::vector<RingTransfer> Out;
    for (std::int64_t I = 0; I < N; ++I)
      if (First[I] > 0)
        Out.push_back({I, FirstDir, 0, First[I]});
    for (std::int64_t I = 0; I < N; ++I) {
      if (Second[I] == 0)
        continue;
      // The receiver, I - FirstDir, is busy until its other neighbour,
      // I - 2 * FirstDir, has sent it everything in the first direction.
      const std::int64_t Other = wrap(I - 2 * FirstDir, N);
      const double Start =
          std::max(static_cast<double>(First[I]) * P.cost(I, FirstDir),
                   static_cast<double>(First[Other]) * P.cost(Other, FirstDir));
      Out.push_back({I, -FirstDir, Start, Second[I]});
    }
    sortRingTransfers(Out);
    return Out;
  }
  std::int64_t Remaining = 0;
  for (std::int64_t I = 0; I < N; ++I) {
    Remaining += Fwd[I] + Bwd[I];
    if (Remaining > MaxReplayedItems)
      throw InvalidArgument("ring flows: more than " +
                            std::to_string(MaxReplayedItems) +
                            " item moves to simulate");
  }
  std::vector<std::int64_t> Left[2] = {Fwd, Bwd}; // [0] forward, [1] back
  std::vector<std::int64_t> Sent(N, 0);
  std::vector<double> SendFree(N, 0), ReceiveFree(N, 0);
  std::vector<std::vector<double>> Arrivals(N); // sorted
  // Per process, the transfer of its last item.
  std::vector<std::int64_t> Last(N, -1);
  std::vector<RingTransfer> Out;
  const int First = Priority == RingPriority::ForwardFirst ? 0 : 1;
  const double Never = std::numeric_limits<double>::infinity();
  while (Remaining > 0) {
    // The item that can start first; ties go to the preferred direction,
    // then to the lower process.
    double BestTime = Never;
    std::int64_t BestFrom = -1;
    int BestSide = 0;
    for (int Rank = 0; Rank < 2; ++Rank) {
      const int Side = Rank == 0 ? First : 1 - First;
      for (std::int64_t I = 0; I < N; ++I) {
        if (Left[Side][I] == 0)
          continue;
        const std::int64_t To = wrap(I + (Side == 0 ? 1 : -1), N);
        double T = std::max(SendFree[I], ReceiveFree[To]);
        const std::int64_t Needed = Sent[I] + 1 - P.Loads[I];
        if (Needed > 0) {
          if (Needed > static_cast<std::int64_t>(Arrivals[I].size()))
            continue; // waits for an item no one has sent yet
          T = std::max(T, Arrivals[I][Needed - 1]);
        }
        if (T < BestTime) {
          BestTime = T;
          BestFrom = I;
          BestSide = Side;
        }
      }
    }
    if (BestFrom < 0)
      throw InvalidArgument("ring flows cannot be executed: every process "
                            "that still has to send waits for items that "
                            "no one sends");
    const int Dir = BestSide == 0 ? 1 : -1;
    const double C = P.cost(BestFrom, Dir);
    const std::int64_t To = wrap(BestFrom + Dir, N);
    const double End = BestTime + C;
    // Extend the process's last transfer if this item follows it at once.
    std::int64_t &Prev = Last[BestFrom];
    if (Prev >= 0 && Out[Prev].Dir == Dir && SendFree[BestFrom] == BestTime) {
      ++Out[Prev].Items;
    } else {
      Prev = static_cast<std::int64_t>(Out.size());
      Out.push_back({BestFrom, Dir, BestTime, 1});
    }
    SendFree[BestFrom] = End;
    ReceiveFree[To] = End;
    ++Sent[BestFrom];
    --Left[BestSide][BestFrom];
    --Remaining;
    std::vector<double> &A = Arrivals[To];
    A.insert(std::upper_bound(A.begin(), A.end(), End), End);
  }
  sortRingTransfers(Out);
  return Out;
}

std::vector<RingTransfer>
chunkRingTransfers(const RingProblem &P,
                   const std::vector<RingTransfer> &Transfers,
                   std::int64_t MaxItems) {
  const std::int64_t N = P.size();
  const double Tol = ringTimeTolerance(ringMakespan(P, Transfers));
  if (MaxItems <= 0)
    MaxItems = std::numeric_limits<std::int64_t>::max();
  // Each transfer's next piece becomes ready at Ready; pieces are cut in
  // order of readiness, so a piece only counts pieces cut before it.
  struct Cursor {
    double Ready;
    std::int64_t From;
    int Dir;
    std::size_t Index;
    bool operator>(const Cursor &O) const {
      return std::make_tuple(Ready, From, -Dir, Index) >
             std::make_tuple(O.Ready, O.From, -O.Dir, O.Index);
    }
  };
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<Cursor>> Queue;
  std::vector<std::int64_t> Left(Transfers.size());
  for (std::size_t K = 0; K < Transfers.size(); ++K) {
    Left[K] = Transfers[K].Items;
    Queue.push({Transfers[K].Start, Transfers[K].From, Transfers[K].Dir, K});
  }
  // Per process: items of pieces that have arrived by the time being cut
  // (times only grow), and the pieces still in flight, earliest first.
  using Arrival = std::pair<double, std::int64_t>;
  std::vector<
      std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>>>
      InFlight(N);
  std::vector<std::int64_t> Arrived(N, 0);
  std::vector<std::int64_t> Sent(N, 0);
  std::vector<std::vector<std::size_t>> Blocked(N);
  std::vector<RingTransfer> Pieces;
  while (!Queue.empty()) {
    Cursor C = Queue.top();
    Queue.pop();
    auto &Flying = InFlight[C.From];
    while (!Flying.empty() && Flying.top().first <= C.Ready + Tol) {
      Arrived[C.From] += Flying.top().second;
      Flying.pop();
    }
    const std::int64_t Held = P.Loads[C.From] + Arrived[C.From] - Sent[C.From];
    const double NextArrival = Flying.empty()
                                   ? std::numeric_limits<double>::infinity()
                                   : Flying.top().first;
    if (Held <= 0) {
      // Wait for the next piece into this process: one already cut, or
      // else the next one cut.
      if (NextArrival < std::numeric_limits<double>::infinity())
        Queue.push({NextArrival, C.From, C.Dir, C.Index});
      else
        Blocked[C.From].push_back(C.Index);
      continue;
    }
    const std::int64_t Items = std::min({Held, Left[C.Index], MaxItems});
    const double End =
        C.Ready + static_cast<double>(Items) * P.cost(C.From, C.Dir);
    Pieces.push_back({C.From, C.Dir, C.Ready, Items});
    Sent[C.From] += Items;
    Left[C.Index] -= Items;
    if (Left[C.Index] > 0)
      Queue.push({End, C.From, C.Dir, C.Index});
    const std::int64_t To = wrap(C.From + C.Dir, N);
    InFlight[To].push({End, Items});
    for (std::size_t K : Blocked[To])
      Queue.push({End, Transfers[K].From, Transfers[K].Dir, K});
    Blocked[To].clear();
  }
  for (std::int64_t I = 0; I < N; ++I)
    if (!Blocked[I].empty())
      throw InvalidArgument("ring schedule cannot be cut into pieces: "
                            "process " +
                            std::to_string(I) + " waits for items forever");
  sortRingTransfers(Pieces);
  return Pieces;
}

} // namespace redist
