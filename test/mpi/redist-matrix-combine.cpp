//===- redist-matrix-combine.cpp - Combining executes, checked exactly ----===//
//
// MatrixPlan::execute(Src, Dst, Combine) on random matrices: grids on the
// same, overlapping or disjoint ranks, sub-matrices, transposition, bands
// of diagonals, every mode (the Overlapped one in each order), shared
// memory handovers or MPI, small transfer limits, the four element types
// with scales that take each of PBLAS's special cases and conjugation.
// Every target element is checked: in the region (and band) it must hold
// beta * t + alpha * op(s), elsewhere, and in the padding, what it held.
// The values are small integers, so every result is exact. Whatever path
// a message takes (the local copy, an MPI unpack, a handover's unpack,
// rounds, a single copy's read), a missed combination shows as a plain copy.
// --single-copy=B sets PlanOptions::SingleCopyRunBytes of every plan (0:
// every message within the node is read by a single copy, SingleCopy.h).
//
// Usage: redist-matrix-combine [--single-copy=B] <expected ranks> <seed>
//        <configurations>
//
//===----------------------------------------------------------------------===//
#include "redist/Error.h"
#include "redist/runtime/MatrixPlan.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

using Cx = std::complex<double>;

int64_t uniform(std::mt19937_64 &Rng, int64_t Lo, int64_t Hi) {
  return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
}

bool isComplex(ElementType T) {
  return T == ElementType::ComplexFloat || T == ElementType::ComplexDouble;
}

std::size_t bytesOf(ElementType T) {
  switch (T) {
  case ElementType::Float:
    return 4;
  case ElementType::Double:
  case ElementType::ComplexFloat:
    return 8;
  case ElementType::ComplexDouble:
    return 16;
  }
  return 0;
}

const char *nameOf(ElementType T) {
  switch (T) {
  case ElementType::Float:
    return "float";
  case ElementType::Double:
    return "double";
  case ElementType::ComplexFloat:
    return "complex float";
  case ElementType::ComplexDouble:
    return "complex double";
  }
  return "?";
}

/// Element Z stored at P as type T.
void store(ElementType T, unsigned char *P, Cx Z) {
  switch (T) {
  case ElementType::Float: {
    const float F = static_cast<float>(Z.real());
    std::memcpy(P, &F, 4);
    return;
  }
  case ElementType::Double: {
    const double D = Z.real();
    std::memcpy(P, &D, 8);
    return;
  }
  case ElementType::ComplexFloat: {
    const float F[2] = {static_cast<float>(Z.real()),
                        static_cast<float>(Z.imag())};
    std::memcpy(P, F, 8);
    return;
  }
  case ElementType::ComplexDouble: {
    const double D[2] = {Z.real(), Z.imag()};
    std::memcpy(P, D, 16);
    return;
  }
  }
}

Cx load(ElementType T, const unsigned char *P) {
  switch (T) {
  case ElementType::Float: {
    float F;
    std::memcpy(&F, P, 4);
    return {F, 0};
  }
  case ElementType::Double: {
    double D;
    std::memcpy(&D, P, 8);
    return {D, 0};
  }
  case ElementType::ComplexFloat: {
    float F[2];
    std::memcpy(F, P, 8);
    return {F[0], F[1]};
  }
  case ElementType::ComplexDouble: {
    double D[2];
    std::memcpy(D, P, 16);
    return {D[0], D[1]};
  }
  }
  return {};
}

/// Source element (I, J) and the target's first value at (I, J): small
/// integers.
Cx sourceValue(int64_t I, int64_t J, bool Complex) {
  return {static_cast<double>((I * 37 + J * 11) % 101 - 50),
          Complex ? static_cast<double>((I + 2 * J) % 7 - 3) : 0.0};
}
Cx targetValue(int64_t I, int64_t J, bool Complex) {
  return {static_cast<double>((I * 13 + J * 5) % 23 - 11),
          Complex ? static_cast<double>((I * 3 + J) % 5 - 2) : 0.0};
}

struct Drawn {
  MatrixSide From, To;
  MatrixRegion Region;
  PlanOptions Options;
  Combine C;
  bool NaNTarget = false; ///< every target element NaN first (Beta = 0)
};

