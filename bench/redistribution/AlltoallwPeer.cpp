//===- AlltoallwPeer.cpp - MPI_Alltoallw with derived datatypes -----------===//
//
// No packing in user code: one MPI_Alltoallw whose send and receive types
// describe each peer's elements in place. Built the compact way a careful
// user would, from the repeating pattern of the layouts: for each peer, an
// hindexed type of one slice's runs, resized to the slice's local stride and
// repeated with a contiguous type, then joined by a struct with an hindexed
// type of the incomplete last slice (the only part under GEN_BLOCK, where a
// message is one run). MPI's datatype engine does the copying.
//
//===----------------------------------------------------------------------===//

#include "Method.h"

#include <vector>

namespace redist {
namespace bench {
namespace {

// An hindexed type of Runs (offsets in doubles, taken from the sender's or
// the receiver's side).
MPI_Datatype runsType(const std::vector<PairRun> &Runs, bool SenderSide) {
  std::vector<int> Lengths;
  std::vector<MPI_Aint> Displs;
  for (const PairRun &R : Runs) {
    Lengths.push_back(static_cast<int>(R.Length));
    Displs.push_back(static_cast<MPI_Aint>(
        (SenderSide ? R.SrcLocal : R.DstLocal) * sizeof(double)));
  }
  MPI_Datatype T;
  MPI_Type_create_hindexed(static_cast<int>(Runs.size()), Lengths.data(),
                           Displs.data(), MPI_DOUBLE, &T);
  return T;
}

// The committed type of one message's elements on one side.
MPI_Datatype messageType(const PairPattern &Pat, bool SenderSide) {
  std::vector<MPI_Datatype> Parts;
  if (Pat.Repeat > 0) {
    MPI_Datatype Slice = runsType(Pat.SliceRuns, SenderSide);
    MPI_Datatype Strided, Repeated;
    MPI_Aint Stride = static_cast<MPI_Aint>(
        (SenderSide ? Pat.SrcStride : Pat.DstStride) * sizeof(double));
    MPI_Type_create_resized(Slice, 0, Stride, &Strided);
    MPI_Type_contiguous(static_cast<int>(Pat.Repeat), Strided, &Repeated);
    MPI_Type_free(&Slice);
    MPI_Type_free(&Strided);
    Parts.push_back(Repeated);
  }
  if (!Pat.TailRuns.empty())
    Parts.push_back(runsType(Pat.TailRuns, SenderSide));
  MPI_Datatype Whole;
  if (Parts.size() == 1) {
    Whole = Parts[0];
  } else {
    std::vector<int> Ones(Parts.size(), 1);
    std::vector<MPI_Aint> Zeros(Parts.size(), 0);
    MPI_Type_create_struct(static_cast<int>(Parts.size()), Ones.data(),
                           Zeros.data(), Parts.data(), &Whole);
    for (MPI_Datatype &T : Parts)
      MPI_Type_free(&T);
  }
  MPI_Type_commit(&Whole);
  return Whole;
}

class AlltoallwPeer : public Method {
public:
  explicit AlltoallwPeer(const Problem &Pb)
      : Comm(Pb.Comm), SendCounts(Pb.Ranks, 0), RecvCounts(Pb.Ranks, 0),
        Displs(Pb.Ranks, 0), SendTypes(Pb.Ranks, MPI_DOUBLE),
        RecvTypes(Pb.Ranks, MPI_DOUBLE) {
    if (Pb.Rank < Pb.From.Procs) {
      std::vector<PairPattern> Row =
          patternsFromSource(Pb.From, Pb.To, Pb.Rank);
      for (size_t Q = 0; Q < Row.size(); ++Q)
        if (Row[Q].length() > 0) {
          SendTypes[Q] = messageType(Row[Q], /*SenderSide=*/true);
          SendCounts[Q] = 1;
        }
    }
    if (Pb.Rank < Pb.To.Procs) {
      std::vector<PairPattern> Column =
          patternsToTarget(Pb.From, Pb.To, Pb.Rank);
      for (size_t P = 0; P < Column.size(); ++P)
        if (Column[P].length() > 0) {
          RecvTypes[P] = messageType(Column[P], /*SenderSide=*/false);
          RecvCounts[P] = 1;
        }
    }
  }

  ~AlltoallwPeer() override {
    for (size_t R = 0; R < SendTypes.size(); ++R) {
      if (SendCounts[R] > 0)
        MPI_Type_free(&SendTypes[R]);
      if (RecvCounts[R] > 0)
        MPI_Type_free(&RecvTypes[R]);
    }
  }

  std::string algorithm() const override { return "none"; }

  void run(const double *Src, double *Dst) override {
    MPI_Alltoallw(Src, SendCounts.data(), Displs.data(), SendTypes.data(), Dst,
                  RecvCounts.data(), Displs.data(), RecvTypes.data(), Comm);
  }

private:
  MPI_Comm Comm;
  std::vector<int> SendCounts, RecvCounts, Displs;
  std::vector<MPI_Datatype> SendTypes, RecvTypes;
};

} // namespace

std::unique_ptr<Method> makeAlltoallwPeer(const Problem &Pb) {
  return std::make_unique<AlltoallwPeer>(Pb);
}

} // namespace bench
} // namespace redist
