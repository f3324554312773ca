//===- redist-scalapack-bench.cpp - The drop-in against ScaLAPACK ---------===//
//
//   mpirun -np 4 redist-scalapack-bench N REPS [CACHED_CALLS]
//
// On the matrix benchmark's configurations (redist-matrix-bench: an N x N
// matrix of doubles from a 2x2 grid of 64x64 blocks to 4x1 of 64x64, from
// 2x2 of 32x32 to 2x2 of 100x100, from 2x2 of 64x64 to 1x4 columns), times
// libredist_scalapack's routines against ScaLAPACK's own, called through
// the same ABI in one program:
//   pdgemr2d   A -> B, the whole matrix;
//   pdtrmr2d   its upper trapezoid (UPLO 'U', DIAG 'N');
//   pdtran     C := A**T, C on A's grid in the target's blocks (PBLAS
//              needs one context);
//   pdgeadd    C := 0.5 C + 2 A**T (op T), likewise.
// The program links ScaLAPACK alone; the drop-in is opened with dlopen
// (RTLD_LOCAL) and its routines taken with dlsym, so both run side by side.
// Each repetition runs both once, each after a barrier, in an order that
// changes from one repetition to the next (bench/reference/RoundOrder.h:
// with two, each goes first every other time), so that what one run leaves
// behind falls on both alike; a run's time is the slowest rank's. Before
// timing, each routine's results are compared with ScaLAPACK's, element by
// element. Prints min and median of each and the ratios ScaLAPACK / drop-in
// (above 1: the drop-in is faster). Then the cost of a cached call: a 4 x 4
// pdgemr2d (2x2 -> 1x4) called CACHED_CALLS times (default 1000) per
// repetition.
//
//===----------------------------------------------------------------------===//
#include "BenchmarkHeap.h"
#include "Blacs.h"
#include "MatrixBenchConfigs.h"
#include "RoundOrder.h"

#include <mpi.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Gemr2d = void (*)(int *, int *, double *, int *, int *, int *, double *,
                        int *, int *, int *, int *);
using Trmr2d = void (*)(const char *, const char *, int *, int *, double *,
                        int *, int *, int *, double *, int *, int *, int *,
                        int *);
using Tran = void (*)(int *, int *, double *, double *, int *, int *, int *,
                      double *, double *, int *, int *, int *);
using Geadd = void (*)(const char *, int *, int *, double *, double *, int *,
                       int *, int *, double *, double *, int *, int *, int *);

/// One library's four routines.
struct Routines {
  Gemr2d Gemr = nullptr;
  Trmr2d Trmr = nullptr;
  Tran Tr = nullptr;
  Geadd Add = nullptr;
};

template <typename F> F symbol(void *Lib, const char *Name) {
  void *P = dlsym(Lib, Name);
  if (!P) {
    std::fprintf(stderr, "redist-scalapack-bench: %s: %s\n", Name, dlerror());
    std::exit(2);
  }
  return reinterpret_cast<F>(P);
}

Routines load(const char *Path, int Flags) {
  void *Lib = dlopen(Path, Flags);
  if (!Lib) {
    std::fprintf(stderr, "redist-scalapack-bench: %s\n", dlerror());
    std::exit(2);
  }
  return {symbol<Gemr2d>(Lib, "pdgemr2d_"), symbol<Trmr2d>(Lib, "pdtrmr2d_"),
          symbol<Tran>(Lib, "pdtran_"), symbol<Geadd>(Lib, "pdgeadd_")};
}

int Rank = 0;

double timed(const std::function<void()> &F) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double T0 = MPI_Wtime();
  F();
  double T = MPI_Wtime() - T0, Max = 0;
  MPI_Allreduce(&T, &Max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Max;
}

