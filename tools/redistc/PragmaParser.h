//===- PragmaParser.h - The #pragma redist handler ------------------------===//
//
// Reads each `#pragma redist ...` line, checks the directive grammar and
// records a Directive. It then hands the embedded C++ expressions back to
// Clang's parser as one injected declaration,
//
//   static_assert(true || ((void)(E1), ..., (void)(En), true), "redistc");
//
// whose expression tokens keep their original source locations. Clang thus
// parses and type-checks every expression in the directive's own scope (and
// reports its own errors at the user's text). The expressions are never
// evaluated, yet they are potentially evaluated, so that Clang instantiates
// what they use (a static member of a template specialisation) and can fold
// them to constants. A static_assert is valid at namespace, class and block
// scope alike (directives in a class are refused here, before injection).
// Analysis finds the declaration again by its location, the directive's '#'.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_PRAGMAPARSER_H
#define REDISTC_PRAGMAPARSER_H

#include "Diagnostics.h"
#include "Directive.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Pragma.h"

#include <vector>

namespace redistc {

class RedistPragmaHandler : public clang::PragmaHandler {
public:
  RedistPragmaHandler(std::vector<Directive> &Directives, Diagnostics &Diags,
                      clang::CompilerInstance &CI)
      : clang::PragmaHandler("redist"), Directives(Directives), Diags(Diags),
        CI(CI) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

private:
  std::vector<Directive> &Directives;
  Diagnostics &Diags;
  /// For Sema's current context: a directive in a class is refused before
  /// its expressions are injected there.
  clang::CompilerInstance &CI;
};

} // namespace redistc

#endif // REDISTC_PRAGMAPARSER_H
