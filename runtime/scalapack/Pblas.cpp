//===- Pblas.cpp - PBLAS's transposes and sums on redist's matrix plans ---===//
//
// p?tran_, p?tranu_, p?tranc_, p?geadd_ and p?tradd_ compute
// C := beta * C + alpha * op(A) on sub-matrices of any alignment, with
// PBLAS's arguments: they check them as PBLAS does (PB_Cchkmat's checks in
// its order, the same INFO to PB_Cabort, which stops the program as PBLAS's
// does, or returns where a test harness defines its own), take PBLAS's
// shortcuts (M or N = 0, or alpha = 0 and beta = 1: nothing; alpha = 0:
// C := beta * C locally, zeros without reading C when beta = 0), and
// otherwise move op(A) with one cached plan whose unpacking combines it
// into C (MatrixPlan::execute with a Combine). PxTRADD's trapezoid is
// LAPACK's: row i of column j of sub(C) (from 0) with i <= j (UPLO = 'U')
// or i >= j.
//
//===----------------------------------------------------------------------===//
#include "Blacs.h"
#include "Engine.h"

#include <cctype>
#include <cstdio>
#include <string>

extern "C" {
// PBLAS's error handler and warning printer (ScaLAPACK's PTOOLS).
void PB_Cabort(int Context, const char *Routine, int Info);
void PB_Cwarn(int Context, int Line, const char *Routine, const char *Format,
              ...);
void Cblacs_abort(int Context, int Code);
}

