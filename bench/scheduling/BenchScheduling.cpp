//===- BenchScheduling.cpp - Time to compute grids and schedules ----------===//
//
// bench-scheduling [--full]
// bench-scheduling --mincost-sweep [CASES]
//
// For P = Q in {64, 256, 1024, 4096} and block sizes (r, s) in {(3, 5),
// (7, 11), (1000, 1001), (3, 12), (1, 2048)}, over one slice N = lcm(P r,
// Q s): the time of computeGrid, of computeRow for one process (what each
// runtime rank computes), and of every algorithm that applies, with the
// schedule's steps, cost and lower bounds.
// - (3, 5) and (7, 11) are desprez-1998's Examples 1 and 2, where classes
//   applies; (1000, 1001) is all-to-all, P * Q messages, while g = gcd(P r,
//   Q s) = P <= r + s - 1 (up to P = 1024), where only the matchers and the
//   caterpillar apply.
// - (3, 12) and (1, 2048) have s = K r, where walker_otto applies: K = 4,
//   a sparse grid of 4 steps, and K = 2048, an all-to-all grid up to P =
//   2048 (min(K, P) steps).
// Times are the medians of a few runs, of wall-clock time and of the
// process's CPU time (the two differ when other jobs share the machine).
//
// The matching-based schedulers (stepwise, greedy, and auto when it has to
// run them) do work that grows like messages * steps; by default cases
// beyond a fixed budget of that product (a few seconds each) are skipped and
// listed as such. --full runs them too, which takes several minutes.
//
// --mincost-sweep instead compares the costs of mincost, greedy and stepwise
// over CASES (default 10000) seeded block-cyclic cases with P, Q <= 24 and
// r, s <= 12, half of them whole slices and half with a partial last slice:
// each cost over the lower bound of redist/MinCost.h, and how often mincost
// is strictly cheaper.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/MinCost.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

/// messages * steps above which stepwise and greedy are skipped without
/// --full: the all-to-all 2048 x 2048 grid (4.3e9) takes a few seconds per
/// run.
constexpr double MatchingBudget = 5e9;

struct Timing {
  double WallMs = -1; ///< negative: skipped
  double CpuMs = -1;
};

/// Median wall and CPU times in milliseconds of Fn, over 5 runs when a run
/// is short, 3 when it is not, and 1 past 10 s: the noise is then small next
/// to the time, and --full's largest cases take minutes each.
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
  const size_t Runs = Wall.front() < 200 ? 5 : Wall.front() < 10000 ? 3 : 1;
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
  // Four decimals: one row takes microseconds.
  if (T.WallMs >= 0)
    std::printf(" %11.4f %11.4f", T.WallMs, T.CpuMs);
  else
    std::printf(" %11s %11s", "skipped", "");
  std::printf("%s%s\n", Note.empty() ? "" : "  ", Note.c_str());
}

/// Mean time of one computeRow call, for the middle process: a single call
/// takes microseconds, below what one clock reading resolves well.
Timing timeOneRow(const Layout &From, const Layout &To, int64_t &Messages) {
  const int64_t Calls = 1000;
  Timing T = median([&] {
    for (int64_t I = 0; I < Calls; ++I)
      Messages =
          static_cast<int64_t>(computeRow(From, To, From.procs() / 2).size());
  });
  T.WallMs /= Calls;
  T.CpuMs /= Calls;
  return T;
}

/// Min, median and max of Values (sorted in place).
void printSpread(const char *Name, std::vector<double> &Values) {
  std::sort(Values.begin(), Values.end());
  const double Mean = std::accumulate(Values.begin(), Values.end(), 0.0) /
                      static_cast<double>(Values.size());
  std::printf("  %-10s min %.4f  median %.4f  mean %.4f  max %.4f\n", Name,
              Values.front(), Values[Values.size() / 2], Mean, Values.back());
}

