//===- Gemr2d.cpp - ScaLAPACK's PxGEMR2D on redist's matrix plans ---------===//
//
// A call learns the two grids from the BLACS, but a process outside a grid
// only has CTXT = -1 for it: so the processes of ICTXT first exchange
// what each knows (its place in each grid, its descriptors and arguments)
// in one MPI_Allgather. Every rank then holds the same table, derives both
// layouts and the ranks of their processes from it, checks it, and looks it
// up in the plan cache; hits and misses are thus the same on every rank.
// The communicator is ICTXT's processes, created once per context.
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

/// ScaLAPACK's names of the descriptor entries, without the matrix's letter.
const char *const EntryNames[DescLen] = {
    "DTYPE_", "CTXT_", "M_", "N_", "MB_", "NB_", "RSRC_", "CSRC_", "LLD_"};

/// What one process contributes to the table: per grid, whether it is in
/// it, its coordinates, the grid's shape, the descriptor from M to LLD and
/// DTYPE; then the call's sizes and offsets.
constexpr int PerGrid = 5 + 8;
constexpr int RowLen = 2 * PerGrid + 6;
/// Where descriptor entry I is in a grid's part of a row of the table.
constexpr int entryAt(int I) { return I == Dtype ? 5 + 7 : 5 + I - DescM; }
/// The call's arguments, after both grids.
const char *const ArgNames[6] = {"M", "N", "IA", "JA", "IB", "JB"};

/// "DESCA(5), MB_A," : entry I of the descriptor of matrix Name.
std::string entryName(const char *Name, int I) {
  return std::string("DESC") + Name + "(" + std::to_string(I + 1) + "), " +
         EntryNames[I] + Name + ",";
}

/// ICTXT's processes as a communicator, created on first use.
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
  for (int I = 0; I < DescLen; ++I)
    if (I != Ctxt)
      Out[entryAt(I)] = Descriptor[I];
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
    throw InvalidArgument(std::string("no process of ICTXT is in the "
                                      "grid of ") +
                          Name);
  const long long NpRow = First[3], NpCol = First[4];
  auto Entry = [&](int I) { return First[entryAt(I)]; };
  if (Entry(Dtype) != 1)
    throw InvalidArgument(entryName(Name, Dtype) + " is " +
                          std::to_string(Entry(Dtype)) +
                          "; only dense matrices (1) are supported");
  for (int I : {DescM, DescN})
    if (Entry(I) < 0)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be >= 0");
  for (int I : {Mb, Nb})
    if (Entry(I) <= 0)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be positive");
  for (int I : {Rsrc, Csrc}) {
    const long long Procs = I == Rsrc ? NpRow : NpCol;
    if (Entry(I) < 0 || Entry(I) >= Procs)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be in [0, " +
                            std::to_string(Procs) + "), the grid's process " +
                            (I == Rsrc ? "rows" : "columns"));
  }
  Layout2D L =
      Layout2D::blockCyclic(Entry(DescM), Entry(DescN), NpRow, NpCol, Entry(Mb),
                            Entry(Nb), Entry(Rsrc), Entry(Csrc));
  MatrixSide S{L, std::vector<int>(static_cast<std::size_t>(L.procs()), -1), 0};
  for (int R = 0; R < Ranks; ++R) {
    const long long *Row =
        &Table[static_cast<std::size_t>(R * RowLen + Offset)];
    if (Row[0] != 1)
      continue;
    // Every entry but LLD, which is each process's own.
    for (int I = 3; I < PerGrid; ++I)
      if (I != entryAt(Lld) && Row[I] != First[I]) {
        int Entry = Dtype;
        while (I >= 5 && entryAt(Entry) != I)
          ++Entry;
        throw InvalidArgument(
            std::string("the processes of ") + Name + "'s grid disagree on " +
            (I < 5 ? std::string("its shape")
                   : "DESC" + std::string(Name) + "(" +
                         std::to_string(Entry + 1) + "), " + EntryNames[Entry] +
                         Name) +
            ": " + std::to_string(First[I]) + " and " + std::to_string(Row[I]));
      }
    const int64_t Id = L.procAt(Row[1], Row[2]);
    if (S.Ranks[static_cast<std::size_t>(Id)] != -1)
      throw InvalidArgument(
          std::string("two processes claim (") + std::to_string(Row[1]) + ", " +
          std::to_string(Row[2]) + ") of " + Name + "'s grid");
    S.Ranks[static_cast<std::size_t>(Id)] = R;
    const int64_t Need = std::max<int64_t>(1, L.localRows(Id));
    if (Row[entryAt(Lld)] < Need)
      throw InvalidArgument(entryName(Name, Lld) + " is " +
                            std::to_string(Row[entryAt(Lld)]) +
                            " on process (" + std::to_string(Row[1]) + ", " +
                            std::to_string(Row[2]) + "), below its " +
                            std::to_string(Need) + " local rows");
    if (R == MyRank)
      S.LocalLeadingDim = Row[entryAt(Lld)];
  }
  for (int Rank : S.Ranks)
    if (Rank < 0)
      throw InvalidArgument(std::string("a process of ") + Name +
                            "'s grid is not in ICTXT");
  return S;
}

