//===- redist-array-sweep.cpp - Random end-to-end N-D redistributions -----===//
//
//   mpirun -np R redist-array-sweep [--single-copy=B] [--ranks-per-node=K]
//                                   [--ring-fails-on=R] [--node-memory]
//                                   RANKS SEED COUNT
//
// Draws COUNT random array redistributions from SEED (the same on every
// rank): arrays of rank 1 to 4, every format (*, block, block(k), cyclic,
// cyclic(k), gen_block) on arrangements of up to RANKS processes, either
// grid order and storage order, first-process offsets, padded strides
// (sometimes each rank its own); a permutation of axes and a whole array or
// a section into a section of a target of another size, now and then only
// a band of diagonals of two of its axes; grids on the same,
// overlapping or disjoint rank sets; element sizes of 1 to 24 bytes; every
// mode (the Overlapped one in each of its orders), packing and an algorithm
// that applies; sometimes small transfer limits, one rank per node or
// step-by-step execution. Every target storage offset of every rank is
// checked: an element inside the section (and band) holds the source element at
// its global index, every other one (padding included) is untouched; the ranks
// together check exactly the section's elements. Then invalid parameters
// must throw on every rank, naming the dimension. Prints a summary of what
// was covered, with the plans that read messages by single copies (with
// --single-copy=0 every message within the node, SingleCopyRunBytes),
// those whose senders had strides of their own among them; exits 1 on any
// error. The options go to every plan, as in the other sweeps
// (SweepConfig.h); without --ranks-per-node it is drawn. With --node-memory
// every source lies in node memory, and the plans must read it directly
// where NodeReads.h says; it prints which did. With --node-targets every
// target lies there too (one rank's in ordinary memory in every third
// configuration), known cases that must share the node's slabs run first
// (runKnownShares), and no plan may share them where NodeReads.h says it
// must not; it prints which did. Every target lies between guards that
// must stay intact.
//
//===----------------------------------------------------------------------===//
#include "../unit/RandomArray.h"
#include "CheckRedistribution.h"
#include "NodeReads.h"
#include "SweepConfig.h"
#include "redist/OverlapSchedule.h"
#include "redist/runtime/ArrayPlan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace redist;
using namespace redist::test;

