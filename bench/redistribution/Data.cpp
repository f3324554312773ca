//===- Data.cpp - The arrays redist-bench moves, and their check ----------===//

#include "Data.h"

#include <algorithm>

namespace redist {
namespace bench {
namespace {

int64_t partSize(const IndexMap &L, int Rank) {
  return Rank < L.Procs ? L.localSize(Rank) : 0;
}

int64_t countMismatches(const IndexMap &L, llvm::ArrayRef<double> Part,
                        int Rank) {
  int64_t Wrong = 0;
  if (static_cast<int64_t>(Part.size()) != partSize(L, Rank))
    return std::max<int64_t>(1, static_cast<int64_t>(Part.size()));
  for (int64_t I = 0, E = static_cast<int64_t>(Part.size()); I < E; ++I)
    Wrong += Part[I] != static_cast<double>(L.toGlobal(Rank, I));
  return Wrong;
}

} // namespace

std::vector<double> makeFilledPart(const IndexMap &L, int Rank) {
  std::vector<double> Part(partSize(L, Rank));
  for (int64_t I = 0, E = static_cast<int64_t>(Part.size()); I < E; ++I)
    Part[I] = static_cast<double>(L.toGlobal(Rank, I));
  return Part;
}

std::vector<double> makeEmptyPart(const IndexMap &L, int Rank) {
  return std::vector<double>(partSize(L, Rank), -1.0);
}

void clearPart(llvm::MutableArrayRef<double> Part) {
  std::fill(Part.begin(), Part.end(), -1.0);
}

int64_t countWrongElements(const IndexMap &From, const IndexMap &To,
                           llvm::ArrayRef<double> Src,
                           llvm::ArrayRef<double> Dst, int Rank,
                           MPI_Comm Comm) {
  int64_t Mine =
      countMismatches(From, Src, Rank) + countMismatches(To, Dst, Rank);
  int64_t Total = 0;
  MPI_Allreduce(&Mine, &Total, 1, MPI_INT64_T, MPI_SUM, Comm);
  return Total;
}

} // namespace bench
} // namespace redist