/// Throws InvalidArgument unless every process of the table passed the same
/// arguments, M and N are not negative.
void checkArguments(const std::vector<long long> &Table, int Ranks) {
  const long long *Mine = &Table[2 * PerGrid];
  for (int R = 1; R < Ranks; ++R)
    for (int I = 0; I < 6; ++I) {
      const long long Other =
          Table[static_cast<std::size_t>(R * RowLen + 2 * PerGrid + I)];
      if (Other != Mine[I])
        throw InvalidArgument(std::string("the processes of ICTXT disagree on "
                                          "the argument ") +
                              ArgNames[I] + ": " + std::to_string(Mine[I]) +
                              " and " + std::to_string(Other));
    }
  for (int I = 0; I < 2; ++I)
    if (Mine[I] < 0)
      throw InvalidArgument(std::string(ArgNames[I]) + " = " +
                            std::to_string(Mine[I]) + " is negative");
}

/// Throws InvalidArgument unless the M x N sub-matrix at (I, J) (1-based) is
/// inside matrix Name, laid out as L.
void checkSubMatrix(const char *Name, int M, int N, int I, int J,
                    const Layout2D &L) {
  const char *IName = Name[0] == 'A' ? "IA" : "IB";
  const char *JName = Name[0] == 'A' ? "JA" : "JB";
  auto Check = [&](const char *What, const char *Size, long long Start,
                   long long Len, long long Extent, int Entry) {
    if (Start < 1)
      throw InvalidArgument(std::string(What) + " = " + std::to_string(Start) +
                            " is below 1");
    if (Start - 1 + Len > Extent)
      throw InvalidArgument(std::string(What) + " + " + Size +
                            " - 1 = " + std::to_string(Start - 1 + Len) +
                            " exceeds " + entryName(Name, Entry) + " " +
                            std::to_string(Extent));
  };
  Check(IName, "M", I, M, L.numRows(), DescM);
  Check(JName, "N", J, N, L.numCols(), DescN);
}

/// Prints What, as pxerbla would, on the first process and aborts the job.
/// Every process of Comm calls it alike; the others wait for the first to
/// abort, so that none kills it before it has printed.
[[noreturn]] void fail(const char *Routine, const std::string &What,
                       MPI_Comm Comm, int Rank) {
  if (Rank == 0) {
    std::fprintf(stderr, "redist_scalapack: %s: %s\n", Routine, What.c_str());
    std::fflush(stderr);
  } else {
    MPI_Barrier(Comm); // never completes: the first process does not come
  }
  MPI_Abort(Comm, 1);
  std::abort(); // MPI_Abort does not return
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
  if (Comm == MPI_COMM_NULL)
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
  // Checked on every process alike, from the same table, also for an empty
  // copy: a process that returned alone would leave the others waiting.
  try {
    checkArguments(Table, Ranks);
  } catch (const InvalidArgument &E) {
    fail(Routine, E.what(), Comm, Rank);
  }
  if (M == 0 || N == 0)
    return;
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
      checkSubMatrix("A", M, N, IA, JA, From.Layout);
      checkSubMatrix("B", M, N, IB, JB, To.Layout);
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
      fail(Routine, E.what(), Comm, Rank);
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
