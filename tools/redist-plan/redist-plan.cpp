//===- redist-plan.cpp - Show the schedule of a redistribution ------------===//
//
// redist-plan cyclic P r Q s [--n N] [--algorithm NAME [--steps K]
//             [--effort N]] [--model FILE] [--table | --json]
// redist-plan genblock --source n0,n1,... --target m0,m1,... [--algorithm
//             NAME [--steps K] [--effort N]] [--model FILE] [--table | --json]
// redist-plan ring --loads l0,l1,... --target t0,t1,... [--costs c0,c1,...]
//             [--back-costs b0,b1,...] [--bidirectional] [--algorithm NAME]
//             [--table | --json]
// redist-plan cyclic2d --rows M --cols N --from P0xP1:r0xr1 --to Q0xQ1:s0xs1
//             [--algorithm NAME] [--model FILE] [--table | --json]
// redist-plan array --extents N0,N1,... --from G0xG1:F0,F1,... --to
//             H0xH1:F0,F1,... [--permute K0,K1,...] [--algorithm NAME]
//             [--model FILE] [--table | --json] [--gantt FILE.svg]
//
// Computes the communication grid of a redistribution, schedules it and
// prints both, as the papers' tables or as JSON. Each kind of redistribution
// is a subcommand with its own arguments; the options they share mean the
// same in all.
//
//===----------------------------------------------------------------------===//

#include "GanttChart.h"
#include "HeapSetup.h"
#include "JsonReport.h"
#include "Plan.h"
#include "RingReport.h"
#include "SizeLimits.h"
#include "TableReport.h"
#include "ToolCommandLine.h"

#include "redist/Error.h"
#include "redist/Ring.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

using namespace redist;
using namespace redistplan;
namespace cl = llvm::cl;

