//===- redist-errors.cpp - Every error case of the runtime ----------------===//
//
//   mpirun -np 4 redist-errors
//
// Each case builds a plan (or redistributes) with a bad parameter on every
// rank or on some ranks only, or with parameters that differ between ranks
// under the Verify option (one case per parameter Verify compares, and cases
// where some ranks find the plan in the cache and others do not). Every rank
// must catch redist::InvalidArgument whose message names the value; rank 0 then
// prints "error CASE: all 4 ranks: MESSAGE", and the program goes on to the
// next case: no rank may hang or abort. A failed plan must leave no duplicate
// of the communicator behind: an attribute with a copy callback counts them.
// The cases with huge layouts run under a memory cap (MemoryCap), so that
// unbounded growth fails them at once.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "ExpectError.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/Redistribute.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define REDIST_TEST_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REDIST_TEST_ASAN
#endif
#endif

#ifdef REDIST_TEST_ASAN
// MemoryCap's bound under AddressSanitizer: a rank whose resident memory
// passes 2 GiB ends with a report (lit's ASAN_OPTIONS add to these).
extern "C" const char *__asan_default_options() {
  return "hard_rss_limit_mb=2048";
}
#endif

using namespace redist;

namespace {

int Rank = 0, Size = 0;
int Failures = 0;

/// Body must throw InvalidArgument naming Expected on every rank.
void expectError(const char *Name, const std::string &Expected,
                 const std::function<void()> &Body) {
  Failures += !test::expectErrorOnEveryRank(Name, Expected, Body);
}

/// Checks that Ok holds on every rank; rank 0 prints "FAIL: Failure" if not.
void expectOnEveryRank(bool Ok, const char *Failure) {
  int Mine = Ok, All = 0;
  MPI_Allreduce(&Mine, &All, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!All) {
    if (Rank == 0)
      std::printf("FAIL: %s\n", Failure);
    ++Failures;
  }
}

Plan makePlan(const Distribution &From, const Distribution &To, int64_t N,
              std::size_t E = 8, PlanOptions O = PlanOptions(),
              MPI_Comm Comm = MPI_COMM_WORLD) {
  return Plan(From, To, N, E, Comm, O);
}

PlanOptions verifying() {
  PlanOptions O;
  O.Verify = true;
  return O;
}

/// Checks that no duplicate of Watched is alive on any rank after Case.
void expectNoDuplicates(const char *Case) {
  int Mine = test::liveDuplicates(), Most = 0;
  MPI_Allreduce(&Mine, &Most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (Most != 0) {
    if (Rank == 0)
      std::printf("FAIL %s: up to %d duplicates of the communicator left\n",
                  Case, Most);
    ++Failures;
  } else if (Rank == 0) {
    std::printf("duplicates left by %s: none\n", Case);
  }
}

/// While alive, caps this rank's address space at 1 GiB above what it maps
/// now, so that a plan growing without bound fails at once with
/// std::bad_alloc instead of filling the machine. Not under AddressSanitizer,
/// whose shadow memory takes terabytes of address space; there
/// __asan_default_options below bounds the resident memory instead.
class MemoryCap {
public:
  MemoryCap() {
#ifndef REDIST_TEST_ASAN
    long Pages = 0;
    if (std::FILE *F = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(F, "%ld", &Pages) != 1)
        Pages = 0;
      std::fclose(F);
    }
    if (Pages <= 0 || getrlimit(RLIMIT_AS, &Saved) != 0)
      return;
    rlimit Capped = Saved;
    Capped.rlim_cur = static_cast<rlim_t>(Pages) *
                          static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) +
                      (rlim_t(1) << 30);
    if (Saved.rlim_cur != RLIM_INFINITY && Saved.rlim_cur < Capped.rlim_cur)
      return;
    Active = setrlimit(RLIMIT_AS, &Capped) == 0;
#endif
  }
  ~MemoryCap() {
    if (Active)
      setrlimit(RLIMIT_AS, &Saved);
  }
  MemoryCap(const MemoryCap &) = delete;
  MemoryCap &operator=(const MemoryCap &) = delete;

private:
  rlimit Saved{};
  bool Active = false;
};

