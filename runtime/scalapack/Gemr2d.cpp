//===- Gemr2d.cpp - ScaLAPACK's PxGEMR2D on redist's matrix plans ---------===//
//
// A call learns the two grids from the BLACS, but a process outside a grid
// only has CTXT = -1 for it: so the processes of GCONTEXT first exchange
// what each knows (its place in each grid, its descriptors and arguments)
// in one MPI_Allgather. Every rank then holds the same table, derives both
// layouts and the ranks of their processes from it, checks it, and looks it
// up in the plan cache; hits and misses are thus the same on every rank.
// The communicator is GCONTEXT's processes, created once per context.
//
//===----------------------------------------------------------------------===//
#include "redist/scalapack.h"

#include "Blacs.h"

#include "redist/runtime/MatrixPlan.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace redist;

/// ScaLAPACK's descriptor entries.
enum Desc { Dtype, Ctxt, DescM, DescN, Mb, Nb, Rsrc, Csrc, Lld, DescLen };

/// What one process contributes to the table: per grid, whether it is in
/// it, its coordinates, the grid's shape and the descriptor from M to LLD;
/// then the call's sizes and offsets.
constexpr int PerGrid = 5 + 7;
constexpr int RowLen = 2 * PerGrid + 6;

/// GCONTEXT's processes as a communicator, created on first use.
MPI_Comm contextComm(int Context) {
  int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
  Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
  if (MyRow < 0 || MyCol < 0)
    return MPI_COMM_NULL;
  int System = 0;
  Cblacs_get(Context, 10, &System);
  std::vector<int> Members;
  for (int R = 0; R < NpRow; ++R)
    for (int C = 0; C < NpCol; ++C)
      Members.push_back(Cblacs_pnum(Context, R, C));
  std::sort(Members.begin(), Members.end());
  Members.push_back(System); // the key: the members in that system context
  static std::map<std::vector<int>, MPI_Comm> Comms;
  auto It = Comms.find(Members);
  if (It != Comms.end())
    return It->second;
  MPI_Comm SystemComm = Cblacs2sys_handle(System);
  MPI_Group All, Mine;
  MPI_Comm_group(SystemComm, &All);
  MPI_Group_incl(All, static_cast<int>(Members.size()) - 1, Members.data(),
                 &Mine);
  MPI_Comm Comm = MPI_COMM_NULL;
  MPI_Comm_create_group(SystemComm, Mine, 15, &Comm);
  MPI_Group_free(&Mine);
  MPI_Group_free(&All);
  Comms.emplace(std::move(Members), Comm);
  return Comm;
}

/// This process's entries for one grid.
void describeGrid(const int *Descriptor, long long *Out) {
  std::fill(Out, Out + PerGrid, -1);
  Out[0] = 0;
  if (Descriptor[Ctxt] < 0)
    return;
  int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
  Cblacs_gridinfo(Descriptor[Ctxt], &NpRow, &NpCol, &MyRow, &MyCol);
  if (MyRow < 0 || MyCol < 0)
    return;
  Out[0] = 1;
  Out[1] = MyRow;
  Out[2] = MyCol;
  Out[3] = NpRow;
  Out[4] = NpCol;
  for (int I = DescM; I < DescLen; ++I)
    Out[5 + I - DescM] = Descriptor[I];
}

