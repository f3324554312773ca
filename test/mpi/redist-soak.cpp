//===- redist-soak.cpp - Plans built, run, cached and dropped for a while -===//
//
//   mpirun -np R redist-soak SECONDS SAMPLE_SECONDS SEED [PID_DIR]
//
// The soak that scripts/soak.sh runs (docs/reliability.md). For SECONDS it
// draws, from SEED alike on every rank, one operation after another, each
// checking every element it moves (CheckRedistribution.h):
//   - a 1-D plan from a pool of parameter sets through cachedPlan (hits
//     and misses), or redistribute() on vectors;
//   - a 1-D plan built, run and destroyed;
//   - a MatrixPlan built, run and destroyed;
//   - with libredist_scalapack, pdgemr2d between two block-cyclic matrices
//     on a BLACS grid (its own cache of plans fills and evicts);
//   - now and then the communicator of the cached plans is freed (its
//     plans go with it) and a new one made, or clearPlanCache() called.
// Every SAMPLE_SECONDS (rank 0's clock, broadcast) every rank drops its
// cached plans and reports its resident memory, open file descriptors and
// live duplicates of the program's communicator (counted by an attribute's
// copy and delete callbacks, so every plan's duplicate counts) and the
// runtime's shared-memory rings it still maps or has in /dev/shm (those of
// libredist_scalapack's cached plans: it keeps 16, filled before the first
// sample). One line per rank:
//   sample S t T rank R: rss KB fds N dups D shm M ops K errors E
// With PID_DIR each rank writes its pid to PID_DIR/rank-R.pid (soak.sh's
// --kill mode kills one) and Open MPI's job id to PID_DIR/jobid. Exits 1 on
// any element error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/Redistribute.h"

#include <dirent.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef REDIST_SOAK_SCALAPACK
#include "Blacs.h"
extern "C" void pdgemr2d_(int *M, int *N, double *A, int *IA, int *JA,
                          int *DescA, double *B, int *IB, int *JB, int *DescB,
                          int *GContext);
#endif

using namespace redist;

namespace {

int Rank = 0, Size = 0;
int64_t ElementErrors = 0;

long residentKB() {
  long Pages = 0, Resident = 0;
  if (std::FILE *F = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(F, "%ld %ld", &Pages, &Resident) != 2)
      Resident = 0;
    std::fclose(F);
  }
  return Resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/// Lines of File that contain Text.
int countLines(const char *File, const char *Text) {
  int Count = 0;
  if (std::FILE *F = std::fopen(File, "r")) {
    char Line[4096];
    while (std::fgets(Line, sizeof Line, F))
      Count += std::strstr(Line, Text) != nullptr;
    std::fclose(F);
  }
  return Count;
}

/// Entries of Dir whose name starts with Prefix (all with an empty one).
int countEntries(const char *Dir, const char *Prefix) {
  int Count = 0;
  if (DIR *D = opendir(Dir)) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.' &&
          std::strncmp(E->d_name, Prefix, std::strlen(Prefix)) == 0)
        ++Count;
    closedir(D);
  }
  return Count;
}

class Soak {
public:
  Soak(uint64_t Seed, MPI_Comm Watched) : Rng(Seed), Watched(Watched) {
    MPI_Comm_dup(Watched, &Work);
    // The pool of cached 1-D plans: hits and misses both happen.
    for (int I = 0; I < 24; ++I) {
      const int64_t N = uniform(0, 3000);
      Pool.push_back({distribution(N), distribution(N), N, options()});
    }
  }
  ~Soak() { MPI_Comm_free(&Work); }

  int64_t uniform(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }

  void step() {
    const int64_t Op = uniform(0, 99);
    if (Op < 30)
      cached();
    else if (Op < 45)
      redistributed();
    else if (Op < 65)
      fresh();
    else if (Op < 80)
      matrix();
    else if (Op < 95)
      scalapack();
    else if (Op < 98)
      newCommunicator();
    else
      clearPlanCache();
  }

private:
  struct Params {
    Distribution From, To;
    int64_t N;
    PlanOptions Options;
  };

  Distribution distribution(int64_t N) {
    const int64_t P = uniform(1, Size);
    switch (uniform(0, 2)) {
    case 0:
      return Distribution::block(P);
    case 1:
      return Distribution::cyclic(P, uniform(1, 40));
    default: {
      std::vector<int64_t> Sizes(static_cast<std::size_t>(P), 0);
      for (int64_t I = 0; I < N; ++I)
        ++Sizes[static_cast<std::size_t>(uniform(0, P - 1))];
      return Distribution::genBlock(Sizes);
    }
    }
  }
  PlanOptions options() {
    PlanOptions O;
    const std::vector<ExecMode> Modes = allExecModes();
    const std::vector<Packing> Packs = allPackings();
    O.Mode = Modes[static_cast<std::size_t>(
        uniform(0, static_cast<int64_t>(Modes.size()) - 1))];
    O.Pack = Packs[static_cast<std::size_t>(
        uniform(0, static_cast<int64_t>(Packs.size()) - 1))];
    O.Verify = uniform(0, 1) == 0;
    return O;
  }

