//===- RunWalker.h - Walking block boundaries of two layouts --------------===//
//
// Private to the library. The generic way to find who sends what: walk the
// block (or GEN_BLOCK segment) boundaries of the source and target layouts
// over a global interval. Every maximal interval that has one source owner and
// one target owner is a run. The cost is proportional to the blocks walked,
// never to the elements, so it serves every pair of formats and the
// incomplete last slice of the closed forms.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_LIB_RUNWALKER_H
#define REDIST_LIB_RUNWALKER_H

#include "redist/Distribution.h"

#include <cstdint>

namespace redist {
namespace detail {

/// Number of elements of Proc among the global indices [0, X), 0 <= X <= N.
int64_t prefixCount(const Layout &Lay, int64_t Proc, int64_t X);

/// Local index of global element G, which Proc owns. No range checks.
int64_t localIndexOn(const Layout &Lay, int64_t Proc, int64_t G);

/// Number of maximal pieces of Proc's elements within [Begin, End).
int64_t procPieceCount(const Layout &Lay, int64_t Proc, int64_t Begin,
                       int64_t End);

/// Number of maximal pieces (of any owner) within [Begin, End); for
/// GEN_BLOCK an upper bound that counts empty segments too.
int64_t pieceCount(const Layout &Lay, int64_t Begin, int64_t End);

/// The maximal pieces of one owner each, in global order, from a position.
/// A block-cyclic layout over one process is a single piece; GEN_BLOCK skips
/// empty segments.
class PieceCursor {
public:
  /// Starts at the piece holding Pos, clipped to [Pos, Limit). Pos < Limit.
  PieceCursor(const Layout &Lay, int64_t Pos, int64_t Limit);
  bool done() const { return Begin >= Limit; }
  int64_t owner() const { return Owner; }
  int64_t begin() const { return Begin; }
  int64_t end() const { return End; }
  void next();

private:
  void settle();
  const Layout &Lay;
  int64_t Limit;
  int64_t Begin = 0;
  int64_t End = 0;
  int64_t Owner = 0;
};

/// Calls F(Begin, End) for each maximal piece of Proc's elements within
/// [Begin, End), in global order.
template <typename Fn>
void forEachProcPiece(const Layout &Lay, int64_t Proc, int64_t Begin,
                      int64_t End, Fn &&F) {
  if (Begin >= End)
    return;
  if (!Lay.isBlockCyclic()) {
    int64_t S = Lay.segmentBegin(Proc);
    int64_t E = S + Lay.localSize(Proc);
    if (S < Begin)
      S = Begin;
    if (E > End)
      E = End;
    if (S < E)
      F(S, E);
    return;
  }
  int64_t P = Lay.procs();
  if (P == 1) {
    F(Begin, End);
    return;
  }
  int64_t B = Lay.blockSize();
  int64_t First = Begin / B;
  int64_t Last = (End - 1) / B;
  int64_t Shift = (Proc - First % P + P) % P;
  if (Shift > Last - First)
    return;
  for (int64_t T = First + Shift;; T += P) {
    int64_t S = T * B;
    int64_t E = End - S <= B ? End : S + B;
    F(S < Begin ? Begin : S, E);
    if (Last - T < P)
      break;
  }
}

/// Calls F(Begin, Length, Src, Dst) for every run in [Begin, End), in global
/// order: two cursors, so the cost is the pieces of both layouts there.
template <typename Fn>
void forEachRun(const Layout &From, const Layout &To, int64_t Begin,
                int64_t End, Fn &&F) {
  if (Begin >= End)
    return;
  PieceCursor A(From, Begin, End), B(To, Begin, End);
  int64_t Pos = Begin;
  while (Pos < End) {
    int64_t E = A.end() < B.end() ? A.end() : B.end();
    F(Pos, E - Pos, A.owner(), B.owner());
    Pos = E;
    if (A.end() == E)
      A.next();
    if (B.end() == E)
      B.next();
  }
}

/// Calls F(Begin, Length, Dst) for every run that source process Src sends
/// in [Begin, End), in global order.
template <typename Fn>
void forEachRowRun(const Layout &From, const Layout &To, int64_t Src,
                   int64_t Begin, int64_t End, Fn &&F) {
  forEachProcPiece(From, Src, Begin, End, [&](int64_t S, int64_t E) {
    for (PieceCursor C(To, S, E); !C.done(); C.next())
      F(C.begin(), C.end() - C.begin(), C.owner());
  });
}

/// Calls F(Begin, Length) for every run of the pair Src -> Dst in
/// [Begin, End), in global order. Walks the side with fewer pieces and looks
/// up the other side's pieces inside each.
template <typename Fn>
void forEachPairRun(const Layout &From, const Layout &To, int64_t Src,
                    int64_t Dst, int64_t Begin, int64_t End, Fn &&F) {
  bool SourceOuter = procPieceCount(From, Src, Begin, End) <=
                     procPieceCount(To, Dst, Begin, End);
  const Layout &Outer = SourceOuter ? From : To;
  const Layout &Inner = SourceOuter ? To : From;
  int64_t OuterProc = SourceOuter ? Src : Dst;
  int64_t InnerProc = SourceOuter ? Dst : Src;
  forEachProcPiece(Outer, OuterProc, Begin, End, [&](int64_t S, int64_t E) {
    forEachProcPiece(Inner, InnerProc, S, E,
                     [&](int64_t IS, int64_t IE) { F(IS, IE - IS); });
  });
}

} // namespace detail
} // namespace redist

#endif // REDIST_LIB_RUNWALKER_H
