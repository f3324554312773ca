//===- Method.h - One way of redistributing, as redist-bench runs it ------===//
//
// redist-bench times several methods on the same data: the runtime in its
// modes and the peers HPC programmers use today. Each method is built once
// for a Problem (its setup, timed as plan time) and then run many times.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_BENCH_METHOD_H
#define REDIST_BENCH_METHOD_H

#include "IndexMap.h"

#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace redist {
namespace bench {

/// One redistribution of N doubles from a layout over P processes (ranks
/// 0..P-1 of Comm) to one over Q processes (ranks 0..Q-1): CYCLIC(r) to
/// CYCLIC(s), or GEN_BLOCK to GEN_BLOCK.
struct Problem {
  IndexMap From;
  IndexMap To;
  MPI_Comm Comm = MPI_COMM_WORLD;
  int Rank = 0;
  int Ranks = 1;
  /// Runtime options for the methods that use redist's Plan.
  Algorithm Schedule = Algorithm::Auto;
  Packing Pack = Packing::Auto;
};

class Method {
public:
  virtual ~Method() = default;
  /// The schedule it follows, as the output reports it ("none" if it has no
  /// steps of its own).
  virtual std::string algorithm() const = 0;
  /// Moves this rank's source part Src into its target part Dst. Collective.
  virtual void run(const double *Src, double *Dst) = 0;
  /// The redist plan it runs, null for the peers. Such a method gets its
  /// source and its target in node memory (NodeMemory.h) unless
  /// privateSource().
  virtual const Plan *plan() const { return nullptr; }
  /// Whether it runs a plan on a source and target in ordinary memory
  /// (redist-private).
  virtual bool privateSource() const { return false; }
};

using MethodFactory = std::function<std::unique_ptr<Method>(const Problem &)>;

struct MethodInfo {
  const char *Name;
  MethodFactory Make;
  /// Whether "--method all" runs it.
  bool InAll;
  /// Why it cannot move GEN_BLOCK layouts; null when it can.
  const char *NoGenBlock = nullptr;
  /// A fault for redist-bench's own tests: never in "all", never listed.
  bool SelfTest = false;
  /// Whether it follows the runtime's schedule (Problem::Schedule): with
  /// several --algorithm names it runs once per algorithm.
  bool FollowsSchedule = false;
  /// Whether its plan must read its source from node memory in every run
  /// where the node memory is shared and the plan has messages within the
  /// node (NodeReads.h); the run fails otherwise.
  bool MustReadNode = false;
};

/// Every method built into this redist-bench, in the order "all" runs them.
std::vector<MethodInfo> availableMethods();

/// The runtime's Distribution for M.
Distribution runtimeDistribution(const IndexMap &M);

// The factories, one per source file.
/// SharedMemory: PlanOptions::SharedMemory.
/// Order: PlanOptions::Overlap, for the Overlapped mode.
/// PrivateSource: Method::privateSource().
std::unique_ptr<Method>
makeRuntimeMethod(const Problem &Pb, ExecMode Mode, bool SharedMemory,
                  OverlapOrder Order = OverlapOrder::Steps,
                  bool PrivateSource = false);
/// Verify: PlanOptions::Verify, checked on every run's cache lookup.
std::unique_ptr<Method> makeCachedMethod(const Problem &Pb, bool Verify);
std::unique_ptr<Method> makeStaleMethod(const Problem &Pb);
std::unique_ptr<Method> makeAlltoallvPeer(const Problem &Pb);
std::unique_ptr<Method> makeAlltoallwPeer(const Problem &Pb);
std::unique_ptr<Method> makeCaterpillarPeer(const Problem &Pb);
#ifdef REDIST_BENCH_HAVE_SCALAPACK
std::unique_ptr<Method> makeScalapackPeer(const Problem &Pb);
#endif

} // namespace bench
} // namespace redist

#endif // REDIST_BENCH_METHOD_H
