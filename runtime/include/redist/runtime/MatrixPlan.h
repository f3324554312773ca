//===- redist/runtime/MatrixPlan.h - Plans for 2-D distributed matrices ---===//
//
// Moves a distributed matrix (redist/Distribution2D.h) from one 2-D layout
// to another, or a sub-matrix of it into a sub-matrix of another, optionally
// transposed, as ScaLAPACK's PxGEMR2D does: planned once, executed as often
// as needed. The two process grids may be any sets of ranks of one
// communicator (the same, overlapping or disjoint). A MatrixPlan is the
// rank-2 ArrayPlan (redist/runtime/ArrayPlan.h): its planning, messages,
// checks and executor are the array plan's, with all execution modes and
// packings; it adds the matrix's names and a combining execute().
//
// Invalid parameters throw redist::InvalidArgument, naming the value, on
// every rank before any communication.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_MATRIXPLAN_H
#define REDIST_RUNTIME_MATRIXPLAN_H

#include "redist/Distribution2D.h"
#include "redist/Schedulers2D.h"
#include "redist/runtime/ArrayPlan.h"
#include "redist/runtime/Plan.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace redist {

/// One side of a matrix redistribution: the layout, and which ranks hold
/// its processes.
struct MatrixSide {
  Layout2D Layout;
  /// Ranks[Id] is the rank of the communicator holding grid process Id
  /// (Layout2D::procAt). Empty means ranks 0 .. procs() - 1. A rank holds at
  /// most one process of each side.
  std::vector<int> Ranks;
  /// This rank's leading dimension, for callers whose processes each have
  /// their own (ScaLAPACK's LLD is per process). 0: Layout's. Not compared
  /// across ranks.
  int64_t LocalLeadingDim = 0;
};

/// What moves: the Rows x Cols sub-matrix whose first element is
/// (SourceRow, SourceCol) of the source (0-based), into the sub-matrix whose
/// first element is (TargetRow, TargetCol) of the target; with Transpose the
/// target's sub-matrix is its transpose, Cols x Rows, written directly by
/// the unpacking. Rows = Cols = -1 (the default) means the whole source
/// matrix.
struct MatrixRegion {
  int64_t Rows = -1, Cols = -1;
  int64_t SourceRow = 0, SourceCol = 0;
  int64_t TargetRow = 0, TargetCol = 0;
  bool Transpose = false;
  /// A band of diagonals, in the source sub-matrix's own indices (row i,
  /// column j from 0): only elements with DiagonalBegin <= i - j <
  /// DiagonalEnd move; the others stay as they are in the target. This is
  /// how trapezoids move (ScaLAPACK's PxTRMR2D, PBLAS's PxTRADD): per column
  /// the rows that move are one interval, so messages stay runs. The
  /// defaults move every element.
  int64_t DiagonalBegin = INT64_MIN, DiagonalEnd = INT64_MAX;
  bool banded() const {
    return DiagonalBegin != INT64_MIN || DiagonalEnd != INT64_MAX;
  }
};

/// The element types a plan's unpacking can combine (PBLAS's real and
/// complex types).
enum class ElementType { Float, Double, ComplexFloat, ComplexDouble };

/// What execute(Src, Dst, Combine) writes to each target element t it
/// reaches, for the source element s that lands there:
/// t = Beta * t + Alpha * op(s), op conjugating when Conjugate is set.
/// Beta = 0 writes Alpha * op(s) without reading t (a NaN in t does not
/// survive). Alpha and Beta are (real, imaginary); a real type uses the
/// real parts.
struct Combine {
  ElementType Type = ElementType::Double;
  double Alpha[2] = {1, 0};
  double Beta[2] = {0, 0};
  bool Conjugate = false;
};

/// A rank-2 ArrayPlan spelled as a matrix: every accessor is the array
/// plan's (the grid, schedule() and overlapSchedule() over process ids,
/// sorted by source, then target process), and execute() moves the region
/// between storages that are column-major with the leading dimension, or
/// row-major, as the layouts say, leaving target elements outside it
/// alone.
class MatrixPlan : public ArrayPlan {
public:
  /// Collective over Comm. ElementBytes is the size of one trivially
  /// copyable element. Options are the 1-D runtime's (mode, packing,
  /// transfer limit, shared memory, Verify, cost model) except Schedule:
  /// Algorithm chooses the schedule instead. For the whole matrix, not
  /// transposed, every 2-D algorithm applies (redist/Schedulers2D.h); for a
  /// sub-matrix or a transposed copy, whose grid no pair of layouts gives,
  /// auto and the algorithms that schedule any grid do.
  MatrixPlan(const MatrixSide &From, const MatrixSide &To,
             std::size_t ElementBytes, MPI_Comm Comm,
             const MatrixRegion &Region = MatrixRegion(),
             const PlanOptions &Options = PlanOptions(),
             Algorithm2D Algorithm = {Algorithm::Auto, false});

  using ArrayPlan::execute;
  /// execute(), combining each element with what the target holds as C
  /// says, in the unpacking itself: no pass over the data is added. Needs
  /// a plan built with Packing::Runs (MPI derived datatypes would write the
  /// target directly) and ElementBytes matching C.Type; otherwise throws
  /// InvalidArgument on this rank before any data moves.
  void execute(const void *Src, void *Dst, const Combine &C) const;

private:
  /// Whether execute(Src, Dst, Combine) may run: packed with Runs.
  bool Combinable = false;
  std::size_t ElementBytes = 0;
};

} // namespace redist

#endif // REDIST_RUNTIME_MATRIXPLAN_H
