//===- TranslatedMatrix.cpp - What matrix directives' code calls ----------===//
//
// A matrix directive's plan is a matrix plan (MatrixPlan.cpp) built through
// PlanBuilder::matrix, static or dynamic alike; a static one follows its
// table, checked here against the grid the runtime computes. Plans are
// cached by their parameters. Before a plan is looked up or built, the
// ranks agree: any rank's invalid value throws on every rank, and with
// Verify the parameters are compared, on every call as for 1-D directives.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/TranslatedMatrix.h"

#include "Agreement.h"
#include "MatrixValidate.h"
#include "PlanImpl.h"

#include <utility>

namespace redist {

Layout2D MatrixConstant::value() const {
  return Layout2D(Layout(Rows.value(), M), Layout(Cols.value(), N), Order);
}

Schedule detail::givenMatrixSchedule(const GivenTable &T, const CommGrid &G) {
  auto Fail = [](const std::string &What) {
    throw InvalidArgument("the translated table of messages does not match the "
                          "runtime's schedule library (translate the file "
                          "again): " +
                          What);
  };
  if (T.Steps < 0 || T.MessageCount < 0 || (T.MessageCount > 0 && !T.Messages))
    Fail("negative step or message count, or no messages");
  Schedule S;
  S.Algorithm = T.Algorithm;
  S.Steps.resize(static_cast<std::size_t>(T.Steps));
  for (int64_t I = 0; I < T.MessageCount; ++I) {
    const TranslatedMatrixMessage &M = T.Messages[I];
    const std::string Name =
        "message " + std::to_string(M.Src) + " -> " + std::to_string(M.Dst);
    if (M.Step < 0 || M.Step >= T.Steps)
      Fail(Name + " is in step " + std::to_string(M.Step) + " of " +
           std::to_string(T.Steps));
    const std::optional<int64_t> Id = findGridId(G, M.Src, M.Dst);
    if (!Id)
      Fail(Name + " is not one of the matrix's messages");
    if (G.Messages[static_cast<std::size_t>(*Id)].Len != M.Elements)
      Fail(Name + " has " + std::to_string(M.Elements) + " elements, not " +
           std::to_string(G.Messages[static_cast<std::size_t>(*Id)].Len));
    S.Steps[static_cast<std::size_t>(M.Step)].push_back(*Id);
  }
  // Every message exactly once, no process twice in a step.
  if (std::optional<std::string> Why = validateSchedule(G, S))
    Fail(*Why);
  return S;
}

namespace directive {

namespace {

/// The cached matrix plan From -> To; Problem, set on a rank whose values
/// make no target (To is then a stand-in), is raised on every rank.
const Plan &matrixPlan(const std::optional<std::string> &Problem,
                       const Layout2D &From, const Layout2D &To, Algorithm2D A,
                       std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options,
                       const TranslatedMatrixSchedule *Given) {
  detail::MatrixPlanKey Key{
      From.str(), To.str(), ElementBytes, algorithm2DName(A),
      Given,      Comm,     Options};
  const Plan *Found = Problem ? nullptr : detail::findMatrixPlan(Key);
  const MatrixSide Source{From, {}, 0}, Target{To, {}, 0};
  // With Verify on every call, as 1-D directives do: ranks given different
  // values may hit the cache on some ranks and build on others. Without it,
  // only a miss agrees, since its build is collective anyway.
  if (Comm != MPI_COMM_NULL && (Options.Verify || !Found)) {
    if (Options.Verify) {
      const std::vector<detail::Parameter> Params = detail::matrixParameters(
          detail::MatrixProblem(Source, Target, MatrixRegion(), A),
          ElementBytes, Options);
      detail::agree(Problem, &Params, Comm);
    } else {
      detail::agreeOnProblem(Problem.value_or(""), Comm);
    }
  }
  if (Found)
    return *Found;
  // Just compared: the build need not compare again.
  PlanOptions Build = Options;
  Build.Verify = false;
  std::unique_ptr<Plan> Built = detail::PlanBuilder::matrix(
      Source, Target, MatrixRegion(), A, ElementBytes, Comm, Build, Given);
  return detail::keepMatrixPlan(std::move(Key), std::move(Built));
}

/// The algorithm named Name (redistc checked it against the same library).
Algorithm2D algorithm2D(const char *Name) {
  if (std::optional<Algorithm2D> A = parseAlgorithm2D(Name))
    return *A;
  throw InvalidArgument(std::string("unknown matrix schedule algorithm '") +
                        Name + "'");
}

} // namespace

const Layout2D &MatrixTarget::value(const char *Where) const {
  if (!Value)
    directiveError(Where, *Problem);
  return *Value;
}

MatrixTarget matrixTarget(const Target &Rows, const Target &Cols, int64_t M,
                          int64_t N, GridOrder Order) {
  if (Rows.problem())
    return MatrixTarget::invalid("rows: " + *Rows.problem());
  if (Cols.problem())
    return MatrixTarget::invalid("columns: " + *Cols.problem());
  try {
    // Copies: valueOr may return its argument, a temporary.
    const Distribution R = Rows.valueOr(Distribution::block(1)),
                       C = Cols.valueOr(Distribution::block(1));
    // The rank-2 array's checks first: their errors name the dimension,
    // its extent and its format.
    const ArrayLayout Checked({M, N}, {DimFormat::of(R), DimFormat::of(C)},
                              {R.procs(), C.procs()}, Order);
    (void)Checked;
    return Layout2D(Layout(R, M), Layout(C, N), Order);
  } catch (const InvalidArgument &E) {
    return MatrixTarget::invalid(E.what());
  }
}

Layout2D matrix(const Distribution &Rows, const Distribution &Cols, int64_t M,
                int64_t N, GridOrder Order, const char *Where) {
  return matrixTarget(Rows, Cols, M, N, Order).value(Where);
}

Layout2D distributedMatrix(const MatrixTarget &T, MPI_Comm Comm,
                           const char *Where, Verification V) {
  const std::optional<Layout2D> &L = T.layout();
  detail::checkAtDistribute(
      T.problem(), Comm, Where, directiveOptions(V).Verify, [&] {
        detail::agreeOnMatrixLayout(T.problem(), L ? &*L : nullptr, Comm);
      });
  return *L;
}

const Plan &translatedMatrixPlan(const TranslatedMatrixSchedule &S,
                                 std::size_t ElementBytes, MPI_Comm Comm,
                                 Verification V) {
  try {
    // The table is the schedule; its algorithm's name only informs.
    return matrixPlan(std::nullopt, S.From.value(), S.To.value(),
                      parseAlgorithm2D(S.Algorithm)
                          .value_or(Algorithm2D{Algorithm::Auto, false}),
                      ElementBytes, Comm, directiveOptions(V), &S);
  } catch (const InvalidArgument &E) {
    directiveError(S.Where, E.what());
  }
}

const Plan &dynamicMatrixPlan(const Layout2D &From, const MatrixTarget &To,
                              std::size_t ElementBytes, MPI_Comm Comm,
                              const char *Algorithm, const char *Where,
                              Verification V) {
  try {
    // overlap and overlap-split order the messages of auto's grid in the
    // Overlapped mode.
    PlanOptions Options = directiveOptions(V);
    const Algorithm2D A = overlapOptions(Algorithm, Options)
                              ? Algorithm2D{redist::Algorithm::Auto, false}
                              : algorithm2D(Algorithm);
    return matrixPlan(To.problem(), From, To.layout().value_or(From), A,
                      ElementBytes, Comm, Options, nullptr);
  } catch (const InvalidArgument &E) {
    directiveError(Where, E.what());
  }
}

} // namespace directive
} // namespace redist
