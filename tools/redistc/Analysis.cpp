//===- Analysis.cpp - What the directives mean ----------------------------===//
//
// The order of the passes; each pass is in the file Analysis.h names.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

using namespace clang;

namespace redistc {

Analysis::Analysis(ASTContext &Ctx, Diagnostics &Diags,
                   std::vector<Directive> &Directives)
    : Ctx(Ctx), Diags(Diags), Directives(Directives) {}

Analysis::Analysis(ASTContext &Ctx, Diagnostics &Diags,
                   std::vector<Directive> &Directives, const Analysis &Parent,
                   const FunctionDecl &Instance)
    : Ctx(Ctx), Diags(Diags), Directives(Directives), Parent(&Parent),
      Instance(&Instance) {}

Analysis::~Analysis() = default;

DiagnosticBuilder Analysis::error(SourceLocation Loc, unsigned ID) {
  Failed = true;
  return Diags.report(Loc, ID);
}

bool Analysis::run() {
  if (Directives.empty())
    return true;
  findMPICommType();
  bool Bound = bindSlots();
  if (!checkPlacement() || !Bound)
    return false;
  Results.resize(Directives.size());
  for (size_t I = 0; I < Directives.size(); ++I) {
    Results[I].D = &Directives[I];
    switch (Directives[I].Kind) {
    case DirectiveKind::Processors:
      analyseProcessors(Directives[I]);
      break;
    case DirectiveKind::Distribute:
      analyseDistribute(Directives[I]);
      break;
    case DirectiveKind::Redistribute:
    case DirectiveKind::Assign:
      analyseAction(Directives[I]);
      break;
    case DirectiveKind::Rebalance:
      analyseRebalance(Directives[I]);
      break;
    case DirectiveKind::Inquire:
      analyseInquiry(Directives[I]);
      break;
    }
  }
  trackDistributions();
  trackArrays();
  if (!Parent && !Failed && !Diags.hasErrors())
    analyseInstances();
  return !Failed && !Diags.hasErrors();
}

} // namespace redistc
