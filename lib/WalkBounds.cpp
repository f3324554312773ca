//===- WalkBounds.cpp - What walking the blocks of a range costs ----------===//

#include "WalkBounds.h"

#include "BlockCyclicMath.h"
#include "CyclicPair.h"
#include "RunWalker.h"
#include "redist/Error.h"
#include "redist/Limits.h"

#include <algorithm>
#include <limits>
#include <string>

using namespace redist;
using namespace redist::detail;

namespace {

constexpr int64_t Saturated = std::numeric_limits<int64_t>::max();

int64_t satAdd(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_add_overflow(A, B, &R) ? Saturated : R;
}

int64_t satMul(int64_t A, int64_t B) {
  int64_t R;
  return __builtin_mul_overflow(A, B, &R) ? Saturated : R;
}

/// The pieces of one process of Own in a cycle-aligned range of Length
/// elements, and how many pieces of Other each of them meets at most.
struct PieceShape {
  int64_t Pieces;      ///< of the process with the most (process 0)
  int64_t Split;       ///< Other's pieces one of them meets
  int64_t OtherPieces; ///< all of Other's pieces in the range
};

PieceShape shapeOf(const Layout &Own, const Layout &Other, int64_t Length) {
  PieceShape S;
  int64_t PieceLength;
  // Own's pieces start at multiples of Step, Other's at multiples of its
  // block size b: a piece starts at most b - gcd(Step, b) into one of them.
  int64_t Step = 1;
  if (!Own.isBlockCyclic()) {
    S.Pieces = 1;
    PieceLength = std::min(Own.maxLocalSize(), Length);
  } else if (Own.procs() == 1) {
    S.Pieces = 1;
    PieceLength = Length;
  } else {
    // From a cycle start the first process gets the most blocks.
    S.Pieces = procPieceCount(Own, 0, 0, Length);
    PieceLength = Own.blockSize();
    Step = PieceLength;
  }
  S.OtherPieces = pieceCount(Other, 0, Length);
  S.Split = S.OtherPieces;
  if (Other.isBlockCyclic() && Other.procs() == 1) {
    S.Split = 1;
  } else if (Other.isBlockCyclic()) {
    int64_t B = Other.blockSize();
    Int128 Reach = static_cast<Int128>(PieceLength) - 1 + B - gcd64(Step, B);
    S.Split = std::min<int64_t>(S.Split, static_cast<int64_t>(Reach / B) + 1);
  }
  return S;
}

/// The lengths of the ranges a description lists: one slice and the last,
/// or all of [0, N) without a whole slice.
struct DescribedRanges {
  int64_t First, Second;
};

DescribedRanges describedRanges(const Layout &From, const Layout &To) {
  int64_t N = From.extent();
  if (From.isBlockCyclic() && To.isBlockCyclic()) {
    CyclicPair CP(From, To);
    if (CP.wholeSlices() > 0)
      return {CP.sliceLength(), N - CP.wholeSlices() * CP.sliceLength()};
  }
  return {N, 0};
}

std::string describeProblem(const Layout &From, const Layout &To) {
  return From.distribution().str() + " on " + std::to_string(From.procs()) +
         " processes -> " + To.distribution().str() + " on " +
         std::to_string(To.procs()) +
         " processes over N = " + std::to_string(From.extent()) + " elements";
}

} // namespace

int64_t detail::processRunBound(const Layout &Own, const Layout &Other,
                                int64_t Length) {
  if (Length <= 0)
    return 0;
  // Each piece is one run per piece of Other it meets, and the pieces of
  // Other start one new run each.
  PieceShape S = shapeOf(Own, Other, Length);
  return std::min(satMul(S.Pieces, S.Split),
                  satAdd(S.Pieces, S.OtherPieces - 1));
}

int64_t detail::checkGridWalk(const Layout &From, const Layout &To,
                              int64_t Length) {
  if (Length <= 0)
    return 0;
  // sumPartners: a process walks Other's pieces when they are fewer than its
  // own, else its own pieces, each split among To's at most 2Q + 1 visits
  // (whole cycles of To at once).
  PieceShape S = shapeOf(From, To, Length);
  int64_t PerPiece = std::min(S.Split, satAdd(satMul(2, To.procs()), 1));
  int64_t PerProcess =
      std::min(satMul(S.Pieces, PerPiece), satAdd(S.Pieces, S.OtherPieces));
  int64_t Active = std::min(From.procs(), pieceCount(From, 0, Length));
  int64_t Walk = satMul(Active, PerProcess);
  if (Walk > MaxGridWalk)
    throw InvalidArgument(describeProblem(From, To) +
                          ": the grid takes up to " + std::to_string(Walk) +
                          " block visits outside whole slices of L = " +
                          "lcm(P*r, Q*s), more than the library's limit of " +
                          std::to_string(MaxGridWalk));
  return Walk;
}

void detail::checkGridMessages(const Layout &From, const Layout &To,
                               int64_t Messages) {
  if (Messages > MaxGridMessages)
    throw InvalidArgument(describeProblem(From, To) + ": the grid has " +
                          std::to_string(Messages) +
                          " messages, more than the library's limit of " +
                          std::to_string(MaxGridMessages));
}

void redist::checkRunLimit(const Layout &From, const Layout &To) {
  DescribedRanges R = describedRanges(From, To);
  for (bool Sender : {true, false}) {
    const Layout &Own = Sender ? From : To;
    const Layout &Other = Sender ? To : From;
    int64_t Runs = satAdd(processRunBound(Own, Other, R.First),
                          processRunBound(Own, Other, R.Second));
    if (Runs > MaxRunsPerProcess)
      throw InvalidArgument(
          describeProblem(From, To) + ": the messages of one " +
          (Sender ? "source" : "target") + " process take up to " +
          std::to_string(Runs) +
          " runs of local indices to describe, more than the library's "
          "limit of " +
          std::to_string(MaxRunsPerProcess) + " per process");
  }
}
