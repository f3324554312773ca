//===- MatrixMessages.h - A matrix plan's messages as strided runs --------===//
//
// Private to the runtime. A MatrixPlan reuses the 1-D executor: all it adds
// is this description of its messages. Each axis of the region (the rows
// and the columns of the source's sub-matrix) is cut, at the block
// boundaries of both sides, into 1-D runs between one source grid line and
// one target grid line; that costs O(blocks on the axis), never a pass over
// the matrix. Message (p, q) carries, column by column of the source, the
// row runs of its row pair: one strided segment per column run, which is
// what MessageCutter cuts into pack, unpack and direct copy programs. A
// transposed target sees the source's rows as its columns, so its runs are
// single elements there; the unpacking writes them in place.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_MATRIXMESSAGES_H
#define REDIST_RUNTIME_MATRIXMESSAGES_H

#include "Agreement.h"
#include "CopyProgram.h"
#include "redist/CommGrid.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/TranslatedMatrix.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// A MatrixPlan's parameters, with the region resolved, and where this rank
/// stands.
struct MatrixProblem {
  MatrixProblem(MatrixSide From, MatrixSide To, MatrixRegion Region,
                Algorithm2D Algorithm)
      : From(std::move(From)), To(std::move(To)), Region(Region),
        Algorithm(Algorithm) {}
  MatrixSide From, To;
  MatrixRegion Region;
  Algorithm2D Algorithm;
  /// A static matrix directive's table, which the schedule follows, or null.
  const TranslatedMatrixSchedule *Given = nullptr;
  int Rank = 0;
  int64_t FromProc = -1, ToProc = -1; ///< this rank's processes, or -1
  int64_t SourceStorage = 0, TargetStorage = 0; ///< of this rank
  /// Whether the region is both whole matrices, untransposed: then the 2-D
  /// grid of lib is the region's, and every 2-D algorithm applies.
  bool wholeMatrix() const;
};

/// The checks of the element size, Options and Algorithm every rank makes
/// alike, as findInvalidOptions, with the matrix's algorithm. Returns the
/// first problem, naming the value.
std::optional<std::string> findInvalidMatrixOptions(std::size_t ElementBytes,
                                                    const PlanOptions &Options,
                                                    Algorithm2D Algorithm);
/// Resolves M's region (Rows = Cols = -1: the whole source) and this rank's
/// place. Returns the first invalid parameter, naming it, checked alike on
/// every rank without communicating.
std::optional<std::string> resolveMatrixProblem(MatrixProblem &M,
                                                MPI_Comm Comm);
/// Sets this rank's storage sizes; returns what only this rank can see to
/// be wrong (its leading dimensions), or "".
std::string resolveLocalStorage(MatrixProblem &M);
/// Layout L's parameters (extents, grid, formats, offsets, storage), each
/// name starting with Name, appended to Params.
void addLayoutParameters(std::vector<Parameter> &Params,
                         const std::string &Name, const Layout2D &L);
/// Every parameter the ranks of a matrix plan must share, for the Verify
/// option's comparison (Agreement.h); the same number on every rank.
std::vector<Parameter> matrixParameters(const MatrixProblem &M,
                                        std::size_t ElementBytes,
                                        const PlanOptions &Options);

/// The leading dimension Side's process Proc uses, as this rank knows it
/// (its own LocalLeadingDim, or the layout's); MyProc is this rank's.
int64_t leadingDimOf(const MatrixSide &Side, int64_t Proc, int64_t MyProc);

/// One piece of an axis: Len consecutive indices of the region from Pos on,
/// at local index Src on the source grid line and Dst on the target's.
struct AxisRun {
  int64_t Pos, Src, Dst, Len;
};

/// One axis of the region, cut between source and target grid lines.
struct MatrixAxis {
  /// Elements per (source line, target line), for every pair.
  std::map<std::pair<int64_t, int64_t>, int64_t> Counts;
  /// The runs of the pairs this rank needs (KeepSrc or KeepDst).
  std::map<std::pair<int64_t, int64_t>, std::vector<AxisRun>> Runs;
};

/// Banded regions (MatrixRegion::DiagonalBegin/End; MatrixBand.cpp): the
/// elements (i, j), i in [R0, R0 + RL), j in [C0, C0 + CL), with Begin <=
/// i - j < End; in O(1).
int64_t bandCount(int64_t R0, int64_t RL, int64_t C0, int64_t CL, int64_t Begin,
                  int64_t End);
/// The segments of a banded message whose row and column runs are Rows and
/// Cols, with the strides of MatrixMessages::cutter: per column the rows
/// that move are one interval, so whole columns repeat as in a rectangle
/// and only the columns the band's edges cross are cut, run by run.
std::vector<TriSegment> bandSegments(const std::vector<AxisRun> &Rows,
                                     const std::vector<AxisRun> &Cols,
                                     int64_t SRow, int64_t SCol, int64_t DRow,
                                     int64_t DCol, int64_t Begin, int64_t End);

class MatrixMessages {
public:
  explicit MatrixMessages(const MatrixProblem &M);
  /// The region's grid over process ids, sorted by source, then target.
  const CommGrid &grid() const { return Grid; }
  /// The runs of message Src -> Dst (process ids), of which this rank is
  /// the sender or the receiver.
  MessageCutter cutter(int64_t Src, int64_t Dst) const;

private:
  const MatrixProblem &M;
  MatrixAxis RowAxis, ColAxis; ///< the source's rows and columns
  CommGrid Grid;
};

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_MATRIXMESSAGES_H