namespace {

struct Drawn {
  ArraySide From, To;
  ArrayRegion Region; ///< resolved
  std::size_t E = 8;
  PlanOptions Options;
  ArrayAlgorithm Algo{Algorithm::Auto, false};
  bool Steps = false;
};

/// The linear index of Index in Extents (row-major), which names the
/// element's value.
int64_t linear(const std::vector<int64_t> &Extents,
               const std::vector<int64_t> &Index) {
  int64_t L = 0;
  for (size_t K = 0; K < Extents.size(); ++K)
    L = L * Extents[K] + Index[K];
  return L;
}

/// Calls F(Local, Offset) for every local element of process Proc of L
/// stored at Strides.
template <typename Fn>
void forEachLocal(const ArrayLayout &L, int64_t Proc,
                  const std::vector<int64_t> &Strides, Fn &&F) {
  const std::vector<int64_t> E = L.localExtents(Proc);
  for (int64_t X : E)
    if (X == 0)
      return;
  std::vector<int64_t> I(E.size(), 0);
  while (true) {
    int64_t Offset = 0;
    for (size_t K = 0; K < E.size(); ++K)
      Offset += I[K] * Strides[K];
    F(I, Offset);
    size_t K = E.size();
    while (K > 0) {
      --K;
      if (++I[K] < E[K])
        break;
      I[K] = 0;
      if (K == 0)
        return;
    }
  }
}

/// The global index of local index Local of Proc.
std::vector<int64_t> globalOf(const ArrayLayout &L, int64_t Proc,
                              const std::vector<int64_t> &Local) {
  std::vector<int64_t> G(Local.size());
  for (int D = 0; D < L.rank(); ++D)
    G[static_cast<size_t>(D)] =
        L.dim(D).toGlobal(L.dimRankOf(D, Proc), Local[static_cast<size_t>(D)]);
  return G;
}

int64_t idOf(const ArraySide &S, int Rank) {
  if (S.Ranks.empty())
    return Rank < S.Layout.procs() ? Rank : -1;
  for (std::size_t I = 0; I < S.Ranks.size(); ++I)
    if (S.Ranks[I] == Rank)
      return static_cast<int64_t>(I);
  return -1;
}

std::vector<int64_t> stridesOf(const ArraySide &S, int64_t Id) {
  return S.LocalStrides.empty() ? S.Layout.strides(Id) : S.LocalStrides;
}

int64_t storageOf(const ArraySide &S, int64_t Id) {
  return S.Layout.storageSize(Id, stridesOf(S, Id));
}

/// Runs one configuration; returns this rank's errors and adds the section
/// elements it checked to Checked, and its messages moved by single copies
/// to Direct. The target lies between guards, which must stay intact;
/// Node says where the arrays lie and what else to check.
int64_t runOne(const Drawn &D, int Rank, int64_t &Checked, int64_t &Direct,
               const NodeRun &Node = NodeRun()) {
  const std::size_t E = D.E;
  const ArrayLayout &A = D.From.Layout, &B = D.To.Layout;
  const int64_t SId = idOf(D.From, Rank), TId = idOf(D.To, Rank);
  SourceBytes Src(
      SId >= 0 ? static_cast<std::size_t>(storageOf(D.From, SId)) * E : 0,
      MPI_COMM_WORLD, Node.Reads != nullptr);
  GuardedTarget Dst(
      TId >= 0 ? static_cast<std::size_t>(storageOf(D.To, TId)) * E : 0,
      MPI_COMM_WORLD, Node.Writes != nullptr, Rank == Node.HeapTarget);
  std::vector<unsigned char> Before;
  if (SId >= 0) {
    std::fill(Src.data(), Src.data() + Src.size(), 0xEE);
    forEachLocal(A, SId, stridesOf(D.From, SId),
                 [&](const std::vector<int64_t> &L, int64_t O) {
                   elementValue(linear(A.extents(), globalOf(A, SId, L)), E,
                                Src.data() + O * static_cast<int64_t>(E));
                 });
  }
  // Before each run: what a run leaves behind must not pass for the next.
  auto FillTarget = [&] {
    for (std::size_t O = 0; TId >= 0 && O < Dst.size(); ++O)
      Dst.data()[O] = static_cast<unsigned char>(O * 131 + 7);
  };
  if (TId >= 0) {
    FillTarget();
    Before.assign(Dst.data(), Dst.data() + Dst.size());
  }
  if (std::getenv("SWEEP_VERBOSE") && Rank == 0)
    std::fprintf(stderr, "%s -> %s, %zu bytes, %s/%s/%s, %s\n", A.str().c_str(),
                 B.str().c_str(), E, execModeName(D.Options.Mode),
                 overlapOrderName(D.Options.Overlap),
                 packingName(D.Options.Pack),
                 arrayAlgorithmName(D.Algo).c_str());
  ArrayPlan Plan(D.From, D.To, E, MPI_COMM_WORLD, D.Region, D.Options, D.Algo);
  Direct += Plan.directMessages();
  int64_t Errors = 0;
  if (Plan.sourceStorageSize() * static_cast<int64_t>(E) !=
          static_cast<int64_t>(Src.size()) ||
      Plan.targetStorageSize() * static_cast<int64_t>(E) !=
          static_cast<int64_t>(Dst.size())) {
    std::fprintf(stderr, "rank %d: storage sizes %lld / %lld\n", Rank,
                 static_cast<long long>(Plan.sourceStorageSize()),
                 static_cast<long long>(Plan.targetStorageSize()));
    ++Errors;
  }
  if (D.Options.Mode == ExecMode::Overlapped) {
    const CommGrid G = countArrayGridByElements(A, B, D.Region);
    if (std::optional<std::string> Why =
            validateOverlapSchedule(G, Plan.overlapSchedule())) {
      std::fprintf(stderr, "rank %d: invalid overlapped schedule: %s\n", Rank,
                   Why->c_str());
      ++Errors;
    }
  } else if (D.Options.Mode != ExecMode::Alltoallv) {
    const CommGrid G = countArrayGridByElements(A, B, D.Region);
    if (std::optional<std::string> Why = validateSchedule(G, Plan.schedule())) {
      std::fprintf(stderr, "rank %d: invalid schedule: %s\n", Rank,
                   Why->c_str());
      ++Errors;
    }
  }
  for (int Run = 0; Run < 2; ++Run) { // a plan runs many times
    FillTarget();
    if (D.Steps) {
      for (int64_t K = 0;
           K < static_cast<int64_t>(Plan.schedule().Steps.size()) ||
           (K == 0 && D.Options.Mode == ExecMode::Alltoallv);
           ++K)
        Plan.executeStep(Src.data(), Dst.data(), K);
    } else {
      Plan.execute(Src.data(), Dst.data());
    }
  }
  if (!Dst.guardsIntact() && ++Errors)
    std::fprintf(stderr, "rank %d: a guard around the target was written\n",
                 Rank);
  auto RankOf = [](const ArraySide &S) {
    return [&S](int64_t Id) {
      return S.Ranks.empty() ? Id : S.Ranks[static_cast<std::size_t>(Id)];
    };
  };
  Errors += checkArrayNodeRun(Plan, Node, D.Steps,
                              !std::is_sorted(D.Region.Permutation.begin(),
                                              D.Region.Permutation.end()) ||
                                  D.Region.Band.has_value(),
                              Src, Dst, RankOf(D.From), RankOf(D.To),
                              A.str() + " -> " + B.str() + Node.Tag);
  if (TId < 0)
    return Errors;
  const ArrayRegion &R = D.Region;
  std::vector<char> Element(Dst.size() / E, 0);
  std::vector<unsigned char> Want(E);
  forEachLocal(
      B, TId, stridesOf(D.To, TId),
      [&](const std::vector<int64_t> &L, int64_t O) {
        Element[static_cast<size_t>(O)] = 1;
        const std::vector<int64_t> TI = globalOf(B, TId, L);
        std::vector<int64_t> SI(TI.size()), SK(TI.size());
        bool Inside = true;
        for (size_t T = 0; T < TI.size(); ++T) {
          const size_t Ax = static_cast<size_t>(R.Permutation[T]);
          const int64_t K = TI[T] - R.TargetBegin[T];
          Inside = Inside && K >= 0 && K < R.Extents[Ax];
          SI[Ax] = R.SourceBegin[Ax] + K;
          SK[Ax] = K;
        }
        Inside = Inside && inBand(R.Band, SK);
        const unsigned char *Got = Dst.data() + O * static_cast<int64_t>(E);
        if (!Inside) {
          if (std::memcmp(Got, Before.data() + O * static_cast<int64_t>(E),
                          E) != 0 &&
              Errors++ < 3)
            std::fprintf(stderr,
                         "rank %d: target offset %lld outside the section "
                         "was written\n",
                         Rank, static_cast<long long>(O));
          return;
        }
        ++Checked;
        elementValue(linear(A.extents(), SI), E, Want.data());
        if (std::memcmp(Got, Want.data(), E) != 0 && Errors++ < 3)
          std::fprintf(stderr,
                       "rank %d: target offset %lld does not hold source "
                       "element %lld\n",
                       Rank, static_cast<long long>(O),
                       static_cast<long long>(linear(A.extents(), SI)));
      });
  for (std::size_t O = 0; O < Element.size(); ++O)
    if (!Element[O] &&
        std::memcmp(Dst.data() + O * E, Before.data() + O * E, E) != 0 &&
        Errors++ < 3)
      std::fprintf(stderr, "rank %d: padding offset %zu was written\n", Rank,
                   O);
  return Errors;
}

/// The call must throw InvalidArgument on every rank, with Expect in it.
int64_t expectError(const std::string &Expect, const Drawn &D, int Rank) {
  std::string What = "(no error)";
  try {
    ArrayPlan Plan(D.From, D.To, D.E, MPI_COMM_WORLD, D.Region, D.Options,
                   D.Algo);
  } catch (const InvalidArgument &E) {
    What = E.what();
  }
  if (What.find(Expect) != std::string::npos) {
    if (Rank == 0)
      std::printf("error: %s\n", What.c_str());
    return 0;
  }
  std::fprintf(stderr, "rank %d: expected an error with '%s', got '%s'\n", Rank,
               Expect.c_str(), What.c_str());
  return 1;
}

int64_t runErrorCases(int Ranks, int Rank) {
  const ArrayLayout A(
      {6, 4, 5},
      {DimFormat::block(), DimFormat::collapsed(), DimFormat::cyclic()},
      {1, Ranks});
  const ArrayLayout B(
      {5, 6, 4},
      {DimFormat::collapsed(), DimFormat::cyclic(2), DimFormat::collapsed()},
      {Ranks});
  int64_t Errors = 0;
  Drawn D{{A, {}, {}}, {B, {}, {}}, {}, 8, {}, {Algorithm::Auto, false}, false};
  Errors += expectError("extents differ after the permutation", D, Rank);
  D.Region.Permutation = {2, 0, 0};
  Errors += expectError("the permutation is not one", D, Rank);
  D.Region.Permutation = {2, 0, 1};
  D.Region.Extents = {6, 4, 5};
  D.Region.TargetBegin = {0, 1, 0};
  Errors += expectError("target section of dimension 1", D, Rank);
  D.Region.TargetBegin = {};
  D.Algo = {Algorithm::WalkerOtto, false};
  Errors += expectError("walker_otto needs 1-D layouts", D, Rank);
  D.Algo = {Algorithm::Auto, false};
  // Strides only the last rank gets wrong: raised on every rank.
  if (Rank == Ranks - 1)
    D.To.LocalStrides = {1, 1, 1};
  Errors += expectError("target strides of rank " + std::to_string(Ranks - 1),
                        D, Rank);
  D.To.LocalStrides = {};
  // Different parameters on different ranks, with Verify.
  if (Ranks > 1) {
    D.Algo = {Rank == 0 ? Algorithm::Stepwise : Algorithm::Greedy, false};
    Errors += expectError("ranks were given different parameters: schedule "
                          "algorithm differs",
                          D, Rank);
  }
  return Errors;
}

/// Plan memory grows with runs, never with elements: a transposed cyclic
/// copy (every element its own run on one side) and a 3-D permutation must
/// hold far fewer copy-program entries than elements, and still move
/// every element right. Returns the errors.
int64_t checkPlanMemory(int Ranks, int Rank) {
  int64_t Errors = 0;
  const int64_t N = 96;
  const ArrayStorage C{StorageOrder::RowMajor, {}};
  struct Case {
    ArrayLayout From, To;
    std::vector<int> Perm;
  };
  const Case Cases[] = {
      {ArrayLayout({N, N}, {DimFormat::cyclic(), DimFormat::cyclic()},
                   {1, Ranks}, GridOrder::RowMajor, {}, C),
       ArrayLayout({N, N}, {DimFormat::cyclic(), DimFormat::cyclic()},
                   {Ranks, 1}, GridOrder::RowMajor, {}, C),
       {1, 0}},
      {ArrayLayout(
           {24, 20, 16},
           {DimFormat::collapsed(), DimFormat::block(), DimFormat::collapsed()},
           {Ranks}, GridOrder::RowMajor, {}, C),
       ArrayLayout(
           {16, 24, 20},
           {DimFormat::block(), DimFormat::collapsed(), DimFormat::collapsed()},
           {Ranks}, GridOrder::RowMajor, {}, C),
       {2, 0, 1}}};
  for (const Case &K : Cases) {
    Drawn D{{K.From, {}, {}},         {K.To, {}, {}}, {}, 8, {},
            {Algorithm::Auto, false}, false};
    D.Region.Permutation = K.Perm;
    D.Region = resolveRegion(K.From, K.To, D.Region);
    D.Options.Pack = Packing::Runs;
    D.Options.SharedMemory = false;
    int64_t Checked = 0, Direct = 0;
    Errors += runOne(D, Rank, Checked, Direct);
    ArrayPlan Plan(D.From, D.To, 8, MPI_COMM_WORLD, D.Region, D.Options);
    const int64_t Entries = sumOverRanks(Plan.programEntries());
    const int64_t Elements = K.From.elements();
    if (Rank == 0)
      std::printf("plan entries of %s -> %s: %lld for %lld elements\n",
                  K.From.str().c_str(), K.To.str().c_str(),
                  static_cast<long long>(Entries),
                  static_cast<long long>(Elements));
    if (Entries * 8 > Elements) {
      if (Rank == 0)
        std::fprintf(stderr, "plan memory grows with elements\n");
      ++Errors;
    }
  }
  return Errors;
}

/// Transposing copies at sizes the random draws do not reach: the kernels
/// walk a transposed message in tiles of cache lines (CopyKernels.cpp),
/// and these extents leave odd remainders in both directions of a tile and
/// of its blocks, for element sizes of one byte to 16 and one of no
/// kernel of its own (12), padded per-rank strides, a 3-D permutation
/// whose target-contiguous axis is the source's slowest, and every mode
/// (with targets in node memory, where they are permuted regions that must
/// not share the node's slabs, only the Unsynchronized mode, the one that
/// must share elsewhere: they cost most of the sweep's time). Arrays in
/// node memory as Node says (runOne). Returns the errors; prints the
/// configurations checked.
int64_t checkTransposes(int Ranks, int Rank, const SweepArgs &Args,
                        const NodeRun &Node) {
  struct Case {
    std::vector<int64_t> Extents; ///< the source's
    std::vector<DimFormat> From, To;
    std::vector<int> Perm;
    StorageOrder Storage;
    std::size_t E;
  };
  const DimFormat Star = DimFormat::collapsed();
  const Case Cases[] = {{{300, 203},
                         {DimFormat::block(), DimFormat::cyclic(7)},
                         {DimFormat::cyclic(5), Star},
                         {1, 0},
                         StorageOrder::ColumnMajor,
                         8},
                        {{203, 300},
                         {Star, DimFormat::block()},
                         {DimFormat::block(), Star},
                         {1, 0},
                         StorageOrder::RowMajor,
                         1},
                        {{261, 141},
                         {DimFormat::cyclic(64), Star},
                         {DimFormat::block(), Star},
                         {1, 0},
                         StorageOrder::ColumnMajor,
                         16},
                        {{141, 5, 133},
                         {DimFormat::block(), Star, Star},
                         {Star, DimFormat::block(), Star},
                         {1, 2, 0},
                         StorageOrder::RowMajor,
                         12},
                        {{133, 7, 141},
                         {Star, Star, DimFormat::cyclic(9)},
                         {DimFormat::cyclic(4), Star, Star},
                         {2, 1, 0},
                         StorageOrder::ColumnMajor,
                         4}};
  int64_t Errors = 0, Configs = 0;
  const std::vector<ExecMode> Modes =
      Node.Writes ? std::vector<ExecMode>{ExecMode::Unsynchronized}
                  : allExecModes();
  for (const Case &K : Cases) {
    const ArrayStorage S{K.Storage, {}};
    std::vector<int64_t> To(K.Extents.size());
    for (std::size_t T = 0; T < To.size(); ++T)
      To[T] = K.Extents[static_cast<std::size_t>(K.Perm[T])];
    // One distributed axis over all ranks, or two over 1 x Ranks.
    auto Grid = [&](const std::vector<DimFormat> &Fs) {
      const auto Distributed =
          std::count_if(Fs.begin(), Fs.end(),
                        [](const DimFormat &F) { return F.distributed(); });
      return Distributed == 1 ? std::vector<int64_t>{Ranks}
                              : std::vector<int64_t>{1, Ranks};
    };
    const ArrayLayout A(K.Extents, K.From, Grid(K.From), GridOrder::RowMajor,
                        {}, S);
    const ArrayLayout B(To, K.To, Grid(K.To), GridOrder::RowMajor, {}, S);
    for (ExecMode Mode : Modes) {
      Drawn D{{A, {}, {}}, {B, {}, {}}, {}, K.E, {}, {Algorithm::Auto, false},
              false};
      D.Region.Permutation = K.Perm;
      D.Region = resolveRegion(A, B, D.Region);
      D.Options.Mode = Mode;
      D.Options.Pack = Packing::Runs;
      if (Args.SingleCopyRunBytes)
        D.Options.SingleCopyRunBytes = *Args.SingleCopyRunBytes;
      // Padded strides on every other configuration: 3 more per axis.
      if (Configs % 2 == 1)
        for (ArraySide *Side : {&D.From, &D.To}) {
          const int64_t Id = idOf(*Side, Rank);
          if (Id < 0)
            continue;
          const std::vector<int64_t> Ext = Side->Layout.localExtents(Id);
          std::vector<int64_t> Str(Ext.size());
          int64_t Next = 1;
          for (std::size_t J = 0; J < Ext.size(); ++J) {
            const std::size_t X =
                K.Storage == StorageOrder::ColumnMajor ? J : Ext.size() - 1 - J;
            Str[X] = Next;
            Next *= std::max<int64_t>(1, Ext[X]) + 3;
          }
          Side->LocalStrides = Str;
        }
      int64_t Checked = 0, Direct = 0;
      try {
        Errors += runOne(D, Rank, Checked, Direct, Node);
      } catch (const std::exception &Ex) {
        std::fprintf(stderr, "rank %d transpose %lld: %s\n", Rank,
                     static_cast<long long>(Configs), Ex.what());
        ++Errors;
      }
      int64_t All = 1;
      for (int64_t X : K.Extents)
        All *= X;
      if (sumOverRanks(Checked) != All) {
        if (Rank == 0)
          std::fprintf(stderr, "transpose %lld: checked %lld of %lld\n",
                       static_cast<long long>(Configs),
                       static_cast<long long>(sumOverRanks(Checked)),
                       static_cast<long long>(All));
        ++Errors;
      }
      ++Configs;
    }
  }
  if (Rank == 0)
    std::printf("transposes: checked %lld configurations\n",
                static_cast<long long>(Configs));
  return Errors;
}

/// With --node-targets: a 3-D array whose slabs (the first two axes; the
/// third, collapsed, has stride 1 in row-major storage) the node's ranks
/// must share in the Unsynchronized mode without single copies on every
/// execute, on one node: [24, 20, 18] (block, cyclic(2), *) on 2 x 2 ranks
/// (on others, RANKS x 1) -> (cyclic(3), block, *) on 2 x 2 (1 x RANKS), so
/// that every rank sends to and receives from others, in 8- and 4-byte
/// elements. And where it must not: the same with one rank's target in
/// ordinary memory, and with the last two axes swapped (permuted). With
/// simulated nodes (--ranks-per-node) nothing must, and checkNodeWrites
/// reports any sharing. Every element checked. Returns the errors.
int64_t runKnownShares(int Ranks, int Rank, const SweepArgs &Args,
                       const NodeRun &Node) {
  const ArrayStorage C{StorageOrder::RowMajor, {}};
  const DimFormat Star = DimFormat::collapsed();
  const std::vector<int64_t> FromGrid =
      Ranks == 4 ? std::vector<int64_t>{2, 2} : std::vector<int64_t>{Ranks, 1};
  const std::vector<int64_t> ToGrid =
      Ranks == 4 ? std::vector<int64_t>{2, 2} : std::vector<int64_t>{1, Ranks};
  const ArrayLayout A({24, 20, 18},
                      {DimFormat::block(), DimFormat::cyclic(2), Star},
                      FromGrid, GridOrder::RowMajor, {}, C);
  struct Case {
    std::vector<int> Perm;
    std::size_t E;
    bool Private;
  };
  const Case Cases[] = {{{0, 1, 2}, 8, false},
                        {{0, 1, 2}, 4, false},
                        {{0, 1, 2}, 8, true},
                        {{0, 2, 1}, 8, false}};
  int64_t Errors = 0;
  for (const Case &K : Cases) {
    std::vector<int64_t> To(3);
    std::vector<DimFormat> Formats(3, Star);
    const DimFormat Along[] = {DimFormat::cyclic(3), DimFormat::block(), Star};
    for (std::size_t T = 0; T < 3; ++T) {
      To[T] = A.extents()[static_cast<std::size_t>(K.Perm[T])];
      Formats[T] = Along[static_cast<std::size_t>(K.Perm[T])];
    }
    // Permuted, the target's distributed axes are its first and last.
    const ArrayLayout B(To, Formats, ToGrid, GridOrder::RowMajor, {}, C);
    Drawn D{{A, {}, {}}, {B, {}, {}}, {}, K.E, {}, {Algorithm::Auto, false},
            false};
    D.Region.Permutation = K.Perm;
    D.Region = resolveRegion(A, B, D.Region);
    D.Options.Mode = ExecMode::Unsynchronized;
    D.Options.SingleCopyRunBytes = -1; // none: every message handed over
    D.Options.RanksPerNode = Args.RanksPerNode;
    NodeRun Run = Node;
    Run.HeapTarget = K.Private ? Ranks - 1 : -1;
    const bool Identity = std::is_sorted(K.Perm.begin(), K.Perm.end());
    Run.Must = !K.Private && Identity && Args.RanksPerNode == 0;
    Run.Tag = std::string(" (known, element ") + std::to_string(K.E) + " B" +
              (K.Private ? ", a private target" : "") +
              (Identity ? "" : ", permuted") + ")";
    int64_t Checked = 0, Direct = 0;
    try {
      Errors += runOne(D, Rank, Checked, Direct, Run);
    } catch (const std::exception &Ex) {
      std::fprintf(stderr, "rank %d known share%s: %s\n", Rank, Run.Tag.c_str(),
                   Ex.what());
      ++Errors;
    }
    const int64_t All = sumOverRanks(Checked);
    if (All != A.elements() && ++Errors && Rank == 0)
      std::fprintf(stderr, "known share%s: checked %lld of %lld\n",
                   Run.Tag.c_str(), static_cast<long long>(All),
                   static_cast<long long>(A.elements()));
  }
  return Errors;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const SweepArgs Args = parseSweepArgs(
      argc, argv,
      "usage: redist-array-sweep [--single-copy=B] [--ranks-per-node=K] "
      "[--ring-fails-on=R] [--node-memory] [--node-targets] RANKS SEED "
      "COUNT\n",
      0);
  const int Ranks = Args.Ranks;
  const uint64_t Seed = Args.Seed;
  const int Count = Args.Count;
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);

