//===- TranslateAction.cpp - One file through redistc ---------------------===//

#include "TranslateAction.h"

#include "Analysis.h"
#include "Diagnostics.h"
#include "PragmaParser.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace redistc {

namespace {

/// Runs once the whole file is parsed.
class TranslateConsumer : public ASTConsumer {
public:
  TranslateConsumer(std::vector<Directive> &Directives, Diagnostics &Diags,
                    const CodeGenOptions &Options, Translation &Result)
      : Directives(Directives), Diags(Diags), Options(Options), Result(Result) {
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
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

private:
  std::vector<Directive> &Directives;
  Diagnostics &Diags;
  const CodeGenOptions &Options;
  Translation &Result;
};

class TranslateAction : public ASTFrontendAction {
public:
  TranslateAction(const CodeGenOptions &Options, Translation &Result)
      : Options(Options), Result(Result) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
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

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<TranslateConsumer>(Directives, *Diags, Options,
                                               Result);
  }

private:
  const CodeGenOptions &Options;
  Translation &Result;
  std::unique_ptr<Diagnostics> Diags;
  std::vector<Directive> Directives;
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

std::unique_ptr<tooling::FrontendActionFactory>
makeTranslateActionFactory(const CodeGenOptions &Options, Translation &Result) {
  return std::make_unique<TranslateActionFactory>(Options, Result);
}

} // namespace redistc
