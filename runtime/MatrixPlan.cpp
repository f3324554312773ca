//===- MatrixPlan.cpp - Plans for 2-D distributed matrices ----------------===//
//
// A MatrixPlan is a Plan whose messages come from MatrixMessages instead of
// 1-D layouts: everything after buildMessages (steps, groups, transfers,
// handovers, buffers) and execute() itself are the 1-D runtime's. Only the
// parameter checks and the schedule are the matrix's own.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/MatrixPlan.h"

#include "PlanImpl.h"
#include "redist/CommGrid2D.h"

#include <climits>
#include <exception>
#include <stdexcept>

namespace redist {

namespace {

/// What the Impl holds in place of 1-D layouts: nothing.
Layout emptyLayout() { return Layout(Distribution::block(1), 0); }

} // namespace

Plan::Impl::Impl(std::unique_ptr<detail::MatrixProblem> Problem,
                 std::size_t ElementBytes, MPI_Comm Comm,
                 const PlanOptions &Options)
    : Source(emptyLayout()), Target(emptyLayout()), N(0),
      ElementBytes(ElementBytes), UserComm(Comm), Options(Options),
      Matrix(std::move(Problem)) {
  MatrixMsgs = std::make_unique<detail::MatrixMessages>(*Matrix);
  Grid = MatrixMsgs->grid();
  if (Options.Mode != ExecMode::Alltoallv)
    Sched = matrixSchedule();
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
  std::vector<int64_t> StepOf;
  if (Options.Mode != ExecMode::Alltoallv)
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
    // local copy.
    addMessage(std::move(Cut), SrcRank, DstRank, 0, Sends, Step);
  }
  // Only the cutters of this rank's messages were needed.
  MatrixMsgs.reset();
}

std::unique_ptr<Plan> detail::PlanBuilder::matrix(
    const MatrixSide &From, const MatrixSide &To, const MatrixRegion &Region,
    Algorithm2D Algorithm, std::size_t ElementBytes, MPI_Comm Comm,
    const PlanOptions &Options, const TranslatedMatrixSchedule *Given) {
  // As impl(): every check on each rank alone, then Verify's collective,
  // then every rank throws alike or builds.
  auto Problem = std::make_unique<MatrixProblem>(From, To, Region, Algorithm);
  Problem->Given = Given;
  std::optional<std::string> Bad;
  if (ElementBytes == 0 || ElementBytes > static_cast<std::size_t>(INT_MAX))
    Bad = "element size " + std::to_string(ElementBytes) +
          " is outside [1, INT_MAX]";
  else if (Options.MaxTransferBytes < 0)
    Bad = "MaxTransferBytes " + std::to_string(Options.MaxTransferBytes) +
          " is negative";
  else if (Options.RanksPerNode < 0)
    Bad =
        "RanksPerNode " + std::to_string(Options.RanksPerNode) + " is negative";
  else if (Options.Mode == ExecMode::Overlapped)
    // Its order is computed over the 1-D grid of ranks; a matrix's messages
    // are between grid processes.
    Bad = std::string("mode ") + execModeName(Options.Mode) +
          " does not apply to matrix plans yet; use another mode";
  if (!Bad)
    Bad = resolveMatrixProblem(*Problem, Comm);
  std::string Local;
  if (!Bad)
    Local = resolveLocalStorage(*Problem);
  std::unique_ptr<Plan::Impl> Built;
  std::exception_ptr Failure;
  if (!Bad && Local.empty()) {
    try {
      Built = std::make_unique<Plan::Impl>(std::move(Problem), ElementBytes,
                                           Comm, Options);
    } catch (const InvalidArgument &E) {
      Bad = E.what();
    } catch (...) {
      Failure = std::current_exception();
    }
  }
  if (Options.Verify && Comm != MPI_COMM_NULL) {
    const MatrixProblem &P = Built ? *Built->Matrix : *Problem;
    verifyMatrixParameters(P, ElementBytes, Options, Local, Comm);
  }
  if (Bad)
    throw InvalidArgument(*Bad);
  if (!Local.empty())
    throw InvalidArgument(Local);
  if (Failure)
    std::rethrow_exception(Failure);
  Built->build();
  return std::unique_ptr<Plan>(new Plan(std::move(Built)));
}

MatrixPlan::MatrixPlan(const MatrixSide &From, const MatrixSide &To,
                       std::size_t ElementBytes, MPI_Comm Comm,
                       const MatrixRegion &Region, const PlanOptions &Options,
                       Algorithm2D Algorithm)
    : P(detail::PlanBuilder::matrix(From, To, Region, Algorithm, ElementBytes,
                                    Comm, Options)) {}

MatrixPlan::~MatrixPlan() = default;
MatrixPlan::MatrixPlan(MatrixPlan &&) noexcept = default;
MatrixPlan &MatrixPlan::operator=(MatrixPlan &&) noexcept = default;

void MatrixPlan::execute(const void *Src, void *Dst) const {
  P->execute(Src, Dst);
}
void MatrixPlan::executeStep(const void *Src, void *Dst, int64_t K) const {
  P->executeStep(Src, Dst, K);
}
int64_t MatrixPlan::sourceStorageSize() const { return P->sourceLocalSize(); }
int64_t MatrixPlan::targetStorageSize() const { return P->targetLocalSize(); }
const Schedule &MatrixPlan::schedule() const { return P->schedule(); }
ScheduleStats MatrixPlan::stats() const { return P->stats(); }
std::size_t MatrixPlan::bufferBytes() const { return P->bufferBytes(); }
int64_t MatrixPlan::activeSteps() const { return P->activeSteps(); }
int64_t MatrixPlan::transfers() const { return P->transfers(); }
int64_t MatrixPlan::sharedMessages() const { return P->sharedMessages(); }

} // namespace redist