  void cached() {
    const Params &P = Pool[static_cast<std::size_t>(uniform(0, 23))];
    const Plan &Pl = cachedPlan(P.From, P.To, P.N, 8, Work, P.Options);
    ElementErrors += test::runAndCheck(Pl, "cached", 1, uniform(0, 1000));
  }
  void redistributed() {
    const Params &P = Pool[static_cast<std::size_t>(uniform(0, 23))];
    std::vector<uint64_t> Src(static_cast<std::size_t>(
        Rank < P.From.procs() ? localSize(P.From, P.N, Rank) : 0));
    for (std::size_t L = 0; L < Src.size(); ++L)
      Src[L] = static_cast<uint64_t>(
          globalIndex(P.From, P.N, Rank, static_cast<int64_t>(L)));
    std::vector<uint64_t> Dst;
    redistribute(Src, Dst, P.From, P.To, P.N, Work, P.Options);
    for (std::size_t L = 0; L < Dst.size(); ++L)
      ElementErrors += Dst[L] != static_cast<uint64_t>(globalIndex(
                                     P.To, P.N, Rank, static_cast<int64_t>(L)));
  }
  void fresh() {
    const int64_t N = uniform(0, 5000);
    const Distribution From = distribution(N), To = distribution(N);
    Plan Pl(From, To, N, static_cast<std::size_t>(uniform(1, 3) * 4), Watched,
            options());
    ElementErrors += test::runAndCheck(Pl, "fresh", 2, uniform(0, 1000));
  }
  void matrix() {
    const int64_t M = uniform(1, 120), N = uniform(1, 120);
    auto Side = [&] {
      const int64_t P0 = uniform(1, Size), P1 = uniform(1, Size / P0);
      return MatrixSide{
          Layout2D::blockCyclic(M, N, P0, P1, uniform(1, 16), uniform(1, 16),
                                uniform(0, P0 - 1), uniform(0, P1 - 1)),
          {},
          0};
    };
    const MatrixSide From = Side(), To = Side();
    MatrixPlan Pl(From, To, 8, Watched, MatrixRegion(), options());
    std::vector<uint64_t> Src(static_cast<std::size_t>(Pl.sourceStorageSize())),
        Dst(static_cast<std::size_t>(Pl.targetStorageSize()), ~uint64_t(0));
    auto Value = [](std::pair<int64_t, int64_t> G) {
      return static_cast<uint64_t>(G.first * 1000003 + G.second);
    };
    const int64_t SrcProc = Rank < From.Layout.procs() ? Rank : -1,
                  DstProc = Rank < To.Layout.procs() ? Rank : -1;
    for (std::size_t O = 0; O < Src.size(); ++O)
      Src[O] = Value(From.Layout.toGlobal(SrcProc, static_cast<int64_t>(O)));
    Pl.execute(Src.data(), Dst.data());
    for (std::size_t O = 0; O < Dst.size(); ++O)
      ElementErrors +=
          Dst[O] != Value(To.Layout.toGlobal(DstProc, static_cast<int64_t>(O)));
  }
  /// pdgemr2d in shape Shape (of 20; drawn when negative).
  void scalapack(int Shape = -1) {
#ifdef REDIST_SOAK_SCALAPACK
    if (Context < 0) {
      // One grid for the whole run: P0 x P1 over every rank.
      Cblacs_get(-1, 0, &Context);
      GridRows = Size >= 4 ? 2 : 1;
      Cblacs_gridinit(&Context, "Row", GridRows, Size / GridRows);
    }
    // 20 shapes, more than libredist_scalapack's 16 cached plans: its cache
    // fills, then evicts.
    if (Shape < 0)
      Shape = static_cast<int>(uniform(0, 19));
    int M = 30 + Shape * 7, N = 20 + Shape * 5;
    int MBA = 1 + Shape % 5, NBA = 2 + Shape % 3, MBB = 4 + Shape % 4,
        NBB = 1 + Shape % 6;
    int NpRow = 0, NpCol = 0, MyRow = 0, MyCol = 0, Zero = 0, One = 1;
    Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
    if (MyRow < 0)
      return; // outside the grid (Size odd)
    int DescA[9], DescB[9], Info = 0;
    auto Make = [&](int *Desc, int MB, int NB, std::vector<double> &Data,
                    bool Fill) {
      const int LocR = numroc_(&M, &MB, &MyRow, &Zero, &NpRow);
      const int LocC = numroc_(&N, &NB, &MyCol, &Zero, &NpCol);
      int Lld = LocR > 1 ? LocR : 1;
      descinit_(Desc, &M, &N, &MB, &NB, &Zero, &Zero, &Context, &Lld, &Info);
      Data.assign(static_cast<std::size_t>(Lld) * (LocC > 0 ? LocC : 1), -1.0);
      for (int C = 0; C < LocC; ++C)
        for (int R = 0; R < LocR; ++R) {
          const int GR = ((R / MB) * NpRow + MyRow) * MB + R % MB;
          const int GC = ((C / NB) * NpCol + MyCol) * NB + C % NB;
          const double V = GR * 1000.0 + GC;
          double &At = Data[static_cast<std::size_t>(R + C * Lld)];
          if (Fill)
            At = V;
          else
            At = -V - 1; // what the copy must overwrite: checked below
        }
    };
    std::vector<double> A, B, Want;
    Make(DescA, MBA, NBA, A, true);
    Make(DescB, MBB, NBB, B, false);
    Make(DescB, MBB, NBB, Want, true);
    pdgemr2d_(&M, &N, A.data(), &One, &One, DescA, B.data(), &One, &One, DescB,
              &Context);
    for (std::size_t I = 0; I < B.size(); ++I)
      ElementErrors += B[I] != Want[I];
#else
    (void)Shape;
#endif
  }

public:
  /// Fills libredist_scalapack's cache before the first sample, so that
  /// every sample sees it full: its plans' rings come and go as it evicts,
  /// at most 16 plans' worth.
  void warmUp() {
    for (int Shape = 0; Shape < 20; ++Shape)
      scalapack(Shape);
  }

private:
  void newCommunicator() {
    MPI_Comm_free(&Work); // its cached plans go with it
    MPI_Comm_dup(Watched, &Work);
  }

