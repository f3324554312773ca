//===- AnalysisChecks.cpp - The rules each directive must follow ----------===//
//
// The semantic checks of the directives: where each may appear, what its
// names must denote, which values and types go together (a gen_block of one
// size per process, an array large enough, an assign between equal extents
// and element types). A directive that passes them enters the model as an
// ArrangementInfo, DistributionInfo or ActionInfo.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "redist/Error.h"
#include "redist/Ring.h"

using namespace clang;

namespace redistc {

namespace {

/// The model of directive D, placed at P, before its details.
template <typename Info>
std::unique_ptr<Info> modelOf(const Directive &D, const Placement &P) {
  auto I = std::make_unique<Info>();
  I->D = &D;
  I->Where = P;
  return I;
}

} // namespace

// Where each directive may appear.
bool Analysis::checkPlacement() {
  for (size_t I = 0; I < Directives.size(); ++I) {
    if (!Placed[I])
      continue;
    const Directive &D = Directives[I];
    const Placement &P = Places[I];
    bool IsAction = D.Kind == DirectiveKind::Redistribute ||
                    D.Kind == DirectiveKind::Assign ||
                    D.Kind == DirectiveKind::Rebalance;
    if (P.Scope == ScopeKind::Class) {
      error(D.KeywordLoc, Diags.BadScope) << directiveName(D.Kind);
      continue;
    }
    if (D.Kind == DirectiveKind::Distribute && D.Verify &&
        P.Scope == ScopeKind::Namespace)
      error(D.VerifyLoc, Diags.VerifyAtNamespaceScope);
    if ((IsAction || D.Kind == DirectiveKind::Inquire) &&
        P.Scope != ScopeKind::Block) {
      error(D.KeywordLoc, Diags.ActionOutsideFunction) << directiveName(D.Kind);
    }
    // Declarations become declarations: they must not be the body of a
    // statement, where they would go out of scope at once.
    if (!IsAction && P.Scope == ScopeKind::Block && P.IndexInBlock < 0) {
      error(D.KeywordLoc, Diags.DeclarationNotInBlock) << directiveName(D.Kind);
    }
  }
  return !Failed;
}

// processors NAME(EXTENT) [comm(EXPR)]
void Analysis::analyseProcessors(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto A = modelOf<ArrangementInfo>(D, P);
  const unsigned Before = Diags.errorCount();
  for (int Slot : D.Extents) {
    std::optional<int64_t> E = integerSlot(D, Slot, "number of processes");
    if (E && *E <= 0) {
      const ExprSlot &S = D.Slots[Slot];
      error(S.Range.getBegin(), Diags.NotPositive)
          << "number of processes" << std::to_string(*E) << S.Range;
    }
    A->Extents.push_back(E);
  }
  A->Extent = A->Extents[0];
  checkComm(D);
  for (const auto &Other : Arrangements)
    if (Other->D->Arrangement.Name == D.Arrangement.Name &&
        Other->Where.ScopeKey == P.ScopeKey) {
      error(D.Arrangement.Loc, Diags.ArrangementRedeclared)
          << D.Arrangement.Name;
      Diags.report(Other->D->Arrangement.Loc, Diags.PreviousHere)
          << "declaration";
    }
  if (Diags.errorCount() != Before)
    return;
  Results[D.Id - 1].Arrangement = A.get();
  Arrangements.push_back(std::move(A));
}

// A format over Procs processes for Extent elements: what gen_block needs,
// and, when all is constant, what the library accepts.
bool Analysis::checkFormat(const FormatValue &F, const FormatSpec &Spec,
                           std::optional<int64_t> Procs,
                           std::optional<int64_t> Extent,
                           const std::string &VarName,
                           const std::string &ArrangementName,
                           const Directive &D, int Dim, int Rank) {
  SourceLocation Loc = Spec.Loc;
  if (F.Kind == FormatKind::GenBlock) {
    const ExprSlot &S = D.Slots[Spec.Arg];
    std::optional<int64_t> Count = F.SizesCount;
    if (F.Sizes)
      Count = static_cast<int64_t>(F.Sizes->size());
    if (Count && Procs && *Count != *Procs) {
      error(S.Range.getBegin(), Diags.GenBlockCount)
          << std::to_string(*Count) << ArrangementName << std::to_string(*Procs)
          << S.Range;
      return false;
    }
    if (F.Sizes && Extent && Dim < 0) {
      int64_t Sum = 0;
      for (int64_t Size : *F.Sizes)
        Sum += Size;
      if (Sum != *Extent) {
        error(S.Range.getBegin(), Diags.GenBlockSum)
            << std::to_string(Sum) << VarName << std::to_string(*Extent)
            << S.Range;
        return false;
      }
    }
  }
  if (!F.isConstant() || !Procs || !Extent)
    return true;
  try {
    if (Dim < 0) {
      redist::Layout L(F.distribution(*Procs), *Extent);
      (void)L;
    } else {
      // Dimension Dim of a rank-Rank array, alone: the library's check and
      // words, which name the dimension and its extent.
      std::vector<int64_t> Extents(static_cast<size_t>(Rank), 1);
      std::vector<redist::DimFormat> Formats(static_cast<size_t>(Rank),
                                             redist::DimFormat::collapsed());
      Extents[static_cast<size_t>(Dim)] = *Extent;
      Formats[static_cast<size_t>(Dim)] =
          redist::DimFormat::of(F.distribution(*Procs));
      redist::ArrayLayout L(Extents, Formats, {*Procs});
      (void)L;
    }
  } catch (const redist::InvalidArgument &E) {
    error(Loc, Diags.InvalidDistribution) << E.what();
    return false;
  }
  return true;
}

// The rules of a 1-D array that tie its directive to its one dimension: one
// format, never '*', and a 1-D arrangement. schedule(product(ALG)) is ALG
// there: the product of one dimension's schedule is that schedule.
bool Analysis::checkOneDimension(const Directive &D,
                                 const ArrangementInfo *Onto,
                                 const std::string &VarText) {
  bool OK = true;
  if (D.Kind != DirectiveKind::Assign) {
    size_t Star = 0;
    while (Star < D.Formats.size() && D.Formats[Star])
      ++Star;
    if (Star < D.Formats.size()) {
      error(D.FormatLocs[Star], Diags.OneDimensionStar) << VarText;
      OK = false;
    } else if (D.Formats.size() > 1) {
      error(D.SecondLoc, Diags.ArrayFormatCount) << VarText;
      OK = false;
    }
  }
  if (Onto && Onto->rank() > 2) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.ArrayGridRank)
        << VarText << 1u << Onto->D->Arrangement.Name
        << std::to_string(Onto->rank());
    OK = false;
  } else if (Onto && Onto->rank() == 2) {
    error(D.Onto.present() ? D.Onto.Loc : D.KeywordLoc, Diags.ArrayOntoGrid)
        << VarText << Onto->D->Arrangement.Name;
    OK = false;
  }
  return OK;
}

