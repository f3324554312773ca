//===- Datatypes.h - MPI derived datatypes from copy programs -------------===//
//
// Private to the runtime. Under Packing::Datatypes a message is sent straight
// from the source array and received straight into the target array: MPI
// walks a derived datatype that describes the same runs the copy loops walk
// (an hindexed type per slice, an hvector over the repeats, a struct over the
// segments, as Walker & Otto pick one block out of every superblock).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_DATATYPES_H
#define REDIST_RUNTIME_DATATYPES_H

#include "CopyProgram.h"

#include <mpi.h>

namespace redist {
namespace detail {

/// A committed datatype for one side of P: its "from" offsets (UseFrom, the
/// sender) or its "to" offsets (the receiver), in elements of Elem, whose
/// size is ElementBytes. The caller frees it.
MPI_Datatype buildDatatype(const CopyProgram &P, bool UseFrom,
                           MPI_Datatype Elem, std::size_t ElementBytes);

/// Frees T unless it is MPI_DATATYPE_NULL or MPI has been finalized.
void freeDatatype(MPI_Datatype &T);

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_DATATYPES_H
