//===- ArrayBench.cpp - redist-array-bench: 3-D transposes and their peers ===//
//
//   mpirun -np R redist-array-bench CONFIG N REPS [--method NAME,...|all]
//
// Moves an N^3 array of doubles, row-major on every rank, the way
// distributed FFTs do (docs/redist-array-bench.md):
//   slab       (block,*,*) -> (*,block,*) over R processes;
//   slab-t     the same with the permutation (1,0,2), FFTW's transposed
//              output;
//   pencil-xy  (*,block,block) -> (block,*,block) over a 2 x R/2 grid;
//   pencil-yz  (block,*,block) -> (block,block,*) over a 2 x R/2 grid.
// Methods, interleaved round by round after a barrier, in an order that
// changes from round to round (RoundOrder.h), each run timed on the slowest
// rank and each result checked element by element:
//   redist     an ArrayPlan built once (its plan time printed apart), its
//              source and target in node memory (NodeMemory.h): where the
//              node memory is shared it must read the node's messages
//              straight from their senders' sources in every run, or the
//              run fails;
//   redist-private
//              the same on a source and target in ordinary memory, as the
//              peers' are: the shared-memory handover, what redist was
//              before;
//   fftw-mpi   fftw_mpi_plan_many_transpose (slab cases only, FFTW_MEASURE);
//   alltoallv  pack per peer, MPI_Alltoallv, unpack;
//   alltoallw  one MPI_Alltoallw with subarray datatypes on both sides, as
//              2DECOMP&FFT and heFFTe move pencils;
//   memcpy     one core (rank 0) copies the whole array;
//   copy-limit every rank copies its own target share at once: the
//              parallel copy limit no move can beat (both from
//              bench/reference, as redist-bench measures them).
// --method runs only the methods named (all by default), e.g. one alone
// under a profiler. Prints whether the node memory is shared, and per
// method the median and minimum, the median's ratio to memcpy's and to
// copy-limit's (where those run), whether every run was right, and for
// redist in how many runs the node's ranks shared the writing of their
// targets (node_writes, Plan::nodeWrites(); "-" for the others).
//
//===----------------------------------------------------------------------===//

#include "BenchmarkHeap.h"
#include "Boxes.h"
#include "CopyReference.h"
#include "Measure.h"
#include "NodeReads.h"
#include "RoundOrder.h"
#include "ToolCommandLine.h"

#include "redist/runtime/ArrayPlan.h"
#include "redist/runtime/NodeMemory.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>
#ifdef REDIST_BENCH_HAVE_FFTW_MPI
#include <fftw3-mpi.h>
#endif

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

using namespace llvm;
using namespace redist::bench;