int64_t idOf(const MatrixSide &S, int Rank) {
  for (std::size_t I = 0; I < S.Ranks.size(); ++I)
    if (S.Ranks[I] == Rank)
      return static_cast<int64_t>(I);
  return -1;
}

/// Runs D once; returns the errors this rank saw, and counts the checked
/// elements and whether a message went through shared memory or was read
/// by a single copy.
int64_t runOne(const Drawn &D, int Rank, int64_t &Checked, bool &Shared,
               bool &Direct) {
  const ElementType T = D.C.Type;
  const std::size_t E = bytesOf(T);
  const bool Complex = isComplex(T);
  MatrixPlan Plan(D.From, D.To, E, MPI_COMM_WORLD, D.Region, D.Options);
  Shared = Plan.sharedMessages() > 0;
  Direct = Plan.directMessages() > 0;
  const int64_t SId = idOf(D.From, Rank), TId = idOf(D.To, Rank);
  const Layout2D &A = D.From.Layout, &B = D.To.Layout;
  std::vector<unsigned char> Src(
      static_cast<std::size_t>(Plan.sourceStorageSize()) * E, 0);
  std::vector<unsigned char> Dst(
      static_cast<std::size_t>(Plan.targetStorageSize()) * E, 0);
  std::vector<bool> Padding(Dst.size() / E, false);
  for (std::size_t O = 0; SId >= 0 && O < Src.size() / E; ++O) {
    try {
      const auto [I, J] = A.toGlobal(SId, static_cast<int64_t>(O));
      store(T, Src.data() + O * E, sourceValue(I, J, Complex));
    } catch (const InvalidArgument &) {
      store(T, Src.data() + O * E, Cx(1e6, 1e6)); // padding
    }
  }
  for (std::size_t O = 0; TId >= 0 && O < Padding.size(); ++O) {
    try {
      const auto [I, J] = B.toGlobal(TId, static_cast<int64_t>(O));
      store(T, Dst.data() + O * E,
            D.NaNTarget ? Cx(std::nan(""), std::nan(""))
                        : targetValue(I, J, Complex));
    } catch (const InvalidArgument &) {
      Padding[O] = true;
      store(T, Dst.data() + O * E, Cx(-7e5, 3e5));
    }
  }
  const std::vector<unsigned char> Before = Dst;
  Plan.execute(Src.data(), Dst.data(), D.C);
  if (TId < 0)
    return 0;
  const MatrixRegion &R = D.Region;
  const Cx Alpha(D.C.Alpha[0], Complex ? D.C.Alpha[1] : 0);
  const Cx Beta(D.C.Beta[0], Complex ? D.C.Beta[1] : 0);
  int64_t Errors = 0;
  for (std::size_t O = 0; O < Padding.size(); ++O) {
    const unsigned char *Got = Dst.data() + O * E;
    bool Inside = false;
    int64_t SI = 0, SJ = 0;
    if (!Padding[O]) {
      const auto [I, J] = B.toGlobal(TId, static_cast<int64_t>(O));
      const int64_t X = R.Transpose ? J - R.TargetCol : I - R.TargetRow;
      const int64_t Y = R.Transpose ? I - R.TargetRow : J - R.TargetCol;
      Inside = X >= 0 && X < R.Rows && Y >= 0 && Y < R.Cols &&
               X - Y >= R.DiagonalBegin && X - Y < R.DiagonalEnd;
      SI = R.SourceRow + X;
      SJ = R.SourceCol + Y;
    }
    if (!Inside) {
      if (std::memcmp(Got, Before.data() + O * E, E) != 0 && Errors++ < 3)
        std::fprintf(stderr,
                     "rank %d: target offset %zu outside the band "
                     "was written\n",
                     Rank, O);
      continue;
    }
    ++Checked;
    Cx S = sourceValue(SI, SJ, Complex);
    if (D.C.Conjugate)
      S = std::conj(S);
    const Cx Want = D.NaNTarget
                        ? Alpha * S
                        : Beta * load(T, Before.data() + O * E) + Alpha * S;
    const Cx Have = load(T, Got);
    if (Have != Want && Errors++ < 3)
      std::fprintf(stderr,
                   "rank %d: target offset %zu holds (%g, %g), not (%g, %g)\n",
                   Rank, O, Have.real(), Have.imag(), Want.real(), Want.imag());
  }
  return Errors;
}

