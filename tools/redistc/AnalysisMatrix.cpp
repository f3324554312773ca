//===- AnalysisMatrix.cpp - The rules of 2-D arrays -----------------------===//
//
// A matrix is a variable distributed as VAR[M][N](F0, F1) onto a 2-D
// arrangement NAME(P0, P1): F0 spreads the M rows over the P0 grid rows, F1
// the N columns over the P1 grid columns, as redist::Layout2D does. Each
// dimension is checked as a 1-D array is (checkFormat); here are the rules
// that tie the dimensions together, and the layout each matrix has before
// each redistribute, tracked like AnalysisFlow.cpp tracks arrays'.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "redist/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace redistc {

// As many formats as dimensions, an arrangement of as many, and the clauses
// that fit.
bool Analysis::checkDimensions(const Directive &D, bool Matrix,
                               const ArrangementInfo *Onto,
                               const std::string &VarText) {
  bool OK = true;
  if (D.Kind != DirectiveKind::Assign) {
    size_t Star = 0;
    while (Star < D.Formats.size() && D.Formats[Star])
      ++Star;
    if (Star < D.Formats.size()) {
      error(D.FormatLocs[Star], Diags.MatrixStar)
          << VarText << (Matrix ? "a matrix" : "a 1-D array");
      OK = false;
    } else if (Matrix && D.Formats.size() != 2) {
      error(D.Format.Loc, Diags.MatrixFormatCount) << VarText;
      OK = false;
    } else if (!Matrix && D.Format2) {
      error(D.SecondLoc, Diags.ArrayFormatCount) << VarText;
      OK = false;
    }
  }
  if (Onto && Onto->rank() > 2) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.ArrayGridRank)
        << VarText << (Matrix ? "2" : "1") << Onto->D->Arrangement.Name
        << std::to_string(Onto->rank());
    OK = false;
  } else if (Onto && Matrix && !Onto->isGrid()) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.MatrixOntoLine)
        << VarText << Onto->D->Arrangement.Name;
    OK = false;
  } else if (Onto && !Matrix && Onto->isGrid()) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.ArrayOntoGrid)
        << VarText << Onto->D->Arrangement.Name;
    OK = false;
  }
  if (!Matrix && D.ScheduleProduct) {
    error(D.ScheduleLoc, Diags.ProductOfArray) << VarText;
    OK = false;
  }
  return OK;
}

// The layout of constant formats over a constant grid; nullopt when some
// value is not constant, or after reporting what the library rejects.
std::optional<redist::Layout2D>
Analysis::constantLayout(const FormatValue &Rows, const FormatValue &Cols,
                         std::optional<int64_t> P0, std::optional<int64_t> P1,
                         std::optional<int64_t> M, std::optional<int64_t> N,
                         redist::GridOrder Order, const Directive &D) {
  if (!Rows.isConstant() || !Cols.isConstant() || !P0 || !P1 || !M || !N)
    return std::nullopt;
  try {
    return redist::Layout2D(redist::Layout(Rows.distribution(*P0), *M),
                            redist::Layout(Cols.distribution(*P1), *N), Order);
  } catch (const redist::InvalidArgument &E) {
    error(D.Format.Loc, Diags.InvalidDistribution) << E.what();
    return std::nullopt;
  }
}

// distribute VAR[M][N](F0, F1) onto NAME, after the checks every distribute
// has and checkDimensions.
bool Analysis::analyseMatrixDistribute(const Directive &D,
                                       DistributionInfo &Dist) {
  const unsigned Before = Diags.errorCount();
  const ExprSlot &VarSlot = D.Slots[D.Var];
  if (Dist.Var.Kind != VarKind::Vector) {
    error(VarSlot.Range.getBegin(), Diags.MatrixNotVector)
        << Dist.Var.Text << Dist.Var.Decl->getType().getNonReferenceType()
        << VarSlot.Range;
    return false;
  }
  Dist.Extent2 = integerSlot(D, D.Extent2, "number of columns");
  if (Dist.Extent2 && *Dist.Extent2 < 0) {
    const ExprSlot &S = D.Slots[D.Extent2];
    error(S.Range.getBegin(), Diags.NegativeExtent)
        << std::to_string(*Dist.Extent2) << S.Range;
    Dist.Extent2.reset();
  }
  std::optional<FormatValue> Cols = formatOf(D, *D.Format2);
  if (!Cols || Diags.errorCount() != Before)
    return false;
  Dist.Format2 = *Cols;
  const ArrangementInfo &G = *Dist.Onto;
  const std::string &Name = D.Onto.Name;
  if (!checkFormat(Dist.Format, D.Format, G.Extent, Dist.Extent, Dist.Var.Text,
                   Name, D, 0, 2) ||
      !checkFormat(Dist.Format2, *D.Format2, G.Extent2, Dist.Extent2,
                   Dist.Var.Text, Name, D, 1, 2))
    return false;
  Dist.DeclaredMatrix =
      constantLayout(Dist.Format, Dist.Format2, G.Extent, G.Extent2,
                     Dist.Extent, Dist.Extent2, G.order(), D);
  return Diags.errorCount() == Before;
}

