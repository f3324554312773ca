//===- Analysis.h - What the directives mean ------------------------------===//
//
// After Clang has parsed the file (with the injected static_asserts of
// PragmaParser), Analysis makes the model of Model.h of the directives and
// reports every semantic error through Diagnostics. Its jobs, one file each:
//   AnalysisBinding.cpp    each directive's expressions to Clang's Exprs, its
//                          names to the declarations in scope, and where it
//                          sits (namespace or block, the region where the
//                          names it declares are visible);
//   AnalysisTypes.cpp      the kind of each variable (std::vector, pointer or
//                          array) and its element type; MPI_Comm for comm();
//   AnalysisConstants.cpp  the value of every parameter Clang can evaluate;
//   AnalysisChecks.cpp     the rules each directive must follow; a directive
//                          that follows them enters the model;
//   AnalysisFlow.cpp       the distribution each variable has before each
//                          action, where the source proves it;
//   AnalysisInstances.cpp  the dynamic actions of a function template,
//                          analysed again in each of its instantiations.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_ANALYSIS_H
#define REDISTC_ANALYSIS_H

#include "Diagnostics.h"
#include "Directive.h"
#include "Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace redistc {

class Analysis {
public:
  Analysis(clang::ASTContext &Ctx, Diagnostics &Diags,
           std::vector<Directive> &Directives);
  /// Analyses Directives again, those in Instance's template read from that
  /// instantiation of it (Parent analysed the template).
  Analysis(clang::ASTContext &Ctx, Diagnostics &Diags,
           std::vector<Directive> &Directives, const Analysis &Parent,
           const clang::FunctionDecl &Instance);
  ~Analysis();

  /// Analyses every directive; returns false after reporting an error.
  bool run();

  /// In directive order; only meaningful when run() succeeded.
  const std::vector<AnalysedDirective> &results() const { return Results; }

private:
  /// Reports an error of the input; run() then fails.
  clang::DiagnosticBuilder error(clang::SourceLocation Loc, unsigned ID);

  // Binding (AnalysisBinding.cpp).
  bool bindSlots();
  bool placeDirective(const Directive &D, const clang::StaticAssertDecl &SA,
                      const clang::DeclStmt *Stmt, Placement &P) const;
  const clang::ValueDecl *boundVariable(const ExprSlot &S);
  const ArrangementInfo *findArrangement(const NameRef &Name, unsigned At);
  DistributionInfo *findDistribution(const clang::ValueDecl *Decl, unsigned At);
  unsigned offsetOf(clang::SourceLocation Loc) const;

  // Types (AnalysisTypes.cpp).
  void findMPICommType();
  std::optional<VariableInfo> variableSlot(const Directive &D, int Slot);
  bool checkComm(const Directive &D);
  static const clang::ClassTemplateSpecializationDecl *
  stdTemplate(clang::QualType T, llvm::StringRef Name);
  static clang::QualType sequenceElementType(clang::QualType T,
                                             const clang::ASTContext &Ctx,
                                             std::optional<int64_t> &Count);

  // Constant evaluation (AnalysisConstants.cpp).
  std::optional<int64_t> integerSlot(const Directive &D, int Slot,
                                     const char *What);
  std::optional<FormatValue> formatOf(const Directive &D,
                                      const FormatSpec &Spec);
  std::optional<FormatValue> genBlockOf(const ExprSlot &S, FormatValue F);
  std::optional<CostsValue> costsOf(const Directive &D, const CostsSpec &C,
                                    const char *What);
  bool reportComma(const clang::Expr *E, llvm::StringRef What);
  bool reportUndefined(const clang::Expr *E, const ExprSlot &S,
                       llvm::StringRef What);

  // Checks (AnalysisChecks.cpp).
  bool checkPlacement();
  void analyseProcessors(Directive &D);
  void analyseDistribute(Directive &D);
  void analyseAction(Directive &D);
  void analyseRebalance(Directive &D);
  bool checkTarget(const Directive &D, const VariableInfo &Var);
  bool checkRingOptions(const Directive &D, const ArrangementInfo *Onto);
  void analyseInquiry(Directive &D);
  bool checkFormat(const FormatValue &F, const FormatSpec &Spec,
                   std::optional<int64_t> Procs, std::optional<int64_t> Extent,
                   const std::string &VarName,
                   const std::string &ArrangementName, const Directive &D,
                   int Dim = -1, int Rank = 1);
  bool checkOneDimension(const Directive &D, const ArrangementInfo *Onto,
                         const std::string &VarText);

  // Arrays of any rank (AnalysisArray.cpp).
  bool analyseArrayDistribute(const Directive &D, DistributionInfo &Dist);
  bool analyseArrayAction(const Directive &D, ActionInfo &A);
  bool checkArrayFormats(const Directive &D,
                         const std::vector<std::optional<FormatValue>> &Formats,
                         const std::vector<std::optional<int64_t>> &Extents,
                         const ArrangementInfo *Onto,
                         const std::string &VarText);
  bool checkRegion(const Directive &D, ActionInfo &A);
  void trackArrays();

  // Flow tracking (AnalysisFlow.cpp).
  void trackDistributions();
  bool sameStraightLineBlock(const Placement &A, const Placement &B) const;

  // Instantiations (AnalysisInstances.cpp).
  void analyseInstances();

  clang::ASTContext &Ctx;
  Diagnostics &Diags;
  std::vector<Directive> &Directives;
  std::vector<Placement> Places;
  /// Whether each directive's declaration was found and placed.
  std::vector<bool> Placed;
  clang::QualType MPICommType;
  bool Failed = false;

  std::vector<std::unique_ptr<ArrangementInfo>> Arrangements;
  std::vector<std::unique_ptr<DistributionInfo>> Distributions;
  std::vector<std::unique_ptr<ActionInfo>> Actions;
  std::vector<std::unique_ptr<RebalanceInfo>> Rebalances;
  std::vector<std::unique_ptr<InquiryInfo>> Inquiries;
  std::vector<AnalysedDirective> Results;

  const Analysis *Parent = nullptr;
  const clang::FunctionDecl *Instance = nullptr;
  /// Each directive's injected static_assert and its statement, by index.
  llvm::DenseMap<size_t, const clang::StaticAssertDecl *> FoundDecls;
  llvm::DenseMap<size_t, const clang::DeclStmt *> FoundStmts;
  /// The analysis of an instantiation, quiet, which Results point into.
  struct InstanceData {
    /// A copy of the directives, their expressions bound in the instance.
    std::vector<Directive> Directives;
    std::unique_ptr<clang::DiagnosticConsumer> Errors;
    std::unique_ptr<clang::DiagnosticsEngine> Engine;
    std::unique_ptr<Diagnostics> Diags;
    std::unique_ptr<Analysis> A;
  };
  std::vector<std::unique_ptr<InstanceData>> InstanceAnalyses;
};

} // namespace redistc

#endif // REDISTC_ANALYSIS_H
