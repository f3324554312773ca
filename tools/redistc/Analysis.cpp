//===- Analysis.cpp - What the directives mean ----------------------------===//

#include "Analysis.h"

#include "redist/Error.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace redistc {

bool FormatValue::isConstant() const {
  switch (Kind) {
  case FormatKind::Block:
  case FormatKind::Cyclic:
    return true;
  case FormatKind::BlockSized:
  case FormatKind::CyclicSized:
    return Param.has_value();
  case FormatKind::GenBlock:
    return Sizes.has_value();
  }
  return false;
}

std::string FormatValue::spelling() const {
  switch (Kind) {
  case FormatKind::Block:
    return "block";
  case FormatKind::Cyclic:
    return "cyclic";
  case FormatKind::BlockSized:
    return "block(" + ArgText + ")";
  case FormatKind::CyclicSized:
    return "cyclic(" + ArgText + ")";
  case FormatKind::GenBlock:
    return "gen_block(" + ArgText + ")";
  }
  return "";
}

namespace {

/// The injected static_asserts, found by their location (the '#').
class DirectiveFinder : public RecursiveASTVisitor<DirectiveFinder> {
public:
  explicit DirectiveFinder(const llvm::DenseMap<unsigned, size_t> &Index)
      : Index(Index) {}

  bool VisitStaticAssertDecl(StaticAssertDecl *D) {
    auto It = Index.find(D->getLocation().getRawEncoding());
    if (It != Index.end() && !Decls.count(It->second))
      Decls[It->second] = D;
    return true;
  }
  bool VisitDeclStmt(DeclStmt *S) {
    for (Decl *D : S->decls())
      if (auto *SA = dyn_cast<StaticAssertDecl>(D)) {
        auto It = Index.find(SA->getLocation().getRawEncoding());
        if (It != Index.end())
          Stmts[It->second] = S;
      }
    return true;
  }

  const llvm::DenseMap<unsigned, size_t> &Index;
  llvm::DenseMap<size_t, const StaticAssertDecl *> Decls;
  llvm::DenseMap<size_t, const DeclStmt *> Stmts;
};

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

/// The operands of a left-nested `a, b, c` chain, left to right.
void flattenComma(const Expr *E, std::vector<const Expr *> &Out) {
  E = E->IgnoreImplicit();
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->getOpcode() == BO_Comma) {
      flattenComma(BO->getLHS(), Out);
      flattenComma(BO->getRHS(), Out);
      return;
    }
  Out.push_back(E);
}

/// The slots' expressions in `true || ((void)(S1), ..., (void)(Sn), true)`,
/// null where Clang could not build one; empty if the shape is not that.
std::vector<const Expr *> slotExprs(const Expr *Assert, size_t Count) {
  const auto *Or = dyn_cast<BinaryOperator>(Assert->IgnoreImplicit());
  if (!Or || Or->getOpcode() != BO_LOr)
    return {};
  std::vector<const Expr *> Leaves;
  flattenComma(Or->getRHS()->IgnoreParens(), Leaves);
  if (Leaves.size() != Count + 1)
    return {};
  std::vector<const Expr *> Out;
  for (size_t I = 0; I < Count; ++I) {
    const auto *Cast = dyn_cast<CStyleCastExpr>(Leaves[I]);
    const Expr *E = Cast ? Cast->getSubExpr()->IgnoreImplicit() : nullptr;
    if (const auto *Paren = dyn_cast_or_null<ParenExpr>(E))
      E = Paren->getSubExpr();
    Out.push_back(E && !E->containsErrors() ? E : nullptr);
  }
  return Out;
}

/// The class template specialization std::NAME<...> that T is, if any.
const ClassTemplateSpecializationDecl *stdTemplate(QualType T,
                                                   llvm::StringRef Name) {
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() ||
      Spec->getSpecializedTemplate()->getName() != Name)
    return nullptr;
  return Spec;
}

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

std::string str(int64_t V) { return std::to_string(V); }

/// The distribution F describes over Procs processes. Throws
/// redist::InvalidArgument.
redist::Distribution makeDistribution(const FormatValue &F, int64_t Procs) {
  switch (F.Kind) {
  case FormatKind::Block:
    return redist::Distribution::block(Procs);
  case FormatKind::BlockSized:
    return redist::Distribution::block(Procs, *F.Param);
  case FormatKind::Cyclic:
    return redist::Distribution::cyclic(Procs);
  case FormatKind::CyclicSized:
    return redist::Distribution::cyclic(Procs, *F.Param);
  case FormatKind::GenBlock:
    return redist::Distribution::genBlock(*F.Sizes);
  }
  return redist::Distribution::block(Procs);
}

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