/// Call's times with each library, drop-in first, Reps of each, in the
/// round order the other benchmarks use.
std::pair<std::vector<double>, std::vector<double>>
timeBoth(int Reps, const std::function<void(const Routines &)> &Call,
         const Routines &Ours, const Routines &Theirs) {
  const Routines *Libraries[2] = {&Ours, &Theirs};
  std::vector<double> Times[2];
  for (int R = 0; R < Reps; ++R)
    for (std::size_t K :
         redist::bench::roundOrder(2, static_cast<std::size_t>(R)))
      Times[K].push_back(timed([&] { Call(*Libraries[K]); }));
  return {std::move(Times[0]), std::move(Times[1])};
}

std::pair<double, double> minMedian(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return {V.front(), V[V.size() / 2]};
}

/// A distributed N x N matrix on Context with MB x NB blocks.
struct Matrix {
  int Desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  std::vector<double> Data;
  Matrix(int Context, int N, int MB, int NB, int Salt) {
    int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1, Zero = 0;
    Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
    if (MyRow < 0)
      return;
    const int LR = numroc_(&N, &MB, &MyRow, &Zero, &NpRow);
    const int LC = numroc_(&N, &NB, &MyCol, &Zero, &NpCol);
    const int Init[9] = {1, Context, N, N, MB, NB, 0, 0, std::max(1, LR)};
    std::copy(Init, Init + 9, Desc);
    Data.resize(static_cast<std::size_t>(std::max(1, LR)) * std::max(1, LC));
    for (std::size_t K = 0; K < Data.size(); ++K)
      Data[K] = static_cast<double>((K * 31 + static_cast<std::size_t>(Salt) +
                                     static_cast<std::size_t>(Rank) * 7) %
                                    1009) /
                8.0;
  }
};

using redist::bench::Config;

