//===- MatrixPlan.cpp - Plans for 2-D distributed matrices ----------------===//
//
// A MatrixPlan is a Plan whose messages come from MatrixMessages instead of
// 1-D layouts: everything after buildMessages (steps, groups, transfers,
// handovers, buffers) and execute() itself are the 1-D runtime's. Only the
// parameter checks and the schedule are the matrix's own.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/MatrixPlan.h"

#include "Combine.h"
#include "PlanImpl.h"
#include "redist/CommGrid2D.h"

#include <exception>
#include <stdexcept>

namespace redist {

namespace {

/// What the Impl holds in place of 1-D layouts: nothing.
Layout emptyLayout() { return Layout(Distribution::block(1), 0); }

/// The plan's agreement: throws on every rank when some rank's Bad is set
/// or, with Verify, when the ranks were given different parameters. Without
/// Verify it returns the communicator's duplicate, which the plan needs
/// anyway and whose creation carries the verdict (duplicateAgreeing), so no
/// MPI call is added; with Verify, MPI_COMM_NULL.
MPI_Comm agreeOnMatrix(const std::optional<std::string> &Bad,
                       const detail::MatrixProblem &M, std::size_t ElementBytes,
                       const PlanOptions &Options, MPI_Comm Comm) {
  if (!Options.Verify)
    return detail::duplicateAgreeing(Bad, Comm);
  const std::vector<detail::Parameter> Params =
      detail::matrixParameters(M, ElementBytes, Options);
  detail::agree(Bad, &Params, Comm);
  return MPI_COMM_NULL;
}

} // namespace

Plan::Impl::Impl(std::unique_ptr<detail::MatrixProblem> Problem,
                 std::size_t ElementBytes, MPI_Comm Comm,
                 const PlanOptions &Options)
    : Source(emptyLayout()), Target(emptyLayout()), N(0),
      ElementBytes(ElementBytes), UserComm(Comm), Options(Options),
      Matrix(std::move(Problem)) {
  MatrixMsgs = std::make_unique<detail::MatrixMessages>(*Matrix);
  Grid = MatrixMsgs->grid();
  if (Options.Mode == ExecMode::Overlapped) {
    // Over the grid of processes: a rank is at most one source and one
    // target process, so each rank's sends (and receives) are one port's.
    if (Options.Overlap == OverlapOrder::Steps)
      Sched = matrixSchedule();
    orderEvents(Matrix->From.Layout.str() + " -> " + Matrix->To.Layout.str());
  } else if (Options.Mode != ExecMode::Alltoallv) {
    Sched = matrixSchedule();
  }
}

Schedule Plan::Impl::matrixSchedule() const {
  if (Matrix->Given)
    return detail::givenMatrixSchedule(*Matrix->Given, *Grid);
  const Algorithm2D A = Matrix->Algorithm;
  CostModel Model = Options.Model;
  Model.ElementBytes = static_cast<double>(ElementBytes);
  const Layout2D &From = Matrix->From.Layout, &To = Matrix->To.Layout;
  try {
    if (Matrix->wholeMatrix()) {
      CommGrid2D G = computeGrid2D(From, To);
      if (G.Whole.Messages != Grid->Messages)
        throw std::logic_error("redist runtime: the matrix messages differ "
                               "from lib's 2-D grid");
      return makeSchedule2D(A, From, To, G, Model);
    }
    if (A.Product)
      throw InvalidArgument("a product needs whole, untransposed matrices; "
                            "use auto or an algorithm for any grid");
    return makeGridSchedule(A.Base, *Grid, Model);
  } catch (const InvalidArgument &E) {
    throw InvalidArgument("schedule algorithm " + algorithm2DName(A) +
                          " cannot schedule " + From.str() + " -> " + To.str() +
                          ": " + E.what());
  }
}

void Plan::Impl::buildMatrixMessages() {
  const CommGrid &G = grid();
  // The Overlapped mode places messages by their events (splitIntoEvents).
  std::vector<int64_t> StepOf;
  if (Options.Mode != ExecMode::Alltoallv &&
      Options.Mode != ExecMode::Overlapped)
    StepOf = stepOfEachMessage(G, schedule());
  const detail::MatrixProblem &M = *Matrix;
  auto RankOf = [](const MatrixSide &S, int64_t Id) -> int64_t {
    return S.Ranks.empty() ? Id : S.Ranks[static_cast<std::size_t>(Id)];
  };
  for (std::size_t I = 0; I < G.Messages.size(); ++I) {
    const Message &Msg = G.Messages[I];
    const bool Sends = Msg.Src == M.FromProc, Receives = Msg.Dst == M.ToProc;
    if (!Sends && !Receives)
      continue;
    const int64_t Step = StepOf.empty() ? 0 : StepOf[I];
    detail::MessageCutter Cut = MatrixMsgs->cutter(Msg.Src, Msg.Dst);
    const int64_t SrcRank = RankOf(M.From, Msg.Src),
                  DstRank = RankOf(M.To, Msg.Dst);
    // Both ends here: the ranks are equal, and the sender's call adds the
    // local copy. The grid is over processes, not ranks: give its id.
    addMessage(std::move(Cut), SrcRank, DstRank, 0, Sends, Step,
               static_cast<int64_t>(I));
  }
  // Only the cutters of this rank's messages were needed.
  MatrixMsgs.reset();
}

std::unique_ptr<Plan> detail::PlanBuilder::matrix(
    const MatrixSide &From, const MatrixSide &To, const MatrixRegion &Region,
    Algorithm2D Algorithm, std::size_t ElementBytes, MPI_Comm Comm,
    const PlanOptions &Options, const TranslatedMatrixSchedule *Given) {
  // As impl(): every check on each rank alone, then one agreement, then
  // every rank throws alike or builds.
  auto Problem = std::make_unique<MatrixProblem>(From, To, Region, Algorithm);
  Problem->Given = Given;
  std::optional<std::string> Bad =
      findInvalidMatrixOptions(ElementBytes, Options, Algorithm);
  if (!Bad)
    Bad = resolveMatrixProblem(*Problem, Comm);
  if (!Bad) {
    // What only this rank can see (its leading dimensions) is agreed on
    // like the rest.
    std::string Local = resolveLocalStorage(*Problem);
    if (!Local.empty())
      Bad = Local;
  }
  std::unique_ptr<Plan::Impl> Built;
  std::exception_ptr Failure;
  if (!Bad) {
    try {
      // A copy: the agreement below reads the problem on every rank.
      Built = std::make_unique<Plan::Impl>(
          std::make_unique<MatrixProblem>(*Problem), ElementBytes, Comm,
          Options);
    } catch (const InvalidArgument &E) {
      Bad = E.what();
    } catch (...) {
      Failure = std::current_exception();
    }
  }
  if (Comm == MPI_COMM_NULL)
    throw InvalidArgument(Bad.value_or("the communicator is MPI_COMM_NULL"));
  MPI_Comm Dup = agreeOnMatrix(Bad, *Problem, ElementBytes, Options, Comm);
  if (Failure) {
    if (Dup != MPI_COMM_NULL)
      MPI_Comm_free(&Dup);
    std::rethrow_exception(Failure);
  }
  Built->Comm = Dup; // MPI_COMM_NULL: build() duplicates Comm
  Built->build();
  return std::unique_ptr<Plan>(new Plan(std::move(Built)));
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

} // namespace redist
