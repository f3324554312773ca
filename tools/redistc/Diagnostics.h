//===- Diagnostics.h - redistc's own diagnostics --------------------------===//
//
// Every error redistc reports about a directive goes through Clang's
// DiagnosticsEngine, so that it prints like Clang's own: file:line:col, the
// source line and a caret. This table registers redistc's messages, listed in
// Diagnostics.def, as custom diagnostic ids.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_DIAGNOSTICS_H
#define REDISTC_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace redistc {

class Diagnostics {
public:
  explicit Diagnostics(clang::DiagnosticsEngine &Engine);

  clang::DiagnosticBuilder report(clang::SourceLocation Loc, unsigned ID) {
    return Engine.Report(Loc, ID);
  }
  bool hasErrors() const { return Engine.hasErrorOccurred(); }
  unsigned errorCount() const { return Engine.getNumErrors(); }

  // The id of each diagnostic, e.g. UnknownDirective.
#define REDISTC_DIAGNOSTIC(Name, Level, Text) unsigned Name;
#include "Diagnostics.def"

private:
  clang::DiagnosticsEngine &Engine;
};

} // namespace redistc

#endif // REDISTC_DIAGNOSTICS_H