// distribute VAR[EXTENT](FORMAT) onto NAME
void Analysis::analyseDistribute(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto Dist = modelOf<DistributionInfo>(D, P);
  const unsigned Before = Diags.errorCount();
  std::optional<VariableInfo> Var = variableSlot(D, D.Var);
  Dist->Extent = integerSlot(D, D.Extent, "array extent");
  if (Dist->Extent && *Dist->Extent < 0) {
    const ExprSlot &S = D.Slots[D.Extent];
    error(S.Range.getBegin(), Diags.NegativeExtent)
        << std::to_string(*Dist->Extent) << S.Range;
    Dist->Extent.reset();
  }
  Dist->Onto = findArrangement(D.Onto, P.Begin);
  if (!Dist->Onto) {
    error(D.Onto.Loc, Diags.UnknownArrangement) << D.Onto.Name;
  }
  std::optional<FormatValue> F = formatOf(D, D.Format);
  if (!Var || !F || Diags.errorCount() != Before)
    return;
  Dist->Var = *Var;
  Dist->Format = *F;
  if (const DistributionInfo *Prev = findDistribution(Var->Decl, P.Begin)) {
    error(D.Slots[D.Var].Range.getBegin(), Diags.AlreadyDistributed)
        << Var->Text;
    Diags.report(Prev->D->KeywordLoc, Diags.PreviousHere) << "distribute";
    return;
  }
  if (D.ArrayForm) {
    if (!analyseArrayDistribute(D, *Dist))
      return;
    Dist->Escapes = P.Scope == ScopeKind::Namespace;
    Results[D.Id - 1].Distribution = Dist.get();
    Distributions.push_back(std::move(Dist));
    return;
  }
  if (!checkOneDimension(D, Dist->Onto, Var->Text))
    return;
  if (!checkFormat(*F, D.Format, Dist->Onto->Extent, Dist->Extent, Var->Text,
                   D.Onto.Name, D))
    return;
  if (F->isConstant() && Dist->Onto->Extent) {
    Dist->Declared = F->distribution(*Dist->Onto->Extent);
    if (Dist->Extent && Var->ArraySize) {
      redist::Layout L(*Dist->Declared, *Dist->Extent);
      // Under a block-cyclic layout process 0 holds the most: no need to
      // visit (possibly billions of) processes.
      int64_t Visit = L.isBlockCyclic() ? 1 : L.procs();
      for (int64_t Proc = 0; Proc < Visit; ++Proc)
        if (L.localSize(Proc) > *Var->ArraySize) {
          error(D.Slots[D.Var].Range.getBegin(), Diags.ArrayTooSmall)
              << Var->Text << std::to_string(*Var->ArraySize)
              << std::to_string(Proc) << std::to_string(L.localSize(Proc))
              << Dist->Declared->str();
          return;
        }
    }
  }
  Dist->Escapes = P.Scope == ScopeKind::Namespace;
  Results[D.Id - 1].Distribution = Dist.get();
  Distributions.push_back(std::move(Dist));
}

