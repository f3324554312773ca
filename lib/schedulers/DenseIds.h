//===- DenseIds.h - Numbering the processes that appear in a grid ---------===//
//
// Private to the library. A grid of P x Q processes may have far fewer
// messages than processes (P = 10^9 with N = 10 is a valid redistribution),
// so arrays indexed by process number would cost O(P) memory for O(N) work.
// denseIds renumbers the processes that do appear, 0..K-1 in increasing
// order of process number, in O(messages) memory.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_SCHEDULERS_DENSEIDS_H
#define REDIST_LIB_SCHEDULERS_DENSEIDS_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

/// IdAt(i), for i in [0, N), is a process number in [0, Count). Sets Dense[i]
/// to its rank among the distinct values and returns those values,
/// increasing. Uses an array of Count entries when Count is small next to N,
/// and sorting otherwise.
template <typename IdAtFn>
std::vector<int64_t> denseIds(int64_t N, IdAtFn IdAt, int64_t Count,
                              std::vector<int32_t> &Dense) {
  std::vector<int64_t> Distinct;
  Dense.resize(static_cast<size_t>(N));
  if (Count <= 4 * N + 4096) {
    constexpr int32_t Absent = -1, Present = -2;
    std::vector<int32_t> Rank(static_cast<size_t>(std::max<int64_t>(Count, 0)),
                              Absent);
    for (int64_t I = 0; I < N; ++I)
      Rank[IdAt(I)] = Present;
    for (int64_t Id = 0; Id < Count; ++Id)
      if (Rank[Id] == Present) {
        Rank[Id] = static_cast<int32_t>(Distinct.size());
        Distinct.push_back(Id);
      }
    for (int64_t I = 0; I < N; ++I)
      Dense[I] = Rank[IdAt(I)];
    return Distinct;
  }
  Distinct.resize(static_cast<size_t>(N));
  for (int64_t I = 0; I < N; ++I)
    Distinct[I] = IdAt(I);
  std::sort(Distinct.begin(), Distinct.end());
  Distinct.erase(std::unique(Distinct.begin(), Distinct.end()), Distinct.end());
  for (int64_t I = 0; I < N; ++I)
    Dense[I] = static_cast<int32_t>(
        std::lower_bound(Distinct.begin(), Distinct.end(), IdAt(I)) -
        Distinct.begin());
  return Distinct;
}

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_SCHEDULERS_DENSEIDS_H
