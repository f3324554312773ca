//===- StepMatcher.cpp - Exact matchings peeled off a shrinking grid ------===//
//
// Primal-dual method for the step problem of StepMatcher.h.
//
// Exactness. By LP duality for bipartite matching (whose polytope is
// integral), M is optimal when there are duals y with
//   y(u) + y(v) >= w(u, v) on every remaining edge, with equality on M,
//   y(v) >= Floor(v) for every optional vertex (Floor = -Bonus),
//   y(v) == Floor(v) for every optional vertex M leaves unmatched,
//   every required vertex matched.
// Required vertices are equality constraints of the LP (their duals are
// free), not a large bonus M added to their edges' weights, so weights stay
// small and no big-M choice can overflow or be too small. A step keeps the
// duals feasible and grows M on tight edges (y(u) + y(v) == w(u, v)) until no
// vertex "needs a mate" (is unmatched and required, or has y > Floor): then
// the certificate above holds. All quantities are integers, so it is exact;
// ties are broken by vertex and arc order, so it is deterministic.
//
// Speed. The LP/Hungarian route of desprez-1998 §4.5 costs O((P + Q)^3) per
// step, O((P + Q)^4) per schedule. Here:
//  - Warm start: removing a matching deletes constraints, so the previous
//    step's duals stay feasible; on block-cyclic grids they are usually
//    optimal again, and the step is found among tight edges alone.
//  - Tight rounds: breadth-first searches for augmenting paths of tight
//    edges that stop at the first endpoint they see, started from the free
//    vertices that need no mate (towards those that need one: short when
//    the free vertices have few tight edges) and then from the vertices
//    that need a mate. A failed search marks what it visited dead until the
//    duals change (Kuhn's method), so a round costs at most one pass, and a
//    vertex whose scan found no tight arc is skipped until they change.
//  - Dual phases: when tight paths run out, one Dijkstra search on reduced
//    costs from all the vertices of one side that need a mate (the
//    Hungarian dual update for many roots at once). On the 1024 x 1024
//    all-to-all grid, 32 of them serve all 1024 steps.
//  - Weight levels: lengths take few distinct values (at most r + s - 1 per
//    slice), so each vertex lists its arcs by decreasing weight. Scans for
//    tight arcs stop at the first arc lighter than y(v) + min y(far side),
//    and Dijkstra relaxes a vertex's arcs lazily, in that order, only once
//    the search distance reaches their lower bound: searches touch the heavy
//    arcs, which are the ones that matter.
//  - Latin-square order: within a weight, source p lists target q by
//    (q - p) mod Q (targets likewise), so the greedy first pass of a step
//    spreads over distinct partners; on regular tight subgraphs it is
//    nearly a perfect matching already, which is how those subgraphs get
//    decomposed into perfect matchings without a separate Euler-splitting
//    pass. The pass starts with the side whose lists mix fewer weights
//    (chooseGreedySide): 30 times faster on some incomplete slices.
//  - Removed arcs are skipped by union-find "next live arc" pointers.
// Measured with bench-scheduling: P = Q = 1024, r = 1000, s = 1001, one
// million messages in 1024 steps, in about a third of a second.
//
//===----------------------------------------------------------------------===//

#include "StepMatcher.h"

#include "DenseIds.h"