namespace {

using namespace redist;
using namespace redist::scalapack;

/// PBLAS's descriptor layout (BLOCK_CYCLIC_2D_INB), which PBLAS converts
/// ScaLAPACK's (BLOCK_CYCLIC_2D) to.
enum PDesc { PDtype, PCtxt, PM, PN, PImb, PInb, PMb, PNb, PRsrc, PCsrc, PLld };
constexpr int DescMult = 100, BigNum = 10000;

/// PB_CargFtoC: Fortran's 1-based IA, JA and descriptor of either type.
void toPblas(int I, int J, const int *Desc, int &I0, int &J0, int *Ad) {
  I0 = I - 1;
  J0 = J - 1;
  if (Desc[0] == 1) {
    const int A[11] = {2,       Desc[1], Desc[2], Desc[3], Desc[4], Desc[5],
                       Desc[4], Desc[5], Desc[6], Desc[7], Desc[8]};
    std::copy(A, A + 11, Ad);
  } else if (Desc[0] == 2) {
    std::copy(Desc, Desc + 11, Ad);
  } else {
    Ad[PDtype] = Desc[0];
    Ad[PCtxt] = Desc[1];
  }
}

/// The local rows or columns (PBLAS's numroc with a first block).
int localCount(int N, int Imb, int Nb, int Proc, int Src, int Procs) {
  if (Src == -1)
    return N;
  const int Dist = (Proc - Src + Procs) % Procs;
  if (N <= Imb)
    return Dist == 0 ? N : 0;
  const int Rest = N - Imb, Blocks = Rest / Nb, Last = Rest % Nb;
  // Block 0 (Imb long) is on distance 0, block k >= 1 on k mod Procs.
  int Count = Dist == 0 ? Imb : 0;
  int Whole = 0;
  // Blocks with index k in 1 .. Blocks and k % Procs == Dist.
  if (Blocks > 0) {
    const int FirstK = Dist == 0 ? Procs : Dist;
    if (FirstK <= Blocks)
      Whole = (Blocks - FirstK) / Procs + 1;
  }
  Count += Whole * Nb;
  if (Last > 0 && (Blocks + 1) % Procs == Dist)
    Count += Last;
  return Count;
}

/// PB_Cchkmat: the checks of sub(A) (M x N at 0-based IA, JA) and its
/// descriptor Ad at argument positions MPos, NPos, DPos, into Info.
void checkMatrix(int Context, int M, int MPos0, int N, int NPos0, int IA,
                 int JA, const int *Ad, int DPos0, int &Info,
                 std::string &First) {
  if (Info >= 0)
    Info = BigNum;
  else if (Info < -DescMult)
    Info = -Info;
  else
    Info = -Info * DescMult;
  const int MPos = MPos0 * DescMult, NPos = NPos0 * DescMult;
  const int IAPos = (DPos0 - 2) * DescMult, JAPos = (DPos0 - 1) * DescMult;
  const int DPos = DPos0 * DescMult + 1;
  int NpRow = 0, NpCol = 0, MyRow = 0, MyCol = 0;
  Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
  auto Bad = [&](int Code, const std::string &What) {
    if (Code < Info && First.empty())
      First = What;
    Info = std::min(Info, Code);
  };
  auto Finish = [&] {
    if (Info == BigNum)
      Info = 0;
    else if (Info % DescMult == 0)
      Info = -(Info / DescMult);
    else
      Info = -Info;
  };
  if (M < 0)
    Bad(MPos, "M = " + std::to_string(M) + " is negative");
  if (N < 0)
    Bad(NPos, "N = " + std::to_string(N) + " is negative");
  if (IA < 0)
    Bad(IAPos, "a first row " + std::to_string(IA + 1) + " is below 1");
  if (JA < 0)
    Bad(JAPos, "a first column " + std::to_string(JA + 1) + " is below 1");
  if (Ad[PDtype] != 2) {
    Bad(DPos + PDtype, "descriptor type " + std::to_string(Ad[PDtype]) +
                           "; PBLAS accepts 1 or 2");
    return Finish();
  }
  if (Ad[PCtxt] != Context) {
    Bad(DPos + PCtxt, "the operands' contexts differ");
    return Finish();
  }
  for (int E : {PImb, PInb, PMb, PNb})
    if (Ad[E] < 1)
      Bad(DPos + E, "a block size " + std::to_string(Ad[E]) + " is below 1");
  if (Ad[PRsrc] < -1 || Ad[PRsrc] >= NpRow)
    Bad(DPos + PRsrc,
        "RSRC_ " + std::to_string(Ad[PRsrc]) + " is outside the grid");
  if (Ad[PCsrc] < -1 || Ad[PCsrc] >= NpCol)
    Bad(DPos + PCsrc,
        "CSRC_ " + std::to_string(Ad[PCsrc]) + " is outside the grid");
  if (M == 0 || N == 0) {
    if (Ad[PM] < 0)
      Bad(DPos + PM, "M_ " + std::to_string(Ad[PM]) + " is negative");
    if (Ad[PN] < 0)
      Bad(DPos + PN, "N_ " + std::to_string(Ad[PN]) + " is negative");
    if (Ad[PLld] < 1)
      Bad(DPos + PLld, "LLD_ " + std::to_string(Ad[PLld]) + " is below 1");
    return Finish();
  }
  if (Ad[PM] < 1)
    Bad(DPos + PM, "M_ " + std::to_string(Ad[PM]) + " is below 1");
  if (Ad[PN] < 1)
    Bad(DPos + PN, "N_ " + std::to_string(Ad[PN]) + " is below 1");
  if (Ad[PM] >= 1 && Ad[PN] >= 1) {
    if (IA + M > Ad[PM])
      Bad(IAPos, "rows " + std::to_string(IA + 1) + " .. " +
                     std::to_string(IA + M) + " exceed M_ " +
                     std::to_string(Ad[PM]));
    if (JA + N > Ad[PN])
      Bad(JAPos, "columns " + std::to_string(JA + 1) + " .. " +
                     std::to_string(JA + N) + " exceed N_ " +
                     std::to_string(Ad[PN]));
  }
  if (Info == BigNum) {
    const int Np =
        localCount(Ad[PM], Ad[PImb], Ad[PMb], MyRow, Ad[PRsrc], NpRow);
    if (Ad[PLld] < std::max(1, Np)) {
      const int Nq =
          localCount(Ad[PN], Ad[PInb], Ad[PNb], MyCol, Ad[PCsrc], NpCol);
      if (Ad[PLld] < 1)
        Bad(DPos + PLld, "LLD_ " + std::to_string(Ad[PLld]) + " is below 1");
      else if (Nq > 0)
        Bad(DPos + PLld, "LLD_ " + std::to_string(Ad[PLld]) + " is below the " +
                             std::to_string(Np) + " local rows");
    }
  }
  Finish();
}

/// What the routine does with op(A).
enum class Op { Tran, Geadd, Tradd };

struct Call {
  const char *Name;    ///< PBLAS's name: "PDGEADD"
  const char *Routine; ///< ours, for the trace: "pdgeadd"
  ElementType Type;
  Op What;
  char Uplo, Trans; ///< upper-cased; Trans 'N', 'T' or 'C'
  int M, N;
  const double *Alpha, *Beta; ///< (real, imaginary), imaginary 0 for reals
  const void *A;
  int IA, JA;
  const int *DescA;
  void *C;
  int IC, JC;
  const int *DescC;
};

bool isComplex(ElementType T) {
  return T == ElementType::ComplexFloat || T == ElementType::ComplexDouble;
}

std::size_t bytesOf(ElementType T) {
  const std::size_t Real =
      T == ElementType::Float || T == ElementType::ComplexFloat
          ? sizeof(float)
          : sizeof(double);
  return isComplex(T) ? 2 * Real : Real;
}

/// Stops the program on what PBLAS would accept but redist does not move.
[[noreturn]] void unsupported(const Call &K, int Context,
                              const std::string &What) {
  std::fprintf(stderr, "redist_scalapack: %s: %s\n", K.Routine, What.c_str());
  std::fflush(stderr);
  Cblacs_abort(Context, 1);
  std::abort();
}

/// C := beta * C on this process's part of sub(C) (zeros when beta = 0),
/// within the trapezoid for PxTRADD: alpha = 0, which moves nothing.
template <typename R, bool Cx>
void scaleLocal(const Call &K, const int *Cd, int MyRow, int MyCol, int NpRow,
                int NpCol) {
  const R BRe = static_cast<R>(K.Beta[0]), BIm = static_cast<R>(K.Beta[1]);
  const bool Zero = K.Beta[0] == 0 && K.Beta[1] == 0;
  const int LocR =
      localCount(Cd[PM], Cd[PMb], Cd[PMb], MyRow, Cd[PRsrc], NpRow);
  const int LocC =
      localCount(Cd[PN], Cd[PNb], Cd[PNb], MyCol, Cd[PCsrc], NpCol);
  auto Global = [](int L, int Nb, int P, int Src, int Procs) {
    return ((L / Nb) * Procs + (P - Src + Procs) % Procs) * Nb + L % Nb;
  };
  R *C = static_cast<R *>(K.C);
  const int Step = Cx ? 2 : 1;
  for (int LC = 0; LC < LocC; ++LC) {
    const int J = Global(LC, Cd[PNb], MyCol, Cd[PCsrc], NpCol) - (K.JC - 1);
    if (J < 0 || J >= K.N)
      continue;
    for (int LR = 0; LR < LocR; ++LR) {
      const int I = Global(LR, Cd[PMb], MyRow, Cd[PRsrc], NpRow) - (K.IC - 1);
      if (I < 0 || I >= K.M)
        continue;
      if (K.What == Op::Tradd && (K.Uplo == 'U' ? I > J : I < J))
        continue;
      R *T = C + (static_cast<long long>(LC) * Cd[PLld] + LR) * Step;
      if (Zero) {
        T[0] = 0;
        if (Cx)
          T[1] = 0;
      } else if (Cx) {
        const R TRe = T[0], TIm = T[1];
        T[0] = BRe * TRe - BIm * TIm;
        T[1] = BRe * TIm + BIm * TRe;
      } else {
        T[0] = BRe * T[0];
      }
    }
  }
}

void run(const Call &K) {
  countCall(K.Routine);
  // Positions of the arguments: the character arguments come first.
  const int Chars = K.What == Op::Tran ? 0 : K.What == Op::Geadd ? 1 : 2;
  const int MPos = 1 + Chars, NPos = 2 + Chars;
  const int DescAPos = 7 + Chars, DescCPos = 12 + Chars;
  const bool NoTrans = K.What != Op::Tran && K.Trans == 'N';
  int Ad[11] = {0}, Cd[11] = {0}, AI = 0, AJ = 0, CI = 0, CJ = 0;
  toPblas(K.IA, K.JA, K.DescA, AI, AJ, Ad);
  toPblas(K.IC, K.JC, K.DescC, CI, CJ, Cd);
  const int Context = Ad[PCtxt];
  int NpRow = 0, NpCol = 0, MyRow = 0, MyCol = 0;
  Cblacs_gridinfo(Context, &NpRow, &NpCol, &MyRow, &MyCol);
  int Info = NpRow == -1 ? -(DescAPos * DescMult + 1 + PCtxt) : 0;
  std::string First;
  if (Info == 0) {
    if (K.What == Op::Tradd && K.Uplo != 'U' && K.Uplo != 'L') {
      First = std::string("UPLO = ") + K.Uplo + " is not U or L";
      Info = -1;
    } else if (K.What != Op::Tran && K.Trans != 'N' && K.Trans != 'T' &&
               K.Trans != 'C') {
      First = std::string("TRANS = ") + K.Trans + " is not N, T or C";
      Info = -Chars;
    }
    if (NoTrans)
      checkMatrix(Context, K.M, MPos, K.N, NPos, AI, AJ, Ad, DescAPos, Info,
                  First);
    else
      checkMatrix(Context, K.N, NPos, K.M, MPos, AI, AJ, Ad, DescAPos, Info,
                  First);
    checkMatrix(Context, K.M, MPos, K.N, NPos, CI, CJ, Cd, DescCPos, Info,
                First);
  }
  if (Info) {
    if (!First.empty())
      PB_Cwarn(Context, -1, K.Name, "%s", First.c_str());
    PB_Cabort(Context, K.Name, Info);
    return;
  }
  const bool AlphaZero = K.Alpha[0] == 0 && K.Alpha[1] == 0;
  const bool BetaOne = K.Beta[0] == 1 && K.Beta[1] == 0;
  if (K.M == 0 || K.N == 0 || (AlphaZero && BetaOne))
    return;
  // redist's layouts have one block size and one source process per axis.
  for (const int *D : {Ad, Cd}) {
    const char Which = D == Ad ? 'A' : 'C';
    if (D[PImb] != D[PMb] || D[PInb] != D[PNb])
      unsupported(K, Context,
                  std::string("DESC") + Which +
                      " has a first block of another size (IMB_, INB_ = " +
                      std::to_string(D[PImb]) + ", " + std::to_string(D[PInb]) +
                      "; MB_, NB_ = " + std::to_string(D[PMb]) + ", " +
                      std::to_string(D[PNb]) + "): not supported");
    if (D[PRsrc] == -1 || D[PCsrc] == -1)
      unsupported(K, Context,
                  std::string("DESC") + Which +
                      " is replicated (RSRC_ or CSRC_ = -1): not supported");
  }
  if (AlphaZero) {
    switch (K.Type) {
    case ElementType::Float:
      return scaleLocal<float, false>(K, Cd, MyRow, MyCol, NpRow, NpCol);
    case ElementType::Double:
      return scaleLocal<double, false>(K, Cd, MyRow, MyCol, NpRow, NpCol);
    case ElementType::ComplexFloat:
      return scaleLocal<float, true>(K, Cd, MyRow, MyCol, NpRow, NpCol);
    case ElementType::ComplexDouble:
      return scaleLocal<double, true>(K, Cd, MyRow, MyCol, NpRow, NpCol);
    }
  }
  int DescA[9] = {1,       Ad[PCtxt], Ad[PM],    Ad[PN],  Ad[PMb],
                  Ad[PNb], Ad[PRsrc], Ad[PCsrc], Ad[PLld]};
  int DescC[9] = {1,       Cd[PCtxt], Cd[PM],    Cd[PN],  Cd[PMb],
                  Cd[PNb], Cd[PRsrc], Cd[PCsrc], Cd[PLld]};
  Combine Comb;
  Comb.Type = K.Type;
  Comb.Alpha[0] = K.Alpha[0];
  Comb.Alpha[1] = K.Alpha[1];
  Comb.Beta[0] = K.Beta[0];
  Comb.Beta[1] = K.Beta[1];
  Comb.Conjugate = isComplex(K.Type) && K.Trans == 'C';
  Move Mv{K.Routine,
          bytesOf(K.Type),
          NoTrans ? K.M : K.N,
          NoTrans ? K.N : K.M,
          K.A,
          K.IA,
          K.JA,
          DescA,
          K.C,
          K.IC,
          K.JC,
          DescC,
          Context};
  Mv.Transpose = !NoTrans;
  Mv.Combining = &Comb;
  if (K.What == Op::Tradd) {
    // sub(C)'s i <= j (upper) in the source's indices: i - j of op(A).
    const bool UpperInSource = (K.Uplo == 'U') == NoTrans;
    if (UpperInSource)
      Mv.DiagonalEnd = 1;
    else
      Mv.DiagonalBegin = 0;
  }
  Mv.Args = {{"M", K.M},
             {"N", K.N},
             {"TRANS", K.Trans},
             {"UPLO", K.What == Op::Tradd ? K.Uplo : 0}};
  move(Mv);
}

char upper(const char *C) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(*C)));
}

} // namespace

