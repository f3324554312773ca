//===- Datatypes.cpp - MPI derived datatypes from copy programs -----------===//
#include "Datatypes.h"

#include <cassert>
#include <climits>
#include <vector>

namespace redist {
namespace detail {
namespace {

/// One repeat of B as an hindexed type. Its block lengths are ints, which
/// holds: a transfer (or an Alltoallv round's part for one peer) carries at
/// most MaxTransferBytes <= INT_MAX bytes of elements of at least one byte.
/// redist-large sends a run of exactly INT_MAX elements.
MPI_Datatype sliceType(const SideBlocks &B, MPI_Datatype Elem,
                       std::size_t ElementBytes) {
  std::vector<int> Lengths(B.Lengths.size());
  std::vector<MPI_Aint> Displs(B.Offsets.size());
  for (std::size_t I = 0; I < B.Offsets.size(); ++I) {
    assert(B.Lengths[I] <= INT_MAX && "a transfer longer than INT_MAX");
    Lengths[I] = static_cast<int>(B.Lengths[I]);
    Displs[I] = static_cast<MPI_Aint>(B.Offsets[I]) *
                static_cast<MPI_Aint>(ElementBytes);
  }
  MPI_Datatype T;
  MPI_Type_create_hindexed(static_cast<int>(Lengths.size()), Lengths.data(),
                           Displs.data(), Elem, &T);
  return T;
}

/// Slice within Levels' nested repeats (CopySegment::Outer), deepest
/// first: each level's items are hvectors of the type below, placed by a
/// struct. Frees Slice. The type has O(items) entries, never one per
/// element.
MPI_Datatype nestedType(const std::vector<CopyLevel> &Levels, bool UseFrom,
                        MPI_Datatype Slice, std::size_t ElementBytes) {
  MPI_Datatype Inner = Slice;
  const MPI_Aint E = static_cast<MPI_Aint>(ElementBytes);
  for (auto L = Levels.rbegin(); L != Levels.rend(); ++L) {
    const MPI_Aint Step =
        static_cast<MPI_Aint>(UseFrom ? L->FromStep : L->ToStep) * E;
    std::vector<MPI_Datatype> Items;
    std::vector<MPI_Aint> Displs;
    for (const CopyItem &I : L->Items) {
      assert(I.Count <= INT_MAX && "a transfer longer than INT_MAX");
      MPI_Datatype T;
      MPI_Type_create_hvector(static_cast<int>(I.Count), 1, Step, Inner, &T);
      Items.push_back(T);
      Displs.push_back(static_cast<MPI_Aint>(UseFrom ? I.From : I.To) * E);
    }
    MPI_Type_free(&Inner);
    std::vector<int> Ones(Items.size(), 1);
    MPI_Type_create_struct(static_cast<int>(Items.size()), Ones.data(),
                           Displs.data(), Items.data(), &Inner);
    for (MPI_Datatype &T : Items)
      MPI_Type_free(&T);
  }
  return Inner;
}

} // namespace

MPI_Datatype buildDatatype(const CopyProgram &P, bool UseFrom,
                           MPI_Datatype Elem, std::size_t ElementBytes) {
  std::vector<MPI_Datatype> Parts;
  for (const SideBlocks &B : programSide(P, UseFrom)) {
    MPI_Datatype Slice = sliceType(B, Elem, ElementBytes);
    if (!B.Outer.empty()) {
      Parts.push_back(nestedType(B.Outer, UseFrom, Slice, ElementBytes));
      continue;
    }
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
