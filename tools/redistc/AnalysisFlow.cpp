//===- AnalysisFlow.cpp - The distribution before each action -------------===//
//
// Which distribution a variable has when control reaches a redistribute or
// assign: the one its previous directive set, when the source proves that
// control always came through that directive (the same block, no label or
// case between them, and no directive on the variable in another function).
// Where that holds and every parameter is constant, the action can use the
// static path; otherwise ActionInfo::NotConstant says why not.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace redistc {

namespace {

/// Finds labels: a jump target between two directives breaks the straight
/// line between them.
class LabelFinder : public RecursiveASTVisitor<LabelFinder> {
public:
  bool VisitLabelStmt(LabelStmt *) {
    Found = true;
    return false;
  }
  bool VisitSwitchCase(SwitchCase *) {
    Found = true;
    return false;
  }
  bool Found = false;
};

} // namespace

// Whether control that reaches B has always come through A: A and B are
// statements of one block, A first, with no label or case between them.
bool Analysis::sameStraightLineBlock(const Placement &A,
                                     const Placement &B) const {
  if (!A.Block || A.Block != B.Block || A.IndexInBlock < 0 ||
      B.IndexInBlock <= A.IndexInBlock)
    return false;
  auto Body = A.Block->body();
  for (int I = A.IndexInBlock + 1; I < B.IndexInBlock; ++I) {
    LabelFinder Labels;
    Labels.TraverseStmt(const_cast<Stmt *>(Body.begin()[I]));
    if (Labels.Found)
      return false;
  }
  return true;
}

// The distribution of each variable before each action, where the source
// proves it, and the checks that need it.
void Analysis::trackDistributions() {
  // The latest change of each distributed variable: what it set, or why that
  // is not known at translation time.
  struct Change {
    const Placement *Where;
    std::optional<redist::Distribution> After;
    std::string WhyUnknown;
  };
  auto formatWhy = [](const FormatValue &F, std::optional<int64_t> Procs,
                      const std::string &ProcsName) -> std::string {
    if (!F.isConstant())
      return "'" + F.ArgText + "' is not a constant";
    if (!Procs)
      return "the number of processes of '" + ProcsName + "' is not a constant";
    return "";
  };
  llvm::DenseMap<const DistributionInfo *, Change> Latest;
  for (const auto &Dist : Distributions)
    if (!Dist->isArray())
      Latest[Dist.get()] = Change{&Dist->Where, Dist->Declared,
                                  formatWhy(Dist->Format, Dist->Onto->Extent,
                                            Dist->Onto->D->Arrangement.Name)};
  // The distribution of Dist's variable at At, or why it is not known.
  auto current = [&](const DistributionInfo *Dist, const Placement &At,
                     std::string &Why) -> std::optional<redist::Distribution> {
    const Change &C = Latest.find(Dist)->second;
    if (Dist->Escapes || !sameStraightLineBlock(*C.Where, At)) {
      Why = "the distribution of '" + Dist->Var.Text +
            "' is only known at run time";
      return std::nullopt;
    }
    Why = C.WhyUnknown;
    return C.After;
  };

  // Without onto, a redistribute keeps the current number of processes: the
  // distribute's, unless some redistribute of the variable moves it onto an
  // arrangement of another (or unknown) size.
  llvm::DenseSet<const DistributionInfo *> ProcsMayChange;
  for (const auto &A : Actions)
    if (!A->ArrayPath && A->Onto && A->D->Kind == DirectiveKind::Redistribute &&
        (!A->Onto->Extent || A->Onto->Extent != A->Target->Onto->Extent))
      ProcsMayChange.insert(A->Target);

  for (const auto &A : Actions) {
    if (A->ArrayPath) {
      // A 1-D array on either side of an assign on the N-D path: its
      // distribution here (trackArrays makes it the rank-1 array), or why it
      // is not known, the source's first.
      if (A->isAssign()) {
        std::string SourceWhy, TargetWhy;
        if (!A->Source->isArray())
          A->From = current(A->Source, A->Where, SourceWhy);
        if (!A->Target->isArray())
          A->To = current(A->Target, A->Where, TargetWhy);
        A->NotConstant = SourceWhy.empty() ? TargetWhy : SourceWhy;
      }
      continue; // trackArrays
    }
    const Directive &D = *A->D;
    const std::string &VarText = A->TargetVar.Text;
    std::string FromWhy, ToWhy;
    if (D.Kind == DirectiveKind::Assign) {
      A->From = current(A->Source, A->Where, FromWhy);
      A->To = current(A->Target, A->Where, ToWhy);
      if (!A->From)
        A->NotConstant = FromWhy;
      else if (!A->To)
        A->NotConstant = ToWhy;
      else if (!A->Source->Extent)
        A->NotConstant =
            "the extent of '" + A->SourceVar.Text + "' is not a constant";
      continue;
    }

    A->From = current(A->Target, A->Where, FromWhy);
    std::optional<int64_t> Procs;
    std::string ProcsName;
    if (A->Onto) {
      Procs = A->Onto->Extent;
      ProcsName = A->Onto->D->Arrangement.Name;
    } else {
      ProcsName = A->Target->Onto->D->Arrangement.Name;
      if (A->From)
        Procs = A->From->procs();
      else if (!ProcsMayChange.count(A->Target))
        Procs = A->Target->Onto->Extent;
    }
    if (!checkFormat(A->Format, D.Format, Procs, A->Target->Extent, VarText,
                     ProcsName, D))
      continue;
    if (A->Format.isConstant() && Procs)
      A->To = A->Format.distribution(*Procs);
    else
      ToWhy = A->From || A->Onto || !ProcsMayChange.count(A->Target)
                  ? formatWhy(A->Format, Procs, ProcsName)
                  : FromWhy;
    Latest[A->Target] = Change{&A->Where, A->To, ToWhy};

    if (!A->From)
      A->NotConstant = FromWhy;
    else if (!A->To)
      A->NotConstant = ToWhy;
    else if (!A->Target->Extent)
      A->NotConstant = "the extent of '" + VarText + "' is not a constant";
  }
}

} // namespace redistc
