//===- WorkClaims.h - Chunks of work that a node's ranks claim ------------===//
//
// Private to the runtime. Where the ranks of a node share one copy (the
// tiles of NodePull.cpp, the slabs of NodeSlabs.cpp), a fixed split leaves
// the ranks that finish first waiting for the slowest: a core busy with
// interrupts, or a rank that two ranks per core leave waiting for its turn.
// Claiming chunks from one counter in memory that every rank maps instead
// lets whichever rank runs take the next chunk.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_WORKCLAIMS_H
#define REDIST_RUNTIME_WORKCLAIMS_H

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

namespace redist {
namespace detail {

/// One counter that the ranks of a node map. Each round of claims hands
/// out chunks 0 to Chunks - 1, each to exactly one rank.
class WorkClaims {
public:
  /// Collective over Node (ranks of one node): null if any rank could not
  /// map the counter, on every rank.
  static std::unique_ptr<WorkClaims> create(MPI_Comm Node);
  ~WorkClaims();
  WorkClaims(const WorkClaims &) = delete;
  WorkClaims &operator=(const WorkClaims &) = delete;

  /// The next unclaimed chunk of this round's Chunks, or Chunks when every
  /// chunk is taken. Every rank calls it until it returns Chunks, with the
  /// same Chunks, and a barrier separates one round from the next: so each
  /// round takes exactly Chunks + ranks numbers from the counter, and every
  /// rank knows where the next round starts without touching the counter.
  int64_t next(int64_t Chunks);
  /// Ends this rank's round (after next() returned Chunks).
  void endRound(int64_t Chunks) { Base += Chunks + Ranks; }

private:
  WorkClaims(std::atomic<int64_t> *Counter, int Ranks)
      : Counter(Counter), Ranks(Ranks) {}
  std::atomic<int64_t> *Counter;
  int Ranks;
  int64_t Base = 0; ///< the counter's value where this round started
};

/// The part of the work that shareUnits() leaves to claims, in 1/Parts:
/// the rest goes to each rank in a fixed share, whose lines then stay in
/// that rank's cache from one execute to the next.
constexpr int64_t ClaimedParts = 8;
/// Chunks per rank that the claimed part is cut into.
constexpr int64_t ClaimChunksPerRank = 8;

/// This rank's part of Units units of work that rank Me of Ranks shares:
/// Do(First, Last) for each range of units it takes. Each rank first takes
/// its fixed share of the first units, then, where Claims is not null
/// (every rank must then call this), claims chunks of the last
/// 1/ClaimedParts of them while any is left.
template <typename Fn>
void shareUnits(WorkClaims *Claims, int Me, int Ranks, int64_t Units, Fn Do) {
  const int64_t Fixed = Claims ? Units - Units / ClaimedParts : Units;
  Do(Fixed * Me / Ranks, Fixed * (Me + 1) / Ranks);
  if (!Claims)
    return;
  const int64_t Rest = Units - Fixed,
                Chunks = std::min(Rest, ClaimChunksPerRank * Ranks);
  for (int64_t C; (C = Claims->next(Chunks)) < Chunks;)
    Do(Fixed + Rest * C / Chunks, Fixed + Rest * (C + 1) / Chunks);
  Claims->endRound(Chunks);
}

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_WORKCLAIMS_H