struct Analysis::InstanceData {
  /// A copy of the directives, their expressions bound in the instance.
  std::vector<Directive> Directives;
  FirstError Errors;
  std::unique_ptr<clang::DiagnosticsEngine> Engine;
  std::unique_ptr<Diagnostics> Diags;
  std::unique_ptr<Analysis> A;
};

Analysis::Analysis(ASTContext &Ctx, Diagnostics &Diags,
                   std::vector<Directive> &Directives)
    : Ctx(Ctx), Diags(Diags), Directives(Directives) {}

Analysis::Analysis(ASTContext &Ctx, Diagnostics &Diags,
                   std::vector<Directive> &Directives, const Analysis &Parent,
                   const FunctionDecl &Instance)
    : Ctx(Ctx), Diags(Diags), Directives(Directives), Parent(&Parent),
      Instance(&Instance) {}

Analysis::~Analysis() = default;

// Clang builds `(void)(a, b)` from a parenthesised list and does not keep
// the comma's location: find it before the second operand.
SourceLocation Analysis::commaBefore(const Expr *Rhs) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Rhs->getBeginLoc();
  if (!Loc.isFileID())
    return SM.getExpansionLoc(Loc);
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
  unsigned Offset = SM.getFileOffset(Loc);
  while (Offset > 0 && isspace(static_cast<unsigned char>(Buffer[Offset - 1])))
    --Offset;
  if (Offset > 0 && Buffer[Offset - 1] == ',')
    return Loc.getLocWithOffset(static_cast<int>(Offset) - 1 -
                                static_cast<int>(SM.getFileOffset(Loc)));
  return Loc;
}

unsigned Analysis::offsetOf(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (!SM.isWrittenInMainFile(L))
    return SM.getBufferData(SM.getMainFileID()).size();
  return SM.getFileOffset(L);
}

bool Analysis::run() {
  if (Directives.empty())
    return true;
  // MPI_Comm, when mpi.h is included, to check comm(EXPR).
  DeclContextLookupResult Found = Ctx.getTranslationUnitDecl()->lookup(
      DeclarationName(&Ctx.Idents.get("MPI_Comm")));
  for (NamedDecl *ND : Found)
    if (auto *TD = dyn_cast<TypedefNameDecl>(ND))
      MPICommType = Ctx.getTypedefType(TD).getCanonicalType();

  bool Bound = bindSlots();
  if (!placeDirectives() || !Bound)
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
    }
  }
  trackDistributions();
  if (!Parent && !Failed && !Diags.hasErrors())
    analyseInstances();
  return !Failed && !Diags.hasErrors();
}

