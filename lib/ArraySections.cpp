//===- ArraySections.cpp - Array sections as directives write them -------===//

#include "redist/ArraySections.h"

#include "redist/Error.h"

#include <string>

namespace redist {

namespace {

/// The first index and extent of R in a dimension of Extent; throws naming
/// Role ("source" or "target") and dimension D when R lies outside it.
std::pair<int64_t, int64_t> rangeIn(const SectionRange &R, int64_t Extent,
                                    const char *Role, size_t D) {
  if (R.Whole)
    return {0, Extent};
  if (R.Begin < 0 || R.End < R.Begin || R.End > Extent)
    throw InvalidArgument(std::string("the ") + Role +
                          " section of dimension " + std::to_string(D) + ", [" +
                          std::to_string(R.Begin) + ", " +
                          std::to_string(R.End) + "), is outside the extent " +
                          std::to_string(Extent));
  return {R.Begin, R.End - R.Begin};
}

} // namespace

ArrayRegion sectionRegion(const std::vector<int64_t> &SourceExtents,
                          const std::vector<int64_t> &TargetExtents,
                          const std::vector<int> &Permutation,
                          const std::vector<SectionRange> &Source,
                          const std::vector<SectionRange> &Target) {
  const size_t N = SourceExtents.size();
  if (TargetExtents.size() != N)
    throw InvalidArgument("the source has rank " + std::to_string(N) +
                          " and the target rank " +
                          std::to_string(TargetExtents.size()));
  std::vector<int> Perm = Permutation;
  if (Perm.empty())
    for (size_t K = 0; K < N; ++K)
      Perm.push_back(static_cast<int>(K));
  if (Perm.size() != N)
    throw InvalidArgument("the permutation has " + std::to_string(Perm.size()) +
                          " entries for arrays of rank " + std::to_string(N));
  std::vector<bool> Seen(N, false);
  for (size_t K = 0; K < N; ++K) {
    const int A = Perm[K];
    const bool In = A >= 0 && static_cast<size_t>(A) < N;
    if (!In || Seen[static_cast<size_t>(A)])
      throw InvalidArgument(
          "the permutation is not one: entry " + std::to_string(K) + " is " +
          std::to_string(A) +
          (In ? ", listed twice" : ", outside [0, " + std::to_string(N) + ")"));
    Seen[static_cast<size_t>(A)] = true;
  }
  for (const auto *Ranges : {&Source, &Target})
    if (!Ranges->empty() && Ranges->size() != N)
      throw InvalidArgument(
          std::string("the ") + (Ranges == &Source ? "source" : "target") +
          " section has " + std::to_string(Ranges->size()) +
          " ranges for an array of rank " + std::to_string(N));
  ArrayRegion R;
  R.Permutation = Perm;
  R.SourceBegin.resize(N);
  R.Extents.resize(N);
  R.TargetBegin.resize(N);
  for (size_t A = 0; A < N; ++A) {
    const auto [B, E] = rangeIn(Source.empty() ? SectionRange() : Source[A],
                                SourceExtents[A], "source", A);
    R.SourceBegin[A] = B;
    R.Extents[A] = E;
  }
  for (size_t T = 0; T < N; ++T) {
    const auto [B, E] = rangeIn(Target.empty() ? SectionRange() : Target[T],
                                TargetExtents[T], "target", T);
    R.TargetBegin[T] = B;
    const size_t A = static_cast<size_t>(Perm[T]);
    if (E != R.Extents[A])
      throw InvalidArgument(
          "the extents differ after the permutation: target dimension " +
          std::to_string(T) + " has " + std::to_string(E) +
          ", source dimension " + std::to_string(A) + " has " +
          std::to_string(R.Extents[A]));
  }
  return R;
}

bool isWholeAssign(const std::vector<int> &Permutation,
                   const std::vector<SectionRange> &Source,
                   const std::vector<SectionRange> &Target) {
  for (size_t K = 0; K < Permutation.size(); ++K)
    if (Permutation[K] != static_cast<int>(K))
      return false;
  return Source.empty() && Target.empty();
}

std::string regionKey(const ArrayRegion &R) {
  std::string Out = " permute";
  for (int A : R.Permutation)
    Out += " " + std::to_string(A);
  for (const auto *V : {&R.SourceBegin, &R.Extents, &R.TargetBegin}) {
    Out += " |";
    for (int64_t X : *V)
      Out += " " + std::to_string(X);
  }
  return Out;
}

} // namespace redist
