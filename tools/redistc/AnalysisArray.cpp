//===- AnalysisArray.cpp - The rules of arrays of any rank ----------------===//
//
// An array of the N-D form is distributed as VAR[E0]...[Ed-1](F0, ..., Fd-1)
// onto an arrangement NAME(P0, ..., Pg-1): as in HPF, the non-'*' formats
// map in order onto the arrangement's dimensions (redist::ArrayLayout).
// Each distributed dimension is checked as a 1-D array is (checkFormat, in
// the library's words naming the dimension); here are the rules that tie
// the dimensions together, and those of an assign's sections and
// permutation, which redist::sectionRegion checks as the runtime does. A
// 1-D array on either side of an assign is the rank-1 array of its
// distribution (redist::ArrayLayout::rankOne), as the runtime takes it.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "redist/ArraySections.h"
#include "redist/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace clang;

namespace redistc {

namespace {

/// The constant value of each range of Section, or nullopt if one is not.
std::optional<std::vector<redist::SectionRange>> constantRanges(
    const std::vector<SectionSpec> &Section,
    const std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>>
        &Values) {
  std::vector<redist::SectionRange> Out;
  for (size_t K = 0; K < Section.size(); ++K) {
    if (Section[K].whole()) {
      Out.emplace_back();
      continue;
    }
    if (!Values[K].first || !Values[K].second)
      return std::nullopt;
    Out.push_back({*Values[K].first, *Values[K].second, false});
  }
  return Out;
}

/// Every entry of V, or nullopt if one is unknown.
template <typename T>
std::optional<std::vector<T>> allKnown(const std::vector<std::optional<T>> &V) {
  std::vector<T> Out;
  for (const std::optional<T> &X : V) {
    if (!X)
      return std::nullopt;
    Out.push_back(*X);
  }
  return Out;
}

} // namespace

// One format per dimension, one distributed dimension per dimension of the
// arrangement (unknown: null), each format fitting its dimension.
bool Analysis::checkArrayFormats(
    const Directive &D, const std::vector<std::optional<FormatValue>> &Formats,
    const std::vector<std::optional<int64_t>> &Extents,
    const ArrangementInfo *Onto, const std::string &VarText) {
  if (Formats.size() != Extents.size()) {
    const size_t At = std::min(Formats.size(), Extents.size());
    error(D.FormatLocs[std::min(At, D.FormatLocs.size() - 1)],
          Diags.ArrayFormatRank)
        << VarText << static_cast<unsigned>(Extents.size())
        << static_cast<unsigned>(Formats.size());
    return false;
  }
  if (!Onto)
    return true;
  int Distributed = 0;
  for (const std::optional<FormatValue> &F : Formats)
    Distributed += F ? 1 : 0;
  const std::string &Name = Onto->D->Arrangement.Name;
  if (Distributed != Onto->rank()) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.ArrayGridRank)
        << VarText << static_cast<unsigned>(Distributed) << Name
        << std::to_string(Onto->rank());
    return false;
  }
  const int Rank = static_cast<int>(Formats.size());
  size_t G = 0;
  for (size_t K = 0; K < Formats.size(); ++K) {
    if (!Formats[K])
      continue;
    if (!checkFormat(*Formats[K], *D.Formats[K], Onto->Extents[G++], Extents[K],
                     VarText, Name, D, static_cast<int>(K), Rank))
      return false;
  }
  // All constant: the layout as the runtime will make it.
  const std::optional<std::vector<int64_t>> E = allKnown(Extents);
  const std::optional<std::vector<int64_t>> P = allKnown(Onto->Extents);
  if (!E || !P)
    return true;
  for (const std::optional<FormatValue> &F : Formats)
    if (F && !F->isConstant())
      return true;
  try {
    std::vector<redist::DimFormat> Dims;
    for (const std::optional<FormatValue> &F : Formats)
      Dims.push_back(F ? F->dimFormat() : redist::DimFormat::collapsed());
    redist::ArrayLayout L(*E, Dims, *P, Onto->order());
    (void)L;
  } catch (const redist::InvalidArgument &Err) {
    error(D.FormatLocs.front(), Diags.InvalidDistribution) << Err.what();
    return false;
  }
  return true;
}

