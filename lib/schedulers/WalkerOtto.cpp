//===- WalkerOtto.cpp - Walker & Otto's optimal schedules -----------------===//
//
// walker-otto-1996: P = Q and the block size grows by
// an integer factor K (r -> K*r), or shrinks by one (K*s -> s), which runs the
// same schedule with senders and receivers swapped (§4 of the paper).
//
// For K <= P every message is one block per superblock and the K steps of
// the paper are permutations. For K > P a message carries several blocks;
// it is scheduled in the step of its first block. Steps 0 .. P-1 then hold
// every pair exactly once (the reduced steps k' < P' reach P' distinct q',
// and beta runs over all of 0 .. g-1), so the later steps are empty and the
// schedule takes P = max degree steps.
//
// Each message finds its step in O(1) by reading the receive schedule (Eq.
// 11) backwards; the compatibility conditions (Eq. 12) make that the step
// of the send schedule B(k, p) of Eqs. 7-10, which the tests check against
// the paper's figures.
//
// Empty steps are dropped. With N a multiple of the superblock no step is
// empty below min(K, P), so the step indices are exactly the paper's; with a
// short array some messages vanish, and a step that would move no data is not
// kept as a synchronisation round for nothing. If the survivors still take
// more steps than the maximum degree, repairSteps (StepRepair.h) brings them
// down to it.
//
//===----------------------------------------------------------------------===//

#include "SchedulerImpls.h"
#include "StepRepair.h"
#include "WalkerOttoFormulas.h"

#include "redist/Error.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace redist {
namespace detail {

namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

int64_t ceilDiv(int64_t A, int64_t B) { return -floorDiv(-A, B); }

int64_t positiveMod(int64_t A, int64_t M) {
  int64_t R = A % M;
  return R < 0 ? R + M : R;
}

/// Returns X, Y with X * A + Y * B = gcd(A, B), for A, B > 0.
void extendedEuclid(int64_t A, int64_t B, int64_t &X, int64_t &Y) {
  int64_t OldR = A, R = B, OldX = 1, CurX = 0, OldY = 0, CurY = 1;
  while (R != 0) {
    int64_t Quot = OldR / R;
    int64_t T = OldR - Quot * R;
    OldR = R;
    R = T;
    T = OldX - Quot * CurX;
    OldX = CurX;
    CurX = T;
    T = OldY - Quot * CurY;
    OldY = CurY;
    CurY = T;
  }
  X = OldX;
  Y = OldY;
}

/// The direction of a walker_otto redistribution: the factor K and whether
/// the block size shrinks (the paper's schedule run in reverse).
struct Direction {
  int64_t K;
  bool Shrinks;
};

Direction directionOf(const Layout &From, const Layout &To) {
  int64_t R = From.blockSize(), S = To.blockSize();
  if (S % R == 0)
    return {S / R, false};
  return {R / S, true};
}

} // namespace

WalkerOttoFormulas::WalkerOttoFormulas(int64_t P, int64_t K)
    : P(P), K(K), G(std::gcd(P, K)), ReducedP(P / G), ReducedK(K / G) {
  extendedEuclid(ReducedK, ReducedP, X, Y);
}

int64_t WalkerOttoFormulas::z(int64_t Lambda) const {
  // The smallest z that makes q' non-negative: a ceiling, where the paper
  // prints a floor (docs/paper-corrections.md).
  return ceilDiv(-Lambda * X, ReducedP);
}

int64_t WalkerOttoFormulas::reducedSendTarget(int64_t ReducedStep,
                                              int64_t ReducedProc) const {
  int64_t Lambda = ReducedProc - ReducedStep;
  return Lambda * X + ReducedP * z(Lambda);
}

int64_t WalkerOttoFormulas::reducedSendLocalBlock(int64_t ReducedStep,
                                                  int64_t ReducedProc) const {
  int64_t Lambda = ReducedProc - ReducedStep;
  return -Lambda * Y + ReducedK * z(Lambda);
}

