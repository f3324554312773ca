//===- redist/runtime/Plan.h - Plan once, execute many --------------------===//
//
// The MPI runtime of redist. A Plan is built once for a redistribution of a
// 1-D array of N elements from one Distribution to another over an MPI
// communicator; execute() then moves the data as often as needed, like an
// FFTW plan. Source processes are ranks 0..P-1 and target processes ranks
// 0..Q-1 of the communicator; other ranks take part without data.
//
// Invalid parameters throw redist::InvalidArgument on every rank before any
// communication (each rank checks the same parameters the same way).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_PLAN_H
#define REDIST_RUNTIME_PLAN_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace redist {

/// How execute() moves the data.
enum class ExecMode {
  Scheduled,      ///< the schedule's steps: one Sendrecv per step per rank
  Unsynchronized, ///< Walker & Otto's: all receives posted, then all sends
  Alltoallv,      ///< one MPI_Alltoallv with packed buffers
};

/// How message elements are gathered and scattered.
enum class Packing {
  Runs,      ///< copy loops over the run descriptions of lib/
  Datatypes, ///< MPI derived datatypes built from the same runs
};

struct PlanOptions {
  Algorithm Schedule = Algorithm::Auto;
  ExecMode Mode = ExecMode::Scheduled;
  Packing Pack = Packing::Runs;
  /// Check, with one collective, that every rank passed the same parameters;
  /// a mismatch throws InvalidArgument on every rank instead of hanging.
  bool Verify = false;
  CostModel Model;
};

class Plan {
public:
  /// ElementBytes is the size of one (trivially copyable) element.
  Plan(const Distribution &From, const Distribution &To, int64_t N,
       std::size_t ElementBytes, MPI_Comm Comm,
       const PlanOptions &Options = PlanOptions());
  ~Plan();
  Plan(Plan &&) noexcept;
  Plan &operator=(Plan &&) noexcept;
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  /// Moves this rank's source part (sourceLocalSize() elements at Src) into
  /// its target part (targetLocalSize() elements at Dst). Collective.
  void execute(const void *Src, void *Dst) const;

  /// Number of elements this rank holds before and after.
  int64_t sourceLocalSize() const;
  int64_t targetLocalSize() const;

  const Layout &source() const;
  const Layout &target() const;
  /// The schedule the Scheduled mode follows, and its statistics.
  const Schedule &schedule() const;
  ScheduleStats stats() const;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace redist

#endif // REDIST_RUNTIME_PLAN_H
