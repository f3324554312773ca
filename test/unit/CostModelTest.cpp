//===- CostModelTest.cpp - The three-term model and its file --------------===//
//
// ScheduleStats::CriticalMessages on hand-built schedules (chains through
// shared ranks, local copies left out, concurrent messages of one step);
// what auto weighs (chooseSchedule) and that each term of the model steers
// its pick; the model file reader on good and bad files, and REDIST_MODEL.
//
//===----------------------------------------------------------------------===//

#include "redist/CostModel.h"
#include "redist/Error.h"
#include "redist/Schedulers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

using namespace redist;

namespace {

Schedule scheduleOf(std::vector<std::vector<int64_t>> Steps) {
  Schedule S;
  S.Algorithm = "test";
  S.Steps = std::move(Steps);
  return S;
}

// Four ranks: id 0: 0 -> 1, id 1: 1 -> 2, id 2: 2 -> 3, id 3: 3 -> 3 (a
// local copy), id 4: 0 -> 2.
CommGrid fourRanks() {
  CommGrid G;
  G.P = 4;
  G.Q = 4;
  G.Messages = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 3, 9}, {0, 2, 1}};
  return G;
}

TEST(CriticalMessagesTest, ChainsThroughSharedRanks) {
  const CommGrid G = fourRanks();
  // 0->1, then 1->2 (rank 1 again), then 2->3 (rank 2 again): one chain.
  ScheduleStats S = measureSchedule(G, scheduleOf({{0, 3}, {1}, {2, 4}}));
  EXPECT_EQ(S.NonEmptySteps, 3);
  EXPECT_EQ(S.CriticalMessages, 3);
  // 0->1 and 2->3 share no rank: two steps, no chain longer than one...
  S = measureSchedule(G, scheduleOf({{0}, {2}, {1, 3}, {4}}));
  EXPECT_EQ(S.NonEmptySteps, 4);
  // ... but 1->2 in step 2 follows both, and 0->2 follows 1->2.
  EXPECT_EQ(S.CriticalMessages, 3);
}

TEST(CriticalMessagesTest, MessagesOfOneStepDoNotChain) {
  const CommGrid G = fourRanks();
  // 0->1 and 1->2 share rank 1 but run at once (rank 1 sends one and
  // receives the other in the same step).
  ScheduleStats S = measureSchedule(G, scheduleOf({{0, 1, 3}, {2, 4}}));
  EXPECT_EQ(S.CriticalMessages, 2);
  // Rank 2 receives twice (1->2, 0->2) and sends once: at least 2 steps.
  EXPECT_EQ(S.CriticalLowerBound, 2);
}

TEST(CriticalMessagesTest, LocalCopiesAreNoMessages) {
  CommGrid G;
  G.P = 2;
  G.Q = 2;
  G.Messages = {{0, 0, 4}, {1, 1, 4}};
  ScheduleStats S = measureSchedule(G, scheduleOf({{0}, {1}}));
  EXPECT_EQ(S.NonEmptySteps, 2);
  EXPECT_EQ(S.CriticalMessages, 0);
  EXPECT_EQ(S.CriticalLowerBound, 0);
}

TEST(CostModelTest, PredictsEachTerm) {
  CostModel M;
  M.Alpha = 1;
  M.Gamma = 10;
  M.BetaPerByte = 100;
  M.ElementBytes = 4;
  ScheduleStats S;
  S.NonEmptySteps = 3;
  S.CriticalMessages = 2;
  S.Cost = 5;
  EXPECT_DOUBLE_EQ(M.beta(), 400);
  EXPECT_DOUBLE_EQ(M.predict(S), 3 + 20 + 2000);
}

struct Slice {
  Layout From, To;
  CommGrid G;
};

Slice slice(int64_t P, int64_t R, int64_t Q, int64_t S) {
  const int64_t N = std::lcm(P * R, Q * S);
  Layout From = Layout::blockCyclic(P, R, N), To = Layout::blockCyclic(Q, S, N);
  CommGrid G = computeGrid(From, To);
  return {From, To, std::move(G)};
}

