/* A C ScaLAPACK program: Cpdgemr2d and pdtran_ from 2x2 to 1x4 and back,
 * through redist/scalapack.h. Prints "c-solver: ok" when every element is
 * where it belongs. */
#include "redist/scalapack.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int *Me, int *Procs);
void Cblacs_get(int Context, int What, int *Value);
void Cblacs_gridinit(int *Context, const char *Order, int NpRow, int NpCol);
void Cblacs_gridinfo(int Context, int *NpRow, int *NpCol, int *MyRow,
                     int *MyCol);
int numroc_(const int *N, const int *NB, const int *IProc, const int *ISrc,
            const int *NProcs);
void pdtran_(int *M, int *N, double *Alpha, double *A, int *IA, int *JA,
             int *DescA, double *Beta, double *C, int *IC, int *JC, int *DescC);

enum { N = 12, NB = 2 };

/* Global index of local index L with blocks of NB over P processes. */
static int global(int L, int P, int Me) {
  return (L / NB * P + Me) * NB + L % NB;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Me = 0, Procs = 0, Sys = 0, G22 = 0, G14 = 0, Zero = 0, One = 1;
  Cblacs_pinfo(&Me, &Procs);
  Cblacs_get(-1, 0, &Sys);
  G22 = G14 = Sys;
  Cblacs_gridinit(&G22, "R", 2, 2);
  Cblacs_gridinit(&G14, "R", 1, 4);
  int R = 0, C = 0, MyR = 0, MyC = 0, Nn = N, Nb = NB;
  Cblacs_gridinfo(G22, &R, &C, &MyR, &MyC);
  int LR = numroc_(&Nn, &Nb, &MyR, &Zero, &R),
      LC = numroc_(&Nn, &Nb, &MyC, &Zero, &C);
  int DescA[9] = {1, G22, N, N, NB, NB, 0, 0, LR};
  double *A = malloc(sizeof(double) * LR * LC),
         *T = malloc(sizeof(double) * LR * LC);
  for (int J = 0; J < LC; ++J)
    for (int I = 0; I < LR; ++I)
      A[I + J * LR] = 100.0 * global(I, R, MyR) + global(J, C, MyC);
  int R4 = 0, C4 = 0, MyR4 = 0, MyC4 = 0;
  Cblacs_gridinfo(G14, &R4, &C4, &MyR4, &MyC4);
  int LC4 = numroc_(&Nn, &Nb, &MyC4, &Zero, &C4);
  int DescB[9] = {1, G14, N, N, NB, NB, 0, 0, N};
  double *B = malloc(sizeof(double) * N * LC4);
  Cpdgemr2d(N, N, A, 1, 1, DescA, B, 1, 1, DescB, G22);
  int Bad = 0;
  for (int J = 0; J < LC4; ++J)
    for (int I = 0; I < N; ++I)
      Bad += B[I + J * N] != 100.0 * I + global(J, C4, MyC4);
  double Alpha = 1, Beta = 0;
  pdtran_(&Nn, &Nn, &Alpha, A, &One, &One, DescA, &Beta, T, &One, &One, DescA);
  for (int J = 0; J < LC; ++J)
    for (int I = 0; I < LR; ++I)
      Bad += T[I + J * LR] != 100.0 * global(J, C, MyC) + global(I, R, MyR);
  int All = 0;
  MPI_Reduce(&Bad, &All, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Me == 0)
    printf("c-solver: %s\n", All == 0 ? "ok" : "wrong elements");
  MPI_Finalize();
  return All != 0;
}
