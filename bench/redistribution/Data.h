//===- Data.h - The arrays redist-bench moves, and their check ------------===//
//
// Global element g holds the double value g (exact below 2^53), so checking
// a result needs no reference copy: local element l of target process q must
// hold To.toGlobal(q, l). Target arrays start filled with -1, which no
// element holds, so an element never written is caught too.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_DATA_H
#define REDIST_BENCH_DATA_H

#include "IndexMap.h"

#include "llvm/ADT/ArrayRef.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace redist {
namespace bench {

/// Rank's part of the array under L (empty off L's processes), each element
/// holding its global index.
std::vector<double> makeFilledPart(const IndexMap &L, int Rank);

/// Rank's part under L, filled with -1.
std::vector<double> makeEmptyPart(const IndexMap &L, int Rank);

/// Fills Part with -1 again (an ordinary part or one in node memory).
void clearPart(llvm::MutableArrayRef<double> Part);

/// Number of elements, over all ranks of Comm, that are wrong in the target
/// parts Dst or were changed in the source parts Src. Collective.
int64_t countWrongElements(const IndexMap &From, const IndexMap &To,
                           llvm::ArrayRef<double> Src,
                           llvm::ArrayRef<double> Dst, int Rank, MPI_Comm Comm);

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_DATA_H