// The matrix rules of a redistribute, or of an assign of 1-D arrays (true
// for arrays that follow the 1-D rules); the columns' format of a matrix
// redistribute.
bool Analysis::checkMatrixAction(const Directive &D, ActionInfo &A) {
  // Assigns of matrices take the N-D path (AnalysisArray.cpp).
  const bool Matrix = A.Target && A.Target->isMatrix();
  if (!A.Target)
    return true;
  if (!checkDimensions(D, Matrix, A.Onto ? A.Onto : A.Target->Onto,
                       A.TargetVar.Text))
    return false;
  if (!Matrix)
    return true;
  std::optional<FormatValue> Cols = formatOf(D, *D.Format2);
  if (!Cols)
    return false;
  A.Format2 = *Cols;
  return true;
}

// The layout of each matrix before each redistribute of it, where the source
// proves it, as trackDistributions does for arrays.
void Analysis::trackMatrices() {
  struct Change {
    const Placement *Where;
    std::optional<redist::Layout2D> After;
    std::string WhyUnknown;
  };
  // Why formats over arrangement G are not a constant layout ("" if they
  // are, or if the library refused them: that was reported).
  auto whyUnknown = [](const FormatValue &Rows, const FormatValue &Cols,
                       std::optional<int64_t> P0, std::optional<int64_t> P1,
                       const std::string &GridName) -> std::string {
    for (const FormatValue *F : {&Rows, &Cols})
      if (!F->isConstant())
        return "'" + F->ArgText + "' is not a constant";
    if (!P0 || !P1)
      return "the grid of '" + GridName + "' is not a constant";
    return "";
  };
  llvm::DenseMap<const DistributionInfo *, Change> Latest;
  for (const auto &Dist : Distributions)
    if (Dist->isMatrix())
      Latest[Dist.get()] = Change{
          &Dist->Where, Dist->DeclaredMatrix,
          whyUnknown(Dist->Format, Dist->Format2, Dist->Onto->Extent,
                     Dist->Onto->Extent2, Dist->Onto->D->Arrangement.Name)};
  // Without onto, a redistribute keeps the current grid: the distribute's,
  // unless some redistribute of the matrix moves it onto another.
  llvm::DenseSet<const DistributionInfo *> GridMayChange;
  for (const auto &A : Actions)
    if (A->isMatrix() && A->Onto && A->Onto != A->Target->Onto)
      GridMayChange.insert(A->Target);

  for (const auto &A : Actions) {
    if (!A->isMatrix())
      continue;
    const Directive &D = *A->D;
    const DistributionInfo &Dist = *A->Target;
    const Change &Before = Latest.find(&Dist)->second;
    std::string FromWhy = Before.WhyUnknown;
    if (Dist.Escapes || !sameStraightLineBlock(*Before.Where, A->Where))
      FromWhy =
          "the layout of '" + A->TargetVar.Text + "' is only known at run time";
    else
      A->FromMatrix = Before.After;
    std::optional<int64_t> P0, P1;
    redist::GridOrder Order = redist::GridOrder::RowMajor;
    const ArrangementInfo *Grid =
        A->Onto ? A->Onto
                : (!A->FromMatrix && !GridMayChange.count(&Dist) ? Dist.Onto
                                                                 : nullptr);
    if (Grid) {
      P0 = Grid->Extent;
      P1 = Grid->Extent2;
      Order = Grid->order();
    } else if (A->FromMatrix) {
      P0 = A->FromMatrix->gridRows();
      P1 = A->FromMatrix->gridCols();
      Order = A->FromMatrix->order();
    }
    const std::string GridName =
        (A->Onto ? A->Onto : Dist.Onto)->D->Arrangement.Name;
    if (!checkFormat(A->Format, D.Format, P0, Dist.Extent, A->TargetVar.Text,
                     GridName, D, 0, 2) ||
        !checkFormat(A->Format2, *D.Format2, P1, Dist.Extent2,
                     A->TargetVar.Text, GridName, D, 1, 2))
      continue;
    A->ToMatrix = constantLayout(A->Format, A->Format2, P0, P1, Dist.Extent,
                                 Dist.Extent2, Order, D);
    std::string ToWhy =
        Grid || A->FromMatrix
            ? whyUnknown(A->Format, A->Format2, P0, P1, GridName)
            : FromWhy;
    if (!Dist.Extent || !Dist.Extent2)
      ToWhy = "the size of '" + A->TargetVar.Text + "' is not a constant";
    Latest[&Dist] = Change{&A->Where, A->ToMatrix, ToWhy};
    if (!A->FromMatrix)
      A->NotConstant = FromWhy.empty() ? ToWhy : FromWhy;
    else if (!A->ToMatrix)
      A->NotConstant = ToWhy.empty() ? "the target layout is not known" : ToWhy;
  }
}

} // namespace redistc