namespace {

/// Exit codes, documented in docs/redist-plan.md.
enum ExitCode { Success = 0, BadInput = 1, Internal = 2 };

constexpr const char *ToolName = "redist-plan";

cl::OptionCategory PlanCategory("redist-plan options");

cl::SubCommand
    CyclicCommand("cyclic",
                  "CYCLIC(r) on P source processes -> CYCLIC(s) on Q target "
                  "processes: redist-plan cyclic P r Q s [options]");

cl::list<std::string> CyclicArgs(cl::Positional, cl::desc("<P> <r> <Q> <s>"),
                                 cl::sub(CyclicCommand), cl::cat(PlanCategory));
// Negative numbers look like options to the parser: collect every unknown
// option here and sort them out in readPositionals.
cl::list<std::string> CyclicUnknown(cl::Sink, cl::sub(CyclicCommand),
                                    cl::cat(PlanCategory));

cl::SubCommand GenBlockCommand(
    "genblock", "GEN_BLOCK on the source processes -> GEN_BLOCK on the target "
                "processes: redist-plan genblock --source n0,n1,... --target "
                "m0,m1,... [options]");

cl::list<std::string>
    SourceSizes("source",
                cl::desc("Elements of each source process, in process order"),
                cl::value_desc("n0,n1,..."), cl::CommaSeparated,
                cl::sub(GenBlockCommand), cl::cat(PlanCategory));
cl::SubCommand RingCommand(
    "ring", "Rebalance interchangeable items along a ring of processes: "
            "redist-plan ring --loads l0,l1,... --target t0,t1,... [options]");

cl::list<std::string>
    TargetSizes("target",
                cl::desc("Elements of each target process, in process "
                         "order (ring: items)"),
                cl::value_desc("m0,m1,..."), cl::CommaSeparated,
                cl::sub(GenBlockCommand), cl::sub(RingCommand),
                cl::cat(PlanCategory));
cl::list<std::string> RingLoads("loads",
                                cl::desc("Items each process holds now"),
                                cl::value_desc("l0,l1,..."), cl::CommaSeparated,
                                cl::sub(RingCommand), cl::cat(PlanCategory));
cl::list<std::string>
    RingCosts("costs",
              cl::desc("Time to send one item from process i to i+1; one "
                       "number for equal links (default 1)"),
              cl::value_desc("c0,c1,..."), cl::CommaSeparated,
              cl::sub(RingCommand), cl::cat(PlanCategory));
cl::list<std::string>
    RingBackCosts("back-costs",
                  cl::desc("With --bidirectional: time to send one item from "
                           "process i to i-1 (default: c_fwd[i-1]); one "
                           "number for equal links"),
                  cl::value_desc("b0,b1,..."), cl::CommaSeparated,
                  cl::sub(RingCommand), cl::cat(PlanCategory));
cl::opt<bool> RingBidirectional("bidirectional",
                                cl::desc("Processes may send both ways"),
                                cl::sub(RingCommand), cl::cat(PlanCategory));
cl::list<std::string> RingArgs(cl::Positional, cl::Hidden, cl::sub(RingCommand),
                               cl::cat(PlanCategory));
cl::list<std::string> RingUnknown(cl::Sink, cl::sub(RingCommand),
                                  cl::cat(PlanCategory));
cl::list<std::string> GenBlockArgs(cl::Positional, cl::Hidden,
                                   cl::sub(GenBlockCommand),
                                   cl::cat(PlanCategory));
cl::list<std::string> GenBlockUnknown(cl::Sink, cl::sub(GenBlockCommand),
                                      cl::cat(PlanCategory));

cl::SubCommand Cyclic2DCommand(
    "cyclic2d", "An M x N matrix, CYCLIC(r0) x CYCLIC(r1) on a P0 x P1 grid -> "
                "CYCLIC(s0) x CYCLIC(s1) on a Q0 x Q1 grid: redist-plan "
                "cyclic2d --rows M --cols N --from P0xP1:r0xr1 --to "
                "Q0xQ1:s0xs1 [options]");

cl::opt<std::string> MatrixRows("rows", cl::desc("Rows M of the matrix"),
                                cl::value_desc("M"), cl::sub(Cyclic2DCommand),
                                cl::cat(PlanCategory));
cl::opt<std::string> MatrixCols("cols", cl::desc("Columns N of the matrix"),
                                cl::value_desc("N"), cl::sub(Cyclic2DCommand),
                                cl::cat(PlanCategory));
cl::opt<std::string>
    MatrixFrom("from",
               cl::desc("Source: a P0 x P1 process grid (row-major ids) and "
                        "r0 x r1 blocks"),
               cl::value_desc("P0xP1:r0xr1"), cl::sub(Cyclic2DCommand),
               cl::cat(PlanCategory));
cl::opt<std::string>
    MatrixTo("to",
             cl::desc("Target: a Q0 x Q1 process grid and s0 x s1 blocks"),
             cl::value_desc("Q0xQ1:s0xs1"), cl::sub(Cyclic2DCommand),
             cl::cat(PlanCategory));
cl::list<std::string> Cyclic2DArgs(cl::Positional, cl::Hidden,
                                   cl::sub(Cyclic2DCommand),
                                   cl::cat(PlanCategory));
cl::list<std::string> Cyclic2DUnknown(cl::Sink, cl::sub(Cyclic2DCommand),
                                      cl::cat(PlanCategory));

cl::SubCommand ArrayCommand(
    "array", "An array of any rank, one format per dimension over a process "
             "grid on each side: redist-plan array --extents N0,N1,... --from "
             "G0xG1:F0,F1,... --to H0xH1:F0,F1,... [options]");

cl::opt<std::string>
    ArrayExtents("extents", cl::desc("The array's extent along each dimension"),
                 cl::value_desc("N0,N1,..."), cl::sub(ArrayCommand),
                 cl::cat(PlanCategory));
cl::opt<std::string> ArrayFrom(
    "from",
    cl::desc("Source: the process grid's extents and one format per array "
             "dimension: *, block, block(K), cyclic, cyclic(K) or "
             "gen_block(S0;S1;...)"),
    cl::value_desc("G0xG1:F0,F1,..."), cl::sub(ArrayCommand),
    cl::cat(PlanCategory));
cl::opt<std::string>
    ArrayTo("to", cl::desc("Target: its process grid and formats, as --from"),
            cl::value_desc("H0xH1:F0,F1,..."), cl::sub(ArrayCommand),
            cl::cat(PlanCategory));
cl::opt<std::string> ArrayPermute(
    "permute",
    cl::desc("Target dimension k is source dimension K_k (default: none)"),
    cl::value_desc("K0,K1,..."), cl::sub(ArrayCommand), cl::cat(PlanCategory));
cl::list<std::string> ArrayArgs(cl::Positional, cl::Hidden,
                                cl::sub(ArrayCommand), cl::cat(PlanCategory));
cl::list<std::string> ArrayUnknown(cl::Sink, cl::sub(ArrayCommand),
                                   cl::cat(PlanCategory));

// Read as text so that its errors read like those of the positionals.
cl::opt<std::string>
    Extent("n",
           cl::desc("Length N of the whole array (default: one slice, N = L = "
                    "lcm(P*r, Q*s))"),
           cl::value_desc("N"), cl::sub(CyclicCommand), cl::cat(PlanCategory));

/// Names joined by ", " and, before the last, by LastSeparator; "auto"
/// followed by AutoNote.
std::string joinAlgorithmNames(const std::vector<std::string> &Names,
                               llvm::StringRef LastSeparator,
                               llvm::StringRef AutoNote) {
  std::string Joined;
  for (size_t I = 0; I < Names.size(); ++I) {
    if (I > 0)
      Joined += I + 1 == Names.size() ? LastSeparator.str() : ", ";
    Joined += Names[I];
    if (Names[I] == "auto")
      Joined += AutoNote;
  }
  return Joined;
}

/// The overlapped schedulers, after the step algorithms.
void appendOverlapNames(std::vector<std::string> &Names) {
  for (OverlapAlgorithm A :
       {OverlapAlgorithm::Overlap, OverlapAlgorithm::OverlapSplit})
    Names.push_back(overlapAlgorithmName(A));
}

/// The library's algorithm names, in its order, so that a new algorithm
/// shows up in --help and in the errors by itself.
std::string algorithmNames(llvm::StringRef LastSeparator,
                           llvm::StringRef AutoNote) {
  std::vector<std::string> Names;
  for (Algorithm A : allAlgorithms())
    Names.push_back(algorithmName(A));
  appendOverlapNames(Names);
  return joinAlgorithmNames(Names, LastSeparator, AutoNote);
}

/// The same for arrays of any rank (array).
std::string arrayAlgorithmNames(llvm::StringRef LastSeparator,
                                llvm::StringRef AutoNote) {
  std::vector<std::string> Names;
  for (ArrayAlgorithm A : allArrayAlgorithms())
    Names.push_back(arrayAlgorithmName(A));
  appendOverlapNames(Names);
  return joinAlgorithmNames(Names, LastSeparator, AutoNote);
}

/// The same for matrices (cyclic2d).
std::string algorithm2DNames(llvm::StringRef LastSeparator,
                             llvm::StringRef AutoNote) {
  std::vector<std::string> Names;
  for (Algorithm2D A : allAlgorithms2D())
    Names.push_back(algorithm2DName(A));
  appendOverlapNames(Names);
  return joinAlgorithmNames(Names, LastSeparator, AutoNote);
}

// cl::desc keeps a pointer to the text: it must outlive the option, and be
// initialised before it (definition order within this file).
const std::string AlgorithmHelp =
    "Scheduling algorithm: " + algorithmNames(" or ", " (default)");

/// The ring algorithms' names, from the library like algorithmNames.
std::string ringAlgorithmNames() {
  std::string Names;
  for (RingAlgorithm A : allRingAlgorithms())
    Names += (Names.empty() ? "" : ", ") + std::string(ringAlgorithmName(A));
  return Names;
}

const std::string RingAlgorithmHelp =
    "Ring algorithm: " + ringAlgorithmNames() + " (default auto)";

cl::opt<std::string> RingAlgorithmName("algorithm", cl::desc(RingAlgorithmHelp),
                                       cl::value_desc("name"), cl::init("auto"),
                                       cl::sub(RingCommand),
                                       cl::cat(PlanCategory));
const std::string Algorithm2DHelp =
    "Scheduling algorithm: " + algorithm2DNames(" or ", " (default)");

const std::string ArrayAlgorithmHelp =
    "Scheduling algorithm: " + arrayAlgorithmNames(" or ", " (default)");

cl::opt<std::string> ArrayAlgorithmText("algorithm",
                                        cl::desc(ArrayAlgorithmHelp),
                                        cl::value_desc("name"),
                                        cl::init("auto"), cl::sub(ArrayCommand),
                                        cl::cat(PlanCategory));

cl::opt<std::string> Algorithm2DName("algorithm", cl::desc(Algorithm2DHelp),
                                     cl::value_desc("name"), cl::init("auto"),
                                     cl::sub(Cyclic2DCommand),
                                     cl::cat(PlanCategory));

cl::opt<std::string> AlgorithmName("algorithm", cl::desc(AlgorithmHelp),
                                   cl::value_desc("name"), cl::init("auto"),
                                   cl::sub(CyclicCommand),
                                   cl::sub(GenBlockCommand),
                                   cl::cat(PlanCategory));

// Text, like --n, so that its errors name the value as the others do.
cl::opt<std::string>
    StepLimitText("steps",
                  cl::desc("With --algorithm mincost-steps: at most K steps "
                           "(at least the step lower bound)"),
                  cl::value_desc("K"), cl::sub(CyclicCommand),
                  cl::sub(GenBlockCommand), cl::cat(PlanCategory));

cl::opt<std::string>
    EffortText("effort",
               cl::desc("With --algorithm overlap or overlap-split: search N "
                        "times longer than the default, which bounds one "
                        "schedule search to about a second (default 1)"),
               cl::value_desc("N"), cl::sub(CyclicCommand),
               cl::sub(GenBlockCommand), cl::sub(Cyclic2DCommand),
               cl::sub(ArrayCommand), cl::cat(PlanCategory));

cl::opt<std::string>
    ModelFile("model",
              cl::desc("Cost model file (redist-model/1, as redist-calibrate "
                       "writes it) that auto weighs the schedules with; "
                       "default: the file REDIST_MODEL names, else the "
                       "built-in defaults"),
              cl::value_desc("file"), cl::sub(CyclicCommand),
              cl::sub(GenBlockCommand), cl::sub(Cyclic2DCommand),
              cl::sub(ArrayCommand), cl::cat(PlanCategory));

cl::opt<std::string>
    GanttFile("gantt",
              cl::desc("Also draw the schedule as an SVG chart, one row per "
                       "process and time on the x axis, into FILE"),
              cl::value_desc("FILE.svg"), cl::sub(CyclicCommand),
              cl::sub(GenBlockCommand), cl::sub(Cyclic2DCommand),
              cl::sub(ArrayCommand), cl::cat(PlanCategory));

enum class OutputFormat { Table, Json };
// A list, not a cl::opt: a cl::opt given twice stops the parser with "may
// only occur zero or one times!", which does not say that the two flags
// exclude each other. readFormat says so. cl::sub must come before
// cl::values, which registers the flags --table and --json in the
// subcommands known at that point.
cl::list<OutputFormat> Formats(
    cl::desc("Output format:"), cl::sub(CyclicCommand),
    cl::sub(GenBlockCommand), cl::sub(RingCommand), cl::sub(Cyclic2DCommand),
    cl::sub(ArrayCommand), cl::cat(PlanCategory),
    cl::values(clEnumValN(OutputFormat::Table, "table",
                          "The grid, the steps and a summary (default)"),
               clEnumValN(OutputFormat::Json, "json",
                          "The redist-schedule/1 JSON document (ring: "
                          "redist-ring/1)")));

// Without a subcommand, anything on the command line lands here.
cl::list<std::string> TopLevelArgs(cl::Positional, cl::Hidden,
                                   cl::cat(PlanCategory));
cl::list<std::string> TopLevelUnknown(cl::Sink, cl::cat(PlanCategory));

/// A one-line diagnostic on stderr.
void reportError(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), ToolName) << Message << '\n';
}