// Whether Var, the VAR of redistribute or rebalance D or the DST of assign,
// can take what D writes: not const, and a std::vector where D changes its
// local size (all but assign). Reports why not.
bool Analysis::checkTarget(const Directive &D, const VariableInfo &Var) {
  const ExprSlot &Slot = D.Slots[D.Var];
  QualType Type = Var.Decl->getType().getNonReferenceType();
  if (D.Kind != DirectiveKind::Assign && Var.Kind != VarKind::Vector) {
    error(Slot.Range.getBegin(), Diags.NotResizable)
        << Var.Text << Type << Slot.Range;
    // A redistribute of a fixed-size variable may be an assign.
    if (D.Kind == DirectiveKind::Redistribute)
      Diags.report(D.KeywordLoc, Diags.UseAssign);
    return false;
  }
  if (Var.Element.isConstQualified() ||
      (Var.Kind == VarKind::Vector && Type.isConstQualified())) {
    error(Slot.Range.getBegin(), Diags.ConstTarget)
        << Var.Text << Type << Slot.Range;
    return false;
  }
  return true;
}

// redistribute VAR(FORMAT) [onto NAME] [schedule(ALG)]
// assign DST = SRC [schedule(ALG)]
void Analysis::analyseAction(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto A = modelOf<ActionInfo>(D, P);
  const unsigned Before = Diags.errorCount();
  bool IsAssign = D.Kind == DirectiveKind::Assign;
  std::optional<VariableInfo> Target = variableSlot(D, D.Var);
  std::optional<VariableInfo> Source;
  if (IsAssign)
    Source = variableSlot(D, D.Src);
  if (Diags.errorCount() != Before || !Target || (IsAssign && !Source))
    return;
  A->TargetVar = *Target;
  if (!checkTarget(D, *Target))
    return;
  const ExprSlot &TargetSlot = D.Slots[D.Var];
  A->Target = findDistribution(Target->Decl, P.Begin);
  if (!A->Target) {
    error(TargetSlot.Range.getBegin(), Diags.NotDistributed)
        << Target->Text << TargetSlot.Range;
  }
  if (IsAssign) {
    A->SourceVar = *Source;
    const ExprSlot &SourceSlot = D.Slots[D.Src];
    if (Source->Decl == Target->Decl) {
      error(SourceSlot.Range.getBegin(), Diags.AssignSame)
          << Source->Text << SourceSlot.Range;
      return;
    }
    A->Source = findDistribution(Source->Decl, P.Begin);
    if (!A->Source) {
      error(SourceSlot.Range.getBegin(), Diags.NotDistributed)
          << Source->Text << SourceSlot.Range;
    }
    if (!Target->DependentElement && !Source->DependentElement &&
        !Ctx.hasSameUnqualifiedType(Target->Element, Source->Element)) {
      error(D.KeywordLoc, Diags.AssignTypes)
          << Target->Element.getUnqualifiedType()
          << Source->Element.getUnqualifiedType();
    }
  } else if (D.Onto.present()) {
    A->Onto = findArrangement(D.Onto, P.Begin);
    if (!A->Onto) {
      error(D.Onto.Loc, Diags.UnknownArrangement) << D.Onto.Name;
    }
  }
  if (Diags.errorCount() != Before)
    return;
  // Arrays of the N-D form (matrices among them), sections and
  // permutations: the N-D path.
  A->ArrayPath = (A->Target && A->Target->isArray()) ||
                 (IsAssign && A->Source && A->Source->isArray()) ||
                 !D.Permutation.empty() || !D.TargetSection.empty() ||
                 !D.SourceSection.empty();
  if (A->ArrayPath) {
    if (!A->Target || (IsAssign && !A->Source) || !analyseArrayAction(D, *A))
      return;
  } else {
    if (!IsAssign) {
      std::optional<FormatValue> F = formatOf(D, D.Format);
      if (F)
        A->Format = *F;
    } else if (A->Target && A->Source && A->Target->Extent &&
               A->Source->Extent && *A->Target->Extent != *A->Source->Extent) {
      error(D.KeywordLoc, Diags.AssignExtent)
          << Target->Text << std::to_string(*A->Target->Extent) << Source->Text
          << std::to_string(*A->Source->Extent);
    }
    if (Diags.errorCount() != Before ||
        !checkOneDimension(D, A->Onto ? A->Onto : A->Target->Onto,
                           A->TargetVar.Text))
      return;
  }
  for (DistributionInfo *Dist : {A->Target, A->Source})
    if (Dist && Dist->Where.Function != P.Function)
      Dist->Escapes = true;
  Results[D.Id - 1].Action = A.get();
  Actions.push_back(std::move(A));
}

