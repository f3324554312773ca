//===- redist/runtime/LocalPart.h - Filling and reading a local part ------===//
//
// What a program needs to work on its own part of a distributed array: how
// many elements a process holds, which global element a local index is, and
// where a global element lives. These wrap the index maps of redist::Layout
// and check their arguments; inside loops, build a Layout once (or take
// Plan::source() / Plan::target()) and call its methods directly.
//
// ArrayInfo answers the same questions about one array as seen from this
// rank, as HPF's inquiry intrinsics did; `#pragma redist inquire` gives one
// for a directive's variable, with its current distribution.
// DistributedArrayInfo does the same for an array of any rank
// (redist/ArrayLayout.h), a matrix among them, and its local storage.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_LOCALPART_H
#define REDIST_RUNTIME_LOCALPART_H

#include "redist/ArrayLayout.h"
#include "redist/Distribution.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace redist {

/// Where a global element lives: its owner and its index in the owner's part.
struct LocalPosition {
  int64_t Proc = 0;
  int64_t Index = 0;
  bool operator==(const LocalPosition &O) const {
    return Proc == O.Proc && Index == O.Index;
  }
};

/// Number of elements process Proc holds of an N-element array distributed
/// by D; 0 for a process beyond D's process count (a rank without data).
int64_t localSize(const Distribution &D, int64_t N, int64_t Proc);

/// Global index of local element Local of process Proc. Throws
/// InvalidArgument when Local is not within Proc's part.
int64_t globalIndex(const Distribution &D, int64_t N, int64_t Proc,
                    int64_t Local);

/// Owner and local index of global element Global (0 <= Global < N).
LocalPosition localPosition(const Distribution &D, int64_t N, int64_t Global);

/// An array of N elements distributed by D over the first processes of
/// Comm, seen from this rank. Every query checks its argument and throws
/// InvalidArgument naming it.
class ArrayInfo {
public:
  /// Throws InvalidArgument when D cannot distribute N elements.
  ArrayInfo(const Distribution &D, int64_t N, MPI_Comm Comm);

  const Distribution &distribution() const { return L.distribution(); }
  int64_t extent() const { return L.extent(); }
  MPI_Comm communicator() const { return Comm; }
  /// This process's rank in communicator().
  int rank() const { return Rank; }
  /// Elements this rank holds, or process Proc holds (0 beyond D's
  /// processes: a rank without data).
  int64_t localSize() const { return localSize(Rank); }
  int64_t localSize(int64_t Proc) const;
  /// Global index of this rank's local element Local.
  int64_t globalIndex(int64_t Local) const { return globalIndex(Rank, Local); }
  int64_t globalIndex(int64_t Proc, int64_t Local) const;
  /// Owner and local index of global element Global.
  LocalPosition position(int64_t Global) const;
  /// "cyclic(3) over 4 processes, 1000 elements".
  std::string str() const;

private:
  Layout L;
  MPI_Comm Comm;
  int Rank = 0;
};

/// An array distributed by Layout over the first processes of Comm (process
/// p on rank p), seen from this rank: what inquire declares. Every query
/// checks its argument and throws InvalidArgument naming it.
class DistributedArrayInfo {
public:
  DistributedArrayInfo(const ArrayLayout &Layout, MPI_Comm Comm);

  const ArrayLayout &layout() const { return L; }
  int rank() const { return L.rank(); }
  const std::vector<int64_t> &extents() const { return L.extents(); }
  MPI_Comm communicator() const { return Comm; }
  /// This rank's process, or -1 on a rank outside the arrangement.
  int64_t process() const { return Proc; }
  /// This rank's local extent of every dimension (zeros outside the
  /// arrangement), and the element stride of every dimension in its
  /// storage.
  std::vector<int64_t> localExtents() const;
  std::vector<int64_t> strides() const;
  /// Elements of this rank's local storage (padding included).
  int64_t storageSize() const;
  /// The global index of this rank's element at storage offset Offset.
  std::vector<int64_t> globalIndex(int64_t Offset) const;
  /// The process holding global element Index, and its offset there.
  LocalPlace position(const std::vector<int64_t> &Index) const;
  /// The layout in words (ArrayLayout::str()).
  std::string str() const { return L.str(); }

private:
  ArrayLayout L;
  MPI_Comm Comm;
  int64_t Proc = -1;
};

} // namespace redist

#endif // REDIST_RUNTIME_LOCALPART_H
