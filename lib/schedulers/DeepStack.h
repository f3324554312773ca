//===- DeepStack.h - Running deep recursion on a stack of its own ---------===//
//
// Runs a function on a thread with a large stack, so that a deep recursive
// search does not depend on the caller's stack: a user's thread may have
// 2 MiB or less, and sanitizers make every frame several times larger.
//
//===----------------------------------------------------------------------===//

#ifndef REDIST_SCHEDULERS_DEEPSTACK_H
#define REDIST_SCHEDULERS_DEEPSTACK_H

#include <cstddef>
#include <functional>

namespace redist {
namespace detail {

/// Runs Body on a new thread whose stack holds StackBytes, waits for it and
/// rethrows what it threw. If no such thread can be made, runs Body here.
void runOnDeepStack(std::size_t StackBytes, const std::function<void()> &Body);

} // namespace detail
} // namespace redist

#endif // REDIST_SCHEDULERS_DEEPSTACK_H
