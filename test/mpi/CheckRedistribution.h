//===- CheckRedistribution.h - Running and checking one plan --------------===//
//
// Shared by the MPI test programs. The source part of every rank is filled
// with a function of each element's global index (every byte depends on the
// index), the target part and guard elements around it with a pattern no
// element takes, and after execute() every target element must hold the
// value of the global index its local index maps to, the guards must be
// intact and the source unchanged. Errors are counted on each rank and
// summed over the communicator by the caller.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_CHECKREDISTRIBUTION_H
#define REDIST_TEST_MPI_CHECKREDISTRIBUTION_H

#include "redist/runtime/NodeMemory.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace test {

/// Writes the E bytes of the element with global index G (shifted by Salt)
/// to Out: 8 bytes per hash of (G, word), so every byte depends on G.
inline void elementValue(int64_t G, std::size_t E, unsigned char *Out) {
  for (std::size_t W = 0; W * 8 < E; ++W) {
    uint64_t X = static_cast<uint64_t>(G) * 0x9e3779b97f4a7c15ull +
                 (W + 1) * 0xbf58476d1ce4e5b9ull;
    X ^= X >> 29;
    X *= 0x94d049bb133111ebull;
    X ^= X >> 32;
    std::size_t Bytes = E - W * 8 < 8 ? E - W * 8 : 8;
    std::memcpy(Out + W * 8, &X, Bytes);
  }
}

/// The bytes target and guard elements are filled with before execute(),
/// alternating between runs, so that a 1-byte value equal to one guard
/// cannot hide a missing element in both runs.
constexpr unsigned char GuardBytes[2] = {0xA5, 0x5A};