// distribute VAR[E0]...[Ed-1](F0, ..., Fd-1) onto NAME [storage(...)], after
// the checks every distribute has.
bool Analysis::analyseArrayDistribute(const Directive &D,
                                      DistributionInfo &Dist) {
  const unsigned Before = Diags.errorCount();
  for (int Slot : D.Extents) {
    std::optional<int64_t> E = integerSlot(D, Slot, "array extent");
    if (E && *E < 0) {
      const ExprSlot &S = D.Slots[Slot];
      error(S.Range.getBegin(), Diags.NegativeExtent)
          << std::to_string(*E) << S.Range;
      E.reset();
    }
    Dist.Extents.push_back(E);
  }
  for (const std::optional<FormatSpec> &Spec : D.Formats) {
    if (!Spec) {
      Dist.Formats.emplace_back();
      continue;
    }
    std::optional<FormatValue> F = formatOf(D, *Spec);
    Dist.Formats.push_back(F);
    if (!F)
      return false;
  }
  if (Diags.errorCount() != Before)
    return false;
  Dist.Storage = D.Storage.value_or(redist::StorageOrder::ColumnMajor);
  return checkArrayFormats(D, Dist.Formats, Dist.Extents, Dist.Onto,
                           Dist.Var.Text);
}

// The sections and permutation of assign A: the library's checks on the
// values redistc knows, reported where the user wrote the culprit.
bool Analysis::checkRegion(const Directive &D, ActionInfo &A) {
  const std::vector<std::optional<int64_t>> SrcExt = A.Source->allExtents(),
                                            DstExt = A.Target->allExtents();
  auto Ranges = [&](const std::vector<SectionSpec> &Section) {
    std::vector<std::pair<std::optional<int64_t>, std::optional<int64_t>>> V;
    for (const SectionSpec &R : Section)
      V.emplace_back(
          R.whole() ? std::nullopt : integerSlot(D, R.Begin, "section begin"),
          R.whole() ? std::nullopt : integerSlot(D, R.End, "section end"));
    return V;
  };
  const unsigned Before = Diags.errorCount();
  const auto SrcValues = Ranges(D.SourceSection),
             DstValues = Ranges(D.TargetSection);
  if (Diags.errorCount() != Before)
    return false;
  // Where the library's complaint points: the permutation, a section's
  // range, or the directive.
  auto Report = [&](const std::string &What) {
    SourceLocation Loc = D.KeywordLoc;
    auto SectionLoc = [&](const std::vector<SectionSpec> &S,
                          llvm::StringRef Rest) {
      unsigned K = 0;
      if (S.empty())
        return;
      Loc = S.front().Loc;
      if (Rest.consume_front("of dimension ") && !Rest.consumeInteger(10, K) &&
          K < S.size())
        Loc = S[K].Loc;
    };
    llvm::StringRef Text(What);
    if (Text.startswith("the permutation") && D.PermuteLoc.isValid())
      Loc = D.PermuteLoc;
    else if (Text.consume_front("the source section "))
      SectionLoc(D.SourceSection, Text);
    else if (Text.consume_front("the target section "))
      SectionLoc(D.TargetSection, Text);
    error(Loc, Diags.InvalidRegion) << What;
  };
  // The permutation and the ranks, whatever the extents.
  try {
    redist::sectionRegion(std::vector<int64_t>(SrcExt.size(), 1),
                          std::vector<int64_t>(DstExt.size(), 1), D.Permutation,
                          {}, {});
  } catch (const redist::InvalidArgument &E) {
    Report(E.what());
    return false;
  }
  const auto S = allKnown(SrcExt), T = allKnown(DstExt);
  const auto SR = constantRanges(D.SourceSection, SrcValues),
             TR = constantRanges(D.TargetSection, DstValues);
  if (!S || !T || !SR || !TR)
    return true;
  try {
    const redist::ArrayRegion R =
        redist::sectionRegion(*S, *T, D.Permutation, *SR, *TR);
    A.Region = redist::isWholeAssign(D.Permutation, *SR, *TR)
                   ? redist::ArrayRegion()
                   : R;
  } catch (const redist::InvalidArgument &E) {
    Report(E.what());
    return false;
  }
  return true;
}

