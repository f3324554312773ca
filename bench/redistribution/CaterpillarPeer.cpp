//===- CaterpillarPeer.cpp - ScaLAPACK's pairwise exchange, hand-written --===//
//
// The caterpillar of ScaLAPACK's redistribution routines, written without
// redist's runtime: M = max(P, Q) steps; at step k rank i exchanges with
// partner (k - i) mod M, as a source sending to target partner and as a
// target receiving from source partner, in one MPI_Sendrecv. The message to
// itself is copied directly. Each message is packed into a buffer of the
// largest message, and unpacked from another, run by run, from the repeating
// pattern of the layouts computed at setup.
//
//===----------------------------------------------------------------------===//

#include "Method.h"

#include <algorithm>
#include <vector>

namespace redist {
namespace bench {
namespace {

class CaterpillarPeer : public Method {
public:
  explicit CaterpillarPeer(const Problem &Pb) : Pb(Pb) {
    if (Pb.Rank < Pb.From.Procs)
      Outgoing = patternsFromSource(Pb.From, Pb.To, Pb.Rank);
    if (Pb.Rank < Pb.To.Procs)
      Incoming = patternsToTarget(Pb.From, Pb.To, Pb.Rank);
    Outgoing.resize(Pb.To.Procs);
    Incoming.resize(Pb.From.Procs);
    int64_t Largest = 0;
    for (const PairPattern &Pat : Outgoing)
      Largest = std::max(Largest, Pat.length());
    SendBuf.resize(Largest);
    Largest = 0;
    for (const PairPattern &Pat : Incoming)
      Largest = std::max(Largest, Pat.length());
    RecvBuf.resize(Largest);
  }

  std::string algorithm() const override { return "caterpillar"; }

  void run(const double *Src, double *Dst) override {
    int64_t M = std::max(Pb.From.Procs, Pb.To.Procs);
    int64_t Me = Pb.Rank;
    if (Me >= M)
      return;
    for (int64_t Step = 0; Step < M; ++Step) {
      int64_t Partner = ((Step - Me) % M + M) % M;
      const PairPattern *Out = Me < Pb.From.Procs && Partner < Pb.To.Procs
                                   ? &Outgoing[Partner]
                                   : nullptr;
      const PairPattern *In = Me < Pb.To.Procs && Partner < Pb.From.Procs
                                  ? &Incoming[Partner]
                                  : nullptr;
      if (Partner == Me) {
        if (Out)
          Out->forEachRun([&](const PairRun &R) {
            std::copy_n(Src + R.SrcLocal, R.Length, Dst + R.DstLocal);
          });
        continue;
      }
      int64_t SendLen = Out ? Out->length() : 0;
      int64_t RecvLen = In ? In->length() : 0;
      // The partner computes the same two lengths the other way round, so
      // both skip an empty exchange.
      if (SendLen == 0 && RecvLen == 0)
        continue;
      if (SendLen > 0) {
        double *Next = SendBuf.data();
        Out->forEachRun([&](const PairRun &R) {
          Next = std::copy_n(Src + R.SrcLocal, R.Length, Next);
        });
      }
      MPI_Sendrecv(SendBuf.data(), static_cast<int>(SendLen), MPI_DOUBLE,
                   static_cast<int>(Partner), 0, RecvBuf.data(),
                   static_cast<int>(RecvLen), MPI_DOUBLE,
                   static_cast<int>(Partner), 0, Pb.Comm, MPI_STATUS_IGNORE);
      if (RecvLen > 0) {
        const double *Next = RecvBuf.data();
        In->forEachRun([&](const PairRun &R) {
          std::copy_n(Next, R.Length, Dst + R.DstLocal);
          Next += R.Length;
        });
      }
    }
  }

private:
  Problem Pb;
  std::vector<PairPattern> Outgoing; // indexed by target process
  std::vector<PairPattern> Incoming; // indexed by source process
  std::vector<double> SendBuf, RecvBuf;
};

} // namespace

std::unique_ptr<Method> makeCaterpillarPeer(const Problem &Pb) {
  return std::make_unique<CaterpillarPeer>(Pb);
}

} // namespace bench
} // namespace redist
