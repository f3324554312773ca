//===- GenBlockEval.cpp - genblock-eval: GEN_BLOCK schedulers compared ----===//
//
//   genblock-eval [--instances K] [--seed S] [--procs 4,8,16,32,64]
//       [--total N] [--kinds even,uneven] [--exact-max-messages M]
//
// Repeats the experiment of scpa-gen-block §5: for each kind and
// process count, K random pairs of GEN_BLOCK distributions of N elements
// (GenBlockInstances.h), each scheduled by scpa, stepwise, greedy and
// chain. Every schedule is checked with validateSchedule. Prints Markdown
// tables: chain against scpa; the mean ratio of each algorithm's cost to the
// lower bound sum_k L[k] (L[k]: the largest k-th longest message of one
// process); the gap to the exact optimum on instances of at most M messages;
// and the time each algorithm takes. The same seed gives the same instances
// and costs on every platform; times vary.
//
//===----------------------------------------------------------------------===//

#include "GenBlockInstances.h"
#include "ToolCommandLine.h"

#include "../../lib/schedulers/GenBlockSchedulers.h"

#include "redist/CommGrid.h"
#include "redist/Distribution.h"
#include "redist/Error.h"
#include "redist/Schedule.h"
#include "redist/Schedulers.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace redist;

namespace {

cl::OptionCategory EvalCategory("genblock-eval options");
cl::opt<int64_t> Instances("instances", cl::init(1000),
                           cl::desc("Instances per kind and process count"),
                           cl::cat(EvalCategory));
cl::opt<uint64_t> Seed("seed", cl::init(1), cl::desc("Random seed"),
                       cl::cat(EvalCategory));
cl::list<int64_t> ProcCounts("procs", cl::CommaSeparated,
                             cl::desc("Process counts (default 4,8,16,32,64)"),
                             cl::cat(EvalCategory));
cl::opt<int64_t> Total("total", cl::init(1000000),
                       cl::desc("Elements of the array"),
                       cl::cat(EvalCategory));
cl::list<std::string> Kinds("kinds", cl::CommaSeparated,
                            cl::desc("even, uneven (default both)"),
                            cl::cat(EvalCategory));
cl::opt<int64_t> ExactMaxMessages(
    "exact-max-messages", cl::init(32),
    cl::desc("Compare with the exact optimum up to this many messages"),
    cl::cat(EvalCategory));

struct Kind {
  std::string Name;
  double Lo, Hi;
  uint64_t Id; // seeds the kind's instances
};

/// Mean and largest value of a series.
struct Series {
  double Sum = 0;
  double Max = 0;
  int64_t Count = 0;
  void add(double V) {
    Sum += V;
    Max = Count == 0 ? V : std::max(Max, V);
    ++Count;
  }
  double mean() const { return Count ? Sum / static_cast<double>(Count) : 0; }
};

/// Median and 99th percentile of timings, in microseconds.
struct Timings {
  std::vector<double> Micros;
  double quantile(double Q) {
    if (Micros.empty())
      return 0;
    std::sort(Micros.begin(), Micros.end());
    size_t I = static_cast<size_t>(Q * static_cast<double>(Micros.size() - 1));
    return Micros[I];
  }
};

enum { Scpa, Stepwise, Greedy, Chain, NumAlgos };

struct Cell {
  std::string KindName;
  int64_t Procs = 0;
  Series Messages, Degree;
  int64_t ChainNotWorse = 0, ChainBetter = 0, Proved = 0;
  int64_t ScpaRepaired = 0; // instances where scpa needed the exchange
  Series Saving;            // (scpa - chain) / scpa, where chain is cheaper
  Series RatioToBound[NumAlgos];
  Series ExtraSteps[NumAlgos];
  Series BoundOverVolume;
  // Against the exact optimum (instances with few messages).
  int64_t ExactCompared = 0, ExactUnfinished = 0, ScpaOptimal = 0;
  Series GapToExact[NumAlgos]; // cost / optimum with max-degree steps - 1
  Series GreedyGapToAny;       // greedy / optimum with any steps - 1
  int64_t AnyCheaper = 0;      // more steps would lower the cost
  Series AnySaving;
  Timings Time[NumAlgos];
  Series Tests;
};

/// Runs F, adding its duration to T.
template <typename Fn> Schedule timed(Timings &T, Fn &&F) {
  auto Start = std::chrono::steady_clock::now();
  Schedule S = F();
  auto End = std::chrono::steady_clock::now();
  T.Micros.push_back(
      std::chrono::duration<double, std::micro>(End - Start).count());
  return S;
}

double ratio(int64_t A, int64_t B) {
  return static_cast<double>(A) / static_cast<double>(B);
}

/// Checks S, exiting with a message naming the instance when invalid.
void mustBeValid(const CommGrid &G, const Schedule &S, const Cell &C,
                 int64_t Instance) {
  if (std::optional<std::string> Why = validateSchedule(G, S)) {
    errs() << "genblock-eval: error: " << S.Algorithm << " gave an invalid "
           << "schedule on " << C.KindName << " P=" << C.Procs << " instance "
           << Instance << ": " << *Why << "\n";
    std::exit(1);
  }
}

void runInstance(Cell &C, const Kind &K, std::mt19937_64 &Rng,
                 int64_t Instance) {
  std::vector<int64_t> Src =
      bench::paperSegmentSizes(Rng, C.Procs, Total, K.Lo, K.Hi);
  std::vector<int64_t> Dst =
      bench::paperSegmentSizes(Rng, C.Procs, Total, K.Lo, K.Hi);
  Layout From(Distribution::genBlock(Src), Total);
  Layout To(Distribution::genBlock(Dst), Total);
  CommGrid G = computeGrid(From, To);

  redist::detail::ScpaReport ScpaRep;
  redist::detail::ChainReport ChainRep;
  Schedule S[NumAlgos];
  S[Scpa] = timed(C.Time[Scpa],
                  [&] { return redist::detail::scheduleScpa(G, &ScpaRep); });
  S[Stepwise] = timed(C.Time[Stepwise], [&] {
    return makeSchedule(Algorithm::Stepwise, From, To, G);
  });
  S[Greedy] = timed(C.Time[Greedy], [&] {
    return makeSchedule(Algorithm::Greedy, From, To, G);
  });
  S[Chain] = timed(C.Time[Chain],
                   [&] { return redist::detail::scheduleChain(G, &ChainRep); });

  int64_t Cost[NumAlgos];
  int64_t Bound = ChainRep.LowerBound;
  for (int A = 0; A < NumAlgos; ++A) {
    mustBeValid(G, S[A], C, Instance);
    ScheduleStats Stats = measureSchedule(G, S[A]);
    Cost[A] = Stats.Cost;
    C.RatioToBound[A].add(ratio(Cost[A], Bound));
    C.ExtraSteps[A].add(
        static_cast<double>(Stats.NonEmptySteps - Stats.StepsLowerBound));
    if (A == Scpa)
      C.BoundOverVolume.add(ratio(Bound, Stats.CostLowerBound));
  }
  C.Messages.add(static_cast<double>(G.Messages.size()));
  C.Degree.add(static_cast<double>(G.maxDegree()));
  C.ChainNotWorse += Cost[Chain] <= Cost[Scpa];
  C.ChainBetter += Cost[Chain] < Cost[Scpa];
  if (Cost[Chain] < Cost[Scpa])
    C.Saving.add(1 - ratio(Cost[Chain], Cost[Scpa]));
  C.Proved += ChainRep.ProvedOptimal;
  C.ScpaRepaired += ScpaRep.Repairs > 0;
  C.Tests.add(static_cast<double>(ChainRep.FeasibilityTests));

  if (static_cast<int64_t>(G.Messages.size()) > ExactMaxMessages)
    return;
  std::optional<Schedule> Fixed =
      redist::detail::scheduleExact(G, redist::detail::StepLimit::MaxDegree);
  std::optional<Schedule> Any =
      redist::detail::scheduleExact(G, redist::detail::StepLimit::Any);
  if (!Fixed || !Any) {
    ++C.ExactUnfinished;
    return;
  }
  mustBeValid(G, *Fixed, C, Instance);
  mustBeValid(G, *Any, C, Instance);
  int64_t Optimum = measureSchedule(G, *Fixed).Cost;
  int64_t AnyOptimum = measureSchedule(G, *Any).Cost;
  ++C.ExactCompared;
  C.ScpaOptimal += Cost[Scpa] == Optimum;
  for (int A = 0; A < NumAlgos; ++A)
    if (A != Greedy)
      C.GapToExact[A].add(ratio(Cost[A], Optimum) - 1);
  C.GreedyGapToAny.add(ratio(Cost[Greedy], AnyOptimum) - 1);
  C.AnyCheaper += AnyOptimum < Optimum;
  C.AnySaving.add(1 - ratio(AnyOptimum, Optimum));
}

std::string fixed(double V, int Digits) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%.*f", Digits, V);
  return Buffer;
}

