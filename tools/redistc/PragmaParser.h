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
// scope alike. A directive directly in a class is refused here, before
// injection, where that is certain; one in a member function defined in its
// class is read while Sema is still in the class (Clang parses the body
// later), and is injected. Analysis finds the declaration again by its
// location, the directive's '#', and places it by where Clang put it.
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
  /// For Sema's current context: a directive directly in a class is refused
  /// before its expressions are injected there.
  clang::CompilerInstance &CI;
};

} // namespace redistc

#endif // REDISTC_PRAGMAPARSER_H
