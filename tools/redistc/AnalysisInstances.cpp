//===- AnalysisInstances.cpp - Function templates, one instance at a time -===//
//
// In a function template, a parameter that depends on a template parameter
// is a constant in each instantiation, not in the template. For a dynamic
// action directly in a function template, the instantiations of the template
// in this file are analysed again, each as if its template arguments were
// written in; each gets the condition (on the template's parameters) that
// picks its code at compile time. Their errors go to a quiet engine: an
// instance that fails keeps the runtime path.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace redistc {

namespace {

/// Whether generated code in any function can name T: builtin types, and
/// named classes and enumerations at namespace scope (class templates with
/// such arguments too).
bool isNameable(QualType T) {
  T = T.getCanonicalType();
  if (T->isBuiltinType())
    return true;
  if (T->isPointerType())
    return isNameable(T->getPointeeType());
  const auto *TD = T->getAsTagDecl();
  if (!TD || !TD->getIdentifier())
    return false;
  for (const DeclContext *DC = TD->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent())
    if (!DC->isNamespace())
      return false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (!(Arg.getKind() == TemplateArgument::Integral ||
            (Arg.getKind() == TemplateArgument::Type &&
             isNameable(Arg.getAsType()))))
        return false;
  return true;
}

/// An integer literal of V's value and signedness: plain when an int holds
/// it, else of a 64-bit type.
std::string integerLiteral(const llvm::APSInt &V) {
  std::string Digits = llvm::toString(V, 10);
  if (V.isUnsigned())
    return Digits + (V.getActiveBits() <= 31 ? "U" : "ULL");
  if (V.getMinSignedBits() <= 32)
    return V.isNegative() ? "(" + Digits + ")" : Digits;
  // -9223372036854775808 is not a literal: the minus applies to a number
  // that does not fit.
  if (V.getMinSignedBits() == 64 && V.isMinSignedValue())
    return "(-9223372036854775807LL - 1)";
  return V.isNegative() ? "(" + Digits + "LL)" : Digits + "LL";
}

/// A C++ condition true in the function template specialization Spec only,
/// written with the template's parameter names; and Spec's name. None when
/// some argument cannot be written (a pack, an unnamed parameter, a type
/// local to a function, a template template argument, ...).
std::optional<std::string> instanceCondition(const ASTContext &Ctx,
                                             const FunctionDecl *Spec,
                                             std::string &Name) {
  const FunctionTemplateDecl *Template = Spec->getPrimaryTemplate();
  const TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs();
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressUnwrittenScope = true;
  llvm::raw_string_ostream OS(Name);
  Spec->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  OS.flush();
  if (!Template || !Args)
    return std::nullopt;
  const TemplateParameterList *Params = Template->getTemplateParameters();
  if (Params->size() != Args->size())
    return std::nullopt;
  std::string Condition;
  for (unsigned I = 0; I < Params->size(); ++I) {
    const NamedDecl *Param = Params->getParam(I);
    const TemplateArgument &Arg = Args->get(I);
    std::string ParamName = Param->getName().str();
    // Invented parameters (of `auto` function parameters) have no name the
    // code can use.
    if (ParamName.empty() || Param->isImplicit() || Param->isParameterPack())
      return std::nullopt;
    std::string Test;
    if (isa<NonTypeTemplateParmDecl>(Param) &&
        Arg.getKind() == TemplateArgument::Integral) {
      // Plain integers compare with a literal; bool, characters and
      // enumerations with a value of their own type.
      QualType T = Arg.getIntegralType().getCanonicalType();
      std::string Literal = integerLiteral(Arg.getAsIntegral());
      if (T->isBooleanType())
        Literal = Arg.getAsIntegral().getBoolValue() ? "true" : "false";
      else if (T->isAnyCharacterType() || T->isEnumeralType())
        Literal = "static_cast<decltype(" + ParamName + ")>(" + Literal + ")";
      Test = ParamName + " == " + Literal;
    } else if (isa<TemplateTypeParmDecl>(Param) &&
               Arg.getKind() == TemplateArgument::Type &&
               isNameable(Arg.getAsType())) {
      Test = "std::is_same_v<" + ParamName + ", " +
             TypeName::getFullyQualifiedName(Arg.getAsType().getCanonicalType(),
                                             Ctx, Policy,
                                             /*WithGlobalNsPrefix=*/true) +
             ">";
    } else {
      return std::nullopt;
    }
    Condition += (Condition.empty() ? "" : " && ") + Test;
  }
  return Condition.empty() ? std::nullopt
                           : std::optional<std::string>(Condition);
}

/// Keeps the first error of an instantiation's analysis, for the report,
/// and prints nothing: the template itself was analysed already.
class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Message = std::string(Text);
  }
  std::string Message;
};

