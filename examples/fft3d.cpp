//===- fft3d.cpp - A distributed 3-D FFT with redist's directives --------===//
//
//   mpirun -np R redist-fft3d pencil NX NY NZ P0 P1   (R = P0 * P1)
//   mpirun -np R redist-fft3d slab NX NY NZ           (a 1-D arrangement of R)
//
// The forward 3-D DFT of an NX x NY x NZ complex array u[x][y][z],
// distributed as FFT codes do, with FFTW's serial 1-D (slab: 2-D)
// transforms on local data and redist's directives moving the data in
// between (redistc translates this file at build time).
//
// Pencil: every phase keeps the axis it transforms last, so its transforms
// run along contiguous memory, and splits the other two over the P0 x P1
// grid (block, block, *), row-major storage:
//   UX[y][z][x]  x-pencils   transform along x
//   UY[x][z][y]  y-pencils   transform along y  (UY = permute(UX, 2, 1, 0))
//   UZ[x][y][z]  z-pencils   transform along z  (UZ = permute(UY, 0, 2, 1))
//   UX[y][z][x]  and back to x-pencils          (UX = permute(UZ, 1, 2, 0))
// UX -> UY keeps z on P1 and moves within grid rows; UY -> UZ keeps x on P0
// and moves within grid columns; UZ -> UX moves across the grid. Three
// assign directives do all the communication; the runtime plans each once
// and reuses the plan (in a time-stepping code they run every step).
//
// Slab: on R processes, US[x][y][z] (block, *, *) transforms each local x
// plane in 2-D; UT[y][z][x] (block, *, *) = permute(US, 1, 2, 0) transforms
// along x; a second assign takes the result back to US's layout.
//
// The result is checked, after the last transform and again after the
// move back, against FFTW's serial 3-D transform of the whole array, which
// every rank computes (the example's arrays are small).
//
//===----------------------------------------------------------------------===//

#include <redist/runtime/LocalPart.h>

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

/// Fills this rank's part of an array, described by Info, from F(global
/// index).
template <typename Fn>
void fill(std::vector<Complex> &Local, const DistributedArrayInfo &Info, Fn F) {
  Local.resize(static_cast<size_t>(Info.storageSize()));
  for (int64_t Off = 0; Off < Info.storageSize(); ++Off)
    Local[static_cast<size_t>(Off)] = F(Info.globalIndex(Off));
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

/// Compares this rank's part of an array described by Info, whose axes
/// are the global axes Axes (its axis k is global axis Axes[k]), with the
/// reference; prints the largest error over all ranks and returns whether
/// it is small.
bool check(const char *What, const DistributedArrayInfo &Info,
           const std::vector<Complex> &Local, const std::vector<int> &Axes,
           const std::vector<Complex> &Ref, const int64_t (&N)[3]) {
  double Mine = 0;
  for (int64_t Off = 0; Off < static_cast<int64_t>(Local.size()); ++Off) {
    const std::vector<int64_t> I = Info.globalIndex(Off);
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
#pragma redist processors G(P0, P1)
  std::vector<Complex> UX, UY, UZ;
#pragma redist distribute UX[NY][NZ][NX](block, block, *) onto G storage(      \
    row_major)
#pragma redist distribute UY[NX][NZ][NY](block, block, *) onto G storage(      \
    row_major)
#pragma redist distribute UZ[NX][NY][NZ](block, block, *) onto G storage(      \
    row_major)
#pragma redist inquire UX into XInfo
#pragma redist inquire UZ into ZInfo
  fill(UX, XInfo,
       [](const std::vector<int64_t> &I) { return inputAt(I[2], I[0], I[1]); });

  transformRows(UX, static_cast<int>(NX));
#pragma redist assign UY = permute(UX, 2, 1, 0)
  transformRows(UY, static_cast<int>(NY));
#pragma redist assign UZ = permute(UY, 0, 2, 1)
  transformRows(UZ, static_cast<int>(NZ));

  const std::vector<Complex> Ref = reference(NX, NY, NZ);
  const int64_t N[3] = {NX, NY, NZ};
  bool Good = check("z-pencils", ZInfo, UZ, {0, 1, 2}, Ref, N);
  std::fill(UX.begin(), UX.end(), Complex(0, 0));
#pragma redist assign UX = permute(UZ, 1, 2, 0)
  Good = check("back in x-pencils", XInfo, UX, {1, 2, 0}, Ref, N) && Good;
  return Good;
}

bool slab(int64_t NX, int64_t NY, int64_t NZ) {
#pragma redist processors L(Ranks)
  std::vector<Complex> US, UT;
#pragma redist distribute US[NX][NY][NZ](block, *, *) onto L storage(row_major)
#pragma redist distribute UT[NY][NZ][NX](block, *, *) onto L storage(row_major)
#pragma redist inquire US into SInfo
#pragma redist inquire UT into TInfo
  fill(US, SInfo,
       [](const std::vector<int64_t> &I) { return inputAt(I[0], I[1], I[2]); });

  transformPlanes(US, static_cast<int>(NY), static_cast<int>(NZ));
#pragma redist assign UT = permute(US, 1, 2, 0)
  transformRows(UT, static_cast<int>(NX));

  const std::vector<Complex> Ref = reference(NX, NY, NZ);
  const int64_t N[3] = {NX, NY, NZ};
  bool Good = check("y-slabs", TInfo, UT, {1, 2, 0}, Ref, N);
  std::fill(US.begin(), US.end(), Complex(0, 0));
#pragma redist assign US = permute(UT, 2, 0, 1)
  Good = check("back in x-slabs", SInfo, US, {0, 1, 2}, Ref, N) && Good;
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
