//===- Distribution.cpp - HPF distributions and their index maps ----------===//

#include "redist/Distribution.h"

#include "BlockCyclicMath.h"
#include "redist/Error.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

using namespace redist;

static void checkProcs(int64_t Procs, const char *What) {
  if (Procs <= 0)
    throw InvalidArgument(std::string(What) +
                          ": the number of processes must be positive, got " +
                          std::to_string(Procs));
}

static void checkBlockParam(int64_t K, const char *What) {
  if (K <= 0)
    throw InvalidArgument(std::string(What) +
                          ": the block size k must be positive, got " +
                          std::to_string(K));
}

Distribution::Distribution(DistKind Kind, int64_t Procs, int64_t Param,
                           std::vector<int64_t> Sizes)
    : Kind(Kind), Procs(Procs), Param(Param), Sizes(std::move(Sizes)) {}

Distribution Distribution::block(int64_t Procs) {
  checkProcs(Procs, "BLOCK");
  return Distribution(DistKind::Block, Procs, 0);
}

Distribution Distribution::block(int64_t Procs, int64_t K) {
  checkProcs(Procs, "BLOCK(k)");
  checkBlockParam(K, "BLOCK(k)");
  return Distribution(DistKind::BlockSized, Procs, K);
}

Distribution Distribution::cyclic(int64_t Procs, int64_t K) {
  checkProcs(Procs, "CYCLIC(k)");
  checkBlockParam(K, "CYCLIC(k)");
  return Distribution(DistKind::Cyclic, Procs, K);
}

Distribution Distribution::genBlock(std::vector<int64_t> Sizes) {
  if (Sizes.empty())
    throw InvalidArgument(
        "GEN_BLOCK: the number of processes must be positive, got 0 sizes");
  for (size_t I = 0; I < Sizes.size(); ++I)
    if (Sizes[I] < 0)
      throw InvalidArgument("GEN_BLOCK: the size of process " +
                            std::to_string(I) +
                            " is negative: " + std::to_string(Sizes[I]));
  int64_t Procs = static_cast<int64_t>(Sizes.size());
  return Distribution(DistKind::GenBlock, Procs, 0, std::move(Sizes));
}

std::string Distribution::str() const {
  switch (Kind) {
  case DistKind::Block:
    return "block";
  case DistKind::BlockSized:
    return "block(" + std::to_string(Param) + ")";
  case DistKind::Cyclic:
    return Param == 1 ? "cyclic" : "cyclic(" + std::to_string(Param) + ")";
  case DistKind::GenBlock: {
    std::string S = "gen_block(";
    for (size_t I = 0; I < Sizes.size(); ++I)
      S += (I ? "," : "") + std::to_string(Sizes[I]);
    return S + ")";
  }
  }
  return "";
}

bool Distribution::operator==(const Distribution &O) const {
  return Kind == O.Kind && Procs == O.Procs && Param == O.Param &&
         Sizes == O.Sizes;
}

Layout::Layout(const Distribution &D, int64_t N) : Dist(D), N(N), P(D.procs()) {
  if (N < 0)
    throw InvalidArgument("the extent N must be non-negative, got " +
                          std::to_string(N));
  // P > 0 and k > 0 hold already: the factories are the only constructors.
  switch (D.kind()) {
  case DistKind::Block:
    // ceil(N / P) without forming N + P - 1, which may overflow.
    B = N == 0 ? 1 : N / P + (N % P != 0);
    break;
  case DistKind::BlockSized: {
    B = D.param();
    std::optional<int64_t> Cover = detail::checkedMul(B, P);
    if (Cover && *Cover < N)
      throw InvalidArgument("BLOCK(" + std::to_string(B) + ") over " +
                            std::to_string(P) + " processes covers only " +
                            std::to_string(*Cover) +
                            " elements, fewer than N = " + std::to_string(N));
    break;
  }
  case DistKind::Cyclic:
    B = D.param();
    break;
  case DistKind::GenBlock: {
    Offsets.assign(static_cast<size_t>(P) + 1, 0);
    int64_t Sum = 0;
    bool Overflow = false;
    for (int64_t I = 0; I < P; ++I) {
      int64_t Size = D.sizes()[static_cast<size_t>(I)];
      if (__builtin_add_overflow(Sum, Size, &Sum))
        Overflow = true;
      Offsets[static_cast<size_t>(I) + 1] = Sum;
      MaxLocal = std::max(MaxLocal, Size);
    }
    if (Overflow || Sum != N)
      throw InvalidArgument(
          "GEN_BLOCK sizes sum to " +
          (Overflow ? std::string("more than 2^63") : std::to_string(Sum)) +
          ", not to N = " + std::to_string(N));
    break;
  }
  }
  if (isBlockCyclic())
    MaxLocal = localSize(0); // numroc is largest for the first process
}

Layout Layout::blockCyclic(int64_t P, int64_t B, int64_t N) {
  return Layout(Distribution::cyclic(P, B), N);
}

static void checkProc(int64_t Proc, int64_t P) {
  if (Proc < 0 || Proc >= P)
    throw InvalidArgument("process " + std::to_string(Proc) +
                          " out of range [0, " + std::to_string(P) + ")");
}

static void checkGlobal(int64_t G, int64_t N) {
  if (G < 0 || G >= N)
    throw InvalidArgument("global index " + std::to_string(G) +
                          " out of range [0, " + std::to_string(N) + ")");
}

int64_t Layout::localSize(int64_t Proc) const {
  checkProc(Proc, P);
  if (!isBlockCyclic())
    return Offsets[static_cast<size_t>(Proc) + 1] -
           Offsets[static_cast<size_t>(Proc)];
  // numroc: whole cycles give B each; the first N/B % P processes of the
  // last cycle get a whole block, the next one the remainder.
  int64_t Blocks = N / B;
  int64_t Size = (Blocks / P) * B;
  int64_t Extra = Blocks % P;
  if (Proc < Extra)
    Size += B;
  else if (Proc == Extra)
    Size += N % B;
  return Size;
}

int64_t Layout::owner(int64_t G) const {
  checkGlobal(G, N);
  if (isBlockCyclic())
    return (G / B) % P;
  // The last segment starting at or before G; empty segments before it
  // start at the same offset and are skipped by upper_bound.
  auto It = std::upper_bound(Offsets.begin(), Offsets.end(), G);
  return static_cast<int64_t>(It - Offsets.begin()) - 1;
}

int64_t Layout::toLocal(int64_t G) const {
  checkGlobal(G, N);
  if (isBlockCyclic())
    return (G / B / P) * B + G % B;
  return G - Offsets[static_cast<size_t>(owner(G))];
}

int64_t Layout::toGlobal(int64_t Proc, int64_t L) const {
  int64_t Size = localSize(Proc);
  if (L < 0 || L >= Size)
    throw InvalidArgument("local index " + std::to_string(L) +
                          " out of range [0, " + std::to_string(Size) +
                          ") of process " + std::to_string(Proc));
  if (isBlockCyclic())
    return ((L / B) * P + Proc) * B + L % B;
  return Offsets[static_cast<size_t>(Proc)] + L;
}

int64_t Layout::segmentBegin(int64_t Proc) const {
  if (isBlockCyclic())
    throw InvalidArgument("segmentBegin applies to GEN_BLOCK only, not to " +
                          Dist.str());
  checkProc(Proc, P);
  return Offsets[static_cast<size_t>(Proc)];
}
