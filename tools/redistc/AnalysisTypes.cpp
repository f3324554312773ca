//===- AnalysisTypes.cpp - The types of the distributed variables ---------===//
//
// What kind of variable a directive names (std::vector, pointer or array),
// its element type, which must be trivially copyable, and the element size;
// in a function template, as far as the template tells. Also the type of
// comm(EXPR), which must be MPI_Comm.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace redistc {

namespace {

/// Whether a dependent type names std::NAME<...>; its first argument then.
std::optional<QualType> dependentStdTemplate(QualType T, llvm::StringRef Name) {
  const auto *TST = T->getAs<TemplateSpecializationType>();
  if (!TST)
    return std::nullopt;
  const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
  if (!TD || TD->getName() != Name || !TD->isInStdNamespace() ||
      TST->getNumArgs() < 1 ||
      TST->getArg(0).getKind() != TemplateArgument::Type)
    return std::nullopt;
  return TST->getArg(0).getAsType();
}

} // namespace

// MPI_Comm, when mpi.h is included, to check comm(EXPR).
void Analysis::findMPICommType() {
  DeclContextLookupResult Found = Ctx.getTranslationUnitDecl()->lookup(
      DeclarationName(&Ctx.Idents.get("MPI_Comm")));
  for (NamedDecl *ND : Found)
    if (auto *TD = dyn_cast<TypedefNameDecl>(ND))
      MPICommType = Ctx.getTypedefType(TD).getCanonicalType();
}

// The class template specialization std::NAME<...> that T is, if any.
const ClassTemplateSpecializationDecl *
Analysis::stdTemplate(QualType T, llvm::StringRef Name) {
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() ||
      Spec->getSpecializedTemplate()->getName() != Name)
    return nullptr;
  return Spec;
}

// The element type of a C array, std::vector or std::array type T (null for
// any other type); Count gets the element count where the type fixes it.
QualType Analysis::sequenceElementType(QualType T, const ASTContext &Ctx,
                                       std::optional<int64_t> &Count) {
  if (const auto *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      Count = static_cast<int64_t>(CAT->getSize().getZExtValue());
    return AT->getElementType();
  }
  if (const auto *Vec = stdTemplate(T, "vector"))
    return Vec->getTemplateArgs()[0].getAsType();
  if (const auto *Arr = stdTemplate(T, "array")) {
    const TemplateArgument &N = Arr->getTemplateArgs()[1];
    if (N.getKind() == TemplateArgument::Integral)
      Count = N.getAsIntegral().getExtValue();
    return Arr->getTemplateArgs()[0].getAsType();
  }
  return QualType();
}

// VAR: a std::vector, a pointer or an array of a trivially copyable element
// type, or, in a template, of a type that depends on a template parameter.
std::optional<VariableInfo> Analysis::variableSlot(const Directive &D,
                                                   int Slot) {
  const ExprSlot &S = D.Slots[Slot];
  if (!S.E)
    return std::nullopt;
  VariableInfo V;
  V.Text = S.Text;
  V.Decl = boundVariable(S);
  if (!V.Decl)
    return std::nullopt;
  QualType T = V.Decl->getType().getNonReferenceType();
  if (T->isDependentType()) {
    if (std::optional<QualType> Elt = dependentStdTemplate(T, "vector")) {
      V.Kind = VarKind::Vector;
      V.Element = *Elt;
    } else if (T->isPointerType()) {
      V.Kind = VarKind::Pointer;
      V.Element = T->getPointeeType();
    } else if (T->isArrayType()) {
      V.Kind = VarKind::Array;
      V.Element = Ctx.getAsArrayType(T)->getElementType();
    } else {
      error(S.Range.getBegin(), Diags.DependentVariable) << S.Text << S.Range;
      return std::nullopt;
    }
  } else if (const auto *Spec = stdTemplate(T, "vector")) {
    V.Kind = VarKind::Vector;
    V.Element = Spec->getTemplateArgs()[0].getAsType();
    if (T.isConstQualified())
      V.Element.addConst();
  } else if (T->isPointerType()) {
    V.Kind = VarKind::Pointer;
    V.Element = T->getPointeeType();
  } else if (const auto *AT = Ctx.getAsArrayType(T)) {
    V.Kind = VarKind::Array;
    V.Element = AT->getElementType();
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      V.ArraySize = static_cast<int64_t>(CAT->getSize().getZExtValue());
  } else {
    error(S.Range.getBegin(), Diags.BadVariableType) << S.Text << T << S.Range;
    return std::nullopt;
  }
  V.DependentElement = V.Element->isDependentType();
  if (V.DependentElement)
    return V;
  if (V.Element->isIncompleteType() || V.Element->isFunctionType()) {
    error(S.Range.getBegin(), Diags.BadVariableType) << S.Text << T << S.Range;
    return std::nullopt;
  }
  if (!V.Element.isTriviallyCopyableType(Ctx)) {
    error(S.Range.getBegin(), Diags.NotTriviallyCopyable)
        << V.Element.getUnqualifiedType() << S.Text << S.Range;
    return std::nullopt;
  }
  V.ElementBytes = Ctx.getTypeSizeInChars(V.Element).getQuantity();
  return V;
}

// comm(EXPR) must be an MPI_Comm, when mpi.h tells what that is.
bool Analysis::checkComm(const Directive &D) {
  if (D.Comm < 0 || MPICommType.isNull())
    return true;
  const ExprSlot &S = D.Slots[D.Comm];
  if (!S.E || S.E->isTypeDependent())
    return true;
  QualType T = S.E->getType().getNonReferenceType();
  if (Ctx.hasSameUnqualifiedType(T, MPICommType))
    return true;
  error(S.Range.getBegin(), Diags.CommType) << T << S.Range;
  return false;
}

} // namespace redistc
