//===- redist/runtime/NodeMemory.h - Arrays a node's ranks all map --------===//
//
// Memory for a rank's local part that the other ranks of its node map too,
// as MPI-3's shared windows do, but freed without waiting for anyone. When
// every rank of a node that sends within the node passes execute() a source
// in node memory, a plan copies each element moving within the node once:
// each rank reads its elements straight from the other ranks' sources into
// its target, with no buffer, no kernel call and no handover in between
// (docs/runtime.md, "Node memory"). Any other source takes the shared-memory
// handover as before, so node memory is never required, only faster. With
// every target on the node in node memory too, the node's ranks split the
// copying by tile across all the targets, or an array plan's by slab
// (Plan::nodeWrites()).
//
//   redist::NodeArray<double> X(MPI_COMM_WORLD, Plan.sourceLocalSize());
//   ... fill X ...
//   Plan.execute(X.data(), Y.data()); // Y may be any memory, a NodeArray too
//
// Allocating is collective over a communicator (each rank its own size, zero
// allowed); freeing is local and never waits, but a rank must not free its
// array while a plan of another rank may still read it, that is, before the
// execute() that reads it returns on this rank too. Where the node cannot
// share memory (no memfd, /proc not readable, REDIST_NODE_MEMORY=off in any
// of its ranks' environments), the node's ranks get ordinary memory of their
// own, together, and shared() is false.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_NODEMEMORY_H
#define REDIST_RUNTIME_NODEMEMORY_H

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace redist {

/// Bytes of node memory: this rank's, mapped by the other ranks of its node
/// that allocated with it.
class NodeBuffer {
public:
  NodeBuffer() = default;
  /// Collective over Comm: Bytes for this rank (zero-filled, page-aligned),
  /// mapped by Comm's other ranks on this node, theirs by it. The others
  /// read it as a plan's source, and write it only as a plan's target,
  /// inside a collective execute() (Plan::nodeWrites()).
  /// Throws redist::InvalidArgument on every rank when some rank's
  /// REDIST_NODE_MEMORY is neither "on" nor "off", before allocating.
  NodeBuffer(MPI_Comm Comm, std::size_t Bytes);
  /// Unmaps this rank's memory and its views of the others' that came with
  /// it (the others' arrays of this allocation); never waits.
  ~NodeBuffer();
  NodeBuffer(NodeBuffer &&Other) noexcept;
  NodeBuffer &operator=(NodeBuffer &&Other) noexcept;
  NodeBuffer(const NodeBuffer &) = delete;
  NodeBuffer &operator=(const NodeBuffer &) = delete;

  void *data() const { return Data; }
  std::size_t size() const { return Bytes; }
  /// Whether the other ranks of the node that allocated with it map it.
  bool shared() const { return Shared; }

private:
  void *Data = nullptr;
  std::size_t Bytes = 0;
  bool Shared = false;
  uint64_t Serial = 0; ///< this allocation's key in the runtime's table
  void release() noexcept;
};

/// Count elements of T in node memory (NodeBuffer), value-initialised.
template <typename T> class NodeArray {
  static_assert(std::is_trivially_copyable_v<T>,
                "a plan moves elements as bytes");

public:
  NodeArray() = default;
  /// Collective over Comm, as NodeBuffer's constructor.
  NodeArray(MPI_Comm Comm, std::size_t Count)
      : Buffer(Comm, Count * sizeof(T)), Count(Count) {}

  T *data() { return static_cast<T *>(Buffer.data()); }
  const T *data() const { return static_cast<const T *>(Buffer.data()); }
  std::size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  T &operator[](std::size_t I) { return data()[I]; }
  const T &operator[](std::size_t I) const { return data()[I]; }
  T *begin() { return data(); }
  T *end() { return data() + Count; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + Count; }
  bool shared() const { return Buffer.shared(); }

private:
  NodeBuffer Buffer;
  std::size_t Count = 0;
};

} // namespace redist

#endif // REDIST_RUNTIME_NODEMEMORY_H
