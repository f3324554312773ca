//===- Translated.cpp - What redistc's generated code calls ---------------===//
//
// The tables of a static directive are checked once, when its plan is built,
// on every rank alike and before any communication: a translation made
// against another version of the schedule library, or tables edited by hand,
// raise InvalidArgument naming the directive instead of moving data wrongly.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"
#include "redist/OverlapSchedulers.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace redist {

namespace {

/// The distribution of Kind: Sizes (Procs of them) for GenBlock, Param the
/// block size where Kind has one.
Distribution makeDistribution(DistKind Kind, int64_t Procs, int64_t Param,
                              const int64_t *Sizes) {
  switch (Kind) {
  case DistKind::Block:
    return Distribution::block(Procs);
  case DistKind::BlockSized:
    return Distribution::block(Procs, Param);
  case DistKind::Cyclic:
    return Distribution::cyclic(Procs, Param);
  case DistKind::GenBlock:
    if (!Sizes || Procs < 0)
      break;
    return Distribution::genBlock(std::vector<int64_t>(Sizes, Sizes + Procs));
  }
  throw InvalidArgument("not a distribution: kind " +
                        std::to_string(static_cast<int>(Kind)));
}

} // namespace

Distribution DistributionConstant::value() const {
  return makeDistribution(Kind, Procs, Param, Sizes);
}

PlanOptions &directiveOptions() {
  static PlanOptions Options;
  return Options;
}

PlanOptions directiveOptions(Verification V) {
  PlanOptions Options = directiveOptions();
  if (V != Verification::Default)
    Options.Verify = V == Verification::On;
  return Options;
}

bool overlapOptions(const char *Algorithm, PlanOptions &Options) {
  const std::optional<OverlapAlgorithm> O = parseOverlapAlgorithm(Algorithm);
  if (!O)
    return false;
  Options.Mode = ExecMode::Overlapped;
  Options.Overlap = *O == OverlapAlgorithm::Overlap
                        ? OverlapOrder::Overlap
                        : OverlapOrder::OverlapSplit;
  Options.Schedule = redist::Algorithm::Auto;
  return true;
}

void directiveError(const char *Where, const std::string &What) {
  throw InvalidArgument(std::string(Where) + ": " + What);
}

MessagePattern detail::patternOf(const TranslatedMessage &M,
                                 const RunSeries *Series) {
  MessagePattern P;
  P.Src = M.Src;
  P.Dst = M.Dst;
  P.Repeat = M.Repeat;
  P.SrcStride = M.SrcStride;
  P.DstStride = M.DstStride;
  expandRuns(Series + M.First, static_cast<std::size_t>(M.SliceSeries),
             P.SliceRuns);
  expandRuns(Series + M.First + M.SliceSeries,
             static_cast<std::size_t>(M.TailSeries), P.TailRuns);
  return P;
}

namespace {

[[noreturn]] void failTables(const std::string &What) {
  throw InvalidArgument("the translated tables do not match the runtime's "
                        "schedule library (translate the file again): " +
                        What);
}

} // namespace

std::string detail::differingRuns(const MessagePattern &Given,
                                  const MessagePattern &Lib, const Layout &From,
                                  const Layout &To) {
  const bool Same =
      Given.Repeat == Lib.Repeat && Given.SliceRuns == Lib.SliceRuns &&
      Given.TailRuns == Lib.TailRuns &&
      (Given.Repeat == 0 ||
       (Given.SrcStride == Lib.SrcStride && Given.DstStride == Lib.DstStride));
  if (Same)
    return "";
  return "the runs of message " + std::to_string(Lib.Src) + " -> " +
         std::to_string(Lib.Dst) + " are not those of " +
         From.distribution().str() + " -> " + To.distribution().str();
}

void Plan::Impl::agreeOnGiven(const std::string &Problem) const {
  try {
    detail::agreeOnProblem(Problem, Comm);
  } catch (const InvalidArgument &E) {
    failTables(E.what());
  }
}

