//===- ToolCommandLine.h - A tool's command line, libLLVM's options hidden ===//
//
// redist's tools and benchmarks read their command line with LLVM's
// CommandLine library. libLLVM registers hundreds of options of its own in
// the same registry (every backend's: --aarch64-neon-syntax, --amdgpu-...),
// and --help would list them all. So each tool puts its options in an
// option category of its own and parses with parseToolCommandLine, whose
// --help shows only that category and LLVM's generic options (--help,
// --version).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_COMMON_TOOLCOMMANDLINE_H
#define REDIST_TOOLS_COMMON_TOOLCOMMANDLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace redist::tools {

/// llvm::cl::ParseCommandLineOptions, after hiding from --help every option
/// outside Category, at the top level and in every subcommand. Hidden
/// options still parse (--help-hidden lists them).
inline bool parseToolCommandLine(int Argc, const char *const *Argv,
                                 llvm::cl::OptionCategory &Category,
                                 llvm::StringRef Overview = "",
                                 llvm::raw_ostream *Errs = nullptr) {
  for (llvm::cl::SubCommand *Sub : llvm::cl::getRegisteredSubcommands())
    llvm::cl::HideUnrelatedOptions(Category, *Sub);
  return llvm::cl::ParseCommandLineOptions(Argc, Argv, Overview, Errs);
}

} // namespace redist::tools

#endif // REDIST_TOOLS_COMMON_TOOLCOMMANDLINE_H
