//===- StepMatcher.h - Exact matchings peeled off a shrinking grid --------===//
//
// Private to the library. Stepwise and greedy build a schedule one matching at
// a time: each step is a matching of the messages not yet scheduled, removed
// from the grid before the next step. StepMatcher computes each step exactly:
//
//   maximise    sum of the weights of M's edges + sum of Bonus(v), v matched
//   subject to  M a matching of the remaining graph that covers every
//               Required vertex
//
// with the primal-dual (Hungarian) method. Vertices are the processes that
// appear in a message: the sources first, then the targets, each in
// increasing process order; edges are message ids. Memory is O(messages),
// whatever P and Q.
//
// Why it is fast: the dual potentials y (y(u) + y(v) >= weight(u, v) on every
// remaining edge, y(v) >= -Bonus(v) unless v is required) stay feasible when
// a matching is removed (constraints disappear), when a vertex becomes
// required (its sign constraint disappears) and when a bonus changes (a
// larger bonus loosens y(v) >= -Bonus(v); for a smaller one y(v) rises to
// the new floor if it was below). So each step starts from the previous
// step's optimal duals, where the edges it needs are mostly tight already,
// instead of starting the O(V^3) Hungarian method from scratch. The .cpp
// file says more.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_STEPMATCHER_H
#define REDIST_LIB_SCHEDULERS_STEPMATCHER_H

#include "redist/CommGrid.h"

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// An allocator whose resize leaves trivial elements uninitialised: the
/// per-arc arrays are written in full right after they are sized, and
/// zero-filling hundreds of megabytes first would double the set-up time.
template <typename T> struct NoInitAllocator : std::allocator<T> {
  template <typename U> struct rebind { using other = NoInitAllocator<U>; };
  NoInitAllocator() = default;
  template <typename U> NoInitAllocator(const NoInitAllocator<U> &) {}
  template <typename U> void construct(U *Where) {
    static_assert(std::is_trivially_default_constructible<U>::value,
                  "only for trivial element types");
    ::new (static_cast<void *>(Where)) U;
  }
  template <typename U, typename... Args>
  void construct(U *Where, Args &&...Values) {
    ::new (static_cast<void *>(Where)) U(std::forward<Args>(Values)...);
  }
};
template <typename T> using RawVector = std::vector<T, NoInitAllocator<T>>;

class StepMatcher {
public:
  /// The graph of G; the weight of an edge is its message length times
  /// Scale (>= 1). Every vertex starts not required with bonus 0. Throws
  /// InvalidArgument when the grid is too large or the weights too large for
  /// exact 64-bit arithmetic.
  explicit StepMatcher(const CommGrid &G, int64_t Scale = 1);

  /// The largest edge weight (length times scale) the matcher accepts for G:
  /// duals and path lengths stay within a few times vertices * weight, which
  /// must not overflow.
  static int64_t weightLimit(const CommGrid &G);

  int64_t numVertices() const { return static_cast<int64_t>(Degree.size()); }
  /// Number of edges not yet removed.
  int64_t remainingEdges() const { return Remaining; }
  /// Number of remaining edges at vertex V.
  int64_t degree(int64_t V) const { return Degree[V]; }
  /// The largest remaining degree.
  int64_t maxDegree() const;
  /// Whether each step's greedy pass starts with the targets (for tests).
  bool greedyTargetsFirst() const { return GreedyTargetsFirst; }

  /// From now on every step must cover V while V has edges. The caller
  /// guarantees that a matching covering all required vertices exists.
  void require(int64_t V) { Required[V] = true; }
  /// Sets V's bonus for being matched (>= 0 unless V is required).
  void setBonus(int64_t V, int64_t Bonus);

  /// Computes an optimal matching for the current requirements and bonuses,
  /// removes its edges from the graph and returns their ids in increasing
  /// order.
  std::vector<int64_t> extractStep();

private:
  /// One end of an edge in a vertex's list. The message id lives apart, in
  /// ArcEdge, because scans rarely need it.
  struct Arc {
    int32_t To;    ///< the other endpoint; -1 in the sentinel ending a list
    int32_t Level; ///< index of the edge weight in Levels
  };
  struct Event {
    int64_t Key;
    int32_t Kind; ///< ReachEvent, ScanEvent or FloorEvent
    int32_t V;
  };

