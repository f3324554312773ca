//===- MessageChain.h - The chain structure of GEN_BLOCK messages ---------===//
//
// Private to the library. When every process of both layouts holds one
// contiguous segment (GEN_BLOCK, BLOCK), the messages sorted by (Src, Dst)
// follow the array: each process's messages are consecutive, and two
// consecutive messages share either their sender or their receiver (or
// nothing, where a source and a target segment end at the same element).
//
// So the messages that conflict (share a process) form runs: a run is two or
// more consecutive messages of one sender, or of one receiver. A run is a
// clique of the conflict graph, and consecutive runs share at most one
// message, the last of the one and the first of the next. A message inside a
// run (neither first nor last) conflicts with nothing outside it. The
// schedulers for GEN_BLOCK (scpa, chain) work on this structure.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_MESSAGECHAIN_H
#define REDIST_LIB_SCHEDULERS_MESSAGECHAIN_H

#include "redist/CommGrid.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {
namespace detail {

/// Messages First..Last (ids, inclusive, Last > First) with one common sender
/// (BySender) or one common receiver.
struct MessageRun {
  int64_t First;
  int64_t Last;
  bool BySender;
  int64_t size() const { return Last - First + 1; }
};

struct MessageChain {
  /// Every run, in chain order (increasing First).
  std::vector<MessageRun> Runs;
  /// The largest number of messages of one process (0 without messages).
  int64_t MaxDegree = 0;
};

/// nullopt when G's messages form a chain; otherwise which messages break it.
std::optional<std::string> whyNotChain(const CommGrid &G);

/// The runs of G. Throws InvalidArgument (with whyNotChain's reason) when G's
/// messages do not form a chain.
MessageChain analyseChain(const CommGrid &G);

/// Whether messages A and B share their sender or their receiver.
inline bool shareProcess(const Message &A, const Message &B) {
  return A.Src == B.Src || A.Dst == B.Dst;
}

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_MESSAGECHAIN_H
