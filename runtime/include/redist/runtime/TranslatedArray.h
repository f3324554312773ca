//===- redist/runtime/TranslatedArray.h - Array directives' runtime -------===//
//
// What the code redistc generates for arrays of rank 2 or more calls
// (distribute u[NX][NY][NZ](block, block, *) onto G, or a matrix's
// distribute A[M][N](F0, F1) onto G, and the redistribute and assign
// directives of such an array): the layout a directive's run-time
// values make, or what is wrong with them, and the cached ArrayPlan of a
// redistribute or an assign (with a permutation or sections; a 1-D
// array's side is redist::ArrayLayout::rankOne of its distribution). inquire
// gives a redist::DistributedArrayInfo (redist/runtime/LocalPart.h). Every
// error names the directive's place and is raised on every rank before any data
// moves.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_TRANSLATEDARRAY_H
#define REDIST_RUNTIME_TRANSLATEDARRAY_H

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"
#include "redist/ArraySections.h"
#include "redist/runtime/Translated.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist {

/// One message of a translated array schedule: from process Src to process
/// Dst (process ids of the layouts' arrangements, in their orders) in Step.
struct TranslatedArrayMessage {
  int64_t Step, Src, Dst, Elements;
};

/// What redistc decided for one static array directive: the schedule's
/// messages between process ids, sorted by step, for the layouts and the
/// region redistc knew: From is
/// the source's ArrayLayout::str(), To the target's followed by
/// redist::regionKey of the region. The runtime compares both with its own
/// before it follows the table, and checks the table against its grid.
struct TranslatedArraySchedule {
  const char *Where;     ///< "file.cpp:12", named by every error
  const char *Algorithm; ///< arrayAlgorithmName of what made the schedule
  const char *From;
  const char *To;
  int64_t Steps;
  int64_t MessageCount;
  const TranslatedArrayMessage *Messages;
};

namespace directive {

/// One format of a directive as run-time values: a DistKind with its
/// parameter, GEN_BLOCK sizes, or '*' (not distributed). Building one never
/// throws; arrayTarget() reports what is wrong with it.
struct FormatArg {
  bool Distributed = false;
  DistKind Kind = DistKind::Block;
  int64_t Param = 0;
  std::vector<int64_t> Sizes;
};
/// '*'.
FormatArg collapsedFormat();
/// BLOCK (Kind Block, Param ignored), BLOCK(Param), CYCLIC(Param).
FormatArg format(DistKind Kind, int64_t Param);
/// GEN_BLOCK(S) from any sequence of sizes.
template <typename Sizes> FormatArg genBlockFormat(const Sizes &S) {
  FormatArg F;
  F.Distributed = true;
  F.Kind = DistKind::GenBlock;
  for (const auto &Size : S)
    F.Sizes.push_back(static_cast<int64_t>(Size));
  return F;
}

/// An array layout made from a directive's run-time values, or what is
/// wrong with them (as Target for 1-D arrays): its plan raises the problem
/// on every rank at once.
class ArrayTarget {
public:
  ArrayTarget(ArrayLayout L) : Value(std::move(L)) {}
  static ArrayTarget invalid(std::string Problem) {
    ArrayTarget T;
    T.Problem = std::move(Problem);
    return T;
  }
  /// The layout; without one, throws the problem, naming Where.
  const ArrayLayout &value(const char *Where) const;
  const std::optional<std::string> &problem() const { return Problem; }
  const std::optional<ArrayLayout> &layout() const { return Value; }

private:
  ArrayTarget() = default;
  std::optional<ArrayLayout> Value;
  std::optional<std::string> Problem;
};

/// The layout of an array of Extents with Formats over the arrangement Grid
/// in Order, stored in Storage order (tight strides).
ArrayTarget arrayTarget(const std::vector<int64_t> &Extents,
                        const std::vector<FormatArg> &Formats,
                        const std::vector<int64_t> &Grid, GridOrder Order,
                        StorageOrder Storage);
/// The same for a distribute directive at namespace scope: its errors are
/// thrown at once, naming Where.
ArrayLayout arrayLayout(const ArrayTarget &T, const char *Where);
/// The layout T that a distribute directive in a function body declares, on
/// Comm: with the Verify option (directiveOptions(V)) one agreement raises a
/// problem on any rank, or layouts that differ across ranks, on every rank,
/// naming Where; without it, a problem on this rank aborts the job.
ArrayLayout distributedArray(const ArrayTarget &T, MPI_Comm Comm,
                             const char *Where,
                             Verification V = Verification::Default);

/// A section's whole dimension ([:]) and its range [Begin, End).
SectionRange whole();
SectionRange range(int64_t Begin, int64_t End);

/// What an assign moves: target axis k is source axis Permutation[k]
/// (empty: none), the source section Source and the target section Target
/// (empty: the whole array; otherwise one range per dimension).
struct AssignRegion {
  std::vector<int> Permutation;
  std::vector<SectionRange> Source, Target;
};

/// The plan of a redistribute (Region empty) or an assign of an array,
/// scheduled by the runtime with Algorithm (an arrayAlgorithmName, or
/// overlap / overlap-split) and cached by the layouts, the region, the
/// element size, the communicator and the options. To's problem, a region
/// that does not fit the layouts and the plan's own errors are raised on
/// every rank, naming Where.
const Plan &dynamicArrayPlan(const ArrayLayout &From, const ArrayTarget &To,
                             const AssignRegion &Region,
                             std::size_t ElementBytes, MPI_Comm Comm,
                             const char *Algorithm, const char *Where,
                             Verification V = Verification::Default);
template <typename S>
const Plan &dynamicArrayPlan(const ArrayLayout &From, const ArrayTarget &To,
                             const AssignRegion &Region, MPI_Comm Comm,
                             const char *Algorithm, const char *Where,
                             Verification V = Verification::Default) {
  return dynamicArrayPlan(From, To, Region, sizeof(ElementOf<S>), Comm,
                          Algorithm, Where, V);
}

/// The plan of a static array directive: as dynamicArrayPlan, but the
/// schedule is T's table, once the layouts and the region are found to be
/// those redistc computed it for (else an error on every rank that says to
/// translate the file again). Cached by T's address too.
const Plan &staticArrayPlan(const TranslatedArraySchedule &T,
                            const ArrayLayout &From, const ArrayTarget &To,
                            const AssignRegion &Region,
                            std::size_t ElementBytes, MPI_Comm Comm,
                            Verification V = Verification::Default);
template <typename S>
const Plan &staticArrayPlan(const TranslatedArraySchedule &T,
                            const ArrayLayout &From, const ArrayTarget &To,
                            const AssignRegion &Region, MPI_Comm Comm,
                            Verification V = Verification::Default) {
  return staticArrayPlan(T, From, To, Region, sizeof(ElementOf<S>), Comm, V);
}

} // namespace directive

} // namespace redist

#endif // REDIST_RUNTIME_TRANSLATEDARRAY_H
