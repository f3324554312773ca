//===- BenchScheduling.cpp - Time to compute grids and schedules ----------===//
//
// For P = Q in {64, 256, 1024, 4096} and block sizes (r, s) in {(3, 5),
// (7, 11), (1000, 1001)}, over one slice N = lcm(P r, Q s): the time of
// computeGrid and of every algorithm that applies, with the schedule's
// steps, cost and lower bounds. (1000, 1001) is all-to-all, P * Q messages,
// while g = gcd(P r, Q s) = P <= r + s - 1 (up to P = 1024). Times are the
// medians of a few runs, of wall-clock time and of the process's CPU time
// (the two differ when other jobs share the machine).
//
// The matching-based schedulers (stepwise, greedy) do work that grows like
// messages * steps; cases beyond a fixed budget of that product (a few
// seconds) are skipped and listed as such.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

using namespace redist;

namespace {

/// messages * steps above which stepwise and greedy are skipped: the
/// all-to-all 2048 x 2048 grid (4.3e9) takes a few seconds per run.
constexpr double MatchingBudget = 5e9;

struct Timing {
  double WallMs = -1; ///< negative: skipped
  double CpuMs = -1;
};

/// Median wall and CPU times in milliseconds of Fn, over 5 runs when a run
/// is short and 3 when it is not.
Timing median(const std::function<void()> &Fn) {
  std::vector<double> Wall, Cpu;
  auto Once = [&] {
    const auto Start = std::chrono::steady_clock::now();
    const std::clock_t CpuStart = std::clock();
    Fn();
    const std::clock_t CpuEnd = std::clock();
    const std::chrono::duration<double, std::milli> D =
        std::chrono::steady_clock::now() - Start;
    Wall.push_back(D.count());
    Cpu.push_back(1000.0 * static_cast<double>(CpuEnd - CpuStart) /
                  CLOCKS_PER_SEC);
  };
  Once();
  const size_t Runs = Wall.front() < 200 ? 5 : 3;
  while (Wall.size() < Runs)
    Once();
  std::sort(Wall.begin(), Wall.end());
  std::sort(Cpu.begin(), Cpu.end());
  return {Wall[Wall.size() / 2], Cpu[Cpu.size() / 2]};
}

void printRow(int64_t P, int64_t R, int64_t S, const char *What,
              int64_t Messages, const ScheduleStats *Stats, Timing T,
              const std::string &Note = "") {
  std::printf("%5lld %5lld %5lld  %-12s %10lld", static_cast<long long>(P),
              static_cast<long long>(R), static_cast<long long>(S), What,
              static_cast<long long>(Messages));
  if (Stats)
    std::printf(" %6lld %6lld %9lld %6lld %9lld",
                static_cast<long long>(Stats->Steps),
                static_cast<long long>(Stats->NonEmptySteps),
                static_cast<long long>(Stats->Cost),
                static_cast<long long>(Stats->StepsLowerBound),
                static_cast<long long>(Stats->CostLowerBound));
  else
    std::printf(" %6s %6s %9s %6s %9s", "", "", "", "", "");
  if (T.WallMs >= 0)
    std::printf(" %10.2f %10.2f", T.WallMs, T.CpuMs);
  else
    std::printf(" %10s %10s", "skipped", "");
  std::printf("%s%s\n", Note.empty() ? "" : "  ", Note.c_str());
}

} // namespace

int main() {
  const int64_t Procs[] = {64, 256, 1024, 4096};
  const int64_t Blocks[][2] = {{3, 5}, {7, 11}, {1000, 1001}};
  std::printf("P = Q, N = lcm(P r, Q s) (one slice). busy: non-empty steps; "
              "minst, mincost: lower bounds.\n");
  std::printf("%5s %5s %5s  %-12s %10s %6s %6s %9s %6s %9s %10s %10s\n", "P",
              "r", "s", "what", "messages", "steps", "busy", "cost", "minst",
              "mincost", "wall ms", "cpu ms");
  std::vector<std::string> Skipped;
  for (int64_t P : Procs)
    for (const auto &RS : Blocks) {
      const int64_t R = RS[0], S = RS[1];
      const int64_t N = std::lcm(P * R, P * S);
      const Layout From = Layout::blockCyclic(P, R, N);
      const Layout To = Layout::blockCyclic(P, S, N);
      CommGrid G;
      const Timing GridTime = median([&] { G = computeGrid(From, To); });
      const int64_t Messages = static_cast<int64_t>(G.Messages.size());
      printRow(P, R, S, "computeGrid", Messages, nullptr, GridTime);
      for (Algorithm A : allAlgorithms()) {
        if (!algorithmApplies(A, From, To))
          continue;
        const bool Matching = A == Algorithm::Stepwise ||
                              A == Algorithm::Greedy || A == Algorithm::Auto;
        const double Work =
            static_cast<double>(Messages) * static_cast<double>(G.maxDegree());
        if (Matching && Work > MatchingBudget) {
          printRow(P, R, S, algorithmName(A), Messages, nullptr, Timing());
          Skipped.push_back(std::string(algorithmName(A)) + " at P = Q = " +
                            std::to_string(P) + ", r = " + std::to_string(R) +
                            ", s = " + std::to_string(S));
          continue;
        }
        Schedule Sched;
        const Timing T = median([&] { Sched = makeSchedule(A, From, To, G); });
        const ScheduleStats Stats = measureSchedule(G, Sched);
        printRow(P, R, S, algorithmName(A), Messages, &Stats, T,
                 A == Algorithm::Auto ? "chose " + Sched.Algorithm : "");
      }
    }
  std::printf("\nSkipped (messages * steps above %.0e, more than a few "
              "seconds each):\n",
              MatchingBudget);
  for (const std::string &S : Skipped)
    std::printf("  %s\n", S.c_str());
  return 0;
}
