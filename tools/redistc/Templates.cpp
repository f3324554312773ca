//===- Templates.cpp - The code templates embedded in redistc -------------===//

#include "Templates.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

namespace redistc {

namespace {

struct EmbeddedTemplate {
  const char *Name;
  const char *Text;
};

const EmbeddedTemplate Embedded[] = {
#include "RedistcTemplates.inc"
};

} // namespace

llvm::StringRef templateText(llvm::StringRef Name) {
  for (const EmbeddedTemplate &T : Embedded)
    if (Name == T.Name)
      return T.Text;
  llvm::report_fatal_error(llvm::Twine("redistc: no template named '") + Name +
                           "'");
}

std::string renderTemplate(llvm::StringRef Name, const TemplateValues &Values) {
  llvm::StringRef Text = templateText(Name);
  std::string Out;
  Out.reserve(Text.size());
  while (!Text.empty()) {
    size_t Open = Text.find("{{");
    if (Open == llvm::StringRef::npos) {
      Out += Text.str();
      break;
    }
    Out += Text.substr(0, Open).str();
    size_t Close = Text.find("}}", Open);
    if (Close == llvm::StringRef::npos)
      llvm::report_fatal_error(
          llvm::Twine("redistc: unterminated placeholder in template '") +
          Name + "'");
    std::string Key = Text.substr(Open + 2, Close - Open - 2).str();
    auto It = Values.find(Key);
    if (It == Values.end())
      llvm::report_fatal_error(llvm::Twine("redistc: template '") + Name +
                               "' needs a value for " + Key);
    Out += It->second;
    Text = Text.substr(Close + 2);
  }
  return Out;
}

} // namespace redistc
