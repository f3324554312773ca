//===- redist/RingFlows.h - The one-parameter family of ring flows --------===//
//
// On a ring, conservation fixes every link's net flow once one link's is
// chosen (ring-redistribution's Lemma 10): with p_j = delta_0 + ... +
// delta_j, the net number of items link j -> j + 1 carries is X + p_j for
// some integer X (negative: j + 1 sends that many to j). So every
// redistribution that never sends items both ways over one link is one X.
//
// System 6 of the paper (the light-redistribution LP) becomes a convex,
// piecewise-linear function of X: the largest, over the processes, of the
// time each spends sending and receiving. solveRingFlows minimises it
// exactly over the reals, without an LP solver, and rounds the minimiser
// down and up as Theorem 4 says; since the function is convex, the better
// of the two is the integer optimum. That optimum is a lower bound on every
// schedule, at least as strong as Lemma 12, and when its flows are light
// (no process sends more items than it starts with) the paper's Lemma 9
// schedule reaches it, so it is then the optimum.
//
// searchRingFlows is the bidirectional heterogeneous algorithm: the light
// optimum when it is light, otherwise the best pipelined (truly simulated)
// schedule over a search of X.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RINGFLOWS_H
#define REDIST_RINGFLOWS_H

#include "redist/Ring.h"

#include <cstdint>
#include <vector>

namespace redist {

/// The per-link counts of X: Fwd[j] = max(X + p_j, 0), Bwd[j + 1] =
/// max(-(X + p_j), 0). Throws InvalidArgument if they would send backwards
/// on a unidirectional ring.
void ringFlowsAt(const RingProblem &P, std::int64_t X,
                 std::vector<std::int64_t> &Fwd,
                 std::vector<std::int64_t> &Bwd);

/// System 6's objective at a real X: the largest time a process spends
/// sending, or receiving, the net flows of X.
double ringFlowTime(const RingProblem &P, double X);

/// The X worth considering, [-max p, -min p]: outside it every link carries
/// items the same way, round the whole ring, which only adds time. On a
/// unidirectional ring, Last is the only X whose flows are all forward and
/// minimal (Algorithms 1 and 2).
struct RingFlowRange {
  std::int64_t First, Last;
};
RingFlowRange ringFlowRange(const RingProblem &P);

struct RingFlowSolution {
  /// The real minimiser of ringFlowTime and its value (System 6 over the
  /// reals).
  double RealX = 0, RealTime = 0;
  /// The better of floor(RealX) and ceil(RealX) (Theorem 4) and its value:
  /// the integer optimum of System 6, a lower bound on any schedule.
  std::int64_t X = 0;
  double Time = 0;
  /// Whether X's flows are light: every process sends at most its load.
  bool Light = false;
};

/// Throws InvalidArgument for an invalid or unidirectional problem.
RingFlowSolution solveRingFlows(const RingProblem &P);

/// The bidirectional heterogeneous algorithm (see above). Throws
/// InvalidArgument for an invalid or unidirectional problem.
RingSchedule searchRingFlows(const RingProblem &P);

} // namespace redist

#endif // REDIST_RINGFLOWS_H
