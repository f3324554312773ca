//===- redist-matrix-bench.cpp - Matrix redistribution against its peers --===//
//
//   mpirun -np 4 redist-matrix-bench N REPS
//
// Moves an N x N matrix of doubles on 4 ranks in three configurations
// (2x2 -> 4x1 with 64x64 -> 64x64 blocks; 2x2 -> 2x2 with 32x32 -> 100x100;
// 2x2 with 64x64 blocks -> 1x4 with N x N/4 blocks, a square grid to 1-D
// columns) with:
//   redist     a MatrixPlan, built once (plan time reported apart), its
//              source and target in node memory (NodeMemory.h): where the
//              node memory is shared it must read the node's messages
//              straight from their senders' sources in every run, or the
//              benchmark fails;
//   redist-private
//              the same plan on a source and target in ordinary memory: the
//              shared-memory handover, what redist was before node memory;
//   overlapped the same in the Overlapped mode, overlap-split's order (no
//              steps: each rank starts its next message as soon as the one
//              before in that direction is done), on the node memory too;
//   scalapack  ScaLAPACK's Cpdgemr2d (plans inside every call);
//   alltoallw  one MPI_Alltoallw, a derived datatype per peer and side:
//              the peer's rows of this rank's local rows (an indexed type)
//              times the peer's columns (an hindexed type of those), the
//              intersection that MPI_Type_create_darray describes within
//              the global array, built over the local arrays.
// The peers use ordinary memory. The methods alternate within each
// repetition (after a barrier), so load changes hit all of them alike; the
// time of one repetition is the slowest rank's. Before timing, every
// method's target arrays are compared with redist-private's, bit for bit. Each
// repetition also times the two references (bench/reference): one core's memcpy
// of the whole matrix (N*N doubles, on rank 0) and the parallel copy limit
// (every rank copies its own target share at once, the slowest rank's time).
// Each repetition runs the references and methods in an order of its own
// (RoundOrder.h), so that none always follows the references' copies. Prints
// min and median per method, their ratios to redist, the medians' ratios to
// both references, and for the methods on node memory in how many
// repetitions the node's ranks shared the writing of their targets
// (node_writes, Plan::nodeWrites(); "-" for the others).
//
//===----------------------------------------------------------------------===//
#include "BenchmarkHeap.h"
#include "Blacs.h"
#include "CopyReference.h"
#include "MatrixBenchConfigs.h"
#include "NodeReads.h"
#include "RoundOrder.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/NodeMemory.h"
#include "redist/scalapack.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace redist;
using redist::bench::MemcpyReference;
using redist::bench::ParallelCopyLimit;