void Plan::Impl::checkGiven() const {
  const TranslatedSchedule &G = *Given;
  auto Fail = failTables;
  if (G.Steps < 0 || G.MessageCount < 0)
    Fail("negative step or message count");
  const int64_t P = Source.procs(), Q = Target.procs();
  std::vector<int64_t> Sent(static_cast<std::size_t>(P)),
      Received(static_cast<std::size_t>(Q));
  // (step, process) of every send and every receive, to find doubles.
  std::vector<std::pair<int64_t, int64_t>> Senders, Receivers;
  for (int64_t I = 0; I < G.MessageCount; ++I) {
    const TranslatedMessage &M = G.Messages[I];
    const std::string Name =
        "message " + std::to_string(M.Src) + " -> " + std::to_string(M.Dst);
    if (M.Src < 0 || M.Src >= P || M.Dst < 0 || M.Dst >= Q)
      Fail(Name + " names a process outside " + Source.distribution().str() +
           " -> " + Target.distribution().str());
    if (M.Step < 0 || M.Step >= G.Steps)
      Fail(Name + " is in step " + std::to_string(M.Step) + " of " +
           std::to_string(G.Steps));
    if (M.First < 0 || M.SliceSeries < 0 || M.TailSeries < 0 || M.Repeat < 0)
      Fail(Name + " has negative run indices");
    if (detail::patternOf(M, G.Series).length() != M.Elements)
      Fail(Name + "'s runs do not add up to its " + std::to_string(M.Elements) +
           " elements");
    Sent[static_cast<std::size_t>(M.Src)] += M.Elements;
    Received[static_cast<std::size_t>(M.Dst)] += M.Elements;
    Senders.emplace_back(M.Step, M.Src);
    Receivers.emplace_back(M.Step, M.Dst);
  }
  for (int64_t Proc = 0; Proc < std::max(P, Q); ++Proc) {
    if (Proc < P &&
        Sent[static_cast<std::size_t>(Proc)] != Source.localSize(Proc))
      Fail("process " + std::to_string(Proc) + " sends " +
           std::to_string(Sent[static_cast<std::size_t>(Proc)]) +
           " elements, but holds " + std::to_string(Source.localSize(Proc)));
    if (Proc < Q &&
        Received[static_cast<std::size_t>(Proc)] != Target.localSize(Proc))
      Fail("process " + std::to_string(Proc) + " receives " +
           std::to_string(Received[static_cast<std::size_t>(Proc)]) +
           " elements, but is to hold " +
           std::to_string(Target.localSize(Proc)));
  }
  if (G.Events) {
    // The events order the messages instead of the steps.
    givenEvents();
    return;
  }
  for (auto *List : {&Senders, &Receivers}) {
    std::sort(List->begin(), List->end());
    auto Twice = std::adjacent_find(List->begin(), List->end());
    if (Twice != List->end())
      Fail("process " + std::to_string(Twice->second) + " " +
           (List == &Senders ? "sends" : "receives") + " twice in step " +
           std::to_string(Twice->first));
  }
}

OverlapSchedule Plan::Impl::givenEvents() const {
  const TranslatedSchedule &T = *Given;
  const CommGrid &G = grid();
  OverlapSchedule S;
  S.Algorithm = T.Algorithm;
  for (int64_t I = 0; I < T.EventCount; ++I) {
    const TranslatedEvent &E = T.Events[I];
    if (E.Msg < 0 || E.Msg >= T.MessageCount)
      failTables("event " + std::to_string(I) + " names message " +
                 std::to_string(E.Msg) + " of " +
                 std::to_string(T.MessageCount));
    const TranslatedMessage &M = T.Messages[E.Msg];
    const std::optional<int64_t> Id = detail::findGridId(G, M.Src, M.Dst);
    if (!Id)
      failTables("message " + std::to_string(M.Src) + " -> " +
                 std::to_string(M.Dst) + " is not one of " +
                 Source.distribution().str() + " -> " +
                 Target.distribution().str());
    S.Events.push_back({*Id, E.Start, E.Len});
  }
  if (std::optional<std::string> Why = validateOverlapSchedule(G, S))
    failTables("the events are not a valid overlapped schedule: " + *Why);
  // Both ranks of a split message take its parts in the order of their
  // starts.
  std::stable_sort(S.Events.begin(), S.Events.end(),
                   [](const OverlapEvent &A, const OverlapEvent &B) {
                     return A.Start < B.Start;
                   });
  return S;
}

