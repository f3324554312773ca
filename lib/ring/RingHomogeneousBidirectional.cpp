//===- RingHomogeneousBidirectional.cpp - Algorithm 3 ---------------------===//
//
// ring-redistribution's Algorithm 3, one step (of one item time c) per
// recursive call. Each step recomputes the unbalances' delta_max (Lemma 6's
// bound in items) and applies the paper's rules: the slices whose half
// unbalance is delta_max send or receive through both ends, the processes
// whose unbalance is delta_max send or receive one item, and at delta_max =
// 1 processes with nothing left to do pass items on. Several rules may ask
// for the same item; it is sent once. Lemmas 7 and 8 say that no process is
// then asked to send, or to receive, both ways, and that delta_max falls by
// one per step; both are checked, and a violation is an internal error.
//
// Where every load and target is at least 1 the steps are the schedule, and
// it meets Lemma 6. Empty processes may be asked for items they do not hold;
// then the steps' net flow over each link is sent as soon as possible.
//
//===----------------------------------------------------------------------===//

#include "RingAlgorithms.h"

#include "redist/RingFlows.h"
#include "redist/RingSimulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace redist {
namespace ring {

namespace {

std::int64_t halfUp(std::int64_t D) { return (D + 1) / 2; }

/// max(max |delta_i|, max over slices of 2 to n - 1 processes of
/// ceil(|delta_{k,l}| / 2)).
std::int64_t deltaMax(const std::vector<std::int64_t> &Delta) {
  const std::int64_t N = static_cast<std::int64_t>(Delta.size());
  std::int64_t Max = 0;
  for (std::int64_t K = 0; K < N; ++K) {
    Max = std::max(Max, std::abs(Delta[K]));
    std::int64_t D = Delta[K];
    for (std::int64_t L = 1; L + 1 < N; ++L) {
      D += Delta[wrap(K + L, N)];
      Max = std::max(Max, halfUp(std::abs(D)));
    }
  }
  return Max;
}

struct Step {
  std::vector<int> Dir; // per process: 0, or the direction it sends in
  std::int64_t N;

  void send(std::int64_t I, int D) {
    I = wrap(I, N);
    if (Dir[I] != 0 && Dir[I] != D)
      throw std::logic_error("Algorithm 3 asks process " + std::to_string(I) +
                             " to send both ways in one step");
    Dir[I] = D;
  }
  bool receiving(std::int64_t I) const {
    return Dir[wrap(I - 1, N)] == 1 || Dir[wrap(I + 1, N)] == -1;
  }
};

/// The rules of one call of Algorithm 3 with delta_max = Max.
Step algorithm3Step(const std::vector<std::int64_t> &Delta, std::int64_t Max) {
  const std::int64_t N = static_cast<std::int64_t>(Delta.size());
  Step S{std::vector<int>(N, 0), N};
  for (std::int64_t K = 0; K < N; ++K) {
    std::int64_t D = Delta[K];
    for (std::int64_t L = 1; L + 1 < N; ++L) {
      const std::int64_t End = K + L;
      D += Delta[wrap(End, N)];
      if (Max != 2) {
        if (D > 1 && halfUp(D) == Max) {
          S.send(K, -1);
          S.send(End, 1);
        }
        if (D < -1 && halfUp(-D) == Max) {
          S.send(K - 1, 1);
          S.send(End + 1, -1);
        }
      } else {
        if (D >= 3)
          S.send(End, 1);
        if (D == 4)
          S.send(K, -1);
        if (D <= -3)
          S.send(K - 1, 1);
        if (D == -4)
          S.send(End + 1, -1);
      }
    }
  }
  for (std::int64_t I = 0; I < N; ++I)
    if (Delta[I] == Max && S.Dir[I] == 0)
      S.send(I, 1);
  for (std::int64_t I = 0; I < N; ++I)
    if (Delta[I] == -Max && !S.receiving(I))
      S.send(I - 1, 1);
  if (Max == 1) {
    // Pass items on along chains of balanced processes, to a fixpoint.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (std::int64_t I = 0; I < N; ++I) {
        if (Delta[I] != 0)
          continue;
        const int Before = S.Dir[I];
        if (S.Dir[wrap(I - 1, N)] == 1)
          S.send(I, 1);
        if (S.Dir[wrap(I + 1, N)] == -1)
          S.send(I, -1);
        Changed = Changed || S.Dir[I] != Before;
      }
    }
  }
  for (std::int64_t I = 0; I < N; ++I)
    if (S.Dir[wrap(I - 1, N)] == 1 && S.Dir[wrap(I + 1, N)] == -1 && N > 2)
      throw std::logic_error("Algorithm 3 asks process " + std::to_string(I) +
                             " to receive from both sides in one step");
  return S;
}

} // namespace

RingSchedule planHomogeneousBidirectional(const RingProblem &P) {
  const std::int64_t N = P.size();
  const double C = P.CostFwd.front();
  std::vector<std::int64_t> Delta(N);
  for (std::int64_t I = 0; I < N; ++I)
    Delta[I] = P.unbalance(I);
  const std::int64_t Steps = deltaMax(Delta);
  std::vector<RingTransfer> Transfers;
  // Per process and direction (0 forward, 1 backward): the transfer the
  // next step extends (PrevStep: the last step it covers).
  std::vector<std::int64_t> Last[2] = {std::vector<std::int64_t>(N, -1),
                                       std::vector<std::int64_t>(N, -1)};
  std::vector<std::int64_t> PrevStep[2] = {std::vector<std::int64_t>(N, -2),
                                           std::vector<std::int64_t>(N, -2)};
  for (std::int64_t S = 0;; ++S) {
    const std::int64_t Max = deltaMax(Delta);
    if (Max == 0)
      break;
    if (S >= Steps || Max != Steps - S)
      throw std::logic_error("Algorithm 3's delta_max did not fall by one "
                             "per step (Lemma 8)");
    const Step Rules = algorithm3Step(Delta, Max);
    for (std::int64_t I = 0; I < N; ++I) {
      const int D = Rules.Dir[I];
      if (D == 0)
        continue;
      std::int64_t &Prev = Last[D > 0 ? 0 : 1][I];
      const double Start = static_cast<double>(S) * C;
      if (Prev >= 0 && PrevStep[D > 0 ? 0 : 1][I] + 1 == S)
        ++Transfers[Prev].Items;
      else {
        Prev = static_cast<std::int64_t>(Transfers.size());
        Transfers.push_back({I, D, Start, 1});
      }
      PrevStep[D > 0 ? 0 : 1][I] = S;
      --Delta[I];
      ++Delta[wrap(I + D, N)];
    }
  }
  RingSchedule Plan = finishSchedule(P, "bi-homogeneous", Transfers);
  if (checkRingSchedule(P, Plan.Transfers).valid())
    return Plan;
  // Net flow over each link, as a member of the flow family kept within its
  // range (no items round the whole ring), sent as soon as possible.
  const RingFlowRange Range = ringFlowRange(P);
  const std::int64_t X =
      std::clamp(Plan.Fwd[N - 1] - Plan.Bwd[0], Range.First, Range.Last);
  std::vector<std::int64_t> Fwd, Bwd;
  ringFlowsAt(P, X, Fwd, Bwd);
  return finishSchedule(P, "bi-homogeneous", runRingFlows(P, Fwd, Bwd));
}

} // namespace ring
} // namespace redist
