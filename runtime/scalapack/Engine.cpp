//===- Engine.cpp - One ScaLAPACK-style call, planned once ----------------===//
//
// A process outside a grid only has CTXT = -1 for it, so the first call of
// a kind gathers what each process of ICTXT knows (its place in each grid,
// the descriptor entries ScaLAPACK reads, the arguments) in one
// MPI_Allgather; every process then holds the same table, checks it alike
// and builds the same plan. A later call with the same descriptors costs
// one MPI_Allreduce of three numbers: each process looks its own part of
// the call up in its cache, and the processes agree that all of them found
// a plan, and the same one (a hash of the table it was built from). Any
// process that misses, because something it passed changed, sends every
// process down the first path again, where the table names what is wrong.
// The communicator is ICTXT's processes, created once per set of processes.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "Blacs.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <string>
#include <vector>

namespace redist {
namespace scalapack {
namespace {

/// ScaLAPACK's names of the descriptor entries, without the matrix's letter.
const char *const EntryNames[DescLen] = {
    "DTYPE_", "CTXT_", "M_", "N_", "MB_", "NB_", "RSRC_", "CSRC_", "LLD_"};

/// What one process contributes to the table, per grid: whether it is in
/// it, its coordinates, the grid's shape, the descriptor from M_ to LLD_
/// and the sub-matrix's first row and column (ScaLAPACK reads IA and JA
/// only on A's processes); then the call's arguments.
enum GridEntry { In, MyRow, MyCol, NpRow, NpCol, FirstEntry };
constexpr int PerGrid = FirstEntry + 7 + 2;
/// Where descriptor entry I (DescM .. Lld) is in a grid's part of a row.
constexpr int entryAt(int I) { return FirstEntry + I - DescM; }
constexpr int IAt = FirstEntry + 7, JAt = IAt + 1;

/// "DESCA(5), MB_A," : entry I of the descriptor of matrix Name.
std::string entryName(const char *Name, int I) {
  return std::string("DESC") + Name + "(" + std::to_string(I + 1) + "), " +
         EntryNames[I] + Name + ",";
}

/// ICTXT's processes as a communicator, created on first use, found by
/// the processes' ranks in MPI_COMM_WORLD: every member computes the same
/// key, so all of them find it or all create it together. (BLACS handles
/// are per process and reused after Cblacs_gridexit: no key.) Listing the
/// members is local work, O(processes), but no communication.
MPI_Comm contextComm(int Context) {
  int NpR = 0, NpC = 0, MyR = -1, MyC = -1;
  Cblacs_gridinfo(Context, &NpR, &NpC, &MyR, &MyC);
  if (MyR < 0 || MyC < 0 || MyR >= NpR || MyC >= NpC)
    return MPI_COMM_NULL;
  int System = 0;
  Cblacs_get(Context, 10, &System);
  std::vector<int> Members;
  Members.reserve(static_cast<std::size_t>(NpR) * NpC);
  for (int R = 0; R < NpR; ++R)
    for (int C = 0; C < NpC; ++C)
      Members.push_back(Cblacs_pnum(Context, R, C));
  MPI_Comm SystemComm = Cblacs2sys_handle(System);
  if (SystemComm != MPI_COMM_WORLD) {
    MPI_Group Sys, World;
    MPI_Comm_group(SystemComm, &Sys);
    MPI_Comm_group(MPI_COMM_WORLD, &World);
    std::vector<int> InWorld(Members.size());
    MPI_Group_translate_ranks(Sys, static_cast<int>(Members.size()),
                              Members.data(), World, InWorld.data());
    MPI_Group_free(&Sys);
    MPI_Group_free(&World);
    Members = std::move(InWorld);
  }
  std::sort(Members.begin(), Members.end());
  static std::map<std::vector<int>, MPI_Comm> Comms;
  auto It = Comms.find(Members);
  if (It != Comms.end())
    return It->second;
  MPI_Group World, Mine;
  MPI_Comm_group(MPI_COMM_WORLD, &World);
  MPI_Group_incl(World, static_cast<int>(Members.size()), Members.data(),
                 &Mine);
  MPI_Comm Comm = MPI_COMM_NULL;
  MPI_Comm_create_group(MPI_COMM_WORLD, Mine, 15, &Comm);
  MPI_Group_free(&Mine);
  MPI_Group_free(&World);
  Comms.emplace(std::move(Members), Comm);
  return Comm;
}

/// This process's entries for one grid: only where it is in the grid are
/// the descriptor and I, J read.
void describeGrid(const int *Descriptor, int I, int J, long long *Out) {
  std::fill(Out, Out + PerGrid, -1);
  Out[In] = 0;
  if (Descriptor[Ctxt] < 0)
    return;
  int NpR = 0, NpC = 0, MyR = -1, MyC = -1;
  Cblacs_gridinfo(Descriptor[Ctxt], &NpR, &NpC, &MyR, &MyC);
  if (MyR < 0 || MyC < 0 || MyR >= NpR || MyC >= NpC)
    return;
  Out[In] = 1;
  Out[MyRow] = MyR;
  Out[MyCol] = MyC;
  Out[NpRow] = NpR;
  Out[NpCol] = NpC;
  for (int E = DescM; E <= Lld; ++E)
    Out[entryAt(E)] = Descriptor[E];
  Out[IAt] = I;
  Out[JAt] = J;
}

/// One grid's side of the plan and the sub-matrix's first row and column
/// (1-based), from the table; throws InvalidArgument naming the first
/// inconsistency, in ScaLAPACK's order of checks.
struct Side {
  MatrixSide S;
  long long I, J;
};
Side sideOf(const char *Name, const std::vector<long long> &Table, int RowLen,
            int Ranks, int Offset, int MyRank, long long Rows, long long Cols) {
  const long long *First = nullptr;
  for (int R = 0; R < Ranks && !First; ++R)
    if (Table[static_cast<std::size_t>(R * RowLen + Offset)] == 1)
      First = &Table[static_cast<std::size_t>(R * RowLen + Offset)];
  if (!First)
    throw InvalidArgument(std::string("no process of ICTXT is in the "
                                      "grid of ") +
                          Name);
  const char *IName = Name[0] == 'A' ? "IA" : "IB";
  const char *JName = Name[0] == 'A' ? "JA" : "JB";
  // Every process of the grid passed the same, but for LLD_.
  for (int R = 0; R < Ranks; ++R) {
    const long long *Row =
        &Table[static_cast<std::size_t>(R * RowLen + Offset)];
    if (Row[In] != 1)
      continue;
    for (int I = NpRow; I < PerGrid; ++I) {
      if (I == entryAt(Lld) || Row[I] == First[I])
        continue;
      std::string What = "its shape";
      if (I == IAt || I == JAt)
        What = I == IAt ? IName : JName;
      else if (I >= FirstEntry)
        What = "DESC" + std::string(Name) + "(" +
               std::to_string(I - FirstEntry + DescM + 1) + "), " +
               EntryNames[I - FirstEntry + DescM] + Name;
      throw InvalidArgument(std::string("the processes of ") + Name +
                            "'s grid disagree on " + What + ": " +
                            std::to_string(First[I]) + " and " +
                            std::to_string(Row[I]));
    }
  }
  const long long NpR = First[NpRow], NpC = First[NpCol];
  auto Entry = [&](int I) { return First[entryAt(I)]; };
  // ScaLAPACK divides by MB_ and NB_ and sizes by M_ and N_; it would
  // crash where these fail.
  for (int I : {DescM, DescN})
    if (Entry(I) < 0)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be >= 0");
  for (int I : {Mb, Nb})
    if (Entry(I) <= 0)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be positive");
  for (int I : {Rsrc, Csrc}) {
    const long long Procs = I == Rsrc ? NpR : NpC;
    if (Entry(I) < 0 || Entry(I) >= Procs)
      throw InvalidArgument(entryName(Name, I) + " is " +
                            std::to_string(Entry(I)) + "; it must be in [0, " +
                            std::to_string(Procs) + "), the grid's process " +
                            (I == Rsrc ? "rows" : "columns"));
  }
  const long long I0 = First[IAt], J0 = First[JAt];
  auto Check = [&](const char *What, const char *Size, long long Start,
                   long long Len, long long Extent, int E) {
    if (Start < 1)
      throw InvalidArgument(std::string(What) + " = " + std::to_string(Start) +
                            " is below 1");
    if (Start - 1 + Len > Extent)
      throw InvalidArgument(std::string(What) + " + " + Size + " - 1 = " +
                            std::to_string(Start - 1 + Len) + " exceeds " +
                            entryName(Name, E) + " " + std::to_string(Extent));
  };
  Check(IName, "M", I0, Rows, Entry(DescM), DescM);
  Check(JName, "N", J0, Cols, Entry(DescN), DescN);
  Layout2D L =
      Layout2D::blockCyclic(Entry(DescM), Entry(DescN), NpR, NpC, Entry(Mb),
                            Entry(Nb), Entry(Rsrc), Entry(Csrc));
  Side Out{MatrixSide{
               L, std::vector<int>(static_cast<std::size_t>(L.procs()), -1), 0},
           I0, J0};
  for (int R = 0; R < Ranks; ++R) {
    const long long *Row =
        &Table[static_cast<std::size_t>(R * RowLen + Offset)];
    if (Row[In] != 1)
      continue;
    const int64_t Id = L.procAt(Row[MyRow], Row[MyCol]);
    if (Out.S.Ranks[static_cast<std::size_t>(Id)] != -1)
      throw InvalidArgument(
          std::string("two processes claim (") + std::to_string(Row[MyRow]) +
          ", " + std::to_string(Row[MyCol]) + ") of " + Name + "'s grid");
    Out.S.Ranks[static_cast<std::size_t>(Id)] = R;
    // As ScaLAPACK: LLD_ at least the local rows (0 rows: any LLD_).
    const int64_t Need = L.localRows(Id);
    if (Row[entryAt(Lld)] < Need)
      throw InvalidArgument(
          entryName(Name, Lld) + " is " + std::to_string(Row[entryAt(Lld)]) +
          " on process (" + std::to_string(Row[MyRow]) + ", " +
          std::to_string(Row[MyCol]) + "), below its " + std::to_string(Need) +
          " local rows");
    if (R == MyRank)
      Out.S.LocalLeadingDim = std::max<long long>(Row[entryAt(Lld)], 0);
  }
  for (int Rank : Out.S.Ranks)
    if (Rank < 0)
      throw InvalidArgument(std::string("a process of ") + Name +
                            "'s grid is not in ICTXT");
  return Out;
}

/// Throws InvalidArgument unless every process of the table passed the same
/// arguments, and the sizes (the first two) are not negative.
void checkArguments(const Move &M, const std::vector<long long> &Table,
                    int RowLen, int Ranks) {
  const long long *Mine = &Table[2 * PerGrid];
  const std::size_t NArgs = M.Args.size();
  for (int R = 1; R < Ranks; ++R)
    for (std::size_t I = 0; I < NArgs; ++I) {
      const long long Other =
          Table[static_cast<std::size_t>(R * RowLen + 2 * PerGrid) + I];
      if (Other != Mine[I])
        throw InvalidArgument(std::string("the processes of ICTXT disagree on "
                                          "the argument ") +
                              M.Args[I].first + ": " + std::to_string(Mine[I]) +
                              " and " + std::to_string(Other));
    }
  for (std::size_t I = 0; I < std::min<std::size_t>(2, NArgs); ++I)
    if (Mine[I] < 0)
      throw InvalidArgument(std::string(M.Args[I].first) + " = " +
                            std::to_string(Mine[I]) + " is negative");
}

/// Prints What, as ScaLAPACK's checks do, on the first process and aborts
/// the job. Every process of Comm calls it alike; the others wait for the
/// first to abort, so that none kills it before it has printed.
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

/// FNV-1a over the numbers, kept to 62 bits so that its negation fits.
long long hashOf(const std::vector<long long> &V) {
  unsigned long long H = 1469598103934665603ull;
  for (long long X : V)
    for (int B = 0; B < 8; ++B)
      H = (H ^ ((static_cast<unsigned long long>(X) >> (8 * B)) & 0xff)) *
          1099511628211ull;
  return static_cast<long long>(H >> 2);
}

/// The plans, most recently used first. Local: what this process passed
/// (its row of the table, the context handles and the kind of call), which
/// it looks itself up by; Global: the hash of the whole table, which the
/// processes agree on.
struct CachedPlan {
  std::vector<long long> Local;
  long long Global;
  MatrixPlan Plan;
};
constexpr std::size_t CacheSize = 16;
std::list<CachedPlan> Cache;
long long PlansBuilt = 0, PlansReused = 0;

enum class Trace { Off, Calls, Count };
Trace tracing() {
  static const Trace T = [] {
    const char *V = std::getenv("REDIST_SCALAPACK_TRACE");
    if (!V || !*V || std::strcmp(V, "0") == 0)
      return Trace::Off;
    return std::strcmp(V, "count") == 0 ? Trace::Count : Trace::Calls;
  }();
  return T;
}

std::map<std::string, long long> &callCounts() {
  static std::map<std::string, long long> Counts;
  return Counts;
}

/// This process's number, for the counts printed at exit (after
/// MPI_Finalize, when the BLACS can no longer say).
int Process = -1;

void printCounts() {
  const int Me = Process;
  for (const auto &[Routine, N] : callCounts())
    std::fprintf(stderr, "redist_scalapack: process %d: %s: %lld calls\n", Me,
                 Routine.c_str(), N);
}

} // namespace

void countCall(const char *Routine) {
  if (tracing() != Trace::Count)
    return;
  static const bool Registered = [] {
    int Procs = 0;
    Cblacs_pinfo(&Process, &Procs);
    // The counts first: a static object made before the call to atexit is
    // destroyed after printCounts has run, not before (ASan's
    // heap-use-after-free at exit, in the PBLAS testers).
    callCounts();
    return std::atexit(printCounts) == 0;
  }();
  (void)Registered;
  ++callCounts()[Routine];
}

void move(const Move &M) {
  if (M.Rows == 0 || M.Cols == 0)
    return;
  MPI_Comm Comm = contextComm(M.Context);
  if (Comm == MPI_COMM_NULL)
    return;
  int Ranks = 0, Rank = 0;
  MPI_Comm_size(Comm, &Ranks);
  MPI_Comm_rank(Comm, &Rank);
  const int RowLen = 2 * PerGrid + static_cast<int>(M.Args.size());
  std::vector<long long> Mine(static_cast<std::size_t>(RowLen));
  describeGrid(M.DescA, M.IA, M.JA, Mine.data());
  describeGrid(M.DescB, M.IB, M.JB, Mine.data() + PerGrid);
  for (std::size_t I = 0; I < M.Args.size(); ++I)
    Mine[2 * PerGrid + I] = M.Args[I].second;
  // What every process passes alike besides the table: the kind of call.
  const std::vector<long long> Kind = {
      static_cast<long long>(M.ElementBytes),
      static_cast<long long>(std::strlen(M.Routine)),
      M.Routine[1],
      M.Transpose,
      M.DiagonalBegin,
      M.DiagonalEnd,
      M.Combining != nullptr};
  std::vector<long long> Local = Mine;
  Local.insert(Local.end(), Kind.begin(), Kind.end());
  Local.push_back(M.Context);
  Local.push_back(M.DescA[Ctxt]);
  Local.push_back(M.DescB[Ctxt]);
  auto Hit = std::find_if(Cache.begin(), Cache.end(), [&](const CachedPlan &C) {
    return C.Local == Local;
  });
  // All found a plan, and the same: min(-missed) = 0 and min = max hash.
  long long Agree[3] = {Hit == Cache.end() ? -1 : 0,
                        Hit == Cache.end() ? 0 : Hit->Global,
                        Hit == Cache.end() ? 0 : -Hit->Global};
  MPI_Allreduce(MPI_IN_PLACE, Agree, 3, MPI_LONG_LONG, MPI_MIN, Comm);
  const bool Cached = Agree[0] == 0 && Agree[1] == -Agree[2];
  if (Cached) {
    Cache.splice(Cache.begin(), Cache, Hit);
    ++PlansReused;
  } else {
    std::vector<long long> Table(static_cast<std::size_t>(Ranks) * RowLen);
    MPI_Allgather(Mine.data(), RowLen, MPI_LONG_LONG, Table.data(), RowLen,
                  MPI_LONG_LONG, Comm);
    // Checked on every process alike, from the same table.
    try {
      checkArguments(M, Table, RowLen, Ranks);
      const Side From =
          sideOf("A", Table, RowLen, Ranks, 0, Rank, M.Rows, M.Cols);
      const Side To =
          sideOf("B", Table, RowLen, Ranks, PerGrid, Rank,
                 M.Transpose ? M.Cols : M.Rows, M.Transpose ? M.Rows : M.Cols);
      MatrixRegion Region;
      Region.Rows = M.Rows;
      Region.Cols = M.Cols;
      Region.SourceRow = From.I - 1;
      Region.SourceCol = From.J - 1;
      Region.TargetRow = To.I - 1;
      Region.TargetCol = To.J - 1;
      Region.Transpose = M.Transpose;
      Region.DiagonalBegin = M.DiagonalBegin;
      Region.DiagonalEnd = M.DiagonalEnd;
      // Every rank derived the same parameters from the same table.
      PlanOptions Options;
      Options.Verify = false;
      if (M.Combining)
        Options.Pack = Packing::Runs; // the unpacking combines
      std::vector<long long> Global = Table;
      Global.insert(Global.end(), Kind.begin(), Kind.end());
      Cache.remove_if([&](const CachedPlan &C) { return C.Local == Local; });
      Cache.push_front(
          {Local, hashOf(Global),
           MatrixPlan(From.S, To.S, M.ElementBytes, Comm, Region, Options)});
    } catch (const InvalidArgument &E) {
      fail(M.Routine, E.what(), Comm, Rank);
    }
    ++PlansBuilt;
    if (Cache.size() > CacheSize)
      Cache.pop_back();
  }
  const MatrixPlan &Plan = Cache.front().Plan;
  if (tracing() == Trace::Calls && Rank == 0)
    std::fprintf(
        stderr, "redist_scalapack: %s %d x %d: %s plan (%s, %zu steps)\n",
        M.Routine, M.Rows, M.Cols, Cached ? "cached" : "new",
        Plan.schedule().Algorithm.c_str(), Plan.schedule().Steps.size());
  if (M.Combining)
    Plan.execute(M.A, M.B, *M.Combining);
  else
    Plan.execute(M.A, M.B);
}

} // namespace scalapack
} // namespace redist

extern "C" void redist_scalapack_stats(long long *Plans, long long *Reused) {
  if (Plans)
    *Plans = redist::scalapack::PlansBuilt;
  if (Reused)
    *Reused = redist::scalapack::PlansReused;
}