/// The plan must throw InvalidArgument with Expect in it on this rank.
int64_t expectError(const std::string &Expect, const Drawn &D, int Rank) {
  std::string What = "(no error)";
  try {
    MatrixPlan Plan(D.From, D.To, 8, MPI_COMM_WORLD, D.Region, D.Options);
    std::vector<double> Src(
        static_cast<std::size_t>(Plan.sourceStorageSize() + 1)),
        Dst(static_cast<std::size_t>(Plan.targetStorageSize() + 1));
    Plan.execute(Src.data(), Dst.data(), D.C);
  } catch (const InvalidArgument &E) {
    What = E.what();
  }
  if (What.find(Expect) != std::string::npos) {
    if (Rank == 0)
      std::printf("error: %s\n", What.c_str());
    return 0;
  }
  std::fprintf(stderr, "rank %d: expected an error with '%s', got '%s'\n", Rank,
               Expect.c_str(), What.c_str());
  return 1;
}

int64_t sumOverRanks(int64_t V) {
  long long In = V, Out = 0;
  MPI_Allreduce(&In, &Out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return Out;
}

/// Ranks of a side of Procs processes: consecutive from Offset, wrapping.
std::vector<int> ranksFrom(int64_t Offset, int64_t Procs, int Ranks) {
  std::vector<int> Out;
  for (int64_t K = 0; K < Procs; ++K)
    Out.push_back(static_cast<int>((Offset + K) % Ranks));
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0, Ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  std::optional<int64_t> SingleCopyRunBytes;
  if (argc > 1 && std::strncmp(argv[1], "--single-copy=", 14) == 0) {
    SingleCopyRunBytes = std::atoll(argv[1] + 14);
    --argc;
    ++argv;
  }
  if (argc != 4 || std::atoi(argv[1]) != Ranks) {
    if (Rank == 0)
      std::fprintf(stderr,
                   "usage: redist-matrix-combine [--single-copy=B] <ranks> "
                   "<seed> <count>, run on <ranks> ranks (got %d)\n",
                   Ranks);
    MPI_Finalize();
    return 2;
  }
  const unsigned long long Seed = std::strtoull(argv[2], nullptr, 10);
  const int Count = std::atoi(argv[3]);
  std::mt19937_64 Rng(Seed);
  std::map<std::string, long long> Seen;
  int64_t Errors = 0, Checked = 0, Expected = 0;
  const ElementType Types[] = {ElementType::Float, ElementType::Double,
                               ElementType::ComplexFloat,
                               ElementType::ComplexDouble};
  const double Scales[][2] = {{1, 0}, {0, 0}, {2, 0}, {-1, 0}, {2, -1}};
  for (int Config = 0; Config < Count; ++Config) {
    Drawn D{{Layout2D::blockCyclic(1, 1, 1, 1, 1, 1), {}, 0},
            {Layout2D::blockCyclic(1, 1, 1, 1, 1, 1), {}, 0},
            {},
            {},
            {},
            false};
    auto Side = [&](int64_t M, int64_t N, int64_t Offset) {
      const int64_t P0 = uniform(Rng, 1, Ranks);
      const int64_t P1 = uniform(Rng, 1, std::max<int64_t>(1, Ranks / P0));
      const int64_t MB = uniform(Rng, 1, 4), NB = uniform(Rng, 1, 4);
      MatrixSide S{Layout2D::blockCyclic(M, N, P0, P1, MB, NB,
                                         uniform(Rng, 0, P0 - 1),
                                         uniform(Rng, 0, P1 - 1)),
                   ranksFrom(Offset, P0 * P1, Ranks), 0};
      return S;
    };
    const int64_t M = uniform(Rng, 1, 14), N = uniform(Rng, 1, 14);
    MatrixRegion &R = D.Region;
    R.Transpose = uniform(Rng, 0, 2) == 0;
    R.Rows = uniform(Rng, 0, 3) == 0 ? uniform(Rng, 0, M) : M;
    R.Cols = uniform(Rng, 0, 3) == 0 ? uniform(Rng, 0, N) : N;
    R.SourceRow = uniform(Rng, 0, M - R.Rows);
    R.SourceCol = uniform(Rng, 0, N - R.Cols);
    const int64_t TM = (R.Transpose ? R.Cols : R.Rows) + uniform(Rng, 0, 3);
    const int64_t TN = (R.Transpose ? R.Rows : R.Cols) + uniform(Rng, 0, 3);
    R.TargetRow = uniform(Rng, 0, TM - (R.Transpose ? R.Cols : R.Rows));
    R.TargetCol = uniform(Rng, 0, TN - (R.Transpose ? R.Rows : R.Cols));
    D.From = Side(M, N, 0);
    D.To = Side(TM, TN, uniform(Rng, 0, Ranks - 1));
    if (uniform(Rng, 0, 2) != 0) {
      if (uniform(Rng, 0, 3) != 0)
        R.DiagonalBegin = uniform(Rng, -R.Cols, R.Rows);
      if (uniform(Rng, 0, 3) != 0)
        R.DiagonalEnd = uniform(
            Rng,
            std::max<int64_t>(-R.Cols, std::min<int64_t>(R.DiagonalBegin, 0)),
            R.Rows + 1);
    }
    const std::vector<ExecMode> Modes = allExecModes();
    D.Options.Mode = Modes[static_cast<std::size_t>(uniform(Rng, 0, 3))];
    if (D.Options.Mode == ExecMode::Overlapped)
      D.Options.Overlap =
          allOverlapOrders()[static_cast<std::size_t>(uniform(Rng, 0, 2))];
    D.Options.Pack = Packing::Runs;
    D.Options.RanksPerNode = static_cast<int>(uniform(Rng, 0, 2));
    if (uniform(Rng, 0, 3) == 0)
      D.Options.MaxTransferBytes = uniform(Rng, 1, 8) * 16;
    if (SingleCopyRunBytes)
      D.Options.SingleCopyRunBytes = *SingleCopyRunBytes;
    D.C.Type = Types[uniform(Rng, 0, 3)];
    const auto &A = Scales[uniform(Rng, 0, 4)], &B = Scales[uniform(Rng, 0, 4)];
    std::copy(A, A + 2, D.C.Alpha);
    std::copy(B, B + 2, D.C.Beta);
    D.C.Conjugate = uniform(Rng, 0, 1) == 0;
    D.NaNTarget = D.C.Beta[0] == 0 && D.C.Beta[1] == 0 && uniform(Rng, 0, 1);

    int64_t Elements = 0;
    for (int64_t I = 0; I < R.Rows; ++I)
      for (int64_t J = 0; J < R.Cols; ++J)
        Elements += I - J >= R.DiagonalBegin && I - J < R.DiagonalEnd;
    int64_t Mine = 0;
    bool Shared = false, Direct = false;
    try {
      Errors += runOne(D, Rank, Mine, Shared, Direct);
    } catch (const std::exception &Ex) {
      std::fprintf(stderr, "rank %d config %d: %s\n", Rank, Config, Ex.what());
      ++Errors;
    }
    Checked += Mine;
    Expected += Elements;
    if (sumOverRanks(Mine) != Elements) {
      if (Rank == 0)
        std::fprintf(stderr, "config %d: checked %lld of %lld elements\n",
                     Config, static_cast<long long>(sumOverRanks(Mine)),
                     static_cast<long long>(Elements));
      ++Errors;
    }
    Seen[std::string("mode ") + execModeName(D.Options.Mode)]++;
    Seen[nameOf(D.C.Type)]++;
    if (sumOverRanks(Shared) > 0)
      Seen["shared memory"]++;
    if (sumOverRanks(Direct) > 0)
      Seen["single copies"]++;
    if (D.Options.MaxTransferBytes > 0)
      Seen["transfer limit"]++;
    if (R.DiagonalBegin != INT64_MIN || R.DiagonalEnd != INT64_MAX)
      Seen["band"]++;
    if (R.Transpose)
      Seen["transposed"]++;
    if (D.NaNTarget)
      Seen["beta 0 over NaN"]++;
  }

  // Transposes at sizes the draws above do not reach: the combining
  // kernels walk them in tiles of cache lines (CombineKernels.cpp), and
  // these leave odd remainders in both directions of a tile and of its
  // blocks; every element type, conjugated where complex, scales that
  // multiply, a padded leading dimension on every other one, every mode.
  int64_t Transposes = 0;
  for (ElementType T : Types)
    for (ExecMode Mode : allExecModes()) {
      const int64_t M = 150, N = 133;
      const bool Padded = Transposes % 2 != 0;
      const int64_t P1 = Ranks >= 2 ? 2 : 1, P0 = Ranks / P1;
      Drawn D{
          {Layout2D::blockCyclic(M, N, P0, P1, 16, 5, 0, 0, Padded ? M + 5 : 0),
           ranksFrom(0, P0 * P1, Ranks), 0},
          {Layout2D::blockCyclic(N, M, P1, P0, 7, 32, 0, 0, Padded ? N + 3 : 0),
           ranksFrom(1, P0 * P1, Ranks), 0},
          {},
          {},
          {},
          false};
      D.Region.Transpose = true;
      D.Region.Rows = M;
      D.Region.Cols = N;
      D.Options.Mode = Mode;
      D.Options.Pack = Packing::Runs;
      if (SingleCopyRunBytes)
        D.Options.SingleCopyRunBytes = *SingleCopyRunBytes;
      D.C.Type = T;
      const double Alpha[2] = {2, -1}, Beta[2] = {-1, 0};
      std::copy(Alpha, Alpha + 2, D.C.Alpha);
      std::copy(Beta, Beta + 2, D.C.Beta);
      D.C.Conjugate = isComplex(T);
      int64_t Mine = 0;
      bool Shared = false, Direct = false;
      try {
        Errors += runOne(D, Rank, Mine, Shared, Direct);
      } catch (const std::exception &Ex) {
        std::fprintf(stderr, "rank %d transpose %lld: %s\n", Rank,
                     static_cast<long long>(Transposes), Ex.what());
        ++Errors;
      }
      if (sumOverRanks(Mine) != M * N) {
        if (Rank == 0)
          std::fprintf(stderr, "transpose %lld: checked %lld of %lld\n",
                       static_cast<long long>(Transposes),
                       static_cast<long long>(sumOverRanks(Mine)),
                       static_cast<long long>(M * N));
        ++Errors;
      }
      ++Transposes;
    }
  if (Rank == 0)
    std::printf("transposes: checked %lld configurations\n",
                static_cast<long long>(Transposes));

  // A combining execute needs runs and the combination's element size.
  Drawn D{{Layout2D::blockCyclic(8, 8, 1, Ranks, 2, 2), {}, 0},
          {Layout2D::blockCyclic(8, 8, Ranks, 1, 3, 1), {}, 0},
          {},
          {},
          {},
          false};
  D.Options.Pack = Packing::Datatypes;
  Errors += expectError("needs a plan packed with Packing::Runs", D, Rank);
  D.Options.Pack = Packing::Runs;
  D.C.Type = ElementType::ComplexDouble;
  Errors += expectError("the combination's element type has 16 bytes", D, Rank);

  const int64_t Total = sumOverRanks(Errors);
  const int64_t AllChecked = sumOverRanks(Checked);
  if (Rank == 0) {
    std::printf("redist-matrix-combine: %d ranks, seed %llu: checked %d "
                "configurations (%lld of %lld elements), %lld errors\n",
                Ranks, Seed, Count, static_cast<long long>(AllChecked),
                static_cast<long long>(Expected),
                static_cast<long long>(Total));
    std::printf("covered:");
    for (const auto &[Name, K] : Seen)
      std::printf(" [%s] %lld", Name.c_str(), K);
    std::printf("\n");
  }
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
