//===- IndexMap.cpp - The benchmark's own index maps ----------------------===//

#include "IndexMap.h"

#include <numeric>

namespace redist {
namespace bench {

IndexMap IndexMap::blockCyclic(int64_t Procs, int64_t Block, int64_t N) {
  IndexMap M;
  M.Procs = Procs;
  M.Block = Block;
  M.N = N;
  return M;
}

IndexMap IndexMap::genBlock(std::vector<int64_t> Sizes) {
  IndexMap M;
  M.Procs = static_cast<int64_t>(Sizes.size());
  M.Block = 0;
  M.Starts.assign(1, 0);
  for (int64_t Size : Sizes)
    M.Starts.push_back(M.Starts.back() + Size);
  M.N = M.Starts.back();
  M.Sizes = std::move(Sizes);
  return M;
}

int64_t IndexMap::localSize(int64_t Proc) const {
  if (isGenBlock())
    return Sizes[Proc];
  int64_t WholeBlocks = N / Block;
  int64_t Size = WholeBlocks / Procs * Block;
  int64_t Extra = WholeBlocks % Procs;
  if (Proc < Extra)
    Size += Block;
  else if (Proc == Extra)
    Size += N % Block;
  return Size;
}

int64_t IndexMap::owner(int64_t G) const {
  if (!isGenBlock())
    return (G / Block) % Procs;
  // The last process whose segment starts at or before G: empty segments
  // starting at the same place come before it.
  return std::upper_bound(Starts.begin(), Starts.end(), G) - Starts.begin() - 1;
}

int64_t IndexMap::toLocal(int64_t G) const {
  if (isGenBlock())
    return G - Starts[owner(G)];
  return G / (Block * Procs) * Block + G % Block;
}

int64_t IndexMap::toGlobal(int64_t Proc, int64_t L) const {
  if (isGenBlock())
    return Starts[Proc] + L;
  return (L / Block * Procs + Proc) * Block + L % Block;
}

int64_t IndexMap::blockRemaining(int64_t G) const {
  if (isGenBlock())
    return Starts[owner(G) + 1] - G;
  return Block - G % Block;
}

int64_t PairPattern::length() const {
  int64_t Len = 0;
  for (const PairRun &R : SliceRuns)
    Len += R.Length;
  Len *= Repeat;
  for (const PairRun &R : TailRuns)
    Len += R.Length;
  return Len;
}

namespace {

// Appends R to Runs, merging it into the last run when both sides continue it.
void appendRun(std::vector<PairRun> &Runs, const PairRun &R) {
  if (!Runs.empty()) {
    PairRun &Last = Runs.back();
    if (Last.SrcLocal + Last.Length == R.SrcLocal &&
        Last.DstLocal + Last.Length == R.DstLocal) {
      Last.Length += R.Length;
      return;
    }
  }
  Runs.push_back(R);
}

// The patterns of process Me as a source (BySource) or as a target, indexed
// by the peer process.
std::vector<PairPattern> patternsOf(const IndexMap &From, const IndexMap &To,
                                    bool BySource, int64_t Me) {
  std::vector<PairPattern> Patterns(BySource ? To.Procs : From.Procs);
  // The slice length lcm(P*r, Q*s); when a layout does not repeat, or the
  // slice overflows or exceeds N, the whole array is one incomplete slice.
  int64_t A = From.period(), B = To.period();
  int64_t Slice = 0;
  bool NoSlice =
      A == 0 || B == 0 || __builtin_mul_overflow(A / std::gcd(A, B), B, &Slice);
  int64_t Repeat = (!NoSlice && Slice <= From.N) ? From.N / Slice : 0;
  int64_t TailBegin = Repeat > 0 ? Repeat * Slice : 0;

  auto Collect = [&](int64_t Begin, int64_t End, bool InSlice) {
    forEachSegment(From, To, Begin, End, [&](const Segment &S) {
      if ((BySource ? S.Src : S.Dst) != Me)
        return;
      PairPattern &Pat = Patterns[BySource ? S.Dst : S.Src];
      appendRun(InSlice ? Pat.SliceRuns : Pat.TailRuns,
                PairRun{S.SrcLocal, S.DstLocal, S.Length});
    });
  };
  if (Repeat > 0)
    Collect(0, Slice, /*InSlice=*/true);
  Collect(TailBegin, From.N, /*InSlice=*/false);

  for (PairPattern &Pat : Patterns) {
    Pat.Repeat = Pat.SliceRuns.empty() ? 0 : Repeat;
    Pat.SrcStride = Repeat > 0 ? Slice / From.Procs : 0;
    Pat.DstStride = Repeat > 0 ? Slice / To.Procs : 0;
  }
  return Patterns;
}

} // namespace

std::vector<PairPattern> patternsFromSource(const IndexMap &From,
                                            const IndexMap &To, int64_t Src) {
  return patternsOf(From, To, /*BySource=*/true, Src);
}

std::vector<PairPattern> patternsToTarget(const IndexMap &From,
                                          const IndexMap &To, int64_t Dst) {
  return patternsOf(From, To, /*BySource=*/false, Dst);
}

} // namespace bench
} // namespace redist
