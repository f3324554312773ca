//===- BlockCyclic.cpp - The benchmark's own block-cyclic index maps ------===//

#include "BlockCyclic.h"

#include <numeric>

namespace redist {
namespace bench {

int64_t BlockCyclic::localSize(int64_t Proc) const {
  int64_t WholeBlocks = N / Block;
  int64_t Size = WholeBlocks / Procs * Block;
  int64_t Extra = WholeBlocks % Procs;
  if (Proc < Extra)
    Size += Block;
  else if (Proc == Extra)
    Size += N % Block;
  return Size;
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
std::vector<PairPattern> patternsOf(const BlockCyclic &From,
                                    const BlockCyclic &To, bool BySource,
                                    int64_t Me) {
  std::vector<PairPattern> Patterns(BySource ? To.Procs : From.Procs);
  // The slice length lcm(P*r, Q*s); when it overflows or exceeds N, the whole
  // array is one incomplete slice.
  int64_t A = From.Procs * From.Block, B = To.Procs * To.Block;
  int64_t Slice = 0;
  bool Overflow = __builtin_mul_overflow(A / std::gcd(A, B), B, &Slice);
  int64_t Repeat = (!Overflow && Slice <= From.N) ? From.N / Slice : 0;
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

std::vector<PairPattern> patternsFromSource(const BlockCyclic &From,
                                            const BlockCyclic &To,
                                            int64_t Src) {
  return patternsOf(From, To, /*BySource=*/true, Src);
}

std::vector<PairPattern> patternsToTarget(const BlockCyclic &From,
                                          const BlockCyclic &To, int64_t Dst) {
  return patternsOf(From, To, /*BySource=*/false, Dst);
}

} // namespace bench
} // namespace redist