// Finds each directive's static_assert and binds its expressions.
bool Analysis::bindSlots() {
  llvm::DenseMap<unsigned, size_t> Index;
  for (size_t I = 0; I < Directives.size(); ++I)
    Index[Directives[I].HashLoc.getRawEncoding()] = I;
  DirectiveFinder Finder(Index);
  if (Parent) {
    // The template's analysis walked the file already; the instantiated
    // declarations keep the template's locations.
    Finder.Decls = Parent->FoundDecls;
    Finder.Stmts = Parent->FoundStmts;
    DirectiveFinder InInstance(Index);
    InInstance.TraverseDecl(const_cast<FunctionDecl *>(Instance));
    for (const auto &Found : InInstance.Decls)
      Finder.Decls[Found.first] = Found.second;
    for (const auto &Found : InInstance.Stmts)
      Finder.Stmts[Found.first] = Found.second;
  } else {
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    FoundDecls = Finder.Decls;
    FoundStmts = Finder.Stmts;
  }

  Places.resize(Directives.size());
  Placed.assign(Directives.size(), false);
  for (size_t I = 0; I < Directives.size(); ++I) {
    Directive &D = Directives[I];
    auto It = Finder.Decls.find(I);
    if (It == Finder.Decls.end()) {
      // Clang dropped the declaration after reporting why.
      Failed = true;
      continue;
    }
    const StaticAssertDecl *SA = It->second;
    std::vector<const Expr *> Exprs =
        slotExprs(SA->getAssertExpr(), D.Slots.size());
    if (Exprs.empty()) {
      Failed = true;
      continue;
    }
    for (size_t S = 0; S < D.Slots.size(); ++S)
      D.Slots[S].E = Exprs[S];

    // Where the directive sits.
    Placement &P = Places[I];
    P.Begin = offsetOf(D.HashLoc);
    const DeclContext *DC = SA->getDeclContext();
    if (DC->isRecord()) {
      // Normally refused by the pragma handler already.
      P.Scope = ScopeKind::Class;
    } else if (DC->isFunctionOrMethod()) {
      P.Scope = ScopeKind::Block;
      P.Function = DC;
      auto StmtIt = Finder.Stmts.find(I);
      if (StmtIt == Finder.Stmts.end()) {
        Failed = true;
        continue;
      }
      // The innermost block around the declaration statement.
      DynTypedNode Node = DynTypedNode::create(*StmtIt->second);
      bool Direct = true;
      while (true) {
        DynTypedNodeList Parents = Ctx.getParents(Node);
        if (Parents.empty())
          break;
        Node = Parents[0];
        if (const auto *CS = Node.get<CompoundStmt>()) {
          P.Block = CS;
          break;
        }
        Direct = false;
      }
      if (!P.Block) {
        Failed = true;
        continue;
      }
      if (Direct) {
        auto Body = P.Block->body();
        auto Pos = llvm::find(Body, StmtIt->second);
        P.IndexInBlock = static_cast<int>(Pos - Body.begin());
      }
      P.ScopeKey = P.Block;
      P.RegionEnd = offsetOf(P.Block->getRBracLoc());
    } else {
      P.Scope = ScopeKind::Namespace;
      while (!isa<TranslationUnitDecl>(DC) && !isa<NamespaceDecl>(DC))
        DC = DC->getParent();
      P.ScopeKey = DC;
      if (const auto *ND = dyn_cast<NamespaceDecl>(DC))
        P.RegionEnd = offsetOf(ND->getRBraceLoc());
      else
        P.RegionEnd = offsetOf(SourceLocation());
    }
    Placed[I] = true;
  }
  return !Failed;
}

bool Analysis::placeDirectives() {
  for (size_t I = 0; I < Directives.size(); ++I) {
    if (!Placed[I])
      continue;
    const Directive &D = Directives[I];
    const Placement &P = Places[I];
    bool IsAction = D.Kind == DirectiveKind::Redistribute ||
                    D.Kind == DirectiveKind::Assign;
    if (P.Scope == ScopeKind::Class) {
      Diags.report(D.KeywordLoc, Diags.BadScope) << directiveName(D.Kind);
      Failed = true;
      continue;
    }
    if (IsAction && P.Scope != ScopeKind::Block) {
      Diags.report(D.KeywordLoc, Diags.ActionOutsideFunction)
          << directiveName(D.Kind);
      Failed = true;
    }
    // Declarations become declarations: they must not be the body of a
    // statement, where they would go out of scope at once.
    if (!IsAction && P.Scope == ScopeKind::Block && P.IndexInBlock < 0) {
      Diags.report(D.KeywordLoc, Diags.DeclarationNotInBlock)
          << directiveName(D.Kind);
      Failed = true;
    }
  }
  return !Failed;
}

std::optional<int64_t> Analysis::integerSlot(const Directive &D, int Slot,
                                             const char *What) {
  const ExprSlot &S = D.Slots[Slot];
  if (!S.E)
    return std::nullopt;
  if (const auto *BO = dyn_cast<BinaryOperator>(S.E))
    if (BO->getOpcode() == BO_Comma) {
      Diags.report(commaBefore(BO->getRHS()), Diags.CommaExpression) << What;
      Failed = true;
      return std::nullopt;
    }
  if (S.E->isTypeDependent() || S.E->isValueDependent())
    return std::nullopt;
  QualType T = S.E->getType();
  if (!T->isIntegralOrUnscopedEnumerationType()) {
    Diags.report(S.Range.getBegin(), Diags.NotInteger) << What << T << S.Range;
    Failed = true;
    return std::nullopt;
  }
  llvm::Optional<llvm::APSInt> V = S.E->getIntegerConstantExpr(Ctx);
  if (!V)
    return std::nullopt;
  if (V->isUnsigned() ? V->getActiveBits() > 63 : V->getMinSignedBits() > 64) {
    Diags.report(S.Range.getBegin(), Diags.TooLarge)
        << What << llvm::toString(*V, 10) << S.Range;
    Failed = true;
    return std::nullopt;
  }
  return V->getExtValue();
}