std::string pct(double V) { return fixed(100 * V, 1) + "%"; }

/// Mean (largest) of a series of fractions, as percentages.
std::string gap(const Series &S) {
  return pct(S.mean()) + " (" + pct(S.Max) + ")";
}

/// One Markdown table row.
void row(raw_ostream &OS, const std::vector<std::string> &Cells) {
  for (const std::string &C : Cells)
    OS << "| " << C << " ";
  OS << "|\n";
}

void header(raw_ostream &OS, const std::vector<std::string> &Titles) {
  row(OS, Titles);
  row(OS, std::vector<std::string>(Titles.size(), "---"));
}

void printTables(std::vector<Cell> &Cells) {
  raw_ostream &OS = outs();
  OS << "### chain against scpa\n\n";
  header(OS, {"kind", "P", "messages", "max degree", "chain <= scpa",
              "chain < scpa", "mean saving when <", "largest saving",
              "chain proved optimal", "scpa needed the exchange"});
  for (Cell &C : Cells) {
    double N = static_cast<double>(C.Messages.Count);
    row(OS, {C.KindName, std::to_string(C.Procs), fixed(C.Messages.mean(), 1),
             fixed(C.Degree.mean(), 2), pct(C.ChainNotWorse / N),
             pct(C.ChainBetter / N), pct(C.Saving.mean()), pct(C.Saving.Max),
             pct(C.Proved / N), pct(C.ScpaRepaired / N)});
  }

  OS << "\n### Mean cost / lower bound (sum over k of L[k])\n\n";
  header(OS, {"kind", "P", "scpa", "stepwise", "greedy", "chain",
              "greedy extra steps", "bound / max volume"});
  for (Cell &C : Cells)
    row(OS, {C.KindName, std::to_string(C.Procs),
             fixed(C.RatioToBound[Scpa].mean(), 4),
             fixed(C.RatioToBound[Stepwise].mean(), 4),
             fixed(C.RatioToBound[Greedy].mean(), 4),
             fixed(C.RatioToBound[Chain].mean(), 4),
             fixed(C.ExtraSteps[Greedy].mean(), 2),
             fixed(C.BoundOverVolume.mean(), 4)});

  OS << "\n### Gap to the exact optimum (instances of at most "
     << ExactMaxMessages << " messages)\n\n"
     << "Gaps are cost / optimum - 1, mean (largest). The optimum keeps "
        "maximum-degree steps, except for greedy, which is compared with the "
        "optimum over any number of steps.\n\n";
  header(OS, {"kind", "P", "compared", "scpa optimal", "scpa gap",
              "stepwise gap", "chain gap", "greedy gap (any steps)",
              "more steps cheaper", "saving of more steps"});
  for (Cell &C : Cells) {
    if (C.ExactCompared == 0 && C.ExactUnfinished == 0)
      continue;
    double N = static_cast<double>(C.ExactCompared);
    std::string Compared = std::to_string(C.ExactCompared);
    if (C.ExactUnfinished)
      Compared += " (" + std::to_string(C.ExactUnfinished) + " unfinished)";
    row(OS, {C.KindName, std::to_string(C.Procs), Compared,
             pct(N ? C.ScpaOptimal / N : 0), gap(C.GapToExact[Scpa]),
             gap(C.GapToExact[Stepwise]), gap(C.GapToExact[Chain]),
             gap(C.GreedyGapToAny), pct(N ? C.AnyCheaper / N : 0),
             gap(C.AnySaving)});
  }

  OS << "\n### Scheduling time, microseconds: median (99th percentile)\n\n";
  header(OS, {"kind", "P", "scpa", "stepwise", "greedy", "chain",
              "chain feasibility tests, mean (max)"});
  for (Cell &C : Cells) {
    std::vector<std::string> Row = {C.KindName, std::to_string(C.Procs)};
    for (int A = 0; A < NumAlgos; ++A)
      Row.push_back(fixed(C.Time[A].quantile(0.5), 1) + " (" +
                    fixed(C.Time[A].quantile(0.99), 1) + ")");
    Row.push_back(fixed(C.Tests.mean(), 1) + " (" + fixed(C.Tests.Max, 0) +
                  ")");
    row(OS, Row);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  redist::tools::parseToolCommandLine(
      Argc, Argv, EvalCategory,
      "genblock-eval: scpa, stepwise, greedy and chain on the random GEN_BLOCK "
      "instances of scpa-gen-block section 5\n");
  std::vector<int64_t> Procs;
  for (int64_t P : ProcCounts)
    Procs.push_back(P);
  if (Procs.empty())
    for (int64_t P : {4, 8, 16, 32, 64})
      Procs.push_back(P);
  const std::vector<Kind> Known = {{"even", 0.7, 1.3, 0},
                                   {"uneven", 0.3, 1.5, 1}};
  std::vector<Kind> Chosen;
  if (Kinds.empty())
    Chosen = Known;
  for (const std::string &Name : Kinds) {
    auto It = std::find_if(Known.begin(), Known.end(),
                           [&](const Kind &K) { return K.Name == Name; });
    if (It == Known.end()) {
      errs() << "genblock-eval: error: unknown kind '" << Name
             << "' (even, uneven)\n";
      return 1;
    }
    Chosen.push_back(*It);
  }
  if (Instances <= 0) {
    errs() << "genblock-eval: error: --instances must be positive, not "
           << Instances << "\n";
    return 1;
  }

  std::vector<Cell> Cells;
  try {
    for (const Kind &K : Chosen)
      for (int64_t P : Procs) {
        Cell C;
        C.KindName = K.Name;
        C.Procs = P;
        // One stream per cell, so a cell's instances do not depend on which
        // other cells run.
        std::seed_seq Seq{static_cast<uint64_t>(Seed), K.Id,
                          static_cast<uint64_t>(P)};
        std::mt19937_64 Rng(Seq);
        for (int64_t I = 0; I < Instances; ++I)
          runInstance(C, K, Rng, I);
        Cells.push_back(std::move(C));
      }
  } catch (const InvalidArgument &E) {
    errs() << "genblock-eval: error: " << E.what() << "\n";
    return 1;
  }
  printTables(Cells);
  return 0;
}
