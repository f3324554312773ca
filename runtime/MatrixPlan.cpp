//===- MatrixPlan.cpp - Plans for 2-D distributed matrices ----------------===//
//
// A MatrixPlan is the rank-2 case of an array plan (ArrayPlan.cpp): only
// the names its errors give are the matrix's own (MatrixValidate.h).
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/MatrixPlan.h"

#include "Combine.h"
#include "MatrixValidate.h"
#include "PlanImpl.h"

#include <exception>
#include <stdexcept>

namespace redist {

std::unique_ptr<Plan> detail::PlanBuilder::matrix(
    const MatrixSide &From, const MatrixSide &To, const MatrixRegion &Region,
    Algorithm2D Algorithm, std::size_t ElementBytes, MPI_Comm Comm,
    const PlanOptions &Options) {
  // The rank-2 array plan and its checks, whose errors name rows, columns
  // and leading dimensions.
  MatrixProblem Problem(From, To, Region, Algorithm);
  MatrixRegion &R = Problem.Region;
  if (R.Rows == -1 && R.Cols == -1) {
    R.Rows = From.Layout.numRows();
    R.Cols = From.Layout.numCols();
  }
  auto Array = std::make_unique<ArrayProblem>(
      arraySideOf(From), arraySideOf(To), arrayRegionOf(From, R), Algorithm);
  std::optional<std::string> Bad =
      findInvalidArrayOptions(ElementBytes, Options, Algorithm);
  if (!Bad)
    Bad = resolveArrayProblem(*Array, Comm, [&](const SectionError &E) {
      return regionProblem(E, R);
    });
  if (!Bad) {
    // What only this rank can see (its leading dimensions) is agreed on
    // like the rest.
    std::string Local =
        leadingDimProblem(Problem, Array->Rank, Array->FromProc, Array->ToProc);
    if (Local.empty())
      Local = resolveArrayStorage(*Array);
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
