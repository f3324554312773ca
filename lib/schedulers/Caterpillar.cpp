//===- Caterpillar.cpp - ScaLAPACK's caterpillar, the baseline ------------===//
//
// Prylli & Tourancheau's total exchange as desprez-1998 (§3.2, §5.2) runs it:
// n = max(P, Q) steps; in step k every source p sends to target
// (p + k) mod n when it has a message for it. Pairs that exchange nothing
// still take their step, so steps can be partly or wholly empty. This is the
// variant the paper's figures describe: six to eight messages in each of the
// 16 steps of Example 1, and six empty steps out of 12 in Example 4.
//
//===----------------------------------------------------------------------===//

#include "SchedulerImpls.h"

#include <algorithm>

namespace redist {
namespace detail {

Schedule scheduleCaterpillar(const CommGrid &G) {
  Schedule S;
  S.Algorithm = "caterpillar";
  const int64_t N = std::max(G.P, G.Q);
  if (N <= 0)
    return S;
  S.Steps.resize(N);
  // Message p -> q goes to step (q - p) mod n. Messages come sorted by
  // source, so every step lists its messages by source. The steps are
  // counted first and sized once: growing them would copy every id again.
  auto StepOf = [N](const Message &M) {
    return static_cast<size_t>(((M.Dst - M.Src) % N + N) % N);
  };
  std::vector<int64_t> Count(static_cast<size_t>(N), 0);
  for (const Message &M : G.Messages)
    ++Count[StepOf(M)];
  for (size_t Step = 0; Step < S.Steps.size(); ++Step)
    S.Steps[Step].reserve(static_cast<size_t>(Count[Step]));
  for (int64_t Id = 0; Id < static_cast<int64_t>(G.Messages.size()); ++Id)
    S.Steps[StepOf(G.Messages[Id])].push_back(Id);
  return S;
}

} // namespace detail
} // namespace redist
