//===- redist/runtime/Translated.h - The API redistc's code calls ---------===//
//
// The entry points that the code redistc generates calls, one per directive.
// A hand-written program can call them too.
//
// A static directive (all parameters constant) carries what redistc decided
// at translation time as constant tables, a TranslatedSchedule: the schedule's
// steps and each message's local runs, written as run series. On its first
// call on a communicator, translatedPlan() builds a Plan that follows those
// tables instead of computing them, and keeps it. The generated code then
// runs the schedule's steps as calls of the runtime's one executor
// (AssignSteps and RedistributeSteps below, over Plan::executeStep), or for
// an overlapped schedule its events in one call (the Overlapped mode). A
// dynamic directive calls cachedPlan() (redist/runtime/Redistribute.h) with
// the same helpers, and moves all steps in one call.
//
// Every directive's plan starts from directiveOptions(), which a program may
// change before its first directive.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_TRANSLATED_H
#define REDIST_RUNTIME_TRANSLATED_H

#include "redist/RunSeries.h"
#include "redist/runtime/Redistribute.h"
#include "redist/runtime/Ring.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace redist {

/// A distribution as constants: Kind and Procs; Param, the block size of
/// BlockSized and Cyclic; Sizes, Procs entries for GenBlock.
struct DistributionConstant {
  DistKind Kind;
  int64_t Procs;
  int64_t Param;
  const int64_t *Sizes;
  Distribution value() const;
};

/// One message of a translated schedule: sent from Src to Dst in Step.
/// Its runs, in message order, are the series [First, First + SliceSeries)
/// repeated Repeat times SrcStride and DstStride elements apart (one whole
/// slice each time), then the series [First + SliceSeries, First +
/// SliceSeries + TailSeries) of the rest.
struct TranslatedMessage {
  int64_t Step, Src, Dst, Elements;
  int64_t First, SliceSeries, Repeat, SrcStride, DstStride, TailSeries;
};

/// One event of a translated overlapped schedule: Len elements of
/// Messages[Msg], sent over [Start, Start + Len) (redist/OverlapSchedule.h).
/// A message's events carry its elements in the order of their starts.
struct TranslatedEvent {
  int64_t Msg, Start, Len;
};

/// What redistc decided for one static directive. Messages are sorted by
/// step; Series holds the runs of all of them. An overlapped schedule
/// (schedule(overlap), schedule(overlap_split)) has one step holding every
/// message, and its Events instead; a step schedule has no events.
struct TranslatedSchedule {
  const char *Where;     ///< "file.cpp:12", named by every error
  const char *Algorithm; ///< the algorithm that made the schedule
  DistributionConstant From, To;
  int64_t N;
  int64_t Steps;
  int64_t MessageCount;
  const TranslatedMessage *Messages;
  const RunSeries *Series;
  int64_t EventCount;
  const TranslatedEvent *Events; ///< sorted by start; null without events
};

/// The options every directive's plan starts from: PlanOptions' defaults
/// until the program changes them. A dynamic directive's schedule clause
/// then sets PlanOptions::Schedule, or for overlap and overlap_split the
/// Overlapped mode and its order; a static one follows its tables (and runs
/// tables with events in the Overlapped mode).
PlanOptions &directiveOptions();

/// A directive's verify clause (or redistc's --verify for its file): whether
/// its plan checks that every rank passed the same parameters
/// (PlanOptions::Verify). Default leaves it to directiveOptions().
enum class Verification { Default, On, Off };

/// directiveOptions() with V applied.
PlanOptions directiveOptions(Verification V);

/// For a dynamic directive's schedule(ALG) named Algorithm: overlap and
/// overlap-split set Options to the Overlapped mode with that order and
/// return true; any other name leaves Options alone and returns false.
bool overlapOptions(const char *Algorithm, PlanOptions &Options);

/// The plan that follows S's tables on Comm, for elements of ElementBytes,
/// with directiveOptions(V): built on the first call (collective) and kept
/// until Comm is freed, like cachedPlan's. S is the key, by address, and the
/// plan reads it: S and its tables must outlive the plan (generated code
/// holds them in static storage). Throws InvalidArgument, prefixed with
/// S.Where, on every rank when a parameter is invalid or the tables do not
/// describe S's distributions, or when Problem is set on any rank (the
/// caller's values do not fit S).
const Plan &translatedPlan(const TranslatedSchedule &S,
                           std::size_t ElementBytes, MPI_Comm Comm,
                           Verification V = Verification::Default,
                           const std::optional<std::string> &Problem = {});

/// Throws InvalidArgument "Where: What".
[[noreturn]] void directiveError(const char *Where, const std::string &What);

