//===- MatrixValidate.h - The checks only a matrix plan names -------------===//
//
// Private to the runtime. A MatrixPlan is a rank-2 array plan
// (ArrayMessages.h); these are the checks whose errors name rows, columns,
// leading dimensions and the region as MatrixRegion spells it, and the
// parameters the Verify option compares under their matrix names.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_MATRIXVALIDATE_H
#define REDIST_RUNTIME_MATRIXVALIDATE_H

#include "Agreement.h"
#include "redist/runtime/MatrixPlan.h"

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
  int Rank = 0;
  int64_t FromProc = -1, ToProc = -1; ///< this rank's processes, or -1
  int64_t SourceStorage = 0, TargetStorage = 0; ///< of this rank
};

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

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_MATRIXVALIDATE_H
