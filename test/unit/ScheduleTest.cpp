//===- ScheduleTest.cpp - validateSchedule, measureSchedule, steps --------===//
//
// The validator on a hand-built grid: it accepts valid schedules (empty steps
// included) and rejects each kind of invalid one with a message that names
// the step, the message and the process; when a schedule has several
// problems it reports the first. measureSchedule's counts and lower bounds,
// and stepOfEachMessage.
//
//===----------------------------------------------------------------------===//

#include "redist/Schedule.h"
#include "redist/CommGrid.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace redist;

namespace {

// Sources 0..2, targets 0..1:
//   id 0: 0 -> 0 (5)   id 1: 0 -> 1 (2)
//   id 2: 1 -> 0 (3)   id 3: 2 -> 1 (7)
// Source 0 and both targets have degree 2; target 1 receives 9 elements.
CommGrid smallGrid() {
  CommGrid G;
  G.P = 3;
  G.Q = 2;
  G.Messages = {{0, 0, 5}, {0, 1, 2}, {1, 0, 3}, {2, 1, 7}};
  return G;
}

Schedule scheduleOf(std::vector<std::vector<int64_t>> Steps) {
  Schedule S;
  S.Algorithm = "test";
  S.Steps = std::move(Steps);
  return S;
}

std::string problem(const CommGrid &G,
                    std::vector<std::vector<int64_t>> Steps) {
  std::optional<std::string> P = validateSchedule(G, scheduleOf(Steps));
  return P ? *P : "valid";
}

} // namespace

TEST(ScheduleTest, AcceptsValidSchedules) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 3}, {1, 2}}), "valid");
  EXPECT_EQ(problem(G, {{3, 0}, {2, 1}}), "valid"); // any order in a step
  EXPECT_EQ(problem(G, {{}, {0, 3}, {}, {1, 2}, {}}), "valid");
  EXPECT_EQ(problem(G, {{0}, {1}, {2}, {3}}), "valid");
}

TEST(ScheduleTest, AcceptsTheEmptyGrid) {
  CommGrid G;
  G.P = 4;
  G.Q = 2;
  EXPECT_EQ(problem(G, {}), "valid");
  EXPECT_EQ(problem(G, {{}, {}}), "valid");
}

TEST(ScheduleTest, RejectsIdsOutOfRange) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 3}, {1, 4}}),
            "step 1: message id 4 is out of range [0, 4)");
  EXPECT_EQ(problem(G, {{-1}, {0, 3}, {1, 2}}),
            "step 0: message id -1 is out of range [0, 4)");
}

TEST(ScheduleTest, RejectsAMessageTwice) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 3}, {1, 2}, {3}}),
            "step 2: message 3 (2 -> 1) was already sent in step 0");
  EXPECT_EQ(problem(G, {{0, 3, 3}, {1, 2}}),
            "step 0: message 3 (2 -> 1) appears twice");
}

TEST(ScheduleTest, RejectsAProcessSendingTwice) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 1}, {2, 3}}),
            "step 0: process 0 sends twice: message 0 (0 -> 0) and message 1 "
            "(0 -> 1)");
}

TEST(ScheduleTest, RejectsAProcessReceivingTwice) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 2}, {1}, {3}}),
            "step 0: process 0 receives twice: message 0 (0 -> 0) and message "
            "2 (1 -> 0)");
  EXPECT_EQ(problem(G, {{0}, {2}, {1, 3}}),
            "step 2: process 1 receives twice: message 1 (0 -> 1) and message "
            "3 (2 -> 1)");
}

TEST(ScheduleTest, RejectsAMissingMessage) {
  CommGrid G = smallGrid();
  EXPECT_EQ(problem(G, {{0, 3}, {1}}), "message 2 (1 -> 0) is in no step");
  EXPECT_EQ(problem(G, {}), "message 0 (0 -> 0) is in no step");
}

TEST(ScheduleTest, ReportsTheFirstProblem) {
  CommGrid G = smallGrid();
  // Step 0 has a double send, step 1 an id out of range, message 2 is
  // missing: the double send comes first.
  EXPECT_EQ(problem(G, {{0, 1}, {9}}),
            "step 0: process 0 sends twice: message 0 (0 -> 0) and message 1 "
            "(0 -> 1)");
  // Within a step, the earlier entry wins.
  EXPECT_EQ(problem(G, {{7, 0, 1}}),
            "step 0: message id 7 is out of range [0, 4)");
}

TEST(ScheduleTest, RejectsAGridWithProcessesOutOfRange) {
  CommGrid G = smallGrid();
  G.Messages.push_back({3, 0, 1});
  EXPECT_EQ(problem(G, {{0, 3}, {1, 2}, {4}}),
            "grid: message 4 (3 -> 0) has source 3 outside [0, 3)");
  G.Messages.back() = {2, 2, 1};
  EXPECT_EQ(problem(G, {{0, 3}, {1, 2}, {4}}),
            "grid: message 4 (2 -> 2) has target 2 outside [0, 2)");
}

TEST(ScheduleTest, MeasuresStepsCostAndBounds) {
  CommGrid G = smallGrid();
  ScheduleStats S = measureSchedule(G, scheduleOf({{}, {0, 3}, {}, {1, 2}}));
  EXPECT_EQ(S.Steps, 4);
  EXPECT_EQ(S.NonEmptySteps, 2);
  EXPECT_EQ(S.Cost, 7 + 3);
  EXPECT_EQ(S.StepsLowerBound, 2);
  EXPECT_EQ(S.CostLowerBound, 9); // target 1 receives 2 + 7

  ScheduleStats One = measureSchedule(G, scheduleOf({{0}, {1}, {2}, {3}}));
  EXPECT_EQ(One.Steps, 4);
  EXPECT_EQ(One.NonEmptySteps, 4);
  EXPECT_EQ(One.Cost, 5 + 2 + 3 + 7);

  ScheduleStats None = measureSchedule(CommGrid(), scheduleOf({}));
  EXPECT_EQ(None.Steps, 0);
  EXPECT_EQ(None.Cost, 0);
  EXPECT_EQ(None.StepsLowerBound, 0);
  EXPECT_EQ(None.CostLowerBound, 0);
}

TEST(ScheduleTest, FindsTheStepOfEachMessage) {
  CommGrid G = smallGrid();
  EXPECT_EQ(stepOfEachMessage(G, scheduleOf({{}, {0, 3}, {}, {1, 2}})),
            (std::vector<int64_t>{1, 3, 3, 1}));
  EXPECT_EQ(stepOfEachMessage(G, scheduleOf({{2}})),
            (std::vector<int64_t>{-1, -1, 0, -1}));
}
