//===- gemr2d-compat.cpp - The same PxGEMR2D calls, for two libraries -----===//
//
//   mpirun -np 4 gemr2d-compat-scalapack   (ScaLAPACK's own routines)
//   mpirun -np 4 gemr2d-compat-redist      (libredist_scalapack linked first)
//
// One unchanged ScaLAPACK program, linked twice. It builds four BLACS grids
// over 4 ranks (2x2 row-major, 1x3 on ranks 1-3 so that rank 0 is outside
// it, 3x1 column-major on ranks 0-2, 4x1), and copies sub-matrices between
// them with the five element types, padded leading dimensions and
// first-process offsets, one call three times. After each call it prints a
// hash of every rank's whole local target array (padding included), so the
// two outputs are equal exactly when the local matrices are bit-identical.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" {
void Cblacs_pinfo(int *Me, int *Procs);
void Cblacs_get(int Context, int What, int *Value);
void Cblacs_gridinit(int *Context, const char *Order, int NpRow, int NpCol);
void Cblacs_gridmap(int *Context, int *UserMap, int LdUMap, int NpRow,
                    int NpCol);
void Cblacs_gridinfo(int Context, int *NpRow, int *NpCol, int *MyRow,
                     int *MyCol);
void Cblacs_gridexit(int Context);
int numroc_(const int *N, const int *NB, const int *IProc, const int *ISrc,
            const int *NProcs);
void pdgemr2d_(int *M, int *N, double *A, int *IA, int *JA, int *DescA,
               double *B, int *IB, int *JB, int *DescB, int *GContext);
void Cpsgemr2d(int M, int N, float *A, int IA, int JA, int *DescA, float *B,
               int IB, int JB, int *DescB, int GContext);
void Cpzgemr2d(int M, int N, void *A, int IA, int JA, int *DescA, void *B,
               int IB, int JB, int *DescB, int GContext);
void pcgemr2d_(int *M, int *N, void *A, int *IA, int *JA, int *DescA, void *B,
               int *IB, int *JB, int *DescB, int *GContext);
void Cpigemr2d(int M, int N, int *A, int IA, int JA, int *DescA, int *B, int IB,
               int JB, int *DescB, int GContext);
}