  std::mt19937_64 Rng(Seed);
  int64_t Errors = 0, Checked = 0, Expected = 0;
  std::map<std::string, int64_t> Seen;
  // Configurations whose plans moved messages by single copies: by mode,
  // and those with a sender's strides of its own.
  std::map<std::string, int64_t> DirectBy;
  int64_t DirectOwnStrides = 0;
  NodeReadTally NodeReads;
  NodeWriteTally NodeWrites;
  NodeRun Node;
  if (Args.NodeMemory)
    Node.Reads = &NodeReads;
  if (Args.NodeTargets)
    Node.Writes = &NodeWrites;
  if (Args.NodeTargets)
    Errors += runKnownShares(Ranks, Rank, Args, Node);
  for (int Config = 0; Config < Count; ++Config) {
    const int Dims = static_cast<int>(uniform(Rng, 1, 4));
    // Now and then larger, so that Packing::Auto picks datatypes for some
    // messages and copy loops for others, and transfers come in pieces.
    const bool Large = uniform(Rng, 0, 3) == 0;
    const int64_t Max = Dims <= 2   ? (Large ? 48 : 16)
                        : Dims == 3 ? (Large ? 14 : 8)
                                    : (Large ? 7 : 5);
    // Ranks: a random order; the target on the same ranks, a rotation of
    // them (overlapping) or the rest (disjoint).
    std::vector<int> Order(static_cast<std::size_t>(Ranks));
    std::iota(Order.begin(), Order.end(), 0);
    std::shuffle(Order.begin(), Order.end(), Rng);
    const int64_t Placement = Ranks >= 2 ? uniform(Rng, 0, 2) : 0;
    const int SourceProcs =
        Placement == 2 ? static_cast<int>(uniform(Rng, 1, Ranks - 1)) : Ranks;
    std::vector<int> TargetOrder = Order;
    if (Placement == 1)
      std::rotate(TargetOrder.begin(),
                  TargetOrder.begin() + uniform(Rng, 1, Ranks - 1),
                  TargetOrder.end());
    if (Placement == 2)
      TargetOrder.assign(Order.begin() + SourceProcs, Order.end());
    const std::vector<int64_t> SrcExt = randomExtents(Rng, Dims, Max);
    const std::vector<int> Perm = randomPermutation(Rng, Dims);
    const bool Whole = uniform(Rng, 0, 2) == 0;
    std::vector<int64_t> DstExt(static_cast<size_t>(Dims));
    for (int T = 0; T < Dims; ++T)
      DstExt[static_cast<size_t>(T)] =
          Whole ? SrcExt[static_cast<size_t>(Perm[static_cast<size_t>(T)])]
                : uniform(Rng, 0, Max);
    Drawn D{{randomArrayLayout(Rng, SrcExt, SourceProcs), {}, {}},
            {randomArrayLayout(Rng, DstExt,
                               static_cast<int64_t>(TargetOrder.size())),
             {},
             {}},
            {},
            8,
            {},
            {Algorithm::Auto, false},
            false};
    D.From.Ranks.assign(Order.begin(), Order.begin() + D.From.Layout.procs());
    D.To.Ranks.assign(TargetOrder.begin(),
                      TargetOrder.begin() + D.To.Layout.procs());
    D.Region.Permutation = Perm;
    if (!Whole)
      D.Region = randomSection(Rng, SrcExt, DstExt, Perm);
    D.Region = resolveRegion(D.From.Layout, D.To.Layout, D.Region);
    // A band of diagonals over two axes, now and then, drawn apart so that
    // the rest of the configuration stays as it was.
    std::mt19937_64 BandRng(Seed * 31 + static_cast<uint64_t>(Config));
    if (Dims >= 2 && uniform(BandRng, 0, 3) == 0) {
      D.Region.Band = randomBand(BandRng, D.Region.Extents);
      D.Region = resolveRegion(D.From.Layout, D.To.Layout, D.Region);
    }
    // Strides of each rank's own, padded, now and then.
    std::mt19937_64 Own(Rng() + static_cast<uint64_t>(Rank));
    for (ArraySide *S : {&D.From, &D.To}) {
      const int64_t Id = idOf(*S, Rank);
      if (Id < 0 || Own() % 3 != 0)
        continue;
      const ArrayLayout &L = S->Layout;
      std::vector<int64_t> Ext = L.localExtents(Id);
      std::vector<int64_t> Str(Ext.size());
      int64_t Next = 1;
      for (int J = 0; J < L.rank(); ++J) {
        const int K = L.storage().Order == StorageOrder::ColumnMajor
                          ? J
                          : L.rank() - 1 - J;
        Str[static_cast<size_t>(K)] = Next;
        Next *= std::max<int64_t>(1, Ext[static_cast<size_t>(K)]) +
                static_cast<int64_t>(Own() % 3);
      }
      S->LocalStrides = Str;
    }
    const std::size_t Sizes[] = {1, 2, 4, 8, 12, 16, 24};
    D.E = Sizes[uniform(Rng, 0, 6)];
    const std::vector<ExecMode> Modes = allExecModes();
    const std::vector<Packing> Packs = allPackings();
    D.Options.Mode = Modes[static_cast<std::size_t>(uniform(Rng, 0, 3))];
    D.Options.Pack = Packs[static_cast<std::size_t>(uniform(Rng, 0, 2))];
    if (D.Options.Mode == ExecMode::Overlapped)
      D.Options.Overlap =
          allOverlapOrders()[static_cast<std::size_t>(uniform(Rng, 0, 2))];
    if (uniform(Rng, 0, 4) == 0)
      D.Options.MaxTransferBytes = uniform(Rng, 1, 16) * 8;
    D.Options.RanksPerNode = static_cast<int>(uniform(Rng, 0, 2));
    if (Args.RanksPerNode > 0)
      D.Options.RanksPerNode = Args.RanksPerNode;
    D.Options.FailRingOnRank = Args.FailRingOnRank;
    if (Args.SingleCopyRunBytes)
      D.Options.SingleCopyRunBytes = *Args.SingleCopyRunBytes;
    const ArrayAlgorithm Any[] = {
        {Algorithm::Auto, false},        {Algorithm::Caterpillar, false},
        {Algorithm::Stepwise, false},    {Algorithm::Greedy, false},
        {Algorithm::Stepwise, true},     {Algorithm::Classes, true},
        {Algorithm::MinCostSteps, false}};
    D.Algo = Any[uniform(Rng, 0, 6)];
    if (!arrayAlgorithmApplies(D.Algo, D.From.Layout, D.To.Layout, D.Region) ||
        (D.Options.Mode == ExecMode::Overlapped &&
         D.Options.Overlap != OverlapOrder::Steps))
      D.Algo = {Algorithm::Auto, false};
    D.Steps = uniform(Rng, 0, 4) == 0;

    int64_t Elements = 1;
    for (size_t X = 0; X < D.Region.Extents.size(); ++X)
      if (!D.Region.Band || (static_cast<int>(X) != D.Region.Band->Row &&
                             static_cast<int>(X) != D.Region.Band->Col))
        Elements *= D.Region.Extents[X];
    if (D.Region.Band) {
      const ArrayBand &B = *D.Region.Band;
      int64_t InBand = 0;
      std::vector<int64_t> K(D.Region.Extents.size(), 0);
      for (K[static_cast<size_t>(B.Row)] = 0;
           K[static_cast<size_t>(B.Row)] <
           D.Region.Extents[static_cast<size_t>(B.Row)];
           ++K[static_cast<size_t>(B.Row)])
        for (K[static_cast<size_t>(B.Col)] = 0;
             K[static_cast<size_t>(B.Col)] <
             D.Region.Extents[static_cast<size_t>(B.Col)];
             ++K[static_cast<size_t>(B.Col)])
          InBand += inBand(D.Region.Band, K);
      Elements *= InBand;
    }
    int64_t Mine = 0, Direct = 0;
    // Every third configuration keeps one rank's target private.
    NodeRun Run = Node;
    Run.HeapTarget = Args.NodeTargets && Config % 3 == 2 ? Config % Ranks : -1;
    try {
      Errors += runOne(D, Rank, Mine, Direct, Run);
    } catch (const std::exception &Ex) {
      std::fprintf(stderr, "rank %d config %d: %s\n", Rank, Config, Ex.what());
      ++Errors;
    }
    Checked += Mine;
    Expected += Elements;
    if (sumOverRanks(Mine) != Elements) {
      if (Rank == 0)
        std::fprintf(stderr, "config %d: checked %lld of %lld elements\n",
                     Config, static_cast<long long>(sumOverRanks(Mine)),
                     static_cast<long long>(Elements));
      ++Errors;
    }
    if (sumOverRanks(Direct) > 0) {
      DirectBy[execModeName(D.Options.Mode)]++;
      DirectOwnStrides += sumOverRanks(!D.From.LocalStrides.empty()) > 0;
    }
    const bool Identity = std::is_sorted(Perm.begin(), Perm.end());
    Seen["rank " + std::to_string(Dims)]++;
    Seen[std::string("mode ") + execModeName(D.Options.Mode)]++;
    if (D.Options.Mode == ExecMode::Overlapped)
      Seen[std::string("order ") + overlapOrderName(D.Options.Overlap)]++;
    Seen[std::string("packing ") + packingName(D.Options.Pack)]++;
    Seen["algorithm " + arrayAlgorithmName(D.Algo)]++;
    Seen[Placement == 0   ? "same ranks"
         : Placement == 1 ? "overlapping"
                          : "disjoint"]++;
    Seen[Identity ? "unpermuted" : "permuted"]++;
    Seen[Whole ? "whole" : "section"]++;
    if (D.Region.Band)
      Seen["band"]++;
    for (const ArraySide *S : {&D.From, &D.To})
      for (const DimFormat &F : S->Layout.formats())
        Seen["format " + (F.kind() == DistKind::GenBlock && F.distributed()
                              ? std::string("gen_block")
                              : F.str().substr(0, F.str().find('(')))]++;
    Seen[D.From.Layout.storage().Order == StorageOrder::RowMajor
             ? "row-major storage"
             : "column-major storage"]++;
    if (!D.From.Layout.storage().Strides.empty() ||
        !D.To.Layout.storage().Strides.empty())
      Seen["padded strides"]++;
  }