/// One grid's side of the plan, from the table; throws InvalidArgument
/// naming the first inconsistency.
MatrixSide sideOf(const char *Name, const std::vector<long long> &Table,
                  int Ranks, int Offset, int MyRank) {
  const long long *First = nullptr;
  for (int R = 0; R < Ranks && !First; ++R)
    if (Table[static_cast<std::size_t>(R * RowLen + Offset)] == 1)
      First = &Table[static_cast<std::size_t>(R * RowLen + Offset)];
  if (!First)
    throw InvalidArgument(std::string("no process of GCONTEXT is in the "
                                      "grid of ") +
                          Name);
  const long long NpRow = First[3], NpCol = First[4];
  for (int I = 0; I < 6; ++I)
    if (First[5 + I] < 0 || (I >= 2 && I < 4 && First[5 + I] == 0))
      throw InvalidArgument(std::string("DESC") + Name + " entry " +
                            std::to_string(DescM + I + 1) + " is " +
                            std::to_string(First[5 + I]));
  Layout2D L = Layout2D::blockCyclic(First[5], First[6], NpRow, NpCol, First[7],
                                     First[8], First[9], First[10]);
  MatrixSide S{L, std::vector<int>(static_cast<std::size_t>(L.procs()), -1), 0};
  for (int R = 0; R < Ranks; ++R) {
    const long long *Row =
        &Table[static_cast<std::size_t>(R * RowLen + Offset)];
    if (Row[0] != 1)
      continue;
    for (int I = 3; I < 11; ++I)
      if (Row[I] != First[I])
        throw InvalidArgument(
            std::string("the processes of ") + Name + "'s grid disagree on " +
            (I < 5 ? std::string("its shape")
                   : "DESC" + std::string(Name) + "(" +
                         std::to_string(I - 5 + DescM + 1) + ")") +
            ": " + std::to_string(First[I]) + " and " + std::to_string(Row[I]));
    const int64_t Id = L.procAt(Row[1], Row[2]);
    if (S.Ranks[static_cast<std::size_t>(Id)] != -1)
      throw InvalidArgument(
          std::string("two processes claim (") + std::to_string(Row[1]) + ", " +
          std::to_string(Row[2]) + ") of " + Name + "'s grid");
    S.Ranks[static_cast<std::size_t>(Id)] = R;
    const int64_t Need = std::max<int64_t>(1, L.localRows(Id));
    if (Row[11] < Need)
      throw InvalidArgument("LLD of " + std::string(Name) + " is " +
                            std::to_string(Row[11]) + " on process (" +
                            std::to_string(Row[1]) + ", " +
                            std::to_string(Row[2]) + "), below its " +
                            std::to_string(Need) + " local rows");
    if (R == MyRank)
      S.LocalLeadingDim = Row[11];
  }
  for (int Rank : S.Ranks)
    if (Rank < 0)
      throw InvalidArgument(std::string("a process of ") + Name +
                            "'s grid is not in GCONTEXT");
  return S;
}

/// The plans, most recently used first.
struct CachedPlan {
  std::vector<long long> Key;
  MatrixPlan Plan;
};
constexpr std::size_t CacheSize = 16;
std::list<CachedPlan> Cache;
long long PlansBuilt = 0, PlansReused = 0;

bool tracing() {
  static const bool On = std::getenv("REDIST_SCALAPACK_TRACE") != nullptr;
  return On;
}

void gemr2d(const char *Routine, std::size_t ElementBytes, int M, int N,
            const void *A, int IA, int JA, const int *DescA, void *B, int IB,
            int JB, const int *DescB, int GContext) {
  MPI_Comm Comm = contextComm(GContext);
  if (Comm == MPI_COMM_NULL || M == 0 || N == 0)
    return;
  int Ranks = 0, Rank = 0;
  MPI_Comm_size(Comm, &Ranks);
  MPI_Comm_rank(Comm, &Rank);
  std::vector<long long> Mine(RowLen);
  describeGrid(DescA, Mine.data());
  describeGrid(DescB, Mine.data() + PerGrid);
  long long *Args = Mine.data() + 2 * PerGrid;
  Args[0] = M;
  Args[1] = N;
  Args[2] = IA;
  Args[3] = JA;
  Args[4] = IB;
  Args[5] = JB;
  std::vector<long long> Table(static_cast<std::size_t>(Ranks) * RowLen);
  MPI_Allgather(Mine.data(), RowLen, MPI_LONG_LONG, Table.data(), RowLen,
                MPI_LONG_LONG, Comm);
  std::vector<long long> Key = Table;
  Key.push_back(static_cast<long long>(ElementBytes));
  Key.push_back(GContext);
  auto Hit = std::find_if(Cache.begin(), Cache.end(),
                          [&](const CachedPlan &C) { return C.Key == Key; });
  const bool Cached = Hit != Cache.end();
  if (Cached) {
    Cache.splice(Cache.begin(), Cache, Hit);
    ++PlansReused;
  } else {
    try {
      MatrixSide From = sideOf("A", Table, Ranks, 0, Rank);
      MatrixSide To = sideOf("B", Table, Ranks, PerGrid, Rank);
      MatrixRegion Region;
      Region.Rows = M;
      Region.Cols = N;
      Region.SourceRow = IA - 1;
      Region.SourceCol = JA - 1;
      Region.TargetRow = IB - 1;
      Region.TargetCol = JB - 1;
      // Every rank derived the same parameters from the same table.
      PlanOptions Options;
      Options.Verify = false;
      Cache.push_front(
          {Key, MatrixPlan(From, To, ElementBytes, Comm, Region, Options)});
    } catch (const InvalidArgument &E) {
      if (Rank == 0)
        std::fprintf(stderr, "redist_scalapack: %s: %s\n", Routine, E.what());
      MPI_Abort(Comm, 1);
    }
    ++PlansBuilt;
    if (Cache.size() > CacheSize)
      Cache.pop_back();
  }
  const MatrixPlan &Plan = Cache.front().Plan;
  if (tracing() && Rank == 0)
    std::fprintf(
        stderr, "redist_scalapack: %s %d x %d: %s plan (%s, %zu steps)\n",
        Routine, M, N, Cached ? "cached" : "new",
        Plan.schedule().Algorithm.c_str(), Plan.schedule().Steps.size());
  Plan.execute(A, B);
}

} // namespace

