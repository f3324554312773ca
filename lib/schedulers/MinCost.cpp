//===- MinCost.cpp - Least-cost schedules: local search, then exact -------===//
//
// Three phases, each keeping the best schedule so far:
//  1. Seeds: stepwise (maximum-degree steps) and greedy (when its step count
//     is within the limit).
//  2. Local search from each seed. A move takes a message e in step A and
//     another step B (or an empty one while the limit allows) and swaps the
//     Kempe chain of e: the component of e in the union of A and B, a path
//     or an even cycle alternating between the two matchings. Swapping it
//     leaves both steps matchings, so every state is a valid schedule, and
//     only A's and B's costs change. Moves are accepted by late-acceptance
//     hill climbing (Burke and Bykov): a move is taken when the new cost is
//     at most the current one or the one of H iterations ago, which walks
//     the plateaus a step's cost must cross (every longest message of a
//     step has to leave before its cost drops). Integer costs and our own
//     fixed random sequence keep it deterministic on every machine.
//  3. On small grids, ExactScheduler's branch-and-bound with the best cost
//     as incumbent: it either proves that cost optimal or finds the optimum.
// A schedule meeting rankedLengthBounds' lower bound skips what is left.
//
//===----------------------------------------------------------------------===//

#include "DenseIds.h"
#include "GenBlockSchedulers.h"
#include "SchedulerImpls.h"

#include "redist/Error.h"
#include "redist/MinCost.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

namespace redist {

namespace {

/// splitmix64. The standard distributions differ between standard
/// libraries, and ranks built with different ones must still agree.
class Random {
public:
  int64_t below(int64_t N) {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    Z ^= Z >> 31;
    return static_cast<int64_t>(Z % static_cast<uint64_t>(N));
  }

private:
  uint64_t State = 0x6d696e636f7374; // "mincost"
};

/// Largest step-slot table (slots times processes) the local search builds.
constexpr int64_t MaxSlotCells = int64_t(1) << 25;
/// Late acceptance's history length.
constexpr int64_t History = 32;

class KempeSearch {
public:
  /// Up to Slots steps; the search stops early at LowerBound.
  KempeSearch(const CommGrid &G, int64_t Slots, int64_t LowerBound)
      : N(static_cast<int32_t>(G.Messages.size())), Slots(Slots),
        LowerBound(LowerBound) {
    // Vertices: the processes that send, then those that receive.
    const auto Sources = static_cast<int32_t>(
        detail::denseIds(
            N, [&](int64_t I) { return G.Messages[I].Src; }, G.P, Src)
            .size());
    const auto Targets = static_cast<int32_t>(
        detail::denseIds(
            N, [&](int64_t I) { return G.Messages[I].Dst; }, G.Q, Dst)
            .size());
    for (int32_t &D : Dst)
      D += Sources;
    Vertices = Sources + Targets;
    for (const Message &M : G.Messages)
      Len.push_back(M.Len);
    StepOf.assign(N, -1);
    Pos.assign(N, 0);
    Mark.assign(N, 0);
  }

  /// Whether a search over G with Slots steps fits the slot table limit.
  static bool fits(const CommGrid &G, int64_t Slots) {
    const int64_t Vertices =
        std::min(G.P + G.Q, 2 * static_cast<int64_t>(G.Messages.size()));
    return Slots <= MaxSlotCells / std::max<int64_t>(Vertices, 1);
  }

  /// Starts from S (at most Slots steps), and makes it the best so far.
  void load(const Schedule &S) {
    At.assign(Slots, std::vector<int32_t>(Vertices, -1));
    Members.assign(Slots, {});
    StepCost.assign(Slots, 0);
    for (size_t K = 0; K < S.Steps.size(); ++K)
      for (int64_t Id : S.Steps[K])
        place(static_cast<int32_t>(Id), static_cast<int32_t>(K));
    Cost = 0;
    for (int32_t K = 0; K < Slots; ++K)
      Cost += StepCost[K] = maxOf(K);
    BestCost = Cost;
    BestStepOf = StepOf;
  }

