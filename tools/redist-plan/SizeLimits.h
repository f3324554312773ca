//===- SizeLimits.h - How large a redistribution redist-plan takes on -----===//
//
// redist-plan builds the whole grid and schedule in memory. These limits keep
// every accepted input within seconds and a few hundred megabytes; beyond
// them it reports an error instead of running for hours or exhausting memory
// (docs/redist-plan.md lists them with measured times).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_PLAN_SIZELIMITS_H
#define REDIST_TOOLS_REDIST_PLAN_SIZELIMITS_H

#include "redist/CommGrid.h"
#include "redist/Schedulers.h"

#include <cstdint>

namespace redistplan {

/// Most processes on either side.
constexpr int64_t MaxProcesses = int64_t(1) << 20;
/// Most messages in the grid.
constexpr int64_t MaxMessages = int64_t(1) << 22;
/// Most "matching work", the grid's maximum degree (the least number of
/// steps) times its messages and processes, for the algorithms that compute
/// matchings step by step (stepwise, greedy, and auto, mincost and
/// mincost-steps, which run them).
constexpr int64_t MaxMatchingWork = int64_t(1) << 31;

/// An upper bound on the number of messages of CYCLIC(R) on P processes ->
/// CYCLIC(S) on Q processes over N elements, in O(1): at most N, and at most
/// (P*Q / g) * min(g, r + s - 1) with r, s divided by gcd(r, s) and
/// g = gcd(P*r, Q*s), the classes of p*r - q*s mod g that communicate
/// (desprez-1998 Lemma 2 and Proposition 1); exact when N >= L. Needs
/// 1 <= P, Q <= MaxProcesses and R, S >= 1.
int64_t cyclicMessageBound(int64_t P, int64_t R, int64_t Q, int64_t S,
                           int64_t N);

/// Throws redist::InvalidArgument naming the values when CYCLIC(R) on P ->
/// CYCLIC(S) on Q over N elements exceeds MaxProcesses or MaxMessages.
void checkCyclicSize(int64_t P, int64_t R, int64_t Q, int64_t S, int64_t N);

/// One side of cyclic2d: a GridRows x GridCols grid of RowBlock x ColBlock
/// blocks.
struct MatrixSide {
  int64_t GridRows, GridCols, RowBlock, ColBlock;
};

/// Throws redist::InvalidArgument naming the values when an M x N matrix
/// From -> To exceeds MaxProcesses on a side or MaxMessages, by the product
/// of the two 1-D message bounds. Needs every value of From, To positive.
void checkMatrixSize(const MatrixSide &From, const MatrixSide &To, int64_t M,
                     int64_t N);

/// Throws redist::InvalidArgument when scheduling G with Algo would exceed
/// MaxMatchingWork; the message names Name (default: Algo's name), for
/// schedulers that run Algo.
void checkMatchingWork(const redist::CommGrid &G, redist::Algorithm Algo,
                       const char *Name = nullptr);

} // namespace redistplan

#endif // REDIST_TOOLS_REDIST_PLAN_SIZELIMITS_H