std::optional<VariableInfo> Analysis::variableSlot(const Directive &D,
                                                   int Slot) {
  const ExprSlot &S = D.Slots[Slot];
  if (!S.E)
    return std::nullopt;
  VariableInfo V;
  V.Text = S.Text;
  const Expr *E = S.E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<VarDecl>(DRE->getDecl()))
      V.Decl = DRE->getDecl();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<FieldDecl>(ME->getMemberDecl()) ||
        isa<VarDecl>(ME->getMemberDecl()))
      V.Decl = ME->getMemberDecl();
  }
  if (!V.Decl) {
    Diags.report(S.Range.getBegin(), Diags.NotVariable) << S.Range;
    Failed = true;
    return std::nullopt;
  }
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
      Diags.report(S.Range.getBegin(), Diags.DependentVariable)
          << S.Text << S.Range;
      Failed = true;
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
    Diags.report(S.Range.getBegin(), Diags.BadVariableType)
        << S.Text << T << S.Range;
    Failed = true;
    return std::nullopt;
  }
  V.DependentElement = V.Element->isDependentType();
  if (V.DependentElement)
    return V;
  if (V.Element->isIncompleteType() || V.Element->isFunctionType()) {
    Diags.report(S.Range.getBegin(), Diags.BadVariableType)
        << S.Text << T << S.Range;
    Failed = true;
    return std::nullopt;
  }
  if (!V.Element.isTriviallyCopyableType(Ctx)) {
    Diags.report(S.Range.getBegin(), Diags.NotTriviallyCopyable)
        << V.Element.getUnqualifiedType() << S.Text << S.Range;
    Failed = true;
    return std::nullopt;
  }
  V.ElementBytes = Ctx.getTypeSizeInChars(V.Element).getQuantity();
  return V;
}

std::optional<FormatValue> Analysis::formatOf(const Directive &D) {
  FormatValue F;
  F.Kind = D.Format.Kind;
  if (D.Format.Arg < 0)
    return F;
  const ExprSlot &S = D.Slots[D.Format.Arg];
  F.ArgText = S.Text;
  F.BracedList = D.Format.BracedList;
  if (F.Kind != FormatKind::GenBlock) {
    const unsigned Before = Diags.errorCount();
    F.Param = integerSlot(D, D.Format.Arg, "block size");
    if (Diags.errorCount() != Before)
      return std::nullopt;
    if (F.Param && *F.Param <= 0) {
      Diags.report(S.Range.getBegin(), Diags.NotPositive)
          << "block size" << str(*F.Param) << S.Range;
      Failed = true;
      return std::nullopt;
    }
    return F;
  }

  // gen_block(A): an array, std::array or std::vector of integers, or a
  // braced list of them.
  if (!S.E)
    return F;
  if (const auto *BO = dyn_cast<BinaryOperator>(S.E))
    if (BO->getOpcode() == BO_Comma) {
      Diags.report(commaBefore(BO->getRHS()), Diags.CommaExpression)
          << "gen_block: give one array of sizes";
      Failed = true;
      return std::nullopt;
    }
  auto CheckNegative = [&]() {
    if (F.Sizes)
      for (size_t I = 0; I < F.Sizes->size(); ++I)
        if ((*F.Sizes)[I] < 0) {
          Diags.report(S.Range.getBegin(), Diags.GenBlockNegative)
              << str((*F.Sizes)[I]) << str(static_cast<int64_t>(I)) << S.Range;
          Failed = true;
          return false;
        }
    return true;
  };
  if (D.Format.BracedList) {
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
      Expr::EvalResult R;
      if (Init->isValueDependent() || !Init->EvaluateAsInt(R, Ctx))
        return F;
      Values.push_back(R.Val.getInt().getExtValue());
    }
    F.Sizes = std::move(Values);
    return CheckNegative() ? std::optional<FormatValue>(F) : std::nullopt;
  }
  QualType T = S.E->getType().getNonReferenceType();
  if (T->isDependentType())
    return F;
  QualType Elt;
  if (const auto *AT = Ctx.getAsArrayType(T)) {
    Elt = AT->getElementType();
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      F.SizesCount = static_cast<int64_t>(CAT->getSize().getZExtValue());
  } else if (const auto *Vec = stdTemplate(T, "vector")) {
    Elt = Vec->getTemplateArgs()[0].getAsType();
  } else if (const auto *Arr = stdTemplate(T, "array")) {
    Elt = Arr->getTemplateArgs()[0].getAsType();
    const TemplateArgument &Count = Arr->getTemplateArgs()[1];
    if (Count.getKind() == TemplateArgument::Integral)
      F.SizesCount = Count.getAsIntegral().getExtValue();
  }
  if (Elt.isNull() || !Elt->isIntegerType()) {
    Diags.report(S.Range.getBegin(), Diags.GenBlockType) << T << S.Range;
    Failed = true;
    return std::nullopt;
  }
  // Constant when A names a constexpr variable.
  const Expr *E = S.E->IgnoreParenImpCasts();
  const ValueDecl *VD = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    VD = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    VD = ME->getMemberDecl();
  if (const auto *Var = dyn_cast_or_null<VarDecl>(VD))
    if (Var->isConstexpr())
      if (const APValue *Value = Var->evaluateValue())
        F.Sizes = integersOf(*Value);
  if (!CheckNegative())
    return std::nullopt;
  return F;
}

