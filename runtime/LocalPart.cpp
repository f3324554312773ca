//===- LocalPart.cpp - Filling and reading a local part -------------------===//
#include "redist/runtime/LocalPart.h"

#include "redist/Error.h"

#include <string>

namespace redist {

int64_t localSize(const Distribution &D, int64_t N, int64_t Proc) {
  Layout L(D, N);
  if (Proc < 0)
    throw InvalidArgument("localSize: process " + std::to_string(Proc) +
                          " is negative");
  return Proc < L.procs() ? L.localSize(Proc) : 0;
}

int64_t globalIndex(const Distribution &D, int64_t N, int64_t Proc,
                    int64_t Local) {
  int64_t Size = localSize(D, N, Proc);
  if (Local < 0 || Local >= Size)
    throw InvalidArgument("globalIndex: local index " + std::to_string(Local) +
                          " is outside process " + std::to_string(Proc) +
                          "'s part of " + std::to_string(Size) + " elements");
  return Layout(D, N).toGlobal(Proc, Local);
}

LocalPosition localPosition(const Distribution &D, int64_t N, int64_t Global) {
  Layout L(D, N);
  if (Global < 0 || Global >= N)
    throw InvalidArgument("localPosition: global index " +
                          std::to_string(Global) + " is outside 0.." +
                          std::to_string(N - 1));
  return {L.owner(Global), L.toLocal(Global)};
}

} // namespace redist
