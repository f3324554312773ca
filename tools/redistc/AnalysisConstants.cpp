//===- AnalysisConstants.cpp - The values of the directives' parameters ---===//
//
// Every parameter Clang can evaluate as a constant: the extents, the block
// sizes and the gen_block sizes, with the checks of their values that need
// nothing else (positive, non-negative, 64 bits). A parameter Clang cannot
// evaluate stays unknown, and the directive uses the runtime.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <cmath>
#include <cstdio>

using namespace clang;

namespace redistc {

namespace {

/// The integers of a constant array or std::array value.
std::optional<std::vector<int64_t>> integersOf(const APValue &V) {
  if (V.isStruct() && V.getStructNumFields() == 1)
    return integersOf(V.getStructField(0));
  if (!V.isArray())
    return std::nullopt;
  std::vector<int64_t> Out;
  for (unsigned I = 0; I < V.getArraySize(); ++I) {
    const APValue &Elt = I < V.getArrayInitializedElts()
                             ? V.getArrayInitializedElt(I)
                             : V.getArrayFiller();
    if (!Elt.isInt() || Elt.getInt().getMinSignedBits() > 64)
      return std::nullopt;
    Out.push_back(Elt.getInt().getExtValue());
  }
  return Out;
}

/// The value of the constexpr variable (or member) E names, if it has one.
const APValue *constexprValueOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const ValueDecl *VD = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    VD = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    VD = ME->getMemberDecl();
  const auto *Var = dyn_cast_or_null<VarDecl>(VD);
  if (!Var)
    return nullptr;
  // Not after Clang rejected its initializer: evaluateValue() needs one,
  // free of errors (`constexpr long A[4] = ;` used to crash here).
  const Expr *Init = Var->getInit();
  if (!Var->isConstexpr() || Var->isInvalidDecl() || !Init ||
      Init->isValueDependent())
    return nullptr;
  return Var->evaluateValue();
}

/// The numbers of a constant array or std::array value.
std::optional<std::vector<double>> numbersOf(const APValue &V) {
  if (V.isStruct() && V.getStructNumFields() == 1)
    return numbersOf(V.getStructField(0));
  if (!V.isArray())
    return std::nullopt;
  std::vector<double> Out;
  for (unsigned I = 0; I < V.getArraySize(); ++I) {
    const APValue &Elt = I < V.getArrayInitializedElts()
                             ? V.getArrayInitializedElt(I)
                             : V.getArrayFiller();
    if (Elt.isFloat())
      Out.push_back(Elt.getFloat().convertToDouble());
    else if (Elt.isInt())
      Out.push_back(Elt.getInt().isSigned()
                        ? static_cast<double>(Elt.getInt().getSExtValue())
                        : static_cast<double>(Elt.getInt().getZExtValue()));
    else
      return std::nullopt;
  }
  return Out;
}

/// The value of a constant number, as a double.
std::optional<double> numberOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsRValue(R, Ctx) ||
      R.HasSideEffects || R.HasUndefinedBehavior)
    return std::nullopt;
  if (R.Val.isFloat())
    return R.Val.getFloat().convertToDouble();
  if (R.Val.isInt())
    return R.Val.getInt().isSigned()
               ? static_cast<double>(R.Val.getInt().getSExtValue())
               : static_cast<double>(R.Val.getInt().getZExtValue());
  return std::nullopt;
}

/// An integer or floating type; not bool or a character, which would make
/// costs("fast") five costs.
bool isNumber(QualType T) {
  return (T->isIntegerType() && !T->isBooleanType() &&
          !T->isAnyCharacterType()) ||
         T->isRealFloatingType();
}

/// Whether a note of Clang's constant evaluator reports an operation with
/// undefined behaviour on values it knew, rather than a value it did not.
bool isUndefinedOperation(unsigned NoteID) {
  switch (NoteID) {
  case diag::note_expr_divide_by_zero:
  case diag::note_constexpr_overflow:
  case diag::note_constexpr_large_shift:
  case diag::note_constexpr_negative_shift:
  case diag::note_constexpr_lshift_of_negative:
  case diag::note_constexpr_lshift_discards:
  case diag::note_constexpr_array_index:
  case diag::note_constexpr_access_past_end:
  case diag::note_constexpr_past_end:
    return true;
  default:
    return false;
  }
}

} // namespace

