//===- RingUnidirectional.cpp - Algorithms 1 and 2 ------------------------===//
//
// Both send delta_{start,i} items from process i, where start begins a slice
// of maximal unbalance. With the prefix sums p_j of the unbalances, that is
// p_i - min p: the flow family's X = -min p (redist/RingFlows.h), the least
// flow that keeps every link forward. Algorithm 1 sends in synchronous steps
// and Algorithm 2 as soon as possible; where every load and target is at
// least 1 the two coincide (each process sends all its items back to back
// from time 0, Lemma 5). With empty processes, sending as soon as possible
// is what the paper's algorithms become, and it is timed by simulation.
//
//===----------------------------------------------------------------------===//

#include "RingAlgorithms.h"

#include "redist/RingFlows.h"
#include "redist/RingSimulator.h"

namespace redist {
namespace ring {

RingSchedule finishSchedule(const RingProblem &P, const char *Name,
                            std::vector<RingTransfer> Transfers) {
  RingSchedule S;
  S.Algorithm = Name;
  sortRingTransfers(Transfers);
  countRingTransfers(P.size(), Transfers, S.Fwd, S.Bwd);
  S.Makespan = ringMakespan(P, Transfers);
  S.Transfers = std::move(Transfers);
  return S;
}

RingSchedule planUnidirectional(const RingProblem &P, const char *Name) {
  // Only the forward links: on a bidirectional ring too.
  const RingProblem Forward = forwardOnly(P);
  std::vector<std::int64_t> Fwd, Bwd;
  ringFlowsAt(Forward, ringFlowRange(Forward).Last, Fwd, Bwd);
  return finishSchedule(P, Name, runRingFlows(Forward, Fwd, Bwd));
}

} // namespace ring
} // namespace redist
