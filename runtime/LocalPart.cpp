//===- LocalPart.cpp - Filling and reading a local part -------------------===//
#include "redist/runtime/LocalPart.h"

#include "redist/Error.h"

#include <string>

namespace redist {
namespace {

// The checked queries, on a Layout built once: the free functions build
// one per call, an ArrayInfo keeps its own.

int64_t checkedLocalSize(const Layout &L, int64_t Proc) {
  if (Proc < 0)
    throw InvalidArgument("localSize: process " + std::to_string(Proc) +
                          " is negative");
  return Proc < L.procs() ? L.localSize(Proc) : 0;
}

int64_t checkedGlobalIndex(const Layout &L, int64_t Proc, int64_t Local) {
  const int64_t Size = checkedLocalSize(L, Proc);
  if (Local < 0 || Local >= Size)
    throw InvalidArgument("globalIndex: local index " + std::to_string(Local) +
                          " is outside process " + std::to_string(Proc) +
                          "'s part of " + std::to_string(Size) + " elements");
  return L.toGlobal(Proc, Local);
}

LocalPosition checkedPosition(const Layout &L, int64_t Global) {
  if (Global < 0 || Global >= L.extent())
    throw InvalidArgument("localPosition: global index " +
                          std::to_string(Global) + " is outside 0.." +
                          std::to_string(L.extent() - 1));
  return {L.owner(Global), L.toLocal(Global)};
}

} // namespace

int64_t localSize(const Distribution &D, int64_t N, int64_t Proc) {
  return checkedLocalSize(Layout(D, N), Proc);
}

int64_t globalIndex(const Distribution &D, int64_t N, int64_t Proc,
                    int64_t Local) {
  return checkedGlobalIndex(Layout(D, N), Proc, Local);
}

LocalPosition localPosition(const Distribution &D, int64_t N, int64_t Global) {
  return checkedPosition(Layout(D, N), Global);
}

ArrayInfo::ArrayInfo(const Distribution &D, int64_t N, MPI_Comm Comm)
    : L(D, N), Comm(Comm) {
  MPI_Comm_rank(Comm, &Rank);
}

int64_t ArrayInfo::localSize(int64_t Proc) const {
  return checkedLocalSize(L, Proc);
}

int64_t ArrayInfo::globalIndex(int64_t Proc, int64_t Local) const {
  return checkedGlobalIndex(L, Proc, Local);
}

LocalPosition ArrayInfo::position(int64_t Global) const {
  return checkedPosition(L, Global);
}

std::string ArrayInfo::str() const {
  const int64_t P = L.procs(), N = L.extent();
  return L.distribution().str() + " over " + std::to_string(P) +
         (P == 1 ? " process, " : " processes, ") + std::to_string(N) +
         (N == 1 ? " element" : " elements");
}

DistributedArrayInfo::DistributedArrayInfo(const ArrayLayout &Layout,
                                           MPI_Comm Comm)
    : L(Layout), Comm(Comm) {
  int Rank = 0;
  MPI_Comm_rank(Comm, &Rank);
  if (Rank < L.procs())
    Proc = Rank;
}

std::vector<int64_t> DistributedArrayInfo::localExtents() const {
  if (Proc < 0)
    return std::vector<int64_t>(static_cast<size_t>(L.rank()), 0);
  return L.localExtents(Proc);
}

std::vector<int64_t> DistributedArrayInfo::strides() const {
  if (Proc < 0)
    return std::vector<int64_t>(static_cast<size_t>(L.rank()), 0);
  return L.strides(Proc);
}

int64_t DistributedArrayInfo::storageSize() const {
  return Proc < 0 ? 0 : L.storageSize(Proc);
}

std::vector<int64_t> DistributedArrayInfo::globalIndex(int64_t Offset) const {
  if (Proc < 0)
    throw InvalidArgument("this rank holds no process of the array");
  return L.toGlobal(Proc, Offset);
}

LocalPlace
DistributedArrayInfo::position(const std::vector<int64_t> &Index) const {
  return L.toLocal(Index);
}

} // namespace redist