namespace {

cl::OptionCategory BenchCategory("redist-array-bench options");
cl::opt<std::string> ConfigName(cl::Positional, cl::Required,
                                cl::desc("<slab|slab-t|pencil-xy|pencil-yz>"),
                                cl::cat(BenchCategory));
cl::opt<std::string> ExtentText(cl::Positional, cl::Required, cl::desc("<N>"),
                                cl::cat(BenchCategory));
cl::opt<std::string> RepsText(cl::Positional, cl::Required, cl::desc("<REPS>"),
                              cl::cat(BenchCategory));
cl::list<std::string>
    MethodNames("method", cl::CommaSeparated,
                cl::desc("Methods to run, comma separated, or 'all' (the "
                         "default)"),
                cl::value_desc("name"), cl::cat(BenchCategory));

/// The methods this build has, in the order the table lists them.
const std::vector<std::string> &knownMethods() {
  static const std::vector<std::string> Known{"redist",    "redist-private",
#ifdef REDIST_BENCH_HAVE_FFTW_MPI
                                              "fftw-mpi",
#endif
                                              "alltoallv", "alltoallw",
                                              "memcpy",    "copy-limit"};
  return Known;
}

int Rank = 0, Ranks = 1;

/// A configuration: both layouts and the permutation (target axis k is
/// source axis Perm[k]).
struct Config {
  std::string Name;
  BlockLayout From, To;
  std::array<int, Rank3> Perm{0, 1, 2};
  bool Slab = false;
};

std::optional<Config> configNamed(const std::string &Name, std::string &Error) {
  Config C;
  C.Name = Name;
  if (Name == "slab" || Name == "slab-t") {
    C.From = {{Ranks}, {0, -1, -1}};
    C.Slab = true;
    if (Name == "slab") {
      C.To = {{Ranks}, {-1, 0, -1}};
    } else {
      // (1,0,2): the target's first axis is y, distributed as the source's
      // x was.
      C.To = {{Ranks}, {0, -1, -1}};
      C.Perm = {1, 0, 2};
    }
    return C;
  }
  if (Name == "pencil-xy" || Name == "pencil-yz") {
    if (Ranks % 2) {
      Error = Name +
              " runs on a 2 x R/2 grid and needs an even number of "
              "ranks, got " +
              std::to_string(Ranks);
      return std::nullopt;
    }
    std::vector<int> Grid{2, Ranks / 2};
    if (Name == "pencil-xy")
      C.From = {Grid, {-1, 0, 1}}, C.To = {Grid, {0, -1, 1}};
    else
      C.From = {Grid, {0, -1, 1}}, C.To = {Grid, {0, 1, -1}};
    return C;
  }
  Error = "unknown configuration '" + Name +
          "' (expected slab, slab-t, pencil-xy or pencil-yz)";
  return std::nullopt;
}

/// The methods --method chose for C, or nullopt and Error naming the first
/// name this build does not have, or one C cannot run. Under 'all',
/// fftw-mpi runs in the slab configurations only.
std::optional<std::vector<std::string>> chosenMethods(const Config &C,
                                                      std::string &Error) {
  const std::vector<std::string> &Known = knownMethods();
  const bool All = MethodNames.empty() ||
                   std::find(MethodNames.begin(), MethodNames.end(), "all") !=
                       MethodNames.end();
  for (const std::string &Name : MethodNames) {
    if (Name == "all")
      continue;
    if (std::find(Known.begin(), Known.end(), Name) == Known.end()) {
      std::string List;
      for (const std::string &K : Known)
        List += K + ", ";
      Error = "unknown method '" + Name + "' (this build has: " + List + "all)";
      return std::nullopt;
    }
    if (Name == "fftw-mpi" && !C.Slab) {
      Error = "fftw-mpi transposes slabs only, not " + C.Name;
      return std::nullopt;
    }
  }
  std::vector<std::string> Chosen;
  for (const std::string &K : Known)
    if ((All && (K != "fftw-mpi" || C.Slab)) ||
        std::find(MethodNames.begin(), MethodNames.end(), K) !=
            MethodNames.end())
      Chosen.push_back(K);
  return Chosen;
}

std::string spell(const BlockLayout &L) {
  std::string S = "(";
  for (int K = 0; K < Rank3; ++K)
    S += std::string(K ? "," : "") + (L.Axis[K] < 0 ? "*" : "block");
  S += ") over ";
  for (size_t G = 0; G < L.Grid.size(); ++G)
    S += (G ? "x" : "") + std::to_string(L.Grid[G]);
  return S;
}

/// One method: Run is timed; Reset (untimed) puts fresh data in place and
/// Check (untimed, collective) says whether the result is right everywhere.
struct Method {
  std::string Name;
  std::function<void()> Run, Reset;
  std::function<bool()> Check;
  /// Set for the copy references: a run that times itself, in seconds.
  std::function<double()> Measure;
  /// Set for redist: after Runs runs, empty when its plan read node memory
  /// wherever it should, else why not (NodeReads.h). Collective.
  std::function<std::string(int64_t Runs)> MissedNodeReads;
  /// Set for redist: in how many runs the node's ranks shared the writing
  /// of their targets (nodeWritesSince()). Collective.
  std::function<int64_t()> NodeWrites;
  std::vector<double> Times;
  bool Right = true;
};

/// True on every rank when Wrong is zero on every rank.
bool allRight(int64_t Wrong) {
  int64_t Total = 0;
  MPI_Allreduce(&Wrong, &Total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return Total == 0;
}

/// The state every data-moving method shares: this rank's parts, and the
/// buffers (sized for the largest need, FFTW's included); and redist's
/// source and target, In's and Out's parts in node memory.
struct Move {
  int64_t N;
  Config C;
  Box Src, Dst;
  std::vector<Box> SrcOf, DstOf;
  std::vector<double> In, Out;
  redist::NodeArray<double> NodeIn, NodeOut;

  /// Fills Source (In, or NodeIn for redist) and clears Target (Out, or
  /// NodeOut for redist): Dst.size() elements, as many as check() reads.
  void reset(double *Source, double *Target) {
    forEach(Src, Src, [&](int64_t X, int64_t Y, int64_t Z, int64_t Off) {
      Source[Off] = valueAt(N, X, Y, Z);
    });
    std::fill(Target, Target + Dst.size(),
              std::numeric_limits<double>::quiet_NaN());
  }
  bool check(const double *Target) const {
    int64_t Wrong = 0;
    forEach(Dst, Dst, [&](int64_t X, int64_t Y, int64_t Z, int64_t Off) {
      Wrong += Target[static_cast<size_t>(Off)] != valueAt(N, X, Y, Z);
    });
    return allRight(Wrong);
  }
};

int toInt(int64_t V) {
  if (V > INT_MAX) {
    std::fprintf(stderr,
                 "redist-array-bench: error: %lld elements exceed an MPI "
                 "count\n",
                 static_cast<long long>(V));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return static_cast<int>(V);
}

Method alltoallv(Move &M) {
  struct State {
    std::vector<int> SendCounts, SendDispls, RecvCounts, RecvDispls;
    std::vector<double> SendBuf, RecvBuf;
  };
  auto S = std::make_shared<State>();
  int64_t SendAt = 0, RecvAt = 0;
  for (int Q = 0; Q < Ranks; ++Q) {
    const int64_t Out = intersect(M.Src, M.DstOf[Q]).size();
    const int64_t In = intersect(M.SrcOf[Q], M.Dst).size();
    S->SendCounts.push_back(toInt(Out));
    S->SendDispls.push_back(toInt(SendAt));
    S->RecvCounts.push_back(toInt(In));
    S->RecvDispls.push_back(toInt(RecvAt));
    SendAt += Out;
    RecvAt += In;
  }
  S->SendBuf.resize(static_cast<size_t>(SendAt));
  S->RecvBuf.resize(static_cast<size_t>(RecvAt));
  Method Me;
  Me.Name = "alltoallv";
  Me.Run = [&M, S] {
    double *To = S->SendBuf.data();
    for (int Q = 0; Q < Ranks; ++Q)
      forEach(intersect(M.Src, M.DstOf[Q]), M.Src,
              [&](int64_t, int64_t, int64_t, int64_t Off) {
                *To++ = M.In[static_cast<size_t>(Off)];
              });
    MPI_Alltoallv(S->SendBuf.data(), S->SendCounts.data(), S->SendDispls.data(),
                  MPI_DOUBLE, S->RecvBuf.data(), S->RecvCounts.data(),
                  S->RecvDispls.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    const double *From = S->RecvBuf.data();
    for (int Q = 0; Q < Ranks; ++Q)
      forEach(intersect(M.SrcOf[Q], M.Dst), M.Dst,
              [&](int64_t, int64_t, int64_t, int64_t Off) {
                M.Out[static_cast<size_t>(Off)] = *From++;
              });
  };
  return Me;
}

/// The part Part of the storage of Within as one datatype whose elements run
/// in the order of the axes Order (outermost first): a subarray when Order
/// is the storage's own order, nested hvectors otherwise.
MPI_Datatype partType(const Box &Part, const Box &Within,
                      const std::array<int, Rank3> &Order) {
  MPI_Datatype T;
  if (Within.Stride[Order[0]] >= Within.Stride[Order[1]] &&
      Within.Stride[Order[1]] >= Within.Stride[Order[2]]) {
    int Sizes[Rank3], Sub[Rank3], Starts[Rank3];
    for (int K = 0; K < Rank3; ++K) {
      const int A = Order[K];
      Sizes[K] = toInt(Within.extent(A));
      Sub[K] = toInt(Part.extent(A));
      Starts[K] = toInt(Part.Lo[A] - Within.Lo[A]);
    }
    MPI_Type_create_subarray(Rank3, Sizes, Sub, Starts, MPI_ORDER_C, MPI_DOUBLE,
                             &T);
  } else {
    // An element at the part's first corner, then hvectors outwards; the
    // displacement of the corner goes into a one-block hindexed type.
    MPI_Datatype Inner = MPI_DOUBLE;
    MPI_Type_dup(MPI_DOUBLE, &Inner);
    for (int K = Rank3; K-- > 0;) {
      const int A = Order[K];
      MPI_Datatype Next;
      MPI_Type_create_hvector(toInt(Part.extent(A)), 1,
                              static_cast<MPI_Aint>(Within.Stride[A]) *
                                  static_cast<MPI_Aint>(sizeof(double)),
                              Inner, &Next);
      MPI_Type_free(&Inner);
      Inner = Next;
    }
    MPI_Aint Corner = 0;
    for (int A = 0; A < Rank3; ++A)
      Corner += static_cast<MPI_Aint>((Part.Lo[A] - Within.Lo[A]) *
                                      Within.Stride[A]) *
                static_cast<MPI_Aint>(sizeof(double));
    int One = 1;
    MPI_Type_create_hindexed(1, &One, &Corner, Inner, &T);
    MPI_Type_free(&Inner);
  }
  MPI_Type_commit(&T);
  return T;
}

Method alltoallw(Move &M) {
  struct State {
    std::vector<int> SendCounts, RecvCounts, Zero;
    std::vector<MPI_Datatype> SendTypes, RecvTypes;
    ~State() {
      for (auto *Types : {&SendTypes, &RecvTypes})
        for (MPI_Datatype &T : *Types)
          if (T != MPI_DOUBLE)
            MPI_Type_free(&T);
    }
  };
  auto S = std::make_shared<State>();
  // Messages run in the target's axis order: the receive side is the plain
  // subarray of the target storage; the send side is one too unless the
  // move permutes the axes.
  for (int Q = 0; Q < Ranks; ++Q) {
    const Box Out = intersect(M.Src, M.DstOf[Q]);
    const Box In = intersect(M.SrcOf[Q], M.Dst);
    S->SendCounts.push_back(Out.size() ? 1 : 0);
    S->RecvCounts.push_back(In.size() ? 1 : 0);
    S->SendTypes.push_back(Out.size() ? partType(Out, M.Src, M.C.Perm)
                                      : MPI_DOUBLE);
    S->RecvTypes.push_back(In.size() ? partType(In, M.Dst, M.C.Perm)
                                     : MPI_DOUBLE);
  }
  S->Zero.assign(static_cast<size_t>(Ranks), 0);
  Method Me;
  Me.Name = "alltoallw";
  Me.Run = [&M, S] {
    MPI_Alltoallw(M.In.data(), S->SendCounts.data(), S->Zero.data(),
                  S->SendTypes.data(), M.Out.data(), S->RecvCounts.data(),
                  S->Zero.data(), S->RecvTypes.data(), MPI_COMM_WORLD);
  };
  return Me;
}

/// L as redist's layout of an N^3 array (every configuration's extents are
/// N along each axis, permuted or not): row-major storage, processes
/// row-major over the grid.
redist::ArrayLayout layoutOf(const BlockLayout &L, int64_t N) {
  std::vector<redist::DimFormat> Formats;
  for (int K = 0; K < Rank3; ++K)
    Formats.push_back(L.Axis[K] < 0 ? redist::DimFormat::collapsed()
                                    : redist::DimFormat::block());
  std::vector<int64_t> Grid(L.Grid.begin(), L.Grid.end());
  return redist::ArrayLayout({N, N, N}, std::move(Formats), std::move(Grid),
                             redist::GridOrder::RowMajor, {},
                             {redist::StorageOrder::RowMajor, {}});
}

/// redist's method (Private: redist-private's), and its plan time (the
/// slowest rank's, median of a few builds).
Method redistMethod(Move &M, bool Private, double &PlanSeconds) {
  redist::ArraySide From{layoutOf(M.C.From, M.N), {}, {}};
  redist::ArraySide To{layoutOf(M.C.To, M.N), {}, {}};
  redist::ArrayRegion Region;
  Region.Permutation.assign(M.C.Perm.begin(), M.C.Perm.end());
  std::vector<double> Builds;
  auto Plan = std::make_shared<std::optional<redist::ArrayPlan>>();
  for (int I = 0; I < 5; ++I)
    Builds.push_back(timeCollective(MPI_COMM_WORLD, [&] {
      Plan->emplace(From, To, sizeof(double), MPI_COMM_WORLD, Region);
    }));
  PlanSeconds = median(Builds);
  Method Me;
  Me.Name = Private ? "redist-private" : "redist";
  // Looked up on every run: FFTW's method, built later, may grow In and Out.
  auto Source = [&M, Private] {
    return Private ? M.In.data() : M.NodeIn.data();
  };
  auto Target = [&M, Private] {
    return Private ? M.Out.data() : M.NodeOut.data();
  };
  Me.Run = [Plan, Source, Target] { (*Plan)->execute(Source(), Target()); };
  Me.Reset = [&M, Source, Target] { M.reset(Source(), Target()); };
  Me.Check = [&M, Target] { return M.check(Target()); };
  if (!Private) {
    Me.MissedNodeReads = [&M, Plan](int64_t Runs) {
      return missedNodeReads("redist", (*Plan)->plan(), 0, Runs,
                             M.NodeIn.shared(), MPI_COMM_WORLD);
    };
    Me.NodeWrites = [Plan] {
      return nodeWritesSince((*Plan)->plan(), 0, MPI_COMM_WORLD);
    };
  }
  return Me;
}

#ifdef REDIST_BENCH_HAVE_FFTW_MPI
/// FFTW-MPI's transpose of the N x N matrix of N-tuples (x, y) -> (y, x):
/// its plain output is slab-t's layout, its locally transposed output
/// (FFTW_MPI_TRANSPOSED_OUT) slab's.
std::optional<Method> fftwMpi(Move &M) {
  if (!M.C.Slab)
    return std::nullopt;
  const ptrdiff_t N = M.N, Block = (M.N + Ranks - 1) / Ranks;
  const ptrdiff_t Sizes[2] = {N, N};
  ptrdiff_t LocalN0 = 0, Start0 = 0, LocalN1 = 0, Start1 = 0;
  const ptrdiff_t Alloc = fftw_mpi_local_size_many_transposed(
      2, Sizes, N, Block, Block, MPI_COMM_WORLD, &LocalN0, &Start0, &LocalN1,
      &Start1);
  // An empty part's start is FFTW's own business.
  if (LocalN0 != M.Src.extent(0) || LocalN1 != M.Dst.extent(1) ||
      (LocalN0 && Start0 != M.Src.Lo[0]) ||
      (LocalN1 && Start1 != M.Dst.Lo[1])) {
    std::fprintf(stderr,
                 "redist-array-bench: error: FFTW-MPI's parts differ from "
                 "BLOCK's on rank %d\n",
                 Rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (auto *Buf : {&M.In, &M.Out})
    if (static_cast<ptrdiff_t>(Buf->size()) < Alloc)
      Buf->resize(static_cast<size_t>(Alloc));
  const unsigned Flags =
      FFTW_MEASURE | (M.C.Perm[0] == 0 ? FFTW_MPI_TRANSPOSED_OUT : 0u);
  fftw_plan Plan = fftw_mpi_plan_many_transpose(
      N, N, N, Block, Block, M.In.data(), M.Out.data(), MPI_COMM_WORLD, Flags);
  auto Owner = std::shared_ptr<fftw_plan_s>(Plan, fftw_destroy_plan);
  Method Me;
  Me.Name = "fftw-mpi";
  Me.Run = [Owner] { fftw_execute(Owner.get()); };
  return Me;
}
#endif

/// A copy reference of bench/reference as a method: it times itself (rank 0
/// alone, or every rank at once), so Measure replaces timeCollective; it
/// moves no array data, so there is nothing to check.
template <typename Reference>
Method referenceMethod(const char *Name, std::shared_ptr<Reference> Ref) {
  Method Me;
  Me.Name = Name;
  Me.Measure = [Ref] { return Ref->time(); };
  Me.Reset = [] {};
  Me.Check = [] { return true; };
  return Me;
}

int fail(const std::string &Message) {
  if (Rank == 0)
    errs() << "redist-array-bench: error: " << Message << "\n";
  return 1;
}

std::optional<int64_t> parseCount(const std::string &Text, int64_t Min) {
  char *End = nullptr;
  errno = 0;
  long long V = std::strtoll(Text.c_str(), &End, 10);
  if (Text.empty() || *End || errno || V < Min)
    return std::nullopt;
  return V;
}

/// Everything between MPI_Init and MPI_Finalize, so that the methods'
/// datatypes and plans are gone before MPI is.
int run(int argc, char **argv) {
  {
    // Only rank 0 may print the parser's complaints.
    std::string Parse;
    raw_string_ostream Errors(Parse);
    const bool Parsed = redist::tools::parseToolCommandLine(
        argc, argv, BenchCategory,
        "redist-array-bench: 3-D array transposes against their peers\n",
        &Errors);
    if (!Parsed) {
      if (Rank == 0)
        errs() << Errors.str();
      return 1;
    }
  }
  std::string Error;
  std::optional<Config> C = configNamed(ConfigName, Error);
  if (!C)
    return fail(Error);
  std::optional<int64_t> N = parseCount(ExtentText, 1);
  if (!N || *N > (1 << 17))
    return fail("N must be a number from 1 to 131072, got '" + ExtentText +
                "'");
  std::optional<int64_t> Reps = parseCount(RepsText, 1);
  if (!Reps || *Reps > 100000)
    return fail("REPS must be a number from 1 to 100000, got '" + RepsText +
                "'");
  std::optional<std::vector<std::string>> Chosen = chosenMethods(*C, Error);
  if (!Chosen)
    return fail(Error);

  Move M{*N, *C, {}, {}, {}, {}, {}, {}, {}, {}};
  const std::array<int, Rank3> Identity{0, 1, 2};
  for (int Q = 0; Q < Ranks; ++Q) {
    M.SrcOf.push_back(boxOf(C->From, Identity, *N, Q));
    M.DstOf.push_back(boxOf(C->To, C->Perm, *N, Q));
  }
  M.Src = M.SrcOf[static_cast<size_t>(Rank)];
  M.Dst = M.DstOf[static_cast<size_t>(Rank)];
  M.In.resize(static_cast<size_t>(M.Src.size()));
  M.Out.resize(static_cast<size_t>(M.Dst.size()));
  M.NodeIn = redist::NodeArray<double>(MPI_COMM_WORLD,
                                       static_cast<size_t>(M.Src.size()));
  M.NodeOut = redist::NodeArray<double>(MPI_COMM_WORLD,
                                        static_cast<size_t>(M.Dst.size()));

  // Only the chosen methods are built: one profiled alone pays for no
  // other's plan or buffers.
  std::vector<Method> Methods;
  double PlanSeconds = 0, PrivatePlanSeconds = 0;
  const int64_t Bytes = static_cast<int64_t>(sizeof(double));
  for (const std::string &Name : *Chosen) {
    if (Name == "redist")
      Methods.push_back(redistMethod(M, false, PlanSeconds));
    else if (Name == "redist-private")
      Methods.push_back(redistMethod(M, true, PrivatePlanSeconds));
#ifdef REDIST_BENCH_HAVE_FFTW_MPI
    else if (Name == "fftw-mpi")
      Methods.push_back(*fftwMpi(M));
#endif
    else if (Name == "alltoallv")
      Methods.push_back(alltoallv(M));
    else if (Name == "alltoallw")
      Methods.push_back(alltoallw(M));
    // One core's memcpy of the whole array (rank 0 alone), and the parallel
    // copy limit: every rank copies its own target share at once.
    else if (Name == "memcpy")
      Methods.push_back(
          referenceMethod("memcpy", std::make_shared<MemcpyReference>(
                                        MPI_COMM_WORLD, *N * *N * *N * Bytes)));
    else if (Name == "copy-limit")
      Methods.push_back(referenceMethod(
          "copy-limit", std::make_shared<ParallelCopyLimit>(
                            MPI_COMM_WORLD, M.Dst.size() * Bytes)));
    if (!Methods.back().Measure) {
      if (!Methods.back().Reset)
        Methods.back().Reset = [&M] { M.reset(M.In.data(), M.Out.data()); };
      if (!Methods.back().Check)
        Methods.back().Check = [&M] { return M.check(M.Out.data()); };
    }
  }

  // Each round runs the methods in an order of its own, the same on every
  // rank (RoundOrder.h): what one leaves in the caches, and which ranks it
  // leaves descheduled, falls on each of the others alike.
  for (int64_t R = 0; R < *Reps; ++R)
    for (std::size_t K : roundOrder(Methods.size(), static_cast<size_t>(R))) {
      Method &Me = Methods[K];
      Me.Reset();
      Me.Times.push_back(Me.Measure ? Me.Measure()
                                    : timeCollective(MPI_COMM_WORLD, Me.Run));
      Me.Right = Me.Check() && Me.Right;
    }
  // A redist that took the handover where it should have read node memory
  // measured the wrong path: the run fails.
  for (Method &Me : Methods)
    if (Me.MissedNodeReads) {
      const std::string Missed = Me.MissedNodeReads(*Reps);
      if (!Missed.empty()) {
        if (Rank == 0)
          errs() << "redist-array-bench: error: " << Missed << "\n";
        Me.Right = false;
      }
    }
  std::vector<std::string> Writes;
  for (const Method &Me : Methods)
    Writes.push_back(Me.NodeWrites ? std::to_string(Me.NodeWrites()) : "-");

  bool AllRight = true;
  if (Rank == 0) {
    auto MedianOf = [&](const std::string &Name) {
      for (const Method &Me : Methods)
        if (Me.Name == Name)
          return median(Me.Times);
      return 0.0;
    };
    const double Memcpy = MedianOf("memcpy"), Limit = MedianOf("copy-limit");
    std::printf(
        "redist-array-bench: %s, N = %lld: %s -> %s%s, %lld^3 "
        "doubles (%.2f MB), %d ranks, %lld reps\n",
        C->Name.c_str(), static_cast<long long>(*N), spell(C->From).c_str(),
        spell(C->To).c_str(), C->Perm[0] == 0 ? "" : " permuted (1,0,2)",
        static_cast<long long>(*N), static_cast<double>(*N * *N * *N) * 8 / 1e6,
        Ranks, static_cast<long long>(*Reps));
    if (std::find(Chosen->begin(), Chosen->end(), "redist") != Chosen->end())
      std::printf("redist plan: %.3f ms (median of 5 builds, not in the "
                  "times below)\n",
                  PlanSeconds * 1e3);
    std::printf("%s\n", nodeMemoryNote(M.NodeIn.shared()).c_str());
    std::printf("%-14s %10s %10s %9s %9s  %-8s  %s\n", "method", "median_ms",
                "min_ms", "x_memcpy", "x_limit", "verified", "node_writes");
    // "-" where the reference did not run (or took no time).
    auto Ratio = [](double T, double Ref) {
      char Text[32] = "-";
      if (Ref > 0)
        std::snprintf(Text, sizeof Text, "%.2f", T / Ref);
      return std::string(Text);
    };
    for (std::size_t K = 0; K < Methods.size(); ++K) {
      const Method &Me = Methods[K];
      const double Med = median(Me.Times);
      std::printf("%-14s %10.3f %10.3f %9s %9s  %-8s  %11s\n", Me.Name.c_str(),
                  Med * 1e3, minimum(Me.Times) * 1e3,
                  Ratio(Med, Memcpy).c_str(), Ratio(Med, Limit).c_str(),
                  Me.Right ? "yes" : "NO", Writes[K].c_str());
    }
    std::fflush(stdout);
  }
  for (const Method &Me : Methods)
    AllRight = AllRight && Me.Right;
  return AllRight ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  setUpBenchmarkHeap();
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
#ifdef REDIST_BENCH_HAVE_FFTW_MPI
  fftw_mpi_init();
#endif
  const int Status = run(argc, argv);
#ifdef REDIST_BENCH_HAVE_FFTW_MPI
  fftw_mpi_cleanup();
#endif
  MPI_Finalize();
  return Status;
}
