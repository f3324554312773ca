//===- scalapack-compat.cpp - Random calls of every routine, two libraries ===//
//
//   mpirun -np 4 scalapack-compat-scalapack SEED COUNT   (ScaLAPACK's own)
//   mpirun -np 4 scalapack-compat-redist SEED COUNT [nan] (drop-in first)
//
// One unchanged ScaLAPACK program, linked twice. It draws COUNT calls from
// SEED: p?gemr2d and p?trmr2d (every type, UPLO, DIAG) between any two of
// eight BLACS grids over 4 ranks (row- and column-major, some leaving ranks
// outside), and PBLAS's p?tran, p?tranu, p?tranc, p?geadd (TRANS N, T, C)
// and p?tradd (UPLO U, L) on one grid; with random sizes, sub-matrices and
// offsets, block sizes, RSRC/CSRC, LLDs padded per process, and alpha and
// beta of 0, 1 or other values. After each call it prints a hash of every
// rank's whole local target array (padding included): the two outputs are
// equal exactly when the local arrays are bit-identical, but for the sign
// of zeros, which the hash ignores: where beta = 0, PBLAS still adds
// beta * C in some paths (so -0 + +0 gives +0, and a NaN in C survives),
// while the drop-in writes alpha * op(A) without reading C.
//
// With "nan", C holds NaNs where beta = 0, and each PBLAS call prints how
// many survived in sub(C) (in PxTRADD's trapezoid): none may.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
void Cblacs_pinfo(int *Me, int *Procs);
void Cblacs_get(int Context, int What, int *Value);
void Cblacs_gridinit(int *Context, const char *Order, int NpRow, int NpCol);
void Cblacs_gridmap(int *Context, int *UserMap, int LdUMap, int NpRow,
                    int NpCol);
void Cblacs_gridinfo(int Context, int *NpRow, int *NpCol, int *MyRow,
                     int *MyCol);
int numroc_(const int *N, const int *NB, const int *IProc, const int *ISrc,
            const int *NProcs);
#define GEMR(P)                                                                \
  void p##P##gemr2d_(int *M, int *N, void *A, int *IA, int *JA, int *DescA,    \
                     void *B, int *IB, int *JB, int *DescB, int *Context);     \
  void p##P##trmr2d_(const char *Uplo, const char *Diag, int *M, int *N,       \
                     void *A, int *IA, int *JA, int *DescA, void *B, int *IB,  \
                     int *JB, int *DescB, int *Context);
GEMR(s)
GEMR(d) GEMR(c) GEMR(z) GEMR(i)
#define PBLAS(P)                                                               \
  void p##P##geadd_(const char *Trans, int *M, int *N, void *Alpha, void *A,   \
                    int *IA, int *JA, int *DescA, void *Beta, void *C,         \
                    int *IC, int *JC, int *DescC);                             \
  void p##P##tradd_(const char *Uplo, const char *Trans, int *M, int *N,       \
                    void *Alpha, void *A, int *IA, int *JA, int *DescA,        \
                    void *Beta, void *C, int *IC, int *JC, int *DescC);
    PBLAS(s) PBLAS(d) PBLAS(c) PBLAS(z)
#define TRAN(NAME)                                                             \
  void NAME(int *M, int *N, void *Alpha, void *A, int *IA, int *JA,            \
            int *DescA, void *Beta, void *C, int *IC, int *JC, int *DescC);
        TRAN(pstran_) TRAN(pdtran_) TRAN(pctranu_) TRAN(pztranu_) TRAN(pctranc_)
            TRAN(pztranc_)
}

