//===- StaticTables.h - Schedules computed at translation time ------------===//
//
// For a redistribution whose parameters are all constant, redistc computes
// the schedule with lib/ (the same makeSchedule and cost model the runtime
// uses) and flattens it into the constant tables the generated code walks:
// per rank and step the message to send and the one to receive, how each
// message lies in its sender's and its receiver's local memory (one slice
// repeated with a fixed stride, then the tail), and each rank's local sizes.
// When the tables would be too large it says why, and the directive falls back
// to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_STATICTABLES_H
#define REDISTC_STATICTABLES_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/MessagePattern.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redistc {

/// Length elements at local offset Offset.
struct TablePiece {
  int64_t Offset = 0;
  int64_t Length = 0;
};

/// How one side of a message (the sender's elements when packing, the
/// receiver's when unpacking) lies in local memory, in message order: pieces
/// [First, First + Count) of one slice, repeated Repeat times Stride apart,
/// then the incomplete slice's pieces [TailFirst, TailFirst + TailCount).
/// Pieces contiguous on this side are merged, and Uniform is the length
/// every piece of the slice has (0 if they differ): the generated code then
/// copies each piece with a fixed-size copy. Type is the side's slot in the
/// table of MPI datatypes when its pieces are long enough for MPI to move
/// them straight from or into the array (AutoDatatypeRunBytes, as the
/// runtime decides), -1 when the code copies them through a buffer.
struct TableSide {
  int64_t First = 0;
  int64_t Count = 0;
  int64_t Uniform = 0;
  int64_t Repeat = 0;
  int64_t Stride = 0;
  int64_t TailFirst = 0;
  int64_t TailCount = 0;
  int64_t Type = -1;
};

/// One message: how to pack it on its sender and unpack it on its
/// receiver, and, for a message a rank sends to itself, how to copy it
/// directly: runs of both sides, repeated with both strides, then the tail.
struct TableDirect {
  int64_t First = 0;
  int64_t Count = 0;
  int64_t Uniform = 0;
  int64_t Repeat = 0;
  int64_t SrcStride = 0;
  int64_t DstStride = 0;
  int64_t TailFirst = 0;
  int64_t TailCount = 0;
};

struct TableMessage {
  int64_t Src = 0;
  int64_t Dst = 0;
  int64_t Length = 0;
  TableSide Pack;
  TableSide Unpack;
  TableDirect Direct;
};

struct StaticTables {
  std::string Algorithm;
  redist::ScheduleStats Stats;
  /// Ranks 0..Ranks-1 take part: max(P, Q).
  int64_t Ranks = 0;
  int64_t Steps = 0;
  std::vector<int64_t> FromSize; ///< per rank
  std::vector<int64_t> ToSize;   ///< per rank
  /// Message id each rank sends / receives in each step, -1 for none;
  /// index rank * Steps + step.
  std::vector<int64_t> Send;
  std::vector<int64_t> Recv;
  std::vector<TableMessage> Messages;
  std::vector<TablePiece> Pieces;
  /// Runs of the messages ranks send to themselves.
  std::vector<redist::Run> Runs;
  /// Sides with a datatype (TableSide::Type numbers them).
  int64_t Types = 0;
  /// The longest message a rank packs or unpacks through a buffer.
  int64_t MaxLength = 0;
  /// The schedule's steps as message ids, for the comments.
  std::vector<std::vector<int64_t>> StepMessages;

  /// Number of table entries (integers) the generated code holds.
  int64_t entries() const;
};

struct StaticLimits {
  /// Largest number of integers in the tables of one directive.
  int64_t MaxEntries = 200000;
};

/// The outcome of trying the static path.
struct StaticPlan {
  std::optional<StaticTables> Tables;
  /// Why there are no tables: too large (the runtime takes over) ...
  std::string Fallback;
  /// ... or an error in the directive (the algorithm does not apply).
  std::string Error;
};

StaticPlan planStatically(const redist::Layout &From, const redist::Layout &To,
                          redist::Algorithm Algorithm, int64_t ElementBytes,
                          const StaticLimits &Limits);

} // namespace redistc

#endif // REDISTC_STATICTABLES_H