  std::mt19937_64 Rng;
  MPI_Comm Watched, Work = MPI_COMM_NULL;
  std::vector<Params> Pool;
  int Context = -1, GridRows = 1;
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (argc < 4) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: redist-soak SECONDS SAMPLE_SECONDS SEED "
                           "[PID_DIR]\n");
    MPI_Finalize();
    return 2;
  }
  const double Seconds = std::atof(argv[1]), Every = std::atof(argv[2]);
  if (argc > 4) {
    const std::string Path =
        std::string(argv[4]) + "/rank-" + std::to_string(Rank) + ".pid";
    if (std::FILE *F = std::fopen(Path.c_str(), "w")) {
      std::fprintf(F, "%ld\n", static_cast<long>(getpid()));
      std::fclose(F);
    }
    // Open MPI's job id names its shared-memory segments.
    const char *Job = std::getenv("OMPI_MCA_ess_base_jobid");
    if (std::FILE *F =
            std::fopen((std::string(argv[4]) + "/jobid").c_str(), "w")) {
      std::fprintf(F, "%s\n", Job ? Job : "");
      std::fclose(F);
    }
  }
  MPI_Comm Watched = test::watchedCommunicator();
  {
    Soak S(std::strtoull(argv[3], nullptr, 10), Watched);
    S.warmUp(); // before the clock starts
    const auto Start = std::chrono::steady_clock::now();
    auto Elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           Start)
          .count();
    };
    int64_t Ops = 0;
    for (int Sample = 0;;) {
      // Rank 0's clock decides, for every rank: 0 go on, 1 sample, 2 stop.
      int Next = 0;
      if (Rank == 0) {
        const double T = Elapsed();
        Next = T >= Seconds ? 2 : T >= Every * Sample ? 1 : 0;
      }
      MPI_Bcast(&Next, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (Next == 0) {
        S.step();
        ++Ops;
        continue;
      }
      // Between operations, with no plan cached: what is left is a leak.
      clearPlanCache();
      MPI_Barrier(MPI_COMM_WORLD);
      // The runtime's rings still mapped (memory files), and any segment
      // of this process in /dev/shm.
      const std::string Mine = "redist." + std::to_string(getpid()) + ".";
      const int Shm = countLines("/proc/self/maps", "redist-ring") +
                      countEntries("/dev/shm", Mine.c_str());
      const long Row[6] = {
          residentKB(),           countEntries("/proc/self/fd", ""),
          test::liveDuplicates(), Shm,
          static_cast<long>(Ops), static_cast<long>(ElementErrors)};
      std::vector<long> All(static_cast<std::size_t>(6 * Size));
      MPI_Gather(Row, 6, MPI_LONG, All.data(), 6, MPI_LONG, 0, MPI_COMM_WORLD);
      if (Rank == 0) {
        for (int R = 0; R < Size; ++R) {
          const long *X = &All[static_cast<std::size_t>(6 * R)];
          std::printf("sample %d t %.0f rank %d: rss %ld fds %ld dups %ld "
                      "shm %ld ops %ld errors %ld\n",
                      Sample, Elapsed(), R, X[0], X[1], X[2], X[3], X[4], X[5]);
        }
        std::fflush(stdout);
      }
      if (Next == 2)
        break;
      ++Sample;
    }
  }
  const int64_t Errors = test::sumOverRanks(ElementErrors);
  if (Rank == 0)
    std::printf("redist-soak: %d ranks, %lld element errors\n", Size,
                static_cast<long long>(Errors));
  MPI_Comm_free(&Watched);
  MPI_Finalize();
  return Errors == 0 ? 0 : 1;
}
