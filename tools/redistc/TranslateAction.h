//===- TranslateAction.h - One file through redistc -----------------------===//
//
// The Clang frontend action of redistc: it installs the #pragma redist
// handler, lets Clang parse the file, analyses the directives, and assembles
// the translated text (prologue, then the file with each directive replaced).
// The result is kept in a Translation for the driver to write out.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_TRANSLATEACTION_H
#define REDISTC_TRANSLATEACTION_H

#include "CodeGen.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace redistc {

/// The outcome of translating one file.
struct Translation {
  bool Done = false; ///< the file was parsed and translated without error
  std::string Text;
  std::vector<std::string> Report;
};

/// Creates the actions ClangTool runs; each fills Result.
std::unique_ptr<clang::tooling::FrontendActionFactory>
makeTranslateActionFactory(const CodeGenOptions &Options, Translation &Result);

} // namespace redistc

#endif // REDISTC_TRANSLATEACTION_H
