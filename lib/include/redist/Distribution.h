//===- redist/Distribution.h - HPF distributions and their index maps -----===//
//
// A Distribution is the HPF format of a 1-D array over a number of processes
// (BLOCK, BLOCK(k), CYCLIC, CYCLIC(k), GEN_BLOCK). A Layout is a distribution
// applied to an array of N elements: it owns the global <-> local index maps
// in the standard block-cyclic local layout (ScaLAPACK's numroc convention:
// local index = (g / (b*P)) * b + g % b on owner (g / b) % P).
//
// Every regular format resolves to block-cyclic with block size b:
//   BLOCK     -> b = ceil(N / P) (b = 1 when N = 0)
//   BLOCK(k)  -> b = k, and k * P must cover N (HPF's rule)
//   CYCLIC    -> b = 1
//   CYCLIC(k) -> b = k
// GEN_BLOCK gives process p one contiguous segment of sizes[p] elements.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_DISTRIBUTION_H
#define REDIST_DISTRIBUTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace redist {

enum class DistKind { Block, BlockSized, Cyclic, GenBlock };

/// An HPF distribution format over a number of processes, independent of N.
/// The factories throw InvalidArgument naming the value for Procs <= 0,
/// K <= 0, or GEN_BLOCK without sizes or with a negative size.
class Distribution {
public:
  /// BLOCK over Procs processes.
  static Distribution block(int64_t Procs);
  /// BLOCK(K): blocks of K elements, one per process.
  static Distribution block(int64_t Procs, int64_t K);
  /// CYCLIC(K); CYCLIC is K = 1.
  static Distribution cyclic(int64_t Procs, int64_t K = 1);
  /// GEN_BLOCK(Sizes): process p holds Sizes[p] consecutive elements.
  static Distribution genBlock(std::vector<int64_t> Sizes);

  DistKind kind() const { return Kind; }
  int64_t procs() const { return Procs; }
  /// The k of BLOCK(k) or CYCLIC(k); 0 for BLOCK and GEN_BLOCK.
  int64_t param() const { return Param; }
  const std::vector<int64_t> &sizes() const { return Sizes; }

  /// HPF spelling, e.g. "cyclic(3)", "block", "gen_block(4,0,7)".
  std::string str() const;

  bool operator==(const Distribution &O) const;
  bool operator!=(const Distribution &O) const { return !(*this == O); }

private:
  Distribution(DistKind Kind, int64_t Procs, int64_t Param,
               std::vector<int64_t> Sizes = {});
  DistKind Kind;
  int64_t Procs;
  int64_t Param;
  std::vector<int64_t> Sizes;
};

/// A distribution applied to an array of N elements.
class Layout {
public:
  /// Throws InvalidArgument naming the value when N < 0, BLOCK(k) with
  /// k * P < N, or GEN_BLOCK sizes that do not sum to N (P <= 0, k <= 0 and
  /// negative sizes never get this far: Distribution's factories throw).
  Layout(const Distribution &D, int64_t N);

  /// Shorthand for Layout(Distribution::cyclic(P, B), N).
  static Layout blockCyclic(int64_t P, int64_t B, int64_t N);

  const Distribution &distribution() const { return Dist; }
  int64_t extent() const { return N; }
  int64_t procs() const { return P; }
  /// True for every format but GEN_BLOCK.
  bool isBlockCyclic() const { return Dist.kind() != DistKind::GenBlock; }
  /// The resolved block size b (block-cyclic layouts only).
  int64_t blockSize() const { return B; }

  /// Number of elements process p holds (numroc for block-cyclic). This and
  /// the maps below throw InvalidArgument for a process or index out of
  /// range.
  int64_t localSize(int64_t Proc) const;
  /// The largest localSize of any process. O(1).
  int64_t maxLocalSize() const { return MaxLocal; }
  /// The process that holds global element G (0 <= G < N).
  int64_t owner(int64_t G) const;
  /// The index of global element G within its owner's local part.
  int64_t toLocal(int64_t G) const;
  /// The global index of local element L of process Proc.
  int64_t toGlobal(int64_t Proc, int64_t L) const;
  /// First global index of process Proc's segment (GEN_BLOCK only).
  int64_t segmentBegin(int64_t Proc) const;

  bool operator==(const Layout &O) const { return N == O.N && Dist == O.Dist; }

private:
  Distribution Dist;
  int64_t N;
  int64_t P;
  int64_t B = 0;
  int64_t MaxLocal = 0;
  std::vector<int64_t> Offsets; // GEN_BLOCK prefix sums, size P + 1.
};

} // namespace redist

#endif // REDIST_DISTRIBUTION_H
