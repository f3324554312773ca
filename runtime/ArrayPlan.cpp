//===- ArrayPlan.cpp - Plans for arrays of any rank -----------------------===//
//
// An ArrayPlan is a Plan whose messages come from ArrayMessages instead of
// 1-D layouts: everything after buildMessages (steps, groups, transfers,
// handovers, buffers) and execute() itself are the 1-D runtime's. Only the
// parameter checks and the schedule are the array's own. MatrixPlan.cpp
// spells matrices as rank-2 arrays and comes here too, checks and
// agreement included.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/ArrayPlan.h"

#include "PlanImpl.h"

#include <exception>
#include <stdexcept>

namespace redist {

namespace {

/// What the Impl holds in place of 1-D layouts: nothing.
Layout emptyLayout() { return Layout(Distribution::block(1), 0); }

} // namespace

Plan::Impl::Impl(std::unique_ptr<detail::ArrayProblem> Problem,
                 std::size_t ElementBytes, MPI_Comm Comm,
                 const PlanOptions &Options)
    : Source(emptyLayout()), Target(emptyLayout()), N(0),
      ElementBytes(ElementBytes), UserComm(Comm), Options(Options),
      Array(std::move(Problem)) {
  ArrayMsgs = std::make_unique<detail::ArrayMessages>(*Array);
  Grid = ArrayMsgs->grid().Whole;
  if (Options.Mode == ExecMode::Overlapped) {
    // Over the grid of processes: a rank is at most one source and one
    // target process, so each rank's sends (and receives) are one port's.
    if (Options.Overlap == OverlapOrder::Steps)
      Sched = arraySchedule();
    orderEvents(Array->what());
  } else if (Options.Mode != ExecMode::Alltoallv) {
    Sched = arraySchedule();
  }
}

Schedule Plan::Impl::arraySchedule() const {
  if (Array->Given)
    return detail::givenArraySchedule(*Array->Given, *Grid);
  const ArrayAlgorithm A = Array->Algorithm;
  CostModel Model = Options.Model;
  Model.ElementBytes = static_cast<double>(ElementBytes);
  try {
    return makeArraySchedule(A, Array->From.Layout, Array->To.Layout,
                             Array->Region, ArrayMsgs->grid(), Model);
  } catch (const InvalidArgument &E) {
    throw InvalidArgument("schedule algorithm " + arrayAlgorithmName(A) +
                          " cannot schedule " + Array->what() + ": " +
                          E.what());
  }
}

void Plan::Impl::buildArrayMessages() {
  const CommGrid &G = grid();
  // The Overlapped mode places messages by their events (splitIntoEvents).
  std::vector<int64_t> StepOf;
  if (Options.Mode != ExecMode::Alltoallv &&
      Options.Mode != ExecMode::Overlapped)
    StepOf = stepOfEachMessage(G, schedule());
  const detail::ArrayProblem &M = *Array;
  auto RankOf = [](const ArraySide &S, int64_t Id) -> int64_t {
    return S.Ranks.empty() ? Id : S.Ranks[static_cast<std::size_t>(Id)];
  };
  for (std::size_t I = 0; I < G.Messages.size(); ++I) {
    const Message &Msg = G.Messages[I];
    const bool Sends = Msg.Src == M.FromProc, Receives = Msg.Dst == M.ToProc;
    if (!Sends && !Receives)
      continue;
    const int64_t Step = StepOf.empty() ? 0 : StepOf[I];
    detail::MessageCutter Cut = ArrayMsgs->cutter(Msg.Src, Msg.Dst);
    // Both ends here: the ranks are equal, and the sender's call adds the
    // local copy. The grid is over processes, not ranks: give its id.
    addMessage(std::move(Cut), RankOf(M.From, Msg.Src), RankOf(M.To, Msg.Dst),
               0, Sends, Step, static_cast<int64_t>(I));
  }
  // Only the cutters of this rank's messages needed the runs; schedule()
  // may still need the grid.
  ArrayMsgs->dropRuns();
}

std::unique_ptr<Plan> detail::PlanBuilder::array(
    std::unique_ptr<ArrayProblem> Problem, std::optional<std::string> Bad,
    std::size_t ElementBytes, MPI_Comm Comm, const PlanOptions &Options,
    const std::vector<Parameter> *Region) {
  // As impl(): every check on each rank alone, then one agreement, then
  // every rank throws alike or builds. The parameters are taken before
  // the plan takes the problem.
  std::vector<Parameter> Params;
  if (Options.Verify)
    Params = arrayParameters(*Problem, ElementBytes, Options, Region);
  std::unique_ptr<Plan::Impl> Built;
  std::exception_ptr Failure;
  if (!Bad) {
    try {
      Built = std::make_unique<Plan::Impl>(std::move(Problem), ElementBytes,
                                           Comm, Options);
    } catch (const InvalidArgument &E) {
      Bad = E.what();
    } catch (...) {
      Failure = std::current_exception();
    }
  }
  if (Comm == MPI_COMM_NULL)
    throw InvalidArgument(Bad.value_or("the communicator is MPI_COMM_NULL"));
  // Without Verify, the communicator's duplicate, which the plan needs
  // anyway, carries the verdict (duplicateAgreeing): no MPI call is added.
  MPI_Comm Dup = MPI_COMM_NULL;
  if (!Options.Verify) {
    Dup = duplicateAgreeing(Bad, Comm);
  } else {
    agree(Bad, &Params, Comm);
  }
  if (Failure) {
    if (Dup != MPI_COMM_NULL)
      MPI_Comm_free(&Dup);
    std::rethrow_exception(Failure);
  }
  Built->Comm = Dup; // MPI_COMM_NULL: build() duplicates Comm
  Built->build();
  return std::unique_ptr<Plan>(new Plan(std::move(Built)));
}

std::unique_ptr<Plan> detail::buildArrayPlan(
    const ArraySide &From, const ArraySide &To, std::size_t ElementBytes,
    MPI_Comm Comm, const ArrayRegion &Region, const PlanOptions &Options,
    ArrayAlgorithm Algorithm, const std::optional<std::string> &Problem,
    const GivenTable *Given) {
  auto Built =
      std::make_unique<detail::ArrayProblem>(From, To, Region, Algorithm);
  if (Given)
    Built->Given = *Given;
  std::optional<std::string> Bad = Problem;
  if (!Bad)
    Bad = detail::findInvalidArrayOptions(ElementBytes, Options, Algorithm);
  if (!Bad)
    Bad = detail::resolveArrayProblem(*Built, Comm);
  if (!Bad) {
    std::string Local = detail::resolveArrayStorage(*Built);
    if (!Local.empty())
      Bad = Local;
  }
  return detail::PlanBuilder::array(std::move(Built), Bad, ElementBytes, Comm,
                                    Options);
}

ArrayPlan::ArrayPlan(const ArraySide &From, const ArraySide &To,
                     std::size_t ElementBytes, MPI_Comm Comm,
                     const ArrayRegion &Region, const PlanOptions &Options,
                     ArrayAlgorithm Algorithm)
    : P(detail::buildArrayPlan(From, To, ElementBytes, Comm, Region, Options,
                               Algorithm)) {}

ArrayPlan::ArrayPlan(std::unique_ptr<Plan> Built) : P(std::move(Built)) {}

ArrayPlan::~ArrayPlan() = default;
ArrayPlan::ArrayPlan(ArrayPlan &&) noexcept = default;
ArrayPlan &ArrayPlan::operator=(ArrayPlan &&) noexcept = default;

void ArrayPlan::execute(const void *Src, void *Dst) const {
  P->execute(Src, Dst);
}
void ArrayPlan::executeStep(const void *Src, void *Dst, int64_t K) const {
  P->executeStep(Src, Dst, K);
}
int64_t ArrayPlan::sourceStorageSize() const { return P->sourceLocalSize(); }
int64_t ArrayPlan::targetStorageSize() const { return P->targetLocalSize(); }
const CommGrid &ArrayPlan::grid() const {
  return detail::PlanBuilder::of(*P).grid();
}
const Schedule &ArrayPlan::schedule() const { return P->schedule(); }
const OverlapSchedule &ArrayPlan::overlapSchedule() const {
  return P->overlapSchedule();
}
ScheduleStats ArrayPlan::stats() const { return P->stats(); }
std::size_t ArrayPlan::bufferBytes() const { return P->bufferBytes(); }
int64_t ArrayPlan::activeSteps() const { return P->activeSteps(); }
int64_t ArrayPlan::transfers() const { return P->transfers(); }
int64_t ArrayPlan::sharedMessages() const { return P->sharedMessages(); }
int64_t ArrayPlan::directMessages() const { return P->directMessages(); }

int64_t ArrayPlan::programEntries() const {
  const Plan::Impl &I = detail::PlanBuilder::of(*P);
  int64_t Entries = detail::programEntries(I.Self);
  for (const detail::CopyProgram &C : I.SelfChunks)
    Entries += detail::programEntries(C);
  for (const auto *List : {&I.Sends, &I.Recvs})
    for (const detail::PeerMessage &M : *List) {
      Entries += detail::programEntries(M.Program);
      for (const detail::CopyProgram &C : M.Chunks)
        Entries += detail::programEntries(C);
      for (const detail::CopyProgram *C :
           {&M.Round.Tile, &M.Round.LastTile, &M.Round.Tail})
        Entries += detail::programEntries(*C);
    }
  for (const Plan::Impl::FusedPiece &F : I.Fused)
    Entries += detail::programEntries(F.Pack) + detail::programEntries(F.Self);
  return Entries;
}

} // namespace redist
