//===- RedistcFuzzer.cpp - libFuzzer target of redistc's front end -------===//
//
// Each input is a C++ source file that redistc translates in process, as its
// unit tests do (ToolRun.h): Clang parses it with the #pragma redist handler,
// the analysis checks the directives, and code generation writes the
// translation, on the static path and again with --dynamic. Nothing is read
// from disk: the usual headers are small stand-ins (StubHeaders.h).
//
// Besides crashes, leaks and sanitizer reports, the target checks redistc's
// one promise about its outcome: a file is translated exactly when no error
// was reported. A translation despite an error, or no translation and no
// error, aborts with the diagnostics.
//
// An input that asks for a longer overlap search than effort(2) is skipped:
// schedule(overlap, effort(N)) takes up to N times the bounded default, which
// is what it asks for, not a hang.
//
// Built with -DREDIST_FUZZ=ON by clang; scripts/fuzz-redistc.sh builds and
// runs it (test/fuzz/README.md).
//
//===----------------------------------------------------------------------===//

#include "StubHeaders.h"
#include "ToolRun.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace redistc;

namespace {

/// Translates Code with Options; aborts when the outcome and the
/// diagnostics disagree. Returns whether the file was translated.
bool translateChecked(const std::string &Code, CodeGenOptions Options) {
  test::Input In(Code, redist::fuzz::stubHeaders(),
                 {"-nostdinc", "-isystem", redist::fuzz::StubIncludeDir});
  In.GivenFilesOnly = true;
  Translation Out;
  unsigned Errors = 0;
  test::Seen Lines = test::translate(In, Out, Options, &Errors);
  if (Out.Done == (Errors != 0)) {
    std::fprintf(stderr, "redistc-fuzzer: %s%s\n",
                 Out.Done ? "translated despite an error"
                          : "not translated, and no error",
                 Options.ForceDynamic ? " (--dynamic)" : "");
    for (const std::string &Line : Lines)
      std::fprintf(stderr, "  %s\n", Line.c_str());
    std::abort();
  }
  return Out.Done && !Out.Report.empty();
}

/// Whether Code spells "effort", then '(' and a number above 2 (any case,
/// spaces between).
bool asksForLongSearch(const std::string &Code) {
  std::string Lower(Code);
  for (char &C : Lower)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  for (size_t At = Lower.find("effort"); At != std::string::npos;
       At = Lower.find("effort", At + 1)) {
    size_t I = At + 6;
    while (I < Lower.size() &&
           std::isspace(static_cast<unsigned char>(Lower[I])))
      ++I;
    if (I >= Lower.size() || Lower[I] != '(')
      continue;
    ++I;
    while (I < Lower.size() &&
           std::isspace(static_cast<unsigned char>(Lower[I])))
      ++I;
    size_t Digits = 0;
    unsigned Value = 0;
    for (;
         I < Lower.size() && std::isdigit(static_cast<unsigned char>(Lower[I]));
         ++I, ++Digits)
      Value = Digits < 8 ? Value * 10 + static_cast<unsigned>(Lower[I] - '0')
                         : Value;
    if (Digits > 1 || Value > 2)
      return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Code(reinterpret_cast<const char *>(Data), Size);
  if (asksForLongSearch(Code))
    return 0;
  // The dynamic path only where the static one translated directives: a
  // failing input fails the same way twice.
  if (translateChecked(Code, CodeGenOptions())) {
    CodeGenOptions Dynamic;
    Dynamic.ForceDynamic = true;
    translateChecked(Code, Dynamic);
  }
  return 0;
}
