//===- ToolRun.h - redistc's front end on a source buffer -----------------===//
//
// The unit tests run redistc's actions in process, on a file held in memory
// (/redistc-test/input.cpp, beside any headers the test gives), with the
// flags redistc adds on its own: C++17, Clang's builtin headers, no warnings.
// The fuzzer (test/fuzz) runs its inputs the same way.
// Every diagnostic is kept, as "LINE:COL: LEVEL: MESSAGE" with the name of
// redistc's diagnostic (Diagnostics.def), to compare with what a test
// expects.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_TEST_TOOLRUN_H
#define REDISTC_TEST_TOOLRUN_H

#include "Analysis.h"
#include "TranslateAction.h"

#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace redistc {
namespace test {

/// What a run is given besides the action.
struct Input {
  Input(std::string Code, std::map<std::string, std::string> Headers = {},
        std::vector<std::string> Args = {})
      : Code(std::move(Code)), Headers(std::move(Headers)),
        Args(std::move(Args)) {}

  std::string Code;
  /// Files beside the input, by name.
  std::map<std::string, std::string> Headers;
  /// More compiler flags.
  std::vector<std::string> Args;
  /// Whether the run reads no file on disk, only the input and Headers: for
  /// inputs that may name any file (the fuzzer, test/fuzz).
  bool GivenFilesOnly = false;
};

/// Each diagnostic of the run, in order: "NAME LINE:COL: LEVEL: MESSAGE",
/// where NAME is the member of Diagnostics or "clang" for Clang's own, and
/// FILE: precedes LINE for a location outside the input.
using Seen = std::vector<std::string>;

/// Runs Action on In. Errors, if given, gets the number of errors (fatal
/// ones included) the run reported.
Seen run(std::unique_ptr<clang::FrontendAction> Action, const Input &In,
         unsigned *Errors = nullptr);

/// Parses In with the pragma handler; Inspect gets the directives.
Seen parse(
    const Input &In,
    std::function<void(clang::ASTContext &, std::vector<Directive> &)> Inspect);

/// Parses and analyses In; Inspect gets the analysis when it succeeded.
Seen analyse(
    const Input &In,
    std::function<void(clang::ASTContext &, const Analysis &)> Inspect);

/// Translates In as redistc does; Errors as for run.
Seen translate(const Input &In, Translation &Out,
               CodeGenOptions Options = CodeGenOptions(),
               unsigned *Errors = nullptr);

/// The path the input has in the runs.
constexpr const char *InputPath = "/redistc-test/input.cpp";

/// LINE:COL of Loc.
std::string lineColumn(const clang::SourceManager &SM,
                       clang::SourceLocation Loc);

} // namespace test
} // namespace redistc

#endif // REDISTC_TEST_TOOLRUN_H
