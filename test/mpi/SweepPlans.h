//===- SweepPlans.h - Which plans a random sweep runs, and its coverage ---===//
//
// Shared by the MPI sweeps. For each configuration a sweep runs every
// schedule algorithm that applies in every execution mode: the Scheduled
// mode with every packing, the Unsynchronized, Alltoallv and Overlapped
// (each algorithm's steps compacted) modes with one packing per algorithm,
// and one of the Overlapped mode's own orders, overlap or overlap-split,
// turning with the configuration's index, so that a
// sweep covers every (mode, algorithm, packing) at about a third of the
// cost. The Scheduled mode hands messages over through shared memory with
// Auto packing, over MPI with Datatypes, and either way with Runs, in turn.
// (The Alltoallv mode follows no schedule, but each algorithm must still be
// accepted and checked there.) The coverage printed at the end lets the tests
// require every mode x algorithm and mode x packing to have run. runSweepPlans
// builds, runs and checks those plans for one configuration (SweepConfig.h),
// leaving each sweep its own further checks of each plan.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_SWEEPPLANS_H
#define REDIST_TEST_MPI_SWEEPPLANS_H

#include "CheckRedistribution.h"
#include "NodeReads.h"
#include "SweepConfig.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// The options of every plan to run for From -> To in configuration Turn.
inline std::vector<PlanOptions> sweepVariants(const Layout &From,
                                              const Layout &To, int64_t Turn) {
  const std::vector<Packing> Packings = allPackings();
  std::vector<PlanOptions> Variants;
  int64_t Applicable = 0;
  for (Algorithm A : allAlgorithms()) {
    if (!algorithmApplies(A, From, To))
      continue;
    for (ExecMode M : allExecModes()) {
      PlanOptions O;
      O.Schedule = A;
      O.Mode = M;
      if (M == ExecMode::Scheduled) {
        for (Packing K : Packings) {
          O.Pack = K;
          O.SharedMemory = K != Packing::Runs || (Turn + Applicable) % 2 == 0;
          Variants.push_back(O);
        }
        O.SharedMemory = true;
        continue;
      }
      O.Pack = Packings[static_cast<std::size_t>(
          (Turn + Applicable) % static_cast<int64_t>(Packings.size()))];
      Variants.push_back(O);
    }
    ++Applicable;
  }
  // The overlapped schedulers' search costs more than the plans: one of
  // them per configuration, in turn.
  PlanOptions O;
  O.Mode = ExecMode::Overlapped;
  O.Overlap =
      Turn % 2 == 0 ? OverlapOrder::Overlap : OverlapOrder::OverlapSplit;
  O.Pack = Packings[static_cast<std::size_t>(
      (Turn / 2) % static_cast<int64_t>(Packings.size()))];
  Variants.push_back(O);
  return Variants;
}

/// Plans run per mode and algorithm, and per mode and packing.
class SweepCoverage {
public:
  /// Plans added so far.
  int64_t plans() const {
    int64_t Total = 0;
    for (int64_t Count : ByAlgorithm)
      Total += Count;
    return Total;
  }

  void add(const PlanOptions &O) {
    ++ByAlgorithm[index(Modes, O.Mode) * Algorithms.size() +
                  index(Algorithms, O.Schedule)];
    ++ByPacking[index(Modes, O.Mode) * Packings.size() +
                index(Packings, O.Pack)];
    if (O.Mode == ExecMode::Scheduled)
      ++(O.SharedMemory && O.Pack != Packing::Datatypes ? Shared : P2P);
    if (O.Mode == ExecMode::Overlapped)
      ++ByOrder[index(Orders, O.Overlap)];
  }

  /// One line per mode, "MODE: ALGORITHM COUNT ...", then one line
  /// "plans by mode and packing: MODE/PACKING COUNT ...", then one line
  /// "scheduled plans by transport: shared COUNT p2p COUNT", then
  /// "overlapped plans by order: steps COUNT overlap COUNT ...".
  void print() const {
    std::printf("plans by mode and algorithm:\n");
    for (std::size_t M = 0; M < Modes.size(); ++M) {
      std::printf("%s:", execModeName(Modes[M]));
      for (std::size_t A = 0; A < Algorithms.size(); ++A)
        std::printf(
            " %s %lld", algorithmName(Algorithms[A]),
            static_cast<long long>(ByAlgorithm[M * Algorithms.size() + A]));
      std::printf("\n");
    }
    std::printf("plans by mode and packing:");
    for (std::size_t M = 0; M < Modes.size(); ++M)
      for (std::size_t K = 0; K < Packings.size(); ++K)
        std::printf(" %s/%s %lld", execModeName(Modes[M]),
                    packingName(Packings[K]),
                    static_cast<long long>(ByPacking[M * Packings.size() + K]));
    std::printf("\nscheduled plans by transport: shared %lld p2p %lld\n",
                static_cast<long long>(Shared), static_cast<long long>(P2P));
    std::printf("overlapped plans by order:");
    for (std::size_t O = 0; O < Orders.size(); ++O)
      std::printf(" %s %lld", overlapOrderName(Orders[O]),
                  static_cast<long long>(ByOrder[O]));
    std::printf("\n");
  }

private:
  template <typename T>
  static std::size_t index(const std::vector<T> &All, const T &Value) {
    return static_cast<std::size_t>(std::find(All.begin(), All.end(), Value) -
                                    All.begin());
  }