extern "C" {

void Cpdgemr2d(int M, int N, double *A, int IA, int JA, int *DescA, double *B,
               int IB, int JB, int *DescB, int GContext) {
  gemr2d("pdgemr2d", sizeof(double), M, N, A, IA, JA, DescA, B, IB, JB, DescB,
         GContext);
}
void Cpsgemr2d(int M, int N, float *A, int IA, int JA, int *DescA, float *B,
               int IB, int JB, int *DescB, int GContext) {
  gemr2d("psgemr2d", sizeof(float), M, N, A, IA, JA, DescA, B, IB, JB, DescB,
         GContext);
}
void Cpzgemr2d(int M, int N, void *A, int IA, int JA, int *DescA, void *B,
               int IB, int JB, int *DescB, int GContext) {
  gemr2d("pzgemr2d", 2 * sizeof(double), M, N, A, IA, JA, DescA, B, IB, JB,
         DescB, GContext);
}
void Cpcgemr2d(int M, int N, void *A, int IA, int JA, int *DescA, void *B,
               int IB, int JB, int *DescB, int GContext) {
  gemr2d("pcgemr2d", 2 * sizeof(float), M, N, A, IA, JA, DescA, B, IB, JB,
         DescB, GContext);
}
void Cpigemr2d(int M, int N, int *A, int IA, int JA, int *DescA, int *B, int IB,
               int JB, int *DescB, int GContext) {
  gemr2d("pigemr2d", sizeof(int), M, N, A, IA, JA, DescA, B, IB, JB, DescB,
         GContext);
}

// Fortran: every argument by reference.
void pdgemr2d_(int *M, int *N, double *A, int *IA, int *JA, int *DescA,
               double *B, int *IB, int *JB, int *DescB, int *GContext) {
  Cpdgemr2d(*M, *N, A, *IA, *JA, DescA, B, *IB, *JB, DescB, *GContext);
}
void psgemr2d_(int *M, int *N, float *A, int *IA, int *JA, int *DescA, float *B,
               int *IB, int *JB, int *DescB, int *GContext) {
  Cpsgemr2d(*M, *N, A, *IA, *JA, DescA, B, *IB, *JB, DescB, *GContext);
}
void pzgemr2d_(int *M, int *N, void *A, int *IA, int *JA, int *DescA, void *B,
               int *IB, int *JB, int *DescB, int *GContext) {
  Cpzgemr2d(*M, *N, A, *IA, *JA, DescA, B, *IB, *JB, DescB, *GContext);
}
void pcgemr2d_(int *M, int *N, void *A, int *IA, int *JA, int *DescA, void *B,
               int *IB, int *JB, int *DescB, int *GContext) {
  Cpcgemr2d(*M, *N, A, *IA, *JA, DescA, B, *IB, *JB, DescB, *GContext);
}
void pigemr2d_(int *M, int *N, int *A, int *IA, int *JA, int *DescA, int *B,
               int *IB, int *JB, int *DescB, int *GContext) {
  Cpigemr2d(*M, *N, A, *IA, *JA, DescA, B, *IB, *JB, DescB, *GContext);
}

void redist_scalapack_stats(long long *Plans, long long *Reused) {
  if (Plans)
    *Plans = PlansBuilt;
  if (Reused)
    *Reused = PlansReused;
}

} // extern "C"