namespace {

int Rank = 0, Procs = 0;
std::mt19937_64 Rng;

int uniform(int Lo, int Hi) {
  return std::uniform_int_distribution<int>(Lo, Hi)(Rng);
}

/// Bytes per element of type T: s, d, c, z, i.
int bytesOf(char T) {
  return T == 's' || T == 'i' ? 4 : T == 'd' || T == 'c' ? 8 : 16;
}
bool isComplex(char T) { return T == 'c' || T == 'z'; }

/// One real component of element (I, J) of a source: exact in float.
double valueOf(int I, int J, int K, int Salt) {
  return (I * 37 + J * 11 + K * 5 + Salt) % 64 / 4.0 - 7.5;
}

/// Writes real component K of an element at P as type T.
void store(char T, char *P, int K, double V) {
  if (T == 's' || T == 'c') {
    const float F = static_cast<float>(V);
    std::memcpy(P + K * 4, &F, 4);
  } else if (T == 'i') {
    const int I = static_cast<int>(V * 4);
    std::memcpy(P, &I, 4);
  } else {
    std::memcpy(P + K * 8, &V, 8);
  }
}

/// A distributed matrix on one grid: descriptor and local array.
struct Local {
  int Desc[9] = {1, -1, 0, 0, 1, 1, 0, 0, 1};
  std::vector<char> Data;
};

/// An M x N matrix of type T on Context with random blocks, RSRC/CSRC and
/// per-process LLD padding; a source holds valueOf, a target a pattern
/// (NaN where Nan is set).
Local makeMatrix(int Context, char T, int M, int N, bool Source, int Salt,
                 bool Nan) {
  Local L;
  int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
  Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
  // Drawn on every rank alike: the descriptor is global.
  const int MB = uniform(1, 7), NB = uniform(1, 7);
  const int RSrc = uniform(0, NpRow - 1), CSrc = uniform(0, NpCol - 1);
  const int Pads[4] = {uniform(0, 3), uniform(0, 3), uniform(0, 3),
                       uniform(0, 3)};
  if (MyRow < 0 || MyRow >= NpRow)
    return L; // outside the grid: CTXT = -1
  const int LocR = numroc_(&M, &MB, &MyRow, &RSrc, &NpRow);
  const int LocC = numroc_(&N, &NB, &MyCol, &CSrc, &NpCol);
  const int Lld = std::max(LocR, 1) + Pads[Rank];
  const int Init[9] = {1, Context, M, N, MB, NB, RSrc, CSrc, Lld};
  std::memcpy(L.Desc, Init, sizeof(Init));
  const int E = bytesOf(T), Parts = isComplex(T) ? 2 : 1;
  L.Data.assign(static_cast<std::size_t>(Lld) * std::max(LocC, 1) * E, 0);
  for (int C = 0; C < std::max(LocC, 1); ++C)
    for (int R = 0; R < Lld; ++R) {
      char *P = &L.Data[static_cast<std::size_t>(R + C * Lld) * E];
      const int GR =
          ((R / MB) * NpRow + (MyRow - RSrc + NpRow) % NpRow) * MB + R % MB;
      const int GC =
          ((C / NB) * NpCol + (MyCol - CSrc + NpCol) % NpCol) * NB + C % NB;
      for (int K = 0; K < Parts; ++K) {
        if (Source)
          store(T, P, K, valueOf(GR, GC, K, Salt));
        else if (Nan && T != 'i' && (R + C) % 3 == 0)
          store(T, P, K, std::nan(""));
        else
          store(T, P, K, valueOf(R, C, K, 99) + 0.125);
      }
    }
  return L;
}

/// FNV-1a of the bytes of the elements of type T, zeros of either sign
/// hashed alike.
uint64_t hashOf(char T, const std::vector<char> &D) {
  std::vector<char> Canonical = D;
  const int Part = T == 's' || T == 'c' ? 4 : 8;
  if (T != 'i')
    for (std::size_t O = 0; O + Part <= Canonical.size(); O += Part) {
      char *P = &Canonical[O];
      if (Part == 4) {
        float F;
        std::memcpy(&F, P, 4);
        F += 0.0f; // -0 + +0 = +0
        std::memcpy(P, &F, 4);
      } else {
        double X;
        std::memcpy(&X, P, 8);
        X += 0.0;
        std::memcpy(P, &X, 8);
      }
    }
  uint64_t H = 1469598103934665603ull;
  for (char C : Canonical)
    H = (H ^ static_cast<unsigned char>(C)) * 1099511628211ull;
  return H;
}

/// NaNs left in sub(C), M x N at (IC, JC), within PxTRADD's trapezoid
/// (Uplo, Tradd), on this process.
int nansIn(const Local &B, char T, int IC, int JC, int M, int N, bool Tradd,
           char Uplo) {
  if (B.Desc[1] < 0 || T == 'i')
    return 0;
  int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
  Cblacs_gridinfo(B.Desc[1], &NpRow, &NpCol, &MyRow, &MyCol);
  const int MB = B.Desc[4], NB = B.Desc[5], RSrc = B.Desc[6], CSrc = B.Desc[7],
            Lld = B.Desc[8];
  const int LocR = numroc_(&B.Desc[2], &MB, &MyRow, &RSrc, &NpRow);
  const int LocC = numroc_(&B.Desc[3], &NB, &MyCol, &CSrc, &NpCol);
  const int E = bytesOf(T), Part = T == 's' || T == 'c' ? 4 : 8;
  int Nans = 0;
  for (int C = 0; C < LocC; ++C)
    for (int R = 0; R < LocR; ++R) {
      const int I = ((R / MB) * NpRow + (MyRow - RSrc + NpRow) % NpRow) * MB +
                    R % MB - (IC - 1);
      const int J = ((C / NB) * NpCol + (MyCol - CSrc + NpCol) % NpCol) * NB +
                    C % NB - (JC - 1);
      if (I < 0 || I >= M || J < 0 || J >= N ||
          (Tradd && (Uplo == 'U' ? I > J : I < J)))
        continue;
      const char *P = &B.Data[static_cast<std::size_t>(R + C * Lld) * E];
      for (int K = 0; K < E / Part; ++K) {
        double X;
        if (Part == 4) {
          float F;
          std::memcpy(&F, P + K * 4, 4);
          X = F;
        } else {
          std::memcpy(&X, P + K * 8, 8);
        }
        Nans += std::isnan(X);
      }
    }
  return Nans;
}

void report(int Case, char T, const Local &B) {
  unsigned long long H = hashOf(T, B.Data);
  std::vector<unsigned long long> All(static_cast<std::size_t>(Procs));
  MPI_Gather(&H, 1, MPI_UNSIGNED_LONG_LONG, All.data(), 1,
             MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    for (int R = 0; R < Procs; ++R)
      std::printf("case %d rank %d: %016llx\n", Case, R,
                  All[static_cast<std::size_t>(R)]);
}

/// Alpha or beta: 0, 1 or another value, as the element type holds it.
struct Scalar {
  double V[2] = {0, 0};
  float F[2] = {0, 0};
  void *as(char T) { return T == 's' || T == 'c' ? static_cast<void *>(F) : V; }
};
Scalar drawScalar(char T) {
  Scalar S;
  const int Kind = uniform(0, 3);
  if (Kind == 1)
    S.V[0] = 1;
  else if (Kind >= 2) {
    S.V[0] = uniform(-8, 8) / 4.0;
    if (isComplex(T))
      S.V[1] = uniform(-8, 8) / 4.0;
  }
  S.F[0] = static_cast<float>(S.V[0]);
  S.F[1] = static_cast<float>(S.V[1]);
  return S;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Cblacs_pinfo(&Rank, &Procs);
  if (Procs != 4 || argc < 3 || argc > 4) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: mpirun -np 4 scalapack-compat SEED COUNT\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Rng.seed(std::strtoull(argv[1], nullptr, 10));
  const int Count = std::atoi(argv[2]);
  const bool NanMode = argc == 4 && std::strcmp(argv[3], "nan") == 0;
  int System = 0;
  Cblacs_get(-1, 0, &System);
  // The grids: every process in some, some leaving processes outside.
  std::vector<int> Grids(8, System);
  Cblacs_gridinit(&Grids[0], "R", 1, 4);
  Cblacs_gridinit(&Grids[1], "R", 2, 2);
  Cblacs_gridinit(&Grids[2], "C", 2, 2);
  Cblacs_gridinit(&Grids[3], "R", 4, 1);
  int Map13[3] = {1, 2, 3};
  Cblacs_gridmap(&Grids[4], Map13, 1, 1, 3);
  Cblacs_gridinit(&Grids[5], "C", 3, 1);
  int Map21[2] = {3, 1};
  Cblacs_gridmap(&Grids[6], Map21, 2, 2, 1);
  int Map11[1] = {2};
  Cblacs_gridmap(&Grids[7], Map11, 1, 1, 1);
  const int All = Grids[0];

  for (int Case = 0; Case < Count; ++Case) {
    const int Kind = uniform(0, 5); // gemr2d trmr2d tran geadd tradd tranc
    const char *Types = Kind <= 1 ? "sdczi" : Kind == 2 ? "sdcz" : "sdcz";
    char T = Types[uniform(0, static_cast<int>(std::strlen(Types)) - 1)];
    if (Kind == 5)
      T = uniform(0, 1) ? 'c' : 'z';
    int M = uniform(0, 24), N = uniform(0, 24);
    if (uniform(0, 9) == 0)
      M = 0;
    char Trans = 'N', Uplo = uniform(0, 1) ? 'U' : 'L';
    const char Diag = uniform(0, 1) ? 'N' : 'U';
    if (Kind == 3 || Kind == 4)
      Trans = "NTC"[uniform(0, 2)];
    if (Kind == 2 || Kind == 5)
      Trans = 'T';
    const bool T2 = Trans != 'N';
    // A's sub-matrix is M x N, or N x M under op.
    const int AR = T2 ? N : M, AC = T2 ? M : N;
    const int GA = uniform(0, 7);
    const int GB = Kind <= 1 ? uniform(0, 7) : GA; // PBLAS: one context
    const int MA = AR + uniform(0, 6), NA = AC + uniform(0, 6);
    const int MC = M + uniform(0, 6), NC = N + uniform(0, 6);
    const int IA = uniform(1, MA - AR + 1), JA = uniform(1, NA - AC + 1);
    const int IC = uniform(1, MC - M + 1), JC = uniform(1, NC - N + 1);
    Scalar Alpha = drawScalar(T), Beta = drawScalar(T);
    const bool BetaZero = Beta.V[0] == 0 && Beta.V[1] == 0;
    Local A = makeMatrix(Grids[GA], T, MA, NA, true, Case, false);
    Local B = makeMatrix(Grids[GB], T, MC, NC, false, 0,
                         Kind >= 2 && BetaZero && NanMode);
    static const char *Names[] = {"gemr2d", "trmr2d", "tran",
                                  "geadd",  "tradd",  "tranc"};
    if (Rank == 0)
      std::printf("case %d: p%c%s %c%c%c %dx%d grids %d->%d alpha %g,%g "
                  "beta %g,%g\n",
                  Case, T, Names[Kind], Uplo, Diag, Trans, M, N, GA, GB,
                  Alpha.V[0], Alpha.V[1], Beta.V[0], Beta.V[1]);
    int Ctx = All, IAv = IA, JAv = JA, ICv = IC, JCv = JC, Mv = M, Nv = N;
    void *Al = Alpha.as(T), *Be = Beta.as(T);
    void *Ap = A.Data.data(), *Bp = B.Data.data();
    int NpRow = 0, NpCol = 0, MyRow = -1, MyCol = -1;
    Cblacs_gridinfo(Grids[GA], &NpRow, &NpCol, &MyRow, &MyCol);
    const bool InGrid = MyRow >= 0 && MyRow < NpRow;
#define CASE_T(P)                                                              \
  case #P[0]:                                                                  \
    if (Kind == 0)                                                             \
      p##P##gemr2d_(&Mv, &Nv, Ap, &IAv, &JAv, A.Desc, Bp, &ICv, &JCv, B.Desc,  \
                    &Ctx);                                                     \
    else if (Kind == 1)                                                        \
      p##P##trmr2d_(&Uplo, &Diag, &Mv, &Nv, Ap, &IAv, &JAv, A.Desc, Bp, &ICv,  \
                    &JCv, B.Desc, &Ctx);                                       \
    else if (Kind == 3 && InGrid)                                              \
      p##P##geadd_(&Trans, &Mv, &Nv, Al, Ap, &IAv, &JAv, A.Desc, Be, Bp, &ICv, \
                   &JCv, B.Desc);                                              \
    else if (Kind == 4 && InGrid)                                              \
      p##P##tradd_(&Uplo, &Trans, &Mv, &Nv, Al, Ap, &IAv, &JAv, A.Desc, Be,    \
                   Bp, &ICv, &JCv, B.Desc);                                    \
    break;
    if (Kind <= 1 || Kind == 3 || Kind == 4) {
      switch (T) {
        CASE_T(s)
        CASE_T(d)
        CASE_T(c)
        CASE_T(z)
      case 'i':
        if (Kind == 0)
          pigemr2d_(&Mv, &Nv, Ap, &IAv, &JAv, A.Desc, Bp, &ICv, &JCv, B.Desc,
                    &Ctx);
        else
          pitrmr2d_(&Uplo, &Diag, &Mv, &Nv, Ap, &IAv, &JAv, A.Desc, Bp, &ICv,
                    &JCv, B.Desc, &Ctx);
        break;
      }
    } else if (InGrid) {
      auto Tran = Kind == 5  ? (T == 'c' ? pctranc_ : pztranc_)
                  : T == 's' ? pstran_
                  : T == 'd' ? pdtran_
                  : T == 'c' ? pctranu_
                             : pztranu_;
      Tran(&Mv, &Nv, Al, Ap, &IAv, &JAv, A.Desc, Be, Bp, &ICv, &JCv, B.Desc);
    }
    report(Case, T, B);
    if (NanMode && Kind >= 2 && BetaZero) {
      int Mine = nansIn(B, T, IC, JC, M, N, Kind == 4, Uplo), Nans = 0;
      MPI_Reduce(&Mine, &Nans, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
      if (Rank == 0)
        std::printf("case %d: nan survived %d\n", Case, Nans);
    }
  }
  MPI_Finalize();
  return 0;
}