/// Thrown to stop with a one-line error; main reports it.
struct UsageError {
  std::string Message;
};

/// The subcommand's positional arguments in command-line order: those the
/// parser took for positionals and the negative numbers it took for options.
std::vector<std::string> readPositionals(const cl::list<std::string> &Args,
                                         const cl::list<std::string> &Unknown) {
  std::vector<std::pair<unsigned, std::string>> Ordered;
  for (unsigned I = 0; I < Args.size(); ++I)
    Ordered.emplace_back(Args.getPosition(I), Args[I]);
  for (unsigned I = 0; I < Unknown.size(); ++I) {
    int64_t Ignored;
    if (llvm::StringRef(Unknown[I]).getAsInteger(10, Ignored))
      throw UsageError{"unknown option '" + Unknown[I] + "'; see " + ToolName +
                       " --help"};
    Ordered.emplace_back(Unknown.getPosition(I), Unknown[I]);
  }
  llvm::sort(Ordered);
  std::vector<std::string> Values;
  for (auto &Entry : Ordered)
    Values.push_back(std::move(Entry.second));
  return Values;
}

/// Argument Text, named Name, as a 64-bit integer >= Min.
int64_t parseInteger(llvm::StringRef Name, llvm::StringRef Meaning,
                     llvm::StringRef Text, int64_t Min) {
  int64_t Value;
  if (Text.getAsInteger(10, Value))
    throw UsageError{
        (Name + " = '" + Text + "' is not a 64-bit integer (" + Meaning + ")")
            .str()};
  if (Value < Min)
    throw UsageError{(Name + " = " + llvm::Twine(Value) + ": " + Meaning +
                      " must be " + (Min == 0 ? "non-negative" : "positive"))
                         .str()};
  return Value;
}

