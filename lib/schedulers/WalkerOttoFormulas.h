//===- WalkerOttoFormulas.h - Walker & Otto's closed-form schedules -------===//
//
// Private to the library. The optimal send and receive schedules of
// walker-otto-1996 for growing the block size by a
// factor K on P processes. Blocks are counted in units of the small block
// size, within the first superblock of P*K blocks: block B lives on process
// B mod P before and on process B / K after the redistribution.
//
// In step k, process p sends block sendBlock(k, p) (Eqs. 7-10: the reduced
// system solved with the extended Euclid algorithm, using the ceiling of
// docs/paper-corrections.md for z, expanded into g x g permutation blocks
// with the layout of Fig. 7(a)), and process q receives block
// receiveBlock(k, q) (Eq. 11). Each step is a permutation: every process
// sends one block and receives one.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_WALKEROTTOFORMULAS_H
#define REDIST_LIB_SCHEDULERS_WALKEROTTOFORMULAS_H

#include <cstdint>

namespace redist {
namespace detail {

class WalkerOttoFormulas {
public:
  /// P processes, block size grows by K. Both must be positive.
  WalkerOttoFormulas(int64_t P, int64_t K);

  int64_t procs() const { return P; }
  int64_t factor() const { return K; }
  /// g = gcd(P, K), and the reduced system P' = P / g, K' = K / g.
  int64_t gcd() const { return G; }

  /// q(k, p): the process that process p sends to in step k, computed
  /// without forming B, so it never overflows for P, K < 2^31.
  int64_t sendTarget(int64_t Step, int64_t Proc) const;
  /// B(k, p): the global block process p sends in step k (0 <= k < K).
  /// P * K must fit in int64_t.
  int64_t sendBlock(int64_t Step, int64_t Proc) const;
  /// C(k, q): the global block process q receives in step k (Eq. 11).
  int64_t receiveBlock(int64_t Step, int64_t Proc) const;
  /// The first step in which process Src sends to process Dst, or -1 if Src
  /// sends Dst nothing: Eq. 11 read backwards from the slot of the first
  /// block Dst gets from Src. O(1), and exact for P, K < 2^31.
  int64_t firstStep(int64_t Src, int64_t Dst) const;

  /// q'(k', p') = lambda x + P' z: the target process in the reduced
  /// system's step k' (lambda = p' - k', x K' + y P' = 1).
  int64_t reducedSendTarget(int64_t ReducedStep, int64_t ReducedProc) const;
  /// b'(k', p') = -lambda y + K' z: the local block sent.
  int64_t reducedSendLocalBlock(int64_t ReducedStep, int64_t ReducedProc) const;
  /// B'(k', p'): the solution of B' = q'K' + k' = b'P' + p' (Eq. 7).
  int64_t reducedSendBlock(int64_t ReducedStep, int64_t ReducedProc) const {
    return reducedSendTarget(ReducedStep, ReducedProc) * ReducedK + ReducedStep;
  }

  /// Where a block starts (process, local block) and ends (process, slot).
  int64_t sourceOf(int64_t Block) const { return Block % P; }
  int64_t targetOf(int64_t Block) const { return Block / K; }
  int64_t sourceLocalBlock(int64_t Block) const { return Block / P; }
  int64_t targetSlot(int64_t Block) const { return Block % K; }

private:
  /// beta of Eq. 10: which permutation block row step k uses for process p.
  int64_t beta(int64_t Step, int64_t Proc) const;
  /// z of the closed form, for lambda = p' - k'.
  int64_t z(int64_t Lambda) const;

  int64_t P, K, G, ReducedP, ReducedK;
  /// X * K' + Y * P' = 1, from the extended Euclid algorithm.
  int64_t X, Y;
};

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_WALKEROTTOFORMULAS_H
