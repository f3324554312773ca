//===- NodeMemoryTable.h - Which node memory this process holds -----------===//
//
// Private to the runtime. The table of node memory (NodeMemory.h) that this
// process owns or maps, which execute() consults to find whether a source
// lies in node memory and where a peer's source is mapped here.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_NODEMEMORYTABLE_H
#define REDIST_RUNTIME_NODEMEMORYTABLE_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace redist {
namespace detail {

/// Where a source lies in node memory: its owner's process, the
/// allocation's serial number there, and the byte offset in it.
struct NodeAddress {
  bool Found = false;
  int64_t Pid = 0;
  uint64_t Serial = 0;
  uint64_t Offset = 0;
};

/// Where [P, P + Bytes) lies in node memory this process owns and every
/// process of Readers maps; Found false otherwise.
NodeAddress findOwnNodeMemory(const void *P, std::size_t Bytes,
                              const std::vector<long> &Readers);
/// This process's mapping of A (another process's node memory), checked to
/// hold Bytes from A's offset on; nullptr where it has none.
char *findNodeView(const NodeAddress &A, std::size_t Bytes);
/// Changes whenever this process allocates or frees node memory.
uint64_t nodeMemoryEpoch();
/// getpid(), kept: it is a system call (about 1 us in a VM with page-table
/// isolation) and every execute() that reads node memory posts it. A fork
/// drops the kept value.
int64_t processId();

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_NODEMEMORYTABLE_H
