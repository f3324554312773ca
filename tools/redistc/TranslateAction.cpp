//===- TranslateAction.cpp - One file through redistc ---------------------===//

#include "TranslateAction.h"

#include "Analysis.h"
#include "PragmaParser.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"

#include <algorithm>
#include <cstring>
#include <functional>

using namespace clang;

namespace redistc {

namespace {

/// Hands the directives over once the whole file is parsed.
class DirectiveConsumer : public ASTConsumer {
public:
  explicit DirectiveConsumer(std::function<void(ASTContext &)> Parsed)
      : Parsed(std::move(Parsed)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override { Parsed(Ctx); }

private:
  std::function<void(ASTContext &)> Parsed;
};

class TranslateActionFactory : public tooling::FrontendActionFactory {
public:
  TranslateActionFactory(const CodeGenOptions &Options, Translation &Result)
      : Options(Options), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<TranslateAction>(Options, Result);
  }

private:
  const CodeGenOptions &Options;
  Translation &Result;
};

} // namespace

bool DirectiveAction::BeginSourceFileAction(CompilerInstance &CI) {
  Diags = std::make_unique<Diagnostics>(CI.getDiagnostics());
  if (!CI.getLangOpts().CPlusPlus) {
    CI.getDiagnostics().Report(Diags->NotCxx);
    return false;
  }
  // The preprocessor owns the handler.
  CI.getPreprocessor().AddPragmaHandler(
      new RedistPragmaHandler(Directives, *Diags, CI));
  return true;
}

std::unique_ptr<ASTConsumer>
DirectiveAction::CreateASTConsumer(CompilerInstance &, llvm::StringRef) {
  return std::make_unique<DirectiveConsumer>(
      [this](ASTContext &Ctx) { handleDirectives(Ctx, *Diags, Directives); });
}

void TranslateAction::handleDirectives(ASTContext &Ctx, Diagnostics &Diags,
                                       std::vector<Directive> &Directives) {
  // Analysed even after Clang's errors, to report the directives' own;
  // translated only without any.
  Analysis A(Ctx, Diags, Directives);
  if (!A.run() || Diags.hasErrors())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  CodeGen Gen(SM, Diags, Options);
  std::vector<GeneratedDirective> Generated;
  if (!Gen.generate(A.results(), Generated) || Diags.hasErrors())
    return;

  // An untouched file stays byte for byte the same.
  llvm::StringRef Input = SM.getBufferData(SM.getMainFileID());
  if (Generated.empty()) {
    Result.Text = Input.str();
    Result.Done = true;
    return;
  }
  std::string Out = Gen.prologue();
  size_t Lines = static_cast<size_t>(llvm::count(Out, '\n'));
  unsigned Pos = 0;
  for (const GeneratedDirective &G : Generated) {
    llvm::StringRef Kept = Input.slice(Pos, G.Begin);
    Out += Kept.str();
    Lines += static_cast<size_t>(Kept.count('\n'));
    // "#line N": N is the number of the line after the marker's line.
    std::string Code = G.Code;
    size_t Marker;
    while ((Marker = Code.find(OutputLineMarker)) != std::string::npos) {
      size_t Before = Lines + static_cast<size_t>(std::count(
                                  Code.begin(), Code.begin() + Marker, '\n'));
      Code.replace(Marker, std::strlen(OutputLineMarker),
                   std::to_string(Before + 2));
    }
    Out += Code;
    Lines += static_cast<size_t>(std::count(Code.begin(), Code.end(), '\n'));
    Pos = G.End;
    Result.Report.push_back(G.Report);
  }
  Out += Input.substr(Pos).str();
  Result.Text = std::move(Out);
  Result.Done = true;
}

std::unique_ptr<tooling::FrontendActionFactory>
makeTranslateActionFactory(const CodeGenOptions &Options, Translation &Result) {
  return std::make_unique<TranslateActionFactory>(Options, Result);
}

} // namespace redistc
