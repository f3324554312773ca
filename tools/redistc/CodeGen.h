//===- CodeGen.h - The code that replaces each directive ------------------===//
//
// Turns each analysed directive into C++ from the embedded templates:
//   processors, distribute  declarations of the arrangement and of the
//                           variable's descriptor (its current distribution,
//                           extent and communicator);
//   redistribute, assign    static: constant tables of a schedule computed
//                           now with lib/, walked with one MPI_Sendrecv per
//                           step; dynamic: a call into the runtime.
// The replaced text is the directive's lines; #line directives map user
// expressions to the directive's line, generated code to the output file and
// the rest back to the input, so that every line keeps its number.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_CODEGEN_H
#define REDISTC_CODEGEN_H

#include "Diagnostics.h"
#include "Model.h"
#include "StaticTables.h"
#include "Templates.h"

#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <vector>

namespace redistc {

struct CodeGenOptions {
  /// Use the runtime for every redistribute and assign.
  bool ForceDynamic = false;
  /// --verify: the cross-rank check of directives without a verify clause;
  /// unset, the program's redist::directiveOptions().Verify decides.
  std::optional<bool> Verify;
  StaticLimits Limits;
  /// The cost model auto weighs the static path's schedules with (--model);
  /// dynamic directives use the runtime's (REDIST_MODEL at run time).
  redist::CostModel Model;
  /// The input as the #line directives name it, and the output file.
  std::string InputPath;
  std::string OutputPath;
};

/// The replacement of one directive.
struct GeneratedDirective {
  /// File offsets of the replaced text: the '#' up to the end of the line.
  unsigned Begin = 0;
  unsigned End = 0;
  /// The code; OutputLineMarker stands for "the output line after this one".
  std::string Code;
  /// The --report line.
  std::string Report;
};

/// Placeholder the caller replaces with an output line number.
constexpr const char *OutputLineMarker = "@REDISTC_OUTPUT_LINE@";

class CodeGen {
public:
  CodeGen(const clang::SourceManager &SM, Diagnostics &Diags,
          const CodeGenOptions &Options)
      : SM(SM), Diags(Diags), Options(Options) {}

  /// Code for every directive, in order; false after reporting an error.
  bool generate(const std::vector<AnalysedDirective> &Directives,
                std::vector<GeneratedDirective> &Out);

  /// The text inserted before the first line of the file.
  std::string prologue() const;

private:
  bool generateOne(const AnalysedDirective &AD, GeneratedDirective &Out);
  void processors(const ArrangementInfo &A, GeneratedDirective &Out);
  void distribute(const DistributionInfo &Dist, GeneratedDirective &Out);
  std::string checkedDistribution(const DistributionInfo &Dist,
                                  const std::string &Extent,
                                  const std::string &Comm) const;
  void inquire(const InquiryInfo &I, GeneratedDirective &Out);
  bool action(const ActionInfo &A, const std::vector<InstanceAction> &Instances,
              GeneratedDirective &Out);
  void rebalance(const RebalanceInfo &R, GeneratedDirective &Out);
  // Arrays of rank 2 or more and their arrangements (CodeGenArray.cpp).
  void arrayProcessors(const ArrangementInfo &A, GeneratedDirective &Out);
  void arrayDistribute(const DistributionInfo &Dist, GeneratedDirective &Out);
  void arrayInquire(const InquiryInfo &I, GeneratedDirective &Out);
  bool arrayAction(const ActionInfo &A,
                   const std::vector<InstanceAction> &Instances,
                   GeneratedDirective &Out);
  /// As plan() and actionValues() for the N-D path.
  bool arrayPlan(const ActionInfo &A, bool InInstance,
                 std::optional<StaticTables> &Tables, std::string &Why);
  TemplateValues arrayActionValues(const ActionInfo &A) const;
  void addArrayStaticValues(const ActionInfo &A, const StaticTables &Tables,
                            TemplateValues &V);
  /// A's static tables in Tables, or why there are none in Why; false after
  /// reporting an error (never InInstance).
  bool plan(const ActionInfo &A, bool InInstance,
            std::optional<StaticTables> &Tables, std::string &Why);
  /// What Plan, tried for directive D with Algorithm, means: Tables, or
  /// Why the runtime plans instead; false after reporting an error (never
  /// InInstance).
  bool takePlan(const Directive &D, const std::string &Algorithm,
                bool InInstance, StaticPlan &Plan,
                std::optional<StaticTables> &Tables, std::string &Why);
  TemplateValues actionValues(const ActionInfo &A) const;
  void addStaticValues(const ActionInfo &A, const StaticTables &Tables,
                       TemplateValues &V) const;
  static std::string algorithmName(const Directive &D);
  std::string verification(const Directive &D) const;
  static std::string title(const ActionInfo &A);
  static std::string staticReport(const StaticTables &Tables);
  static std::string dynamicReport(const ActionInfo &A, const std::string &Why);
  /// The static code of dynamic action A in each of Instances (its function
  /// template's instantiations) that has tables, as branches chosen at
  /// compile time, each body from template StaticBody; each instance's
  /// --report line is added to Report.
  std::string instanceBranches(const ActionInfo &A,
                               const std::vector<InstanceAction> &Instances,
                               const std::string &StaticBody,
                               std::string &Report);

  std::string location(clang::SourceLocation Loc) const;
  std::string where(const Directive &D) const;
  std::string indentation(const Directive &D) const;
  TemplateValues commonValues(const Directive &D) const;

  const clang::SourceManager &SM;
  Diagnostics &Diags;
  const CodeGenOptions &Options;
};

} // namespace redistc

#endif // REDISTC_CODEGEN_H
