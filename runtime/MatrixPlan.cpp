//===- MatrixPlan.cpp - Plans for 2-D distributed matrices ----------------===//
//
// A MatrixPlan is the rank-2 case of an array plan (ArrayPlan.cpp): only
// the checks that name rows, columns and leading dimensions are the
// matrix's own.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/MatrixPlan.h"

#include "Combine.h"
#include "MatrixValidate.h"
#include "PlanImpl.h"

#include <exception>
#include <stdexcept>

namespace redist {

namespace {

ArraySide arraySideOf(const MatrixSide &S) {
  ArraySide A{arrayLayoutOf(S.Layout), S.Ranks, {}};
  if (S.LocalLeadingDim > 0)
    A.LocalStrides = S.Layout.storage().Order == StorageOrder::ColumnMajor
                         ? std::vector<int64_t>{1, S.LocalLeadingDim}
                         : std::vector<int64_t>{S.LocalLeadingDim, 1};
  return A;
}

/// The region of a resolved MatrixRegion: a transpose is the permutation
/// (1, 0), an empty region starts anywhere, and a band of diagonals is one
/// over the source's rows and columns.
ArrayRegion arrayRegionOf(const MatrixRegion &R) {
  ArrayRegion A;
  if (R.Transpose)
    A.Permutation = {1, 0};
  A.Extents = {R.Rows, R.Cols};
  if (R.Rows > 0 && R.Cols > 0) {
    A.SourceBegin = {R.SourceRow, R.SourceCol};
    A.TargetBegin = {R.TargetRow, R.TargetCol};
  }
  if (R.banded())
    A.Band = ArrayBand{0, 1, R.DiagonalBegin, R.DiagonalEnd};
  return A;
}

} // namespace

std::unique_ptr<Plan>
detail::PlanBuilder::matrix(const MatrixSide &From, const MatrixSide &To,
                            const MatrixRegion &Region, Algorithm2D Algorithm,
                            std::size_t ElementBytes, MPI_Comm Comm,
                            const PlanOptions &Options) {
  // The matrix's own checks, which name rows, columns and leading
  // dimensions; then the rank-2 array plan.
  MatrixProblem Problem(From, To, Region, Algorithm);
  std::optional<std::string> Bad =
      findInvalidArrayOptions(ElementBytes, Options, Algorithm);
  if (!Bad)
    Bad = resolveMatrixProblem(Problem, Comm);
  if (!Bad) {
    // What only this rank can see (its leading dimensions) is agreed on
    // like the rest.
    std::string Local = resolveLocalStorage(Problem);
    if (!Local.empty())
      Bad = Local;
  }
  auto Array =
      std::make_unique<ArrayProblem>(arraySideOf(From), arraySideOf(To),
                                     arrayRegionOf(Problem.Region), Algorithm);
  if (!Bad)
    Bad = resolveArrayProblem(*Array, Comm);
  if (!Bad) {
    std::string Local = resolveArrayStorage(*Array);
    if (!Local.empty())
      Bad = Local;
  }
  return array(std::move(Array), Bad, ElementBytes, Comm, Options, [&] {
    return matrixParameters(Problem, ElementBytes, Options);
  });
}

MatrixPlan::MatrixPlan(const MatrixSide &From, const MatrixSide &To,
                       std::size_t ElementBytes, MPI_Comm Comm,
                       const MatrixRegion &Region, const PlanOptions &Options,
                       Algorithm2D Algorithm)
    : P(detail::PlanBuilder::matrix(From, To, Region, Algorithm, ElementBytes,
                                    Comm, Options)),
      Combinable(Options.Pack == Packing::Runs), ElementBytes(ElementBytes) {}

MatrixPlan::~MatrixPlan() = default;
MatrixPlan::MatrixPlan(MatrixPlan &&) noexcept = default;
MatrixPlan &MatrixPlan::operator=(MatrixPlan &&) noexcept = default;

void MatrixPlan::execute(const void *Src, void *Dst) const {
  P->execute(Src, Dst);
}
void MatrixPlan::execute(const void *Src, void *Dst, const Combine &C) const {
  if (!Combinable)
    throw InvalidArgument("a combining execute needs a plan packed with "
                          "Packing::Runs");
  if (detail::elementBytesOf(C.Type) != ElementBytes)
    throw InvalidArgument("the combination's element type has " +
                          std::to_string(detail::elementBytesOf(C.Type)) +
                          " bytes, the plan's elements " +
                          std::to_string(ElementBytes));
  detail::CombineScope Scope(C);
  P->execute(Src, Dst);
}
void MatrixPlan::executeStep(const void *Src, void *Dst, int64_t K) const {
  P->executeStep(Src, Dst, K);
}
int64_t MatrixPlan::sourceStorageSize() const { return P->sourceLocalSize(); }
int64_t MatrixPlan::targetStorageSize() const { return P->targetLocalSize(); }
const Schedule &MatrixPlan::schedule() const { return P->schedule(); }
const OverlapSchedule &MatrixPlan::overlapSchedule() const {
  return P->overlapSchedule();
}
ScheduleStats MatrixPlan::stats() const { return P->stats(); }
std::size_t MatrixPlan::bufferBytes() const { return P->bufferBytes(); }
int64_t MatrixPlan::activeSteps() const { return P->activeSteps(); }
int64_t MatrixPlan::transfers() const { return P->transfers(); }
int64_t MatrixPlan::sharedMessages() const { return P->sharedMessages(); }
int64_t MatrixPlan::directMessages() const { return P->directMessages(); }

} // namespace redist
