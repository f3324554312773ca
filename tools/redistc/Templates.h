//===- Templates.h - The code templates embedded in redistc ---------------===//
//
// The code redistc emits comes from templates/*.tpl, embedded into the tool
// at build time (cmake/EmbedTemplates.cmake), so that an installed redistc
// needs no files on disk. A template holds C++ text with {{KEY}} placeholders.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_TEMPLATES_H
#define REDISTC_TEMPLATES_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace redistc {

using TemplateValues = std::map<std::string, std::string>;

/// The text of templates/<Name>.tpl. Aborts on an unknown name (a bug).
llvm::StringRef templateText(llvm::StringRef Name);

/// templates/<Name>.tpl with every {{KEY}} replaced by Values[KEY]. Aborts
/// when a placeholder has no value (a bug in redistc, not in the input).
std::string renderTemplate(llvm::StringRef Name, const TemplateValues &Values);

} // namespace redistc

#endif // REDISTC_TEMPLATES_H
