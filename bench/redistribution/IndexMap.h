//===- IndexMap.h - The benchmark's own index maps ------------------------===//
//
// Index maps and message patterns of block-cyclic and GEN_BLOCK layouts,
// written for the benchmark independently of lib/: the hand-written peers and
// the verification of every method's result must not trust the code they are
// compared with.
//
// The block-cyclic local layout is ScaLAPACK's: global element g lives on
// process (g / b) % P at local index (g / (b*P)) * b + g % b. Under GEN_BLOCK
// process p holds the Sizes[p] consecutive elements from Starts[p] on.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_INDEXMAP_H
#define REDIST_BENCH_INDEXMAP_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace redist {
namespace bench {

/// CYCLIC(Block) or GEN_BLOCK(Sizes) over Procs processes, applied to N
/// elements. Either way the elements come in blocks, each contiguous in
/// global order on one process and in its local order: the blocks of b
/// elements of CYCLIC(b), or the one segment of each process of GEN_BLOCK.
struct IndexMap {
  int64_t Procs = 1;
  /// The b of CYCLIC(b); 0 for GEN_BLOCK.
  int64_t Block = 1;
  int64_t N = 0;
  /// GEN_BLOCK only: segment sizes, and their prefix sums (Procs + 1).
  std::vector<int64_t> Sizes;
  std::vector<int64_t> Starts;

  static IndexMap blockCyclic(int64_t Procs, int64_t Block, int64_t N);
  static IndexMap genBlock(std::vector<int64_t> Sizes);

  bool isGenBlock() const { return Block == 0; }
  /// Number of elements process Proc holds (ScaLAPACK's numroc for
  /// block-cyclic).
  int64_t localSize(int64_t Proc) const;
  int64_t owner(int64_t G) const;
  int64_t toLocal(int64_t G) const;
  int64_t toGlobal(int64_t Proc, int64_t L) const;
  /// Elements from G to the end of G's block.
  int64_t blockRemaining(int64_t G) const;
  /// The number of global elements after which the layout repeats shifted
  /// by the same local stride on every process (P*b); 0 when it does not
  /// repeat (GEN_BLOCK).
  int64_t period() const { return isGenBlock() ? 0 : Procs * Block; }
};

/// Global elements [Global, Global + Length) that lie in one block of the
/// source layout and one block of the target layout, so they are contiguous
/// on both sides: from SrcLocal on process Src to DstLocal on process Dst.
struct Segment {
  int64_t Global;
  int64_t Src;
  int64_t Dst;
  int64_t SrcLocal;
  int64_t DstLocal;
  int64_t Length;
};

/// Calls F(Segment) for every segment of global elements [Begin, End), in
/// increasing global order.
template <typename Fn>
void forEachSegment(const IndexMap &From, const IndexMap &To, int64_t Begin,
                    int64_t End, Fn &&F) {
  for (int64_t G = Begin; G < End;) {
    int64_t Len =
        std::min({From.blockRemaining(G), To.blockRemaining(G), End - G});
    F(Segment{G, From.owner(G), To.owner(G), From.toLocal(G), To.toLocal(G),
              Len});
    G += Len;
  }
}

/// Length elements contiguous at SrcLocal on the sender and DstLocal on the
/// receiver.
struct PairRun {
  int64_t SrcLocal;
  int64_t DstLocal;
  int64_t Length;
};

/// The elements one source process sends to one target process, in
/// increasing global order. Two block-cyclic layouts repeat every slice of
/// L = lcm(P*r, Q*s) global elements, so the message is the runs of the
/// first slice repeated Repeat times (shifted by SrcStride = L/P and
/// DstStride = L/Q local elements each time), then the runs of the
/// incomplete last slice at absolute offsets. With a GEN_BLOCK side nothing
/// repeats: every run is a tail run (one run between two GEN_BLOCKs).
struct PairPattern {
  std::vector<PairRun> SliceRuns;
  int64_t Repeat = 0;
  int64_t SrcStride = 0;
  int64_t DstStride = 0;
  std::vector<PairRun> TailRuns;

  /// Number of elements of the message.
  int64_t length() const;
  /// Calls F(PairRun) for every run in message order, offsets absolute.
  template <typename Fn> void forEachRun(Fn &&F) const {
    for (int64_t Rep = 0; Rep < Repeat; ++Rep)
      for (const PairRun &R : SliceRuns)
        F(PairRun{R.SrcLocal + Rep * SrcStride, R.DstLocal + Rep * DstStride,
                  R.Length});
    for (const PairRun &R : TailRuns)
      F(R);
  }
};

/// The messages source process Src sends, indexed by target process
/// (To.Procs entries; empty patterns for targets it sends nothing to).
std::vector<PairPattern> patternsFromSource(const IndexMap &From,
                                            const IndexMap &To, int64_t Src);
/// The messages target process Dst receives, indexed by source process.
std::vector<PairPattern> patternsToTarget(const IndexMap &From,
                                          const IndexMap &To, int64_t Dst);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_INDEXMAP_H
