//===- RunWalker.cpp - Walking block boundaries of two layouts ------------===//

#include "RunWalker.h"

using namespace redist;
using namespace redist::detail;

int64_t detail::prefixCount(const Layout &Lay, int64_t Proc, int64_t X) {
  if (!Lay.isBlockCyclic()) {
    int64_t Rel = X - Lay.segmentBegin(Proc);
    int64_t Size = Lay.localSize(Proc);
    return Rel <= 0 ? 0 : (Rel < Size ? Rel : Size);
  }
  // numroc with X in place of N.
  int64_t B = Lay.blockSize(), P = Lay.procs();
  int64_t Blocks = X / B;
  int64_t Count = (Blocks / P) * B;
  int64_t Extra = Blocks % P;
  if (Proc < Extra)
    Count += B;
  else if (Proc == Extra)
    Count += X % B;
  return Count;
}

int64_t detail::localIndexOn(const Layout &Lay, int64_t Proc, int64_t G) {
  if (!Lay.isBlockCyclic())
    return G - Lay.segmentBegin(Proc);
  int64_t B = Lay.blockSize();
  return (G / B / Lay.procs()) * B + G % B;
}

int64_t detail::procPieceCount(const Layout &Lay, int64_t Proc, int64_t Begin,
                               int64_t End) {
  if (Begin >= End)
    return 0;
  if (!Lay.isBlockCyclic()) {
    int64_t S = Lay.segmentBegin(Proc);
    int64_t E = S + Lay.localSize(Proc);
    return (S < End && Begin < E && S < E) ? 1 : 0;
  }
  int64_t P = Lay.procs();
  if (P == 1)
    return 1;
  int64_t B = Lay.blockSize();
  int64_t First = Begin / B, Last = (End - 1) / B;
  int64_t Shift = (Proc - First % P + P) % P;
  if (Shift > Last - First)
    return 0;
  return (Last - First - Shift) / P + 1;
}

int64_t detail::pieceCount(const Layout &Lay, int64_t Begin, int64_t End) {
  if (Begin >= End)
    return 0;
  if (!Lay.isBlockCyclic())
    return Lay.owner(End - 1) - Lay.owner(Begin) + 1;
  if (Lay.procs() == 1)
    return 1;
  int64_t B = Lay.blockSize();
  return (End - 1) / B - Begin / B + 1;
}

PieceCursor::PieceCursor(const Layout &Lay, int64_t Pos, int64_t Limit)
    : Lay(Lay), Limit(Limit), Begin(Pos) {
  if (done())
    return;
  if (!Lay.isBlockCyclic())
    Owner = Lay.owner(Pos);
  settle();
}

void PieceCursor::settle() {
  if (!Lay.isBlockCyclic()) {
    int64_t SegEnd = Lay.segmentBegin(Owner) + Lay.localSize(Owner);
    End = SegEnd < Limit ? SegEnd : Limit;
    return;
  }
  int64_t P = Lay.procs();
  if (P == 1) {
    Owner = 0;
    End = Limit;
    return;
  }
  int64_t B = Lay.blockSize();
  Owner = (Begin / B) % P;
  int64_t Left = B - Begin % B; // elements left in Begin's block
  End = Limit - Begin <= Left ? Limit : Begin + Left;
}

void PieceCursor::next() {
  Begin = End;
  if (done())
    return;
  if (!Lay.isBlockCyclic()) {
    // Segments are contiguous: the next non-empty one starts at Begin.
    do
      ++Owner;
    while (Lay.localSize(Owner) == 0);
  }
  settle();
}
