//===- DescribeLayouts.h - One line naming a redistribution, for tests ----===//
//
// Test failure messages name the redistribution they concern the same way in
// every unit test: "cyclic(3) on 4 -> block on 2, N = 100".
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_DESCRIBELAYOUTS_H
#define REDIST_TEST_UNIT_DESCRIBELAYOUTS_H

#include "redist/Distribution.h"

#include <cstdint>
#include <string>

namespace redist {
namespace test {

inline std::string describe(const Layout &From, const Layout &To) {
  return From.distribution().str() + " on " + std::to_string(From.procs()) +
         " -> " + To.distribution().str() + " on " +
         std::to_string(To.procs()) + ", N = " + std::to_string(From.extent());
}

/// The same for CYCLIC(R) on P -> CYCLIC(S) on Q of N elements.
inline std::string describeCyclic(int64_t P, int64_t R, int64_t Q, int64_t S,
                                  int64_t N) {
  return describe(Layout::blockCyclic(P, R, N), Layout::blockCyclic(Q, S, N));
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_DESCRIBELAYOUTS_H
