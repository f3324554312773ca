//===- AnalysisBinding.cpp - Directives bound to the parsed program -------===//
//
// PragmaParser injected each directive's expressions as a static_assert at
// the directive's '#'. Binding finds those declarations again, takes each
// expression's Expr from them, and works out where each directive sits: at
// namespace scope or in which block, and up to where the names it declares
// are visible. The names of a directive are then looked up in that region:
// VAR to the variable it denotes, NAME to a processors directive, a variable
// to its distribute.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace clang;

namespace redistc {

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

/// A class body or a block, as the file offsets of its braces.
struct ScopeRange {
  unsigned Begin, End;
  bool IsClass;
};

/// Every class body and block of the main file, in traversal order: where
/// the directives Clang dropped sat.
class ScopeCollector : public RecursiveASTVisitor<ScopeCollector> {
public:
  explicit ScopeCollector(std::function<unsigned(SourceLocation)> Offset)
      : Offset(std::move(Offset)) {}

  bool VisitCXXRecordDecl(CXXRecordDecl *R) {
    if (R->isThisDeclarationADefinition())
      add(R->getBraceRange(), /*IsClass=*/true);
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *S) {
    add(SourceRange(S->getLBracLoc(), S->getRBracLoc()), /*IsClass=*/false);
    return true;
  }

  std::vector<ScopeRange> Scopes;

private:
  void add(SourceRange R, bool IsClass) {
    if (R.isInvalid())
      return;
    // Offset puts what lies outside the main file at its end: such a range
    // is empty and contains no directive.
    unsigned Begin = Offset(R.getBegin()), End = Offset(R.getEnd());
    if (Begin < End)
      Scopes.push_back({Begin, End, IsClass});
  }
  std::function<unsigned(SourceLocation)> Offset;
};

/// Whether the innermost of Scopes around the file offset At is a class
/// body: the first found of those that begin last.
bool innermostIsClass(llvm::ArrayRef<ScopeRange> Scopes, unsigned At) {
  const ScopeRange *Innermost = nullptr;
  for (const ScopeRange &S : Scopes)
    if (S.Begin < At && At < S.End &&
        (!Innermost || S.Begin > Innermost->Begin))
      Innermost = &S;
  return Innermost && Innermost->IsClass;
}

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

/// Of the Candidates that Matches accepts, the one declared last before the
/// file offset At and visible there: the innermost.
template <typename Info, typename Predicate>
Info *innermostVisible(const std::vector<std::unique_ptr<Info>> &Candidates,
                       unsigned At, Predicate Matches) {
  Info *Best = nullptr;
  for (const auto &C : Candidates)
    if (Matches(*C) && C->Where.Begin < At && At <= C->Where.RegionEnd &&
        (!Best || C->Where.Begin > Best->Where.Begin))
      Best = C.get();
  return Best;
}

} // namespace

unsigned Analysis::offsetOf(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getExpansionLoc(Loc);
  if (!SM.isWrittenInMainFile(L))
    return SM.getBufferData(SM.getMainFileID()).size();
  return SM.getFileOffset(L);
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
  // The class bodies and blocks, collected at the first dropped directive.
  std::optional<std::vector<ScopeRange>> Scopes;
  for (size_t I = 0; I < Directives.size(); ++I) {
    Directive &D = Directives[I];
    auto It = Finder.Decls.find(I);
    if (It == Finder.Decls.end()) {
      // Clang dropped the declaration after reporting why. Directly in a
      // class (where the pragma handler could not tell), the reason is that
      // a directive has no place there: say so.
      if (!Parent) {
        if (!Scopes) {
          ScopeCollector Collector(
              [this](SourceLocation L) { return offsetOf(L); });
          Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
          Scopes = std::move(Collector.Scopes);
        }
        if (innermostIsClass(*Scopes, offsetOf(D.HashLoc)))
          error(D.KeywordLoc, Diags.BadScope) << directiveName(D.Kind);
      }
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

    if (!placeDirective(D, *SA, Finder.Stmts.lookup(I), Places[I])) {
      Failed = true;
      continue;
    }
    Placed[I] = true;
  }
  return !Failed;
}

// Where D sits: the scope of its static_assert SA, and in a function the
// innermost block around SA's statement Stmt.
bool Analysis::placeDirective(const Directive &D, const StaticAssertDecl &SA,
                              const DeclStmt *Stmt, Placement &P) const {
  P.Begin = offsetOf(D.HashLoc);
  const DeclContext *DC = SA.getDeclContext();
  if (DC->isRecord()) {
    // Normally refused by the pragma handler already.
    P.Scope = ScopeKind::Class;
  } else if (DC->isFunctionOrMethod()) {
    P.Scope = ScopeKind::Block;
    P.Function = DC;
    if (!Stmt)
      return false;
    // The innermost block around the declaration statement.
    DynTypedNode Node = DynTypedNode::create(*Stmt);
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
    if (!P.Block)
      return false;
    if (Direct) {
      auto Body = P.Block->body();
      auto Pos = llvm::find(Body, Stmt);
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
  return true;
}

// VAR: a variable or a data member, named alone or through an object.
const ValueDecl *Analysis::boundVariable(const ExprSlot &S) {
  const Expr *E = S.E->IgnoreParens();
  const ValueDecl *Decl = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<VarDecl>(DRE->getDecl()))
      Decl = DRE->getDecl();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<FieldDecl>(ME->getMemberDecl()) ||
        isa<VarDecl>(ME->getMemberDecl()))
      Decl = ME->getMemberDecl();
  }
  if (!Decl) {
    error(S.Range.getBegin(), Diags.NotVariable) << S.Range;
  }
  return Decl;
}

const ArrangementInfo *Analysis::findArrangement(const NameRef &Name,
                                                 unsigned At) {
  return innermostVisible(Arrangements, At, [&](const ArrangementInfo &A) {
    return A.D->Arrangement.Name == Name.Name;
  });
}

DistributionInfo *Analysis::findDistribution(const ValueDecl *Decl,
                                             unsigned At) {
  return innermostVisible(Distributions, At, [&](const DistributionInfo &Dist) {
    return Dist.Var.Decl == Decl;
  });
}

} // namespace redistc
