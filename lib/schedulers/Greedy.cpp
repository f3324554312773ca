//===- Greedy.cpp - A maximum-weight matching per step --------------------===//
//
// desprez-1998 §4.5, "greedy": each step is a matching of maximum total
// length among the messages left, until none is left. It may take more steps
// than the maximum degree but its steps are heavier, so the schedule often
// costs less.
//
// Maximum-weight matchings are far from unique, and the choice matters: a
// step that leaves out a process of maximum remaining degree adds a step at
// the end. So among the maximum-weight matchings each step takes one that
// serves as many processes of maximum degree as it can. The tie-break is
// exact and lexicographic: weights are scaled by more than the number of
// processes, K = min(P + Q, 2 * messages) + 1, and each process of maximum
// degree gets a bonus of 1 for being matched. On Example 5 (P = 15, Q = 6,
// r = 2, s = 3) greedy then costs 17 in 11 steps (the paper's got 18 in 12;
// the optimum is 16 in 11, docs/paper-corrections.md); the totals over a
// sweep of small grids are those of stepwise, within 0.01%.
//
// A bonus equal to the remaining degree (busiest first) finds 16 on Example
// 5, but its bonuses change at every step for every matched process, which
// defeats the warm start: 3.5 s instead of 0.4 s on a 1024 x 768 all-to-all
// grid. If scaled weights would not fit in 64 bits (messages longer than
// about 2^60 / (P + Q)^2 elements, 2^38 on 1024 x 1024 processes), the
// tie-break is dropped and plain maximum-weight matchings are taken.
//
//===----------------------------------------------------------------------===//

#include "SchedulerImpls.h"
#include "StepMatcher.h"

#include <algorithm>

namespace redist {
namespace detail {

Schedule scheduleGreedy(const CommGrid &G) {
  Schedule S;
  S.Algorithm = "greedy";
  int64_t MaxLen = 0;
  for (const Message &M : G.Messages)
    MaxLen = std::max(MaxLen, M.Len);
  const int64_t Limit = StepMatcher::weightLimit(G);
  const int64_t TieScale =
      std::min(G.P + G.Q, 2 * static_cast<int64_t>(G.Messages.size())) + 1;
  const bool TieBreak = MaxLen <= Limit / TieScale;

  StepMatcher Matcher(G, TieBreak ? TieScale : 1);
  while (Matcher.remainingEdges() > 0) {
    if (TieBreak) {
      const int64_t MaxDegree = Matcher.maxDegree();
      for (int64_t V = 0; V < Matcher.numVertices(); ++V)
        Matcher.setBonus(V, Matcher.degree(V) == MaxDegree ? 1 : 0);
    }
    std::vector<int64_t> Step = Matcher.extractStep();
    if (Step.empty()) {
      // Only messages of length 0 are left and nothing rewards taking them:
      // take a step of the stepwise kind instead, so the loop advances.
      const int64_t MaxDegree = Matcher.maxDegree();
      for (int64_t V = 0; V < Matcher.numVertices(); ++V)
        if (Matcher.degree(V) == MaxDegree)
          Matcher.require(V);
      Step = Matcher.extractStep();
    }
    S.Steps.push_back(std::move(Step));
  }
  return S;
}

} // namespace detail
} // namespace redist
