//===- OverlapEval.cpp - overlap-eval: overlapped schedules against T_opt -===//
//
//   overlap-eval [--cases K] [--seed S] [--max-procs 24] [--max-block 12]
//                [--effort E] [--search-work W] [--slowest K] [--jobs J]
//                [--case-log FILE]
//
// K random redistributions CYCLIC(r) on P -> CYCLIC(s) on Q, P, Q and r, s
// drawn uniformly up to the maxima, every other one at a whole slice (N = L)
// and the others at N = L + L/3 + 1, which ends in a partial slice. Each is
// scheduled by overlap, overlap-split, stepwise and greedy (every schedule
// checked by its validator) and the ratios to T_opt, the most elements one
// process sends or receives, are printed as Markdown tables: overlap's
// makespan, the step schedules' cost and the makespan of stepwise's steps
// compacted (the bridge from steps); and overlap-split's split messages.
// The same seed gives the same cases and figures on every platform, and
// with any number of jobs: the cases are drawn first, then scheduled by J
// threads, and the figures are gathered in case order. The schedulers'
// budgets count work, never time. Only the planning times (overlap's, per
// case) depend on the machine: each is given as wall time and as the CPU
// time of the thread that planned, which a loaded machine inflates far less.
//
//===----------------------------------------------------------------------===//

#include "ToolCommandLine.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/OverlapSchedule.h"
#include "redist/OverlapSchedulers.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;
using namespace redist;