/// --algorithm: a step algorithm, or an overlapped scheduler.
struct AlgorithmChoice {
  Algorithm Steps = Algorithm::Auto;
  std::optional<OverlapAlgorithm> Overlap;
};

AlgorithmChoice readAlgorithm() {
  if (std::optional<Algorithm> Algo = parseAlgorithm(AlgorithmName))
    return {*Algo, std::nullopt};
  if (std::optional<OverlapAlgorithm> Algo =
          parseOverlapAlgorithm(AlgorithmName))
    return {Algorithm::Auto, *Algo};
  throw UsageError{"unknown algorithm '" + AlgorithmName +
                   "'; valid algorithms: " + algorithmNames(", ", "")};
}

/// --effort, which only the overlapped schedulers take.
OverlapOptions readEffort(bool Overlap) {
  OverlapOptions Opts;
  if (!EffortText.getNumOccurrences())
    return Opts;
  if (!Overlap)
    throw UsageError{
        "--effort applies only to --algorithm overlap or overlap-split"};
  Opts.Effort = parseInteger("N", "the search effort", EffortText, 1);
  if (Opts.Effort > MaxOverlapEffort)
    throw UsageError{"N = " + std::to_string(Opts.Effort) +
                     ": the search effort must be at most " +
                     std::to_string(MaxOverlapEffort)};
  return Opts;
}

/// The plan of From -> To with the chosen algorithm.
Plan planWith(const AlgorithmChoice &Choice, int64_t Steps, const Layout &From,
              const Layout &To) {
  const OverlapOptions Opts = readEffort(Choice.Overlap.has_value());
  if (Choice.Overlap)
    return makeOverlapPlan(From, To, *Choice.Overlap, Opts);
  std::string ModelFrom;
  const CostModel Model = loadCostModel(ModelFile, &ModelFrom);
  return makePlan(From, To, Choice.Steps, Model, Steps, ModelFrom);
}

/// --steps, which mincost-steps needs and no other algorithm takes. Whether
/// K reaches the step lower bound is the library's check, once the grid is
/// known.
int64_t readStepLimit(const AlgorithmChoice &Choice) {
  const bool Given = StepLimitText.getNumOccurrences() > 0;
  if (Choice.Overlap || Choice.Steps != Algorithm::MinCostSteps) {
    if (Given)
      throw UsageError{"--steps applies only to --algorithm mincost-steps"};
    return 0;
  }
  if (!Given)
    throw UsageError{"--algorithm mincost-steps needs --steps K, the most "
                     "steps the schedule may take"};
  return parseInteger("K", "the step limit", StepLimitText, 1);
}

/// The output format; repeating the same flag is harmless.
OutputFormat readFormat() {
  if (Formats.empty())
    return OutputFormat::Table;
  for (OutputFormat F : Formats)
    if (F != Formats.front())
      throw UsageError{"--table and --json are exclusive; pick one"};
  return Formats.front();
}