  Errors += checkPlanMemory(Ranks, Rank);
  Errors += checkTransposes(Ranks, Rank, Args, Node);
  Errors += runErrorCases(Ranks, Rank);

  const int64_t Total = sumOverRanks(Errors);
  const int64_t AllChecked = sumOverRanks(Checked);
  if (Rank == 0) {
    std::printf("redist-array-sweep: %d ranks, seed %llu: checked %d "
                "configurations (%lld of %lld elements), %lld errors\n",
                Ranks, static_cast<unsigned long long>(Seed), Count,
                static_cast<long long>(AllChecked),
                static_cast<long long>(Expected),
                static_cast<long long>(Total));
    std::printf("covered:");
    for (const auto &[Name, N] : Seen)
      std::printf(" [%s] %lld", Name.c_str(), static_cast<long long>(N));
    std::printf("\n");
    std::printf("single copies:");
    for (ExecMode M : allExecModes())
      std::printf(" %s %lld", execModeName(M),
                  static_cast<long long>(DirectBy[execModeName(M)]));
    std::printf("; with a sender's own strides %lld\n",
                static_cast<long long>(DirectOwnStrides));
  }
  if (Args.NodeMemory) {
    NodeReads.sum();
    if (Rank == 0)
      NodeReads.print();
  }
  if (Args.NodeTargets) {
    NodeWrites.sum();
    if (Rank == 0)
      NodeWrites.print();
  }
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