/// Formats types and declarations in the quiet engine's messages with the
/// main engine, which Sema has set up.
void formatWithMainEngine(DiagnosticsEngine::ArgumentKind Kind, intptr_t Val,
                          StringRef Modifier, StringRef Argument,
                          ArrayRef<DiagnosticsEngine::ArgumentValue> PrevArgs,
                          SmallVectorImpl<char> &Output, void *Cookie,
                          ArrayRef<intptr_t> QualTypeVals) {
  static_cast<const DiagnosticsEngine *>(Cookie)->ConvertArgToString(
      Kind, Val, Modifier, Argument, PrevArgs, Output, QualTypeVals);
}

} // namespace

// A dynamic action directly in a function template may have constant
// parameters in each instantiation: analyse every instantiation in this file
// as if its arguments were written in, quietly (an instantiation that fails
// keeps the runtime path, which reports the problem if it ever runs).
void Analysis::analyseInstances() {
  std::vector<const FunctionTemplateDecl *> Templates;
  for (const auto &A : Actions) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(A->Where.Function);
    const FunctionTemplateDecl *T =
        F ? F->getDescribedFunctionTemplate() : nullptr;
    if (T && A->isDynamic() && !llvm::is_contained(Templates, T))
      Templates.push_back(T);
  }
  for (const FunctionTemplateDecl *T : Templates) {
    const DeclContext *Pattern = T->getTemplatedDecl();
    for (const FunctionDecl *Spec : T->specializations()) {
      // An explicit specialization has a body of its own.
      const FunctionDecl *Def = nullptr;
      if (Spec->getTemplateSpecializationKind() == TSK_ExplicitSpecialization ||
          !Spec->hasBody(Def) || Def->getPrimaryTemplate() != T)
        continue;
      std::string Name;
      std::optional<std::string> Condition = instanceCondition(Ctx, Def, Name);
      // Without a condition or an analysis the instance is only reported.
      auto addInstances = [&](const Analysis *InInstance,
                              const std::string &Why) {
        for (size_t I = 0; I < Results.size(); ++I) {
          const ActionInfo *A = Results[I].Action;
          if (!A || A->Where.Function != Pattern || !A->isDynamic())
            continue;
          InstanceAction Instance{Name, Condition.value_or(""), nullptr, Why};
          if (InInstance)
            Instance.Action = InInstance->Results[I].Action;
          if (!Instance.Action && Instance.Why.empty())
            Instance.Why = "its analysis failed";
          Results[I].Instances.push_back(std::move(Instance));
        }
      };
      if (!Condition) {
        addInstances(nullptr, "redistc cannot write its template arguments "
                              "in the generated code");
        continue;
      }
      auto Data = std::make_unique<InstanceData>();
      auto Errors = std::make_unique<FirstError>();
      const std::string &FirstMessage = Errors->Message;
      Data->Errors = std::move(Errors);
      Data->Directives = Directives;
      DiagnosticsEngine &Main = Ctx.getDiagnostics();
      Data->Engine = std::make_unique<DiagnosticsEngine>(
          Main.getDiagnosticIDs(), new DiagnosticOptions, Data->Errors.get(),
          /*ShouldOwnClient=*/false);
      Data->Engine->setSourceManager(&Ctx.getSourceManager());
      Data->Engine->SetArgToStringFn(formatWithMainEngine, &Main);
      Data->Diags = std::make_unique<Diagnostics>(*Data->Engine);
      Data->A = std::make_unique<Analysis>(Ctx, *Data->Diags, Data->Directives,
                                           *this, *Def);
      if (!Data->A->run()) {
        addInstances(nullptr, FirstMessage.empty()
                                  ? ""
                                  : "in this instantiation, " + FirstMessage);
        continue;
      }
      addInstances(Data->A.get(), "");
      InstanceAnalyses.push_back(std::move(Data));
    }
  }
}

} // namespace redistc
