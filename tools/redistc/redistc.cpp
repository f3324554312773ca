//===- redistc.cpp - The #pragma redist translator ------------------------===//
//
// redistc in.cpp -o out.cpp [-p build-dir] [--report] [--dynamic]
//         [--verify=on|off] [--model FILE] [-- flags]
//
// Reads a C++ file with #pragma redist directives and writes it back with
// each directive replaced by the MPI code that implements it: constant
// schedule tables when every parameter is a compile-time constant, calls into
// the redist runtime otherwise. See docs/redistc.md and docs/directives.md.
//
// This file is the command line only; the translator is the redistc_core
// library, which Driver.h enters.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "RedistcConfig.h"
#include "ToolCommandLine.h"

#include "redist/CostModel.h"
#include "redist/Error.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang::tooling;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory RedistcCategory("redistc options");

// The options of LLVM's CommonOptionsParser, whose search for a compilation
// database redistc does itself (loadCompilations).
cl::list<std::string> SourcePaths(cl::Positional,
                                  cl::desc("<source0> [... <sourceN>]"),
                                  cl::OneOrMore, cl::cat(RedistcCategory));

cl::opt<std::string>
    BuildPath("p",
              cl::desc("Build path: the directory of compile_commands.json "
                       "(or compile_flags.txt), or one below it"),
              cl::value_desc("build-dir"), cl::cat(RedistcCategory));

cl::list<std::string>
    ArgsAfter("extra-arg",
              cl::desc("Additional argument to append to the compiler "
                       "command line"),
              cl::cat(RedistcCategory));

cl::list<std::string>
    ArgsBefore("extra-arg-before",
               cl::desc("Additional argument to prepend to the compiler "
                        "command line"),
               cl::cat(RedistcCategory));

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

/// --verify: unset leaves the check to the program's directiveOptions().
enum class VerifySetting { Unset, On, Off };
cl::opt<VerifySetting> Verify(
    "verify",
    cl::desc("Whether distribute, redistribute and assign directives "
             "without a verify clause check that every rank passed the same "
             "parameters (default: as redist::directiveOptions() says, on "
             "unless the program turns it off)"),
    cl::values(clEnumValN(VerifySetting::On, "on", "check, one allreduce"),
               clEnumValN(VerifySetting::Off, "off",
                          "trust every rank to agree")),
    cl::init(VerifySetting::Unset), cl::cat(RedistcCategory));

cl::opt<int64_t> TableLimit(
    "static-table-limit",
    cl::desc("Largest number of table rows (messages and run series) one "
             "static directive may emit; larger ones use the runtime"),
    cl::value_desc("n"), cl::init(redistc::StaticLimits().MaxRows),
    cl::cat(RedistcCategory));

cl::opt<int64_t> StepCallLimit(
    "step-call-limit",
    cl::desc("Largest number of steps a static directive writes as one call "
             "each; more run in a loop over the tables"),
    cl::value_desc("n"), cl::init(redistc::StaticLimits().MaxStepCalls),
    cl::cat(RedistcCategory));

cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("Also write the files the input includes, as a Makefile rule "
             "for the output (for build systems)"),
    cl::value_desc("file"), cl::cat(RedistcCategory));

cl::opt<std::string> ModelFile(
    "model",
    cl::desc("Cost model file (redist-model/1, as redist-calibrate writes "
             "it) that auto weighs the schedules computed now with; default: "
             "the file REDIST_MODEL names, else the built-in defaults"),
    cl::value_desc("file"), cl::cat(RedistcCategory));

cl::extrahelp MoreHelp(
    "\nredistc translates #pragma redist directives (processors, distribute,\n"
    "redistribute, assign, inquire) into MPI code. Compiler flags come from a\n"
    "compilation database (-p) or follow '--'. Clang's builtin headers, MPI's\n"
    "headers and redist's headers are found without flags.\n");

/// The flags to parse Source with: those after '--' (Flags, when given),
/// else those of the compilation database in BuildPath or above Source;
/// without one, a one-line warning and no flags. Null after an error.
std::unique_ptr<CompilationDatabase>
loadCompilations(std::unique_ptr<CompilationDatabase> Flags,
                 llvm::StringRef Source) {
  if (!Flags) {
    std::string Ignored; // LLVM's message lists every kind it tried
    if (!BuildPath.empty()) {
      Flags = CompilationDatabase::autoDetectFromDirectory(BuildPath, Ignored);
      if (!Flags) {
        llvm::WithColor::error(llvm::errs(), "redistc")
            << "no compilation database (compile_commands.json or "
               "compile_flags.txt) in "
            << BuildPath << " or above it\n";
        return nullptr;
      }
    } else {
      Flags = CompilationDatabase::autoDetectFromSource(Source, Ignored);
      if (!Flags) {
        llvm::WithColor::warning(llvm::errs(), "redistc")
            << "no compilation database for " << Source
            << "; parsing it without flags (give them after '--', or the "
               "build directory with -p)\n";
        Flags = std::make_unique<FixedCompilationDatabase>(
            ".", std::vector<std::string>());
      }
    }
  }
  auto Adjusted =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(Flags));
  Adjusted->appendArgumentsAdjuster(
      getInsertArgumentAdjuster(ArgsBefore, ArgumentInsertPosition::BEGIN));
  Adjusted->appendArgumentsAdjuster(
      getInsertArgumentAdjuster(ArgsAfter, ArgumentInsertPosition::END));
  return Adjusted;
}

} // namespace

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "redistc " << redistc::VersionString << " (LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  // The flags after '--', cut from argv before the options are read.
  std::string Error;
  std::unique_ptr<CompilationDatabase> Flags =
      FixedCompilationDatabase::loadFromCommandLine(argc, argv, Error);
  if (!Error.empty()) {
    llvm::WithColor::error(llvm::errs(), "redistc") << Error << "\n";
    return 1;
  }
  redist::tools::parseToolCommandLine(argc, argv, RedistcCategory);
  const std::vector<std::string> &Sources = SourcePaths;
  if (Sources.size() != 1) {
    llvm::WithColor::error(llvm::errs(), "redistc")
        << "expected exactly one input file, got " << Sources.size() << "\n";
    return 1;
  }
  for (const cl::opt<int64_t> *Limit : {&TableLimit, &StepCallLimit})
    if (*Limit < 0) {
      llvm::WithColor::error(llvm::errs(), "redistc")
          << "--" << Limit->ArgStr << " must not be negative, got " << *Limit
          << "\n";
      return 1;
    }

  redistc::CodeGenOptions Options;
  try {
    Options.Model = redist::loadCostModel(ModelFile);
  } catch (const redist::InvalidArgument &E) {
    llvm::WithColor::error(llvm::errs(), "redistc") << E.what() << "\n";
    return 1;
  }
  Options.ForceDynamic = ForceDynamic;
  if (Verify != VerifySetting::Unset)
    Options.Verify = Verify == VerifySetting::On;
  Options.Limits.MaxRows = TableLimit;
  Options.Limits.MaxStepCalls = StepCallLimit;
  redistc::OutputOptions Output;
  Output.OutputFile = OutputFile;
  Output.DepFile = DepFile;
  Output.Report = Report;
  std::unique_ptr<CompilationDatabase> Compilations =
      loadCompilations(std::move(Flags), Sources[0]);
  if (!Compilations)
    return 1;
  return redistc::translateFile(*Compilations, Sources[0], Options, Output,
                                argv[0]);
}