#include "redist/Error.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace redist {
namespace detail {

namespace {

// Heap event kinds, in the order they are taken at equal keys.
constexpr int32_t ReachEvent = 0; // a far-side vertex is reached
constexpr int32_t ScanEvent = 1;  // a settled vertex's next arcs may matter
constexpr int32_t FloorEvent = 2; // a near-side dual reaches its floor

} // namespace

StepMatcher::StepMatcher(const CommGrid &G, int64_t Scale) {
  const int64_t NumE = static_cast<int64_t>(G.Messages.size());
  if (NumE > std::numeric_limits<int32_t>::max() / 2)
    throw InvalidArgument("grid too large to schedule by matchings: " +
                          std::to_string(NumE) + " messages");
  if (Scale < 1)
    throw std::logic_error("StepMatcher: weight scale must be positive");
  for (int64_t E = 0; E < NumE; ++E) {
    const Message &M = G.Messages[E];
    if (M.Src < 0 || M.Src >= G.P || M.Dst < 0 || M.Dst >= G.Q)
      throw InvalidArgument("message " + std::to_string(E) + " (" +
                            std::to_string(M.Src) + " -> " +
                            std::to_string(M.Dst) +
                            ") names a process outside the grid");
    if (M.Len < 0)
      throw InvalidArgument("message " + std::to_string(E) +
                            " has negative length " + std::to_string(M.Len));
  }
  // Vertices: the processes that send, then those that receive.
  ProcessOf = denseIds(
      NumE, [&](int64_t E) { return G.Messages[E].Src; }, G.P, EdgeSrc);
  NumSources = static_cast<int32_t>(ProcessOf.size());
  const std::vector<int64_t> Targets = denseIds(
      NumE, [&](int64_t E) { return G.Messages[E].Dst; }, G.Q, EdgeDst);
  ProcessOf.insert(ProcessOf.end(), Targets.begin(), Targets.end());
  const int32_t NumV = static_cast<int32_t>(ProcessOf.size());

  Remaining = NumE;
  Degree.assign(NumV, 0);
  for (int64_t E = 0; E < NumE; ++E) {
    EdgeDst[E] += NumSources;
    ++Degree[EdgeSrc[E]];
    ++Degree[EdgeDst[E]];
  }
  buildLevels(G, Scale);
  buildLists(G);
  chooseGreedySide();

  // Initial feasible duals: a source covers its heaviest edge alone.
  Y.assign(NumV, 0);
  for (int32_t V = 0; V < NumSources; ++V)
    if (Degree[V] > 0)
      Y[V] = weight(arcs(V)[0]);
  Floor.assign(NumV, 0);
  Required.assign(NumV, 0);
  Mate.assign(NumV, -1);
  Dist.assign(NumV, 0);
  PredEdge.assign(NumV, -1);
  SeenStamp.assign(NumV, 0);
  DoneStamp.assign(NumV, 0);
  DeadStamp.assign(NumV, 0);
  NoTightStamp.assign(NumV, 0);
  Cursor.assign(NumV, 0);
}

int64_t StepMatcher::weightLimit(const CommGrid &G) {
  const int64_t Vertices =
      std::min(G.P + G.Q, 2 * static_cast<int64_t>(G.Messages.size()));
  return std::numeric_limits<int64_t>::max() / (8 * (Vertices + 2));
}

// Collects the distinct weights and sets each edge's level. Grids have few
// distinct lengths, usually in runs, so a small sorted set with a last-value
// shortcut does it in linear time; with many distinct lengths, sort them all.
void StepMatcher::buildLevels(const CommGrid &G, int64_t Scale) {
  const int64_t Limit = weightLimit(G) / Scale;
  constexpr size_t SmallSet = 1024;
  std::vector<int64_t> Ascending;
  int64_t Last = -1;
  for (const Message &M : G.Messages) {
    if (M.Len == Last)
      continue;
    if (M.Len > Limit)
      throw InvalidArgument("message length " + std::to_string(M.Len) +
                            " too large to schedule exactly in 64-bit "
                            "arithmetic");
    Last = M.Len;
    auto It = std::lower_bound(Ascending.begin(), Ascending.end(), M.Len);
    if (It != Ascending.end() && *It == M.Len)
      continue;
    if (Ascending.size() == SmallSet) {
      Ascending.clear();
      for (const Message &All : G.Messages)
        Ascending.push_back(All.Len);
      std::sort(Ascending.begin(), Ascending.end());
      Ascending.erase(std::unique(Ascending.begin(), Ascending.end()),
                      Ascending.end());
      break;
    }
    Ascending.insert(It, M.Len);
  }
  Levels.assign(Ascending.rbegin(), Ascending.rend());
  for (int64_t &W : Levels)
    W *= Scale;

  // Each edge's level goes to PosAtSrc, which buildLists reads before it
  // fills it with positions: a temporary of its own would be another
  // array as long as the grid to fault in.
  RawVector<int32_t> &EdgeLevel = PosAtSrc;
  EdgeLevel.resize(G.Messages.size());
  int64_t LastLen = -1;
  int32_t LastLevel = 0;
  for (size_t E = 0; E < G.Messages.size(); ++E) {
    const int64_t Len = G.Messages[E].Len;
    if (Len != LastLen) {
      LastLen = Len;
      LastLevel = static_cast<int32_t>(Ascending.size()) - 1 -
                  static_cast<int32_t>(std::lower_bound(Ascending.begin(),
                                                        Ascending.end(), Len) -
                                       Ascending.begin());
    }
    EdgeLevel[E] = LastLevel;
  }
}

// Fills every vertex's arc list. Within one weight, source p lists target q
// in the order of (q - p) mod Q and target q lists source p in the order of
// (p - q) mod P: vertices that scan their lists in the same pass then favour
// different partners, as in a Latin square, instead of all competing for the
// lowest-numbered ones.
void StepMatcher::buildLists(const CommGrid &G) {
  const int32_t NumV = static_cast<int32_t>(Degree.size());
  const int32_t NumE = static_cast<int32_t>(EdgeSrc.size());
  Begin.assign(NumV + 1, 0);
  for (int32_t V = 0; V < NumV; ++V)
    Begin[V + 1] = Begin[V] + Degree[V] + 1; // + 1: the sentinel
  Arcs.resize(Begin[NumV]);
  ArcEdge.resize(Begin[NumV]);
  Skip.resize(Begin[NumV]);
  PosAtDst.resize(NumE);
  // Distribute the arcs in one sequential pass over the edges: a source's
  // arcs land together, a target's are scattered but written only once.
  // PosAtSrc holds the edges' levels until the loop over the vertices
  // below.
  const RawVector<int32_t> &EdgeLevel = PosAtSrc;
  std::vector<int64_t> Fill(Begin.begin(), Begin.end() - 1);
  for (int32_t E = 0; E < NumE; ++E) {
    const int32_t S = EdgeSrc[E], D = EdgeDst[E], L = EdgeLevel[E];
    ArcEdge[Fill[S]] = E;
    Arcs[Fill[S]++] = Arc{D, L};
    ArcEdge[Fill[D]] = E;
    Arcs[Fill[D]++] = Arc{S, L};
  }

  struct Entry {
    int32_t Level, To, Edge;
  };
  std::vector<Entry> List;
  std::vector<int32_t> Count(Levels.size() + 1);
  std::vector<Entry> Sorted;
  for (int32_t V = 0; V < NumV; ++V) {
    const bool IsSource = V < NumSources;
    List.clear();
    for (int64_t I = Begin[V]; I < Begin[V] + Degree[V]; ++I)
      List.push_back(Entry{Arcs[I].Level, Arcs[I].To, ArcEdge[I]});
    // By partner (already so when the messages come sorted, as computeGrid
    // makes them), then rotated to start at the partner of the same number.
    auto ByPartner = [](const Entry &A, const Entry &B) { return A.To < B.To; };
    if (!std::is_sorted(List.begin(), List.end(), ByPartner))
      std::sort(List.begin(), List.end(), ByPartner);
    const int64_t Self = ProcessOf[V] % (IsSource ? G.Q : G.P);
    const size_t N = List.size();
    const size_t Start = static_cast<size_t>(
        std::lower_bound(List.begin(), List.end(), Self,
                         [&](const Entry &A, int64_t Process) {
                           return ProcessOf[A.To] < Process;
                         }) -
        List.begin());
    // Entry I of the list rotated to start there.
    auto Rotated = [&](size_t I) -> const Entry & {
      return List[I + Start < N ? I + Start : I + Start - N];
    };
    // Stable counting sort by level when the levels are few, else a merge
    // sort; both keep the rotated order within a level. One level (all
    // messages of one length, as in block transposes) needs no sort.
    const Entry *Final = nullptr;
    if (Levels.size() == 1) {
      // Final stays null: the rotated list is the order.
    } else if (Levels.size() <= N) {
      std::fill(Count.begin(), Count.end(), 0);
      for (const Entry &A : List)
        ++Count[A.Level + 1];
      for (size_t L = 1; L < Count.size(); ++L)
        Count[L] += Count[L - 1];
      Sorted.resize(N);
      for (size_t I = 0; I < N; ++I) {
        const Entry &A = Rotated(I);
        Sorted[Count[A.Level]++] = A;
      }
      Final = Sorted.data();
    } else {
      std::rotate(List.begin(),
                  List.begin() + static_cast<std::ptrdiff_t>(Start),
                  List.end());
      std::stable_sort(
          List.begin(), List.end(),
          [](const Entry &A, const Entry &B) { return A.Level < B.Level; });
      Final = List.data();
    }
    RawVector<int32_t> &Pos = IsSource ? PosAtSrc : PosAtDst;
    const int32_t Deg = Degree[V];
    for (int32_t I = 0; I < Deg; ++I) {
      const Entry &A = Final ? Final[I] : Rotated(static_cast<size_t>(I));
      Arcs[Begin[V] + I] = Arc{A.To, A.Level};
      ArcEdge[Begin[V] + I] = A.Edge;
      Skip[Begin[V] + I] = I;
      Pos[A.Edge] = I;
    }
    Arcs[Begin[V] + Deg] = Arc{-1, static_cast<int32_t>(Levels.size())};
    ArcEdge[Begin[V] + Deg] = -1;
    Skip[Begin[V] + Deg] = Deg;
  }
  // The sentinel's level: a weight below every real one, so that scans
  // bounded by weight stop on it.
  Levels.push_back(std::numeric_limits<int64_t>::min() / 4);
}

int64_t StepMatcher::maxDegree() const {
  int32_t Max = 0;
  for (int32_t D : Degree)
    Max = std::max(Max, D);
  return Max;
}

void StepMatcher::setBonus(int64_t V, int64_t Bonus) {
  // A lower floor (larger bonus) only loosens y(V) >= Floor(V). A higher one
  // may need y(V) raised to it, which keeps every edge constraint satisfied;
  // raising no more than that keeps V's tight edges tight.
  Floor[V] = -Bonus;
  Y[V] = std::max(Y[V], Floor[V]);
}

int32_t StepMatcher::nextLive(int32_t V, int32_t K) {
  int32_t *Next = &Skip[Begin[V]];
  int32_t Root = K;
  while (Next[Root] != Root)
    Root = Next[Root];
  while (Next[K] != Root) {
    int32_t Up = Next[K];
    Next[K] = Root;
    K = Up;
  }
  return Root;
}

void StepMatcher::removeEdge(int32_t E) {
  Skip[Begin[EdgeSrc[E]] + PosAtSrc[E]] = PosAtSrc[E] + 1;
  Skip[Begin[EdgeDst[E]] + PosAtDst[E]] = PosAtDst[E] + 1;
  --Degree[EdgeSrc[E]];
  --Degree[EdgeDst[E]];
  --Remaining;
}

void StepMatcher::updateMinY() {
  MinY[0] = MinY[1] = std::numeric_limits<int64_t>::max() / 4;
  for (int32_t V = 0; V < static_cast<int32_t>(Degree.size()); ++V)
    if (Degree[V] > 0) {
      int64_t &Min = MinY[V >= NumSources];
      Min = std::min(Min, Y[V]);
    }
}

uint32_t StepMatcher::nextStamp() {
  if (++Stamp == 0) { // wrapped: old stamps could alias
    std::fill(SeenStamp.begin(), SeenStamp.end(), 0);
    std::fill(DoneStamp.begin(), DoneStamp.end(), 0);
    std::fill(DeadStamp.begin(), DeadStamp.end(), 0);
    Stamp = 1;
  }
  return Stamp;
}

// Within one weight the lists rotate like a Latin square, so a greedy pass
// over vertices whose tight arcs have one weight is nearly a perfect
// matching. Where one side's lists put a heavier group of partners first (an
// incomplete slice: CYCLIC -> CYCLIC(2048) on 1024 processes, whose last
// slice lengthens the messages to a few hundred targets), all its vertices
// compete for that group and leave hundreds unmatched at every step, which
// the tight searches then fix at thirty times the cost of the whole slice.
// Such a side goes second.
void StepMatcher::chooseGreedySide() {
  const int32_t NumV = static_cast<int32_t>(Degree.size());
  int64_t Changes[2] = {0, 0}, Count[2] = {0, 0};
  for (int32_t V = 0; V < NumV; ++V) {
    const int Side = V >= NumSources;
    ++Count[Side];
    for (int32_t K = 1; K < Degree[V]; ++K)
      Changes[Side] += arcs(V)[K].Level != arcs(V)[K - 1].Level;
  }
  // Weight changes per target list under a quarter of those per source
  // list; otherwise the sources go first, as they always did.
  GreedyTargetsFirst =
      4.0 * static_cast<double>(Changes[1]) * static_cast<double>(Count[0]) <
      static_cast<double>(Changes[0]) * static_cast<double>(Count[1]);
}

void StepMatcher::matchTightGreedily() {
  const int32_t NumV = static_cast<int32_t>(Degree.size());
  const int32_t Shift = GreedyTargetsFirst ? NumSources : 0;
  for (int32_t I = 0; I < NumV; ++I) {
    const int32_t V = I + Shift < NumV ? I + Shift : I + Shift - NumV;
    if (!needsMate(V))
      continue;
    const Arc *List = arcs(V);
    const int64_t Lightest = lightestTight(V);
    bool AnyTight = false;
    for (int32_t K = nextLive(V, 0); weight(List[K]) >= Lightest;
         K = nextLive(V, K + 1)) {
      const Arc &A = List[K];
      if (!isTight(V, A))
        continue;
      AnyTight = true;
      if (Mate[A.To] < 0) {
        Mate[V] = Mate[A.To] = arcEdge(V, K);
        break;
      }
    }
    if (!AnyTight)
      NoTightStamp[V] = DualEpoch;
  }
}

// Re-matches along the search tree from far-side vertex B back to a root: B
// takes the edge it was reached by, whose near-side end gives up its old mate
// edge to the far-side vertex that edge leads to, and so on until a vertex
// that had no mate.
void StepMatcher::flipPathTo(int32_t B) {
  while (true) {
    int32_t E = PredEdge[B];
    int32_t X = otherEnd(E, B);
    int32_t Old = Mate[X];
    Mate[B] = Mate[X] = E;
    if (Old < 0)
      return;
    B = otherEnd(Old, X);
  }
}

// Breadth-first search for an augmenting path of tight edges from Root (short
// paths first, and an endpoint next to a scanned vertex ends the search at
// once). A root that needs a mate may end at any free far-side vertex, or by
// freeing a matched near-side vertex that may stay unmatched (optional, dual
// at its floor). A free root that needs no mate (FromFree) must end at a far
// vertex that needs one: that is the same path walked from its other end,
// and much shorter to find when the free vertices have few tight edges.
// Vertices a failed search visited are marked dead for the rest of the round:
// that set is closed under tight alternating steps and holds no endpoint,
// later augmentations of the round avoid it, so it stays fruitless until the
// duals change.
bool StepMatcher::tightPath(int32_t Root, bool FromFree) {
  const uint32_t Visit = nextStamp();
  Queue.clear();
  Queue.push_back(Root);
  for (size_t Head = 0; Head < Queue.size(); ++Head) {
    const int32_t X = Queue[Head];
    if (NoTightStamp[X] == DualEpoch)
      continue;
    const Arc *List = arcs(X);
    const int64_t Lightest = lightestTight(X);
    bool AnyTight = false;
    for (int32_t K = nextLive(X, 0); weight(List[K]) >= Lightest;
         K = nextLive(X, K + 1)) {
      const Arc &A = List[K];
      const int32_t B = A.To;
      if (!isTight(X, A) || arcEdge(X, K) == Mate[X])
        continue;
      AnyTight = true;
      if (SeenStamp[B] == Visit || DeadStamp[B] == Round)
        continue;
      SeenStamp[B] = Visit;
      PredEdge[B] = arcEdge(X, K);
      if (Mate[B] < 0) {
        if (FromFree && !needsMate(B))
          continue;
        flipPathTo(B);
        return true;
      }
      const int32_t Z = otherEnd(Mate[B], B);
      if (!FromFree && canLeave(Z)) {
        Mate[Z] = Mate[B] = -1;
        flipPathTo(B);
        return true;
      }
      Queue.push_back(Z);
    }
    if (!AnyTight)
      NoTightStamp[X] = DualEpoch;
  }
  for (int32_t X : Queue) {
    DeadStamp[X] = Round;
    if (Mate[X] >= 0)
      DeadStamp[otherEnd(Mate[X], X)] = Round;
  }
  return false;
}

// Tight searches for every vertex that needs a mate: first from the free
// vertices across (when there are any that need no mate), then from the
// needing vertices themselves. Dead marks hold for one kind of root on one
// side only, hence a fresh round for each.
void StepMatcher::tightRound() {
  const int32_t NumV = static_cast<int32_t>(Degree.size());
  int64_t Needing[2] = {0, 0};
  for (int32_t V = 0; V < NumV; ++V)
    Needing[V >= NumSources] += needsMate(V);
  for (bool FromFree : {true, false})
    for (bool Sources : {true, false}) {
      // The side whose needing vertices these roots serve: the other one for
      // free roots, their own for needing roots (index 0 is the sources).
      const int Served = FromFree ? Sources : !Sources;
      if (Needing[Served] == 0)
        continue;
      Round = nextStamp();
      const int32_t First = Sources ? 0 : NumSources;
      const int32_t Last = Sources ? NumSources : NumV;
      for (int32_t V = First; V < Last && Needing[Served] > 0; ++V) {
        const bool Root = FromFree
                              ? Mate[V] < 0 && Degree[V] > 0 && !needsMate(V)
                              : needsMate(V);
        if (Root && tightPath(V, FromFree))
          --Needing[Served];
      }
    }
}

bool StepMatcher::later(const Event &A, const Event &B) {
  if (A.Key != B.Key)
    return A.Key > B.Key;
  if (A.Kind != B.Kind)
    return A.Kind > B.Kind;
  return A.V > B.V;
}

void StepMatcher::pushEvent(int64_t Key, int32_t Kind, int32_t V) {
  Heap.push_back(Event{Key, Kind, V});
  std::push_heap(Heap.begin(), Heap.end(), later);
}

// Dijkstra on reduced costs from every vertex of one side that needs a mate
// (the near side). It stops at the first of:
//  - an unmatched far-side vertex: augment to it;
//  - an optional near-side tree vertex whose dual reaches its floor: a root
//    then no longer needs a mate, a matched vertex gives its mate up along
//    the tree path;
// and shifts the duals of the settled vertices so that the tree stays tight
// and the path found becomes tight (near side down, far side up).
//
// Arcs are relaxed lazily: arc (X, B) cannot give B a distance below
// Dist(X) + y(X) + MinY(far side) - w, which grows along X's list, so X's
// arcs are relaxed in list order only once the search reaches that bound. A
// search that ends early never reads the light arcs of the vertices it
// settled.
void StepMatcher::dualPhase(bool FromSources) {
  nextStamp();
  ++DualEpoch;
  Heap.clear();
  Settled.clear();
  const int64_t MinFar = MinY[FromSources];

  // Relaxes X's arcs from index K on while their bound is at most Key (the
  // current minimum), then schedules the rest. Returns a free far-side vertex
  // reached at distance Key, if any: it ties with the minimum, so augmenting
  // to it at once is a valid Dijkstra order.
  auto Scan = [&](int32_t X, int32_t K, int64_t Key) -> int32_t {
    const int64_t Base = Dist[X] + Y[X];
    const Arc *List = arcs(X);
    for (K = nextLive(X, K); List[K].To >= 0; K = nextLive(X, K + 1)) {
      const Arc &A = List[K];
      const int64_t W = weight(A);
      if (Base + MinFar - W > Key) {
        Cursor[X] = K;
        pushEvent(Base + MinFar - W, ScanEvent, X);
        return -1;
      }
      const int32_t B = A.To;
      const int64_t ND = Base + Y[B] - W;
      if (SeenStamp[B] == Stamp && (DoneStamp[B] == Stamp || ND >= Dist[B]))
        continue;
      SeenStamp[B] = Stamp;
      Dist[B] = ND;
      PredEdge[B] = arcEdge(X, K);
      if (ND == Key && Mate[B] < 0) {
        DoneStamp[B] = Stamp;
        Settled.push_back(B);
        return B;
      }
      pushEvent(ND, ReachEvent, B);
    }
    return -1;
  };
  auto Settle = [&](int32_t X, int64_t D) -> int32_t {
    Dist[X] = D;
    SeenStamp[X] = DoneStamp[X] = Stamp;
    Settled.push_back(X);
    if (!Required[X])
      pushEvent(D + (Y[X] - Floor[X]), FloorEvent, X);
    return Scan(X, 0, D);
  };

  int32_t Free = -1;
  const int32_t First = FromSources ? 0 : NumSources;
  const int32_t Last =
      FromSources ? NumSources : static_cast<int32_t>(Degree.size());
  for (int32_t V = First; V < Last && Free < 0; ++V)
    if (needsMate(V))
      Free = Settle(V, 0);
  int64_t End = 0;
  while (Free < 0) {
    if (Heap.empty())
      throw std::logic_error("StepMatcher: no matching covers every required "
                             "vertex");
    const Event Top = Heap.front();
    std::pop_heap(Heap.begin(), Heap.end(), later);
    Heap.pop_back();
    if (Top.Kind == ScanEvent) {
      Free = Scan(Top.V, Cursor[Top.V], Top.Key);
      End = Top.Key;
      continue;
    }
    if (Top.Kind == FloorEvent) {
      End = Top.Key;
      int32_t X = Top.V;
      if (Mate[X] >= 0) {
        int32_t B = otherEnd(Mate[X], X);
        Mate[X] = Mate[B] = -1;
        flipPathTo(B);
      }
      break;
    }
    int32_t B = Top.V;
    if (DoneStamp[B] == Stamp || Top.Key != Dist[B])
      continue; // stale entry
    End = Top.Key;
    DoneStamp[B] = Stamp;
    Settled.push_back(B);
    if (Mate[B] < 0) {
      Free = B;
      break;
    }
    // A matched edge is tight: its near-side end joins at the same distance.
    Free = Settle(otherEnd(Mate[B], B), Top.Key);
  }
  if (Free >= 0)
    flipPathTo(Free);
  for (int32_t V : Settled) {
    int64_t Shift = End - Dist[V];
    if (Shift <= 0)
      continue;
    if ((V < NumSources) == FromSources)
      Y[V] -= Shift;
    else
      Y[V] += Shift;
  }
}

std::vector<int64_t> StepMatcher::extractStep() {
  const int32_t NumV = static_cast<int32_t>(Degree.size());
  for (int32_t V = 0; V < NumV; ++V) {
    Mate[V] = -1;
    if (Degree[V] == 0) {
      Required[V] = 0; // nothing left to cover
      Y[V] = Floor[V]; // and no edge constrains its dual
    }
  }
  ++DualEpoch; // the caller may have changed bonuses, hence duals
  updateMinY();
  matchTightGreedily();
  while (true) {
    tightRound();
    int32_t Needy = 0;
    while (Needy < NumV && !needsMate(Needy))
      ++Needy;
    if (Needy == NumV)
      break;
    dualPhase(Needy < NumSources);
    updateMinY();
  }

  // Sized once: a step of a large grid is past malloc's mmap threshold,
  // where each doubling would map, copy and unmap.
  size_t Matched = 0;
  for (int32_t V = 0; V < NumSources; ++V)
    Matched += Mate[V] >= 0;
  std::vector<int64_t> Step;
  Step.reserve(Matched);
  for (int32_t V = 0; V < NumSources; ++V)
    if (Mate[V] >= 0)
      Step.push_back(Mate[V]);
  // Already sorted when the grid lists its messages by source, as
  // computeGrid and computeArrayGrid do; sorting it anyway took a tenth of
  // a 2-million-message plan.
  if (!std::is_sorted(Step.begin(), Step.end()))
    std::sort(Step.begin(), Step.end());
  for (int64_t E : Step)
    removeEdge(static_cast<int32_t>(E));
  return Step;
}

} // namespace detail
} // namespace redist