Plan planCyclic() {
  std::vector<std::string> Args = readPositionals(CyclicArgs, CyclicUnknown);
  if (Args.size() != 4)
    throw UsageError{"cyclic expects 4 arguments, P r Q s, but got " +
                     std::to_string(Args.size())};
  int64_t P = parseInteger("P", "the number of source processes", Args[0], 1);
  int64_t R = parseInteger("r", "the source block size", Args[1], 1);
  int64_t Q = parseInteger("Q", "the number of target processes", Args[2], 1);
  int64_t S = parseInteger("s", "the target block size", Args[3], 1);
  AlgorithmChoice Algo = readAlgorithm();

  int64_t N;
  if (Extent.getNumOccurrences()) {
    N = parseInteger("N", "the array length", Extent, 0);
  } else if (std::optional<int64_t> Slice = sliceLength(P, R, Q, S)) {
    N = *Slice;
  } else {
    throw UsageError{
        "the slice length L = lcm(P*r, Q*s) for P = " + std::to_string(P) +
        ", r = " + std::to_string(R) + ", Q = " + std::to_string(Q) +
        ", s = " + std::to_string(S) +
        " does not fit in 64 bits; give the array length with --n"};
  }
  const int64_t Steps = readStepLimit(Algo);
  checkCyclicSize(P, R, Q, S, N);
  return planWith(Algo, Steps, Layout::blockCyclic(P, R, N),
                  Layout::blockCyclic(Q, S, N));
}

/// The segment sizes of one side of genblock, named Side ("source" or
/// "target"), and their sum.
std::vector<int64_t> readSizes(llvm::StringRef Side,
                               const cl::list<std::string> &Texts,
                               int64_t &Sum) {
  if (Texts.empty())
    throw UsageError{"genblock needs --" + Side.str() +
                     " n0,n1,...: the elements of each " + Side.str() +
                     " process"};
  if (static_cast<int64_t>(Texts.size()) > MaxProcesses)
    throw UsageError{("--" + Side + " lists " + llvm::Twine(Texts.size()) +
                      " processes; redist-plan handles at most " +
                      llvm::Twine(MaxProcesses))
                         .str()};
  std::vector<int64_t> Sizes;
  Sum = 0;
  for (size_t I = 0; I < Texts.size(); ++I) {
    std::string Name = (Side + "[" + llvm::Twine(I) + "]").str();
    Sizes.push_back(
        parseInteger(Name, "the elements of a process", Texts[I], 0));
    if (llvm::AddOverflow(Sum, Sizes.back(), Sum))
      throw UsageError{("the " + Side + " sizes sum beyond 64 bits").str()};
  }
  return Sizes;
}

Plan planGenBlock() {
  if (!GenBlockUnknown.empty())
    throw UsageError{"unknown option '" + GenBlockUnknown.front() + "'; see " +
                     ToolName + " --help"};
  if (!GenBlockArgs.empty())
    throw UsageError{"genblock takes no positional arguments, but got '" +
                     GenBlockArgs.front() + "'"};
  int64_t SourceSum, TargetSum;
  std::vector<int64_t> Source = readSizes("source", SourceSizes, SourceSum);
  std::vector<int64_t> Target = readSizes("target", TargetSizes, TargetSum);
  if (SourceSum != TargetSum)
    throw UsageError{"the source sizes sum to " + std::to_string(SourceSum) +
                     " but the target sizes to " + std::to_string(TargetSum) +
                     "; both must be the array length"};
  AlgorithmChoice Algo = readAlgorithm();
  const int64_t Steps = readStepLimit(Algo);
  return planWith(Algo, Steps,
                  Layout(Distribution::genBlock(std::move(Source)), SourceSum),
                  Layout(Distribution::genBlock(std::move(Target)), TargetSum));
}

/// A cost list of ring, named Name ("c_fwd" or "c_bwd"): one number per
/// process, or one for all. Values are checked by the library.
std::vector<double> readCosts(llvm::StringRef Name,
                              const cl::list<std::string> &Texts,
                              size_t Processes) {
  std::vector<double> Costs;
  for (size_t I = 0; I < Texts.size(); ++I) {
    double Value;
    if (llvm::StringRef(Texts[I]).trim().getAsDouble(Value))
      throw UsageError{(Name + "[" + llvm::Twine(I) + "] = '" + Texts[I] +
                        "' is not a number (a link cost)")
                           .str()};
    Costs.push_back(Value);
  }
  if (Costs.size() == 1)
    Costs.assign(Processes, Costs.front());
  if (Costs.size() != Processes)
    throw UsageError{("--" +
                      llvm::Twine(Name == "c_fwd" ? "costs" : "back-costs") +
                      " lists " + llvm::Twine(Texts.size()) + " costs for " +
                      llvm::Twine(Processes) +
                      " processes; give one per process, or one for all")
                         .str()};
  return Costs;
}