  /// Late-acceptance hill climbing for Iterations moves, or until Stall
  /// moves in a row bring no new best.
  void run(int64_t Iterations, int64_t Stall, Random &R) {
    if (N == 0 || Slots < 2)
      return;
    std::vector<int64_t> Past(History, Cost);
    int64_t LastGain = 0;
    for (int64_t It = 0;
         It < Iterations && BestCost > LowerBound && It - LastGain <= Stall;
         ++It) {
      // A message at random (steps in proportion to their size); half the
      // time one of the longest of its step, the ones that set its cost.
      int32_t E = static_cast<int32_t>(R.below(N));
      const int32_t A = StepOf[E];
      if (R.below(2) == 0) {
        const std::vector<int32_t> &List = Members[A];
        const size_t Start =
            static_cast<size_t>(R.below(static_cast<int64_t>(List.size())));
        for (size_t I = 0; I < List.size(); ++I) {
          const int32_t F = List[(Start + I) % List.size()];
          if (Len[F] == StepCost[A]) {
            E = F;
            break;
          }
        }
      }
      // Half the time a step that E does not make dearer, when a few tries
      // find one.
      int32_t B = 0;
      const int Tries = R.below(2) == 0 ? 4 : 1;
      for (int T = 0; T < Tries; ++T) {
        B = static_cast<int32_t>(R.below(Slots - 1));
        B += B >= A;
        if (StepCost[B] >= Len[E])
          break;
      }
      const int64_t Delta = chainDelta(E, A, B);
      int64_t &Old = Past[It % History];
      if (Delta <= 0 || Cost + Delta <= Old) {
        swapChain(A, B);
        Cost += Delta;
        if (Cost < BestCost) {
          LastGain = It;
          BestCost = Cost;
          BestStepOf = StepOf;
        }
      }
      Old = Cost;
    }
  }

  int64_t bestCost() const { return BestCost; }

  /// The best schedule found, its non-empty steps by decreasing cost.
  Schedule best(const std::string &Name) const {
    std::vector<std::vector<int64_t>> Steps(Slots);
    std::vector<int64_t> Costs(Slots, 0);
    for (int32_t I = 0; I < N; ++I) {
      Steps[BestStepOf[I]].push_back(I);
      Costs[BestStepOf[I]] = std::max(Costs[BestStepOf[I]], Len[I]);
    }
    std::vector<int32_t> Order(Slots);
    std::iota(Order.begin(), Order.end(), 0);
    std::stable_sort(Order.begin(), Order.end(),
                     [&](int32_t X, int32_t Y) { return Costs[X] > Costs[Y]; });
    Schedule S;
    S.Algorithm = Name;
    for (int32_t K : Order)
      if (!Steps[K].empty())
        S.Steps.push_back(std::move(Steps[K]));
    return S;
  }

private:
  int64_t maxOf(int32_t K) const {
    int64_t Max = 0;
    for (int32_t E : Members[K])
      Max = std::max(Max, Len[E]);
    return Max;
  }

  void place(int32_t E, int32_t K) {
    StepOf[E] = K;
    Pos[E] = static_cast<int32_t>(Members[K].size());
    Members[K].push_back(E);
    At[K][Src[E]] = At[K][Dst[E]] = E;
  }

  void unplace(int32_t E) {
    std::vector<int32_t> &List = Members[StepOf[E]];
    List[Pos[E]] = List.back();
    Pos[List.back()] = Pos[E];
    List.pop_back();
    At[StepOf[E]][Src[E]] = At[StepOf[E]][Dst[E]] = -1;
  }

