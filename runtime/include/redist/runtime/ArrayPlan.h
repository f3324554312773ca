//===- redist/runtime/ArrayPlan.h - Plans for arrays of any rank ----------===//
//
// Moves a distributed array of any rank (redist/ArrayLayout.h) from one
// layout to another, or a section of it into a section of another, with an
// optional permutation of axes: planned once, executed as often as needed.
// The two process grids may be any sets of ranks of one communicator (the
// same, overlapping or disjoint). The plan runs on the one executor of
// redist/runtime/Plan.h with all its execution modes and packings; each
// message is described per axis (redist/ArrayGrid.h's describeAxis), so
// the plan's memory grows with runs and messages, not with elements.
// Matrices (redist/runtime/MatrixPlan.h) are the rank-2 case.
//
// Invalid parameters throw redist::InvalidArgument, naming the value and
// the dimension, on every rank before any communication.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_ARRAYPLAN_H
#define REDIST_RUNTIME_ARRAYPLAN_H

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"
#include "redist/ArraySchedulers.h"
#include "redist/runtime/Plan.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace redist {

/// One side of an array redistribution: the layout, and which ranks hold
/// its processes.
struct ArraySide {
  ArrayLayout Layout;
  /// Ranks[Id] is the rank of the communicator holding process Id
  /// (ArrayLayout::procAt). Empty means ranks 0 .. procs() - 1. A rank
  /// holds at most one process of each side.
  std::vector<int> Ranks;
  /// This rank's own element strides, for callers whose processes each
  /// have their own padding (ScaLAPACK's LLD is per process). Empty: the
  /// layout's. Not compared across ranks.
  std::vector<int64_t> LocalStrides;
};

class ArrayPlan {
public:
  /// Collective over Comm. ElementBytes is the size of one trivially
  /// copyable element. Region (redist/ArrayGrid.h) gives the permutation
  /// and the sections; by default the whole source moves into the whole
  /// target. Options are the 1-D runtime's (mode, overlap order, packing,
  /// transfer limit, shared memory, Verify, cost model) except Schedule:
  /// Algorithm chooses the schedule instead. Whole, unpermuted arrays take
  /// every algorithm (redist/ArraySchedulers.h); sections and permutations
  /// take auto and the algorithms that schedule any grid.
  ArrayPlan(const ArraySide &From, const ArraySide &To,
            std::size_t ElementBytes, MPI_Comm Comm,
            const ArrayRegion &Region = ArrayRegion(),
            const PlanOptions &Options = PlanOptions(),
            ArrayAlgorithm Algorithm = {Algorithm::Auto, false});
  ~ArrayPlan();
  ArrayPlan(ArrayPlan &&) noexcept;
  ArrayPlan &operator=(ArrayPlan &&) noexcept;

  /// Moves the region from this rank's source storage to its target
  /// storage (at the strides of the layouts, or LocalStrides). Collective.
  /// Target elements outside the region, and padding, are left alone. Src
  /// and Dst must not overlap.
  void execute(const void *Src, void *Dst) const;
  /// execute() one step of schedule() at a time, as Plan::executeStep.
  void executeStep(const void *Src, void *Dst, int64_t K) const;

  /// Elements of this rank's source and target storage the plan touches at
  /// most (0 on a rank outside that grid).
  int64_t sourceStorageSize() const;
  int64_t targetStorageSize() const;

  /// The grid over process ids (the source's and the target's), its
  /// schedule and the other accessors of Plan.
  const CommGrid &grid() const;
  const Schedule &schedule() const;
  const OverlapSchedule &overlapSchedule() const;
  ScheduleStats stats() const;
  std::size_t bufferBytes() const;
  int64_t activeSteps() const;
  int64_t transfers() const;
  int64_t sharedMessages() const;
  int64_t directMessages() const; ///< by single copies (Plan's)
  /// Copy-program entries (runs and repeat levels) this rank's plan holds:
  /// grows with runs, not with elements. For tests.
  int64_t programEntries() const;

  /// The underlying plan (for code that already takes a Plan).
  const Plan &plan() const { return *P; }

protected:
  /// A plan built otherwise: a MatrixPlan's.
  explicit ArrayPlan(std::unique_ptr<Plan> Built);

private:
  std::unique_ptr<Plan> P;
};

} // namespace redist

#endif // REDIST_RUNTIME_ARRAYPLAN_H
