//===- NodeSlabs.cpp - An array plan's copies shared by the node's ranks --===//
//
// Where every source and target of an array plan lies in node memory on one
// node (NodePull.cpp), a receiver that copies its own messages reads only
// its part of each source line, and the line is read again by every other
// receiver of a part of it: with short runs along the fastest axis (a
// matrix's blocks of 32 rows into blocks of 100), about twice the lines
// the parallel copy limit reads. Here the ranks split the section by slabs
// instead: a slab is one index along every axis but the one with stride 1,
// and whoever takes it copies all of it, from every source to every
// target, in index order. Both sides are then swept once, in sequence.
//
//===----------------------------------------------------------------------===//
#include "ArrayMessages.h"
#include "CopyBytes.h"
#include "PlanImpl.h"

#include "redist/ArrayGrid.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

namespace redist {
namespace {

/// Axis A's share of L's process ids, per 1-D process of A: the ids are
/// sums of their axes' shares plus the id of all 1-D processes 0.
std::vector<int64_t> idShares(const ArrayLayout &L, int A) {
  std::vector<int64_t> Ranks(static_cast<std::size_t>(L.rank()), 0);
  const int64_t Base = L.procOfDimRanks(Ranks);
  const int G = L.gridDimOf(A);
  const int64_t P = G < 0 ? 1 : L.grid()[static_cast<std::size_t>(G)];
  std::vector<int64_t> Shares;
  for (int64_t R = 0; R < P; ++R) {
    Ranks[static_cast<std::size_t>(A)] = R;
    Shares.push_back(L.procOfDimRanks(Ranks) - Base);
  }
  return Shares;
}

bool isIdentity(const std::vector<int> &Permutation) {
  for (std::size_t K = 0; K < Permutation.size(); ++K)
    if (Permutation[K] != static_cast<int>(K))
      return false;
  return true;
}

} // namespace

void Plan::Impl::buildSlabs() {
  if (!Array)
    return;
  const detail::ArrayProblem &M = *Array;
  const ArrayLayout &From = M.From.Layout, &To = M.To.Layout;
  const int D = From.rank();
  const std::size_t UD = static_cast<std::size_t>(D);
  int Me = 0, Size = 0;
  MPI_Comm_rank(PullComm, &Me);
  MPI_Comm_size(PullComm, &Size);
  // Per rank: every message Shared, its processes and their strides.
  bool AllShared = true;
  for (const std::vector<detail::PeerMessage> *List : {&Sends, &Recvs})
    for (const detail::PeerMessage &Msg : *List)
      AllShared = AllShared && Msg.Shared;
  const std::size_t Width = 3 + 2 * UD;
  std::vector<int64_t> Mine(Width, 0);
  Mine[0] = AllShared;
  Mine[1] = M.FromProc;
  Mine[2] = M.ToProc;
  std::copy(M.FromStrides.begin(), M.FromStrides.end(), Mine.begin() + 3);
  std::copy(M.ToStrides.begin(), M.ToStrides.end(), Mine.begin() + 3 + D);
  std::vector<int64_t> All(static_cast<std::size_t>(Size) * Width);
  MPI_Allgather(Mine.data(), static_cast<int>(Width), MPI_INT64_T, All.data(),
                static_cast<int>(Width), MPI_INT64_T, PullComm);
  // From here on every rank decides alike.
  if (Size != CommSize || M.Region.Band || !isIdentity(M.Region.Permutation))
    return;
  SlabShare S;
  S.SrcRank.assign(static_cast<std::size_t>(From.procs()), -1);
  S.DstRank.assign(static_cast<std::size_t>(To.procs()), -1);
  S.SrcStrides.assign(S.SrcRank.size() * UD, 0);
  S.DstStrides.assign(S.DstRank.size() * UD, 0);
  for (int R = 0; R < Size; ++R) {
    const int64_t *P = &All[static_cast<std::size_t>(R) * Width];
    if (!P[0])
      return;
    if (P[1] >= 0) {
      S.SrcRank[static_cast<std::size_t>(P[1])] = R;
      std::copy(P + 3, P + 3 + D,
                &S.SrcStrides[static_cast<std::size_t>(P[1]) * UD]);
    }
    if (P[2] >= 0) {
      S.DstRank[static_cast<std::size_t>(P[2])] = R;
      std::copy(P + 3 + D, P + 3 + 2 * D,
                &S.DstStrides[static_cast<std::size_t>(P[2]) * UD]);
    }
  }
  if (std::count(S.SrcRank.begin(), S.SrcRank.end(), -1) ||
      std::count(S.DstRank.begin(), S.DstRank.end(), -1))
    return;
  // The axis with stride 1 on every process of both sides.
  auto Unit = [&](const std::vector<int64_t> &Strides, int A) {
    for (std::size_t I = static_cast<std::size_t>(A); I < Strides.size();
         I += UD)
      if (Strides[I] != 1)
        return false;
    return true;
  };
  int Inner = -1;
  for (int A = 0; A < D && Inner < 0; ++A)
    if (Unit(S.SrcStrides, A) && Unit(S.DstStrides, A))
      Inner = A;
  if (Inner < 0)
    return;
  const std::vector<int64_t> &Extents = M.Region.Extents;
  for (int A = 0; A < D; ++A)
    if (A != Inner)
      S.Outer.push_back(A);
  // Fastest first, by the first source process's strides.
  std::stable_sort(S.Outer.begin(), S.Outer.end(), [&](int X, int Y) {
    return S.SrcStrides[static_cast<std::size_t>(X)] <
           S.SrcStrides[static_cast<std::size_t>(Y)];
  });
  int64_t Count = 1;
  for (int A : S.Outer)
    Count *= Extents[static_cast<std::size_t>(A)];
  if (Count < Size)
    return; // too few to share
  S.Begin = Count * Me / Size;
  S.End = Count * (Me + 1) / Size;
  // The stride-1 axis's runs of every pair of 1-D processes, in index order;
  // they must cover the section's indices once.
  struct Indexed {
    int64_t Index;
    SlabShare::Run R;
  };
  std::vector<Indexed> Runs;
  for (const auto &[Pair, List] : indexedAxisRuns(From, To, M.Region, Inner))
    for (const IndexedRun &R : List)
      Runs.push_back({R.Index, {Pair.first, Pair.second, R.Src, R.Dst, R.Len}});
  std::sort(Runs.begin(), Runs.end(), [](const Indexed &X, const Indexed &Y) {
    return X.Index < Y.Index;
  });
  int64_t Next = 0;
  for (const Indexed &X : Runs) {
    if (X.Index != Next)
      return;
    Next += X.R.Len;
    S.Runs.push_back(X.R);
  }
  if (Next != Extents[static_cast<std::size_t>(Inner)])
    return;
  S.SrcId = idShares(From, Inner);
  S.DstId = idShares(To, Inner);
  const std::vector<int64_t> Zeros(UD, 0);
  S.SrcBase = From.procOfDimRanks(Zeros);
  S.DstBase = To.procOfDimRanks(Zeros);
  // Every index of every other axis, once.
  for (int A : S.Outer) {
    const std::vector<int64_t> SrcShare = idShares(From, A),
                               DstShare = idShares(To, A);
    std::vector<SlabShare::Index> At(
        static_cast<std::size_t>(Extents[static_cast<std::size_t>(A)]),
        SlabShare::Index{-1, -1, 0, 0});
    for (const auto &[Pair, List] : indexedAxisRuns(From, To, M.Region, A))
      for (const IndexedRun &R : List)
        for (int64_t K = 0; K < R.Len; ++K) {
          SlabShare::Index &X = At[static_cast<std::size_t>(R.Index + K)];
          if (X.SrcId >= 0)
            return;
          X = {SrcShare[static_cast<std::size_t>(Pair.first)],
               DstShare[static_cast<std::size_t>(Pair.second)], R.Src + K,
               R.Dst + K};
        }
    for (const SlabShare::Index &X : At)
      if (X.SrcId < 0)
        return;
    S.At.push_back(std::move(At));
  }
  S.From.assign(S.SrcId.size(), nullptr);
  S.To.assign(S.DstId.size(), nullptr);
  Slabs = std::move(S);
  ShareFrom.assign(static_cast<std::size_t>(Size), nullptr);
  ShareTo.assign(static_cast<std::size_t>(Size), nullptr);
}

void Plan::Impl::shareSlabs() const {
  const SlabShare &S = *Slabs;
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const std::size_t D = static_cast<std::size_t>(Array->From.Layout.rank());
  const std::size_t Axes = S.Outer.size();
  // The slab's index along each other axis, the first fastest.
  std::array<int64_t, MaxArrayRank> Index = {};
  int64_t Rest = S.Begin;
  for (std::size_t J = 0; J < Axes; ++J) {
    const int64_t Extent = static_cast<int64_t>(S.At[J].size());
    Index[J] = Rest % Extent;
    Rest /= Extent;
  }
  // Where the slab starts in the part of each process of one side that
  // holds some of it (null: an empty part): its id is Base plus every
  // axis's IdPart, its offset every other axis's Local times its stride.
  auto Place =
      [&](auto &Out, const auto &Parts, int64_t Base,
          const std::vector<int64_t> &IdOf, const std::vector<int> &RankOf,
          const std::vector<int64_t> &Strides,
          int64_t SlabShare::Index::*IdPart, int64_t SlabShare::Index::*Local) {
        for (std::size_t J = 0; J < Axes; ++J)
          Base += S.At[J][static_cast<std::size_t>(Index[J])].*IdPart;
        for (std::size_t P = 0; P < IdOf.size(); ++P) {
          const std::size_t Id = static_cast<std::size_t>(Base + IdOf[P]);
          int64_t At = 0;
          for (std::size_t J = 0; J < Axes; ++J)
            At += S.At[J][static_cast<std::size_t>(Index[J])].*Local *
                  Strides[Id * D + static_cast<std::size_t>(S.Outer[J])];
          auto *Part = Parts[static_cast<std::size_t>(RankOf[Id])];
          Out[P] = Part ? Part + At * E : nullptr;
        }
      };
  for (int64_t Slab = S.Begin; Slab < S.End; ++Slab) {
    Place(S.From, ShareFrom, S.SrcBase, S.SrcId, S.SrcRank, S.SrcStrides,
          &SlabShare::Index::SrcId, &SlabShare::Index::Src);
    Place(S.To, ShareTo, S.DstBase, S.DstId, S.DstRank, S.DstStrides,
          &SlabShare::Index::DstId, &SlabShare::Index::Dst);
    for (const SlabShare::Run &R : S.Runs)
      detail::copyBytes(S.To[static_cast<std::size_t>(R.To)] + R.Dst * E,
                        S.From[static_cast<std::size_t>(R.From)] + R.Src * E,
                        static_cast<std::size_t>(R.Len * E));
    for (std::size_t J = 0; J < Axes; ++J) {
      if (++Index[J] < static_cast<int64_t>(S.At[J].size()))
        break;
      Index[J] = 0;
    }
  }
}

} // namespace redist
