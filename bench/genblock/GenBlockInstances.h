//===- GenBlockInstances.h - Random GEN_BLOCK instances of scpa §5 --------===//
//
// The instances of scpa-gen-block §5 (docs/paper-corrections.md: the bounds
// apply to each processor's segment size): Procs segment sizes, each within
// [Lo, Hi] x Total / Procs, summing to Total. Even instances use [0.7, 1.3],
// uneven ones [0.3, 1.5].
//
// Each size is drawn uniformly within the bounds; the surplus or deficit
// against Total is then spread over the processes, in a random order, in
// equal shares that respect the bounds. Only mt19937_64's own output is
// used (no std distribution, whose results differ between standard
// libraries), so a seed gives the same instances everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_GENBLOCK_GENBLOCKINSTANCES_H
#define REDIST_BENCH_GENBLOCK_GENBLOCKINSTANCES_H

#include "redist/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace bench {

/// Uniform in [Lo, Hi] (Lo <= Hi); the modulo bias is below 2^-40 here.
inline int64_t uniformIn(std::mt19937_64 &Rng, int64_t Lo, int64_t Hi) {
  return Lo + static_cast<int64_t>(Rng() % static_cast<uint64_t>(Hi - Lo + 1));
}

/// Segment sizes as described above. Throws InvalidArgument when the bounds
/// cannot reach Total.
inline std::vector<int64_t> paperSegmentSizes(std::mt19937_64 &Rng,
                                              int64_t Procs, int64_t Total,
                                              double Lo, double Hi) {
  if (Procs <= 0)
    throw InvalidArgument("the number of processes must be positive, not " +
                          std::to_string(Procs));
  double Mean = static_cast<double>(Total) / static_cast<double>(Procs);
  int64_t Min = static_cast<int64_t>(std::ceil(Lo * Mean));
  int64_t Max = static_cast<int64_t>(std::floor(Hi * Mean));
  if (Min < 0 || Min > Max || Min * Procs > Total || Max * Procs < Total)
    throw InvalidArgument("segment bounds [" + std::to_string(Lo) + ", " +
                          std::to_string(Hi) + "] x mean cannot split " +
                          std::to_string(Total) + " elements over " +
                          std::to_string(Procs) + " processes");
  std::vector<int64_t> Sizes(Procs);
  int64_t Sum = 0;
  for (int64_t &S : Sizes) {
    S = uniformIn(Rng, Min, Max);
    Sum += S;
  }
  std::vector<int64_t> Order(Procs);
  for (int64_t P = 0; P < Procs; ++P)
    Order[P] = P;
  for (int64_t Diff = Total - Sum; Diff != 0;) {
    for (int64_t I = Procs - 1; I > 0; --I) // Fisher-Yates
      std::swap(Order[I], Order[uniformIn(Rng, 0, I)]);
    for (int64_t I = 0; I < Procs && Diff != 0; ++I) {
      int64_t Share = Diff / (Procs - I);
      if (Share == 0)
        Share = Diff > 0 ? 1 : -1;
      int64_t &S = Sizes[Order[I]];
      int64_t New = std::min(Max, std::max(Min, S + Share));
      Diff -= New - S;
      S = New;
    }
  }
  return Sizes;
}

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_GENBLOCK_GENBLOCKINSTANCES_H