// The options of rebalance D on arrangement Onto (null when unknown): the
// costs clauses' types, counts and values, and whether the algorithm applies
// to the ring as far as the constants tell. Reports why not.
bool Analysis::checkRingOptions(const Directive &D,
                                const ArrangementInfo *Onto) {
  // 0 when unknown (a known extent is positive).
  const int64_t Procs = Onto && Onto->Extent ? *Onto->Extent : 0;
  std::optional<CostsValue> Costs[2];
  const CostsSpec *Specs[2] = {&D.Costs, &D.BackCosts};
  const char *Names[2] = {"costs", "back_costs"};
  bool OK = true;
  for (int K = 0; K < 2; ++K) {
    if (!Specs[K]->present())
      continue;
    Costs[K] = costsOf(D, *Specs[K], Names[K]);
    if (!Costs[K]) {
      OK = false;
      continue;
    }
    const ExprSlot &S = D.Slots[Specs[K]->Arg];
    const std::optional<int64_t> Count = Costs[K]->Count;
    if (Count && *Count == 0) {
      error(S.Range.getBegin(), Diags.RingCostEmpty) << Names[K] << S.Range;
      OK = false;
    } else if (Count && Procs > 0 && *Count != 1 && *Count != Procs) {
      error(S.Range.getBegin(), Diags.RingCostCount)
          << Names[K] << std::to_string(*Count) << D.Onto.Name
          << std::to_string(Procs) << S.Range;
      OK = false;
    }
  }
  if (D.BackCosts.present() && !D.Bidirectional) {
    error(D.BackCosts.Loc, Diags.BackCostsUnidirectional);
    OK = false;
  } else if (D.BackCosts.present() && !D.Costs.present()) {
    error(D.BackCosts.Loc, Diags.BackCostsAlone);
    OK = false;
  }
  if (!OK || !D.RingSchedule)
    return OK;
  // The algorithm on a ring of these links holding nothing: the runtime's
  // own check, with the costs redistc knows (measured ones are made equal
  // for a homogeneous algorithm, unknown ones taken as equal).
  redist::RingProblem P;
  int64_t N = Procs > 0 ? Procs : 1;
  for (const std::optional<CostsValue> &C : Costs)
    if (Procs == 0 && C && C->Values && C->Values->size() > 1)
      N = static_cast<int64_t>(C->Values->size());
  auto PerProcess = [&](const std::optional<CostsValue> &C) {
    if (!C || !C->Values)
      return std::vector<double>(N, 1.0);
    if (C->Values->size() == 1)
      return std::vector<double>(N, C->Values->front());
    return *C->Values;
  };
  P.Loads.assign(N, 0);
  P.Targets.assign(N, 0);
  P.Bidirectional = D.Bidirectional;
  P.CostFwd = PerProcess(Costs[0]);
  if (D.BackCosts.present())
    P.CostBwd = PerProcess(Costs[1]);
  std::string Why;
  try {
    Why = redist::ringAlgorithmRejects(*D.RingSchedule, P);
  } catch (const redist::InvalidArgument &E) {
    Why = E.what();
  }
  if (Why.empty())
    return true;
  error(D.ScheduleLoc, Diags.RingScheduleNotApplicable)
      << ringAlgorithmSpelling(*D.RingSchedule) << Why;
  return false;
}

