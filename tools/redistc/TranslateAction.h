//===- TranslateAction.h - One file through redistc -----------------------===//
//
// The Clang frontend actions of redistc. DirectiveAction installs the
// #pragma redist handler, lets Clang parse the file and hands over the
// directives; TranslateAction, the one redistc runs, analyses them and
// assembles the translated text (prologue, then the file with each directive
// replaced). The result is kept in a Translation for the driver to write out.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_TRANSLATEACTION_H
#define REDISTC_TRANSLATEACTION_H

#include "CodeGen.h"
#include "Diagnostics.h"
#include "Directive.h"

#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace redistc {

/// Parses a file with the #pragma redist handler installed.
class DirectiveAction : public clang::ASTFrontendAction {
protected:
  /// Called once Clang has parsed the whole file, even after its errors.
  virtual void handleDirectives(clang::ASTContext &Ctx, Diagnostics &Diags,
                                std::vector<Directive> &Directives) = 0;

  bool BeginSourceFileAction(clang::CompilerInstance &CI) override;
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI,
                    llvm::StringRef InFile) override;

private:
  std::unique_ptr<Diagnostics> Diags;
  std::vector<Directive> Directives;
};

/// The outcome of translating one file.
struct Translation {
  bool Done = false; ///< the file was parsed and translated without error
  std::string Text;
  std::vector<std::string> Report;
};

/// Analyses the directives and, without errors, translates the file.
class TranslateAction : public DirectiveAction {
public:
  TranslateAction(const CodeGenOptions &Options, Translation &Result)
      : Options(Options), Result(Result) {}

protected:
  void handleDirectives(clang::ASTContext &Ctx, Diagnostics &Diags,
                        std::vector<Directive> &Directives) override;

private:
  const CodeGenOptions &Options;
  Translation &Result;
};

/// Creates the actions ClangTool runs; each fills Result.
std::unique_ptr<clang::tooling::FrontendActionFactory>
makeTranslateActionFactory(const CodeGenOptions &Options, Translation &Result);

} // namespace redistc

#endif // REDISTC_TRANSLATEACTION_H
