//===- Session.h - One benchmark session: build, run, time, check ---------===//
//
// A session builds every chosen method for one Problem, times their setup,
// then times their runs round by round with the references (bench/reference):
// each of the rounds runs one core's memcpy, the parallel copy limit and
// every method once, so a burst of load from other programs on a shared
// machine hits all of them alike, and in an order of its own
// (RoundOrder.h), so that what one run leaves behind does not always help
// or hurt the same next one.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_SESSION_H
#define REDIST_BENCH_SESSION_H

#include "Method.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {
namespace bench {

/// An error every rank detects the same way: the benchmark stops.
struct BenchError {
  std::string Message;
};

/// What the references measured, one time per round each, on every rank.
struct ReferenceTimes {
  std::vector<double> Memcpy; ///< one core's memcpy of the whole array
  std::vector<double> Limit;  ///< the parallel copy limit
};

/// What one method measured, on every rank.
struct Result {
  std::string Method;
  std::string Algorithm;
  double PlanSeconds = 0;
  std::vector<double> Times;
  bool Checked = false;
  bool Correct = true;
  /// For a method on node memory: in how many of the timed runs the node's
  /// ranks shared the writing of their targets (nodeWritesSince()).
  std::optional<int64_t> NodeWrites;
};

/// The first line of a possibly multi-line message, trimmed.
std::string firstLine(const std::string &Text);

/// Builds and times Methods on the source part Src: setup (plan) time, Reps
/// timed runs, and with Verify a check of every element after the untimed
/// first run and after the last round, whose targets start cleared. The
/// methods that run a plan read NodeSrc instead, a copy of Src in node
/// memory (NodeShared: NodeArray::shared()), and write a target in node
/// memory of their own, but for redist-private; those that must read it
/// there (MustReadNode) fail when they did not (NodeReads.h). Refs receives the
/// references' Reps times each. Collective; throws BenchError when a method
/// cannot be built on some rank.
std::vector<Result> measureAll(const std::vector<MethodInfo> &Methods,
                               const Problem &Pb,
                               const std::vector<double> &Src,
                               const double *NodeSrc, bool NodeShared, int Reps,
                               bool Verify, ReferenceTimes &Refs);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_SESSION_H