  const std::vector<ExecMode> Modes = allExecModes();
  const std::vector<Algorithm> Algorithms = allAlgorithms();
  const std::vector<Packing> Packings = allPackings();
  const std::vector<OverlapOrder> Orders = allOverlapOrders();
  std::vector<int64_t> ByOrder = std::vector<int64_t>(Orders.size(), 0);
  std::vector<int64_t> ByAlgorithm =
      std::vector<int64_t>(Modes.size() * Algorithms.size(), 0);
  std::vector<int64_t> ByPacking =
      std::vector<int64_t>(Modes.size() * Packings.size(), 0);
  /// Scheduled plans with SharedMemory on (and not Datatypes), and the rest.
  int64_t Shared = 0, P2P = 0;

public:
  /// With sources in node memory: the plans that read them directly; with
  /// targets there too, the plans that shared the node's tiles.
  NodeReadTally NodeReads;
  NodeWriteTally NodeWrites;
};

/// The Scheduled and Overlapped modes' buffers hold at most one sent and
/// one received message: checks Pl's buffers against this rank's largest
/// messages, and when DatatypesUseNoBuffer that a plan packing with datatypes
/// has none. Returns the errors on this rank.
inline int64_t checkBufferBound(const Plan &Pl, bool DatatypesUseNoBuffer) {
  int64_t MaxSend = 0, MaxRecv = 0;
  if (Pl.rank() < Pl.source().procs())
    for (const Message &M : computeRow(Pl.source(), Pl.target(), Pl.rank()))
      if (M.Dst != Pl.rank())
        MaxSend = std::max(MaxSend, M.Len);
  if (Pl.rank() < Pl.target().procs())
    for (const Message &M : computeColumn(Pl.source(), Pl.target(), Pl.rank()))
      if (M.Src != Pl.rank())
        MaxRecv = std::max(MaxRecv, M.Len);
  std::size_t Bound =
      static_cast<std::size_t>(MaxSend + MaxRecv) * Pl.elementBytes();
  if (DatatypesUseNoBuffer && Pl.options().Pack == Packing::Datatypes)
    Bound = 0;
  if (Pl.bufferBytes() <= Bound)
    return 0;
  std::printf("ERROR rank %d: plan buffers %zu bytes, bound %zu\n", Pl.rank(),
              Pl.bufferBytes(), Bound);
  return 1;
}

/// Pl's label in configuration Index (named Desc).
inline std::string sweepLabel(int Index, const std::string &Desc,
                              const PlanOptions &O) {
  return "config " + std::to_string(Index) + " (" + Desc + ", " +
         algorithmName(O.Schedule) + ", " + execModeName(O.Mode) +
         (O.Overlap == OverlapOrder::Steps
              ? std::string()
              : std::string(" ") + overlapOrderName(O.Overlap)) +
         ", " + packingName(O.Pack) + (O.SharedMemory ? "" : ", p2p") + ")";
}

/// Runs and checks Pl of configuration C Times times (CheckRedistribution.h,
/// Salt its values' shift), with C.NodeMemory and C.NodeTargets the checks
/// of NodeReads.h too (MustShare: checkNodeWrites' Must), counted in
/// Coverage's tallies. Returns the errors on this rank.
inline int64_t runSweepPlan(const SweepConfig &C, const Plan &Pl,
                            const std::string &Label, int Times, int64_t Salt,
                            SweepCoverage &Coverage, bool MustShare = false) {
  bool Shared = false, TargetShared = false;
  int64_t Errors =
      runAndCheck(Pl, Label, Times, Salt,
                  SourceMemory{C.NodeMemory, &Shared, C.NodeTargets,
                               C.HeapTarget, &TargetShared});
  if (C.NodeMemory) {
    auto Same = [](int64_t Id) { return Id; };
    Errors += checkNodeReads(
        Pl, 0, Times, Shared, computeGrid(Pl.source(), Pl.target()),
        Pl.schedule(), Same, Same, Coverage.NodeReads, Label);
  }
  if (C.NodeTargets)
    Errors += checkNodeWrites(Pl, Times, Shared, TargetShared, MustShare,
                              Coverage.NodeWrites, Label);
  return Errors;
}

/// The options of configuration C that every plan of it shares.
inline PlanOptions sweepOptions(const SweepConfig &C, PlanOptions O) {
  O.MaxTransferBytes = C.MaxTransferBytes;
  O.Verify = C.Verify;
  O.RanksPerNode = C.RanksPerNode;
  O.FailRingOnRank = C.FailRingOnRank;
  if (C.SingleCopyRunBytes)
    O.SingleCopyRunBytes = *C.SingleCopyRunBytes;
  return O;
}

/// Builds every plan sweepVariants gives for configuration Index (C, named
/// Desc in labels) on MPI_COMM_WORLD, runs and checks each Times times
/// (runSweepPlan) and counts it in Coverage. Check(O, Pl, Label) is the sweep's
/// own checks of each plan, after the run; it returns the errors it found. With
/// C.NodeMemory every source lies in node memory and each plan must read it
/// directly where NodeReads.h says. Returns the errors on this rank.
template <typename CheckFn>
int64_t runSweepPlans(const SweepConfig &C, int Index, const std::string &Desc,
                      int Times, SweepCoverage &Coverage, CheckFn Check) {
  const Layout From(C.From, C.N), To(C.To, C.N);
  int64_t Errors = 0;
  for (const PlanOptions &Variant : sweepVariants(From, To, Index)) {
    const PlanOptions O = sweepOptions(C, Variant);
    const std::string Label = sweepLabel(Index, Desc, O);
    Plan Pl(C.From, C.To, C.N, C.ElementBytes, MPI_COMM_WORLD, O);
    Errors += runSweepPlan(C, Pl, Label, Times, static_cast<int64_t>(Index),
                           Coverage);
    Errors += Check(O, Pl, Label);
    Coverage.add(O);
  }
  return Errors;
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_SWEEPPLANS_H