/// Runs F from the same starting target with both libraries; aborts unless
/// they leave equal elements.
void verify(const char *What, Matrix &Target,
            const std::function<void(const Routines &)> &F,
            const Routines &Ours, const Routines &Theirs) {
  const std::vector<double> Start = Target.Data;
  F(Theirs);
  const std::vector<double> Expected = Target.Data;
  Target.Data = Start;
  F(Ours);
  int Same = std::equal(Expected.begin(), Expected.end(), Target.Data.begin());
  int All = 0;
  MPI_Allreduce(&Same, &All, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!All) {
    if (Rank == 0)
      std::fprintf(stderr, "%s: the drop-in differs from ScaLAPACK\n", What);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Target.Data = Start;
}

void report(const std::string &What, const std::vector<double> &Ours,
            const std::vector<double> &Theirs) {
  if (Rank != 0)
    return;
  auto [OMin, OMed] = minMedian(Ours);
  auto [TMin, TMed] = minMedian(Theirs);
  std::printf("  %-9s drop-in min %8.3f ms median %8.3f ms | scalapack min "
              "%8.3f ms median %8.3f ms | scalapack/drop-in min %5.2f "
              "median %5.2f\n",
              What.c_str(), OMin * 1e3, OMed * 1e3, TMin * 1e3, TMed * 1e3,
              TMin / OMin, TMed / OMed);
  std::fflush(stdout);
}

void runConfig(const Config &C, int N, int Reps, const Routines &Ours,
               const Routines &Theirs) {
  int System = 0;
  Cblacs_get(-1, 0, &System);
  int All = System, CA = System, CB = System;
  Cblacs_gridinit(&All, "R", 1, 4);
  Cblacs_gridinit(&CA, "R", C.From.P0, C.From.P1);
  Cblacs_gridinit(&CB, "R", C.To.P0, C.To.P1);
  Matrix A(CA, N, C.From.MB, C.From.NB, 1), B(CB, N, C.To.MB, C.To.NB, 2),
      T(CA, N, C.To.MB, C.To.NB, 3);
  int One = 1, Nn = N;
  double Alpha1 = 1, Beta0 = 0, Alpha2 = 2, Half = 0.5;
  const std::vector<
      std::pair<std::string, std::function<void(const Routines &)>>>
      Calls = {{"pdgemr2d",
                [&](const Routines &R) {
                  R.Gemr(&Nn, &Nn, A.Data.data(), &One, &One, A.Desc,
                         B.Data.data(), &One, &One, B.Desc, &All);
                }},
               {"pdtrmr2d",
                [&](const Routines &R) {
                  R.Trmr("U", "N", &Nn, &Nn, A.Data.data(), &One, &One, A.Desc,
                         B.Data.data(), &One, &One, B.Desc, &All);
                }},
               {"pdtran",
                [&](const Routines &R) {
                  R.Tr(&Nn, &Nn, &Alpha1, A.Data.data(), &One, &One, A.Desc,
                       &Beta0, T.Data.data(), &One, &One, T.Desc);
                }},
               {"pdgeadd-T", [&](const Routines &R) {
                  R.Add("T", &Nn, &Nn, &Alpha2, A.Data.data(), &One, &One,
                        A.Desc, &Half, T.Data.data(), &One, &One, T.Desc);
                }}};
  if (Rank == 0)
    std::printf("%s, N = %d:\n", C.Name, N);
  for (const auto &Entry : Calls) {
    const std::string &Name = Entry.first;
    const auto &Call = Entry.second; // a lambda cannot capture a binding
    Matrix &Target = Name == "pdgemr2d" || Name == "pdtrmr2d" ? B : T;
    verify(Name.c_str(), Target, Call, Ours, Theirs);
    auto [O, S] = timeBoth(Reps, Call, Ours, Theirs);
    report(Name, O, S);
  }
  for (int Ctx : {CA, CB, All})
    if (Ctx >= 0)
      Cblacs_gridexit(Ctx);
}

/// The cost of a call whose plan is cached: a 4 x 4 pdgemr2d, Calls times.
void cachedCall(int Calls, int Reps, const Routines &Ours,
                const Routines &Theirs) {
  int System = 0;
  Cblacs_get(-1, 0, &System);
  int All = System, CA = System, CB = System;
  Cblacs_gridinit(&All, "R", 1, 4);
  Cblacs_gridinit(&CA, "R", 2, 2);
  Cblacs_gridinit(&CB, "R", 1, 4);
  Matrix A(CA, 4, 2, 2, 1), B(CB, 4, 1, 1, 2);
  int Four = 4, One = 1;
  auto Call = [&](const Routines &R) {
    for (int K = 0; K < Calls; ++K)
      R.Gemr(&Four, &Four, A.Data.data(), &One, &One, A.Desc, B.Data.data(),
             &One, &One, B.Desc, &All);
  };
  verify("cached pdgemr2d", B, Call, Ours, Theirs);
  auto [O, S] = timeBoth(Reps, Call, Ours, Theirs);
  for (std::vector<double> *Times : {&O, &S})
    for (double &T : *Times)
      T /= Calls;
  if (Rank == 0)
    std::printf("cached call, 4 x 4 pdgemr2d 2x2 -> 1x4, %d calls per "
                "repetition:\n",
                Calls);
  report("per call", O, S);
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
                   "usage: mpirun -np 4 redist-scalapack-bench N REPS "
                   "[CACHED_CALLS] (this job has %d ranks)\n",
                   Size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int N = std::atoi(argv[1]);
  const int Reps = std::atoi(argv[2]);
  const int Cached = argc > 3 ? std::atoi(argv[3]) : 1000;
  // ScaLAPACK is linked (and global); the drop-in stays local to its handle.
  const Routines Theirs = load(REDIST_SCALAPACK_PEER, RTLD_NOW | RTLD_NOLOAD);
  const Routines Ours = load(REDIST_SCALAPACK_DROPIN, RTLD_NOW | RTLD_LOCAL);
  for (const Config &C : redist::bench::matrixBenchConfigs(N))
    runConfig(C, N, Reps, Ours, Theirs);
  cachedCall(Cached, Reps, Ours, Theirs);
  MPI_Finalize();
  return 0;
}
