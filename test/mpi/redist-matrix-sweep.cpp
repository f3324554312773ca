//===- redist-matrix-sweep.cpp - Random end-to-end matrix redistributions -===//
//
//   mpirun -np R redist-matrix-sweep [--node-memory] [--node-targets]
//                                    RANKS SEED COUNT [MAX_DIM]
//
// Draws COUNT random matrix redistributions from SEED (the same on every
// rank): source and target grids of up to RANKS processes each, placed on
// the same, overlapping or disjoint ranks in any order; CYCLIC(k) or BLOCK
// on each axis; either grid order and storage order; first-process offsets;
// padded leading dimensions that differ per rank; a whole matrix or a
// random sub-matrix into a random place of a target of another size;
// sometimes transposed, sometimes only a band of diagonals (a trapezoid);
// element sizes of 1 to 24 bytes; every mode, packing and a schedule algorithm
// that applies; sometimes small transfer limits, one rank per node or
// step-by-step execution. Each configuration also runs in the Overlapped mode,
// its order in turn the drawn algorithm's steps compacted, overlap or
// overlap-split; its events must be a valid overlapped schedule of the region's
// grid counted element by element, and its buffers hold at most the largest
// part a rank sends and the largest it receives. Every target element is
// checked: those of the region hold their source element, all others (padding
// included) are untouched, and the ranks together checked exactly the region's
// elements. Then invalid parameter sets, some on one rank only, must throw on
// every rank, with Verify and without. Prints a summary of what was covered;
// exits 1 on any error. COUNT 0 runs the invalid parameter sets alone. With
// --node-memory every source lies in node memory, and the plans must read
// it directly where NodeReads.h says; it prints which did. With
// --node-targets every target lies there too (one rank's in ordinary
// memory in every third configuration), known cases that must share the
// node's slabs run too (knownShares), and no plan may share them where
// NodeReads.h says it must not; it prints which did. Every target lies
// between guards that must stay intact. The options of SweepConfig.h
// (--ranks-per-node=K and the others) go to every plan.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "NodeReads.h"
#include "SweepConfig.h"
#include "redist/OverlapSchedule.h"
#include "redist/runtime/MatrixPlan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

