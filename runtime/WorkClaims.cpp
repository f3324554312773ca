//===- WorkClaims.cpp - Chunks of work that a node's ranks claim ----------===//

#include "WorkClaims.h"

#include "MemoryFile.h"

#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

namespace redist {
namespace detail {

static_assert(std::atomic<int64_t>::is_always_lock_free,
              "the counter is shared between processes");

std::unique_ptr<WorkClaims> WorkClaims::create(MPI_Comm Node) {
  int Me = 0, Ranks = 0;
  MPI_Comm_rank(Node, &Me);
  MPI_Comm_size(Node, &Ranks);
  // Rank 0 creates the file and names it; the others map it by that name
  // while rank 0 keeps it open.
  char Name[MemoryFileNameBytes] = {};
  void *Address = nullptr;
  int Fd = -1;
  if (Me == 0) {
    const std::string Made =
        createMemoryFile("redist-work-claims", sizeof(int64_t), Address, Fd);
    std::snprintf(Name, sizeof Name, "%s", Made.c_str());
    if (Address)
      new (Address) std::atomic<int64_t>(0);
  }
  MPI_Bcast(Name, sizeof Name, MPI_CHAR, 0, Node);
  std::size_t Bytes = 0;
  if (Me != 0 && Name[0])
    Address = openMemoryFile(Name, Bytes, true);
  int Ok = Address != nullptr, All = 0;
  MPI_Allreduce(&Ok, &All, 1, MPI_INT, MPI_LAND, Node);
  if (Fd >= 0)
    close(Fd); // the mappings keep the file
  if (!All) {
    if (Address)
      munmap(Address, sizeof(int64_t));
    return nullptr;
  }
  return std::unique_ptr<WorkClaims>(
      new WorkClaims(static_cast<std::atomic<int64_t> *>(Address), Ranks));
}

WorkClaims::~WorkClaims() { munmap(Counter, sizeof(int64_t)); }

int64_t WorkClaims::next(int64_t Chunks) {
  const int64_t Taken = Counter->fetch_add(1, std::memory_order_relaxed) - Base;
  return Taken < Chunks ? Taken : Chunks;
}

} // namespace detail
} // namespace redist
