//===- MatrixValidate.h - A matrix plan's names for the array checks ------===//
//
// Private to the runtime. A MatrixPlan is a rank-2 array plan
// (ArrayMessages.h), checked by the array's checks; here are the names
// its errors give instead: rows, columns, leading dimensions and the region
// as MatrixRegion spells it, and the parameters the Verify option compares
// under their matrix names. The one check of its own is ScaLAPACK's rule
// for a leading dimension, which is stricter than the strides an array
// accepts.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_MATRIXVALIDATE_H
#define REDIST_RUNTIME_MATRIXVALIDATE_H

#include "Agreement.h"
#include "ArrayMessages.h"
#include "redist/runtime/MatrixPlan.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// A MatrixPlan's parameters, as given.
struct MatrixProblem {
  MatrixProblem(MatrixSide From, MatrixSide To, MatrixRegion Region,
                Algorithm2D Algorithm)
      : From(std::move(From)), To(std::move(To)), Region(Region),
        Algorithm(Algorithm) {}
  MatrixSide From, To;
  MatrixRegion Region;
  Algorithm2D Algorithm;
};

/// The rank-2 array side and region of a matrix plan's: a positive
/// LocalLeadingDim as this rank's strides, the whole matrix (Rows = Cols =
/// -1) as a section of the source's extents, a transpose as the
/// permutation (1, 0), and a band of diagonals as one over the source's
/// rows and columns.
ArraySide arraySideOf(const MatrixSide &S);
ArrayRegion arrayRegionOf(const MatrixSide &From, const MatrixRegion &R);
/// E, a section of arrayRegionOf(From, R) outside an array, in R's words:
/// "the region's source rows ...".
std::string regionProblem(const SectionError &E, const MatrixRegion &R);
/// ScaLAPACK's rule for this rank's leading dimensions on both sides (its
/// processes FromProc and ToProc, -1 for none): not negative, and at least
/// the local rows (columns in row-major storage) of its process, even where
/// a part of one column would allow less. Returns what is wrong, or "".
std::string leadingDimProblem(const MatrixProblem &M, int Rank,
                              int64_t FromProc, int64_t ToProc);
/// Layout L's parameters (extents, grid, formats, offsets, storage), each
/// name starting with Name, appended to Params.
void addLayoutParameters(std::vector<Parameter> &Params,
                         const std::string &Name, const Layout2D &L);
/// Every parameter the ranks of a matrix plan must share, for the Verify
/// option's comparison (Agreement.h); the same number on every rank.
std::vector<Parameter> matrixParameters(const MatrixProblem &M,
                                        std::size_t ElementBytes,
                                        const PlanOptions &Options);

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_MATRIXVALIDATE_H
