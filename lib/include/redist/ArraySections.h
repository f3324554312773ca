//===- redist/ArraySections.h - Array sections as directives write them --===//
//
// An assign directive writes sections as half-open ranges per dimension,
// v[0:64][:][4:8] = u[16:80][:][0:4], and a permutation as
// permute(u, 2, 0, 1). sectionRegion turns those into the ArrayRegion of
// redist/ArrayGrid.h (first indices and the source's extents), checking
// that each range lies in its dimension and that the two sections have the
// same extents after the permutation. redistc calls it on constant values
// and the runtime on run-time ones, so both say the same.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_ARRAYSECTIONS_H
#define REDIST_ARRAYSECTIONS_H

#include "redist/ArrayGrid.h"

#include <cstdint>
#include <string>
#include <vector>

namespace redist {

/// A section's range of one dimension: [Begin, End), or the whole of it
/// ([:]).
struct SectionRange {
  int64_t Begin = 0, End = 0;
  bool Whole = true;
};

/// The region that moves Source (of an array of SourceExtents) into Target
/// (of an array of TargetExtents), target axis k being source axis
/// Permutation[k]. Empty Permutation: the identity; empty Source or Target:
/// the whole array. Throws InvalidArgument naming the dimension and the
/// value for a permutation that is not one, a range count other than the
/// rank, a range outside its dimension, or sections whose extents differ
/// after the permutation.
ArrayRegion sectionRegion(const std::vector<int64_t> &SourceExtents,
                          const std::vector<int64_t> &TargetExtents,
                          const std::vector<int> &Permutation,
                          const std::vector<SectionRange> &Source,
                          const std::vector<SectionRange> &Target);

/// Whether an assign with Permutation and sections Source and Target (as
/// sectionRegion takes them) moves the whole array unpermuted: then its
/// region is ArrayRegion(), the default.
bool isWholeAssign(const std::vector<int> &Permutation,
                   const std::vector<SectionRange> &Source,
                   const std::vector<SectionRange> &Target);

/// R as text: " permute 2 0 1 | 16 0 0 | 64 5 4 | 0 0 4" (permutation,
/// source begins, extents, target begins). A static directive's table
/// names its region so; the runtime compares.
std::string regionKey(const ArrayRegion &R);

} // namespace redist

#endif // REDIST_ARRAYSECTIONS_H