void planAndPrintRing(OutputFormat Format) {
  if (!RingUnknown.empty())
    throw UsageError{"unknown option '" + RingUnknown.front() + "'; see " +
                     ToolName + " --help"};
  if (!RingArgs.empty())
    throw UsageError{"ring takes no positional arguments, but got '" +
                     RingArgs.front() + "'"};
  if (RingLoads.empty())
    throw UsageError{"ring needs --loads l0,l1,...: the items each process "
                     "holds now"};
  if (TargetSizes.empty())
    throw UsageError{"ring needs --target t0,t1,...: the items each process "
                     "must hold"};
  if (static_cast<int64_t>(RingLoads.size()) > MaxProcesses)
    throw UsageError{("--loads lists " + llvm::Twine(RingLoads.size()) +
                      " processes; redist-plan handles at most " +
                      llvm::Twine(MaxProcesses))
                         .str()};
  RingProblem P;
  for (size_t I = 0; I < RingLoads.size(); ++I)
    P.Loads.push_back(parseInteger(("loads[" + llvm::Twine(I) + "]").str(),
                                   "the items of a process", RingLoads[I], 0));
  for (size_t I = 0; I < TargetSizes.size(); ++I)
    P.Targets.push_back(parseInteger(("target[" + llvm::Twine(I) + "]").str(),
                                     "the items of a process", TargetSizes[I],
                                     0));
  if (P.Targets.size() != P.Loads.size())
    throw UsageError{"--loads lists " + std::to_string(P.Loads.size()) +
                     " processes but --target " +
                     std::to_string(P.Targets.size())};
  P.Bidirectional = RingBidirectional;
  if (RingCosts.empty())
    P.CostFwd.assign(P.Loads.size(), 1.0);
  else
    P.CostFwd = readCosts("c_fwd", RingCosts, P.Loads.size());
  if (!RingBackCosts.empty()) {
    if (!P.Bidirectional)
      throw UsageError{"--back-costs needs --bidirectional"};
    P.CostBwd = readCosts("c_bwd", RingBackCosts, P.Loads.size());
  }
  std::optional<RingAlgorithm> Algo = parseRingAlgorithm(RingAlgorithmName);
  if (!Algo)
    throw UsageError{"unknown ring algorithm '" + RingAlgorithmName +
                     "'; valid algorithms: " + ringAlgorithmNames()};
  const RingSchedule S = planRing(P, *Algo);
  if (Format == OutputFormat::Json)
    printRingJson(llvm::outs(), P, S);
  else
    printRingTable(llvm::outs(), P, S, *Algo);
}

/// One side of cyclic2d, "P0xP1:r0xr1", given as --Option; Role is
/// "source" or "target".
MatrixSide readMatrixSide(llvm::StringRef Option, llvm::StringRef Role,
                          const cl::opt<std::string> &Text) {
  if (!Text.getNumOccurrences())
    throw UsageError{("cyclic2d needs --" + Option + " " +
                      (Role == "source" ? "P0xP1:r0xr1" : "Q0xQ1:s0xs1") +
                      ": the " + Role + " process grid and block size")
                         .str()};
  auto [Grid, Blocks] = llvm::StringRef(Text).split(':');
  auto [GridRows, GridCols] = Grid.split('x');
  auto [RowBlock, ColBlock] = Blocks.split('x');
  if (!llvm::StringRef(Text).contains(':') || !Grid.contains('x') ||
      !Blocks.contains('x'))
    throw UsageError{("--" + Option + " = '" + Text +
                      "' is not ROWSxCOLS:ROWBLOCKxCOLBLOCK, e.g. 2x3:32x32")
                         .str()};
  auto Read = [&](llvm::StringRef Part, const char *What) {
    return parseInteger("--" + Option.str(), ("the " + Role + " " + What).str(),
                        Part, 1);
  };
  return {Read(GridRows, "process rows"), Read(GridCols, "process columns"),
          Read(RowBlock, "row block"), Read(ColBlock, "column block")};
}

Plan planMatrix() {
  if (!Cyclic2DUnknown.empty())
    throw UsageError{"unknown option '" + Cyclic2DUnknown.front() + "'; see " +
                     ToolName + " cyclic2d --help"};
  if (!Cyclic2DArgs.empty())
    throw UsageError{"cyclic2d takes no positional arguments, but got '" +
                     Cyclic2DArgs.front() + "'"};
  for (auto [Name, Option] :
       {std::pair{"rows", &MatrixRows}, std::pair{"cols", &MatrixCols}})
    if (!Option->getNumOccurrences())
      throw UsageError{std::string("cyclic2d needs --") + Name + ": the " +
                       Name + " of the matrix"};
  const int64_t M = parseInteger("M", "the rows of the matrix", MatrixRows, 0);
  const int64_t N =
      parseInteger("N", "the columns of the matrix", MatrixCols, 0);
  const MatrixSide From = readMatrixSide("from", "source", MatrixFrom);
  const MatrixSide To = readMatrixSide("to", "target", MatrixTo);
  std::optional<OverlapAlgorithm> Overlap =
      parseOverlapAlgorithm(Algorithm2DName);
  std::optional<Algorithm2D> Algo = parseAlgorithm2D(Algorithm2DName);
  if (!Algo && !Overlap && parseAlgorithm(Algorithm2DName))
    throw UsageError{"algorithm '" + Algorithm2DName +
                     "' schedules arrays only; for matrices use product(" +
                     Algorithm2DName + ")"};
  if (!Algo && !Overlap)
    throw UsageError{"unknown algorithm '" + Algorithm2DName +
                     "'; valid algorithms: " + algorithm2DNames(", ", "")};
  checkMatrixSize(From, To, M, N);
  auto Layout = [&](const MatrixSide &Side) {
    return Layout2D::blockCyclic(M, N, Side.GridRows, Side.GridCols,
                                 Side.RowBlock, Side.ColBlock);
  };
  const OverlapOptions Opts = readEffort(Overlap.has_value());
  if (Overlap)
    return makeMatrixOverlapPlan(Layout(From), Layout(To), *Overlap, Opts);
  std::string ModelFrom;
  const CostModel Model = loadCostModel(ModelFile, &ModelFrom);
  return makeMatrixPlan(Layout(From), Layout(To), *Algo, Model, ModelFrom);
}

