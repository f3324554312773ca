//===- DescribeLayouts.h - One line naming a redistribution, for tests ----===//
//
// Test failure messages name the redistribution they concern the same way in
// every unit test: "cyclic(3) on 4 -> block on 2, N = 100".
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_DESCRIBELAYOUTS_H
#define REDIST_TEST_UNIT_DESCRIBELAYOUTS_H

#include "redist/Distribution.h"

#include <string>

namespace redist {
namespace test {

inline std::string describe(const Layout &From, const Layout &To) {
  return From.distribution().str() + " on " + std::to_string(From.procs()) +
         " -> " + To.distribution().str() + " on " +
         std::to_string(To.procs()) + ", N = " + std::to_string(From.extent());
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_DESCRIBELAYOUTS_H