bool Analysis::checkComm(const Directive &D) {
  if (D.Comm < 0 || MPICommType.isNull())
    return true;
  const ExprSlot &S = D.Slots[D.Comm];
  if (!S.E || S.E->isTypeDependent())
    return true;
  QualType T = S.E->getType().getNonReferenceType();
  if (Ctx.hasSameUnqualifiedType(T, MPICommType))
    return true;
  Diags.report(S.Range.getBegin(), Diags.CommType) << T << S.Range;
  Failed = true;
  return false;
}

const ArrangementInfo *Analysis::findArrangement(const NameRef &Name,
                                                 unsigned At) {
  const ArrangementInfo *Best = nullptr;
  for (const auto &A : Arrangements)
    if (A->D->Arrangement.Name == Name.Name && A->Where.Begin < At &&
        At <= A->Where.RegionEnd &&
        (!Best || A->Where.Begin > Best->Where.Begin))
      Best = A.get();
  return Best;
}

DistributionInfo *Analysis::findDistribution(const ValueDecl *Decl,
                                             unsigned At) {
  DistributionInfo *Best = nullptr;
  for (const auto &Dist : Distributions)
    if (Dist->Var.Decl == Decl && Dist->Where.Begin < At &&
        At <= Dist->Where.RegionEnd &&
        (!Best || Dist->Where.Begin > Best->Where.Begin))
      Best = Dist.get();
  return Best;
}

void Analysis::analyseProcessors(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto A = std::make_unique<ArrangementInfo>();
  A->D = &D;
  A->Where = P;
  const unsigned Before = Diags.errorCount();
  A->Extent = integerSlot(D, D.Extent, "number of processes");
  if (A->Extent && *A->Extent <= 0) {
    const ExprSlot &S = D.Slots[D.Extent];
    Diags.report(S.Range.getBegin(), Diags.NotPositive)
        << "number of processes" << str(*A->Extent) << S.Range;
    Failed = true;
  }
  checkComm(D);
  for (const auto &Other : Arrangements)
    if (Other->D->Arrangement.Name == D.Arrangement.Name &&
        Other->Where.ScopeKey == P.ScopeKey) {
      Diags.report(D.Arrangement.Loc, Diags.ArrangementRedeclared)
          << D.Arrangement.Name;
      Diags.report(Other->D->Arrangement.Loc, Diags.PreviousHere)
          << "declaration";
      Failed = true;
    }
  if (Diags.errorCount() != Before)
    return;
  Results[D.Id - 1].Arrangement = A.get();
  Arrangements.push_back(std::move(A));
}

