//===- CyclicPair.cpp - Closed forms for CYCLIC(r) -> CYCLIC(s) -----------===//

#include "CyclicPair.h"

#include "BlockCyclicMath.h"

#include <algorithm>

using namespace redist;
using namespace redist::detail;

CyclicPair::CyclicPair(const Layout &From, const Layout &To)
    : P(From.procs()), Q(To.procs()), R(From.blockSize()), S(To.blockSize()),
      N(From.extent()) {
  std::optional<int64_t> PR = checkedMul(P, R), QS = checkedMul(Q, S);
  if (!PR || !QS)
    return;
  std::optional<int64_t> Slice = checkedLcm(*PR, *QS);
  if (!Slice)
    return; // L > 2^63: no whole slice in any array.
  Fits = true;
  L = *Slice;
  M = N / L;
  D = gcd64(R, S);
  Rr = R / D;
  Sr = S / D;
  G = gcd64(*PR, *QS);
  Gr = G / D;
  H = gcd64(Sr, Gr);
  T = Gr / H;
  SInv = modInverse(Sr / H, T);
  A = *PR / G;
  Bm = *QS / G;
  AInv = modInverse(A, Bm);
}

int64_t CyclicPair::volume(int64_t Z) const {
  return std::min(std::min(Rr, Sr), std::min(Rr + Z, Sr - Z));
}

// Sum of C0 + C1*z over z in [Lo, Hi] with z = K (mod Step).
static Int128 sumOverProgression(int64_t Lo, int64_t Hi, int64_t K,
                                 int64_t Step, int64_t C0, int64_t C1) {
  if (Lo > Hi)
    return 0;
  int64_t First = Lo + floorMod(static_cast<Int128>(K) - Lo, Step);
  if (First > Hi)
    return 0;
  Int128 Count = (Hi - First) / Step + 1;
  Int128 SumZ =
      Count * First + static_cast<Int128>(Step) * (Count * (Count - 1) / 2);
  return Count * C0 + SumZ * C1;
}

int64_t CyclicPair::classVolume(int64_t K) const {
  // vol rises as r' + z, stays at min(r', s'), then falls as s' - z.
  int64_t Top = std::min(Rr, Sr);
  int64_t RiseEnd = Top - Rr;
  int64_t FallBegin = std::max(Sr - Top, RiseEnd + 1);
  Int128 Sum = sumOverProgression(1 - Rr, RiseEnd, K, Gr, Rr, 1) +
               sumOverProgression(RiseEnd + 1, FallBegin - 1, K, Gr, Top, 0) +
               sumOverProgression(FallBegin, Sr - 1, K, Gr, Sr, -1);
  return static_cast<int64_t>(Sum);
}

void CyclicPair::rowResidues(
    int64_t Src, std::vector<std::pair<int64_t, int64_t>> &Out) const {
  Out.clear();
  int64_t SrcClass = mulMod(Src, Rr, Gr); // p*r' mod g'
  int64_t C0 = SrcClass % H;              // classes of row p are C0 mod h
  auto ResidueOf = [&](int64_t K) {
    int64_t E = floorMod(static_cast<Int128>(SrcClass) - K, Gr);
    return mulMod(E / H, SInv, T);
  };
  if (sparse()) {
    int64_t Lo = 1 - Rr;
    for (int64_t Z = Lo + floorMod(static_cast<Int128>(C0) - Lo, H);
         Z <= Sr - 1; Z += H) {
      Out.emplace_back(ResidueOf(floorMod(Z, Gr)), D * volume(Z));
      if (Sr - 1 - Z < H)
        break;
    }
    std::sort(Out.begin(), Out.end());
    return;
  }
  // Every class is non-empty; the T classes of this row hit every residue.
  Out.resize(static_cast<size_t>(T));
  for (int64_t J = 0; J < T; ++J) {
    int64_t K = C0 + J * H;
    int64_t Residue = ResidueOf(K);
    Out[static_cast<size_t>(Residue)] = {Residue, D * classVolume(K)};
  }
}

int64_t CyclicPair::rowDegree(int64_t Src) const {
  if (!sparse())
    return Q;
  int64_t C0 = mulMod(Src, Rr, Gr) % H;
  int64_t Lo = 1 - Rr;
  int64_t First = Lo + floorMod(static_cast<Int128>(C0) - Lo, H);
  if (First > Sr - 1)
    return 0;
  return ((Sr - 1 - First) / H + 1) * (Q / T);
}

void CyclicPair::sliceRuns(int64_t Src, int64_t Dst,
                           std::vector<SliceRun> &Out) const {
  Out.clear();
  // A layout over one process is a single piece, as in RunWalker.h: the
  // pair's runs are then the other side's blocks of its process, whole, and
  // not the (r + s - 1)/g block offsets, which could be one per element.
  if (P == 1 && Q == 1) {
    Out.push_back({0, 0, 0, L});
    return;
  }
  if (P == 1 || Q == 1) {
    const bool TargetBlocks = P == 1;
    const int64_t Procs = TargetBlocks ? Q : P, Block = TargetBlocks ? S : R;
    const int64_t Proc = TargetBlocks ? Dst : Src;
    const int64_t Count = L / (Procs * Block);
    Out.reserve(static_cast<size_t>(Count));
    for (int64_t I = 0; I < Count; ++I) {
      // The one process's local index is the global index.
      int64_t Global = (Procs * I + Proc) * Block, Local = I * Block;
      Out.push_back({Global, TargetBlocks ? Global : Local,
                     TargetBlocks ? Local : Global, Block});
    }
    return;
  }
  int64_t K = floorMod(
      static_cast<Int128>(mulMod(Src, Rr, Gr)) - mulMod(Dst, Sr, Gr), Gr);
  int64_t Delta0 = D * K; // p*r - q*s mod g
  int64_t Diff = Src * R - Dst * S;
  // delta = Delta0 + j*g must lie in [1 - r, s - 1].
  // Delta0 + r - 1 may pass 2^63 when L is close to it.
  int64_t JMin = static_cast<int64_t>(
      -((static_cast<Int128>(Delta0) + R - 1) / G)); // floor: the sum is >= 0
  int64_t JMax = floorDiv(S - 1 - Delta0, G);
  Out.reserve(static_cast<size_t>(std::max<int64_t>(0, JMax - JMin + 1)));
  for (int64_t J = JMin; J <= JMax; ++J) {
    int64_t Delta = Delta0 + J * G;
    // P*r*l - Q*s*m = Delta - (p*r - q*s): solve for l modulo Q*s/g.
    Int128 E = static_cast<Int128>(Delta) - Diff;
    int64_t BlockL = mulMod(floorMod(E / G, Bm), AInv, Bm);
    int64_t SrcStart = (P * BlockL + Src) * R;
    int64_t DstStart = SrcStart - Delta;
    int64_t OffA = Delta < 0 ? -Delta : 0;
    int64_t OffB = Delta > 0 ? Delta : 0;
    int64_t BlockM = (DstStart / S - Dst) / Q;
    Out.push_back({SrcStart + OffA, BlockL * R + OffA, BlockM * S + OffB,
                   std::min(R - OffA, S - OffB)});
  }
  std::sort(Out.begin(), Out.end(), [](const SliceRun &X, const SliceRun &Y) {
    return X.Global < Y.Global;
  });
}