// E is no constant expression. When the reason is an operation with
// undefined behaviour, `1 / 0` say, rather than a value known only at run
// time, that is an error (the generated code would execute it): true after
// reporting it, at the operation, naming What.
bool Analysis::reportUndefined(const Expr *E, const ExprSlot &S,
                               llvm::StringRef What) {
  llvm::SmallVector<PartialDiagnosticAt, 4> Notes;
  Expr::EvalResult R;
  R.Diag = &Notes;
  (void)E->EvaluateAsRValue(R, Ctx, /*InConstantContext=*/true);
  // The evaluator stops at the first problem: a later note may follow from
  // it, the first says why.
  if (Notes.empty() || !isUndefinedOperation(Notes[0].second.getDiagID()))
    return false;
  llvm::SmallString<64> Why;
  Notes[0].second.EmitToString(Ctx.getDiagnostics(), Why);
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Notes[0].first;
  if (Loc.isInvalid() || !SM.isWrittenInMainFile(SM.getExpansionLoc(Loc)))
    Loc = S.Range.getBegin();
  error(SM.getExpansionLoc(Loc), Diags.UndefinedConstant)
      << What << S.Text << Why.str() << S.Range;
  return true;
}

// `a, b` where one expression is expected: Clang builds `(void)(a, b)` from
// the parenthesised list and does not keep the comma's location, so find it
// before the second operand. True after reporting one.
bool Analysis::reportComma(const Expr *E, llvm::StringRef What) {
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Comma)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = BO->getRHS()->getBeginLoc();
  if (!Loc.isFileID()) {
    Loc = SM.getExpansionLoc(Loc);
  } else {
    llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
    unsigned Offset = SM.getFileOffset(Loc);
    while (Offset > 0 &&
           isspace(static_cast<unsigned char>(Buffer[Offset - 1])))
      --Offset;
    if (Offset > 0 && Buffer[Offset - 1] == ',')
      Loc = Loc.getLocWithOffset(static_cast<int>(Offset) - 1 -
                                 static_cast<int>(SM.getFileOffset(Loc)));
  }
  error(Loc, Diags.CommaExpression) << What;
  return true;
}

// An integer parameter: its value when Clang can evaluate it. What names it
// in messages.
std::optional<int64_t> Analysis::integerSlot(const Directive &D, int Slot,
                                             const char *What) {
  const ExprSlot &S = D.Slots[Slot];
  if (!S.E)
    return std::nullopt;
  if (reportComma(S.E, What))
    return std::nullopt;
  if (S.E->isTypeDependent() || S.E->isValueDependent())
    return std::nullopt;
  QualType T = S.E->getType();
  if (!T->isIntegralOrUnscopedEnumerationType()) {
    error(S.Range.getBegin(), Diags.NotInteger) << What << T << S.Range;
    return std::nullopt;
  }
  llvm::Optional<llvm::APSInt> V = S.E->getIntegerConstantExpr(Ctx);
  if (!V) {
    reportUndefined(S.E, S, What);
    return std::nullopt;
  }
  if (V->isUnsigned() ? V->getActiveBits() > 63 : V->getMinSignedBits() > 64) {
    error(S.Range.getBegin(), Diags.TooLarge)
        << What << llvm::toString(*V, 10) << S.Range;
    return std::nullopt;
  }
  return V->getExtValue();
}

// The format of a distribute or redistribute: its parameter when constant.
std::optional<FormatValue> Analysis::formatOf(const Directive &D,
                                              const FormatSpec &Spec) {
  FormatValue F;
  F.Kind = Spec.Kind;
  if (Spec.Arg < 0)
    return F;
  const ExprSlot &S = D.Slots[Spec.Arg];
  F.ArgText = S.Text;
  F.BracedList = Spec.BracedList;
  if (F.Kind != FormatKind::GenBlock) {
    const unsigned Before = Diags.errorCount();
    F.Param = integerSlot(D, Spec.Arg, "block size");
    if (Diags.errorCount() != Before)
      return std::nullopt;
    if (F.Param && *F.Param <= 0) {
      error(S.Range.getBegin(), Diags.NotPositive)
          << "block size" << std::to_string(*F.Param) << S.Range;
      return std::nullopt;
    }
    return F;
  }
  return genBlockOf(S, F);
}