namespace {

using bench::Config;

int Rank = 0;

double now() { return MPI_Wtime(); }

/// The slowest rank's time of F.
double timed(const std::function<void()> &F) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double T0 = now();
  F();
  double T = now() - T0, Max = 0;
  MPI_Allreduce(&T, &Max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Max;
}

std::pair<double, double> minMedian(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return {V.front(), V[V.size() / 2]};
}

/// The Alltoallw peer's datatypes over the local arrays of L (as seen from
/// this rank, process Me) for every process of Other: elements of this
/// rank's part that Other's process q holds, in global column-major order.
std::vector<MPI_Datatype> intersectionTypes(const Layout2D &Mine,
                                            const Layout2D &Other, int Me) {
  std::vector<MPI_Datatype> Types;
  auto [GR, GC] = Mine.coordsOf(Me);
  const int64_t RR = Mine.rowRankOf(GR), CR = Mine.colRankOf(GC);
  const int64_t LocR = Mine.localRows(Me), LocC = Mine.localCols(Me);
  const int64_t LD = Mine.leadingDim(Me);
  for (int64_t Q = 0; Q < Other.procs(); ++Q) {
    // Plain copies: C++17 lambdas cannot capture structured bindings.
    const std::pair<int64_t, int64_t> Coords = Other.coordsOf(Q);
    const int64_t QR = Coords.first, QC = Coords.second;
    // Local rows (columns) of mine that q's grid row (column) holds.
    auto Runs = [&](int64_t Count, auto Holds) {
      std::vector<int> Starts, Lens;
      for (int64_t L = 0; L < Count; ++L)
        if (Holds(L)) {
          if (!Lens.empty() && Starts.back() + Lens.back() == L)
            ++Lens.back();
          else {
            Starts.push_back(static_cast<int>(L));
            Lens.push_back(1);
          }
        }
      return std::make_pair(Starts, Lens);
    };
    auto Rows = Runs(LocR, [&](int64_t L) {
      return Other.gridRowOf(Other.rows().owner(Mine.rows().toGlobal(RR, L))) ==
             QR;
    });
    auto Cols = Runs(LocC, [&](int64_t L) {
      return Other.gridColOf(Other.cols().owner(Mine.cols().toGlobal(CR, L))) ==
             QC;
    });
    MPI_Datatype Column, Type;
    MPI_Type_indexed(static_cast<int>(Rows.first.size()), Rows.second.data(),
                     Rows.first.data(), MPI_DOUBLE, &Column);
    std::vector<MPI_Aint> Displs;
    std::vector<int> Ones;
    for (std::size_t I = 0; I < Cols.first.size(); ++I)
      for (int C = 0; C < Cols.second[I]; ++C) {
        Displs.push_back(static_cast<MPI_Aint>(Cols.first[I] + C) * LD *
                         static_cast<MPI_Aint>(sizeof(double)));
        Ones.push_back(1);
      }
    MPI_Type_create_hindexed(static_cast<int>(Displs.size()), Ones.data(),
                             Displs.data(), Column, &Type);
    MPI_Type_commit(&Type);
    MPI_Type_free(&Column);
    Types.push_back(Type);
  }
  return Types;
}

void fill(const Layout2D &L, int Me, std::vector<double> &A) {
  auto [GR, GC] = L.coordsOf(Me);
  const int64_t RR = L.rowRankOf(GR), CR = L.colRankOf(GC);
  const int64_t LD = L.leadingDim(Me);
  for (int64_t C = 0; C < L.localCols(Me); ++C)
    for (int64_t R = 0; R < L.localRows(Me); ++R)
      A[static_cast<std::size_t>(R + C * LD)] =
          static_cast<double>(L.rows().toGlobal(RR, R)) * 1e5 +
          static_cast<double>(L.cols().toGlobal(CR, C));
}

Layout2D sourceLayout(const Config &C, int64_t N) {
  return Layout2D::blockCyclic(N, N, C.From.P0, C.From.P1, C.From.MB,
                               C.From.NB);
}

Layout2D targetLayout(const Config &C, int64_t N) {
  return Layout2D::blockCyclic(N, N, C.To.P0, C.To.P1, C.To.MB, C.To.NB);
}

/// NodeIn, NodeOut: node memory for the source and the target, at least as
/// large as From's and To's storage, allocated once for every configuration.
void runConfig(const Config &C, int64_t N, int Reps, NodeArray<double> &NodeIn,
               NodeArray<double> &NodeOut) {
  const Layout2D From = sourceLayout(C, N);
  const Layout2D To = targetLayout(C, N);
  std::vector<double> Src(static_cast<std::size_t>(From.storageSize(Rank)));
  std::vector<double> Dst(static_cast<std::size_t>(To.storageSize(Rank)));
  std::vector<double> Check(Dst.size());
  fill(From, Rank, Src);
  std::copy(Src.begin(), Src.end(), NodeIn.begin());
  const double *NodeSrc = NodeIn.data();
  double *NodeDst = NodeOut.data();

  // Plan time: several builds.
  std::vector<double> PlanTimes;
  for (int I = 0; I < 5; ++I)
    PlanTimes.push_back(timed([&] {
      MatrixPlan P(MatrixSide{From, {}, 0}, MatrixSide{To, {}, 0},
                   sizeof(double), MPI_COMM_WORLD);
    }));
  MatrixPlan Plan(MatrixSide{From, {}, 0}, MatrixSide{To, {}, 0},
                  sizeof(double), MPI_COMM_WORLD);
  // A plan of its own, so that neither sees the other's source change
  // from one run to the next.
  MatrixPlan Private(MatrixSide{From, {}, 0}, MatrixSide{To, {}, 0},
                     sizeof(double), MPI_COMM_WORLD);
  PlanOptions InOrder;
  InOrder.Mode = ExecMode::Overlapped;
  InOrder.Overlap = OverlapOrder::OverlapSplit;
  MatrixPlan Overlapped(MatrixSide{From, {}, 0}, MatrixSide{To, {}, 0},
                        sizeof(double), MPI_COMM_WORLD, MatrixRegion(),
                        InOrder);

  int System = 0;
  Cblacs_get(-1, 0, &System);
  int All = System, CA = System, CB = System;
  Cblacs_gridinit(&All, "R", 1, 4);
  Cblacs_gridinit(&CA, "R", C.From.P0, C.From.P1);
  Cblacs_gridinit(&CB, "R", C.To.P0, C.To.P1);
  int DescA[9] = {1,
                  CA,
                  static_cast<int>(N),
                  static_cast<int>(N),
                  C.From.MB,
                  C.From.NB,
                  0,
                  0,
                  static_cast<int>(From.leadingDim(Rank))};
  int DescB[9] = {1,
                  CB,
                  static_cast<int>(N),
                  static_cast<int>(N),
                  C.To.MB,
                  C.To.NB,
                  0,
                  0,
                  static_cast<int>(To.leadingDim(Rank))};

  std::vector<MPI_Datatype> SendTypes = intersectionTypes(From, To, Rank);
  std::vector<MPI_Datatype> RecvTypes = intersectionTypes(To, From, Rank);
  std::vector<int> Counts(4, 1), Displs(4, 0);

  const int In = static_cast<int>(N);
  // Target: where it writes, Dst or (on node memory) NodeDst; NodePlan: its
  // plan, where it runs on node memory.
  struct Method {
    std::string Name;
    double *Target;
    std::function<void()> Run;
    const redist::Plan *NodePlan = nullptr;
    int64_t WritesBefore = 0; ///< NodePlan's nodeWrites() before the timing
  };
  std::vector<Method> Methods = {
      {"redist", NodeDst, [&] { Plan.execute(NodeSrc, NodeDst); },
       &Plan.plan()},
      {"redist-private", Dst.data(),
       [&] { Private.execute(Src.data(), Dst.data()); }},
      {"overlapped", NodeDst, [&] { Overlapped.execute(NodeSrc, NodeDst); },
       &Overlapped.plan()},
      {"scalapack", Dst.data(),
       [&] {
         Cpdgemr2d(In, In, Src.data(), 1, 1, DescA, Dst.data(), 1, 1, DescB,
                   All);
       }},
      {"alltoallw", Dst.data(), [&] {
         MPI_Alltoallw(Src.data(), Counts.data(), Displs.data(),
                       SendTypes.data(), Dst.data(), Counts.data(),
                       Displs.data(), RecvTypes.data(), MPI_COMM_WORLD);
       }}};

  // Every method must leave redist-private's result, bit for bit, in every
  // element of its target.
  Private.execute(Src.data(), Dst.data());
  Check = Dst;
  const int64_t ReadsBefore = Plan.plan().nodeReads();
  for (Method &M : Methods) {
    std::fill(M.Target, M.Target + Dst.size(), -1.0);
    M.Run();
    int Same =
        std::memcmp(M.Target, Check.data(), Dst.size() * sizeof(double)) == 0;
    int AllSame = 0;
    MPI_Allreduce(&Same, &AllSame, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!AllSame) {
      if (Rank == 0)
        std::fprintf(stderr, "%s: %s differs from redist-private\n", C.Name,
                     M.Name.c_str());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (M.NodePlan)
      M.WritesBefore = M.NodePlan->nodeWrites();
  }

  MemcpyReference Memcpy(MPI_COMM_WORLD, N * N * 8);
  ParallelCopyLimit Limit(MPI_COMM_WORLD,
                          static_cast<int64_t>(Dst.size() * sizeof(double)));
  Memcpy.time();
  Limit.time();
  std::vector<double> MemcpyTimes, LimitTimes;
  std::vector<std::vector<double>> Times(Methods.size());
  // Entries 0 and 1 of a repetition are the references, then the methods,
  // in an order of the repetition's own, the same on every rank
  // (RoundOrder.h).
  for (int R = 0; R < Reps; ++R)
    for (std::size_t K :
         bench::roundOrder(2 + Methods.size(), static_cast<std::size_t>(R))) {
      if (K == 0)
        MemcpyTimes.push_back(Memcpy.time());
      else if (K == 1)
        LimitTimes.push_back(Limit.time());
      else
        Times[K - 2].push_back(timed(Methods[K - 2].Run));
    }
  // redist ran once in the check above and once per repetition.
  const std::string Missed =
      bench::missedNodeReads("redist", Plan.plan(), ReadsBefore, Reps + 1,
                             NodeIn.shared(), MPI_COMM_WORLD);
  if (!Missed.empty()) {
    if (Rank == 0)
      std::fprintf(stderr, "redist-matrix-bench: error: %s: %s\n", C.Name,
                   Missed.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::vector<std::string> Writes;
  for (const Method &M : Methods)
    Writes.push_back(M.NodePlan
                         ? std::to_string(bench::nodeWritesSince(
                               *M.NodePlan, M.WritesBefore, MPI_COMM_WORLD))
                         : "-");

  if (Rank == 0) {
    auto [PlanMin, PlanMed] = minMedian(PlanTimes);
    const double MemcpyMed = minMedian(MemcpyTimes).second;
    const double LimitMed = minMedian(LimitTimes).second;
    std::printf("%s, N = %lld: plan %.2f ms (min) %.2f ms (median); memcpy "
                "(one core) median %.2f ms; copy limit (all ranks at once) "
                "median %.2f ms\n",
                C.Name, static_cast<long long>(N), PlanMin * 1e3, PlanMed * 1e3,
                MemcpyMed * 1e3, LimitMed * 1e3);
    const auto [RMin, RMed] = minMedian(Times[0]);
    for (std::size_t M = 0; M < Methods.size(); ++M) {
      auto [Min, Med] = minMedian(Times[M]);
      std::printf("  %-14s min %8.2f ms  median %8.2f ms  min/redist %5.2f  "
                  "median/redist %5.2f  x_memcpy %5.2f  x_limit %5.2f  "
                  "node_writes %s\n",
                  Methods[M].Name.c_str(), Min * 1e3, Med * 1e3, Min / RMin,
                  Med / RMed, Med / MemcpyMed, Med / LimitMed,
                  Writes[M].c_str());
    }
    std::fflush(stdout);
  }
  for (MPI_Datatype &T : SendTypes)
    MPI_Type_free(&T);
  for (MPI_Datatype &T : RecvTypes)
    MPI_Type_free(&T);
  for (int Ctx : {CA, CB, All})
    if (Ctx >= 0)
      Cblacs_gridexit(Ctx);
}

} // namespace

int main(int argc, char **argv) {
  redist::bench::setUpBenchmarkHeap();
  MPI_Init(&argc, &argv);
  int Size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Size != 4 || argc < 3) {
    if (Rank == 0)
      std::fprintf(stderr,
                   "usage: mpirun -np 4 redist-matrix-bench N REPS "
                   "(this job has %d ranks)\n",
                   Size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int64_t N = std::atoll(argv[1]);
  const int Reps = std::atoi(argv[2]);
  const std::vector<Config> Configs =
      bench::matrixBenchConfigs(static_cast<int>(N));
  int64_t SourceSize = 0, TargetSize = 0;
  for (const Config &C : Configs) {
    SourceSize = std::max(SourceSize, sourceLayout(C, N).storageSize(Rank));
    TargetSize = std::max(TargetSize, targetLayout(C, N).storageSize(Rank));
  }
  {
    // Freed before MPI is.
    NodeArray<double> NodeIn(MPI_COMM_WORLD,
                             static_cast<std::size_t>(SourceSize));
    NodeArray<double> NodeOut(MPI_COMM_WORLD,
                              static_cast<std::size_t>(TargetSize));
    if (Rank == 0)
      std::printf("%s\n", bench::nodeMemoryNote(NodeIn.shared()).c_str());
    for (const Config &C : Configs)
      runConfig(C, N, Reps, NodeIn, NodeOut);
  }
  MPI_Finalize();
  return 0;
}