int64_t WalkerOttoFormulas::beta(int64_t Step, int64_t Proc) const {
  // Eqs. 9-10: alpha = p mod g, gamma = k mod g.
  return positiveMod(Proc % G - Step % G, G);
}

int64_t WalkerOttoFormulas::sendTarget(int64_t Step, int64_t Proc) const {
  // q = P' beta + q' (Eq. 5).
  return ReducedP * beta(Step, Proc) + reducedSendTarget(Step / G, Proc / G);
}

int64_t WalkerOttoFormulas::sendBlock(int64_t Step, int64_t Proc) const {
  // Eq. 8: B = g B' + P K' beta + alpha.
  return G * reducedSendBlock(Step / G, Proc / G) +
         P * ReducedK * beta(Step, Proc) + Proc % G;
}

int64_t WalkerOttoFormulas::receiveBlock(int64_t Step, int64_t Proc) const {
  // Eq. 11.
  return K * Proc + G * (Step / G) + (Proc / ReducedP + Step % G) % G;
}

int64_t WalkerOttoFormulas::firstStep(int64_t Src, int64_t Dst) const {
  // Dst receives blocks Dst*K + t, t < K; the first from Src has the slot
  // t = (Src - Dst*K) mod P.
  int64_t Slot = positiveMod(Src - (Dst % P) * (K % P), P);
  if (Slot >= K)
    return -1;
  // Eq. 11: t = g floor(k/g) + ((floor(q/P') + k mod g) mod g).
  int64_t Gamma = positiveMod(Slot % G - Dst / ReducedP, G);
  return G * (Slot / G) + Gamma;
}

bool walkerOttoApplies(const Layout &From, const Layout &To, std::string *Why) {
  auto Fail = [&](const std::string &Reason) {
    if (Why)
      *Why = "walker_otto needs " + Reason;
    return false;
  };
  if (!bothBlockCyclic("walker_otto", From, To, Why))
    return false;
  if (From.procs() != To.procs())
    return Fail("P = Q (got P=" + std::to_string(From.procs()) +
                ", Q=" + std::to_string(To.procs()) + ")");
  int64_t R = From.blockSize(), S = To.blockSize();
  if (S % R != 0 && R % S != 0)
    return Fail("one block size to be a multiple of the other (got r=" +
                std::to_string(R) + ", s=" + std::to_string(S) + ")");
  return true;
}

Schedule scheduleWalkerOtto(const Layout &From, const Layout &To,
                            const CommGrid &G) {
  std::string Why;
  if (!walkerOttoApplies(From, To, &Why))
    throw InvalidArgument(Why);
  requireGridOfLayouts("walker_otto", From, To, G);
  int64_t P = From.procs();

  Direction Dir = directionOf(From, To);
  WalkerOttoFormulas Formulas(P, Dir.K);
  Schedule S;
  S.Algorithm = "walker_otto";
  S.Steps.resize(std::min(Dir.K, P));
  for (size_t Id = 0; Id < G.Messages.size(); ++Id) {
    const Message &M = G.Messages[Id];
    int64_t Step = -1;
    if (M.Src >= 0 && M.Src < P && M.Dst >= 0 && M.Dst < P)
      Step = Dir.Shrinks ? Formulas.firstStep(M.Dst, M.Src)
                         : Formulas.firstStep(M.Src, M.Dst);
    if (Step < 0)
      throw InvalidArgument("walker_otto: the grid has a message " +
                            std::to_string(M.Src) + " -> " +
                            std::to_string(M.Dst) + " that the layouts " +
                            From.distribution().str() + " -> " +
                            To.distribution().str() + " do not exchange");
    S.Steps[Step].push_back(static_cast<int64_t>(Id));
  }

  S.Steps.erase(std::remove_if(S.Steps.begin(), S.Steps.end(),
                               [](const std::vector<int64_t> &Step) {
                                 return Step.empty();
                               }),
                S.Steps.end());
  repairSteps(G, S);
  return S;
}

} // namespace detail
} // namespace redist