// A redistribute of an array of the N-D form, or an assign on the N-D path.
bool Analysis::analyseArrayAction(const Directive &D, ActionInfo &A) {
  const std::string &VarText = A.TargetVar.Text;
  if (D.Kind == DirectiveKind::Redistribute) {
    for (const std::optional<FormatSpec> &Spec : D.Formats) {
      if (!Spec) {
        A.Formats.emplace_back();
        continue;
      }
      std::optional<FormatValue> F = formatOf(D, *Spec);
      if (!F)
        return false;
      A.Formats.push_back(F);
    }
    // Without onto the current arrangement stays: the distribute's, unless
    // some redistribute of the variable names another.
    const ArrangementInfo *Grid = A.Onto;
    if (!Grid) {
      Grid = A.Target->Onto;
      for (const Directive &Other : Directives)
        if (Other.Kind == DirectiveKind::Redistribute && Other.Onto.present() &&
            Other.Slots[Other.Var].Text == VarText)
          Grid = nullptr;
    }
    return checkArrayFormats(D, A.Formats, A.Target->Extents, Grid, VarText);
  }
  // A 1-D array is the rank-1 array of its distribution.
  const int TR = A.Target->rank(), SR = A.Source->rank();
  if (TR != SR) {
    error(D.KeywordLoc, Diags.ArrayAssignRank)
        << VarText << std::to_string(TR) << A.SourceVar.Text
        << std::to_string(SR);
    return false;
  }
  return checkRegion(D, A);
}