bool Analysis::checkFormat(const FormatValue &F, std::optional<int64_t> Procs,
                           std::optional<int64_t> Extent,
                           const std::string &VarName,
                           const std::string &ArrangementName,
                           const Directive &D) {
  SourceLocation Loc = D.Format.Loc;
  if (F.Kind == FormatKind::GenBlock) {
    const ExprSlot &S = D.Slots[D.Format.Arg];
    std::optional<int64_t> Count = F.SizesCount;
    if (F.Sizes)
      Count = static_cast<int64_t>(F.Sizes->size());
    if (Count && Procs && *Count != *Procs) {
      Diags.report(S.Range.getBegin(), Diags.GenBlockCount)
          << str(*Count) << ArrangementName << str(*Procs) << S.Range;
      Failed = true;
      return false;
    }
    if (F.Sizes && Extent) {
      int64_t Sum = 0;
      for (int64_t Size : *F.Sizes)
        Sum += Size;
      if (Sum != *Extent) {
        Diags.report(S.Range.getBegin(), Diags.GenBlockSum)
            << str(Sum) << VarName << str(*Extent) << S.Range;
        Failed = true;
        return false;
      }
    }
  }
  if (!F.isConstant() || !Procs || !Extent)
    return true;
  try {
    redist::Layout L(makeDistribution(F, *Procs), *Extent);
    (void)L;
  } catch (const redist::InvalidArgument &E) {
    Diags.report(Loc, Diags.InvalidDistribution) << E.what();
    Failed = true;
    return false;
  }
  return true;
}

void Analysis::analyseDistribute(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto Dist = std::make_unique<DistributionInfo>();
  Dist->D = &D;
  Dist->Where = P;
  const unsigned Before = Diags.errorCount();
  std::optional<VariableInfo> Var = variableSlot(D, D.Var);
  Dist->Extent = integerSlot(D, D.Extent, "array extent");
  if (Dist->Extent && *Dist->Extent < 0) {
    const ExprSlot &S = D.Slots[D.Extent];
    Diags.report(S.Range.getBegin(), Diags.NegativeExtent)
        << str(*Dist->Extent) << S.Range;
    Failed = true;
    Dist->Extent.reset();
  }
  Dist->Onto = findArrangement(D.Onto, P.Begin);
  if (!Dist->Onto) {
    Diags.report(D.Onto.Loc, Diags.UnknownArrangement) << D.Onto.Name;
    Failed = true;
  }
  std::optional<FormatValue> F = formatOf(D);
  if (!Var || !F || Diags.errorCount() != Before)
    return;
  Dist->Var = *Var;
  Dist->Format = *F;
  if (const DistributionInfo *Prev = findDistribution(Var->Decl, P.Begin)) {
    Diags.report(D.Slots[D.Var].Range.getBegin(), Diags.AlreadyDistributed)
        << Var->Text;
    Diags.report(Prev->D->KeywordLoc, Diags.PreviousHere) << "distribute";
    Failed = true;
    return;
  }
  if (!checkFormat(*F, Dist->Onto->Extent, Dist->Extent, Var->Text, D.Onto.Name,
                   D))
    return;
  if (F->isConstant() && Dist->Onto->Extent) {
    Dist->Declared = makeDistribution(*F, *Dist->Onto->Extent);
    if (Dist->Extent && Var->ArraySize) {
      redist::Layout L(*Dist->Declared, *Dist->Extent);
      // Under a block-cyclic layout process 0 holds the most: no need to
      // visit (possibly billions of) processes.
      int64_t Visit = L.isBlockCyclic() ? 1 : L.procs();
      for (int64_t Proc = 0; Proc < Visit; ++Proc)
        if (L.localSize(Proc) > *Var->ArraySize) {
          Diags.report(D.Slots[D.Var].Range.getBegin(), Diags.ArrayTooSmall)
              << Var->Text << str(*Var->ArraySize) << str(Proc)
              << str(L.localSize(Proc)) << Dist->Declared->str();
          Failed = true;
          return;
        }
    }
  }
  Dist->Escapes = P.Scope == ScopeKind::Namespace;
  Results[D.Id - 1].Distribution = Dist.get();
  Distributions.push_back(std::move(Dist));
}

