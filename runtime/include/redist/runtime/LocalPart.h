//===- redist/runtime/LocalPart.h - Filling and reading a local part ------===//
//
// What a program needs to work on its own part of a distributed array: how
// many elements a process holds, which global element a local index is, and
// where a global element lives. These wrap the index maps of redist::Layout
// and check their arguments; inside loops, build a Layout once (or take
// Plan::source() / Plan::target()) and call its methods directly.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_LOCALPART_H
#define REDIST_RUNTIME_LOCALPART_H

#include "redist/Distribution.h"

#include <cstdint>

namespace redist {

/// Where a global element lives: its owner and its index in the owner's part.
struct LocalPosition {
  int64_t Proc = 0;
  int64_t Index = 0;
  bool operator==(const LocalPosition &O) const {
    return Proc == O.Proc && Index == O.Index;
  }
};

/// Number of elements process Proc holds of an N-element array distributed
/// by D; 0 for a process beyond D's process count (a rank without data).
int64_t localSize(const Distribution &D, int64_t N, int64_t Proc);

/// Global index of local element Local of process Proc. Throws
/// InvalidArgument when Local is not within Proc's part.
int64_t globalIndex(const Distribution &D, int64_t N, int64_t Proc,
                    int64_t Local);

/// Owner and local index of global element Global (0 <= Global < N).
LocalPosition localPosition(const Distribution &D, int64_t N, int64_t Global);

} // namespace redist

#endif // REDIST_RUNTIME_LOCALPART_H