extern "C" {

// Real scalars are passed as one number, complex ones as two.
#define REDIST_PBLAS_SCALARS(T, CX)                                            \
  double Al[2] = {static_cast<double>(Alpha[0]),                               \
                  CX ? static_cast<double>(Alpha[1]) : 0.0};                   \
  double Be[2] = {static_cast<double>(Beta[0]),                                \
                  CX ? static_cast<double>(Beta[1]) : 0.0};

#define REDIST_PBLAS(P, T, TYPE, CX)                                           \
  void p##P##geadd_(const char *Trans, int *M, int *N, T *Alpha, T *A,         \
                    int *IA, int *JA, int *DescA, T *Beta, T *C, int *IC,      \
                    int *JC, int *DescC) {                                     \
    REDIST_PBLAS_SCALARS(T, CX)                                                \
    run({"P" #P "GEADD", "p" #P "geadd", TYPE, Op::Geadd, 0, upper(Trans), *M, \
         *N, Al, Be, A, *IA, *JA, DescA, C, *IC, *JC, DescC});                 \
  }                                                                            \
  void p##P##tradd_(const char *Uplo, const char *Trans, int *M, int *N,       \
                    T *Alpha, T *A, int *IA, int *JA, int *DescA, T *Beta,     \
                    T *C, int *IC, int *JC, int *DescC) {                      \
    REDIST_PBLAS_SCALARS(T, CX)                                                \
    run({"P" #P "TRADD", "p" #P "tradd", TYPE, Op::Tradd, upper(Uplo),         \
         upper(Trans), *M, *N, Al, Be, A, *IA, *JA, DescA, C, *IC, *JC,        \
         DescC});                                                              \
  }

