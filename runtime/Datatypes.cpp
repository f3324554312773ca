//===- Datatypes.cpp - MPI derived datatypes from copy programs -----------===//
#include "Datatypes.h"

#include <climits>
#include <vector>

namespace redist {
namespace detail {
namespace {

/// One repeat of B as an hindexed type; runs longer than INT_MAX elements are
/// split because MPI's block lengths are ints.
MPI_Datatype sliceType(const SideBlocks &B, MPI_Datatype Elem,
                       std::size_t ElementBytes) {
  std::vector<int> Lengths;
  std::vector<MPI_Aint> Displs;
  for (std::size_t I = 0; I < B.Offsets.size(); ++I) {
    int64_t Off = B.Offsets[I], Len = B.Lengths[I];
    while (Len > 0) {
      int64_t Piece = Len < INT_MAX ? Len : INT_MAX;
      Lengths.push_back(static_cast<int>(Piece));
      Displs.push_back(static_cast<MPI_Aint>(Off) *
                       static_cast<MPI_Aint>(ElementBytes));
      Off += Piece;
      Len -= Piece;
    }
  }
  MPI_Datatype T;
  MPI_Type_create_hindexed(static_cast<int>(Lengths.size()), Lengths.data(),
                           Displs.data(), Elem, &T);
  return T;
}

} // namespace

MPI_Datatype buildDatatype(const CopyProgram &P, bool UseFrom,
                           MPI_Datatype Elem, std::size_t ElementBytes) {
  std::vector<MPI_Datatype> Parts;
  for (const SideBlocks &B : programSide(P, UseFrom)) {
    MPI_Datatype Slice = sliceType(B, Elem, ElementBytes);
    if (B.Repeat == 1) {
      Parts.push_back(Slice);
      continue;
    }
    MPI_Datatype Repeated;
    MPI_Type_create_hvector(static_cast<int>(B.Repeat), 1,
                            static_cast<MPI_Aint>(B.Stride) *
                                static_cast<MPI_Aint>(ElementBytes),
                            Slice, &Repeated);
    MPI_Type_free(&Slice);
    Parts.push_back(Repeated);
  }
  MPI_Datatype Result;
  if (Parts.size() == 1) {
    Result = Parts[0];
  } else {
    std::vector<int> Ones(Parts.size(), 1);
    std::vector<MPI_Aint> Zeros(Parts.size(), 0);
    MPI_Type_create_struct(static_cast<int>(Parts.size()), Ones.data(),
                           Zeros.data(), Parts.data(), &Result);
    for (MPI_Datatype &T : Parts)
      MPI_Type_free(&T);
  }
  MPI_Type_commit(&Result);
  return Result;
}

void freeDatatype(MPI_Datatype &T) {
  if (T == MPI_DATATYPE_NULL)
    return;
  int Finalized = 0;
  MPI_Finalized(&Finalized);
  if (!Finalized)
    MPI_Type_free(&T);
  T = MPI_DATATYPE_NULL;
}

} // namespace detail
} // namespace redist