/// A comma-separated list of integers >= Min, named Option.
std::vector<int64_t> readIntegers(llvm::StringRef Option,
                                  llvm::StringRef Meaning, llvm::StringRef Text,
                                  int64_t Min) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',');
  std::vector<int64_t> Values;
  for (size_t I = 0; I < Parts.size(); ++I)
    Values.push_back(parseInteger((Option + "[" + llvm::Twine(I) + "]").str(),
                                  Meaning, Parts[I], Min));
  return Values;
}

/// One side of array, "G0xG1:F0,F1,...", given as --Option: a layout of
/// Extents, processes numbered row-major over the grid, row-major storage.
ArrayLayout readArraySide(llvm::StringRef Option, llvm::StringRef Role,
                          const cl::opt<std::string> &Text,
                          std::vector<int64_t> Extents) {
  if (!Text.getNumOccurrences())
    throw UsageError{("array needs --" + Option + " G0xG1:F0,F1,...: the " +
                      Role + " process grid and one format per dimension")
                         .str()};
  auto [Grid, Formats] = llvm::StringRef(Text).split(':');
  if (!llvm::StringRef(Text).contains(':') || Grid.empty() || Formats.empty())
    throw UsageError{("--" + Option + " = '" + Text +
                      "' is not GRID:FORMATS, e.g. 2x2:block,block,*")
                         .str()};
  llvm::SmallVector<llvm::StringRef, 4> GridParts;
  Grid.split(GridParts, 'x');
  std::vector<int64_t> GridExtents;
  for (size_t I = 0; I < GridParts.size(); ++I)
    GridExtents.push_back(parseInteger(
        ("--" + Option + " grid[" + llvm::Twine(I) + "]").str(),
        ("the " + Role + " processes along a grid dimension").str(),
        GridParts[I], 1));
  // gen_block's sizes are separated by semicolons, so every comma
  // separates formats.
  llvm::SmallVector<llvm::StringRef, 8> FormatParts;
  Formats.split(FormatParts, ',');
  std::vector<DimFormat> Parsed;
  try {
    for (llvm::StringRef F : FormatParts)
      Parsed.push_back(DimFormat::parse(std::string_view(F.data(), F.size())));
    return ArrayLayout(std::move(Extents), std::move(Parsed),
                       std::move(GridExtents), GridOrder::RowMajor, {},
                       ArrayStorage{StorageOrder::RowMajor, {}});
  } catch (const InvalidArgument &E) {
    throw UsageError{("--" + Option + ": " + E.what()).str()};
  }
}

Plan planGridArray() {
  if (!ArrayUnknown.empty())
    throw UsageError{"unknown option '" + ArrayUnknown.front() + "'; see " +
                     ToolName + " array --help"};
  if (!ArrayArgs.empty())
    throw UsageError{"array takes no positional arguments, but got '" +
                     ArrayArgs.front() + "'"};
  if (!ArrayExtents.getNumOccurrences())
    throw UsageError{"array needs --extents N0,N1,...: the array's extent "
                     "along each dimension"};
  const std::vector<int64_t> Extents =
      readIntegers("--extents", "an extent of the array", ArrayExtents, 0);
  if (Extents.size() > static_cast<size_t>(MaxArrayRank))
    throw UsageError{"--extents lists " + std::to_string(Extents.size()) +
                     " dimensions; arrays have at most " +
                     std::to_string(MaxArrayRank)};
  ArrayRegion Region;
  if (ArrayPermute.getNumOccurrences()) {
    const std::vector<int64_t> Perm =
        readIntegers("--permute", "a source dimension", ArrayPermute, 0);
    if (Perm.size() != Extents.size())
      throw UsageError{"--permute lists " + std::to_string(Perm.size()) +
                       " dimensions for an array of rank " +
                       std::to_string(Extents.size())};
    for (size_t K = 0; K < Perm.size(); ++K) {
      if (Perm[K] >= static_cast<int64_t>(Extents.size()))
        throw UsageError{"--permute[" + std::to_string(K) +
                         "] = " + std::to_string(Perm[K]) +
                         ": a source dimension must be below the rank, " +
                         std::to_string(Extents.size())};
      Region.Permutation.push_back(static_cast<int>(Perm[K]));
    }
  }
  // The target's extents are the source's, permuted. A permutation that is
  // not one is the library's error (resolveRegion), raised when planning.
  std::vector<int64_t> TargetExtents = Extents;
  for (size_t K = 0; K < Region.Permutation.size(); ++K)
    TargetExtents[K] = Extents[static_cast<size_t>(Region.Permutation[K])];
  const ArrayLayout From = readArraySide("from", "source", ArrayFrom, Extents);
  const ArrayLayout To = readArraySide("to", "target", ArrayTo, TargetExtents);
  std::optional<OverlapAlgorithm> Overlap =
      parseOverlapAlgorithm(ArrayAlgorithmText);
  std::optional<ArrayAlgorithm> Algo = parseArrayAlgorithm(ArrayAlgorithmText);
  if (!Algo && !Overlap && parseAlgorithm(ArrayAlgorithmText))
    throw UsageError{"algorithm '" + ArrayAlgorithmText +
                     "' schedules 1-D arrays only; for arrays of any rank use "
                     "product(" +
                     ArrayAlgorithmText + ")"};
  if (!Algo && !Overlap)
    throw UsageError{"unknown algorithm '" + ArrayAlgorithmText +
                     "'; valid algorithms: " + arrayAlgorithmNames(", ", "")};
  const OverlapOptions Opts = readEffort(Overlap.has_value());
  if (Overlap)
    return makeGridArrayOverlapPlan(From, To, Region, *Overlap, Opts);
  std::string ModelFrom;
  const CostModel Model = loadCostModel(ModelFile, &ModelFrom);
  return makeGridArrayPlan(From, To, Region, *Algo, Model, ModelFrom);
}