// rebalance VAR(COUNT) onto NAME [ring(...)] [schedule(...)] [costs(...)]
// [back_costs(...)]
void Analysis::analyseRebalance(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto R = modelOf<RebalanceInfo>(D, P);
  const unsigned Before = Diags.errorCount();
  std::optional<VariableInfo> Var = variableSlot(D, D.Var);
  R->Onto = findArrangement(D.Onto, P.Begin);
  if (!R->Onto)
    error(D.Onto.Loc, Diags.UnknownArrangement) << D.Onto.Name;
  const ExprSlot &Count = D.Slots[D.Count];
  if (Count.E && !Count.E->isTypeDependent() &&
      !Count.E->getType()->isIntegralOrUnscopedEnumerationType())
    error(Count.Range.getBegin(), Diags.RebalanceCount)
        << Count.E->getType() << Count.Range;
  if (!checkRingOptions(D, R->Onto) || !Var || Diags.errorCount() != Before ||
      !checkTarget(D, *Var) || !checkOneDimension(D, R->Onto, Var->Text))
    return;
  R->Var = *Var;
  Results[D.Id - 1].Rebalance = R.get();
  Rebalances.push_back(std::move(R));
}

// inquire VAR into NAME
void Analysis::analyseInquiry(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto I = modelOf<InquiryInfo>(D, P);
  std::optional<VariableInfo> Var = variableSlot(D, D.Var);
  if (!Var)
    return;
  I->Var = *Var;
  I->Dist = findDistribution(Var->Decl, P.Begin);
  if (!I->Dist) {
    const ExprSlot &S = D.Slots[D.Var];
    error(S.Range.getBegin(), Diags.NotDistributed) << Var->Text << S.Range;
    return;
  }
  // The parse declared NAME of the type the spelling suggested.
  if (I->Dist->isArray() != D.ArrayForm) {
    error(D.KeywordLoc, Diags.InquiryRank) << Var->Text;
    return;
  }
  Results[D.Id - 1].Inquiry = I.get();
  Inquiries.push_back(std::move(I));
}

} // namespace redistc
