//===- OverlapEval.cpp - overlap-eval: overlapped schedules against T_opt -===//
//
//   overlap-eval [--cases K] [--seed S] [--max-procs 24] [--max-block 12]
//
// K random redistributions CYCLIC(r) on P -> CYCLIC(s) on Q, P, Q and r, s
// drawn uniformly up to the maxima, every other one at a whole slice (N = L)
// and the others at N = L + L/3 + 1, which ends in a partial slice. Each is
// scheduled by overlap, overlap-split, stepwise and greedy (every schedule
// checked by its validator) and the ratios to T_opt, the most elements one
// process sends or receives, are printed as Markdown tables: overlap's
// makespan, the step schedules' cost and the makespan of stepwise's steps
// compacted (the bridge from steps); and overlap-split's split messages.
// The same seed gives the same cases and figures on every platform.
//
//===----------------------------------------------------------------------===//

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/OverlapSchedule.h"
#include "redist/OverlapSchedulers.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace llvm;
using namespace redist;

namespace {

cl::OptionCategory EvalCategory("overlap-eval options");
cl::opt<int64_t> Cases("cases", cl::init(10000), cl::desc("Redistributions"),
                       cl::cat(EvalCategory));
cl::opt<uint64_t> Seed("seed", cl::init(1), cl::desc("Random seed"),
                       cl::cat(EvalCategory));
cl::opt<int64_t> MaxProcs("max-procs", cl::init(24),
                          cl::desc("Largest P and Q"), cl::cat(EvalCategory));
cl::opt<int64_t> MaxBlock("max-block", cl::init(12),
                          cl::desc("Largest r and s"), cl::cat(EvalCategory));

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

} // namespace

int main(int Argc, char **Argv) {
  cl::HideUnrelatedOptions(EvalCategory);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "overlapped schedules against T_opt and the "
                              "step algorithms\n");
  std::mt19937_64 Rng(Seed);
  Series Overlap{"overlap makespan", {}}, Bridge{"stepwise compacted", {}},
      Stepwise{"stepwise cost", {}}, Greedy{"greedy cost", {}};
  std::vector<double> SplitShare;
  int64_t SplitCases = 0, SplitMessages = 0, ExtraEvents = 0, MostSplit = 0;
  int64_t Proved = 0, OverlapAtBound = 0, Messages = 0;
  for (int64_t Case = 0; Case < Cases; ++Case) {
    const int64_t P = draw(Rng, 1, MaxProcs), Q = draw(Rng, 1, MaxProcs);
    const int64_t R = draw(Rng, 1, MaxBlock), S = draw(Rng, 1, MaxBlock);
    const int64_t A = P * R, B = Q * S, L = A / std::gcd(A, B) * B;
    const int64_t N = Case % 2 == 0 ? L : L + L / 3 + 1;
    const Layout From = Layout::blockCyclic(P, R, N);
    const Layout To = Layout::blockCyclic(Q, S, N);
    const CommGrid G = computeGrid(From, To);
    const double Bound = static_cast<double>(makespanLowerBound(G));
    Messages += static_cast<int64_t>(G.Messages.size());

    OverlapReport Report;
    const OverlapSchedule Unsplit =
        makeOverlapSchedule(OverlapAlgorithm::Overlap, G, {}, &Report);
    const OverlapStats U = measureOverlapSchedule(G, Unsplit);
    Overlap.Values.push_back(static_cast<double>(U.Makespan) / Bound);
    Proved += Report.ProvedOptimal;
    OverlapAtBound += U.Makespan == U.MakespanBound;

    const OverlapSchedule Split =
        makeOverlapSchedule(OverlapAlgorithm::OverlapSplit, G);
    const OverlapStats Sp = measureOverlapSchedule(G, Split);
    if (Sp.Makespan != Sp.MakespanBound)
      throw std::logic_error("overlap-split missed T_opt");
    SplitCases += Sp.SplitMessages > 0;
    SplitMessages += Sp.SplitMessages;
    MostSplit = std::max(MostSplit, Sp.SplitMessages);
    ExtraEvents += Sp.Events - static_cast<int64_t>(G.Messages.size());
    SplitShare.push_back(static_cast<double>(Sp.SplitMessages) /
                         static_cast<double>(G.Messages.size()));

    const Schedule Steps = makeSchedule(Algorithm::Stepwise, From, To, G);
    Stepwise.Values.push_back(
        static_cast<double>(measureSchedule(G, Steps).Cost) / Bound);
    const OverlapSchedule Compact = compactSteps(G, Steps);
    if (validateOverlapSchedule(G, Compact))
      throw std::logic_error("the bridge from steps is invalid");
    Bridge.Values.push_back(
        static_cast<double>(measureOverlapSchedule(G, Compact).Makespan) /
        Bound);
    const Schedule Greed = makeSchedule(Algorithm::Greedy, From, To, G);
    Greedy.Values.push_back(
        static_cast<double>(measureSchedule(G, Greed).Cost) / Bound);
    if ((Case + 1) % 500 == 0)
      errs() << "overlap-eval: " << Case + 1 << " of " << Cases << " cases\n";
  }
  outs() << "overlap-eval --cases " << Cases << " --seed " << Seed
         << " --max-procs " << MaxProcs << " --max-block " << MaxBlock << ": "
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
  return 0;
}
