//===- NodeReads.cpp - Whether a benchmarked plan read node memory --------===//

#include "NodeReads.h"

#include <climits>

namespace redist {
namespace bench {

std::string nodeMemoryNote(bool Shared) {
  return Shared ? "node memory: shared (redist reads its source and writes "
                  "its target there; redist-private and the peers use "
                  "ordinary memory)"
                : "node memory: not shared (redist takes the handover, as "
                  "redist-private does)";
}

std::string missedNodeReads(const std::string &Method, const Plan &Pl,
                            int64_t ReadsBefore, int64_t Runs, bool Shared,
                            MPI_Comm Comm) {
  const int64_t Reads = Pl.nodeReads() - ReadsBefore;
  const bool Expected = Shared && Pl.sharedMessages() > 0;
  int Rank = 0;
  MPI_Comm_rank(Comm, &Rank);
  int Missed = Expected && Reads != Runs ? Rank : INT_MAX, First = INT_MAX;
  MPI_Allreduce(&Missed, &First, 1, MPI_INT, MPI_MIN, Comm);
  if (First == INT_MAX)
    return "";
  int64_t Theirs = Rank == First ? Reads : 0;
  MPI_Bcast(&Theirs, 1, MPI_INT64_T, First, Comm);
  return Method + " read its source from node memory in " +
         std::to_string(Theirs) + " of " + std::to_string(Runs) +
         " runs on rank " + std::to_string(First) +
         " (Plan::nodeReads()), though the node memory is shared and the "
         "plan has messages within the node: it measured the handover";
}

int64_t nodeWritesSince(const Plan &Pl, int64_t WritesBefore, MPI_Comm Comm) {
  const int64_t Mine = Pl.nodeWrites() - WritesBefore;
  int64_t Most = 0;
  MPI_Allreduce(&Mine, &Most, 1, MPI_INT64_T, MPI_MAX, Comm);
  return Most;
}

} // namespace bench
} // namespace redist