  // Collects E's Kempe chain in steps A and B into Chain (marked with the
  // current stamp) and returns the change of cost that swapping it makes.
  int64_t chainDelta(int32_t E, int32_t A, int32_t B) {
    if (++Stamp == 0) {
      std::fill(Mark.begin(), Mark.end(), 0);
      Stamp = 1;
    }
    Chain.assign(1, E);
    Mark[E] = Stamp;
    for (size_t I = 0; I < Chain.size(); ++I) {
      const int32_t F = Chain[I];
      const int32_t Other = StepOf[F] == A ? B : A;
      for (int32_t X : {Src[F], Dst[F]}) {
        const int32_t Next = At[Other][X];
        if (Next >= 0 && Mark[Next] != Stamp) {
          Mark[Next] = Stamp;
          Chain.push_back(Next);
        }
      }
    }
    NewCost[0] = NewCost[1] = 0;
    for (int Side = 0; Side < 2; ++Side)
      for (int32_t F : Members[Side == 0 ? A : B]) {
        // A chain message changes sides.
        const int Lands = Mark[F] == Stamp ? 1 - Side : Side;
        NewCost[Lands] = std::max(NewCost[Lands], Len[F]);
      }
    return NewCost[0] + NewCost[1] - StepCost[A] - StepCost[B];
  }

  // Swaps the chain chainDelta just collected.
  void swapChain(int32_t A, int32_t B) {
    std::vector<int32_t> &Moved = Chain;
    std::vector<int32_t> Dest(Moved.size());
    for (size_t I = 0; I < Moved.size(); ++I) {
      Dest[I] = StepOf[Moved[I]] == A ? B : A;
      unplace(Moved[I]);
    }
    for (size_t I = 0; I < Moved.size(); ++I)
      place(Moved[I], Dest[I]);
    StepCost[A] = NewCost[0];
    StepCost[B] = NewCost[1];
  }