REDIST_PBLAS(s, float, ElementType::Float, false)
REDIST_PBLAS(d, double, ElementType::Double, false)
REDIST_PBLAS(c, float, ElementType::ComplexFloat, true)
REDIST_PBLAS(z, double, ElementType::ComplexDouble, true)

#define REDIST_PBLAS_TRAN(NAME, UP, T, TYPE, CX, TRANS)                        \
  void NAME##_(int *M, int *N, T *Alpha, T *A, int *IA, int *JA, int *DescA,   \
               T *Beta, T *C, int *IC, int *JC, int *DescC) {                  \
    REDIST_PBLAS_SCALARS(T, CX)                                                \
    run({UP, #NAME, TYPE, Op::Tran, 0, TRANS, *M, *N, Al, Be, A, *IA, *JA,     \
         DescA, C, *IC, *JC, DescC});                                          \
  }

REDIST_PBLAS_TRAN(pstran, "PSTRAN", float, ElementType::Float, false, 'T')
REDIST_PBLAS_TRAN(pdtran, "PDTRAN", double, ElementType::Double, false, 'T')
REDIST_PBLAS_TRAN(pctranu, "PCTRANU", float, ElementType::ComplexFloat, true,
                  'T')
REDIST_PBLAS_TRAN(pztranu, "PZTRANU", double, ElementType::ComplexDouble, true,
                  'T')
REDIST_PBLAS_TRAN(pctranc, "PCTRANC", float, ElementType::ComplexFloat, true,
                  'C')
REDIST_PBLAS_TRAN(pztranc, "PZTRANC", double, ElementType::ComplexDouble, true,
                  'C')

} // extern "C"
