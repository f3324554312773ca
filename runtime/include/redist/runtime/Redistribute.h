//===- redist/runtime/Redistribute.h - Typed, cached redistribution -------===//
//
// The convenience layer over Plan: plans are cached by their parameters (plan
// once, execute many) and std::vector targets are resized to the new local
// size. This is what redistc's dynamic path calls.
//
// The cache is per process and keyed by every parameter, the communicator
// handle included. A communicator's plans are dropped when the communicator
// is freed (an attribute callback), and every plan when MPI_Finalize runs;
// clearPlanCache drops them earlier. Not thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_REDISTRIBUTE_H
#define REDIST_RUNTIME_REDISTRIBUTE_H

#include "redist/runtime/Plan.h"

#include <cstddef>
#include <type_traits>
#include <vector>

namespace redist {

/// The cached plan for these parameters, built on first use, which is
/// collective. With Options.Verify every call is collective: the parameters
/// are compared across ranks before the cache is consulted, so ranks that
/// would find different plans (or none) all throw instead of hanging. The
/// cache is per process.
const Plan &cachedPlan(const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options = PlanOptions());

/// Drops every cached plan. Collective over the communicators of the cached
/// plans when MPI is still running (their duplicates are freed).
void clearPlanCache();

/// Number of plans in the cache.
std::size_t planCacheSize();

/// Checks, with one MPI_Allreduce over the plan's communicator, that every
/// rank's source holds sourceLocalSize() elements. Throws InvalidArgument on
/// every rank when one does not (naming the rank and the sizes), so that no
/// rank is left waiting in execute().
void checkSourceSize(const Plan &Pl, std::size_t SrcElements);

/// Moves Src (this rank's part under From) into Dst (resized to its part
/// under To).
template <typename T>
void redistribute(const std::vector<T> &Src, std::vector<T> &Dst,
                  const Distribution &From, const Distribution &To, int64_t N,
                  MPI_Comm Comm, const PlanOptions &Options = PlanOptions()) {
  static_assert(std::is_trivially_copyable<T>::value,
                "redist moves trivially copyable elements only");
  const Plan &Pl = cachedPlan(From, To, N, sizeof(T), Comm, Options);
  checkSourceSize(Pl, Src.size());
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