/// Byte B of the source element (I, J), or of the untouched target
/// storage at Offset (Tag 1): distinct enough that a misplaced element is
/// seen.
unsigned char byteOf(uint64_t I, uint64_t J, uint64_t B, uint64_t Tag) {
  uint64_t X = I * 0x9E3779B97F4A7C15ull ^
               (J + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
  X ^= (B + 1) * 0x94D049BB133111EBull + Tag * 0x2545F4914F6CDD1Dull;
  X ^= X >> 31;
  X *= 0xD6E8FEB86659FD93ull;
  X ^= X >> 29;
  return static_cast<unsigned char>(X);
}

struct Drawn {
  int64_t M, N, TM, TN;
  MatrixRegion Region;
  std::size_t E;
  PlanOptions Options;
  Algorithm2D Algo{Algorithm::Auto, false};
  bool Steps = false;
  std::string Placement;
};

class Sweep {
public:
  Sweep(int Ranks, uint64_t Seed, int64_t MaxDim)
      : Ranks(Ranks), MaxDim(MaxDim), Rng(Seed) {}

  int64_t uniform(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }
  bool coin(int Percent) { return uniform(0, 99) < Percent; }

  /// A grid of at most Ranks processes, with its ranks.
  MatrixSide side(int64_t M, int64_t N, const std::vector<int> &Ranks0,
                  int Procs, int Me) {
    int64_t P0 = uniform(1, Procs);
    int64_t P1 = uniform(1, Procs / P0);
    auto Axis = [&](int64_t P, int64_t Extent) {
      if (coin(15))
        return Layout(Distribution::block(P), Extent);
      int64_t K = coin(30) ? uniform(1, 3)
                           : uniform(1, std::max<int64_t>(1, Extent / 2 + 1));
      return Layout(Distribution::cyclic(P, K), Extent);
    };
    Layout Rows = Axis(P0, M), Cols = Axis(P1, N);
    LocalStorage S;
    S.Order = coin(25) ? StorageOrder::RowMajor : StorageOrder::ColumnMajor;
    Layout2D L(Rows, Cols,
               coin(30) ? GridOrder::ColumnMajor : GridOrder::RowMajor,
               uniform(0, P0 - 1), uniform(0, P1 - 1), S);
    MatrixSide Side{L, {}, 0};
    Side.Ranks.assign(Ranks0.begin(), Ranks0.begin() + P0 * P1);
    // Leading dimensions padded per rank: each rank draws its own.
    std::mt19937_64 Own(Rng() + static_cast<uint64_t>(Me));
    int64_t Id = -1;
    for (std::size_t I = 0; I < Side.Ranks.size(); ++I)
      if (Side.Ranks[I] == Me)
        Id = static_cast<int64_t>(I);
    if (Id >= 0 && Own() % 2 == 0)
      Side.LocalLeadingDim = L.leadingDim(Id) + static_cast<int64_t>(Own() % 5);
    return Side;
  }

  int Ranks;
  int64_t MaxDim;
  std::mt19937_64 Rng;
};

int64_t localLD(const MatrixSide &S, int64_t Id) {
  return S.LocalLeadingDim > 0 ? S.LocalLeadingDim : S.Layout.leadingDim(Id);
}

int64_t offsetOf(const Layout2D &L, int64_t LD, int64_t R, int64_t C) {
  return L.storage().Order == StorageOrder::ColumnMajor ? R + C * LD
                                                        : R * LD + C;
}

int64_t storageOf(const Layout2D &L, int64_t Id, int64_t LD) {
  int64_t R = L.localRows(Id), C = L.localCols(Id);
  if (R == 0 || C == 0)
    return 0;
  return L.storage().Order == StorageOrder::ColumnMajor ? (C - 1) * LD + R
                                                        : (R - 1) * LD + C;
}

int64_t idOf(const MatrixSide &S, int Rank) {
  for (std::size_t I = 0; I < S.Ranks.size(); ++I)
    if (S.Ranks[I] == Rank)
      return static_cast<int64_t>(I);
  return -1;
}

/// Whether element (I, J) of the region (its source sub-matrix's indices)
/// moves: inside its band of diagonals.
bool inBand(const MatrixRegion &R, int64_t I, int64_t J) {
  return I - J >= R.DiagonalBegin && I - J < R.DiagonalEnd;
}

/// The elements of the region that move.
int64_t regionElements(const MatrixRegion &R) {
  int64_t N = 0;
  for (int64_t I = 0; I < R.Rows; ++I)
    for (int64_t J = 0; J < R.Cols; ++J)
      N += inBand(R, I, J);
  return N;
}

/// The region's communication grid over grid processes, counted element by
/// element.
CommGrid countRegionGrid(const MatrixSide &From, const MatrixSide &To,
                         const MatrixRegion &R) {
  std::map<std::pair<int64_t, int64_t>, int64_t> Count;
  for (int64_t I = 0; I < R.Rows; ++I)
    for (int64_t J = 0; J < R.Cols; ++J) {
      if (!inBand(R, I, J))
        continue;
      const int64_t TI = R.TargetRow + (R.Transpose ? J : I);
      const int64_t TJ = R.TargetCol + (R.Transpose ? I : J);
      ++Count[{From.Layout.toLocal(R.SourceRow + I, R.SourceCol + J).Proc,
               To.Layout.toLocal(TI, TJ).Proc}];
    }
  CommGrid G;
  G.P = From.Layout.procs();
  G.Q = To.Layout.procs();
  for (const auto &[Pair, Len] : Count) // sorted by source, then target
    G.Messages.push_back({Pair.first, Pair.second, Len});
  return G;
}

int64_t rankOf(const MatrixSide &S, int64_t Id) {
  return S.Ranks.empty() ? Id : S.Ranks[static_cast<std::size_t>(Id)];
}

/// The Overlapped mode's own checks of Pl: its events form a valid
/// overlapped schedule of the region's grid, and its buffers hold at most
/// the largest part this rank sends to another rank and the largest it
/// receives. Adds the messages between two ranks that move in several parts
/// to Splits; returns the errors.
int64_t checkOverlapped(const MatrixPlan &Pl, const MatrixSide &From,
                        const MatrixSide &To, const Drawn &D, int Rank,
                        int64_t &Splits) {
  const CommGrid G = countRegionGrid(From, To, D.Region);
  const OverlapSchedule &S = Pl.overlapSchedule();
  if (std::optional<std::string> Why = validateOverlapSchedule(G, S)) {
    std::fprintf(stderr, "rank %d: invalid overlapped schedule: %s\n", Rank,
                 Why->c_str());
    return 1;
  }
  int64_t MaxSend = 0, MaxRecv = 0;
  std::vector<int64_t> Parts(G.Messages.size(), 0);
  for (const OverlapEvent &E : S.Events) {
    const Message &M = G.Messages[static_cast<std::size_t>(E.Msg)];
    const int64_t SrcRank = rankOf(From, M.Src), DstRank = rankOf(To, M.Dst);
    if (SrcRank == DstRank)
      continue; // a local copy
    if (++Parts[static_cast<std::size_t>(E.Msg)] == 2)
      ++Splits; // moves in parts
    if (SrcRank == Rank)
      MaxSend = std::max(MaxSend, E.Len);
    if (DstRank == Rank)
      MaxRecv = std::max(MaxRecv, E.Len);
  }
  const std::size_t Bound = static_cast<std::size_t>(MaxSend + MaxRecv) * D.E;
  if (Pl.bufferBytes() <= Bound)
    return 0;
  std::fprintf(stderr, "rank %d: overlapped buffers %zu bytes, bound %zu\n",
               Rank, Pl.bufferBytes(), Bound);
  return 1;
}

/// Runs one configuration; returns this rank's errors and adds the region
/// elements it checked to Checked (and in the Overlapped mode, the messages
/// between ranks that move in parts to Splits). The target lies between
/// guards, which must stay intact; Node says where the arrays lie and what
/// else to check (NodeReads.h).
int64_t runOne(const MatrixSide &From, const MatrixSide &To, const Drawn &D,
               int Rank, int64_t &Checked, int64_t &Splits,
               const test::NodeRun &Node) {
  const std::size_t E = D.E;
  const int64_t SId = idOf(From, Rank), TId = idOf(To, Rank);
  const Layout2D &A = From.Layout, &B = To.Layout;
  test::SourceBytes Src(
      SId >= 0
          ? static_cast<std::size_t>(storageOf(A, SId, localLD(From, SId))) * E
          : 0,
      MPI_COMM_WORLD, Node.Reads != nullptr);
  test::GuardedTarget Dst(
      TId >= 0
          ? static_cast<std::size_t>(storageOf(B, TId, localLD(To, TId))) * E
          : 0,
      MPI_COMM_WORLD, Node.Writes != nullptr, Rank == Node.HeapTarget);
  if (SId >= 0) {
    const int64_t LD = localLD(From, SId);
    std::fill(Src.data(), Src.data() + Src.size(), 0xEE);
    auto [GR, GC] = A.coordsOf(SId);
    const int64_t RR = A.rowRankOf(GR), CR = A.colRankOf(GC);
    for (int64_t C = 0; C < A.localCols(SId); ++C)
      for (int64_t R = 0; R < A.localRows(SId); ++R) {
        int64_t I = A.rows().toGlobal(RR, R), J = A.cols().toGlobal(CR, C);
        for (std::size_t Bt = 0; Bt < E; ++Bt)
          Src.data()[static_cast<std::size_t>(offsetOf(A, LD, R, C)) * E + Bt] =
              byteOf(static_cast<uint64_t>(I), static_cast<uint64_t>(J), Bt, 0);
      }
  }
  int64_t TLD = 0;
  // Before each run: what a run leaves behind must not pass for the next.
  auto FillTarget = [&] {
    for (std::size_t O = 0; TId >= 0 && O < Dst.size(); ++O)
      Dst.data()[O] = byteOf(O / E, 7, O % E, 1);
  };
  if (TId >= 0)
    TLD = localLD(To, TId);
  if (std::getenv("SWEEP_VERBOSE") && Rank == 0)
    std::fprintf(stderr,
                 "%s -> %s, region %lldx%lld (%lld,%lld) -> (%lld,%lld)%s, "
                 "%zu bytes, %s%s%s/%s, %s\n",
                 A.str().c_str(), B.str().c_str(),
                 static_cast<long long>(D.Region.Rows),
                 static_cast<long long>(D.Region.Cols),
                 static_cast<long long>(D.Region.SourceRow),
                 static_cast<long long>(D.Region.SourceCol),
                 static_cast<long long>(D.Region.TargetRow),
                 static_cast<long long>(D.Region.TargetCol),
                 D.Region.Transpose ? " transposed" : "", E,
                 execModeName(D.Options.Mode),
                 D.Options.Mode == ExecMode::Overlapped ? " " : "",
                 D.Options.Mode == ExecMode::Overlapped
                     ? overlapOrderName(D.Options.Overlap)
                     : "",
                 packingName(D.Options.Pack), algorithm2DName(D.Algo).c_str());
  MatrixPlan Plan(From, To, E, MPI_COMM_WORLD, D.Region, D.Options, D.Algo);
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
  if (D.Options.Mode == ExecMode::Overlapped)
    Errors += checkOverlapped(Plan, From, To, D, Rank, Splits);
  // Twice: a plan runs many times.
  for (int Run = 0; Run < 2; ++Run) {
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
  Errors += test::checkArrayNodeRun(
      Plan, Node, D.Steps, D.Region.Transpose || D.Region.banded(), Src, Dst,
      [&](int64_t Id) { return rankOf(From, Id); },
      [&](int64_t Id) { return rankOf(To, Id); },
      A.str() + " -> " + B.str() + Node.Tag);
  if (TId < 0)
    return Errors;
  auto [GR, GC] = B.coordsOf(TId);
  const int64_t RR = B.rowRankOf(GR), CR = B.colRankOf(GC);
  const MatrixRegion &Rg = D.Region;
  std::vector<char> Expected(Dst.size() / std::max<std::size_t>(E, 1), 0);
  for (int64_t C = 0; C < B.localCols(TId); ++C)
    for (int64_t R = 0; R < B.localRows(TId); ++R) {
      const int64_t I = B.rows().toGlobal(RR, R), J = B.cols().toGlobal(CR, C);
      const int64_t TR = Rg.Transpose ? Rg.Cols : Rg.Rows;
      const int64_t TC = Rg.Transpose ? Rg.Rows : Rg.Cols;
      if (I < Rg.TargetRow || I >= Rg.TargetRow + TR || J < Rg.TargetCol ||
          J >= Rg.TargetCol + TC)
        continue;
      int64_t SI = Rg.SourceRow + (I - Rg.TargetRow);
      int64_t SJ = Rg.SourceCol + (J - Rg.TargetCol);
      if (Rg.Transpose) {
        SI = Rg.SourceRow + (J - Rg.TargetCol);
        SJ = Rg.SourceCol + (I - Rg.TargetRow);
      }
      if (!inBand(Rg, SI - Rg.SourceRow, SJ - Rg.SourceCol))
        continue;
      const int64_t O = offsetOf(B, TLD, R, C);
      Expected[static_cast<std::size_t>(O)] = 1;
      ++Checked;
      for (std::size_t Bt = 0; Bt < E; ++Bt)
        if (Dst.data()[static_cast<std::size_t>(O) * E + Bt] !=
            byteOf(static_cast<uint64_t>(SI), static_cast<uint64_t>(SJ), Bt,
                   0)) {
          if (Errors++ < 3)
            std::fprintf(stderr,
                         "rank %d: target (%lld, %lld) at offset %lld does "
                         "not hold source (%lld, %lld)\n",
                         Rank, static_cast<long long>(I),
                         static_cast<long long>(J), static_cast<long long>(O),
                         static_cast<long long>(SI),
                         static_cast<long long>(SJ));
          break;
        }
    }
  for (std::size_t O = 0; O < Expected.size(); ++O)
    if (!Expected[O])
      for (std::size_t Bt = 0; Bt < E; ++Bt)
        if (Dst.data()[O * E + Bt] != byteOf(O, 7, Bt, 1)) {
          if (Errors++ < 3)
            std::fprintf(stderr,
                         "rank %d: target offset %zu outside the region was "
                         "written\n",
                         Rank, O);
          break;
        }
  return Errors;
}

/// Each call must throw InvalidArgument on every rank, with Expect in it.
int64_t expectError(const std::string &Expect, const MatrixSide &From,
                    const MatrixSide &To, const MatrixRegion &Region, int Rank,
                    const PlanOptions &Options = PlanOptions(),
                    Algorithm2D Algo = {Algorithm::Auto, false}) {
  std::string What = "(no error)";
  try {
    MatrixPlan P(From, To, 8, MPI_COMM_WORLD, Region, Options, Algo);
  } catch (const InvalidArgument &E) {
    What = E.what();
  }
  const bool Ok = What.find(Expect) != std::string::npos;
  if (!Ok)
    std::fprintf(stderr, "rank %d: expected an error with '%s', got '%s'\n",
                 Rank, Expect.c_str(), What.c_str());
  if (Rank == 0 && Ok)
    std::printf("error%s: %s\n", Options.Verify ? "" : " without verify",
                What.c_str());
  return Ok ? 0 : 1;
}

/// Invalid parameters: every rank throws, naming the value, before any
/// communication but the agreement. Values invalid on some ranks only are
/// raised on every rank with Verify and without.
int64_t runErrorCases(int Ranks, int Rank) {
  int64_t Errors = 0;
  Layout2D L = Layout2D::blockCyclic(10, 10, 1, Ranks, 2, 2);
  MatrixSide Ok{L, {}, 0};
  MatrixRegion Out;
  Out.Rows = 5;
  Out.Cols = 5;
  Out.SourceRow = 7;
  Errors += expectError("source rows 7", Ok, Ok, Out, Rank);
  MatrixSide Dup = Ok;
  Dup.Ranks.assign(static_cast<std::size_t>(Ranks), 0);
  if (Ranks > 1)
    Errors += expectError("holds two source processes", Dup, Ok, MatrixRegion(),
                          Rank);
  PlanOptions Split;
  Split.Mode = ExecMode::Overlapped;
  Split.Overlap = OverlapOrder::OverlapSplit;
  Errors += expectError("overlap order overlap-split makes its own schedule: "
                        "the schedule algorithm must be auto, not stepwise",
                        Ok, Ok, MatrixRegion(), Rank, Split,
                        {Algorithm::Stepwise, false});
  Split.Mode = ExecMode::Unsynchronized;
  Errors += expectError("overlap order overlap-split needs the overlapped "
                        "execution mode, not unsync",
                        Ok, Ok, MatrixRegion(), Rank, Split);
  for (bool Verify : {true, false}) {
    PlanOptions O;
    O.Verify = Verify;
    // A leading dimension below the 10 local rows, on the last rank, then
    // on ranks 1 and 3: only those ranks can see it.
    const std::string Last = std::to_string(Ranks - 1);
    MatrixSide BadLD = Ok;
    if (Rank == Ranks - 1)
      BadLD.LocalLeadingDim = 1;
    Errors +=
        expectError((Ranks > 1 ? "on rank " + Last + ": " : std::string()) +
                        "the source leading dimension 1 of rank " + Last +
                        " is below its 10 local rows",
                    BadLD, Ok, MatrixRegion(), Rank, O);
    if (Ranks >= 4) {
      MatrixSide Two = Ok;
      if (Rank == 1 || Rank == 3)
        Two.LocalLeadingDim = 9;
      Errors += expectError("on ranks 1 and 3; on rank 1: the target leading "
                            "dimension 9 of rank 1 is below its 10 local rows",
                            Ok, Two, MatrixRegion(), Rank, O);
    }
  }
  if (Ranks > 1) {
    // Verify names the parameter that differs and its range.
    MatrixRegion Part;
    Part.Rows = Rank == Ranks - 1 ? 6 : 5;
    Part.Cols = 4;
    Errors += expectError("verify: ranks were given different parameters: "
                          "region rows differs (from 5 to 6); this rank has " +
                              std::to_string(Part.Rows),
                          Ok, Ok, Part, Rank);
    MatrixSide Reordered = Ok;
    for (int R = 0; R < Ranks; ++R)
      Reordered.Ranks.push_back(Rank == 0 ? Ranks - 1 - R : R);
    Errors += expectError("verify: ranks were given different parameters: "
                          "target ranks of the grid processes differs at "
                          "entry 0 (from 0 to " +
                              std::to_string(Ranks - 1) + ")",
                          Ok, Reordered, MatrixRegion(), Rank);
  }
  return Errors;
}

/// A case whose plan must, or must not, share the node's slabs.
struct KnownShare {
  MatrixSide From, To;
  Drawn D;
  bool Must;    ///< on one node, with every array in shared node memory
  bool Private; ///< the last rank's target in ordinary memory
  std::string Tag;
};

/// With --node-targets: column-major matrices whose slabs (columns: the
/// rows have stride 1, per-rank leading dimensions too) the node's ranks
/// must share in the Unsynchronized mode without single copies, on every
/// execute: 300 x 300 on 2 x 2 ranks (on others, RANKS x 1) in blocks of
/// 32 -> 100 (8-byte elements), of 64 (on others, 48) -> 64 on 4 x 1
/// (4-byte) and on 1 x 4 (16-byte; RANKS x 1 and 1 x RANKS), and a 200 x 180
/// sub-matrix from (17, 5) into (30, 40) of a 260 x 250 target, each rank
/// with leading dimensions 3 + its rank above its local rows. Every rank
/// sends to and receives from others. And where they must not: the first
/// transposed, or in a band, or with the last rank's target in ordinary
/// memory.
std::vector<KnownShare> knownShares(int Ranks, int Rank) {
  const int64_t Square0 = Ranks == 4 ? 2 : Ranks, Square1 = Ranks / Square0;
  std::vector<int> All(static_cast<std::size_t>(Ranks));
  std::iota(All.begin(), All.end(), 0);
  auto Side = [&](int64_t M, int64_t N, int64_t P0, int64_t P1, int64_t MB,
                  int64_t NB, bool OwnLD) {
    MatrixSide S{Layout2D::blockCyclic(M, N, P0, P1, MB, NB), All, 0};
    if (OwnLD)
      S.LocalLeadingDim = S.Layout.leadingDim(Rank) + 3 + Rank;
    return S;
  };
  auto Whole = [](int64_t M, int64_t N, std::size_t E) {
    Drawn D{M,
            N,
            M,
            N,
            MatrixRegion(),
            E,
            PlanOptions(),
            {Algorithm::Auto, false},
            false,
            "same ranks"};
    D.Region.Rows = M;
    D.Region.Cols = N;
    return D;
  };
  std::vector<KnownShare> Cases;
  const MatrixSide Small = Side(300, 300, Square0, Square1, 32, 32, false);
  Cases.push_back({Small, Side(300, 300, Square0, Square1, 100, 100, false),
                   Whole(300, 300, 8), true, false, ""});
  // On RANKS x 1 blocks of 64 would stay where they are on RANKS x 1.
  const int64_t Block = Ranks == 4 ? 64 : 48;
  const MatrixSide Big = Side(300, 300, Square0, Square1, Block, Block, false);
  Cases.push_back({Big, Side(300, 300, Ranks, 1, 64, 64, false),
                   Whole(300, 300, 4), true, false, ""});
  Cases.push_back({Big, Side(300, 300, 1, Ranks, 64, 64, false),
                   Whole(300, 300, 16), true, false, ""});
  KnownShare Sub{Side(300, 300, Square0, Square1, 32, 32, true),
                 Side(260, 250, Square0, Square1, 100, 100, true),
                 Whole(300, 300, 8),
                 true,
                 false,
                 ", own leading dimensions"};
  Sub.D.TM = 260;
  Sub.D.TN = 250;
  Sub.D.Region.Rows = 200;
  Sub.D.Region.Cols = 180;
  Sub.D.Region.SourceRow = 17;
  Sub.D.Region.SourceCol = 5;
  Sub.D.Region.TargetRow = 30;
  Sub.D.Region.TargetCol = 40;
  Cases.push_back(Sub);
  KnownShare Transposed = Cases[0];
  Transposed.D.Region.Transpose = true;
  Transposed.Must = false;
  Transposed.Tag = ", transposed";
  Cases.push_back(Transposed);
  KnownShare Band = Cases[0];
  Band.D.Region.DiagonalBegin = -40;
  Band.D.Region.DiagonalEnd = 70;
  Band.Must = false;
  Band.Tag = ", a band";
  Cases.push_back(Band);
  KnownShare Private = Cases[0];
  Private.Private = true;
  Private.Must = false;
  Private.Tag = ", a private target";
  Cases.push_back(Private);
  for (KnownShare &K : Cases) {
    K.D.Options.Mode = ExecMode::Unsynchronized;
    K.D.Options.SingleCopyRunBytes = -1; // none: every message handed over
    K.Tag = " (known, element " + std::to_string(K.D.E) + " B" + K.Tag + ")";
  }
  return Cases;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  // MAX_DIM is the sweeps' MAX_N.
  const test::SweepArgs Args = test::parseSweepArgs(
      argc, argv,
      "usage: redist-matrix-sweep [--ranks-per-node=K] [--ring-fails-on=R] "
      "[--single-copy=B] [--node-memory] [--node-targets] RANKS SEED COUNT "
      "[MAX_DIM]\n",
      40);
  const int Ranks = Args.Ranks;
  const uint64_t Seed = Args.Seed;
  const int Count = Args.Count;
  const int64_t MaxDim = Args.MaxN;
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);

  Sweep S(Ranks, Seed, MaxDim);
  int64_t Errors = 0, Checked = 0, Expected = 0, Splits = 0;
  std::map<std::string, int64_t> Seen;
  test::NodeReadTally NodeReads;
  test::NodeWriteTally NodeWrites;
  test::NodeRun Node;
  if (Args.NodeMemory)
    Node.Reads = &NodeReads;
  if (Args.NodeTargets)
    Node.Writes = &NodeWrites;
  // Runs and checks configuration Config, its arrays where Where says, and
  // counts it.
  auto Run = [&](const MatrixSide &From, const MatrixSide &To, const Drawn &D,
                 int Config, const test::NodeRun &Where) {
    const int64_t Elements = regionElements(D.Region);
    int64_t Mine = 0;
    try {
      Errors += runOne(From, To, D, Rank, Mine, Splits, Where);
    } catch (const std::exception &Ex) {
      std::fprintf(stderr, "rank %d config %d: %s\n", Rank, Config, Ex.what());
      ++Errors;
    }
    Checked += Mine;
    Expected += Elements;
    int64_t All = 0;
    MPI_Allreduce(&Mine, &All, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (All != Elements) {
      if (Rank == 0)
        std::fprintf(stderr, "config %d: checked %lld of %lld elements\n",
                     Config, static_cast<long long>(All),
                     static_cast<long long>(Elements));
      ++Errors;
    }
    Seen[std::string("mode ") + execModeName(D.Options.Mode)]++;
    Seen[std::string("packing ") + packingName(D.Options.Pack)]++;
    Seen["algorithm " + algorithm2DName(D.Algo)]++;
  };
  for (int Config = 0; Config < Count; ++Config) {
    Drawn D;
    D.M = S.uniform(0, MaxDim);
    D.N = S.uniform(0, MaxDim);
    // Ranks: a random order; the target grid starts at the same rank
    // (overlapping), or after the source's (disjoint) where both fit.
    std::vector<int> Order(static_cast<std::size_t>(Ranks));
    std::iota(Order.begin(), Order.end(), 0);
    if (S.coin(60))
      std::shuffle(Order.begin(), Order.end(), S.Rng);
    const bool Disjoint = Ranks >= 2 && S.coin(30);
    const int SourceProcs =
        Disjoint ? static_cast<int>(S.uniform(1, Ranks - 1)) : Ranks;
    MatrixSide From = S.side(D.M, D.N, Order, SourceProcs, Rank);
    // The region and the target's size.
    MatrixRegion &R = D.Region;
    if (S.coin(35) || D.M == 0 || D.N == 0) {
      R.Rows = D.M;
      R.Cols = D.N;
    } else {
      R.Rows = S.uniform(0, D.M);
      R.Cols = S.uniform(0, D.N);
      R.SourceRow = S.uniform(0, D.M - R.Rows);
      R.SourceCol = S.uniform(0, D.N - R.Cols);
    }
    R.Transpose = S.coin(30);
    const int64_t NeedRows = R.Transpose ? R.Cols : R.Rows;
    const int64_t NeedCols = R.Transpose ? R.Rows : R.Cols;
    const bool Whole =
        !R.Transpose && R.Rows == D.M && R.Cols == D.N && S.coin(50);
    D.TM = Whole ? D.M : NeedRows + S.uniform(0, 8);
    D.TN = Whole ? D.N : NeedCols + S.uniform(0, 8);
    if (!Whole) {
      R.TargetRow = S.uniform(0, D.TM - NeedRows);
      R.TargetCol = S.uniform(0, D.TN - NeedCols);
    }
    std::vector<int> TargetOrder = Order;
    if (Disjoint)
      TargetOrder.assign(Order.begin() + SourceProcs, Order.end());
    MatrixSide To = S.side(D.TM, D.TN, TargetOrder,
                           static_cast<int>(TargetOrder.size()), Rank);
    if (S.coin(20))
      To.Ranks.clear(),
          To.Ranks.assign(TargetOrder.begin(),
                          TargetOrder.begin() + To.Layout.procs());
    const std::size_t Sizes[] = {1, 2, 4, 8, 12, 16, 24};
    D.E = Sizes[S.uniform(0, 6)];
    const std::vector<ExecMode> Modes = allExecModes();
    const std::vector<Packing> Packs = allPackings();
    D.Options.Mode = Modes[static_cast<std::size_t>(S.uniform(0, 2))];
    D.Options.Pack = Packs[static_cast<std::size_t>(S.uniform(0, 2))];
    if (S.coin(20))
      D.Options.MaxTransferBytes = S.uniform(1, 64) * 8;
    D.Options.RanksPerNode = static_cast<int>(S.uniform(0, 2));
    // The command line's options override the draws (which stay drawn, so
    // that each seed's configurations do not change).
    if (Args.RanksPerNode > 0)
      D.Options.RanksPerNode = Args.RanksPerNode;
    D.Options.FailRingOnRank = Args.FailRingOnRank;
    if (Args.SingleCopyRunBytes)
      D.Options.SingleCopyRunBytes = *Args.SingleCopyRunBytes;
    const bool WholeRegion = !R.Transpose && R.Rows == D.M && R.Cols == D.N &&
                             D.M == D.TM && D.N == D.TN && R.TargetRow == 0 &&
                             R.TargetCol == 0;
    const Algorithm2D Any[] = {{Algorithm::Auto, false},
                               {Algorithm::Caterpillar, false},
                               {Algorithm::Stepwise, false},
                               {Algorithm::Greedy, false}};
    D.Algo = Any[S.uniform(0, 3)];
    if (WholeRegion && S.coin(30)) {
      Algorithm2D Product{Algorithm::Stepwise, true};
      if (algorithm2DApplies(Product, From.Layout, To.Layout))
        D.Algo = Product;
    }
    D.Steps = S.coin(20);
    // A band of diagonals (a trapezoid): either edge, or both.
    const bool Band = R.Rows > 0 && R.Cols > 0 && !D.Algo.Product && S.coin(25);
    if (Band) {
      if (S.coin(70))
        R.DiagonalBegin = S.uniform(-R.Cols - 1, R.Rows);
      if (S.coin(70))
        R.DiagonalEnd = S.uniform(
            std::max<int64_t>(-R.Cols, std::min<int64_t>(R.DiagonalBegin, 0)),
            R.Rows + 1);
    }
    // Every third configuration keeps one rank's target private.
    test::NodeRun Where = Node;
    Where.HeapTarget =
        Args.NodeTargets && Config % 3 == 2 ? Config % Ranks : -1;
    Run(From, To, D, Config, Where);
    // The same configuration in the Overlapped mode, its order in turn.
    Drawn O = D;
    O.Options.Mode = ExecMode::Overlapped;
    O.Options.Overlap =
        allOverlapOrders()[static_cast<std::size_t>(Config % 3)];
    if (O.Options.Overlap != OverlapOrder::Steps)
      O.Algo = {Algorithm::Auto, false}; // the order makes its own schedule
    Run(From, To, O, Config, Where);
    Seen[std::string("order ") + overlapOrderName(O.Options.Overlap)]++;
    Seen[Disjoint ? "disjoint" : "overlapping"]++;
    Seen[R.Transpose ? "transposed" : "straight"]++;
    Seen[WholeRegion ? "whole" : "sub-matrix"]++;
    if (R.banded())
      Seen["band"]++;
  }

  // Whole slices of small blocks rarely need splitting: a matrix whose
  // overlap-split schedule splits messages between ranks, its parts cut
  // into pieces, copied by loops and by datatypes, on the same ranks and,
  // where there are enough, on disjoint ones.
  if (Count > 0 && Ranks >= 4) {
    Drawn D;
    D.M = D.TM = 36;
    D.N = D.TN = 27;
    D.Region.Rows = 36;
    D.Region.Cols = 27;
    D.E = 8;
    D.Options.Mode = ExecMode::Overlapped;
    D.Options.Overlap = OverlapOrder::OverlapSplit;
    const MatrixSide From{
        Layout2D::blockCyclic(36, 27, 1, 4, 5, 3), {0, 1, 2, 3}, 0};
    MatrixSide To{Layout2D::blockCyclic(36, 27, 3, 1, 1, 4), {0, 1, 2}, 0};
    for (Packing K : {Packing::Runs, Packing::Datatypes}) {
      D.Options.Pack = K;
      D.Options.MaxTransferBytes = K == Packing::Runs ? 64 : 0;
      Run(From, To, D, Count, Node);
    }
    if (Ranks >= 7) {
      To.Ranks = {4, 5, 6};
      D.Options.Pack = Packing::Auto;
      Run(From, To, D, Count, Node);
    }
  }

  // Known cases that must share the node's slabs, and some that must not:
  // on one node, each must on every execute (NodeReads.h).
  if (Args.NodeTargets)
    for (KnownShare &K : knownShares(Ranks, Rank)) {
      K.D.Options.RanksPerNode = Args.RanksPerNode;
      test::NodeRun Where = Node;
      Where.Must = K.Must && Args.RanksPerNode == 0;
      Where.HeapTarget = K.Private ? Ranks - 1 : -1;
      Where.Tag = K.Tag;
      Run(K.From, K.To, K.D, Count, Where);
    }

  Errors += runErrorCases(Ranks, Rank);

  int64_t Total = 0;
  MPI_Allreduce(&Errors, &Total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  int64_t AllChecked = 0;
  MPI_Allreduce(&Checked, &AllChecked, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (Rank == 0) {
    std::printf("redist-matrix-sweep: %d ranks, seed %llu: checked %d "
                "configurations (%lld of %lld elements), %lld errors\n",
                Ranks, static_cast<unsigned long long>(Seed), Count,
                static_cast<long long>(AllChecked),
                static_cast<long long>(Expected),
                static_cast<long long>(Total));
    std::printf("covered:");
    for (const auto &[Name, N] : Seen)
      std::printf(" [%s] %lld", Name.c_str(), static_cast<long long>(N));
    std::printf("\noverlapped messages in parts: %lld\n",
                static_cast<long long>(Splits));
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
