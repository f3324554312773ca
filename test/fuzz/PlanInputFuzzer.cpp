//===- PlanInputFuzzer.cpp - libFuzzer target of what users type ----------===//
//
// What users type outside source files, in one target:
//   - an input whose first line is "redist-model" holds a model file after
//     that line: redist::parseCostModel reads it, as the runtime, redist-plan
//     and redistc all do (readCostModelFile);
//   - any other input is a redist-plan command line, one argument per line,
//     that the tool parses and plans in process (redistPlanMain), its output
//     thrown away.
// Besides crashes, leaks and sanitizer reports, the target checks the
// tool's exit codes: 0 or 1 (bad input), never 2 (internal error). A model
// file either parses to finite, non-negative constants or throws
// InvalidArgument.
//
// The command lines stay small and touch no file: every number is at most
// MaxNumber (so that a plan takes milliseconds to a second), and only
// redist-plan's own options are passed on: not --model or --gantt (files),
// nor @file, --help or the options libLLVM registers. A command line that
// asks for an --effort above MaxEffort is skipped: --effort N searches up
// to N times the bounded default, which is what it asks for, not a hang.
//
// Built with -DREDIST_FUZZ=ON by clang; scripts/fuzz-redistc.sh --target
// plan-input runs it (test/fuzz/README.md).
//
//===----------------------------------------------------------------------===//

#include "redist/CostModel.h"
#include "redist/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// tools/redist-plan/redist-plan.cpp, compiled without its main.
int redistPlanMain(int Argc, char **Argv, llvm::raw_ostream *ParseErrors);

namespace {

constexpr int64_t MaxNumber = 16;
constexpr int64_t MaxEffort = 2;
constexpr const char *ModelHeader = "redist-model\n";

/// redist-plan's options (with one or two dashes, before any '=').
const char *const Options[] = {
    "n",      "algorithm", "steps", "effort", "table",      "json",
    "source", "target",    "loads", "costs",  "back-costs", "bidirectional",
    "rows",   "cols",      "from",  "to"};

/// The option name of Arg ("effort" for --effort=3 or -effort), or "".
llvm::StringRef optionName(llvm::StringRef Arg) {
  if (!Arg.startswith("-"))
    return "";
  return Arg.drop_front(Arg.startswith("--") ? 2 : 1).split('=').first;
}

bool allowedArgument(llvm::StringRef Arg) {
  if (Arg.startswith("@"))
    return false;
  // Every run of digits: a number the plan may grow with.
  for (size_t I = 0; I < Arg.size();) {
    if (!llvm::isDigit(Arg[I])) {
      ++I;
      continue;
    }
    size_t End = I;
    while (End < Arg.size() && llvm::isDigit(Arg[End]))
      ++End;
    unsigned long long Value;
    if (Arg.slice(I, End).getAsInteger(10, Value) ||
        Value > static_cast<unsigned long long>(MaxNumber))
      return false;
    I = End;
  }
  if (!Arg.startswith("-"))
    return true;
  const llvm::StringRef Name = optionName(Arg);
  if (!Name.empty() && llvm::all_of(Name, llvm::isDigit))
    return true; // a negative number
  for (const char *Option : Options)
    if (Name == Option)
      return true;
  return false;
}

/// Whether Args asks for a longer search than MaxEffort: an --effort whose
/// value (after '=', or the next argument) is a larger number.
bool asksForLongSearch(const std::vector<std::string> &Args) {
  for (size_t K = 0; K < Args.size(); ++K) {
    const llvm::StringRef Arg(Args[K]);
    if (optionName(Arg) != "effort")
      continue;
    llvm::StringRef Value;
    if (Arg.contains('='))
      Value = Arg.split('=').second;
    else if (K + 1 < Args.size())
      Value = Args[K + 1];
    unsigned long long Effort;
    if (!Value.trim().getAsInteger(10, Effort) &&
        Effort > static_cast<unsigned long long>(MaxEffort))
      return true;
  }
  return false;
}

void fuzzModel(llvm::StringRef Text) {
  try {
    const redist::CostModel M = redist::parseCostModel(Text, "fuzz.json");
    for (double V : {M.Alpha, M.BetaPerByte, M.Gamma})
      if (!std::isfinite(V) || V < 0) {
        std::fprintf(stderr, "plan-input-fuzzer: model accepted with a "
                             "constant that is negative or not finite\n");
        std::abort();
      }
  } catch (const redist::InvalidArgument &) {
  }
}

void fuzzCommandLine(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  std::vector<std::string> Args{"redist-plan"};
  for (llvm::StringRef Line : Lines) {
    if (!allowedArgument(Line))
      return;
    Args.push_back(Line.str());
  }
  if (asksForLongSearch(Args))
    return;
  std::vector<char *> Argv;
  for (std::string &Arg : Args)
    Argv.push_back(Arg.data());
  Argv.push_back(nullptr);
  llvm::cl::ResetAllOptionOccurrences();
  std::string Errors;
  llvm::raw_string_ostream ErrorStream(Errors);
  const int Code =
      redistPlanMain(static_cast<int>(Args.size()), Argv.data(), &ErrorStream);
  if (Code != 0 && Code != 1) {
    std::fprintf(stderr, "plan-input-fuzzer: redist-plan exited with %d:\n",
                 Code);
    for (const std::string &Arg : Args)
      std::fprintf(stderr, "  %s\n", Arg.c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  if (Text.startswith(ModelHeader))
    fuzzModel(Text.drop_front(std::char_traits<char>::length(ModelHeader)));
  else
    fuzzCommandLine(Text);
  return 0;
}
