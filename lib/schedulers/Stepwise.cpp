//===- Stepwise.cpp - Fewest steps, heaviest matching per step ------------===//
//
// desprez-1998 §4.4-4.5 (Theorem 1, "stepwise"): König's theorem says a
// bipartite graph's edges split into as many matchings as its maximum degree,
// and a matching that covers every vertex of maximum degree always exists.
// Removing such a matching lowers the maximum degree by exactly one, so taking
// one per step gives the optimal number of steps. Among those matchings each
// step takes one of maximum total length (the paper's LP, solved exactly by
// StepMatcher with warm-started duals).
//
//===----------------------------------------------------------------------===//

#include "SchedulerImpls.h"
#include "StepMatcher.h"

namespace redist {
namespace detail {

Schedule scheduleStepwise(const CommGrid &G) {
  StepMatcher Matcher(G);

  Schedule S;
  S.Algorithm = "stepwise";
  while (Matcher.remainingEdges() > 0) {
    // Vertices of maximum degree stay of maximum degree once they are (each
    // step lowers them and the maximum by one), so requiring is cumulative.
    const int64_t MaxDegree = Matcher.maxDegree();
    for (int64_t V = 0; V < Matcher.numVertices(); ++V)
      if (Matcher.degree(V) == MaxDegree)
        Matcher.require(V);
    S.Steps.push_back(Matcher.extractStep());
  }
  return S;
}

} // namespace detail
} // namespace redist