// The layout of each array of the N-D form before each directive of the
// N-D path, where the source proves it, as trackDistributions does for 1-D
// arrays;
// each such action's FromArray and ToArray, or why they are not known.
void Analysis::trackArrays() {
  struct Change {
    const Placement *Where;
    std::optional<redist::ArrayLayout> After;
    std::string WhyUnknown;
  };
  // Why formats over an arrangement of Grid are not a constant layout of
  // Extents ("" when they are, or when the library refused them: that was
  // reported).
  auto whyUnknown = [](const std::vector<std::optional<FormatValue>> &Formats,
                       const std::vector<std::optional<int64_t>> &Extents,
                       const std::vector<std::optional<int64_t>> &Grid,
                       const std::string &Var,
                       const std::string &GridName) -> std::string {
    for (const std::optional<FormatValue> &F : Formats)
      if (F && !F->isConstant())
        return "'" + F->ArgText + "' is not a constant";
    if (!allKnown(Grid))
      return "the arrangement '" + GridName + "' is not a constant";
    if (!allKnown(Extents))
      return "the extents of '" + Var + "' are not constants";
    return "";
  };
  auto layoutOf =
      [](const std::vector<std::optional<FormatValue>> &Formats,
         const std::vector<int64_t> &Extents, const std::vector<int64_t> &Grid,
         redist::GridOrder Order,
         redist::StorageOrder Storage) -> std::optional<redist::ArrayLayout> {
    try {
      std::vector<redist::DimFormat> Dims;
      for (const std::optional<FormatValue> &F : Formats) {
        if (F && !F->isConstant())
          return std::nullopt;
        Dims.push_back(F ? F->dimFormat() : redist::DimFormat::collapsed());
      }
      return redist::ArrayLayout(Extents, Dims, Grid, Order, {}, {Storage, {}});
    } catch (const redist::InvalidArgument &) {
      return std::nullopt; // reported by checkArrayFormats
    }
  };
  llvm::DenseMap<const DistributionInfo *, Change> Latest;
  for (const auto &Dist : Distributions) {
    if (!Dist->isArray())
      continue;
    std::optional<redist::ArrayLayout> L;
    const auto E = allKnown(Dist->Extents);
    const auto G = allKnown(Dist->Onto->Extents);
    if (E && G)
      L = layoutOf(Dist->Formats, *E, *G, Dist->Onto->order(), Dist->Storage);
    Latest[Dist.get()] =
        Change{&Dist->Where, L,
               whyUnknown(Dist->Formats, Dist->Extents, Dist->Onto->Extents,
                          Dist->Var.Text, Dist->Onto->D->Arrangement.Name)};
  }
  // Without onto, a redistribute keeps the current arrangement: the
  // distribute's, unless some redistribute of the array names another.
  llvm::DenseSet<const DistributionInfo *> GridMayChange;
  for (const auto &A : Actions)
    if (A->ArrayPath && !A->isAssign() && A->Onto && A->Onto != A->Target->Onto)
      GridMayChange.insert(A->Target);
  // The layout of Dist's variable at At, or why it is not known. A 1-D
  // array's is the rank-1 array of OneD, its distribution there
  // (trackDistributions; else OneDWhy says why it is not known).
  auto current = [&](const DistributionInfo &Dist, const Placement &At,
                     const std::string &Var,
                     const std::optional<redist::Distribution> &OneD,
                     const std::string &OneDWhy,
                     std::string &Why) -> std::optional<redist::ArrayLayout> {
    if (!Dist.isArray()) {
      Why = OneDWhy;
      if (!OneD)
        return std::nullopt;
      if (!Dist.Extent) {
        Why = "the extent of '" + Var + "' is not a constant";
        return std::nullopt;
      }
      try {
        return redist::ArrayLayout::rankOne(*OneD, *Dist.Extent);
      } catch (const redist::InvalidArgument &E) {
        Why = E.what(); // the runtime raises it
        return std::nullopt;
      }
    }
    const Change &C = Latest.find(&Dist)->second;
    if (Dist.Escapes || !sameStraightLineBlock(*C.Where, At)) {
      Why = "the layout of '" + Var + "' is only known at run time";
      return std::nullopt;
    }
    Why = C.WhyUnknown;
    return C.After;
  };

  for (const auto &A : Actions) {
    if (!A->ArrayPath)
      continue;
    std::string FromWhy, ToWhy;
    if (A->isAssign()) {
      const std::string OneDWhy = A->NotConstant;
      A->FromArray = current(*A->Source, A->Where, A->SourceVar.Text, A->From,
                             OneDWhy, FromWhy);
      A->ToArray = current(*A->Target, A->Where, A->TargetVar.Text, A->To,
                           OneDWhy, ToWhy);
      if (!A->FromArray)
        A->NotConstant =
            FromWhy.empty() ? "the source layout is not known" : FromWhy;
      else if (!A->ToArray)
        A->NotConstant =
            ToWhy.empty() ? "the target layout is not known" : ToWhy;
      else if (!A->Region)
        A->NotConstant = "the sections are not constants";
      continue;
    }
    const DistributionInfo &Dist = *A->Target;
    A->FromArray =
        current(Dist, A->Where, A->TargetVar.Text, std::nullopt, "", FromWhy);
    std::vector<std::optional<int64_t>> Grid;
    redist::GridOrder Order = redist::GridOrder::RowMajor;
    std::string GridName = (A->Onto ? A->Onto : Dist.Onto)->D->Arrangement.Name;
    const ArrangementInfo *Onto =
        A->Onto ? A->Onto
                : (!A->FromArray && !GridMayChange.count(&Dist) ? Dist.Onto
                                                                : nullptr);
    if (Onto) {
      Grid = Onto->Extents;
      Order = Onto->order();
    } else if (A->FromArray) {
      for (int64_t P : A->FromArray->grid())
        Grid.emplace_back(P);
      Order = A->FromArray->order();
    }
    const auto E = allKnown(Dist.Extents);
    const auto G = allKnown(Grid);
    if (E && G && (Onto || A->FromArray))
      A->ToArray = layoutOf(A->Formats, *E, *G, Order, Dist.Storage);
    ToWhy = Onto || A->FromArray ? whyUnknown(A->Formats, Dist.Extents, Grid,
                                              A->TargetVar.Text, GridName)
                                 : FromWhy;
    Latest[&Dist] = Change{&A->Where, A->ToArray, ToWhy};
    if (!A->FromArray)
      A->NotConstant = FromWhy.empty() ? "the layout is not known" : FromWhy;
    else if (!A->ToArray)
      A->NotConstant = ToWhy.empty() ? "the target layout is not known" : ToWhy;
  }
}

} // namespace redistc
