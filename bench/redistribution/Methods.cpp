//===- Methods.cpp - The methods redist-bench knows -----------------------===//

#include "Method.h"

namespace redist {
namespace bench {

std::vector<MethodInfo> availableMethods() {
  auto Runtime = [](ExecMode Mode, bool SharedMemory = true,
                    OverlapOrder Order = OverlapOrder::Steps,
                    bool PrivateSource = false) -> MethodFactory {
    return [Mode, SharedMemory, Order, PrivateSource](const Problem &Pb) {
      return makeRuntimeMethod(Pb, Mode, SharedMemory, Order, PrivateSource);
    };
  };
  // Every method that runs a plan gets its source in node memory (the
  // session's), where the plan reads it straight from the other ranks, and
  // its target there too, where the node's ranks may share writing it.
  return {
      {"redist", Runtime(ExecMode::Scheduled), true, nullptr, false, true,
       true},
      // The same on a source and target in ordinary memory: the
      // shared-memory handover, what redist was before node memory.
      {"redist-private",
       Runtime(ExecMode::Scheduled, true, OverlapOrder::Steps, true), true,
       nullptr, false, true},
      // The default mode with every message over MPI: what the shared-memory
      // handover gains.
      {"redist-p2p", Runtime(ExecMode::Scheduled, false), true, nullptr, false,
       true},
      {"unsync", Runtime(ExecMode::Unsynchronized), true, nullptr, false, true},
      {"alltoallv", makeAlltoallvPeer, true},
      {"alltoallw", makeAlltoallwPeer, true},
      {"caterpillar", makeCaterpillarPeer, true},
#ifdef REDIST_BENCH_HAVE_SCALAPACK
      {"scalapack", makeScalapackPeer, true,
       "pdgemr2d moves block-cyclic matrices only, ScaLAPACK has no "
       "GEN_BLOCK layout"},
#endif
      // The Overlapped mode: the algorithm's steps compacted, and the two
      // overlapped schedulers (which ignore --algorithm). Every message goes
      // over MPI, so redist-p2p is its step-synchronous counterpart.
      {"overlapped", Runtime(ExecMode::Overlapped), false, nullptr, false,
       true},
      {"overlapped-ovl",
       Runtime(ExecMode::Overlapped, true, OverlapOrder::Overlap), false},
      {"overlapped-split",
       Runtime(ExecMode::Overlapped, true, OverlapOrder::OverlapSplit), false},
      // The runtime's own MPI_Alltoallv mode: a comparison mode of the
      // runtime, not a peer, so "all" leaves it out.
      {"redist-alltoallv", Runtime(ExecMode::Alltoallv), false},
      // The plan cache on every run, as a dynamic directive: with the
      // default cross-rank check and without, for what the check costs.
      {"redist-cached",
       [](const Problem &Pb) { return makeCachedMethod(Pb, true); }, false,
       nullptr, false, true},
      {"cached-noverify",
       [](const Problem &Pb) { return makeCachedMethod(Pb, false); }, false,
       nullptr, false, true},
      // Writes its target on the first run only, so that the tests can
      // check that --verify catches a run that writes nothing.
      {"selftest-stale", makeStaleMethod, false, nullptr, true},
  };
}

} // namespace bench
} // namespace redist
