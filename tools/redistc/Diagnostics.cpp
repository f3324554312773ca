//===- Diagnostics.cpp - redistc's own diagnostics ------------------------===//

#include "Diagnostics.h"

using namespace clang;

namespace redistc {

Diagnostics::Diagnostics(DiagnosticsEngine &Engine) : Engine(Engine) {
  DiagnosticIDs &IDs = *Engine.getDiagnosticIDs();
#define REDISTC_DIAGNOSTIC(Name, Level, Text)                                  \
  Name = IDs.getCustomDiagID(DiagnosticIDs::Level, Text);
#include "Diagnostics.def"
}

} // namespace redistc