/// Exits with a message unless the job runs on Expected ranks: a binary run
/// by another MPI's mpirun runs as several 1-rank jobs that all pass.
inline void requireCommSize(int Expected) {
  int Size = 0, Rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Size != Expected) {
    std::fprintf(stderr,
                 "rank %d: expected %d MPI ranks, got %d (wrong mpirun?)\n",
                 Rank, Expected, Size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/// Where runAndCheck puts the source: ordinary memory, or node memory
/// allocated over the plan's communicator (NodeMemory.h), whose shared()
/// it reports. Likewise the target with its guards (NodeTarget), except on
/// rank HeapTarget, which allocates node memory with the others but passes
/// a target in ordinary memory; TargetShared: whether this rank's target
/// lies in node memory that its node shares.
struct SourceMemory {
  bool Node = false;
  bool *Shared = nullptr;
  bool NodeTarget = false;
  int HeapTarget = -1;
  bool *TargetShared = nullptr;
};

/// Bytes in ordinary memory that are not initialised (a std::vector would
/// zero them): each user writes them all before it reads them, and zeroing
/// parts of megabytes for every plan cost the sweeps a good share of
/// their time.
class HeapBytes {
public:
  explicit HeapBytes(std::size_t Bytes)
      : Ptr(Bytes ? new unsigned char[Bytes] : nullptr), Bytes(Bytes) {}
  unsigned char *data() { return Ptr.get(); }
  const unsigned char *data() const { return Ptr.get(); }
  std::size_t size() const { return Bytes; }
  bool empty() const { return Bytes == 0; }

private:
  std::unique_ptr<unsigned char[]> Ptr;
  std::size_t Bytes;
};

/// Bytes in ordinary or node memory, for a source or a target; not
/// initialised.
class SourceBytes {
public:
  SourceBytes(std::size_t Bytes, MPI_Comm Comm, bool Node)
      : Heap(Node ? 0 : Bytes),
        InNode(Node ? NodeArray<unsigned char>(Comm, Bytes)
                    : NodeArray<unsigned char>()),
        Ptr(Node ? InNode.data() : Heap.data()), Bytes(Bytes) {}
  unsigned char *data() { return Ptr; }
  std::size_t size() const { return Bytes; }
  bool shared() const { return InNode.shared(); }

private:
  HeapBytes Heap;
  NodeArray<unsigned char> InNode;
  unsigned char *Ptr;
  std::size_t Bytes;
};

/// A target of Bytes (not initialised) between guard bytes (GuardBytes[0])
/// on each side, in ordinary memory or, with Node, in node memory allocated
/// over Comm (collective), except on a rank with Private, which allocates
/// with the others but keeps its target in ordinary memory.
class GuardedTarget {
public:
  /// A cache line: elements in node memory keep their page alignment's.
  static constexpr std::size_t Guard = 64;

  GuardedTarget(std::size_t Bytes, MPI_Comm Comm, bool Node, bool Private)
      : InNode(Node ? Bytes + 2 * Guard : 0, Comm, Node),
        Heap(!Node || Private ? Bytes + 2 * Guard : 0),
        Base(Heap.empty() ? InNode.data() : Heap.data()), Bytes(Bytes),
        Shared(Heap.empty() && InNode.shared()) {
    std::memset(Base, GuardBytes[0], Guard);
    std::memset(Base + Guard + Bytes, GuardBytes[0], Guard);
  }
  unsigned char *data() { return Base + Guard; }
  const unsigned char *data() const { return Base + Guard; }
  std::size_t size() const { return Bytes; }
  /// Whether the target lies in node memory that its node shares.
  bool shared() const { return Shared; }
  /// Whether neither guard was written.
  bool guardsIntact() const {
    for (std::size_t I = 0; I < Guard; ++I)
      if (Base[I] != GuardBytes[0] || Base[Guard + Bytes + I] != GuardBytes[0])
        return false;
    return true;
  }

private:
  SourceBytes InNode;
  HeapBytes Heap;
  unsigned char *Base;
  std::size_t Bytes;
  bool Shared;
};

/// The values of one process's local part, elementValue of each element's
/// global index plus a shift, kept for the plans that follow: a sweep runs
/// some fifty plans of one configuration, and computing the values per plan
/// cost it half its time. Holds the parts of one layout, process and element
/// size, for the last few shifts asked.
class PartValues {
public:
  /// The Count elements of Proc under Lay (Count: its local size, or 0 for a
  /// rank without a part), E bytes each.
  const HeapBytes &get(const Layout &Lay, int64_t Proc, int64_t Count,
                       int64_t Shift, std::size_t E) {
    if (!Key || !(*Key == Lay) || KeyProc != Proc || KeyE != E) {
      Key = Lay;
      KeyProc = Proc;
      KeyE = E;
      ByShift.clear();
    }
    for (const auto &[S, Bytes] : ByShift)
      if (S == Shift)
        return Bytes;
    if (ByShift.size() == 4)
      ByShift.erase(ByShift.begin());
    HeapBytes Bytes(static_cast<std::size_t>(Count) * E);
    for (int64_t L = 0; L < Count; ++L)
      elementValue(Lay.toGlobal(Proc, L) + Shift, E,
                   Bytes.data() + static_cast<std::size_t>(L) * E);
    ByShift.emplace_back(Shift, std::move(Bytes));
    return ByShift.back().second;
  }

private:
  std::optional<Layout> Key;
  int64_t KeyProc = 0;
  std::size_t KeyE = 0;
  std::vector<std::pair<int64_t, HeapBytes>> ByShift;
};

/// Runs Pl Times times on fresh target arrays, in one call and step by step
/// in turn, and counts the elements that are wrong on this rank. Prints the
/// first few problems, prefixed with Label. Collective over Pl's
/// communicator when Where.Node or Where.NodeTarget.
inline int64_t runAndCheck(const Plan &Pl, const std::string &Label,
                           int Times = 1, int64_t Salt = 0,
                           SourceMemory Where = SourceMemory()) {
  const std::size_t E = Pl.elementBytes();
  const int Rank = Pl.rank();
  const int64_t SrcN = Pl.sourceLocalSize(), DstN = Pl.targetLocalSize();
  const int64_t Pad = 3; // guard elements on each side of the target
  SourceBytes Src(static_cast<std::size_t>(SrcN) * E, Pl.communicator(),
                  Where.Node);
  if (Where.Shared)
    *Where.Shared = Src.shared();
  const std::size_t DstBytes = static_cast<std::size_t>(DstN + 2 * Pad) * E;
  SourceBytes NodeDst(Where.NodeTarget ? DstBytes : 0, Pl.communicator(),
                      Where.NodeTarget);
  const bool HeapDst = !Where.NodeTarget || Rank == Where.HeapTarget;
  HeapBytes Heap(HeapDst ? DstBytes : 0);
  unsigned char *Dst = HeapDst ? Heap.data() : NodeDst.data();
  if (Where.TargetShared)
    *Where.TargetShared = !HeapDst && NodeDst.shared();
  int64_t Errors = 0;
  auto Report = [&](const std::string &What) {
    if (++Errors <= 3)
      std::printf("ERROR %s rank %d: %s\n", Label.c_str(), Rank, What.c_str());
  };
  // The source and the expected target, each built whole (and kept for the
  // next plans) and compared with one memcmp: a call per element cost the
  // sweeps a sixth of their time.
  static PartValues SourceValues, TargetValues;
  const Layout &From = Pl.source(), &To = Pl.target();
  for (int Time = 0; Time < Times; ++Time) {
    // A different value per run, so a stale target from the previous run
    // cannot pass.
    const int64_t Shift = Salt + Time * 1000003;
    const HeapBytes &Have = SourceValues.get(From, Rank, SrcN, Shift, E);
    if (!Have.empty())
      std::memcpy(Src.data(), Have.data(), Have.size());
    const unsigned char Guard = GuardBytes[Time % 2];
    std::memset(Dst, Guard, DstBytes);
    // Every second run goes step by step, as redistc's static code runs.
    if (Time % 2 == 0) {
      Pl.execute(Src.data(), Dst + Pad * E);
    } else {
      const auto Steps = static_cast<int64_t>(Pl.schedule().Steps.size());
      for (int64_t K = 0; K < Steps; ++K)
        Pl.executeStep(Src.data(), Dst + Pad * E, K);
    }
    const HeapBytes &Want = TargetValues.get(To, Rank, DstN, Shift, E);
    if (!Want.empty() &&
        std::memcmp(Dst + Pad * E, Want.data(), Want.size()) != 0)
      for (int64_t L = 0; L < DstN; ++L)
        if (std::memcmp(Dst + static_cast<std::size_t>(Pad + L) * E,
                        Want.data() + static_cast<std::size_t>(L) * E, E) != 0)
          Report("target local " + std::to_string(L) + " (global " +
                 std::to_string(To.toGlobal(Rank, L)) + ") is wrong");
    for (int64_t I = 0; I < Pad * static_cast<int64_t>(E); ++I) {
      if (Dst[static_cast<std::size_t>(I)] != Guard)
        Report("guard before the target overwritten");
      if (Dst[DstBytes - 1 - static_cast<std::size_t>(I)] != Guard)
        Report("guard after the target overwritten");
    }
    if (!Have.empty() && std::memcmp(Src.data(), Have.data(), Have.size()) != 0)
      Report("the source was modified");
  }
  return Errors;
}

/// Live duplicates of the communicators watchedCommunicator() made: an
/// attribute's copy callback counts every duplicate (of a duplicate too),
/// its delete callback every one freed. A plan duplicates its communicator,
/// so this counts the plans' duplicates alive on this rank.
inline int &liveDuplicates() {
  static int Count = 0;
  return Count;
}

/// A duplicate of MPI_COMM_WORLD whose duplicates liveDuplicates() counts.
inline MPI_Comm watchedCommunicator() {
  static int Mark = 0;
  auto Copy = [](MPI_Comm, int, void *, void *, void *Out, int *Flag) {
    ++liveDuplicates();
    *static_cast<void **>(Out) = &Mark;
    *Flag = 1;
    return MPI_SUCCESS;
  };
  auto Delete = [](MPI_Comm, int, void *Value, void *) {
    if (Value == &Mark)
      --liveDuplicates();
    return MPI_SUCCESS;
  };
  int Keyval = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(Copy, Delete, &Keyval, nullptr);
  MPI_Comm Watched;
  MPI_Comm_dup(MPI_COMM_WORLD, &Watched);
  MPI_Comm_set_attr(Watched, Keyval, nullptr);
  return Watched;
}

/// Sum of Local over Comm, on every rank.
inline int64_t sumOverRanks(int64_t Local, MPI_Comm Comm = MPI_COMM_WORLD) {
  int64_t Sum = 0;
  MPI_Allreduce(&Local, &Sum, 1, MPI_INT64_T, MPI_SUM, Comm);
  return Sum;
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_CHECKREDISTRIBUTION_H
