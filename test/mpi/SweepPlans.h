//===- SweepPlans.h - Which plans a random sweep runs, and its coverage ---===//
//
// Shared by the MPI sweeps. For each configuration a sweep runs every
// schedule algorithm that applies in every execution mode: the Scheduled
// mode with every packing, the Unsynchronized and Alltoallv modes with one
// packing per algorithm, turning with the configuration's index, so that a
// sweep covers every (mode, algorithm, packing) at about a third of the
// cost. (The Alltoallv mode follows no schedule, but each algorithm must
// still be accepted and checked there.) The coverage printed at the end lets
// the tests require every mode x algorithm and mode x packing to have run.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_MPI_SWEEPPLANS_H
#define REDIST_TEST_MPI_SWEEPPLANS_H

#include "redist/runtime/Plan.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
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
          Variants.push_back(O);
        }
        continue;
      }
      O.Pack = Packings[static_cast<std::size_t>(
          (Turn + Applicable) % static_cast<int64_t>(Packings.size()))];
      Variants.push_back(O);
    }
    ++Applicable;
  }
  return Variants;
}

/// Plans run per mode and algorithm, and per mode and packing.
class SweepCoverage {
public:
  void add(const PlanOptions &O) {
    ++ByAlgorithm[index(Modes, O.Mode) * Algorithms.size() +
                  index(Algorithms, O.Schedule)];
    ++ByPacking[index(Modes, O.Mode) * Packings.size() +
                index(Packings, O.Pack)];
  }

  /// One line per mode, "MODE: ALGORITHM COUNT ...", then one line
  /// "plans by mode and packing: MODE/PACKING COUNT ...".
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
  std::vector<int64_t> ByAlgorithm =
      std::vector<int64_t>(Modes.size() * Algorithms.size(), 0);
  std::vector<int64_t> ByPacking =
      std::vector<int64_t>(Modes.size() * Packings.size(), 0);
};

} // namespace test
} // namespace redist

#endif // REDIST_TEST_MPI_SWEEPPLANS_H