/// The checks and moves a directive makes on the user's variables: a
/// std::vector (a target one is resized), a pointer (trusted) or an array.
namespace directive {

/// The algorithm named Name (redistc checked it against the same library).
Algorithm algorithm(const char *Name);
/// A distribution made from a directive's run-time values, or what is wrong
/// with them. A redistribute or assign directive's target is one: its plan
/// (dynamicPlan) raises the problem on every rank at once, so that a value
/// wrong on some ranks only cannot leave the others waiting.
class Target {
public:
  Target(Distribution D) : Value(std::move(D)) {}
  static Target invalid(std::string Problem) {
    Target T;
    T.Problem = std::move(Problem);
    return T;
  }
  /// The distribution; without one, throws the problem, naming Where.
  const Distribution &value(const char *Where) const;
  const Distribution &valueOr(const Distribution &Other) const {
    return Value ? *Value : Other;
  }
  const std::optional<std::string> &problem() const { return Problem; }

private:
  Target() = default;
  std::optional<Distribution> Value;
  std::optional<std::string> Problem;
};

/// The block-cyclic distribution of Kind (not GenBlock) over Procs, with
/// block size Param where Kind has one.
Target target(DistKind Kind, int64_t Procs, int64_t Param);
/// GEN_BLOCK over Procs processes from Sizes.
Target genBlockTarget(std::vector<int64_t> Sizes, int64_t Procs);
/// GEN_BLOCK over Procs processes from any sequence of sizes.
template <typename Sizes> Target genBlockTarget(const Sizes &S, int64_t Procs) {
  std::vector<int64_t> V;
  for (const auto &Size : S)
    V.push_back(static_cast<int64_t>(Size));
  return genBlockTarget(std::move(V), Procs);
}
/// Why an assignment between these extents cannot be, if it cannot.
std::optional<std::string> extentProblem(int64_t SrcExtent, int64_t DstExtent);
/// An assignment's target distribution To, unless the extents differ.
Target assignTarget(const Distribution &To, int64_t SrcExtent,
                    int64_t DstExtent);
/// The distribution T that a distribute directive in a function body
/// declares for an array of Extent elements on Comm. With the Verify option
/// (directiveOptions(V)), collective over Comm (one MPI_Allreduce): a
/// problem on any rank (T's, or T not fitting Extent) throws
/// InvalidArgument on every rank, naming Where, those ranks and the value,
/// and so do ranks given different values. Without it, nothing is compared and
/// a problem on this rank aborts the job with the message (the other ranks
/// cannot be told). On ranks where Comm is MPI_COMM_NULL, checks this rank's
/// values only.
Distribution distributed(const Target &T, int64_t Extent, MPI_Comm Comm,
                         const char *Where,
                         Verification V = Verification::Default);
/// target() and genBlockTarget() for a distribute directive at namespace
/// scope, whose descriptor is made on first use: their errors are thrown at
/// once, on this rank, naming Where.
Distribution distribution(DistKind Kind, int64_t Procs, int64_t Param,
                          const char *Where);
template <typename Sizes>
Distribution genBlock(const Sizes &S, int64_t Procs, const char *Where) {
  return genBlockTarget(S, Procs).value(Where);
}
void checkSameComm(MPI_Comm A, MPI_Comm B, const char *Where);

/// "1 element", "3 elements".
std::string elements(int64_t N);

/// What is wrong with this rank's variable for a part of N elements, or "".
template <typename T, typename A>
std::string sourceProblem(const std::vector<T, A> &V, int64_t N) {
  if (static_cast<int64_t>(V.size()) == N)
    return "";
  return "the source vector holds " + elements(static_cast<int64_t>(V.size())) +
         ", its distribution gives this rank " + std::to_string(N);
}
/// A null pointer where the part is not empty, named by Role.
std::string nullProblem(const char *Role, const void *P, int64_t N);
template <typename T> std::string sourceProblem(T *const &P, int64_t N) {
  return nullProblem("source", P, N);
}
template <typename T, std::size_t K>
std::string sourceProblem(T (&)[K], int64_t N) {
  if (N <= static_cast<int64_t>(K))
    return "";
  return "the source array holds " + elements(static_cast<int64_t>(K)) +
         ", its distribution gives this rank " + std::to_string(N);
}
template <typename T, typename A>
std::string targetProblem(const std::vector<T, A> &, int64_t) {
  return "";
}
template <typename T> std::string targetProblem(T *const &P, int64_t N) {
  return nullProblem("target", P, N);
}
template <typename T, std::size_t K>
std::string targetProblem(T (&)[K], int64_t N) {
  if (N <= static_cast<int64_t>(K))
    return "";
  return "the target array holds " + elements(static_cast<int64_t>(K)) +
         ", its distribution gives this rank " + std::to_string(N);
}

/// Collective over Comm: when any rank's Problem is not empty, every rank
/// throws, naming the ranks at fault and the first one's Problem, so that
/// none is left waiting in a step.
void agreeOnSizes(const std::string &Problem, MPI_Comm Comm, const char *Where);

template <typename T, typename A>
const T *sourceData(const std::vector<T, A> &V) {
  return V.data();
}
template <typename T> const T *sourceData(T *const &P) { return P; }
template <typename T, std::size_t K> const T *sourceData(T (&A)[K]) {
  return A;
}
template <typename T, typename A>
T *targetData(std::vector<T, A> &V, int64_t N) {
  V.resize(static_cast<std::size_t>(N));
  return V.data();
}
template <typename T> T *targetData(T *const &P, int64_t) { return P; }
template <typename T, std::size_t K> T *targetData(T (&A)[K], int64_t) {
  return A;
}

template <typename S>
using ElementOf = std::remove_const_t<
    std::remove_pointer_t<decltype(sourceData(std::declval<const S &>()))>>;

/// An assignment Dst = Src with Plan, made step by step: constructing it
/// checks both variables against Plan's local sizes on every rank (and
/// resizes a target vector); step(K) then runs step K (Plan::executeStep).
/// redistc's static code calls step() once per step of its tables.
template <typename D, typename S> class AssignSteps {
public:
  AssignSteps(D &Dst, const S &Src, const Plan &Pl, const char *Where)
      : Pl(Pl) {
    static_assert(std::is_trivially_copyable<ElementOf<S>>::value,
                  "redist moves trivially copyable elements only");
    std::string Problem = sourceProblem(Src, Pl.sourceLocalSize());
    if (Problem.empty())
      Problem = targetProblem(Dst, Pl.targetLocalSize());
    agreeOnSizes(Problem, Pl.communicator(), Where);
    In = sourceData(Src);
    Out = targetData(Dst, Pl.targetLocalSize());
  }
  void step(int64_t K) const { Pl.executeStep(In, Out, K); }
  /// All steps at once.
  void all() const { Pl.execute(In, Out); }

private:
  const Plan &Pl;
  const ElementOf<S> *In = nullptr;
  ElementOf<S> *Out = nullptr;
};

/// A std::vector redistributed in place, step by step: constructing it
/// checks the vector's size on every rank; step(K) runs step K into a new
/// vector, which finish() swaps in.
template <typename V> class RedistributeSteps {
public:
  RedistributeSteps(V &Var, const Plan &Pl, const char *Where)
      : Var(Var), Pl(Pl) {
    agreeOnSizes(sourceProblem(Var, Pl.sourceLocalSize()), Pl.communicator(),
                 Where);
    Out.resize(static_cast<typename V::size_type>(Pl.targetLocalSize()));
  }
  void step(int64_t K) { Pl.executeStep(Var.data(), Out.data(), K); }
  /// All steps at once.
  void all() { Pl.execute(Var.data(), Out.data()); }
  void finish() { Var.swap(Out); }

private:
  V &Var;
  const Plan &Pl;
  V Out;
};

/// Src's elements into Dst, in one call.
template <typename D, typename S>
void assign(D &Dst, const S &Src, const Plan &Pl, const char *Where) {
  AssignSteps<D, S>(Dst, Src, Pl, Where).all();
}

/// Redistributes a std::vector in place, in one call.
template <typename V>
void redistribute(V &Var, const Plan &Pl, const char *Where) {
  RedistributeSteps<V> Steps(Var, Pl, Where);
  Steps.all();
  Steps.finish();
}

/// The plan of a dynamic directive: the runtime's cached plan with
/// directiveOptions(V) and the directive's algorithm, searched with
/// OverlapEffort where that is overlap or overlap-split
/// (schedule(overlap, effort(N))). Its errors, To's problem among them, are
/// raised on every rank and name Where.
const Plan &dynamicPlan(const Distribution &From, const Target &To, int64_t N,
                        std::size_t ElementBytes, MPI_Comm Comm,
                        const char *Algorithm, const char *Where,
                        Verification V = Verification::Default,
                        int64_t OverlapEffort = 1);
template <typename S>
const Plan &dynamicPlan(const Distribution &From, const Target &To, int64_t N,
                        MPI_Comm Comm, const char *Algorithm, const char *Where,
                        Verification V = Verification::Default,
                        int64_t OverlapEffort = 1) {
  return dynamicPlan(From, To, N, sizeof(ElementOf<S>), Comm, Algorithm, Where,
                     V, OverlapEffort);
}

/// The plan of a static directive, for the element type of S. Problem, set
/// when the directive's run-time values do not fit its tables (an assign's
/// target extent), is raised on every rank as the plan's own errors are.
template <typename S>
const Plan &staticPlan(const TranslatedSchedule &T, MPI_Comm Comm,
                       const std::optional<std::string> &Problem,
                       Verification V = Verification::Default) {
  return translatedPlan(T, sizeof(ElementOf<S>), Comm, V, Problem);
}
template <typename S>
const Plan &staticPlan(const TranslatedSchedule &T, MPI_Comm Comm,
                       Verification V = Verification::Default) {
  return staticPlan<S>(T, Comm, std::nullopt, V);
}

} // namespace directive
} // namespace redist

#endif // REDIST_RUNTIME_TRANSLATED_H
