//===- redistc.cpp - The #pragma redist translator ------------------------===//
//
// redistc in.cpp -o out.cpp [-p build-dir] [--report] [--dynamic]
//         [--model FILE] [-- flags]
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

#include "redist/CostModel.h"
#include "redist/Error.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
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
    "redistribute, assign) into MPI code. Compiler flags come from a\n"
    "compilation database (-p) or follow '--'. Clang's builtin headers, MPI's\n"
    "headers and redist's headers are found without flags.\n");

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
  Options.Limits.MaxRows = TableLimit;
  Options.Limits.MaxStepCalls = StepCallLimit;
  redistc::OutputOptions Output;
  Output.OutputFile = OutputFile;
  Output.DepFile = DepFile;
  Output.Report = Report;
  return redistc::translateFile(Parser->getCompilations(), Sources[0], Options,
                                Output, argv[0]);
}
