//===- GridChecks.h - A grid, its rows and its columns against a reference ===//
//
// Shared by CommGridTest.cpp and PropertySweepTest.cpp: compares message
// lists with one failure naming the first difference (not a dump of both
// lists), and checks a computed grid, and every row and column that
// computeRow and computeColumn give alone, against a reference grid.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_GRIDCHECKS_H
#define REDIST_TEST_UNIT_GRIDCHECKS_H

#include "redist/CommGrid.h"
#include "redist/Distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// "(Src -> Dst: Len)".
inline std::string messageStr(const Message &M) {
  return "(" + std::to_string(M.Src) + " -> " + std::to_string(M.Dst) + ": " +
         std::to_string(M.Len) + ")";
}

/// Compares two message lists, reporting the first difference.
inline void expectSameMessages(const std::vector<Message> &Got,
                               const std::vector<Message> &Want,
                               const std::string &What) {
  for (size_t I = 0; I < std::min(Got.size(), Want.size()); ++I)
    if (!(Got[I] == Want[I])) {
      ADD_FAILURE() << What << ": message " << I << " is " << messageStr(Got[I])
                    << ", expected " << messageStr(Want[I]);
      return;
    }
  EXPECT_EQ(Got.size(), Want.size()) << What << ": message counts differ";
}

/// G, the grid of From -> To, and every row and column computed alone equal
/// Want's.
inline void expectGridEquals(const Layout &From, const Layout &To,
                             const CommGrid &G, const CommGrid &Want) {
  ASSERT_EQ(G.P, Want.P);
  ASSERT_EQ(G.Q, Want.Q);
  expectSameMessages(G.Messages, Want.Messages, "grid");
  std::vector<std::vector<Message>> Rows(static_cast<size_t>(G.P));
  std::vector<std::vector<Message>> Columns(static_cast<size_t>(G.Q));
  for (const Message &M : Want.Messages) {
    Rows[static_cast<size_t>(M.Src)].push_back(M);
    Columns[static_cast<size_t>(M.Dst)].push_back(M);
  }
  for (int64_t P = 0; P < G.P; ++P)
    expectSameMessages(computeRow(From, To, P), Rows[static_cast<size_t>(P)],
                       "row " + std::to_string(P));
  for (int64_t Q = 0; Q < G.Q; ++Q)
    expectSameMessages(computeColumn(From, To, Q),
                       Columns[static_cast<size_t>(Q)],
                       "column " + std::to_string(Q));
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_GRIDCHECKS_H
