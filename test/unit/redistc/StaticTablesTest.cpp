//===- StaticTablesTest.cpp - planStatically's search and its checks ------===//
//
// Under --dynamic the tables are dropped, so redistc checks an overlapped
// directive without the schedule search (StaticAlgorithm::Search): the same
// errors as the static path, none of its time. The fuzzer translates every
// input both ways, and the search had doubled its slowest seed.
//
//===----------------------------------------------------------------------===//

#include "StaticTables.h"

#include "gtest/gtest.h"

namespace redistc {
namespace {

using redist::Layout;
using redist::OverlapAlgorithm;

StaticPlan plan(const Layout &From, const Layout &To, OverlapAlgorithm A,
                bool Search) {
  StaticAlgorithm Algorithm;
  Algorithm.Overlap = A;
  Algorithm.Search = Search;
  return planStatically(From, To, Algorithm, 8, StaticLimits());
}

TEST(StaticTables, WithoutSearchTheOverlapPlanIsOnlyChecked) {
  // 15,3 -> 15,5 (the counterexample of paper-corrections.md): the search
  // brings the first schedules down to 16, T_opt being 15.
  const Layout From = Layout::blockCyclic(15, 3, 225);
  const Layout To = Layout::blockCyclic(15, 5, 225);
  const StaticPlan Searched = plan(From, To, OverlapAlgorithm::Overlap, true);
  ASSERT_TRUE(Searched.Tables && Searched.Tables->Overlap);
  EXPECT_EQ(Searched.Tables->Overlap->Makespan, 16);
  const StaticPlan Checked = plan(From, To, OverlapAlgorithm::Overlap, false);
  ASSERT_TRUE(Checked.Error.empty()) << Checked.Error;
  ASSERT_TRUE(Checked.Tables && Checked.Tables->Overlap);
  EXPECT_GT(Checked.Tables->Overlap->Makespan, 16);
}

TEST(StaticTables, WithoutSearchTheErrorsAreTheSame) {
  // overlap-split's matchings take at most MaxSplitProcesses processes.
  const Layout From = Layout::blockCyclic(600, 1, 1200);
  const Layout To = Layout::blockCyclic(600, 2, 1200);
  const StaticPlan Searched =
      plan(From, To, OverlapAlgorithm::OverlapSplit, true);
  const StaticPlan Checked =
      plan(From, To, OverlapAlgorithm::OverlapSplit, false);
  EXPECT_NE(Searched.Error.find("its matchings handle at most"),
            std::string::npos)
      << Searched.Error;
  EXPECT_EQ(Checked.Error, Searched.Error);
  EXPECT_FALSE(Checked.Tables);
}

} // namespace
} // namespace redistc