namespace directive {

Algorithm algorithm(const char *Name) {
  if (std::optional<Algorithm> A = parseAlgorithm(Name))
    return *A;
  throw InvalidArgument(std::string("unknown schedule algorithm '") + Name +
                        "'");
}

const Distribution &Target::value(const char *Where) const {
  if (!Value)
    directiveError(Where, *Problem);
  return *Value;
}

Target target(DistKind Kind, int64_t Procs, int64_t Param) {
  try {
    return makeDistribution(Kind, Procs, Param, nullptr);
  } catch (const InvalidArgument &E) {
    return Target::invalid(E.what());
  }
}

Target genBlockTarget(std::vector<int64_t> Sizes, int64_t Procs) {
  if (static_cast<int64_t>(Sizes.size()) != Procs)
    return Target::invalid("gen_block has " + std::to_string(Sizes.size()) +
                           " entries but the arrangement has " +
                           std::to_string(Procs) + " processes");
  try {
    return Distribution::genBlock(std::move(Sizes));
  } catch (const InvalidArgument &E) {
    return Target::invalid(E.what());
  }
}

std::optional<std::string> extentProblem(int64_t SrcExtent, int64_t DstExtent) {
  if (SrcExtent == DstExtent)
    return std::nullopt;
  return "assign between arrays of different extents: " +
         std::to_string(SrcExtent) + " and " + std::to_string(DstExtent);
}

Target assignTarget(const Distribution &To, int64_t SrcExtent,
                    int64_t DstExtent) {
  if (auto Problem = extentProblem(SrcExtent, DstExtent))
    return Target::invalid(*Problem);
  return To;
}

Distribution distribution(DistKind Kind, int64_t Procs, int64_t Param,
                          const char *Where) {
  return target(Kind, Procs, Param).value(Where);
}

std::string elements(int64_t N) {
  return std::to_string(N) + (N == 1 ? " element" : " elements");
}

std::string nullProblem(const char *Role, const void *P, int64_t N) {
  if (P || N == 0)
    return "";
  return std::string("the ") + Role +
         " pointer is null, its distribution gives this rank " +
         std::to_string(N);
}

Distribution distributed(const Target &T, int64_t Extent, MPI_Comm Comm,
                         const char *Where, Verification V) {
  std::optional<std::string> Problem = T.problem();
  // Checked here rather than at the first plan, so that the error names
  // the directive whose values are wrong.
  const Distribution D = T.valueOr(Distribution::block(1));
  if (!Problem) {
    try {
      Layout L(D, Extent);
      (void)L;
    } catch (const InvalidArgument &E) {
      Problem = "distribution " + D.str() + ": " + E.what();
    }
  }
  detail::checkAtDistribute(
      Problem, Comm, Where, directiveOptions(V).Verify,
      [&] { detail::agreeOnDistribution(Problem, D, Extent, Comm); });
  return D;
}

void checkSameComm(MPI_Comm A, MPI_Comm B, const char *Where) {
  if (A != B)
    directiveError(Where, "the two arrangements use different communicators");
}

void agreeOnSizes(const std::string &Problem, MPI_Comm Comm,
                  const char *Where) {
  try {
    detail::agreeOnProblem(Problem, Comm);
  } catch (const InvalidArgument &E) {
    directiveError(Where, E.what());
  }
}

const Plan &dynamicPlan(const Distribution &From, const Target &To, int64_t N,
                        std::size_t ElementBytes, MPI_Comm Comm,
                        const char *Algorithm, const char *Where,
                        Verification V, int64_t OverlapEffort) {
  try {
    PlanOptions Options = directiveOptions(V);
    Options.OverlapEffort = OverlapEffort;
    if (!overlapOptions(Algorithm, Options))
      Options.Schedule = algorithm(Algorithm);
    // A target without a value stands in From: its problem wins anyway.
    return detail::cachedPlan(To.problem(), From, To.valueOr(From), N,
                              ElementBytes, Comm, Options, Where);
  } catch (const InvalidArgument &E) {
    directiveError(Where, E.what());
  }
}

} // namespace directive
namespace detail {

void checkAtDistribute(const std::optional<std::string> &Problem, MPI_Comm Comm,
                       const char *Where, bool Verify,
                       const std::function<void()> &Agree) {
  // Comm may be null on ranks outside a sub-communicator's group: they
  // take part in nothing, so they only check their own values.
  if (Comm != MPI_COMM_NULL) {
    if (Verify) {
      try {
        Agree();
      } catch (const InvalidArgument &E) {
        directiveError(Where, E.what());
      }
    } else if (Problem) {
      // No collective follows at once: a rank that threw alone would leave
      // the others waiting in the next directive.
      abortAlone(Where, *Problem, Comm);
    }
  }
  if (Problem)
    directiveError(Where, *Problem);
}

} // namespace detail
} // namespace redist
