//===- OpenShopMatchings.h - Sending messages by perfect matchings --------===//
//
// Private to the library. The construction of desprez-1998-overlapped's
// Theorem 1 (preemptive open shop), used by both overlap schedulers: with
// the remaining lengths R of the messages and W time units left, every port
// has at most W units of work. Square it up as Gonzalez and Sahni do: rows
// are the sources, then the targets; columns the targets, then the sources;
//
//     [ R                                 diag(W - sent by each source) ]
//     [ diag(W - received by each target)                          R^T  ]
//
// has every row and column summing to W, so (Birkhoff, König) its positive
// entries hold a perfect matching. Send the matching for delta = its
// smallest entry, subtract, repeat: each round empties an entry, and the
// pieces end by W. The sources' rows and the targets' columns of a matching
// are messages that can be sent at the same time.
//
// A message is split when a matching leaves it before it is done. Each
// matching is a least-cost perfect one with the messages in progress at
// cost 0 and every other entry dearer than any choice among the rest, so it
// keeps as many messages in progress as any perfect matching can. With
// NoSplit, a round that cannot keep them all fails: a schedule without
// splits by the deadline, or nothing.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_OPENSHOPMATCHINGS_H
#define REDIST_LIB_SCHEDULERS_OPENSHOPMATCHINGS_H

#include "OverlapPorts.h"

#include "redist/OverlapSchedule.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace redist {
namespace detail {

struct MatchingRules {
  /// Among the other entries, prefer messages to the padding: start real
  /// messages as early as possible.
  bool PreferMessages = false;
  /// Fail rather than stop a message in progress.
  bool NoSplit = false;
  /// 0, or a seed that varies the preferences among new messages (several
  /// runs then try different schedules, deterministically).
  uint64_t Variety = 0;
  /// When set, a budget from which the construction takes its work (matrix
  /// entries and columns scanned); a NoSplit run that spends it gives up.
  int64_t *Budget = nullptr;
};

/// Pieces that send Remaining[m] of every message m over [Now, Deadline);
/// InProgress marks the messages to keep going first. Every port's work must
/// fit in Deadline - Now, and the ports must have at most MaxSplitProcesses
/// entries. nullopt only with Rules.NoSplit (no schedule without splits, or
/// the budget ran out).
std::optional<std::vector<OverlapEvent>>
sendByMatchings(const OverlapPorts &Ports,
                const std::vector<int64_t> &Remaining,
                std::vector<char> InProgress, int64_t Now, int64_t Deadline,
                MatchingRules Rules);

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_OPENSHOPMATCHINGS_H
