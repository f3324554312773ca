//===- fft3d.cpp - A distributed 3-D FFT on redist's array plans ----------===//
//
//   mpirun -np R redist-fft3d pencil NX NY NZ P0 P1   (R = P0 * P1)
//   mpirun -np R redist-fft3d slab NX NY NZ           (a 1-D arrangement of R)
//
// The forward 3-D DFT of an NX x NY x NZ complex array u[x][y][z],
// distributed as FFT codes do, with FFTW's serial 1-D (slab: 2-D)
// transforms on local data and redist moving the data in between.
//
// Pencil: every phase keeps the axis it transforms last, so its transforms
// run along contiguous memory, and splits the other two over the P0 x P1
// grid (block, block, *), row-major storage:
//   X[y][z][x]  x-pencils   transform along x
//   Y[x][z][y]  y-pencils   transform along y  (Y = permute(X, 2, 1, 0))
//   Z[x][y][z]  z-pencils   transform along z  (Z = permute(Y, 0, 2, 1))
//   X[y][z][x]  and back to x-pencils          (X = permute(Z, 1, 2, 0))
// X -> Y keeps z on P1 and moves within grid rows; Y -> Z keeps x on P0 and
// moves within grid columns; Z -> X moves across the grid. Three plans,
// built once, do all the communication.
//
// Slab: on R processes, S[x][y][z] (block, *, *) transforms each local x
// plane in 2-D; T[y][z][x] (block, *, *) = permute(S, 1, 2, 0) transforms
// along x; a second plan takes the result back to S's layout.
//
// The result is checked, after the last transform and again after the
// move back, against FFTW's serial 3-D transform of the whole array, which
// every rank computes (the example's arrays are small).
//
//===----------------------------------------------------------------------===//

#include "redist/runtime/ArrayPlan.h"

#include <fftw3.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace redist;
using Complex = std::complex<double>;

