//===- redist/runtime/Redistribute.h - Typed, cached redistribution -------===//
//
// The convenience layer over Plan: plans are cached by their parameters (plan
// once, execute many) and std::vector targets are resized to the new local
// size. This is what redistc's dynamic path calls.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_REDISTRIBUTE_H
#define REDIST_RUNTIME_REDISTRIBUTE_H

#include "redist/runtime/Plan.h"

#include <type_traits>
#include <vector>

namespace redist {

/// The cached plan for these parameters, built on first use. Collective on
/// first use (building may verify); the cache is per process.
const Plan &cachedPlan(const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options = PlanOptions());

/// Drops every cached plan.
void clearPlanCache();

/// Moves Src (this rank's part under From) into Dst (resized to its part
/// under To).
template <typename T>
void redistribute(const std::vector<T> &Src, std::vector<T> &Dst,
                  const Distribution &From, const Distribution &To, int64_t N,
                  MPI_Comm Comm, const PlanOptions &Options = PlanOptions()) {
  static_assert(std::is_trivially_copyable<T>::value,
                "redist moves trivially copyable elements only");
  const Plan &Pl = cachedPlan(From, To, N, sizeof(T), Comm, Options);
  if (static_cast<int64_t>(Src.size()) != Pl.sourceLocalSize())
    throw InvalidArgument("redistribute: source vector holds " +
                          std::to_string(Src.size()) + " elements, expected " +
                          std::to_string(Pl.sourceLocalSize()));
  Dst.resize(static_cast<std::size_t>(Pl.targetLocalSize()));
  Pl.execute(Src.data(), Dst.data());
}

/// In place for a vector: redistributes V from From to To.
template <typename T>
void redistribute(std::vector<T> &V, const Distribution &From,
                  const Distribution &To, int64_t N, MPI_Comm Comm,
                  const PlanOptions &Options = PlanOptions()) {
  std::vector<T> Out;
  redistribute(V, Out, From, To, N, Comm, Options);
  V.swap(Out);
}

} // namespace redist

#endif // REDIST_RUNTIME_REDISTRIBUTE_H
