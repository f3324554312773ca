//===- Driver.cpp - One run of redistc ------------------------------------===//

#include "Driver.h"

#include "RedistcConfig.h"
#include "TranslateAction.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace clang::tooling;

namespace redistc {

namespace {

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
  for (const char *const *D = BuildIncludeDirs; *D; ++D)
    Dirs.push_back(*D);
  return Dirs;
}

} // namespace

int translateFile(const CompilationDatabase &Compilations,
                  llvm::StringRef Source, CodeGenOptions Options,
                  const OutputOptions &Output, const char *Argv0) {
  ClangTool Tool(Compilations, {std::string(Source)});
  // Clang's builtin headers from the clang this tool was built against.
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args,
                                  llvm::StringRef File) {
    CommandLineArguments Out = Args;
    std::vector<std::string> Front;
    if (!hasArgument(Args, "-resource-dir"))
      Front.push_back(std::string("-resource-dir=") + ResourceDir);
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
  for (const char *const *D = MPIIncludeDirs; *D; ++D) {
    Back.push_back("-isystem");
    Back.push_back(*D);
  }
  for (const std::string &D : redistIncludeDirs(Argv0)) {
    Back.push_back("-isystem");
    Back.push_back(D);
  }
  Back.push_back("-w");

  const std::string &OutputFile = Output.OutputFile;
  llvm::SmallString<256> Input(Source);
  llvm::sys::fs::make_absolute(Input);
  llvm::SmallString<256> OutputPath(OutputFile);
  if (OutputFile != "-")
    llvm::sys::fs::make_absolute(OutputPath);
  // Clang writes the dependencies of the parse (after ClangTool's own
  // adjusters, which strip the user's -M flags).
  if (!Output.DepFile.empty()) {
    for (const char *Flag : {"-MD", "-MF"})
      Back.push_back(Flag);
    Back.push_back(Output.DepFile);
    Back.push_back("-MT");
    Back.push_back(OutputFile == "-" ? "-" : std::string(OutputPath));
  }
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(Back, ArgumentInsertPosition::END));

  Options.InputPath = std::string(Input);
  Options.OutputPath = OutputFile == "-" ? "<stdout>" : std::string(OutputPath);

  Translation Result;
  int Status = Tool.run(makeTranslateActionFactory(Options, Result).get());
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
  // The temporary file was made executable; a source file is not: 0666
  // less the umask, as a compiler's output would be.
  if (OutputFile != "-")
    llvm::sys::fs::setPermissions(
        OutputFile, static_cast<llvm::sys::fs::perms>(
                        (llvm::sys::fs::all_read | llvm::sys::fs::all_write) &
                        ~llvm::sys::fs::getUmask()));
  if (Output.Report) {
    llvm::raw_ostream &OS = OutputFile == "-" ? llvm::errs() : llvm::outs();
    for (const std::string &Line : Result.Report)
      OS << Line << "\n";
  }
  return 0;
}

} // namespace redistc