  const Arc *arcs(int32_t V) const { return &Arcs[Begin[V]]; }
  int32_t arcEdge(int32_t V, int32_t K) const { return ArcEdge[Begin[V] + K]; }
  int64_t weight(const Arc &A) const { return Levels[A.Level]; }
  /// Index in V's list of the first live arc at or after K (the sentinel if
  /// none): a union-find "next" pointer with path compression, so removed
  /// arcs cost nearly nothing to skip, however they are spread.
  int32_t nextLive(int32_t V, int32_t K);
  int32_t otherEnd(int32_t Edge, int32_t V) const {
    return EdgeSrc[Edge] == V ? EdgeDst[Edge] : EdgeSrc[Edge];
  }
  bool isTight(int32_t V, const Arc &A) const {
    return Y[V] + Y[A.To] == weight(A);
  }
  /// Arcs come by decreasing weight and y(V) + y(far) >= y(V) + MinY(far
  /// side), so past the first arc lighter than this none can be tight.
  int64_t lightestTight(int32_t V) const { return Y[V] + MinY[V < NumSources]; }
  /// Fills Levels, and each edge's level into PosAtSrc for buildLists.
  void buildLevels(const CommGrid &G, int64_t Scale);
  void buildLists(const CommGrid &G);
  bool needsMate(int32_t V) const {
    return Mate[V] < 0 && (Required[V] || Y[V] > Floor[V]);
  }
  bool canLeave(int32_t V) const { return !Required[V] && Y[V] == Floor[V]; }

  void chooseGreedySide();
  void updateMinY();
  uint32_t nextStamp();
  void matchTightGreedily();
  void tightRound();
  bool tightPath(int32_t Root, bool FromFree);
  void dualPhase(bool FromSources);
  void pushEvent(int64_t Key, int32_t Kind, int32_t V);
  /// Heap order: smallest key first, then by kind, then by vertex.
  static bool later(const Event &A, const Event &B);
  void flipPathTo(int32_t B);
  void removeEdge(int32_t Edge);

  int32_t NumSources = 0;
  /// Whether the greedy pass of a step starts with the targets.
  bool GreedyTargetsFirst = false;
  std::vector<int64_t> ProcessOf; ///< process number of each vertex
  int64_t Remaining = 0;
  std::vector<int32_t> EdgeSrc, EdgeDst; ///< endpoints, as vertex numbers
  /// The distinct edge weights, decreasing. Weights are few in practice (at
  /// most r + s - 1 lengths per slice for block-cyclic grids).
  std::vector<int64_t> Levels;
  /// Arcs of vertex V: Arcs[Begin[V] .. Begin[V + 1]), by decreasing weight
  /// (heavy arcs are the likely tight ones, so scans stop early), then a
  /// sentinel. Removed arcs stay in place; Skip jumps over them.
  RawVector<Arc> Arcs;
  RawVector<int32_t> ArcEdge;
  RawVector<int32_t> Skip;
  std::vector<int64_t> Begin;
  std::vector<int32_t> Degree;
  /// Index of each edge's arc within its source's and target's lists.
  RawVector<int32_t> PosAtSrc, PosAtDst;

  std::vector<int64_t> Y;     ///< dual potentials
  std::vector<int64_t> Floor; ///< y(v) >= Floor(v) = -Bonus(v) if optional
  std::vector<char> Required;
  std::vector<int32_t> Mate; ///< matched edge, -1 if none
  /// Smallest dual among the sources [0] and the targets [1] that have edges.
  int64_t MinY[2] = {0, 0};

  // Search state, reused across searches (stamped, never cleared).
  std::vector<Event> Heap;
  std::vector<int64_t> Dist;
  std::vector<int32_t> PredEdge;
  std::vector<uint32_t> SeenStamp, DoneStamp, DeadStamp;
  uint32_t Stamp = 0, Round = 0;
  /// Counts dual changes; NoTightStamp[V] == DualEpoch records that a scan
  /// found no tight arc at V (besides its matched one) since the last change,
  /// so later searches skip V's list.
  uint64_t DualEpoch = 1;
  std::vector<uint64_t> NoTightStamp;
  std::vector<int32_t> Settled;
  std::vector<int32_t> Cursor; ///< next arc to relax of a settled vertex
  std::vector<int32_t> Queue;
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_STEPMATCHER_H
