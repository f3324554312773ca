//===- SizeLimits.cpp - How large a redistribution redist-plan takes on ---===//

#include "SizeLimits.h"

#include "redist/Error.h"

#include <algorithm>
#include <numeric>
#include <string>

using namespace redist;

namespace redistplan {

int64_t cyclicMessageBound(int64_t P, int64_t R, int64_t Q, int64_t S,
                           int64_t N) {
  int64_t Common = std::gcd(R, S);
  int64_t RR = R / Common, SS = S / Common;
  // P * RR and Q * SS need up to 83 bits.
  unsigned __int128 A = static_cast<unsigned __int128>(P) * RR;
  unsigned __int128 B = static_cast<unsigned __int128>(Q) * SS;
  while (B != 0) {
    unsigned __int128 Rest = A % B;
    A = B;
    B = Rest;
  }
  // G divides P * Q (the paper's proof of Proposition 1), so it fits.
  int64_t G = static_cast<int64_t>(A);
  int64_t Pairs = P * Q; // at most 2^40
  // min(G, RR + SS - 1) without overflowing RR + SS.
  int64_t Classes = RR - 1 >= G - SS ? G : RR + SS - 1;
  int64_t Bound = Classes == G ? Pairs : Pairs / G * Classes;
  return std::min(Bound, N);
}

void checkCyclicSize(int64_t P, int64_t R, int64_t Q, int64_t S, int64_t N) {
  for (auto [Name, Procs] : {std::pair{"P", P}, std::pair{"Q", Q}})
    if (Procs > MaxProcesses)
      throw InvalidArgument(std::string(Name) + " = " + std::to_string(Procs) +
                            ": redist-plan handles at most " +
                            std::to_string(MaxProcesses) +
                            " processes on a side");
  int64_t Messages = cyclicMessageBound(P, R, Q, S, N);
  if (Messages > MaxMessages)
    throw InvalidArgument("the grid has " + std::to_string(Messages) +
                          " messages; redist-plan handles at most " +
                          std::to_string(MaxMessages));
}

void checkMatrixSize(const MatrixSide &From, const MatrixSide &To, int64_t M,
                     int64_t N) {
  for (auto [Name, Side] :
       {std::pair{"source", From}, std::pair{"target", To}}) {
    int64_t Procs;
    if (__builtin_mul_overflow(Side.GridRows, Side.GridCols, &Procs) ||
        Procs > MaxProcesses)
      throw InvalidArgument(
          std::string("the ") + Name + " grid " +
          std::to_string(Side.GridRows) + "x" + std::to_string(Side.GridCols) +
          " has more than " + std::to_string(MaxProcesses) +
          " processes, the most redist-plan handles on a side");
  }
  // Each 1-D bound is at most 2^40 (P * Q): the product fits in 128 bits.
  unsigned __int128 Messages =
      static_cast<unsigned __int128>(cyclicMessageBound(
          From.GridRows, From.RowBlock, To.GridRows, To.RowBlock, M)) *
      cyclicMessageBound(From.GridCols, From.ColBlock, To.GridCols, To.ColBlock,
                         N);
  if (Messages > static_cast<unsigned __int128>(MaxMessages))
    throw InvalidArgument(
        "the grid has " +
        (Messages > INT64_MAX
             ? std::string("more than 2^63")
             : std::to_string(static_cast<int64_t>(Messages))) +
        " messages; redist-plan handles at most " +
        std::to_string(MaxMessages));
}

void checkMatchingWork(const CommGrid &G, Algorithm Algo, const char *Name) {
  if (Algo != Algorithm::Stepwise && Algo != Algorithm::Greedy &&
      Algo != Algorithm::Auto && Algo != Algorithm::MinCost &&
      Algo != Algorithm::MinCostSteps)
    return;
  int64_t Degree = G.maxDegree();
  // Messages and processes are capped above, so this sum cannot overflow.
  int64_t Size = static_cast<int64_t>(G.Messages.size()) + G.P + G.Q;
  if (Degree > 0 && Size > MaxMatchingWork / Degree)
    throw InvalidArgument(
        std::string("the grid is too large for ") +
        (Name ? Name : algorithmName(Algo)) + ": at least " +
        std::to_string(Degree) + " steps over " +
        std::to_string(G.Messages.size()) +
        " messages; use --algorithm caterpillar, or classes or walker_otto "
        "where they apply");
}

} // namespace redistplan