namespace {

int Rank = 0, Ranks = 1;

/// The input at global (x, y, z): any values will do, as long as every
/// rank computes the same ones.
Complex inputAt(int64_t X, int64_t Y, int64_t Z) {
  const double A = static_cast<double>((X * 131 + Y * 71 + Z * 29) % 97);
  const double B = static_cast<double>((X * 17 + Y * 53 + Z * 101) % 89);
  return {A / 97.0 - 0.5, B / 89.0 - 0.5};
}

/// A layout of extents E on Grid: the given formats, processes row-major
/// over the grid, row-major (C) storage.
ArrayLayout layout(std::vector<int64_t> E, std::vector<DimFormat> F,
                   std::vector<int64_t> Grid) {
  return ArrayLayout(std::move(E), std::move(F), std::move(Grid),
                     GridOrder::RowMajor, {},
                     ArrayStorage{StorageOrder::RowMajor, {}});
}

/// A plan moving From into To, where To's axis k is From's axis Perm[k].
ArrayPlan move(const ArrayLayout &From, const ArrayLayout &To,
               std::vector<int> Perm) {
  ArrayRegion Region;
  Region.Permutation = std::move(Perm);
  return ArrayPlan({From, {}, {}}, {To, {}, {}}, sizeof(Complex),
                   MPI_COMM_WORLD, Region);
}

/// This rank's part of L, filled from F(global index).
template <typename Fn> std::vector<Complex> part(const ArrayLayout &L, Fn F) {
  std::vector<Complex> V(static_cast<size_t>(L.storageSize(Rank)));
  for (int64_t Off = 0; Off < static_cast<int64_t>(V.size()); ++Off)
    V[static_cast<size_t>(Off)] = F(L.toGlobal(Rank, Off));
  return V;
}

/// FFTW's forward transform along the last axis of every row of Local
/// (rows of length N, contiguous).
void transformRows(std::vector<Complex> &Local, int N) {
  if (Local.empty())
    return;
  const int Rows = static_cast<int>(Local.size()) / N;
  auto *Data = reinterpret_cast<fftw_complex *>(Local.data());
  fftw_plan P = fftw_plan_many_dft(1, &N, Rows, Data, nullptr, 1, N, Data,
                                   nullptr, 1, N, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(P);
  fftw_destroy_plan(P);
}

/// The same in two dimensions, over every N0 x N1 plane of Local.
void transformPlanes(std::vector<Complex> &Local, int N0, int N1) {
  if (Local.empty())
    return;
  const int Size[2] = {N0, N1};
  const int Planes = static_cast<int>(Local.size()) / (N0 * N1);
  auto *Data = reinterpret_cast<fftw_complex *>(Local.data());
  fftw_plan P =
      fftw_plan_many_dft(2, Size, Planes, Data, nullptr, 1, N0 * N1, Data,
                         nullptr, 1, N0 * N1, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(P);
  fftw_destroy_plan(P);
}

/// FFTW's serial 3-D transform of the whole input, u-hat[x][y][z].
std::vector<Complex> reference(int64_t NX, int64_t NY, int64_t NZ) {
  std::vector<Complex> U(static_cast<size_t>(NX * NY * NZ));
  for (int64_t X = 0; X < NX; ++X)
    for (int64_t Y = 0; Y < NY; ++Y)
      for (int64_t Z = 0; Z < NZ; ++Z)
        U[static_cast<size_t>((X * NY + Y) * NZ + Z)] = inputAt(X, Y, Z);
  auto *Data = reinterpret_cast<fftw_complex *>(U.data());
  fftw_plan P = fftw_plan_dft_3d(static_cast<int>(NX), static_cast<int>(NY),
                                 static_cast<int>(NZ), Data, Data, FFTW_FORWARD,
                                 FFTW_ESTIMATE);
  fftw_execute(P);
  fftw_destroy_plan(P);
  return U;
}

/// Compares this rank's part of L, whose axes are the global axes Axes
/// (L's axis k is global axis Axes[k]), with the reference; prints the
/// largest error over all ranks and returns whether it is small.
bool check(const char *What, const ArrayLayout &L,
           const std::vector<Complex> &Local, const std::vector<int> &Axes,
           const std::vector<Complex> &Ref, const int64_t (&N)[3]) {
  double Mine = 0;
  for (int64_t Off = 0; Off < static_cast<int64_t>(Local.size()); ++Off) {
    const std::vector<int64_t> I = L.toGlobal(Rank, Off);
    int64_t G[3];
    for (int K = 0; K < 3; ++K)
      G[Axes[static_cast<size_t>(K)]] = I[static_cast<size_t>(K)];
    const Complex Want =
        Ref[static_cast<size_t>((G[0] * N[1] + G[1]) * N[2] + G[2])];
    Mine = std::max(Mine, std::abs(Local[static_cast<size_t>(Off)] - Want));
  }
  double Worst = 0;
  MPI_Allreduce(&Mine, &Worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  // Round-off of an FFT grows like log N; the values are O(1), sums O(N).
  const bool Good = Worst < 1e-9 * static_cast<double>(N[0] * N[1] * N[2]);
  if (Rank == 0)
    std::printf("  %s: largest difference from FFTW's serial 3-D transform "
                "%s\n",
                What, Good ? "below 1e-9 * N (ok)" : "TOO LARGE (WRONG)");
  return Good;
}

bool pencil(int64_t NX, int64_t NY, int64_t NZ, int64_t P0, int64_t P1) {
  const std::vector<int64_t> Grid{P0, P1};
  const std::vector<DimFormat> Pencil{DimFormat::block(), DimFormat::block(),
                                      DimFormat::collapsed()};
  const ArrayLayout X = layout({NY, NZ, NX}, Pencil, Grid);
  const ArrayLayout Y = layout({NX, NZ, NY}, Pencil, Grid);
  const ArrayLayout Z = layout({NX, NY, NZ}, Pencil, Grid);
  // Planned once: in a time-stepping code these run every step.
  const ArrayPlan XtoY = move(X, Y, {2, 1, 0});
  const ArrayPlan YtoZ = move(Y, Z, {0, 2, 1});
  const ArrayPlan ZtoX = move(Z, X, {1, 2, 0});

  std::vector<Complex> UX = part(X, [](const std::vector<int64_t> &I) {
    return inputAt(I[2], I[0], I[1]);
  });
  std::vector<Complex> UY(static_cast<size_t>(Y.storageSize(Rank)));
  std::vector<Complex> UZ(static_cast<size_t>(Z.storageSize(Rank)));

  transformRows(UX, static_cast<int>(NX));
  XtoY.execute(UX.data(), UY.data());
  transformRows(UY, static_cast<int>(NY));
  YtoZ.execute(UY.data(), UZ.data());
  transformRows(UZ, static_cast<int>(NZ));

  const std::vector<Complex> Ref = reference(NX, NY, NZ);
  const int64_t N[3] = {NX, NY, NZ};
  bool Good = check("z-pencils", Z, UZ, {0, 1, 2}, Ref, N);
  std::fill(UX.begin(), UX.end(), Complex(0, 0));
  ZtoX.execute(UZ.data(), UX.data());
  Good = check("back in x-pencils", X, UX, {1, 2, 0}, Ref, N) && Good;
  return Good;
}

bool slab(int64_t NX, int64_t NY, int64_t NZ) {
  const std::vector<int64_t> Grid{Ranks};
  const std::vector<DimFormat> Slab{DimFormat::block(), DimFormat::collapsed(),
                                    DimFormat::collapsed()};
  const ArrayLayout S = layout({NX, NY, NZ}, Slab, Grid);
  const ArrayLayout T = layout({NY, NZ, NX}, Slab, Grid);
  const ArrayPlan StoT = move(S, T, {1, 2, 0});
  const ArrayPlan TtoS = move(T, S, {2, 0, 1});

  std::vector<Complex> US = part(S, [](const std::vector<int64_t> &I) {
    return inputAt(I[0], I[1], I[2]);
  });
  std::vector<Complex> UT(static_cast<size_t>(T.storageSize(Rank)));

  transformPlanes(US, static_cast<int>(NY), static_cast<int>(NZ));
  StoT.execute(US.data(), UT.data());
  transformRows(UT, static_cast<int>(NX));

  const std::vector<Complex> Ref = reference(NX, NY, NZ);
  const int64_t N[3] = {NX, NY, NZ};
  bool Good = check("y-slabs", T, UT, {1, 2, 0}, Ref, N);
  std::fill(US.begin(), US.end(), Complex(0, 0));
  TtoS.execute(UT.data(), US.data());
  Good = check("back in x-slabs", S, US, {0, 1, 2}, Ref, N) && Good;
  return Good;
}

int usage() {
  if (Rank == 0)
    std::fprintf(stderr, "usage: mpirun -np R redist-fft3d pencil NX NY NZ "
                         "P0 P1 (R = P0 * P1)\n"
                         "       mpirun -np R redist-fft3d slab NX NY NZ\n");
  return 2;
}

int run(int Argc, char **Argv) {
  if (Argc < 5)
    return usage();
  const std::string Kind = Argv[1];
  int64_t N[3];
  for (int K = 0; K < 3; ++K) {
    N[K] = std::atoll(Argv[2 + K]);
    if (N[K] < 1 || N[K] > 1024)
      return usage();
  }
  bool Good;
  if (Kind == "pencil" && Argc == 7) {
    const int64_t P0 = std::atoll(Argv[5]), P1 = std::atoll(Argv[6]);
    if (P0 < 1 || P1 < 1 || P0 * P1 != Ranks)
      return usage();
    if (Rank == 0)
      std::printf("redist fft3d: %lld x %lld x %lld complex, pencils on a "
                  "%lld x %lld grid\n",
                  static_cast<long long>(N[0]), static_cast<long long>(N[1]),
                  static_cast<long long>(N[2]), static_cast<long long>(P0),
                  static_cast<long long>(P1));
    Good = pencil(N[0], N[1], N[2], P0, P1);
  } else if (Kind == "slab" && Argc == 5) {
    if (Rank == 0)
      std::printf("redist fft3d: %lld x %lld x %lld complex, slabs on %d "
                  "processes\n",
                  static_cast<long long>(N[0]), static_cast<long long>(N[1]),
                  static_cast<long long>(N[2]), Ranks);
    Good = slab(N[0], N[1], N[2]);
  } else {
    return usage();
  }
  return Good ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  const int Status = run(Argc, Argv);
  fftw_cleanup();
  MPI_Finalize();
  return Status;
}