void Analysis::analyseAction(Directive &D) {
  const Placement &P = Places[D.Id - 1];
  auto A = std::make_unique<ActionInfo>();
  A->D = &D;
  A->Where = P;
  const unsigned Before = Diags.errorCount();
  bool IsAssign = D.Kind == DirectiveKind::Assign;
  std::optional<VariableInfo> Target = variableSlot(D, D.Var);
  std::optional<VariableInfo> Source;
  if (IsAssign)
    Source = variableSlot(D, D.Src);
  if (Diags.errorCount() != Before || !Target || (IsAssign && !Source))
    return;
  A->TargetVar = *Target;
  const ExprSlot &TargetSlot = D.Slots[D.Var];
  QualType TargetType = Target->Decl->getType().getNonReferenceType();

  if (!IsAssign && Target->Kind != VarKind::Vector) {
    Diags.report(TargetSlot.Range.getBegin(), Diags.NotResizable)
        << Target->Text << TargetType << TargetSlot.Range;
    Diags.report(D.KeywordLoc, Diags.UseAssign);
    Failed = true;
    return;
  }
  if (Target->Element.isConstQualified() ||
      (Target->Kind == VarKind::Vector && TargetType.isConstQualified())) {
    Diags.report(TargetSlot.Range.getBegin(), Diags.ConstTarget)
        << Target->Text << TargetType << TargetSlot.Range;
    Failed = true;
    return;
  }
  A->Target = findDistribution(Target->Decl, P.Begin);
  if (!A->Target) {
    Diags.report(TargetSlot.Range.getBegin(), Diags.NotDistributed)
        << Target->Text << TargetSlot.Range;
    Failed = true;
  }
  if (IsAssign) {
    A->SourceVar = *Source;
    const ExprSlot &SourceSlot = D.Slots[D.Src];
    if (Source->Decl == Target->Decl) {
      Diags.report(SourceSlot.Range.getBegin(), Diags.AssignSame)
          << Source->Text << SourceSlot.Range;
      Failed = true;
      return;
    }
    A->Source = findDistribution(Source->Decl, P.Begin);
    if (!A->Source) {
      Diags.report(SourceSlot.Range.getBegin(), Diags.NotDistributed)
          << Source->Text << SourceSlot.Range;
      Failed = true;
    }
    if (!Target->DependentElement && !Source->DependentElement &&
        !Ctx.hasSameUnqualifiedType(Target->Element, Source->Element)) {
      Diags.report(D.KeywordLoc, Diags.AssignTypes)
          << Target->Element.getUnqualifiedType()
          << Source->Element.getUnqualifiedType();
      Failed = true;
    }
    if (A->Target && A->Source && A->Target->Extent && A->Source->Extent &&
        *A->Target->Extent != *A->Source->Extent) {
      Diags.report(D.KeywordLoc, Diags.AssignExtent)
          << Target->Text << str(*A->Target->Extent) << Source->Text
          << str(*A->Source->Extent);
      Failed = true;
    }
  } else {
    if (D.Onto.present()) {
      A->Onto = findArrangement(D.Onto, P.Begin);
      if (!A->Onto) {
        Diags.report(D.Onto.Loc, Diags.UnknownArrangement) << D.Onto.Name;
        Failed = true;
      }
    }
    std::optional<FormatValue> F = formatOf(D);
    if (F)
      A->Format = *F;
  }
  if (Diags.errorCount() != Before)
    return;
  for (DistributionInfo *Dist : {A->Target, A->Source})
    if (Dist && Dist->Where.Function != P.Function)
      Dist->Escapes = true;
  Results[D.Id - 1].Action = A.get();
  Actions.push_back(std::move(A));
}

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
      Data->Directives = Directives;
      DiagnosticsEngine &Main = Ctx.getDiagnostics();
      Data->Engine = std::make_unique<DiagnosticsEngine>(
          Main.getDiagnosticIDs(), new DiagnosticOptions, &Data->Errors,
          /*ShouldOwnClient=*/false);
      Data->Engine->setSourceManager(&Ctx.getSourceManager());
      Data->Engine->SetArgToStringFn(formatWithMainEngine, &Main);
      Data->Diags = std::make_unique<Diagnostics>(*Data->Engine);
      Data->A = std::make_unique<Analysis>(Ctx, *Data->Diags, Data->Directives,
                                           *this, *Def);
      if (!Data->A->run()) {
        addInstances(nullptr,
                     Data->Errors.Message.empty()
                         ? ""
                         : "in this instantiation, " + Data->Errors.Message);
        continue;
      }
      addInstances(Data->A.get(), "");
      InstanceAnalyses.push_back(std::move(Data));
    }
  }
}

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
    if (A->Onto && A->D->Kind == DirectiveKind::Redistribute &&
        (!A->Onto->Extent || A->Onto->Extent != A->Target->Onto->Extent))
      ProcsMayChange.insert(A->Target);

  for (const auto &A : Actions) {
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
    if (!checkFormat(A->Format, Procs, A->Target->Extent, VarText, ProcsName,
                     D))
      continue;
    if (A->Format.isConstant() && Procs)
      A->To = makeDistribution(A->Format, *Procs);
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
