//===- ToolRun.cpp - redistc's front end on a source buffer ---------------===//

#include "ToolRun.h"

#include "RedistcConfig.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <utility>

using namespace clang;

namespace redistc {
namespace test {

namespace {

/// The name of redistc's diagnostic with id ID in Engine, or "clang".
std::string diagnosticName(const DiagnosticsEngine &Engine, unsigned ID) {
  // The ids are registered once per engine: this finds the same ones.
  Diagnostics Ids(const_cast<DiagnosticsEngine &>(Engine));
#define REDISTC_DIAGNOSTIC(Name, Level, Text)                                  \
  if (Ids.Name == ID)                                                          \
    return #Name;
#include "Diagnostics.def"
  return "clang";
}

const char *levelName(DiagnosticsEngine::Level Level) {
  switch (Level) {
  case DiagnosticsEngine::Ignored:
    return "ignored";
  case DiagnosticsEngine::Note:
    return "note";
  case DiagnosticsEngine::Remark:
    return "remark";
  case DiagnosticsEngine::Warning:
    return "warning";
  case DiagnosticsEngine::Error:
    return "error";
  case DiagnosticsEngine::Fatal:
    return "fatal error";
  }
  return "?";
}

/// Keeps every diagnostic as a line of Seen.
class Collector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::SmallString<256> Message;
    Info.FormatDiagnostic(Message);
    std::string Line = diagnosticName(*Info.getDiags(), Info.getID()) + " ";
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      SourceLocation Loc = SM.getExpansionLoc(Info.getLocation());
      if (SM.getFileID(Loc) != SM.getMainFileID())
        Line += llvm::sys::path::filename(SM.getFilename(Loc)).str() + ":";
      Line += lineColumn(SM, Loc) + ": ";
    }
    Lines.push_back(Line + levelName(Level) + ": " + Message.str().str());
  }

  Seen Lines;
};

/// Hands the parsed directives to a function.
class InspectAction : public DirectiveAction {
public:
  using Handler = std::function<void(ASTContext &, Diagnostics &,
                                     std::vector<Directive> &)>;
  explicit InspectAction(Handler Handle) : Handle(std::move(Handle)) {}

protected:
  void handleDirectives(ASTContext &Ctx, Diagnostics &Diags,
                        std::vector<Directive> &Directives) override {
    Handle(Ctx, Diags, Directives);
  }

private:
  Handler Handle;
};

bool hasPrefix(const std::vector<std::string> &Args, llvm::StringRef Prefix) {
  for (const std::string &A : Args)
    if (llvm::StringRef(A).startswith(Prefix))
      return true;
  return false;
}

} // namespace

std::string lineColumn(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  return std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
}

Seen run(std::unique_ptr<FrontendAction> Action, const Input &In,
         unsigned *Errors) {
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Files = Memory;
  if (!In.GivenFilesOnly) {
    auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        llvm::vfs::getRealFileSystem());
    Overlay->pushOverlay(Memory);
    Files = Overlay;
  }
  Memory->addFile(InputPath, 0, llvm::MemoryBuffer::getMemBufferCopy(In.Code));
  llvm::StringRef Dir = llvm::sys::path::parent_path(InputPath);
  for (const auto &Header : In.Headers)
    Memory->addFile(Dir.str() + "/" + Header.first, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(Header.second));
  auto Manager = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(),
                                                        std::move(Files));

  // As redistc does (Driver.cpp): C++17 unless told otherwise, Clang's
  // builtin headers, no warnings.
  std::vector<std::string> Args = {"redistc", "-fsyntax-only",
                                   std::string("-resource-dir=") + ResourceDir};
  if (!hasPrefix(In.Args, "-std=") && !hasPrefix(In.Args, "-x"))
    Args.push_back("-std=c++17");
  Args.insert(Args.end(), In.Args.begin(), In.Args.end());
  Args.push_back("-w");
  // Without the caret, Clang does not print its count of errors.
  Args.push_back("-fno-caret-diagnostics");
  Args.push_back(InputPath);

  Collector Diags;
  tooling::ToolInvocation Invocation(Args, std::move(Action), Manager.get());
  Invocation.setDiagnosticConsumer(&Diags);
  Invocation.run();
  if (Errors)
    *Errors = Diags.getNumErrors();
  return Diags.Lines;
}

Seen parse(
    const Input &In,
    std::function<void(ASTContext &, std::vector<Directive> &)> Inspect) {
  return run(
      std::make_unique<InspectAction>([&](ASTContext &Ctx, Diagnostics &,
                                          std::vector<Directive> &Directives) {
        Inspect(Ctx, Directives);
      }),
      In);
}

Seen analyse(const Input &In,
             std::function<void(ASTContext &, const Analysis &)> Inspect) {
  bool Failed = false;
  Seen Lines = run(
      std::make_unique<InspectAction>([&](ASTContext &Ctx, Diagnostics &Diags,
                                          std::vector<Directive> &Directives) {
        Analysis A(Ctx, Diags, Directives);
        if (!A.run() || Diags.hasErrors()) {
          Failed = true;
          return;
        }
        Inspect(Ctx, A);
      }),
      In);
  // An analysis may fail without a message of its own (after Clang's).
  if (Failed)
    Lines.push_back("test the analysis failed");
  return Lines;
}

Seen translate(const Input &In, Translation &Out, CodeGenOptions Options,
               unsigned *Errors) {
  Options.InputPath = InputPath;
  if (Options.OutputPath.empty())
    Options.OutputPath = "/redistc-test/output.cpp";
  return run(std::make_unique<TranslateAction>(Options, Out), In, Errors);
}

} // namespace test
} // namespace redistc
