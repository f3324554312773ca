//===- RuntimeMethod.cpp - redist's runtime as a benchmarked method -------===//
//
// The methods under test: a redist::Plan built once (the timed setup is the
// plan time) in one execution mode, then executed; or looked up in the plan
// cache on every run, as a dynamic directive does, with the cross-rank check
// (PlanOptions::Verify) or without, which measures what the check costs.
//
//===----------------------------------------------------------------------===//

#include "Method.h"

#include "redist/runtime/Redistribute.h"

namespace redist {
namespace bench {
namespace {

class RuntimeMethod : public Method {
public:
  RuntimeMethod(const Problem &Pb, ExecMode Mode, bool SharedMemory,
                OverlapOrder Order = OverlapOrder::Steps,
                bool PrivateSource = false)
      : PrivateSource(PrivateSource),
        Pl(runtimeDistribution(Pb.From), runtimeDistribution(Pb.To), Pb.From.N,
           sizeof(double), Pb.Comm, options(Pb, Mode, SharedMemory, Order)) {
    int64_t Me = Pb.Rank;
    int64_t SrcSize = Me < Pb.From.Procs ? Pb.From.localSize(Me) : 0;
    int64_t DstSize = Me < Pb.To.Procs ? Pb.To.localSize(Me) : 0;
    if (Pl.sourceLocalSize() != SrcSize || Pl.targetLocalSize() != DstSize)
      throw InvalidArgument(
          "the runtime's local sizes (" + std::to_string(Pl.sourceLocalSize()) +
          ", " + std::to_string(Pl.targetLocalSize()) +
          ") differ from the benchmark's (" + std::to_string(SrcSize) + ", " +
          std::to_string(DstSize) + ")");
  }

  std::string algorithm() const override {
    // The overlapped schedulers make no step schedule.
    if (Pl.options().Overlap != OverlapOrder::Steps)
      return overlapOrderName(Pl.options().Overlap);
    return Pl.schedule().Algorithm;
  }

  void run(const double *Src, double *Dst) override { Pl.execute(Src, Dst); }
  const Plan *plan() const override { return &Pl; }
  bool privateSource() const override { return PrivateSource; }

private:
  static PlanOptions options(const Problem &Pb, ExecMode Mode,
                             bool SharedMemory, OverlapOrder Order) {
    PlanOptions Options;
    Options.Schedule =
        Order == OverlapOrder::Steps ? Pb.Schedule : Algorithm::Auto;
    Options.Overlap = Order;
    Options.Mode = Mode;
    Options.Pack = Pb.Pack;
    Options.SharedMemory = SharedMemory;
    return Options;
  }

  bool PrivateSource;
  Plan Pl;
};

/// The default mode on its first run only; later runs write nothing, as a
/// method that kept a stale result would.
class StaleMethod : public RuntimeMethod {
public:
  explicit StaleMethod(const Problem &Pb)
      : RuntimeMethod(Pb, ExecMode::Scheduled, true) {}

  void run(const double *Src, double *Dst) override {
    if (!Ran)
      RuntimeMethod::run(Src, Dst);
    Ran = true;
  }

private:
  bool Ran = false;
};

/// cachedPlan on every run, then execute.
class CachedMethod : public Method {
public:
  CachedMethod(const Problem &Pb, bool Verify)
      : From(runtimeDistribution(Pb.From)), To(runtimeDistribution(Pb.To)),
        N(Pb.From.N), Comm(Pb.Comm) {
    Options.Schedule = Pb.Schedule;
    Options.Pack = Pb.Pack;
    Options.Verify = Verify;
    cached(); // built here, in the timed setup
  }

  std::string algorithm() const override {
    return cached().schedule().Algorithm;
  }

  void run(const double *Src, double *Dst) override {
    cached().execute(Src, Dst);
  }
  const Plan *plan() const override { return &cached(); }

private:
  const Plan &cached() const {
    return cachedPlan(From, To, N, sizeof(double), Comm, Options);
  }

  Distribution From, To;
  int64_t N;
  MPI_Comm Comm;
  PlanOptions Options;
};

} // namespace

Distribution runtimeDistribution(const IndexMap &M) {
  return M.isGenBlock() ? Distribution::genBlock(M.Sizes)
                        : Distribution::cyclic(M.Procs, M.Block);
}

std::unique_ptr<Method> makeRuntimeMethod(const Problem &Pb, ExecMode Mode,
                                          bool SharedMemory, OverlapOrder Order,
                                          bool PrivateSource) {
  return std::make_unique<RuntimeMethod>(Pb, Mode, SharedMemory, Order,
                                         PrivateSource);
}

std::unique_ptr<Method> makeCachedMethod(const Problem &Pb, bool Verify) {
  return std::make_unique<CachedMethod>(Pb, Verify);
}

std::unique_ptr<Method> makeStaleMethod(const Problem &Pb) {
  return std::make_unique<StaleMethod>(Pb);
}

} // namespace bench
} // namespace redist
