//===- redist/runtime/TranslatedMatrix.h - Matrix directives' runtime API -===//
//
// What the code redistc generates for directives on matrices (2-D arrays,
// `distribute A[M][N](F0, F1) onto G` over `processors G(P0, P1)`) calls.
// A matrix's local part is a std::vector holding the local matrix
// column-major with the tightest leading dimension, max(1, local rows), as
// Layout2D's default storage says.
//
// A static directive carries the schedule redistc computed with lib/
// (makeSchedule2D, the same call the runtime makes) as a constant table of
// messages between grid processes, a TranslatedMatrixSchedule. Its plan is a
// matrix plan (MatrixPlan.h) that follows the table instead of scheduling:
// the runtime checks the table against the 2-D grid it computes from the
// layouts (every message once, with its length, no process twice in a
// step) and raises InvalidArgument on every rank if it does not match. A
// dynamic directive's plan is scheduled by the runtime and cached. Both are
// the 1-D executor's plans, run with directive::RedistributeSteps and
// directive::redistribute (Translated.h).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_TRANSLATEDMATRIX_H
#define REDIST_RUNTIME_TRANSLATEDMATRIX_H

#include "redist/Distribution2D.h"
#include "redist/runtime/Translated.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace redist {

/// A matrix layout as constants: the row and column distributions over the
/// grid's rows and columns, the matrix's M x N, and the grid order.
struct MatrixConstant {
  DistributionConstant Rows, Cols;
  int64_t M, N;
  GridOrder Order;
  Layout2D value() const;
};

/// One message of a translated matrix schedule: from grid process Src to
/// grid process Dst (process ids of the layouts' grid order) in Step.
struct TranslatedMatrixMessage {
  int64_t Step, Src, Dst, Elements;
};

/// What redistc decided for one static matrix directive. Messages are
/// sorted by step.
struct TranslatedMatrixSchedule {
  const char *Where;     ///< "file.cpp:12", named by every error
  const char *Algorithm; ///< algorithm2DName of what made the schedule
  MatrixConstant From, To;
  int64_t Steps;
  int64_t MessageCount;
  const TranslatedMatrixMessage *Messages;
};

namespace directive {

/// A matrix layout made from a directive's run-time values, or what is
/// wrong with them (as Target for arrays): its plan raises the problem on
/// every rank at once.
class MatrixTarget {
public:
  MatrixTarget(Layout2D L) : Value(std::move(L)) {}
  static MatrixTarget invalid(std::string Problem) {
    MatrixTarget T;
    T.Problem = std::move(Problem);
    return T;
  }
  /// The layout; without one, throws the problem, naming Where.
  const Layout2D &value(const char *Where) const;
  const std::optional<std::string> &problem() const { return Problem; }
  const std::optional<Layout2D> &layout() const { return Value; }

private:
  MatrixTarget() = default;
  std::optional<Layout2D> Value;
  std::optional<std::string> Problem;
};

/// The M x N matrix with rows distributed by Rows and columns by Cols (each
/// from target() or genBlockTarget()), in grid order Order.
MatrixTarget matrixTarget(const Target &Rows, const Target &Cols, int64_t M,
                          int64_t N, GridOrder Order);
/// The same for a distribute directive, which has no plan: its errors are
/// thrown at once, naming Where.
Layout2D matrix(const Distribution &Rows, const Distribution &Cols, int64_t M,
                int64_t N, GridOrder Order, const char *Where);
/// The layout T that a distribute directive in a function body declares,
/// on Comm: as distributed() does for arrays, with the Verify option
/// (directiveOptions(V)) one MPI_Allreduce raises a problem on any rank, or
/// values that differ across ranks, on every rank, naming Where; without
/// it, a problem on this rank aborts the job with the message.
Layout2D distributedMatrix(const MatrixTarget &T, MPI_Comm Comm,
                           const char *Where,
                           Verification V = Verification::Default);

/// The plan that follows S's table on Comm, for elements of ElementBytes,
/// with directiveOptions(V): built on the first call (collective) and kept
/// until Comm is freed. S is the key, by address: it must outlive the plan.
/// Throws InvalidArgument, prefixed with S.Where, on every rank when a
/// parameter is invalid or the table is not a schedule of S's layouts.
const Plan &translatedMatrixPlan(const TranslatedMatrixSchedule &S,
                                 std::size_t ElementBytes, MPI_Comm Comm,
                                 Verification V = Verification::Default);

/// The plan of a dynamic matrix directive: scheduled by the runtime with
/// Algorithm (an algorithm2DName), cached. To's problem and the plan's
/// errors are raised on every rank, naming Where.
const Plan &dynamicMatrixPlan(const Layout2D &From, const MatrixTarget &To,
                              std::size_t ElementBytes, MPI_Comm Comm,
                              const char *Algorithm, const char *Where,
                              Verification V = Verification::Default);

/// The two for the element type of the variable S.
template <typename S>
const Plan &staticMatrixPlan(const TranslatedMatrixSchedule &T, MPI_Comm Comm,
                             Verification V = Verification::Default) {
  return translatedMatrixPlan(T, sizeof(ElementOf<S>), Comm, V);
}
template <typename S>
const Plan &dynamicMatrixPlan(const Layout2D &From, const MatrixTarget &To,
                              MPI_Comm Comm, const char *Algorithm,
                              const char *Where,
                              Verification V = Verification::Default) {
  return dynamicMatrixPlan(From, To, sizeof(ElementOf<S>), Comm, Algorithm,
                           Where, V);
}

} // namespace directive
} // namespace redist

#endif // REDIST_RUNTIME_TRANSLATEDMATRIX_H
