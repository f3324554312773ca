//===- AlltoallvPeer.cpp - MPI_Alltoallv as users write it ----------------===//
//
// The redistribution HPC programmers write by hand today: count, pack, one
// MPI_Alltoallv, unpack. The counts are computed once at setup (hoisting them
// out of the timed run favours this peer). Each run then
//  - packs: walks the rank's source blocks in local order (its one segment
//    under GEN_BLOCK); each block is cut at target block boundaries into
//    segments; the owner of a segment is computed with a division (a binary
//    search of the segment starts under GEN_BLOCK), and the segment is
//    copied to the end of that target's region of the send buffer;
//  - calls MPI_Alltoallv on MPI_DOUBLE, the rank's message to itself
//    included (MPI copies it);
//  - unpacks: walks the rank's target blocks in local order the same way and
//    copies each segment from the next position of its source's region of
//    the receive buffer.
// Both sides visit a pair's elements in increasing global order, so the
// positions agree without any index being sent.
//
//===----------------------------------------------------------------------===//

#include "Method.h"

#include <algorithm>
#include <vector>

namespace redist {
namespace bench {
namespace {

// Calls F(LocalIndex, Peer, Length) for every segment of Mine's blocks on
// process Me, in local order; Peer is the owner under Other.
template <typename Fn>
void forEachLocalSegment(const IndexMap &Mine, const IndexMap &Other,
                         int64_t Me, Fn &&F) {
  int64_t Size = Mine.localSize(Me);
  for (int64_t L = 0; L < Size;) {
    int64_t G = Mine.toGlobal(Me, L);
    int64_t End = G + std::min(Mine.blockRemaining(G), Size - L);
    while (G < End) {
      int64_t Len = std::min(Other.blockRemaining(G), End - G);
      F(L, Other.owner(G), Len);
      G += Len;
      L += Len;
    }
  }
}

class AlltoallvPeer : public Method {
public:
  explicit AlltoallvPeer(const Problem &Pb)
      : Pb(Pb), SendCounts(Pb.Ranks, 0), SendDispls(Pb.Ranks, 0),
        RecvCounts(Pb.Ranks, 0), RecvDispls(Pb.Ranks, 0), Cursor(Pb.Ranks, 0) {
    if (Pb.Rank < Pb.From.Procs)
      forEachLocalSegment(Pb.From, Pb.To, Pb.Rank,
                          [&](int64_t, int64_t Dst, int64_t Len) {
                            SendCounts[Dst] += static_cast<int>(Len);
                          });
    if (Pb.Rank < Pb.To.Procs)
      forEachLocalSegment(Pb.To, Pb.From, Pb.Rank,
                          [&](int64_t, int64_t Src, int64_t Len) {
                            RecvCounts[Src] += static_cast<int>(Len);
                          });
    for (int R = 1; R < Pb.Ranks; ++R) {
      SendDispls[R] = SendDispls[R - 1] + SendCounts[R - 1];
      RecvDispls[R] = RecvDispls[R - 1] + RecvCounts[R - 1];
    }
    SendBuf.resize(SendDispls.back() + SendCounts.back());
    RecvBuf.resize(RecvDispls.back() + RecvCounts.back());
  }

  std::string algorithm() const override { return "none"; }

  void run(const double *Src, double *Dst) override {
    if (Pb.Rank < Pb.From.Procs) {
      std::copy(SendDispls.begin(), SendDispls.end(), Cursor.begin());
      forEachLocalSegment(Pb.From, Pb.To, Pb.Rank,
                          [&](int64_t Local, int64_t Peer, int64_t Len) {
                            std::copy_n(Src + Local, Len,
                                        SendBuf.data() + Cursor[Peer]);
                            Cursor[Peer] += Len;
                          });
    }
    MPI_Alltoallv(SendBuf.data(), SendCounts.data(), SendDispls.data(),
                  MPI_DOUBLE, RecvBuf.data(), RecvCounts.data(),
                  RecvDispls.data(), MPI_DOUBLE, Pb.Comm);
    if (Pb.Rank < Pb.To.Procs) {
      std::copy(RecvDispls.begin(), RecvDispls.end(), Cursor.begin());
      forEachLocalSegment(Pb.To, Pb.From, Pb.Rank,
                          [&](int64_t Local, int64_t Peer, int64_t Len) {
                            std::copy_n(RecvBuf.data() + Cursor[Peer], Len,
                                        Dst + Local);
                            Cursor[Peer] += Len;
                          });
    }
  }

private:
  Problem Pb;
  std::vector<int> SendCounts, SendDispls, RecvCounts, RecvDispls;
  std::vector<int64_t> Cursor;
  std::vector<double> SendBuf, RecvBuf;
};

} // namespace

std::unique_ptr<Method> makeAlltoallvPeer(const Problem &Pb) {
  return std::make_unique<AlltoallvPeer>(Pb);
}

} // namespace bench
} // namespace redist
