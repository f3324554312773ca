//===- Driver.h - One run of redistc --------------------------------------===//
//
// What redistc does once its command line is read: it runs Clang over the
// input with the flags of the compilation database and what redistc finds on
// its own (Clang's builtin headers, MPI's and redist's headers), then writes
// the translation, the dependency file and the report.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_DRIVER_H
#define REDISTC_DRIVER_H

#include "CodeGen.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace redistc {

/// Where the results of a run go.
struct OutputOptions {
  /// The translation: a file, or "-" for standard output.
  std::string OutputFile = "-";
  /// Also write the headers the input includes there, as a Makefile rule for
  /// the output (none when empty).
  std::string DepFile;
  /// Print one line per directive: to standard output, or to standard error
  /// when the translation goes to standard output.
  bool Report = false;
};

/// Translates Source, compiled with the flags Compilations has for it, and
/// writes the results; returns redistc's exit status. The paths in Options
/// are set here. Argv0 locates the redist headers of an installed redistc.
int translateFile(const clang::tooling::CompilationDatabase &Compilations,
                  llvm::StringRef Source, CodeGenOptions Options,
                  const OutputOptions &Output, const char *Argv0);

} // namespace redistc

#endif // REDISTC_DRIVER_H
