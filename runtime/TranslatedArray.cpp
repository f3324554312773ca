//===- TranslatedArray.cpp - What array directives' code calls ------------===//
//
// An array directive's plan is an ArrayPlan's (ArrayPlan.cpp), cached by its
// layouts' and region's spellings. A static one follows its table, checked
// here against the grid the runtime computes. Before
// a plan is looked up or built the ranks agree: any rank's invalid value
// throws on every rank, and with Verify the parameters are compared on every
// call, as for 1-D directives.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/TranslatedArray.h"

#include "Agreement.h"
#include "PlanImpl.h"

#include <utility>

namespace redist {

Schedule detail::givenArraySchedule(const GivenTable &T, const CommGrid &G) {
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
    const TranslatedArrayMessage &M = T.Messages[I];
    const std::string Name =
        "message " + std::to_string(M.Src) + " -> " + std::to_string(M.Dst);
    if (M.Step < 0 || M.Step >= T.Steps)
      Fail(Name + " is in step " + std::to_string(M.Step) + " of " +
           std::to_string(T.Steps));
    const std::optional<int64_t> Id = findGridId(G, M.Src, M.Dst);
    if (!Id)
      Fail(Name + " is not one of the array's messages");
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

/// The algorithm named Name (redistc checked it against the same library).
ArrayAlgorithm arrayAlgorithm(const char *Name) {
  if (std::optional<ArrayAlgorithm> A = parseArrayAlgorithm(Name))
    return *A;
  throw InvalidArgument(std::string("unknown schedule algorithm '") + Name +
                        "'");
}

/// The cached plan of a redistribute or assign, dynamic (Given null) or
/// following Given's table.
const Plan &arrayPlan(const ArrayLayout &From, const ArrayTarget &To,
                      const AssignRegion &Region, std::size_t ElementBytes,
                      MPI_Comm Comm, ArrayAlgorithm A, PlanOptions Options,
                      const TranslatedArraySchedule *Given) {
  std::optional<std::string> Problem = To.problem();
  const ArrayLayout &Target = To.layout() ? *To.layout() : From;
  ArrayRegion R;
  if (!Problem &&
      !isWholeAssign(Region.Permutation, Region.Source, Region.Target)) {
    try {
      R = sectionRegion(From.extents(), Target.extents(), Region.Permutation,
                        Region.Source, Region.Target);
    } catch (const InvalidArgument &E) {
      Problem = E.what();
    }
  }
  const std::string FromKey = From.str(), ToKey = Target.str() + regionKey(R);
  if (!Problem && Given && (FromKey != Given->From || ToKey != Given->To))
    Problem = "the translated array table was made for " +
              std::string(Given->From) + " -> " + Given->To + ", not for " +
              FromKey + " -> " + ToKey + " (translate the file again)";
  detail::ArrayPlanKey Key{FromKey, ToKey, ElementBytes, arrayAlgorithmName(A),
                           Given,   Comm,  Options};
  const Plan *Found = Problem ? nullptr : detail::findArrayPlan(Key);
  if (Found && !Options.Verify)
    return *Found;
  if (Found) {
    // With Verify on every call: ranks given different values may hit the
    // cache on some ranks and build on others. Compare the parameters a
    // build compares, the region resolved as there: an unresolved one
    // would differ first and hide the value that really does.
    detail::ArrayProblem Problem({From, {}, {}}, {Target, {}, {}}, R, A);
    Problem.Region = resolveRegion(From, Target, R);
    const std::vector<detail::Parameter> Params =
        detail::arrayParameters(Problem, ElementBytes, Options);
    detail::agree(std::nullopt, &Params, Comm);
    return *Found;
  }
  // A problem on any rank, or none: buildArrayPlan agrees and throws alike
  // on every rank.
  std::optional<detail::GivenTable> Table;
  if (Given)
    Table = detail::GivenTable{Given->Algorithm, Given->Steps,
                               Given->MessageCount, Given->Messages};
  std::unique_ptr<Plan> Built = detail::buildArrayPlan(
      {From, {}, {}}, {Target, {}, {}}, ElementBytes, Comm, R, Options, A,
      Problem, Table ? &*Table : nullptr);
  return detail::keepArrayPlan(std::move(Key), std::move(Built));
}

} // namespace

FormatArg collapsedFormat() { return FormatArg(); }

FormatArg format(DistKind Kind, int64_t Param) {
  FormatArg F;
  F.Distributed = true;
  F.Kind = Kind;
  F.Param = Param;
  return F;
}

const ArrayLayout &ArrayTarget::value(const char *Where) const {
  if (!Value)
    directiveError(Where, *Problem);
  return *Value;
}

ArrayTarget arrayTarget(const std::vector<int64_t> &Extents,
                        const std::vector<FormatArg> &Formats,
                        const std::vector<int64_t> &Grid, GridOrder Order,
                        StorageOrder Storage) {
  try {
    std::vector<DimFormat> Dims;
    for (size_t D = 0; D < Formats.size(); ++D) {
      const FormatArg &F = Formats[D];
      try {
        if (!F.Distributed)
          Dims.push_back(DimFormat::collapsed());
        else if (F.Kind == DistKind::GenBlock)
          Dims.push_back(DimFormat::genBlock(F.Sizes));
        else if (F.Kind == DistKind::Block)
          Dims.push_back(DimFormat::block());
        else if (F.Kind == DistKind::BlockSized)
          Dims.push_back(DimFormat::block(F.Param));
        else
          Dims.push_back(DimFormat::cyclic(F.Param));
      } catch (const InvalidArgument &E) {
        throw InvalidArgument("dimension " + std::to_string(D) + ": " +
                              E.what());
      }
    }
    return ArrayLayout(Extents, std::move(Dims), Grid, Order, {},
                       ArrayStorage{Storage, {}});
  } catch (const InvalidArgument &E) {
    return ArrayTarget::invalid(E.what());
  }
}

ArrayLayout arrayLayout(const ArrayTarget &T, const char *Where) {
  return T.value(Where);
}

ArrayLayout distributedArray(const ArrayTarget &T, MPI_Comm Comm,
                             const char *Where, Verification V) {
  const std::optional<ArrayLayout> &L = T.layout();
  detail::checkAtDistribute(
      T.problem(), Comm, Where, directiveOptions(V).Verify, [&] {
        // The layout compared across the ranks, as a plan's source is.
        std::vector<detail::Parameter> Params;
        if (L) {
          const ArraySide Side{*L, {}, {}};
          Params = detail::arrayParameters(
              detail::ArrayProblem(Side, Side, ArrayRegion(),
                                   ArrayAlgorithm{Algorithm::Auto, false}),
              1, PlanOptions());
        }
        detail::agree(T.problem(), L ? &Params : nullptr, Comm);
      });
  return *L;
}

SectionRange whole() { return SectionRange(); }

SectionRange range(int64_t Begin, int64_t End) {
  return SectionRange{Begin, End, false};
}

const Plan &dynamicArrayPlan(const ArrayLayout &From, const ArrayTarget &To,
                             const AssignRegion &Region,
                             std::size_t ElementBytes, MPI_Comm Comm,
                             const char *Algorithm, const char *Where,
                             Verification V) {
  try {
    // overlap and overlap-split order auto's grid in the Overlapped mode.
    PlanOptions Options = directiveOptions(V);
    const ArrayAlgorithm A =
        overlapOptions(Algorithm, Options)
            ? ArrayAlgorithm{redist::Algorithm::Auto, false}
            : arrayAlgorithm(Algorithm);
    return arrayPlan(From, To, Region, ElementBytes, Comm, A, Options, nullptr);
  } catch (const InvalidArgument &E) {
    directiveError(Where, E.what());
  }
}

const Plan &staticArrayPlan(const TranslatedArraySchedule &T,
                            const ArrayLayout &From, const ArrayTarget &To,
                            const AssignRegion &Region,
                            std::size_t ElementBytes, MPI_Comm Comm,
                            Verification V) {
  try {
    // The table is the schedule; its algorithm's name only informs.
    return arrayPlan(From, To, Region, ElementBytes, Comm,
                     parseArrayAlgorithm(T.Algorithm)
                         .value_or(ArrayAlgorithm{Algorithm::Auto, false}),
                     directiveOptions(V), &T);
  } catch (const InvalidArgument &E) {
    directiveError(T.Where, E.what());
  }
}

} // namespace directive

} // namespace redist