/// The parameters of one plan.
struct Params {
  Distribution From = Distribution::cyclic(4, 3);
  Distribution To = Distribution::block(4);
  int64_t N = 100;
  std::size_t ElementBytes = 8;
  PlanOptions Options = verifying();
};

/// One parameter Verify compares: Vary sets it (Odd: the value of the one
/// rank that differs), and Range is how the message shows the two values.
struct Mismatch {
  const char *Parameter;
  const char *Range;
  std::function<void(Params &, bool Odd)> Vary;
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(4);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  using D = Distribution;

  expectError("block size 0", "got 0",
              [] { makePlan(D::cyclic(4, 0), D::block(4), 100); });
  expectError("negative block size", "got -3",
              [] { makePlan(D::block(4), D::block(4, -3), 100); });
  expectError("no processes", "got 0",
              [] { makePlan(D::block(0), D::block(4), 100); });
  expectError("negative process count", "got -2",
              [] { makePlan(D::block(4), D::cyclic(-2, 3), 100); });
  expectError("negative extent", "-1",
              [] { makePlan(D::block(4), D::block(4), -1); });
  expectError("communicator too small", "fewer than max(P, Q) = 5",
              [] { makePlan(D::block(5), D::block(4), 100); });
  expectError("element size 0", "element size 0",
              [] { makePlan(D::block(4), D::cyclic(4), 100, 0); });
  expectError("BLOCK(k) too small", "BLOCK(20)",
              [] { makePlan(D::block(4, 20), D::cyclic(4), 100); });
  expectError("algorithm that does not apply", "walker_otto", [] {
    PlanOptions O;
    O.Schedule = Algorithm::WalkerOtto;
    makePlan(D::cyclic(4, 3), D::cyclic(3, 5), 100, 8, O);
  });
  expectError("null communicator", "MPI_COMM_NULL", [] {
    makePlan(D::block(4), D::cyclic(4), 100, 8, PlanOptions(), MPI_COMM_NULL);
  });
  expectError("negative transfer limit", "-5", [] {
    PlanOptions O;
    O.MaxTransferBytes = -5;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("transfer limit above INT_MAX", "2147483648", [] {
    PlanOptions O;
    O.MaxTransferBytes = int64_t(INT_MAX) + 1;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("element size above INT_MAX", "element size 2147483648", [] {
    makePlan(D::block(4), D::cyclic(4), 100, std::size_t(INT_MAX) + 1);
  });
  expectError("unknown algorithm", "unknown schedule algorithm 42", [] {
    PlanOptions O;
    O.Schedule = static_cast<Algorithm>(42);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("unknown mode", "unknown execution mode 7", [] {
    PlanOptions O;
    O.Mode = static_cast<ExecMode>(7);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("unknown packing", "unknown packing 9", [] {
    PlanOptions O;
    O.Pack = static_cast<Packing>(9);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("unknown overlap order", "unknown overlap order 5", [] {
    PlanOptions O;
    O.Mode = ExecMode::Overlapped;
    O.Overlap = static_cast<OverlapOrder>(5);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("overlap effort 0", "overlap effort 0 is outside 1..1000000", [] {
    PlanOptions O;
    O.Mode = ExecMode::Overlapped;
    O.Overlap = OverlapOrder::Overlap;
    O.OverlapEffort = 0;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("overlap order outside the Overlapped mode", "not scheduled", [] {
    PlanOptions O;
    O.Overlap = OverlapOrder::OverlapSplit;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("overlap order with a step algorithm", "not greedy", [] {
    PlanOptions O;
    O.Mode = ExecMode::Overlapped;
    O.Overlap = OverlapOrder::Overlap;
    O.Schedule = Algorithm::Greedy;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("Alltoallv round above INT_MAX bytes", "600000000 bytes over 4",
              [] {
                PlanOptions O;
                O.Mode = ExecMode::Alltoallv;
                makePlan(D::block(4), D::cyclic(4), 100, 600000000, O);
              });
  expectError("GEN_BLOCK sizes not summing to N", "sum to 100, not to N = 99",
              [] {
                makePlan(D::genBlock({10, 20, 30, 40}), D::block(4), 99);
              });
  expectError("GEN_BLOCK negative size", "-5", [] {
    makePlan(D::block(4), D::genBlock({10, -5, 30}), 35);
  });
  expectError("GEN_BLOCK without sizes", "got 0 sizes",
              [] { makePlan(D::genBlock({}), D::block(4), 0); });
  expectError("wrong source vector size", "rank 1", [] {
    const int64_t N = 100;
    std::vector<double> Src(
        static_cast<std::size_t>(localSize(D::cyclic(4, 3), N, Rank)));
    if (Rank == 1)
      Src.pop_back();
    std::vector<double> Dst;
    redistribute(Src, Dst, D::cyclic(4, 3), D::block(4), N, MPI_COMM_WORLD);
  });
  expectError(
      // Every rank names the ranks at fault and the first one's sizes.
      "wrong source vector sizes on two ranks", "on ranks 1 and 3", [] {
        const int64_t N = 100;
        std::vector<double> Src(
            static_cast<std::size_t>(localSize(D::cyclic(4, 3), N, Rank)));
        if (Rank == 1 || Rank == 3)
          Src.pop_back();
        std::vector<double> Dst;
        redistribute(Src, Dst, D::cyclic(4, 3), D::block(4), N, MPI_COMM_WORLD);
      });
  expectError("verify: extents differ", "extent N differs (from 100 to 101)",
              [] {
                makePlan(D::block(4), D::cyclic(4), Rank == 2 ? 101 : 100, 8,
                         verifying());
              });
  expectError("verify: one rank invalid", "on rank 3: extent N = -1", [] {
    makePlan(D::block(4), D::cyclic(4), Rank == 3 ? -1 : 10, 8, verifying());
  });
  expectError("verify: same invalid parameters", "BLOCK(2)", [] {
    makePlan(D::block(4, 2), D::cyclic(4), 100, 8, verifying());
  });

  // Every parameter Verify compares (Validate.cpp's allParameters), each
  // differing on one rank.
  using GB = std::vector<int64_t>;
  const Mismatch Mismatches[] = {
      {"source distribution format", " (from block to cyclic)",
       [](Params &X, bool Odd) { X.From = Odd ? D::block(4) : D::cyclic(4); }},
      {"source process count", " (from 3 to 4)",
       [](Params &X, bool Odd) { X.From = D::cyclic(Odd ? 3 : 4, 3); }},
      {"source block size", " (from 3 to 5)",
       [](Params &X, bool Odd) { X.From = D::cyclic(4, Odd ? 5 : 3); }},
      {"source gen_block sizes", "",
       [](Params &X, bool Odd) {
         X.From = D::genBlock(Odd ? GB{40, 20, 20, 20} : GB{25, 25, 25, 25});
       }},
      {"target distribution format", " (from block to cyclic)",
       [](Params &X, bool Odd) { X.To = Odd ? D::cyclic(4) : D::block(4); }},
      {"target process count", " (from 2 to 4)",
       [](Params &X, bool Odd) { X.To = D::block(Odd ? 2 : 4); }},
      {"target block size", " (from 25 to 30)",
       [](Params &X, bool Odd) { X.To = D::block(4, Odd ? 30 : 25); }},
      {"target gen_block sizes", "",
       [](Params &X, bool Odd) {
         X.To = D::genBlock(Odd ? GB{0, 100} : GB{50, 50});
       }},
      {"extent N", " (from 99 to 100)",
       [](Params &X, bool Odd) { X.N = Odd ? 99 : 100; }},
      {"element size", " (from 8 to 24)",
       [](Params &X, bool Odd) { X.ElementBytes = Odd ? 24 : 8; }},
      {"schedule algorithm", " (from auto to greedy)",
       [](Params &X, bool Odd) {
         X.Options.Schedule = Odd ? Algorithm::Greedy : Algorithm::Auto;
       }},
      {"execution mode", " (from scheduled to unsync)",
       [](Params &X, bool Odd) {
         X.Options.Mode = Odd ? ExecMode::Unsynchronized : ExecMode::Scheduled;
       }},
      {"packing", " (from auto to datatypes)",
       [](Params &X, bool Odd) {
         X.Options.Pack = Odd ? Packing::Datatypes : Packing::Auto;
       }},
      {"maximum transfer size", " (from 0 to 4096)",
       [](Params &X, bool Odd) {
         X.Options.MaxTransferBytes = Odd ? 4096 : 0;
       }},
      {"shared memory", " (from off to on)",
       [](Params &X, bool Odd) { X.Options.SharedMemory = !Odd; }},
      {"ranks per node", " (from 0 to 2)",
       [](Params &X, bool Odd) { X.Options.RanksPerNode = Odd ? 2 : 0; }},
      {"single-copy run bytes", " (from 0 to 8192)",
       [](Params &X, bool Odd) {
         X.Options.SingleCopyRunBytes = Odd ? 0 : 8192;
       }},
      {"cost model alpha", " (from 5e-06 to 1e-05)",
       [](Params &X, bool Odd) { X.Options.Model.Alpha = Odd ? 1e-5 : 5e-6; }},
      {"cost model beta", " (from 4e-10 to 1e-09)",
       [](Params &X, bool Odd) {
         X.Options.Model.BetaPerByte = Odd ? 1e-9 : 4e-10;
       }},
      {"cost model gamma", " (from 1e-06 to 2e-06)",
       [](Params &X, bool Odd) { X.Options.Model.Gamma = Odd ? 1e-6 : 2e-6; }},
      {"cost model element size", " (from 4 to 8)",
       [](Params &X, bool Odd) { X.Options.Model.ElementBytes = Odd ? 4 : 8; }},
      {"overlap effort", " (from 1 to 8)",
       [](Params &X, bool Odd) { X.Options.OverlapEffort = Odd ? 8 : 1; }},
  };
  int Case = 0;
  for (const Mismatch &M : Mismatches) {
    // Rank 0 keeps the common value, so that its message is the same in
    // every run; the odd rank out moves from case to case.
    const int OddRank = 1 + Case++ % (Size - 1);
    const std::string Name = std::string("verify: ") + M.Parameter;
    expectError(Name.c_str(),
                std::string("verify: ranks were given different parameters: ") +
                    M.Parameter + " differs" + M.Range,
                [&] {
                  Params X;
                  M.Vary(X, Rank == OddRank);
                  makePlan(X.From, X.To, X.N, X.ElementBytes, X.Options);
                });
  }
  // A value invalid on one rank is named as such, not as a difference.
  expectError("verify: unknown algorithm on one rank",
              "on rank 2: unknown schedule algorithm 42", [] {
                PlanOptions O = verifying();
                if (Rank == 2)
                  O.Schedule = static_cast<Algorithm>(42);
                makePlan(D::block(4), D::cyclic(4), 100, 8, O);
              });

  // Ranks that disagree, with the default options: an error naming the
  // parameter on every rank, never a hang or wrong data.
  expectError("by default: N 1000 against 1001", "extent N differs", [] {
    makePlan(D::cyclic(4, 3), D::block(4), Rank == 1 ? 1001 : 1000);
  });
  expectError("by default: N 1e5 against 2e5", "extent N differs", [] {
    const int64_t N = Rank == 3 ? 200000 : 100000;
    Plan Pl = makePlan(D::block(4), D::cyclic(4), N);
    std::vector<double> Src(static_cast<std::size_t>(Pl.sourceLocalSize())),
        Dst(static_cast<std::size_t>(Pl.targetLocalSize()));
    Pl.execute(Src.data(), Dst.data());
  });
  expectError("by default: block sizes", "target block size differs", [] {
    makePlan(D::cyclic(4, 3), D::cyclic(4, Rank == 2 ? 7 : 5), 1000);
  });
  expectError("by default: process counts", "source process count differs", [] {
    makePlan(D::cyclic(Rank == 0 ? 3 : 4, 2), D::block(4), 99);
  });
  expectError("by default: the N of redistribute()", "extent N differs", [] {
    const int64_t N = Rank == 1 ? 500 : 400;
    std::vector<double> Src(
        static_cast<std::size_t>(localSize(D::cyclic(4, 3), N, Rank)));
    std::vector<double> Dst;
    redistribute(Src, Dst, D::cyclic(4, 3), D::block(4), N, MPI_COMM_WORLD);
  });

  // A value invalid on some ranks only, by default and without Verify: the
  // ranks with a valid one must not go on into the build, they throw too,
  // naming the ranks at fault and the first one's value.
  for (bool Verify : {true, false}) {
    PlanOptions O;
    O.Verify = Verify;
    const std::string Suffix = Verify ? "" : ", unverified";
    expectError(("one rank: GEN_BLOCK sum" + Suffix).c_str(),
                "on rank 2: source distribution gen_block(10,20,30,39): "
                "GEN_BLOCK sizes sum to 99, not to N = 100",
                [&] {
                  makePlan(Rank == 2 ? D::genBlock({10, 20, 30, 39})
                                     : D::genBlock({10, 20, 30, 40}),
                           D::block(4), 100, 8, O);
                });
    expectError(
        ("two ranks: BLOCK(k) too small" + Suffix).c_str(),
        "on ranks 1 and 3; on rank 1: target distribution block(20)", [&] {
          makePlan(D::cyclic(4), D::block(4, Rank % 2 ? 20 : 25), 100, 8, O);
        });
    // Without Verify, once plans were built on the communicator, a rank
    // with a bad value at a lookup aborts the job instead (the others may
    // hit the cache): test/redistc/mpi/directive-errors.cpp tests that.
    if (Verify)
      expectError("one rank: negative extent, cached",
                  "on rank 1: extent N = -7 is negative", [&] {
                    cachedPlan(D::cyclic(4), D::block(4), Rank == 1 ? -7 : 100,
                               8, MPI_COMM_WORLD, O);
                  });
  }
  // Verify catches a rank with a bad value when the others find their plan
  // in the cache.
  expectError("one rank: GEN_BLOCK sum, others cached",
              "on rank 3: source distribution gen_block(10,20,30,41)", [] {
                const D From = D::genBlock({10, 20, 30, 40});
                cachedPlan(From, D::block(4), 100, 8, MPI_COMM_WORLD);
                cachedPlan(Rank == 3 ? D::genBlock({10, 20, 30, 41}) : From,
                           D::block(4), 100, 8, MPI_COMM_WORLD);
              });
  expectError("one rank: redistribute() with a GEN_BLOCK length",
              "on rank 0: the communicator has 4 ranks, fewer than max(P, Q) = "
              "5",
              [] {
                const int64_t N = 100;
                std::vector<double> Src(
                    static_cast<std::size_t>(localSize(D::block(4), N, Rank)));
                std::vector<double> Dst;
                redistribute(Src, Dst, D::block(4),
                             Rank == 0 ? D::genBlock({20, 20, 20, 20, 20})
                                       : D::genBlock({25, 25, 25, 25}),
                             N, MPI_COMM_WORLD);
              });
  clearPlanCache();

  // A null buffer where a part is not empty ends the job, on a rank alone
  // as on all (redist-faults null, test/mpi/faults-abort.test).
  {
    // An empty part may come as a null pointer: rank 3 holds nothing.
    Plan Pl = makePlan(D::block(3), D::cyclic(3), 30);
    std::vector<double> Src(static_cast<std::size_t>(Pl.sourceLocalSize()), 1),
        Dst(static_cast<std::size_t>(Pl.targetLocalSize()));
    Pl.execute(Src.empty() ? nullptr : Src.data(),
               Dst.empty() ? nullptr : Dst.data());
    const bool Ok =
        std::all_of(Dst.begin(), Dst.end(), [](double V) { return V == 1; });
    expectOnEveryRank(Ok, "null pointers for empty parts");
    if (Rank == 0)
      std::printf("null pointers for empty parts: ok\n");
  }

  // Verify with the cache: every rank caches a plan, then some ranks ask for
  // it again while the others ask for another one. Ranks that find their
  // plan must still take part in the comparison.
  expectError("verify: cached on some ranks",
              "extent N differs (from 100 to "
              "200)",
              [] {
                const PlanOptions O = verifying();
                cachedPlan(D::cyclic(4, 3), D::block(4), 100, 8, MPI_COMM_WORLD,
                           O);
                cachedPlan(D::cyclic(4, 3), D::block(4), Rank < 2 ? 100 : 200,
                           8, MPI_COMM_WORLD, O);
              });
  expectError("verify: redistribute cached on one rank",
              "target distribution format differs (from block to cyclic)", [] {
                const int64_t N = 100;
                std::vector<double> Src(static_cast<std::size_t>(
                    localSize(D::cyclic(4, 3), N, Rank)));
                std::vector<double> Dst;
                redistribute(Src, Dst, D::cyclic(4, 3), D::block(4), N,
                             MPI_COMM_WORLD, verifying());
                redistribute(Src, Dst, D::cyclic(4, 3),
                             Rank == 3 ? D::block(4) : D::cyclic(4), N,
                             MPI_COMM_WORLD, verifying());
              });
  {
    // The failed calls cached nothing: one plan, cyclic(4, 3) -> block(4) of
    // 100 elements, which the size case and both Verify cases asked for.
    std::size_t Cached = planCacheSize(), Most = 0;
    MPI_Allreduce(&Cached, &Most, 1, MPI_UNSIGNED_LONG, MPI_MAX,
                  MPI_COMM_WORLD);
    if (Most != 1) {
      if (Rank == 0)
        std::printf("FAIL: %zu cached plans after the Verify cases, not 1\n",
                    Most);
      ++Failures;
    }
    clearPlanCache();
  }

  // An algorithm that applies but cannot schedule these messages: stepwise's
  // exact matching would overflow 64-bit weights. The error comes before
  // the communicator is duplicated, on every rank, with Verify or without.
  MPI_Comm Watched = test::watchedCommunicator();
  const int64_t Huge = int64_t(1) << 62;
  for (bool Verify : {false, true}) {
    const char *Name = Verify ? "algorithm that cannot schedule, verified"
                              : "algorithm that cannot schedule";
    expectError(Name,
                "schedule algorithm stepwise cannot schedule "
                "gen_block(4611686018427387904,0,0,0) -> "
                "gen_block(0,4611686018427387904,0,0): message length "
                "4611686018427387904 too large",
                [&] {
                  PlanOptions O;
                  O.Verify = Verify;
                  O.Schedule = Algorithm::Stepwise;
                  makePlan(D::genBlock({Huge, 0, 0, 0}),
                           D::genBlock({0, Huge, 0, 0}), Huge, 1, O, Watched);
                });
    expectNoDuplicates(Name);
  }
  // Layouts too large to describe (redist/Limits.h): cyclic -> cyclic(2^62)
  // over N = 2^63 - 1 has no whole slice, and each process's messages would
  // take 2^62 runs. Every algorithm and mode refuses them on every rank
  // before the collective build, with bounded memory (the caterpillar and
  // Alltoallv, which compute no grid, used to describe the messages until
  // memory ran out). On 2 processes, ranks 2 and 3 describe nothing and
  // must refuse all the same, or they would wait for the others forever.
  {
    MemoryCap Cap;
    const int64_t Max = INT64_MAX, S = int64_t(1) << 62;
    struct HugeCase {
      const char *Name;
      Algorithm Schedule;
      ExecMode Mode;
      int64_t Procs;
      bool Verify;
    };
    for (const HugeCase &C :
         {HugeCase{"huge: caterpillar", Algorithm::Caterpillar,
                   ExecMode::Scheduled, 4, true},
          HugeCase{"huge: caterpillar, unverified", Algorithm::Caterpillar,
                   ExecMode::Scheduled, 4, false},
          HugeCase{"huge: caterpillar on 2 of 4 ranks", Algorithm::Caterpillar,
                   ExecMode::Scheduled, 2, true},
          HugeCase{"huge: caterpillar unsynchronized on 2 of 4 ranks",
                   Algorithm::Caterpillar, ExecMode::Unsynchronized, 2, false},
          HugeCase{"huge: alltoallv", Algorithm::Auto, ExecMode::Alltoallv, 4,
                   true},
          HugeCase{"huge: auto", Algorithm::Auto, ExecMode::Scheduled, 2, true},
          HugeCase{"huge: stepwise", Algorithm::Stepwise, ExecMode::Scheduled,
                   4, true}}) {
      expectError(C.Name, "runs of local indices", [&] {
        PlanOptions O;
        O.Schedule = C.Schedule;
        O.Mode = C.Mode;
        O.Verify = C.Verify;
        makePlan(D::cyclic(C.Procs, 1), D::cyclic(C.Procs, S), Max, 8, O,
                 Watched);
      });
      expectNoDuplicates(C.Name);
    }
  }
  {
    // A failure after the duplicate (the buffers of ranks 0 and 1, 2^48
    // bytes, exceed the address space) frees it with the rest; ranks 2 and 3
    // get their plan. (Through shared memory the message would need no
    // such buffers.)
    const int64_t N = int64_t(1) << 45;
    int Ok = 0;
    try {
      PlanOptions O;
      O.Schedule = Algorithm::Caterpillar;
      O.Pack = Packing::Runs;
      O.SharedMemory = false;
      Plan Pl(D::genBlock({N, 0, 0, 0}), D::genBlock({0, N, 0, 0}), N, 8,
              Watched, O);
      Ok = Rank >= 2;
    } catch (const std::bad_alloc &) {
      Ok = Rank < 2;
    }
    expectOnEveryRank(Ok, "out of memory on ranks 0 and 1 only expected");
    expectNoDuplicates("buffers out of memory");
  }
  {
    // The counting itself: a plan holds one duplicate until destroyed.
    Plan Pl(D::cyclic(4, 3), D::block(4), 100, 8, Watched);
    expectOnEveryRank(test::liveDuplicates() == 1,
                      "a plan's duplicate was not counted");
  }
  expectNoDuplicates("a plan destroyed");
  MPI_Comm_free(&Watched);

  expectError("local index outside the part", "local index 30",
              [] { globalIndex(D::block(4), 100, 1, 30); });
  expectError("global index outside the array", "global index 100",
              [] { localPosition(D::block(4), 100, 100); });

  // The runtime still works after all these errors.
  Plan Pl(D::cyclic(4, 3), D::block(3), 1000, 8, MPI_COMM_WORLD);
  int64_t Errors = test::sumOverRanks(test::runAndCheck(Pl, "after errors"));
  if (Rank == 0)
    std::printf("redist-errors: %d failed cases, %lld element errors after\n",
                Failures, static_cast<long long>(Errors));
  MPI_Finalize();
  return Failures == 0 && Errors == 0 ? 0 : 1;
}