namespace {

cl::OptionCategory EvalCategory("overlap-eval options");
cl::opt<int64_t> Cases("cases", cl::init(10000), cl::desc("Redistributions"),
                       cl::cat(EvalCategory));
cl::opt<int64_t> First("first", cl::init(0),
                       cl::desc("Skip the first cases drawn (to rerun a part "
                                "of a sweep)"),
                       cl::cat(EvalCategory));
cl::opt<uint64_t> Seed("seed", cl::init(1), cl::desc("Random seed"),
                       cl::cat(EvalCategory));
cl::opt<int64_t> MaxProcs("max-procs", cl::init(24),
                          cl::desc("Largest P and Q"), cl::cat(EvalCategory));
cl::opt<int64_t> MaxBlock("max-block", cl::init(12),
                          cl::desc("Largest r and s"), cl::cat(EvalCategory));
cl::opt<bool> ShowAbove("show-above",
                        cl::desc("List the cases where overlap ends after "
                                 "T_opt"),
                        cl::cat(EvalCategory));
cl::opt<int64_t> Effort("effort", cl::init(1),
                        cl::desc("overlap's search effort "
                                 "(redist::OverlapOptions::Effort)"),
                        cl::cat(EvalCategory));
cl::opt<int64_t> SearchWork("search-work",
                            cl::init(OverlapOptions().SearchWork),
                            cl::desc("overlap's branch-and-bound budget "
                                     "(redist::OverlapOptions::SearchWork), "
                                     "to compare budgets"),
                            cl::cat(EvalCategory));
cl::opt<unsigned> Slowest("slowest", cl::init(5),
                          cl::desc("List this many cases of the longest "
                                   "planning time"),
                          cl::cat(EvalCategory));
cl::opt<std::string> CaseLog("case-log",
                             cl::desc("Append one line per case to this file "
                                      "as soon as it is done (so that a "
                                      "sweep cut short still gives figures)"),
                             cl::value_desc("file"), cl::cat(EvalCategory));
cl::opt<unsigned> Jobs("jobs", cl::init(1),
                       cl::desc("Threads that schedule cases in parallel"),
                       cl::cat(EvalCategory));

/// A draw in [Low, High] from the generator's raw output: the same on every
/// platform, unlike std::uniform_int_distribution.
int64_t draw(std::mt19937_64 &Rng, int64_t Low, int64_t High) {
  return Low +
         static_cast<int64_t>(Rng() % static_cast<uint64_t>(High - Low + 1));
}

struct Series {
  const char *Name;
  std::vector<double> Values;
};

double quantile(std::vector<double> Sorted, double Q) {
  std::sort(Sorted.begin(), Sorted.end());
  return Sorted[static_cast<size_t>(Q *
                                    static_cast<double>(Sorted.size() - 1))];
}

void printRatios(const std::vector<Series> &All) {
  outs() << "| ratio to T_opt | = 1 | mean | median | 90% | 99% | max |\n"
         << "|---|---|---|---|---|---|---|\n";
  for (const Series &S : All) {
    const double Ones = static_cast<double>(std::count_if(
        S.Values.begin(), S.Values.end(), [](double V) { return V <= 1.0; }));
    const double Mean = std::accumulate(S.Values.begin(), S.Values.end(), 0.0) /
                        static_cast<double>(S.Values.size());
    outs() << "| " << S.Name << " | "
           << format("%.1f%%",
                     100.0 * Ones / static_cast<double>(S.Values.size()))
           << " | " << format("%.3f", Mean) << " | "
           << format("%.3f", quantile(S.Values, 0.5)) << " | "
           << format("%.3f", quantile(S.Values, 0.9)) << " | "
           << format("%.3f", quantile(S.Values, 0.99)) << " | "
           << format("%.3f", quantile(S.Values, 1.0)) << " |\n";
  }
}

/// One drawn redistribution.
struct Case {
  int64_t P, R, Q, S, N;
};

/// What one case gave.
struct Outcome {
  int64_t Messages = 0;
  double Overlap = 0, Bridge = 0, Stepwise = 0, Greedy = 0; ///< over T_opt
  bool Proved = false, OverlapAtBound = false;
  int64_t SplitMessages = 0, ExtraEvents = 0;
  double OverlapSeconds = 0, SplitSeconds = 0; ///< planning time, wall
  double OverlapCpu = 0; ///< overlap's planning time, CPU of its thread
};

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// CPU seconds the calling thread has used (POSIX).
double threadCpuSeconds() {
  timespec T{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return static_cast<double>(T.tv_sec) + 1e-9 * static_cast<double>(T.tv_nsec);
}

Outcome evaluate(const Case &C) {
  const Layout From = Layout::blockCyclic(C.P, C.R, C.N);
  const Layout To = Layout::blockCyclic(C.Q, C.S, C.N);
  const CommGrid G = computeGrid(From, To);
  const double Bound = static_cast<double>(makespanLowerBound(G));
  Outcome O;
  O.Messages = static_cast<int64_t>(G.Messages.size());

  OverlapReport Report;
  OverlapOptions Opts;
  Opts.Effort = Effort;
  Opts.SearchWork = SearchWork;
  auto Start = std::chrono::steady_clock::now();
  const double CpuStart = threadCpuSeconds();
  const OverlapSchedule Unsplit =
      makeOverlapSchedule(OverlapAlgorithm::Overlap, G, Opts, &Report);
  O.OverlapCpu = threadCpuSeconds() - CpuStart;
  O.OverlapSeconds = secondsSince(Start);
  if (validateOverlapSchedule(G, Unsplit))
    throw std::logic_error("overlap built an invalid schedule");
  const OverlapStats U = measureOverlapSchedule(G, Unsplit);
  if (U.SplitMessages != 0)
    throw std::logic_error("overlap split a message");
  O.Overlap = static_cast<double>(U.Makespan) / Bound;
  O.Proved = Report.ProvedOptimal;
  O.OverlapAtBound = U.Makespan == U.MakespanBound;

  // overlap-split starts from overlap's schedule: reuse it (its planning
  // time is overlap's plus this).
  Start = std::chrono::steady_clock::now();
  const OverlapSchedule Split = splitFromUnsplit(G, Unsplit, Report);
  O.SplitSeconds = O.OverlapSeconds + secondsSince(Start);
  if (validateOverlapSchedule(G, Split))
    throw std::logic_error("overlap-split built an invalid schedule");
  const OverlapStats Sp = measureOverlapSchedule(G, Split);
  if (Sp.Makespan != Sp.MakespanBound)
    throw std::logic_error("overlap-split missed T_opt");
  O.SplitMessages = Sp.SplitMessages;
  O.ExtraEvents = Sp.Events - O.Messages;

  const Schedule Steps = makeSchedule(Algorithm::Stepwise, From, To, G);
  O.Stepwise = static_cast<double>(measureSchedule(G, Steps).Cost) / Bound;
  const OverlapSchedule Compact = compactSteps(G, Steps);
  if (validateOverlapSchedule(G, Compact))
    throw std::logic_error("the bridge from steps is invalid");
  O.Bridge =
      static_cast<double>(measureOverlapSchedule(G, Compact).Makespan) / Bound;
  const Schedule Greed = makeSchedule(Algorithm::Greedy, From, To, G);
  O.Greedy = static_cast<double>(measureSchedule(G, Greed).Cost) / Bound;
  return O;
}

} // namespace

int main(int Argc, char **Argv) {
  redist::tools::parseToolCommandLine(
      Argc, Argv, EvalCategory,
      "overlapped schedules against T_opt and the step algorithms\n");
  std::mt19937_64 Rng(Seed);
  std::vector<Case> All;
  for (int64_t K = 0; K < Cases; ++K) {
    Case C;
    C.P = draw(Rng, 1, MaxProcs);
    C.Q = draw(Rng, 1, MaxProcs);
    C.R = draw(Rng, 1, MaxBlock);
    C.S = draw(Rng, 1, MaxBlock);
    const int64_t A = C.P * C.R, B = C.Q * C.S, L = A / std::gcd(A, B) * B;
    C.N = K % 2 == 0 ? L : L + L / 3 + 1;
    if (K >= First)
      All.push_back(C);
  }

  const auto Began = std::chrono::steady_clock::now();
  std::vector<Outcome> Results(All.size());
  std::atomic<size_t> NextCase{0}, Done{0};
  std::atomic<bool> Failed{false};
  std::string Failure;
  std::mutex FailureLock;
  std::unique_ptr<raw_fd_ostream> Log;
  if (!CaseLog.empty()) {
    std::error_code Error;
    Log = std::make_unique<raw_fd_ostream>(CaseLog, Error, sys::fs::OF_Append);
    if (Error) {
      errs() << "overlap-eval: " << CaseLog << ": " << Error.message() << "\n";
      return 1;
    }
  }
  auto Work = [&] {
    for (size_t K; !Failed && (K = NextCase++) < All.size();) {
      try {
        Results[K] = evaluate(All[K]);
      } catch (const std::exception &E) {
        std::lock_guard<std::mutex> Hold(FailureLock);
        const Case &C = All[K];
        Failure = "case " + std::to_string(K) + " (" + std::to_string(C.P) +
                  "," + std::to_string(C.R) + " -> " + std::to_string(C.Q) +
                  "," + std::to_string(C.S) + ", N = " + std::to_string(C.N) +
                  "): " + E.what();
        Failed = true;
      }
      const size_t Count = ++Done;
      if (Log && !Failed) {
        // case, P r Q s N, messages, overlap / T_opt, at T_opt, proved,
        // planning CPU and wall seconds.
        std::lock_guard<std::mutex> Hold(FailureLock);
        const Case &C = All[K];
        const Outcome &O = Results[K];
        *Log << "case " << First + static_cast<int64_t>(K) << " " << C.P << " "
             << C.R << " " << C.Q << " " << C.S << " " << C.N << " "
             << O.Messages << " " << format("%.4f", O.Overlap) << " "
             << O.OverlapAtBound << " " << O.Proved << " "
             << format("%.4f", O.OverlapCpu) << " "
             << format("%.4f", O.OverlapSeconds) << "\n";
        Log->flush();
      }
      if (Count % 500 == 0) {
        std::lock_guard<std::mutex> Hold(FailureLock);
        errs() << "overlap-eval: " << Count << " of " << Cases << " cases, "
               << format("%.0f", secondsSince(Began)) << " s\n";
      }
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < std::max(1u, static_cast<unsigned>(Jobs)); ++J)
    Threads.emplace_back(Work);
  Work();
  for (std::thread &T : Threads)
    T.join();
  if (Failed) {
    errs() << "overlap-eval: " << Failure << "\n";
    return 1;
  }

  Series Overlap{"overlap makespan", {}}, Bridge{"stepwise compacted", {}},
      Stepwise{"stepwise cost", {}}, Greedy{"greedy cost", {}};
  std::vector<double> SplitShare, OverlapSeconds, SplitSeconds, OverlapCpu;
  int64_t SplitCases = 0, SplitMessages = 0, ExtraEvents = 0, MostSplit = 0;
  int64_t Proved = 0, OverlapAtBound = 0, Messages = 0;
  for (const Outcome &O : Results) {
    Messages += O.Messages;
    Overlap.Values.push_back(O.Overlap);
    Bridge.Values.push_back(O.Bridge);
    Stepwise.Values.push_back(O.Stepwise);
    Greedy.Values.push_back(O.Greedy);
    Proved += O.Proved;
    OverlapAtBound += O.OverlapAtBound;
    SplitCases += O.SplitMessages > 0;
    SplitMessages += O.SplitMessages;
    MostSplit = std::max(MostSplit, O.SplitMessages);
    ExtraEvents += O.ExtraEvents;
    SplitShare.push_back(static_cast<double>(O.SplitMessages) /
                         static_cast<double>(O.Messages));
    OverlapSeconds.push_back(O.OverlapSeconds);
    OverlapCpu.push_back(O.OverlapCpu);
    SplitSeconds.push_back(O.SplitSeconds);
  }
  outs() << "overlap-eval --cases " << Cases << " --seed " << Seed
         << " --max-procs " << MaxProcs << " --max-block " << MaxBlock
         << " --effort " << Effort << " --search-work " << SearchWork << ": "
         << Messages << " messages\n\n";
  printRatios({Overlap, Bridge, Stepwise, Greedy});
  const double K = static_cast<double>(Cases);
  outs() << "\noverlap: makespan = T_opt in " << OverlapAtBound << " of "
         << Cases << " cases; proved optimal (without splits) in " << Proved
         << "\n";
  outs() << "overlap-split: makespan T_opt in every case; split messages in "
         << SplitCases << " cases ("
         << format("%.1f%%", 100.0 * static_cast<double>(SplitCases) / K)
         << "), " << SplitMessages << " split messages in all ("
         << format("%.2f%%", 100.0 * static_cast<double>(SplitMessages) /
                                 static_cast<double>(Messages))
         << " of the messages), at most " << MostSplit << " in one case, "
         << ExtraEvents << " events more than messages; share of split "
         << "messages per case: median "
         << format("%.3f", quantile(SplitShare, 0.5)) << ", 99% "
         << format("%.3f", quantile(SplitShare, 0.99)) << ", max "
         << format("%.3f", quantile(SplitShare, 1.0)) << "\n";
  if (ShowAbove) {
    outs() << "\ncases where overlap ends after T_opt (P,r -> Q,s, N: "
              "makespan / T_opt, proved optimal, planning seconds):\n";
    for (size_t K = 0; K < All.size(); ++K)
      if (!Results[K].OverlapAtBound)
        outs() << "  case " << K << ": " << All[K].P << "," << All[K].R
               << " -> " << All[K].Q << "," << All[K].S << ", N = " << All[K].N
               << ": " << format("%.3f", Results[K].Overlap) << ", "
               << (Results[K].Proved ? "proved" : "not proved") << ", "
               << format("%.2f", Results[K].OverlapSeconds) << " s\n";
  }
  // Machine-dependent: the only figures that are.
  auto Times = [&](const char *Name, const std::vector<double> &Seconds) {
    outs() << Name << " planning time per case (this machine, "
           << static_cast<unsigned>(Jobs) << " jobs): median "
           << format("%.4f", quantile(Seconds, 0.5)) << " s, 90% "
           << format("%.4f", quantile(Seconds, 0.9)) << " s, 99% "
           << format("%.3f", quantile(Seconds, 0.99)) << " s, max "
           << format("%.3f", quantile(Seconds, 1.0)) << " s, total "
           << format("%.0f",
                     std::accumulate(Seconds.begin(), Seconds.end(), 0.0))
           << " s\n";
  };
  Times("overlap", OverlapSeconds);
  Times("overlap-split", SplitSeconds);
  Times("overlap CPU", OverlapCpu);
  std::vector<size_t> ByTime(All.size());
  std::iota(ByTime.begin(), ByTime.end(), size_t(0));
  std::sort(ByTime.begin(), ByTime.end(), [&](size_t A, size_t B) {
    return Results[A].OverlapCpu > Results[B].OverlapCpu;
  });
  outs() << "longest overlap planning times (CPU, wall):";
  for (size_t K = 0; K < std::min<size_t>(Slowest, ByTime.size()); ++K) {
    const Case &C = All[ByTime[K]];
    outs() << (K ? "," : "") << " case " << First + ByTime[K] << " (" << C.P
           << "," << C.R << " -> " << C.Q << "," << C.S << ", N = " << C.N
           << ", " << Results[ByTime[K]].Messages << " messages) "
           << format("%.2f", Results[ByTime[K]].OverlapCpu) << " s, "
           << format("%.2f", Results[ByTime[K]].OverlapSeconds) << " s";
  }
  outs() << "\n";
  outs() << "wall time " << format("%.0f", secondsSince(Began)) << " s\n";
  return 0;
}
