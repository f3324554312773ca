//===- redistc.cpp - The #pragma redist translator ------------------------===//
//
// redistc in.cpp -o out.cpp [-p build-dir] [--report] [--dynamic] [-- flags]
//
// Reads a C++ file with #pragma redist directives and writes it back with
// each directive replaced by the MPI code that implements it: constant
// schedule tables when every parameter is a compile-time constant, calls into
// the redist runtime otherwise. See docs/redistc.md and docs/directives.md.
//
//===----------------------------------------------------------------------===//

#include "RedistcConfig.h"
#include "TranslateAction.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace clang::tooling;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory RedistcCategory("redistc options");

cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the translation here "
                                         "(default: standard output)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(RedistcCategory));

cl::opt<bool> Report("report",
                     cl::desc("Print one line per directive: its location, "
                              "static or dynamic, the algorithm, the steps, "
                              "the cost and the lower bounds (to standard "
                              "output, or standard error with -o -)"),
                     cl::cat(RedistcCategory));

cl::opt<bool> ForceDynamic(
    "dynamic",
    cl::desc("Use the runtime for every redistribute and assign, even when "
             "the schedule could be computed now"),
    cl::cat(RedistcCategory));

cl::opt<int64_t> TableLimit(
    "static-table-limit",
    cl::desc("Largest number of table rows (messages and run series) one "
             "static directive may emit; larger ones use the runtime"),
    cl::value_desc("n"), cl::init(redistc::StaticLimits().MaxRows),
    cl::cat(RedistcCategory));

cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("Also write the files the input includes, as a Makefile rule "
             "for the output (for build systems)"),
    cl::value_desc("file"), cl::cat(RedistcCategory));

cl::extrahelp MoreHelp(
    "\nredistc translates #pragma redist directives (processors, distribute,\n"
    "redistribute, assign) into MPI code. Compiler flags come from a\n"
    "compilation database (-p) or follow '--'. Clang's builtin headers, MPI's\n"
    "headers and redist's headers are found without flags.\n");

bool hasArgument(const CommandLineArguments &Args, llvm::StringRef Prefix) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).startswith(Prefix))
      return true;
  return false;
}

/// Where the redist headers are: <prefix>/include next to an installed tool,
/// else the source tree this tool was built from.
std::vector<std::string> redistIncludeDirs(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&redistIncludeDirs));
  llvm::SmallString<256> Installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Installed, "include");
  llvm::SmallString<256> Probe(Installed);
  llvm::sys::path::append(Probe, "redist", "runtime", "Redistribute.h");
  if (llvm::sys::fs::exists(Probe))
    return {std::string(Installed)};
  std::vector<std::string> Dirs;
  for (const char *const *D = redistc::BuildIncludeDirs; *D; ++D)
    Dirs.push_back(*D);
  return Dirs;
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "redistc " << redistc::VersionString << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  auto Parser =
      CommonOptionsParser::create(argc, argv, RedistcCategory, cl::OneOrMore);
  if (!Parser) {
    llvm::errs() << llvm::toString(Parser.takeError());
    return 1;
  }
  const std::vector<std::string> &Sources = Parser->getSourcePathList();
  if (Sources.size() != 1) {
    llvm::WithColor::error(llvm::errs(), "redistc")
        << "expected exactly one input file, got " << Sources.size() << "\n";
    return 1;
  }
  if (TableLimit < 0) {
    llvm::WithColor::error(llvm::errs(), "redistc")
        << "--static-table-limit must not be negative, got " << TableLimit
        << "\n";
    return 1;
  }

  ClangTool Tool(Parser->getCompilations(), Sources);
  // Clang's builtin headers from the clang this tool was built against.
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args,
                                  llvm::StringRef File) {
    CommandLineArguments Out = Args;
    std::vector<std::string> Front;
    if (!hasArgument(Args, "-resource-dir"))
      Front.push_back(std::string("-resource-dir=") + redistc::ResourceDir);
    // C++17 unless told otherwise (C files are refused later, with a
    // message of our own).
    if (!hasArgument(Args, "-std=") && !hasArgument(Args, "--std") &&
        llvm::sys::path::extension(File) != ".c")
      Front.push_back("-std=c++17");
    Out.insert(Out.begin() + (Out.empty() ? 0 : 1), Front.begin(), Front.end());
    return Out;
  });
  // MPI's and redist's headers last, so that the user's flags win; no
  // warnings: the compiler reports those when it builds the output.
  std::vector<std::string> Back;
  for (const char *const *D = redistc::MPIIncludeDirs; *D; ++D) {
    Back.push_back("-isystem");
    Back.push_back(*D);
  }
  for (const std::string &D : redistIncludeDirs(argv[0])) {
    Back.push_back("-isystem");
    Back.push_back(D);
  }
  Back.push_back("-w");

  llvm::SmallString<256> Input(Sources[0]);
  llvm::sys::fs::make_absolute(Input);
  llvm::SmallString<256> Output(OutputFile.getValue());
  if (OutputFile != "-")
    llvm::sys::fs::make_absolute(Output);
  // Clang writes the dependencies of the parse (after ClangTool's own
  // adjusters, which strip the user's -M flags).
  if (!DepFile.empty()) {
    for (const char *Flag : {"-MD", "-MF"})
      Back.push_back(Flag);
    Back.push_back(DepFile);
    Back.push_back("-MT");
    Back.push_back(OutputFile == "-" ? "-" : std::string(Output));
  }
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Back, ArgumentInsertPosition::END));

  redistc::CodeGenOptions Options;
  Options.ForceDynamic = ForceDynamic;
  Options.Limits.MaxRows = TableLimit;
  Options.InputPath = std::string(Input);
  Options.OutputPath = OutputFile == "-" ? "<stdout>" : std::string(Output);

  redistc::Translation Result;
  int Status =
      Tool.run(redistc::makeTranslateActionFactory(Options, Result).get());
  if (Status != 0 || !Result.Done)
    return 1;

  // Written to a temporary file and renamed: never a partial output.
  if (llvm::Error E = llvm::writeToOutput(
          OutputFile, [&](llvm::raw_ostream &OS) -> llvm::Error {
            OS << Result.Text;
            return llvm::Error::success();
          })) {
    llvm::WithColor::error(llvm::errs(), "redistc")
        << "cannot write " << OutputFile << ": " << llvm::toString(std::move(E))
        << "\n";
    return 1;
  }
  if (Report) {
    llvm::raw_ostream &OS = OutputFile == "-" ? llvm::errs() : llvm::outs();
    for (const std::string &Line : Result.Report)
      OS << Line << "\n";
  }
  return 0;
}