TEST(AutoChoiceTest, WeighsEveryCandidateByTheModel) {
  const Slice Ex5 = slice(15, 2, 6, 3); // desprez-1998 Example 5
  const CostModel Model;
  const AutoChoice C = chooseSchedule(Ex5.From, Ex5.To, Ex5.G, Model);
  ASSERT_FALSE(C.Candidates.empty());
  ASSERT_LT(C.Best, C.Candidates.size());
  for (const AutoCandidate &A : C.Candidates) {
    EXPECT_TRUE(A.Failure.empty()) << algorithmName(A.Algo);
    EXPECT_DOUBLE_EQ(A.Seconds, Model.predict(A.Stats));
    EXPECT_GE(A.Seconds, C.Candidates[C.Best].Seconds);
  }
  EXPECT_EQ(C.Chosen.Algorithm, algorithmName(C.Candidates[C.Best].Algo));
  EXPECT_EQ(validateSchedule(Ex5.G, C.Chosen), std::nullopt);
  // The one-line reason names the pick and the runner-up.
  EXPECT_EQ(C.Chosen.Choice.rfind(C.Chosen.Algorithm + ": predicted ", 0), 0u)
      << C.Chosen.Choice;
  EXPECT_NE(C.Chosen.Choice.find("critical messages"), std::string::npos);
  // makeSchedule's auto is the same schedule.
  const Schedule S = makeSchedule(Algorithm::Auto, Ex5.From, Ex5.To, Ex5.G);
  EXPECT_EQ(S.Steps, C.Chosen.Steps);
  EXPECT_EQ(S.Choice, C.Chosen.Choice);
}

TEST(AutoChoiceTest, EachTermSteersThePick) {
  const Slice Ex5 = slice(15, 2, 6, 3);
  auto Only = [](double Alpha, double Gamma, double Beta) {
    CostModel M;
    M.Alpha = Alpha;
    M.Gamma = Gamma;
    M.BetaPerByte = Beta;
    return M;
  };
  // The pick minimises the one term that counts, whichever it is.
  for (int Term = 0; Term < 3; ++Term) {
    const CostModel M = Only(Term == 0, Term == 1, Term == 2);
    const AutoChoice C = chooseSchedule(Ex5.From, Ex5.To, Ex5.G, M);
    auto Figure = [&](const ScheduleStats &S) {
      return Term == 0   ? S.NonEmptySteps
             : Term == 1 ? S.CriticalMessages
                         : S.Cost;
    };
    for (const AutoCandidate &A : C.Candidates)
      EXPECT_LE(Figure(C.Candidates[C.Best].Stats), Figure(A.Stats))
          << "term " << Term << ": " << algorithmName(A.Algo);
  }
  // Per element: 16 (mincost) against 20 (stepwise) elements.
  EXPECT_EQ(
      chooseSchedule(Ex5.From, Ex5.To, Ex5.G, Only(0, 0, 1)).Chosen.Algorithm,
      "mincost");
  EXPECT_EQ(
      chooseSchedule(Ex5.From, Ex5.To, Ex5.G, Only(1, 0, 0)).Chosen.Algorithm,
      "stepwise");
}

// Model files.

std::string errorOf(const std::string &Text) {
  try {
    parseCostModel(Text, "m.json");
  } catch (const InvalidArgument &E) {
    return E.what();
  }
  return "";
}

TEST(ModelFileTest, ReadsTheConstants) {
  const CostModel M = parseCostModel(
      R"({"format": "redist-model/1", "alpha_s": 1.5e-6,
          "beta_s_per_byte": 2E-10, "gamma_s": 0,
          "measured_on": {"host": "n\u00e9ud \"1\"", "ranks": 4}})",
      "m.json");
  EXPECT_DOUBLE_EQ(M.Alpha, 1.5e-6);
  EXPECT_DOUBLE_EQ(M.BetaPerByte, 2e-10);
  EXPECT_DOUBLE_EQ(M.Gamma, 0);
  EXPECT_DOUBLE_EQ(M.ElementBytes, CostModel().ElementBytes);
}