namespace {

/// A distributed matrix on one grid: its descriptor and local array.
template <typename T> struct Local {
  int Desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  std::vector<T> Data;
};

template <typename T> T valueOf(int I, int J, int Salt);
template <> double valueOf<double>(int I, int J, int Salt) {
  return I * 1000.0 + J + Salt / 8.0;
}
template <> float valueOf<float>(int I, int J, int Salt) {
  return static_cast<float>(I * 100 + J) + static_cast<float>(Salt) / 4;
}
template <> int valueOf<int>(int I, int J, int Salt) {
  return I * 1000 + J + Salt * 1000000;
}
template <>
std::complex<double> valueOf<std::complex<double>>(int I, int J, int Salt) {
  return {I + 0.25 * Salt, J - 0.5};
}
template <>
std::complex<float> valueOf<std::complex<float>>(int I, int J, int Salt) {
  return {static_cast<float>(I), static_cast<float>(J + Salt)};
}

/// An M x N matrix with MB x NB blocks from (RSrc, CSrc) on grid Context,
/// LLD padded by Pad; filled with valueOf (Salt) or, as a target, with a
/// pattern that shows every element the copy leaves alone.
template <typename T>
Local<T> makeMatrix(int Context, int M, int N, int MB, int NB, int RSrc,
                    int CSrc, int Pad, int Salt, bool Fill) {
  Local<T> L;
  int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
  if (Context >= 0)
    Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
  if (MyRow < 0)
    return L; // outside the grid: CTXT = -1
  const int LocR = numroc_(&M, &MB, &MyRow, &RSrc, &NpRow);
  const int LocC = numroc_(&N, &NB, &MyCol, &CSrc, &NpCol);
  const int Lld = (LocR > 1 ? LocR : 1) + Pad;
  const int Init[9] = {1, Context, M, N, MB, NB, RSrc, CSrc, Lld};
  std::memcpy(L.Desc, Init, sizeof(Init));
  L.Data.resize(static_cast<std::size_t>(Lld) * (LocC > 0 ? LocC : 1));
  for (std::size_t K = 0; K < L.Data.size(); ++K)
    L.Data[K] = valueOf<T>(-1, static_cast<int>(K), 7);
  if (!Fill)
    return L;
  for (int C = 0; C < LocC; ++C)
    for (int R = 0; R < LocR; ++R) {
      // Global indices of local (R, C).
      const int GR =
          ((R / MB) * NpRow + (MyRow - RSrc + NpRow) % NpRow) * MB + R % MB;
      const int GC =
          ((C / NB) * NpCol + (MyCol - CSrc + NpCol) % NpCol) * NB + C % NB;
      L.Data[static_cast<std::size_t>(R + C * Lld)] = valueOf<T>(GR, GC, Salt);
    }
  return L;
}

/// FNV-1a of the bytes.
uint64_t hashOf(const void *P, std::size_t Bytes) {
  uint64_t H = 1469598103934665603ull;
  const unsigned char *B = static_cast<const unsigned char *>(P);
  for (std::size_t I = 0; I < Bytes; ++I)
    H = (H ^ B[I]) * 1099511628211ull;
  return H;
}

int Rank = 0, Procs = 0;

template <typename T> void report(int Case, const Local<T> &B) {
  unsigned long long H = hashOf(B.Data.data(), B.Data.size() * sizeof(T));
  std::vector<unsigned long long> All(static_cast<std::size_t>(Procs));
  MPI_Gather(&H, 1, MPI_UNSIGNED_LONG_LONG, All.data(), 1,
             MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    for (int R = 0; R < Procs; ++R)
      std::printf("case %d rank %d: %016llx\n", Case, R,
                  All[static_cast<std::size_t>(R)]);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Cblacs_pinfo(&Rank, &Procs);
  if (Procs != 4) {
    if (Rank == 0)
      std::fprintf(stderr, "gemr2d-compat: needs 4 ranks, has %d\n", Procs);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int System = 0;
  Cblacs_get(-1, 0, &System);
  int All = System, G22 = System, G13 = System, G31 = System, G41 = System;
  Cblacs_gridinit(&All, "R", 1, 4);
  Cblacs_gridinit(&G22, "R", 2, 2);
  int Map13[3] = {1, 2, 3};
  Cblacs_gridmap(&G13, Map13, 1, 1, 3);
  Cblacs_gridinit(&G31, "C", 3, 1);
  Cblacs_gridinit(&G41, "R", 4, 1);

  {
    // Sub-matrix 2x2 -> 1x3 (rank 0 outside the target), three times: the
    // second and third calls reuse the plan.
    auto A = makeMatrix<double>(G22, 40, 30, 4, 3, 1, 0, 2, 1, true);
    auto B = makeMatrix<double>(G13, 25, 20, 5, 2, 0, 2, 1, 0, false);
    int M = 17, N = 13, IA = 3, JA = 2, IB = 2, JB = 5;
    for (int Repeat = 0; Repeat < 3; ++Repeat) {
      pdgemr2d_(&M, &N, A.Data.data(), &IA, &JA, A.Desc, B.Data.data(), &IB,
                &JB, B.Desc, &All);
      report(1, B);
    }
  }
  {
    // Whole matrix, 2x2 (32 x 32 blocks) -> 4x1 (8 x 64 blocks).
    auto A = makeMatrix<double>(G22, 100, 90, 32, 32, 0, 0, 0, 2, true);
    auto B = makeMatrix<double>(G41, 100, 90, 8, 64, 3, 0, 0, 0, false);
    int M = 100, N = 90, One = 1;
    pdgemr2d_(&M, &N, A.Data.data(), &One, &One, A.Desc, B.Data.data(), &One,
              &One, B.Desc, &All);
    report(2, B);
  }
  {
    // float, 1x3 (rank 0 outside the source) -> 2x2, sub-matrices.
    auto A = makeMatrix<float>(G13, 33, 41, 3, 4, 0, 1, 3, 3, true);
    auto B = makeMatrix<float>(G22, 30, 50, 2, 7, 1, 1, 0, 0, false);
    Cpsgemr2d(20, 31, A.Data.data(), 4, 9, A.Desc, B.Data.data(), 6, 11, B.Desc,
              All);
    report(3, B);
  }
  {
    // double complex, 3x1 column-major (rank 3 outside) -> 1x3 (rank 0
    // outside).
    auto A =
        makeMatrix<std::complex<double>>(G31, 29, 23, 4, 5, 2, 0, 1, 4, true);
    auto B =
        makeMatrix<std::complex<double>>(G13, 29, 23, 6, 3, 0, 0, 2, 0, false);
    Cpzgemr2d(29, 23, A.Data.data(), 1, 1, A.Desc, B.Data.data(), 1, 1, B.Desc,
              All);
    report(4, B);
  }
  {
    // complex float, 2x2 -> 2x2 with other blocks and offsets.
    auto A =
        makeMatrix<std::complex<float>>(G22, 64, 64, 32, 32, 0, 1, 0, 5, true);
    auto B =
        makeMatrix<std::complex<float>>(G22, 70, 66, 10, 10, 1, 0, 3, 0, false);
    int M = 60, N = 61, IA = 5, JA = 4, IB = 9, JB = 6;
    pcgemr2d_(&M, &N, A.Data.data(), &IA, &JA, A.Desc, B.Data.data(), &IB, &JB,
              B.Desc, &All);
    report(5, B);
  }
  {
    // int, 4x1 -> 3x1 column-major (rank 3 outside the target).
    auto A = makeMatrix<int>(G41, 50, 12, 3, 5, 2, 0, 0, 6, true);
    auto B = makeMatrix<int>(G31, 50, 12, 7, 2, 1, 0, 1, 0, false);
    Cpigemr2d(45, 12, A.Data.data(), 6, 1, A.Desc, B.Data.data(), 1, 1, B.Desc,
              All);
    report(6, B);
  }

  for (int *G : {&G22, &G13, &G31, &G41})
    if (*G >= 0) {
      int R = 0, C = 0, MyR = -1, MyC = -1;
      Cblacs_gridinfo(*G, &R, &C, &MyR, &MyC);
      if (MyR >= 0)
        Cblacs_gridexit(*G);
    }
  MPI_Finalize();
  return 0;
}