  const int32_t N;
  const int64_t Slots;
  const int64_t LowerBound;
  int32_t Vertices = 0;
  std::vector<int32_t> Src, Dst; ///< dense vertex of each message's ends
  std::vector<int64_t> Len;
  std::vector<int32_t> StepOf, Pos;     ///< step, and index in its Members
  std::vector<std::vector<int32_t>> At; ///< [step][vertex]: message or -1
  std::vector<std::vector<int32_t>> Members;
  std::vector<int64_t> StepCost;
  int64_t Cost = 0, BestCost = 0;
  std::vector<int32_t> BestStepOf;
  std::vector<int32_t> Chain;
  std::vector<uint32_t> Mark;
  uint32_t Stamp = 0;
  int64_t NewCost[2] = {0, 0};
};

/// Most groups of lengths the band seed splits a grid into.
constexpr size_t MaxBands = 6;

/// The band seed: splits the lengths into contiguous bands, schedules each
/// band's messages apart with stepwise and concatenates the schedules; a
/// dynamic programme picks the bands of least total cost within Limit steps.
/// On desprez-1998's Example 5 the bands {2} and {1} give the optimum, 16.
/// When the lengths take more than MaxBands values, the bands are unions of
/// MaxBands runs of about equal message counts. Returns nothing when no
/// choice of bands fits in Limit steps.
std::optional<Schedule> bandSeed(const CommGrid &G, int64_t Limit) {
  const int64_t N = static_cast<int64_t>(G.Messages.size());
  std::vector<int64_t> Ids(N);
  std::iota(Ids.begin(), Ids.end(), 0);
  std::stable_sort(Ids.begin(), Ids.end(), [&](int64_t A, int64_t B) {
    return G.Messages[A].Len > G.Messages[B].Len;
  });
  // Atom boundaries in Ids: never inside a run of equal lengths.
  std::vector<int64_t> Cuts{0};
  for (int64_t I = 1; I < N; ++I) {
    const bool NewLength = G.Messages[Ids[I]].Len != G.Messages[Ids[I - 1]].Len;
    if (NewLength && I * static_cast<int64_t>(MaxBands) >=
                         (static_cast<int64_t>(Cuts.size())) * N)
      Cuts.push_back(I);
  }
  Cuts.push_back(N);
  const size_t Atoms = Cuts.size() - 1;
  if (Atoms < 2)
    return std::nullopt; // one band: stepwise itself
  // Band [I, J) of atoms: its stepwise schedule, cost and steps.
  std::vector<std::vector<Schedule>> Band(Atoms);
  std::vector<std::vector<int64_t>> BandCost(Atoms), BandSteps(Atoms);
  for (size_t I = 0; I < Atoms; ++I)
    for (size_t J = I + 1; J <= Atoms; ++J) {
      CommGrid Sub;
      Sub.P = G.P;
      Sub.Q = G.Q;
      std::vector<int64_t> Local(Ids.begin() + Cuts[I], Ids.begin() + Cuts[J]);
      std::sort(Local.begin(), Local.end()); // Messages stay sorted
      for (int64_t Id : Local)
        Sub.Messages.push_back(G.Messages[Id]);
      Schedule S = detail::scheduleStepwise(Sub);
      for (std::vector<int64_t> &Step : S.Steps)
        for (int64_t &Id : Step)
          Id = Local[Id];
      BandCost[I].push_back(measureSchedule(G, S).Cost);
      BandSteps[I].push_back(static_cast<int64_t>(S.Steps.size()));
      Band[I].push_back(std::move(S));
    }
  // Best[J][K]: least cost of atoms [0, J) in K steps (K <= Limit), with
  // the start of its last band.
  const int64_t Steps = std::min(Limit, N);
  constexpr int64_t None = std::numeric_limits<int64_t>::max();
  std::vector<std::vector<std::pair<int64_t, size_t>>> Best(
      Atoms + 1, std::vector<std::pair<int64_t, size_t>>(Steps + 1, {None, 0}));
  Best[0][0] = {0, 0};
  for (size_t J = 1; J <= Atoms; ++J)
    for (size_t I = 0; I < J; ++I) {
      const int64_t Cost = BandCost[I][J - I - 1];
      const int64_t Used = BandSteps[I][J - I - 1];
      for (int64_t K = 0; K + Used <= Steps; ++K)
        if (Best[I][K].first != None &&
            Best[I][K].first + Cost < Best[J][K + Used].first)
          Best[J][K + Used] = {Best[I][K].first + Cost, I};
    }
  int64_t K = 0;
  for (int64_t T = 1; T <= Steps; ++T)
    if (Best[Atoms][T].first < Best[Atoms][K].first)
      K = T;
  if (Best[Atoms][K].first == None)
    return std::nullopt;
  Schedule S;
  for (size_t J = Atoms; J > 0;) {
    const size_t I = Best[J][K].second;
    const Schedule &Part = Band[I][J - I - 1];
    S.Steps.insert(S.Steps.end(), Part.Steps.begin(), Part.Steps.end());
    K -= static_cast<int64_t>(Part.Steps.size());
    J = I;
  }
  return S;
}

void checkStepLimit(const CommGrid &G, int64_t Steps) {
  const int64_t Degree = G.maxDegree();
  if (Steps < 0 || (Steps > 0 && Steps < Degree))
    throw InvalidArgument("mincost-steps: " + std::to_string(Steps) +
                          " steps are too few; the grid needs at least " +
                          std::to_string(Degree) +
                          " (the most messages of one process)");
}

} // namespace

Schedule detail::improveMinCost(const CommGrid &G, const MinCostOptions &Opts,
                                std::vector<Schedule> Seeds,
                                MinCostReport *Report) {
  checkStepLimit(G, Opts.Steps);
  const int64_t Messages = static_cast<int64_t>(G.Messages.size());
  const int64_t Degree = G.maxDegree();
  const std::string Name = Opts.Steps > 0 ? "mincost-steps" : "mincost";
  const int64_t Limit = Opts.Steps > 0 ? Opts.Steps : Messages;

  MinCostReport R;
  for (int64_t L : detail::rankedLengthBounds(G))
    R.LowerBound += L;

  Seeds.erase(std::remove_if(Seeds.begin(), Seeds.end(),
                             [&](const Schedule &S) {
                               return static_cast<int64_t>(S.Steps.size()) >
                                      Limit;
                             }),
              Seeds.end());
  if (Seeds.empty())
    Seeds.push_back(detail::scheduleStepwise(G));
  std::vector<int64_t> SeedCosts;
  for (const Schedule &S : Seeds)
    SeedCosts.push_back(measureSchedule(G, S).Cost);
  // Band seeds run stepwise up to 21 times: only where the search runs and
  // the other seeds miss the lower bound.
  const bool Search = Messages <= Opts.SearchMessages;
  if (Search &&
      *std::min_element(SeedCosts.begin(), SeedCosts.end()) > R.LowerBound)
    if (std::optional<Schedule> Bands = bandSeed(G, Limit)) {
      SeedCosts.push_back(measureSchedule(G, *Bands).Cost);
      Seeds.push_back(std::move(*Bands));
    }
  // The cheapest seed first; on a tie the earlier, which has fewer steps.
  const size_t First = static_cast<size_t>(
      std::min_element(SeedCosts.begin(), SeedCosts.end()) - SeedCosts.begin());
  std::swap(Seeds[0], Seeds[First]);
  std::swap(SeedCosts[0], SeedCosts[First]);
  Schedule Best = std::move(Seeds[0]);
  Best.Algorithm = Name;
  R.SeedCost = R.SearchCost = R.Cost = SeedCosts[0];

  // Room for every seed's steps, and as many again as the grid's degree for
  // schedules with more, cheaper steps.
  int64_t Slots = Degree;
  for (const Schedule &S : Seeds)
    Slots = std::max(Slots, static_cast<int64_t>(S.Steps.size()));
  Slots = std::min(Limit, Slots + Degree);
  if (R.Cost > R.LowerBound && Search && KempeSearch::fits(G, Slots)) {
    KempeSearch Search(G, Slots, R.LowerBound);
    Random Rng;
    for (size_t I = 0; I < Seeds.size() && R.Cost > R.LowerBound; ++I) {
      Search.load(I == 0 ? Best : Seeds[I]);
      Search.run(Opts.SearchIterations, Opts.SearchStall, Rng);
      if (Search.bestCost() < R.Cost) {
        Best = Search.best(Name);
        R.Cost = Search.bestCost();
      }
    }
    R.SearchCost = R.Cost;
  }

  R.ProvedOptimal = R.Cost == R.LowerBound;
  // The exact search represents steps as 64-bit masks.
  if (!R.ProvedOptimal &&
      Messages <= std::min<int64_t>(Opts.ExactMessages, 64)) {
    detail::ExactOutcome Exact =
        detail::searchExact(G, Limit, Opts.ExactNodes, R.Cost);
    if (Exact.Best) {
      Best = std::move(*Exact.Best);
      Best.Algorithm = Name;
      R.Cost = measureSchedule(G, Best).Cost;
    }
    R.ProvedOptimal = Exact.Complete;
  }
  Best.Steps.erase(std::remove_if(Best.Steps.begin(), Best.Steps.end(),
                                  [](const std::vector<int64_t> &Step) {
                                    return Step.empty();
                                  }),
                   Best.Steps.end());
  if (Report)
    *Report = R;
  return Best;
}

Schedule makeMinCostSchedule(const CommGrid &G, const MinCostOptions &Opts,
                             MinCostReport *Report) {
  checkStepLimit(G, Opts.Steps);
  std::vector<Schedule> Seeds;
  Seeds.push_back(detail::scheduleStepwise(G));
  Seeds.push_back(detail::scheduleGreedy(G));
  return detail::improveMinCost(G, Opts, std::move(Seeds), Report);
}

int64_t leastStepLimit(const CommGrid &G) {
  return std::max<int64_t>(G.maxDegree(), 1);
}

} // namespace redist