// gen_block(A): an array, std::array or std::vector of integers, or a braced
// list of them; the sizes when constant.
std::optional<FormatValue> Analysis::genBlockOf(const ExprSlot &S,
                                                FormatValue F) {
  if (!S.E)
    return F;
  if (reportComma(S.E, "gen_block: give one array of sizes"))
    return std::nullopt;
  auto CheckNegative = [&]() {
    if (F.Sizes)
      for (size_t I = 0; I < F.Sizes->size(); ++I)
        if ((*F.Sizes)[I] < 0) {
          error(S.Range.getBegin(), Diags.GenBlockNegative)
              << std::to_string((*F.Sizes)[I]) << std::to_string(I) << S.Range;
          return false;
        }
    return true;
  };
  if (F.BracedList) {
    // new long long[]{...} (PragmaParser): constant when every element is.
    const auto *New = dyn_cast<CXXNewExpr>(S.E->IgnoreParenImpCasts());
    const auto *List =
        New ? dyn_cast_or_null<InitListExpr>(New->getInitializer()) : nullptr;
    if (!List)
      return F;
    F.SizesCount = static_cast<int64_t>(List->getNumInits());
    std::vector<int64_t> Values;
    for (const Expr *Init : List->inits()) {
      // Clang has reported a narrowing from a non-integer.
      if (!Init->IgnoreImpCasts()->getType()->isIntegralOrEnumerationType() &&
          !Init->isTypeDependent()) {
        Failed = true;
        return std::nullopt;
      }
      if (Init->isValueDependent())
        return F;
      Expr::EvalResult R;
      if (!Init->EvaluateAsInt(R, Ctx) || R.HasUndefinedBehavior) {
        if (reportUndefined(Init, S, "gen_block size"))
          return std::nullopt;
        return F;
      }
      Values.push_back(R.Val.getInt().getExtValue());
    }
    F.Sizes = std::move(Values);
    return CheckNegative() ? std::optional<FormatValue>(F) : std::nullopt;
  }
  QualType T = S.E->getType().getNonReferenceType();
  if (T->isDependentType())
    return F;
  QualType Elt = sequenceElementType(T, Ctx, F.SizesCount);
  if (Elt.isNull() || !Elt->isIntegerType()) {
    error(S.Range.getBegin(), Diags.GenBlockType) << T << S.Range;
    return std::nullopt;
  }
  // Constant when A names a constexpr variable.
  if (const APValue *Value = constexprValueOf(S.E))
    F.Sizes = integersOf(*Value);
  if (!CheckNegative())
    return std::nullopt;
  return F;
}

// costs(C) or back_costs(C) of rebalance: a number, an array, std::array or
// std::vector of numbers, or a braced list of them; how many, and their
// values when constant, each positive and finite. What names the clause.
std::optional<CostsValue>
Analysis::costsOf(const Directive &D, const CostsSpec &C, const char *What) {
  CostsValue V;
  const ExprSlot &S = D.Slots[C.Arg];
  if (!S.E || S.E->isTypeDependent())
    return V;
  if (reportComma(S.E, std::string(What) + ": give one cost or a braced list"))
    return std::nullopt;
  // The value of entry I (of one when Single) is no positive finite number.
  auto CheckValue = [&](double Value, size_t I, bool Single, SourceLocation Loc,
                        SourceRange Range) {
    if (Value > 0 && std::isfinite(Value))
      return true;
    std::string Name = What;
    if (!Single)
      Name += "[" + std::to_string(I) + "]";
    char Text[32];
    std::snprintf(Text, sizeof Text, "%g", Value);
    error(Loc, Diags.RingCostValue) << Name << Text << Range;
    return false;
  };
  if (C.BracedList) {
    // new double[]{...} (PragmaParser): each element at its own place.
    const auto *New = dyn_cast<CXXNewExpr>(S.E->IgnoreParenImpCasts());
    const auto *List =
        New ? dyn_cast_or_null<InitListExpr>(New->getInitializer()) : nullptr;
    if (!List)
      return V;
    V.Count = static_cast<int64_t>(List->getNumInits());
    std::vector<double> Values;
    bool Constant = true;
    const SourceManager &SM = Ctx.getSourceManager();
    for (unsigned I = 0; I < List->getNumInits(); ++I) {
      const Expr *Init = List->getInit(I);
      std::optional<double> Value = numberOf(Init, Ctx);
      if (!Value) {
        Constant = false;
        continue;
      }
      SourceRange Range(SM.getExpansionLoc(Init->getBeginLoc()),
                        SM.getExpansionLoc(Init->getEndLoc()));
      if (!CheckValue(*Value, I, List->getNumInits() == 1, Range.getBegin(),
                      Range))
        return std::nullopt;
      Values.push_back(*Value);
    }
    if (Constant)
      V.Values = std::move(Values);
    return V;
  }
  QualType T = S.E->getType().getNonReferenceType();
  if (isNumber(T)) {
    V.Count = 1;
    if (std::optional<double> Value = numberOf(S.E, Ctx)) {
      if (!CheckValue(*Value, 0, true, S.Range.getBegin(), S.Range))
        return std::nullopt;
      V.Values = std::vector<double>{*Value};
    }
    return V;
  }
  QualType Elt = sequenceElementType(T, Ctx, V.Count);
  if (Elt.isNull() || !isNumber(Elt)) {
    error(S.Range.getBegin(), Diags.RingCostType) << What << T << S.Range;
    return std::nullopt;
  }
  // Constant when C names a constexpr variable (as for gen_block).
  if (const APValue *Value = constexprValueOf(S.E))
    V.Values = numbersOf(*Value);
  if (V.Values)
    for (size_t I = 0; I < V.Values->size(); ++I)
      if (!CheckValue((*V.Values)[I], I, false, S.Range.getBegin(), S.Range))
        return std::nullopt;
  return V;
}

} // namespace redistc
