//===- RedistBench.cpp - redist-bench: the runtime against its peers ------===//
//
//   mpirun -np R redist-bench cyclic P r Q s N [options]
//   mpirun -np R redist-bench genblock --source 12,20,15,...
//       --target 17,10,... [options]
//   options: [--method NAME,...|all] [--algorithm NAME,...]
//       [--packing auto|runs|datatypes] [--reps K] [--verify] [--json]
//
// Runs one redistribution of N doubles with every chosen method on the same
// data (source and target in node memory for the methods that run a plan,
// but redist-private: NodeMemory.h) and prints, per method, its setup (plan)
// time and the median and minimum over K runs of the slowest rank's time,
// with GB/s and the ratio to one core's memcpy of the whole array, and for
// the methods on node memory in how many runs the node's ranks shared the
// writing of their targets (Plan::nodeWrites()). The distribution kind is a
// subcommand building the Problem; under genblock, N is the sum of the
// segment sizes and the methods that have no GEN_BLOCK layout (pdgemr2d)
// are skipped with a note.
//
//===----------------------------------------------------------------------===//

#include "BenchmarkHeap.h"
#include "Data.h"
#include "Measure.h"
#include "Method.h"
#include "NodeReads.h"
#include "Report.h"
#include "Session.h"
#include "ToolCommandLine.h"

#include "redist/runtime/NodeMemory.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>

using namespace llvm;
using namespace redist;
using namespace redist::bench;