int mincostSweep(int64_t Cases) {
  std::mt19937_64 Rng(2026);
  auto Pick = [&](int64_t Lo, int64_t Hi) {
    return Lo +
           static_cast<int64_t>(Rng() % static_cast<uint64_t>(Hi - Lo + 1));
  };
  std::vector<double> MinCostRatio, GreedyRatio, StepwiseRatio;
  int64_t BelowBoth = 0, BelowGreedy = 0, BelowStepwise = 0, Proved = 0;
  int64_t MoreSteps = 0;
  double MinCostMs = 0, SlowestMs = 0;
  for (int64_t I = 0; I < Cases; ++I) {
    const int64_t P = Pick(1, 24), R = Pick(1, 12), Q = Pick(1, 24),
                  S = Pick(1, 12);
    const int64_t L = std::lcm(P * R, Q * S);
    const int64_t N = I % 2 == 0 ? L : Pick(1, 2 * L - 1);
    const Layout From = Layout::blockCyclic(P, R, N);
    const Layout To = Layout::blockCyclic(Q, S, N);
    const CommGrid G = computeGrid(From, To);
    const int64_t Greedy =
        measureSchedule(G, makeSchedule(Algorithm::Greedy, From, To, G)).Cost;
    const int64_t Stepwise =
        measureSchedule(G, makeSchedule(Algorithm::Stepwise, From, To, G)).Cost;
    MinCostReport Report;
    const auto Start = std::chrono::steady_clock::now();
    const Schedule Min = makeMinCostSchedule(G, MinCostOptions(), &Report);
    const std::chrono::duration<double, std::milli> Took =
        std::chrono::steady_clock::now() - Start;
    MinCostMs += Took.count();
    SlowestMs = std::max(SlowestMs, Took.count());
    if (validateSchedule(G, Min)) {
      std::fprintf(stderr, "invalid mincost schedule\n");
      return 2;
    }
    const double Bound =
        static_cast<double>(std::max<int64_t>(Report.LowerBound, 1));
    MinCostRatio.push_back(static_cast<double>(Report.Cost) / Bound);
    GreedyRatio.push_back(static_cast<double>(Greedy) / Bound);
    StepwiseRatio.push_back(static_cast<double>(Stepwise) / Bound);
    BelowBoth += Report.Cost < std::min(Greedy, Stepwise);
    BelowGreedy += Report.Cost < Greedy;
    BelowStepwise += Report.Cost < Stepwise;
    Proved += Report.ProvedOptimal;
    MoreSteps += static_cast<int64_t>(Min.Steps.size()) > G.maxDegree();
  }
  std::printf("%lld seeded cases, P, Q <= 24, r, s <= 12, half whole slices; "
              "cost / lower bound (sum over i of the largest i-th longest "
              "message of one process):\n",
              static_cast<long long>(Cases));
  printSpread("mincost", MinCostRatio);
  printSpread("greedy", GreedyRatio);
  printSpread("stepwise", StepwiseRatio);
  std::printf("mincost strictly cheaper than both: %lld, than greedy: %lld, "
              "than stepwise: %lld\n",
              static_cast<long long>(BelowBoth),
              static_cast<long long>(BelowGreedy),
              static_cast<long long>(BelowStepwise));
  std::printf("proved optimal: %lld; more steps than the maximum degree: "
              "%lld\n",
              static_cast<long long>(Proved),
              static_cast<long long>(MoreSteps));
  std::printf("mincost time: %.0f ms in all, %.3f ms mean, %.1f ms at most\n",
              MinCostMs, MinCostMs / static_cast<double>(Cases), SlowestMs);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  bool Full = false;
  for (int I = 1; I < Argc; ++I) {
    if (std::string(Argv[I]) == "--full") {
      Full = true;
    } else if (std::string(Argv[I]) == "--mincost-sweep") {
      return mincostSweep(I + 1 < Argc ? std::stoll(Argv[I + 1]) : 10000);
    } else {
      std::fprintf(stderr,
                   "usage: bench-scheduling [--full]\n"
                   "       bench-scheduling --mincost-sweep [CASES]\n"
                   "  --full  also time the cases beyond the matching budget "
                   "(several minutes)\n"
                   "  --mincost-sweep  mincost's cost against greedy's and "
                   "stepwise's over CASES seeded cases (default 10000)\n");
      return 1;
    }
  }
  const int64_t Procs[] = {64, 256, 1024, 4096};
  const int64_t Blocks[][2] = {
      {3, 5}, {7, 11}, {1000, 1001}, {3, 12}, {1, 2048}};
  std::printf("P = Q, N = lcm(P r, Q s) (one slice). busy: non-empty steps; "
              "minst, mincost: lower bounds. computeRow: one call, for "
              "process P/2.\n");
  std::printf("%5s %5s %5s  %-12s %10s %6s %6s %9s %6s %9s %11s %11s\n", "P",
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
      int64_t RowMessages = 0;
      const Timing RowTime = timeOneRow(From, To, RowMessages);
      printRow(P, R, S, "computeRow", RowMessages, nullptr, RowTime);
      // auto stops at the first schedule that meets both lower bounds; at
      // one slice classes and walker_otto do, and they come before the
      // matchers.
      const bool ClosedForm = algorithmApplies(Algorithm::Classes, From, To) ||
                              algorithmApplies(Algorithm::WalkerOtto, From, To);
      for (Algorithm A : allAlgorithms()) {
        if (!algorithmApplies(A, From, To))
          continue;
        const bool Matching =
            A == Algorithm::Stepwise || A == Algorithm::Greedy ||
            A == Algorithm::MinCost || A == Algorithm::MinCostSteps ||
            (A == Algorithm::Auto && !ClosedForm);
        const double Work =
            static_cast<double>(Messages) * static_cast<double>(G.maxDegree());
        if (Matching && Work > MatchingBudget && !Full) {
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
      std::fflush(stdout);
    }
  if (!Skipped.empty()) {
    std::printf("\nSkipped (messages * steps above %.0e, more than a few "
                "seconds each; --full runs them):\n",
                MatchingBudget);
    for (const std::string &S : Skipped)
      std::printf("  %s\n", S.c_str());
  }
  return 0;
}