void printPlan(OutputFormat Format, const Plan &P) {
  if (GanttFile.getNumOccurrences()) {
    // Drawn first, so that a chart too large is refused before any output.
    std::string Chart;
    llvm::raw_string_ostream ChartStream(Chart);
    writeGantt(ChartStream, P);
    std::error_code Error;
    llvm::raw_fd_ostream File(GanttFile, Error);
    if (Error)
      throw UsageError{"cannot write the chart to '" + GanttFile +
                       "': " + Error.message()};
    File << ChartStream.str();
  }
  if (Format == OutputFormat::Json)
    printJson(llvm::outs(), P);
  else
    printTable(llvm::outs(), P);
}

} // namespace

/// The whole tool. ParseErrors, when given, receives the command-line
/// parser's errors, which then return BadInput instead of exiting: the fuzz
/// target (test/fuzz/PlanInputFuzzer.cpp) runs the tool many times in one
/// process.
int redistPlanMain(int Argc, char **Argv, llvm::raw_ostream *ParseErrors) {
  // A run after another: cl::ResetAllOptionOccurrences leaves the
  // positional and sink lists as the last run filled them.
  for (cl::list<std::string> *List :
       {std::addressof(CyclicArgs), std::addressof(CyclicUnknown),
        std::addressof(RingArgs), std::addressof(RingUnknown),
        std::addressof(GenBlockArgs), std::addressof(GenBlockUnknown),
        std::addressof(Cyclic2DArgs), std::addressof(Cyclic2DUnknown),
        std::addressof(TopLevelArgs), std::addressof(TopLevelUnknown)})
    List->reset();
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << ToolName << " " << REDIST_VERSION_STRING << '\n';
  });
  if (!redist::tools::parseToolCommandLine(
          Argc, Argv, PlanCategory,
          "shows the communication grid and schedule of a redistribution\n\n"
          "  redist-plan cyclic P r Q s [--n N] [--algorithm NAME [--steps K] "
          "[--effort N]] [--model FILE] [--table | --json] [--gantt FILE.svg]\n"
          "  redist-plan genblock --source n0,n1,... --target m0,m1,... "
          "[--algorithm NAME [--steps K] [--effort N]] [--model FILE] [--table "
          "| "
          "--json] [--gantt FILE.svg]\n"
          "  redist-plan cyclic2d --rows M --cols N --from P0xP1:r0xr1 --to "
          "Q0xQ1:s0xs1 [--algorithm NAME [--effort N]] [--model FILE] [--table "
          "| "
          "--json] "
          "[--gantt FILE.svg]\n"
          "  redist-plan array --extents N0,N1,... --from G0xG1:F0,F1,... --to "
          "H0xH1:F0,F1,... [--permute K0,K1,...] [--algorithm NAME [--effort "
          "N]] [--model FILE] [--table | --json] [--gantt FILE.svg]\n"
          "  redist-plan ring --loads l0,l1,... --target t0,t1,... [--costs "
          "c0,c1,...] [--back-costs b0,b1,...] [--bidirectional] [--algorithm "
          "NAME] [--table | --json]\n",
          ParseErrors))
    return BadInput;

  try {
    // The format first: a contradictory command line is not worth planning.
    if (RingCommand) {
      planAndPrintRing(readFormat());
    } else if (CyclicCommand || GenBlockCommand || Cyclic2DCommand ||
               ArrayCommand) {
      OutputFormat Format = readFormat();
      printPlan(Format, CyclicCommand     ? planCyclic()
                        : GenBlockCommand ? planGenBlock()
                        : ArrayCommand    ? planGridArray()
                                          : planMatrix());
    } else if (!TopLevelUnknown.empty()) {
      throw UsageError{"unknown option '" + TopLevelUnknown.front() +
                       "'; see redist-plan --help"};
    } else if (!TopLevelArgs.empty()) {
      throw UsageError{"unknown subcommand '" + TopLevelArgs.front() +
                       "'; the subcommands are: cyclic, genblock, cyclic2d, "
                       "array, ring"};
    } else {
      throw UsageError{"missing subcommand: cyclic, genblock, cyclic2d, "
                       "array or ring; see redist-plan --help"};
    }
  } catch (const UsageError &E) {
    reportError(E.Message);
    return BadInput;
  } catch (const InvalidArgument &E) {
    reportError(E.what());
    return BadInput;
  } catch (const InternalError &E) {
    reportError(llvm::Twine("internal error: ") + E.what());
    return Internal;
  } catch (const std::bad_alloc &) {
    reportError("out of memory: the redistribution is too large");
    return Internal;
  }
  return Success;
}

#ifndef REDIST_PLAN_NO_MAIN
int main(int Argc, char **Argv) {
  reserveHeapForPlans();
  return redistPlanMain(Argc, Argv, nullptr);
}
#endif