namespace {

cl::OptionCategory BenchCategory("redist-bench options");

cl::SubCommand
    CyclicCommand("cyclic",
                  "CYCLIC(r) over P processes to CYCLIC(s) over Q processes");
cl::opt<std::string> SrcProcs(cl::Positional, cl::Required, cl::desc("<P>"),
                              cl::sub(CyclicCommand), cl::cat(BenchCategory));
cl::opt<std::string> SrcBlock(cl::Positional, cl::Required, cl::desc("<r>"),
                              cl::sub(CyclicCommand), cl::cat(BenchCategory));
cl::opt<std::string> DstProcs(cl::Positional, cl::Required, cl::desc("<Q>"),
                              cl::sub(CyclicCommand), cl::cat(BenchCategory));
cl::opt<std::string> DstBlock(cl::Positional, cl::Required, cl::desc("<s>"),
                              cl::sub(CyclicCommand), cl::cat(BenchCategory));
cl::opt<std::string> Extent(cl::Positional, cl::Required, cl::desc("<N>"),
                            cl::sub(CyclicCommand), cl::cat(BenchCategory));

cl::SubCommand
    GenBlockCommand("genblock",
                    "GEN_BLOCK over P processes to GEN_BLOCK over Q processes");
cl::opt<std::string>
    SourceSizes("source", cl::sub(GenBlockCommand),
                cl::desc("Segment sizes of the P source processes, comma "
                         "separated"),
                cl::value_desc("n0,n1,..."), cl::cat(BenchCategory));
cl::opt<std::string>
    TargetSizes("target", cl::sub(GenBlockCommand),
                cl::desc("Segment sizes of the Q target processes, comma "
                         "separated"),
                cl::value_desc("n0,n1,..."), cl::cat(BenchCategory));

cl::list<std::string>
    MethodNames("method", cl::CommaSeparated, cl::sub(*cl::AllSubCommands),
                cl::desc("Methods to run, comma separated, or 'all' "
                         "(the default)"),
                cl::value_desc("name"), cl::cat(BenchCategory));
cl::list<std::string> AlgorithmNames(
    "algorithm", cl::CommaSeparated, cl::sub(*cl::AllSubCommands),
    cl::desc("Schedule algorithm of the runtime's methods (default auto); "
             "several, comma separated, run each such method once per "
             "algorithm, interleaved"),
    cl::value_desc("name,..."), cl::cat(BenchCategory));
// Values are read as strings and checked by the benchmark, so that a bad
// value gets the same one-line error on rank 0 as any other bad argument.
cl::opt<std::string> PackingName(
    "packing", cl::init("auto"), cl::sub(*cl::AllSubCommands),
    cl::desc("Packing of the runtime's methods: auto (the default: per "
             "message, datatypes for long runs), runs (copy loops) or "
             "datatypes (MPI derived datatypes)"),
    cl::value_desc("name"), cl::cat(BenchCategory));
cl::opt<std::string> RepsText("reps", cl::init("10"),
                              cl::sub(*cl::AllSubCommands),
                              cl::desc("Timed runs per method (default 10)"),
                              cl::value_desc("K"), cl::cat(BenchCategory));
cl::opt<bool> Verify("verify", cl::sub(*cl::AllSubCommands),
                     cl::desc("Check every element of every result"),
                     cl::cat(BenchCategory));
cl::opt<bool> Json("json", cl::sub(*cl::AllSubCommands),
                   cl::desc("One JSON object per method instead of a table"),
                   cl::cat(BenchCategory));

/// While alive and Active, stdout and stderr go to /dev/null.
class QuietOutput {
public:
  explicit QuietOutput(bool Active) {
    if (!Active)
      return;
    outs().flush();
    errs().flush();
    SavedOut = dup(STDOUT_FILENO);
    SavedErr = dup(STDERR_FILENO);
    int Null = open("/dev/null", O_WRONLY);
    dup2(Null, STDOUT_FILENO);
    dup2(Null, STDERR_FILENO);
    close(Null);
  }
  ~QuietOutput() {
    if (SavedOut < 0)
      return;
    outs().flush();
    errs().flush();
    dup2(SavedOut, STDOUT_FILENO);
    dup2(SavedErr, STDERR_FILENO);
    close(SavedOut);
    close(SavedErr);
  }
  QuietOutput(const QuietOutput &) = delete;
  QuietOutput &operator=(const QuietOutput &) = delete;

private:
  int SavedOut = -1, SavedErr = -1;
};

void require(bool Ok, const std::string &Message) {
  if (!Ok)
    throw BenchError{Message};
}

int64_t parseInteger(const char *Name, StringRef Text) {
  int64_t Value = 0;
  require(!Text.getAsInteger(10, Value),
          std::string(Name) + " must be an integer, got '" + Text.str() + "'");
  return Value;
}

int64_t parsePositive(const char *Name, StringRef Text) {
  int64_t Value = parseInteger(Name, Text);
  require(Value >= 1, std::string(Name) + " must be at least 1, got " +
                          std::to_string(Value));
  return Value;
}

Problem makeProblem(IndexMap From, IndexMap To, int Rank, int Ranks) {
  Problem Pb;
  Pb.From = std::move(From);
  Pb.To = std::move(To);
  Pb.Comm = MPI_COMM_WORLD;
  Pb.Rank = Rank;
  Pb.Ranks = Ranks;
  return Pb;
}

Problem cyclicProblem(int Rank, int Ranks) {
  int64_t P = parsePositive("P", SrcProcs), R = parsePositive("r", SrcBlock),
          Q = parsePositive("Q", DstProcs), S = parsePositive("s", DstBlock),
          N = parseInteger("N", Extent);
  require(N >= 0, "N must not be negative, got " + std::to_string(N));
  require(N <= INT_MAX, "N = " + std::to_string(N) + " exceeds " +
                            std::to_string(INT_MAX) +
                            ", the largest count the MPI and ScaLAPACK "
                            "peers take");
  int64_t Needed = std::max(P, Q);
  require(Needed <= Ranks, "max(P, Q) = " + std::to_string(Needed) +
                               " processes need at least that many ranks, "
                               "got " +
                               std::to_string(Ranks));
  return makeProblem(IndexMap::blockCyclic(P, R, N),
                     IndexMap::blockCyclic(Q, S, N), Rank, Ranks);
}

// The sizes of a comma-separated list given as Option: one non-negative
// integer per process, summing to at most INT_MAX.
std::vector<int64_t> parseSizes(const char *Option, StringRef Text) {
  require(!Text.trim().empty(), std::string("genblock needs ") + Option +
                                    " n0,n1,...: one segment size per "
                                    "process");
  SmallVector<StringRef, 16> Items;
  Text.split(Items, ',');
  std::vector<int64_t> Sizes;
  int64_t Sum = 0;
  for (StringRef Item : Items) {
    StringRef Trimmed = Item.trim();
    std::string Entry =
        std::string(Option) + " entry " + std::to_string(Sizes.size() + 1);
    int64_t Size = parseInteger(Entry.c_str(), Trimmed);
    require(Size >= 0,
            Entry + " must not be negative, got " + std::to_string(Size));
    require(Size <= INT_MAX - Sum,
            Entry + " = " + std::to_string(Size) + " brings the sum above " +
                std::to_string(INT_MAX) +
                ", the largest count the MPI peers take");
    Sum += Size;
    Sizes.push_back(Size);
  }
  return Sizes;
}

Problem genBlockProblem(int Rank, int Ranks) {
  std::vector<int64_t> Src = parseSizes("--source", SourceSizes);
  std::vector<int64_t> Dst = parseSizes("--target", TargetSizes);
  IndexMap From = IndexMap::genBlock(std::move(Src));
  IndexMap To = IndexMap::genBlock(std::move(Dst));
  require(From.N == To.N, "--source sums to " + std::to_string(From.N) +
                              " but --target sums to " + std::to_string(To.N) +
                              ": both must cover the same N elements");
  for (const auto &[Option, Procs] :
       {std::pair("--source", From.Procs), std::pair("--target", To.Procs)})
    require(Procs <= Ranks, std::string(Option) + " has " +
                                std::to_string(Procs) +
                                " sizes, one per process, but the job has " +
                                std::to_string(Ranks) + " ranks");
  return makeProblem(std::move(From), std::move(To), Rank, Ranks);
}

// The methods the command line chose, in the order availableMethods lists,
// without those that cannot move Pb's layouts (rank 0 says which and why).
std::vector<MethodInfo> chosenMethods(const Problem &Pb) {
  std::vector<MethodInfo> Known = availableMethods();
  std::vector<std::string> Names(MethodNames.begin(), MethodNames.end());
  bool All = Names.empty() ||
             std::find(Names.begin(), Names.end(), "all") != Names.end();
  for (const std::string &Name : Names) {
    if (Name == "all")
      continue;
    bool Found =
        std::any_of(Known.begin(), Known.end(),
                    [&](const MethodInfo &M) { return Name == M.Name; });
    if (!Found) {
      std::string List;
      for (const MethodInfo &M : Known)
        if (!M.SelfTest)
          List += std::string(List.empty() ? "" : ", ") + M.Name;
      throw BenchError{"unknown method '" + Name +
                       "' (this build has: " + List + ", all)"};
    }
  }
  bool GenBlock = Pb.From.isGenBlock() || Pb.To.isGenBlock();
  std::vector<MethodInfo> Chosen;
  std::string Skipped;
  for (const MethodInfo &M : Known) {
    if (!(All && M.InAll) &&
        std::find(Names.begin(), Names.end(), M.Name) == Names.end())
      continue;
    if (GenBlock && M.NoGenBlock) {
      // On stderr, so that --json output stays one object per line.
      if (Pb.Rank == 0)
        errs() << "redist-bench: note: skipping " << M.Name
               << " for gen_block: " << M.NoGenBlock << "\n";
      Skipped += std::string(Skipped.empty() ? "" : ", ") + M.Name;
      continue;
    }
    Chosen.push_back(M);
  }
  require(!Chosen.empty(),
          "no chosen method moves gen_block layouts (skipped: " + Skipped +
              ")");
  return Chosen;
}

// Each method that follows a schedule once per algorithm, in the order
// given; the others once.
std::vector<MethodInfo> perAlgorithm(const std::vector<MethodInfo> &Methods,
                                     const std::vector<Algorithm> &Schedules) {
  std::vector<MethodInfo> Out;
  for (const MethodInfo &M : Methods) {
    if (!M.FollowsSchedule || Schedules.size() == 1) {
      Out.push_back(M);
      continue;
    }
    for (Algorithm A : Schedules) {
      MethodInfo Copy = M;
      Copy.Make = [Make = M.Make, A](const Problem &Pb) {
        Problem WithSchedule = Pb;
        WithSchedule.Schedule = A;
        return Make(WithSchedule);
      };
      Out.push_back(std::move(Copy));
    }
  }
  return Out;
}

int runBenchmark(int Rank, int Ranks) {
  if (!CyclicCommand && !GenBlockCommand)
    throw BenchError{"expected a distribution kind: cyclic P r Q s N, or "
                     "genblock --source n0,n1,... --target n0,n1,..."};
  int64_t RepsValue = parseInteger("--reps", RepsText);
  require(RepsValue >= 1 && RepsValue <= INT_MAX,
          "--reps must be at least 1, got " + std::to_string(RepsValue));
  int Reps = static_cast<int>(RepsValue);
  std::optional<Packing> Pack = parsePacking(PackingName);
  require(Pack.has_value(), "unknown --packing '" + PackingName +
                                "' (expected auto, runs or datatypes)");
  std::vector<std::string> Names(AlgorithmNames.begin(), AlgorithmNames.end());
  if (Names.empty())
    Names.push_back("auto");
  std::vector<Algorithm> Schedules;
  for (const std::string &Name : Names) {
    std::optional<Algorithm> Schedule = parseAlgorithm(Name);
    if (!Schedule) {
      std::string List;
      for (Algorithm A : allAlgorithms())
        List += std::string(List.empty() ? "" : ", ") + algorithmName(A);
      throw BenchError{"unknown --algorithm '" + Name +
                       "' (expected one of: " + List + ")"};
    }
    Schedules.push_back(*Schedule);
  }
  Problem Pb =
      CyclicCommand ? cyclicProblem(Rank, Ranks) : genBlockProblem(Rank, Ranks);
  Pb.Schedule = Schedules.front();
  Pb.Pack = *Pack;
  // The runtime refuses an algorithm that does not apply; say so before
  // measuring anything.
  for (std::size_t I = 0; I < Schedules.size(); ++I) {
    std::string Why;
    if (!algorithmApplies(Schedules[I],
                          Layout(runtimeDistribution(Pb.From), Pb.From.N),
                          Layout(runtimeDistribution(Pb.To), Pb.To.N), &Why))
      throw BenchError{"--algorithm " + Names[I] + " does not apply: " + Why};
  }
  std::vector<MethodInfo> Methods = perAlgorithm(chosenMethods(Pb), Schedules);

  std::vector<double> Src = makeFilledPart(Pb.From, Rank);
  // The same source in node memory, for the methods that run a plan (each
  // gets its target there too, in measureAll()).
  NodeArray<double> NodeSrc(Pb.Comm, Src.size());
  std::copy(Src.begin(), Src.end(), NodeSrc.begin());
  ReferenceTimes Refs;
  std::vector<Result> Results = measureAll(
      Methods, Pb, Src, NodeSrc.data(), NodeSrc.shared(), Reps, Verify, Refs);
  if (Rank == 0 && !Json)
    printHeader(Pb, Refs, Reps, NodeSrc.shared());
  // On stderr with --json, so that the output stays one object per line.
  if (Rank == 0 && Json)
    errs() << "redist-bench: note: " << nodeMemoryNote(NodeSrc.shared())
           << "\n";
  bool AllCorrect = true;
  for (const Result &R : Results) {
    AllCorrect = AllCorrect && R.Correct;
    if (Rank != 0)
      continue;
    if (Json)
      printJson(R, Pb, Refs);
    else
      printRow(R, Pb, Refs);
  }
  return AllCorrect ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  redist::bench::setUpBenchmarkHeap();
  MPI_Init(&argc, &argv);
  int Rank = 0, Ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  // --help exits from inside the parser: finalize MPI on the way out.
  std::atexit([] {
    int Finalized = 0;
    MPI_Finalized(&Finalized);
    if (!Finalized)
      MPI_Finalize();
  });

  std::string ParseErrors;
  raw_string_ostream ParseStream(ParseErrors);
  int Status = 1;
  bool Parsed;
  {
    // Every rank parses the same arguments; only rank 0 may print (some of
    // LLVM's messages, and --help, go straight to stderr and stdout).
    QuietOutput Quiet(Rank != 0);
    Parsed = redist::tools::parseToolCommandLine(
        argc, argv, BenchCategory,
        "redist-bench: redist's runtime against its peers\n", &ParseStream);
  }
  if (!Parsed) {
    // LLVM prefixes its messages with the program's name: keep the rest.
    std::string Line = firstLine(ParseStream.str());
    StringRef Message = StringRef(Line).split(": ").second;
    if (Rank == 0 && !Line.empty())
      errs() << "redist-bench: error: " << (Message.empty() ? Line : Message)
             << "\n";
  } else {
    try {
      Status = runBenchmark(Rank, Ranks);
    } catch (const BenchError &E) {
      if (Rank == 0)
        errs() << "redist-bench: error: " << E.Message << "\n";
    }
  }
  MPI_Finalize();
  return Status;
}