TEST(ModelFileTest, NamesTheFileAndTheMember) {
  const std::string Good = R"("format": "redist-model/1", "alpha_s": 1e-6,
      "beta_s_per_byte": 1e-9)";
  struct Case {
    std::string Text, Expected;
  };
  const Case Cases[] = {
      {"{" + Good + "}", "m.json: member \"gamma_s\": missing"},
      {"{" + Good + ", \"gamma_s\": -1e-6}",
       "m.json: member \"gamma_s\": must be finite and non-negative, got "
       "-1e-06"},
      {"{" + Good + ", \"gamma_s\": 1e999}",
       "m.json: member \"gamma_s\": must be finite"},
      {"{" + Good + ", \"gamma_s\": \"2us\"}",
       "m.json: member \"gamma_s\": expected a number of seconds"},
      {"{" + Good + ", \"gamma_s\": 1, \"gama_s\": 1}",
       "m.json: member \"gama_s\": unknown member"},
      {"{" + Good + ", \"gamma_s\": 1, \"measured_on\": 3}",
       "m.json: member \"measured_on\": expected an object"},
      {R"({"format": "redist-model/2", "alpha_s": 1, "beta_s_per_byte": 1,
          "gamma_s": 1})",
       "m.json: member \"format\": expected \"redist-model/1\""},
      {R"({"alpha_s": 1, "beta_s_per_byte": 1, "gamma_s": 1})",
       "m.json: member \"format\" is missing"},
      {"{" + Good + ", \"gamma_s\": 1} x", "m.json:2:"},
      {"{" + Good + ", \"gamma_s\": 1, \"alpha_s\": 2}",
       "member \"alpha_s\" appears twice"},
      {"{" + Good + ", \"gamma_s\": true}", "expected a number"},
      {"{" + Good + ", \"gamma_s\": 01}", "expected ',' or '}'"},
      {"{" + Good + ", \"gamma_s\": 1,}", "expected '\"'"},
      {"{" + Good + R"(, "gamma_s": 1, "measured_on": {"a": {"b": 1}}})",
       "objects nest one level at most"},
      {"[1]", "m.json:1:1: expected '{'"},
      {"", "m.json:1:1: expected '{'"},
  };
  for (const Case &C : Cases) {
    const std::string Error = errorOf(C.Text);
    EXPECT_NE(Error.find(C.Expected), std::string::npos)
        << "text: " << C.Text << "\nerror: " << Error;
    EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
  }
}

TEST(ModelFileTest, ReadsFilesAndRedistModel) {
  const std::string Path = ::testing::TempDir() + "cost-model-test.json";
  {
    std::ofstream Out(Path);
    Out << R"({"format":"redist-model/1","alpha_s":7e-6,)"
        << R"("beta_s_per_byte":3e-9,"gamma_s":5e-7})";
  }
  EXPECT_DOUBLE_EQ(readCostModelFile(Path).Alpha, 7e-6);
  std::string From;
  EXPECT_DOUBLE_EQ(loadCostModel(Path, &From).Gamma, 5e-7);
  EXPECT_EQ(From, Path);

  ASSERT_EQ(unsetenv("REDIST_MODEL"), 0);
  EXPECT_EQ(defaultCostModel(), CostModel());
  EXPECT_EQ(loadCostModel("", &From), CostModel());
  EXPECT_EQ(From, "defaults");
  ASSERT_EQ(setenv("REDIST_MODEL", Path.c_str(), 1), 0);
  EXPECT_DOUBLE_EQ(defaultCostModel().BetaPerByte, 3e-9);
  EXPECT_DOUBLE_EQ(loadCostModel("", &From).BetaPerByte, 3e-9);
  EXPECT_EQ(From, Path);

  const std::string Missing = Path + ".missing";
  ASSERT_EQ(setenv("REDIST_MODEL", Missing.c_str(), 1), 0);
  try {
    defaultCostModel();
    ADD_FAILURE() << "a missing REDIST_MODEL file is an error";
  } catch (const InvalidArgument &E) {
    EXPECT_EQ(std::string(E.what()).rfind("REDIST_MODEL: " + Missing +
                                              ": cannot open the model file",
                                          0),
              0u)
        << E.what();
  }
  ASSERT_EQ(unsetenv("REDIST_MODEL"), 0);
  std::remove(Path.c_str());
}

} // namespace
