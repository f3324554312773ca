//===- Classes.cpp - Scheduling class by class (desprez-1998 §4.3.2) ------===//
//
// With r' = r / gcd(r, s) and s' = s / gcd(r, s), gcd(r', Q) = gcd(s', P) = 1
// makes g = gcd(P r', Q s') = gcd(P, Q), and class(k) = {(p, q) : p r' - q s'
// = k mod g} puts one pair in every g x g block of the grid, a permutation
// p mod g -> q mod g (Prop. 3). All pairs of a class exchange messages of the
// same length vol(k) (Prop. 2). Classes exist for k in [1 - r', s' - 1]; when
// that interval is longer than g they are regrouped modulo g.
//
// Each class takes max(P, Q) / g complete steps: step j pairs sender block a
// with receiver block b when a - b = j mod (P / g) (P >= Q), or b - a = j mod
// (Q / g) (Q > P). Every step holds one class, so messages of one length, and
// the schedule reaches both the step and the cost lower bound (Prop. 4).
//
// Each message's step follows from its (p, q) alone, so the schedule is built
// in one pass over the grid. Empty steps (a short array where some messages
// vanish) are dropped, as walker_otto does. Below one slice the survivors
// can still spread over many more steps than the maximum degree; repairSteps
// (StepRepair.h) then brings them down to it.
//
//===----------------------------------------------------------------------===//

#include "SchedulerImpls.h"
#include "StepRepair.h"

#include "redist/Error.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace redist {
namespace detail {

namespace {

int64_t positiveMod(int64_t A, int64_t M) {
  int64_t R = A % M;
  return R < 0 ? R + M : R;
}

/// The block sizes divided by their gcd: the r' and s' of the paper.
struct ReducedBlocks {
  int64_t R, S;
};

ReducedBlocks reduceBlocks(const Layout &From, const Layout &To) {
  int64_t D = std::gcd(From.blockSize(), To.blockSize());
  return {From.blockSize() / D, To.blockSize() / D};
}

} // namespace

bool classesApplies(const Layout &From, const Layout &To, std::string *Why) {
  auto Fail = [&](const std::string &Reason) {
    if (Why)
      *Why = "classes needs " + Reason;
    return false;
  };
  if (!bothBlockCyclic("classes", From, To, Why))
    return false;
  ReducedBlocks RS = reduceBlocks(From, To);
  int64_t P = From.procs(), Q = To.procs();
  if (std::gcd(RS.R, Q) != 1)
    return Fail("gcd(r', Q) = 1 with r' = r / gcd(r, s) (got r'=" +
                std::to_string(RS.R) + ", Q=" + std::to_string(Q) + ", gcd " +
                std::to_string(std::gcd(RS.R, Q)) + ")");
  if (std::gcd(RS.S, P) != 1)
    return Fail("gcd(s', P) = 1 with s' = s / gcd(r, s) (got s'=" +
                std::to_string(RS.S) + ", P=" + std::to_string(P) + ", gcd " +
                std::to_string(std::gcd(RS.S, P)) + ")");
  return true;
}

Schedule scheduleClasses(const Layout &From, const Layout &To,
                         const CommGrid &G) {
  std::string Why;
  if (!classesApplies(From, To, &Why))
    throw InvalidArgument(Why);
  requireGridOfLayouts("classes", From, To, G);
  int64_t P = From.procs(), Q = To.procs();

  ReducedBlocks RS = reduceBlocks(From, To);
  int64_t Gcd = std::gcd(P, Q);
  int64_t SenderBlocks = P / Gcd, ReceiverBlocks = Q / Gcd;
  int64_t StepsPerClass = std::max(SenderBlocks, ReceiverBlocks);

  // Classes in the order k = 1 - r', ..., s' - 1, each residue modulo g once.
  std::vector<int64_t> ClassIndex(Gcd, -1);
  int64_t NumClasses = 0;
  for (int64_t K = 1 - RS.R; K <= RS.S - 1 && NumClasses < Gcd; ++K) {
    int64_t Residue = positiveMod(K, Gcd);
    if (ClassIndex[Residue] < 0)
      ClassIndex[Residue] = NumClasses++;
  }

  // Reduced first: r' and s' may be near the int64 range.
  int64_t RMod = RS.R % Gcd, SMod = RS.S % Gcd;

  Schedule S;
  S.Algorithm = "classes";
  S.Steps.resize(NumClasses * StepsPerClass);
  for (size_t Id = 0; Id < G.Messages.size(); ++Id) {
    const Message &M = G.Messages[Id];
    int64_t Class = -1;
    if (M.Src >= 0 && M.Src < P && M.Dst >= 0 && M.Dst < Q)
      Class = ClassIndex[positiveMod(
          (M.Src % Gcd) * RMod - (M.Dst % Gcd) * SMod, Gcd)];
    if (Class < 0)
      throw InvalidArgument("classes: the grid has a message " +
                            std::to_string(M.Src) + " -> " +
                            std::to_string(M.Dst) + " that the layouts " +
                            From.distribution().str() + " -> " +
                            To.distribution().str() + " do not exchange");
    int64_t SenderBlock = M.Src / Gcd, ReceiverBlock = M.Dst / Gcd;
    int64_t InClass =
        SenderBlocks >= ReceiverBlocks
            ? positiveMod(SenderBlock - ReceiverBlock, SenderBlocks)
            : positiveMod(ReceiverBlock - SenderBlock, ReceiverBlocks);
    S.Steps[Class * StepsPerClass + InClass].push_back(Id);
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
