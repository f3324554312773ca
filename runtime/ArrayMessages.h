//===- ArrayMessages.h - An array plan's problem and messages -------------===//
//
// Private to the runtime. An array plan (ArrayPlan.h, and MatrixPlan.h,
// its rank-2 spelling) reuses the one executor of Plan::Impl: all it adds
// is this description of its problem and its messages. The grid over
// process ids is lib's product of per-axis grids (redist/ArrayGrid.h); a
// message's elements are the product of its per-axis runs
// (describeAxis), in the order of the source's storage (its fastest axis
// innermost), or of the target's where the two differ in their fastest
// axis (a transposing copy, which the sender's packing then transposes),
// which both ends compute alike. A band (ArrayRegion::Band)
// moves the slower of its two axes outermost: per index there the other
// axis's indices that move are one interval, so the message is a segment
// of whole repeats where the interval holds all of that axis's runs, and
// one segment per index an edge of the band crosses.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_ARRAYMESSAGES_H
#define REDIST_RUNTIME_ARRAYMESSAGES_H

#include "Agreement.h"
#include "CopyProgram.h"
#include "redist/ArrayGrid.h"
#include "redist/runtime/ArrayPlan.h"
#include "redist/runtime/TranslatedArray.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// A static array directive's table of messages between process ids, which
/// the schedule follows.
struct GivenTable {
  const char *Algorithm;
  int64_t Steps, MessageCount;
  const TranslatedArrayMessage *Messages;
};

/// An array plan's parameters, with the region resolved, and where this
/// rank stands.
struct ArrayProblem {
  ArrayProblem(ArraySide From, ArraySide To, ArrayRegion Region,
               ArrayAlgorithm Algorithm)
      : From(std::move(From)), To(std::move(To)), Region(std::move(Region)),
        Algorithm(Algorithm) {}
  ArraySide From, To;
  ArrayRegion Region;
  ArrayAlgorithm Algorithm;
  /// A static directive's table, which the schedule follows.
  std::optional<GivenTable> Given;
  int Rank = 0;
  int64_t FromProc = -1, ToProc = -1; ///< this rank's processes, or -1
  /// This rank's strides on each side (empty where it holds no process).
  std::vector<int64_t> FromStrides, ToStrides;
  int64_t SourceStorage = 0, TargetStorage = 0; ///< of this rank
  /// "source -> target", for errors.
  std::string what() const;
};

/// The checks of the element size, Options and Algorithm every rank makes
/// alike, as findInvalidOptions, with the plan's algorithm. Returns the
/// first problem, naming the value.
std::optional<std::string> findInvalidArrayOptions(std::size_t ElementBytes,
                                                   const PlanOptions &Options,
                                                   ArrayAlgorithm Algorithm);
/// Checks the ranks lists of one side (Side is "source" or "target")
/// against a communicator of CommSize ranks.
std::optional<std::string> checkSideRanks(const char *Side,
                                          const std::vector<int> &Ranks,
                                          int64_t Procs, int CommSize);
/// The process of a side that Rank holds, or -1.
int64_t procOfRank(const std::vector<int> &Ranks, int64_t Procs, int Rank);
/// Resolves M's region and this rank's place. Returns the first invalid
/// parameter, naming it and its dimension (a section outside an array as
/// NameSection says, when given), checked alike on every rank without
/// communicating.
std::optional<std::string> resolveArrayProblem(
    ArrayProblem &M, MPI_Comm Comm,
    const std::function<std::string(const SectionError &)> &NameSection = {});
/// Sets this rank's strides and storage sizes; returns what only this rank
/// can see to be wrong (its own strides), or "".
std::string resolveArrayStorage(ArrayProblem &M);
/// Layout L's parameters, each name starting with Name, appended to Params.
void addArrayLayoutParameters(std::vector<Parameter> &Params,
                              const std::string &Name, const ArrayLayout &L);
/// The ranks of one side's processes (Side: "source" or "target"), and the
/// schedule algorithm, as Parameters.
Parameter ranksParameter(const std::string &Side,
                         const std::vector<int> &Ranks);
Parameter algorithmParameter(ArrayAlgorithm A);
/// Every parameter the ranks of an array plan must share, for the Verify
/// option's comparison (Agreement.h); the same number on every rank.
/// Region, when given, stands for the region's parameters (permutation,
/// section, band): a matrix plan's, named as MatrixRegion names them.
std::vector<Parameter>
arrayParameters(const ArrayProblem &M, std::size_t ElementBytes,
                const PlanOptions &Options,
                const std::vector<Parameter> *Region = nullptr);

/// The grid of an array plan and the runs of this rank's messages.
class ArrayMessages {
public:
  explicit ArrayMessages(const ArrayProblem &M);
  /// The region's grid over process ids, sorted by source, then target.
  const ArrayGrid &grid() const { return Grid; }
  /// The runs of message Src -> Dst (process ids), of which this rank is
  /// the sender or the receiver. The other end's offsets follow its
  /// layout's strides, or SourceStrides where given (a sender's own, which
  /// a single copy's receiver reads at, SingleCopy.cpp).
  MessageCutter cutter(int64_t Src, int64_t Dst,
                       const std::vector<int64_t> *SourceStrides = nullptr);
  /// Frees the per-axis runs cutter() kept.
  void dropRuns() {
    for (auto &Axis : AxisRuns)
      Axis.clear();
    for (auto &Axis : BandRuns)
      Axis.clear();
  }

private:
  /// One axis's runs between 1-D processes (P, Q), made once.
  const std::vector<TriRun> &axisRuns(int A, int64_t P, int64_t Q);
  /// A band's message from the nested segment of each group of indices of
  /// its outer axis.
  MessageCutter bandCutter(int64_t Src, int64_t Dst,
                           const std::vector<int64_t> &SStr,
                           const std::vector<int64_t> &DStr,
                           std::vector<const std::vector<TriRun> *> Runs,
                           std::vector<int> Order);
  const ArrayProblem &M;
  ArrayGrid Grid;
  std::vector<std::map<std::pair<int64_t, int64_t>, std::vector<TriRun>>>
      AxisRuns;
  /// A band's two axes' runs with their indices (Band.Row's, then
  /// Band.Col's), made once.
  std::map<std::pair<int64_t, int64_t>, std::vector<IndexedRun>> BandRuns[2];
};

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_ARRAYMESSAGES_H
