//===- Model.h - What the directives mean ---------------------------------===//
//
// The model Analysis makes of the directives and CodeGen turns into code: for
// each directive, the arrangement, distributed variable or action it stands
// for, with the values Clang could evaluate, the kinds and element types of
// the variables, and the distributions known at translation time. It keeps
// the user's text where the generated code repeats it, but no code of its
// own: CodeGen writes that, and GeneratedNames.h names what it declares. The
// one exception is InstanceAction::Condition, which needs the AST to spell.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_MODEL_H
#define REDISTC_MODEL_H

#include "Directive.h"

#include "redist/ArrayGrid.h"
#include "redist/ArrayLayout.h"
#include "redist/Distribution.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redistc {

/// A format as written, with its parameter when Clang can evaluate it.
struct FormatValue {
  FormatKind Kind = FormatKind::Block;
  /// The user's text of E or A; empty for BLOCK and CYCLIC.
  std::string ArgText;
  std::optional<int64_t> Param;
  std::optional<std::vector<int64_t>> Sizes;
  /// Number of gen_block entries, when the type tells (array, std::array).
  std::optional<int64_t> SizesCount;
  /// gen_block({n0, n1, ...}): ArgText is a braced list, no expression.
  bool BracedList = false;

  bool isConstant() const;
  /// HPF spelling with the user's text, e.g. "cyclic(k)".
  std::string spelling() const;
  /// The distribution a constant format describes over Procs processes.
  /// Throws redist::InvalidArgument when the library rejects it.
  redist::Distribution distribution(int64_t Procs) const;
  /// The same as a dimension's format of an array of any rank. Throws
  /// redist::InvalidArgument when the library rejects it.
  redist::DimFormat dimFormat() const;
};

/// The formats of an array of the N-D form as written: "*, block, cyclic(k)".
std::string arraySpelling(const std::vector<std::optional<FormatValue>> &F);

enum class ScopeKind { Namespace, Block, Class };
enum class VarKind { Vector, Pointer, Array };

/// Where a directive sits.
struct Placement {
  ScopeKind Scope = ScopeKind::Namespace;
  /// The enclosing block, or the namespace (or translation unit).
  const void *ScopeKey = nullptr;
  /// File offsets: the directive's '#', and the end of the region where
  /// the names it declares are visible.
  unsigned Begin = 0;
  unsigned RegionEnd = 0;
  /// Block scope: the enclosing block and the directive's index among its
  /// statements (-1 when it is not a direct child, e.g. the body of an if).
  const clang::CompoundStmt *Block = nullptr;
  int IndexInBlock = -1;
  /// The function (or lambda) around a block-scope directive.
  const clang::DeclContext *Function = nullptr;
};

/// A variable named in a directive.
struct VariableInfo {
  const clang::ValueDecl *Decl = nullptr;
  std::string Text;
  VarKind Kind = VarKind::Vector;
  clang::QualType Element;
  /// The element type depends on a template parameter.
  bool DependentElement = false;
  /// Number of elements of an array variable.
  std::optional<int64_t> ArraySize;
  /// sizeof(element), 0 when not known at translation time.
  int64_t ElementBytes = 0;
};

/// A processors directive.
struct ArrangementInfo {
  const Directive *D = nullptr;
  Placement Where;
  /// P of NAME(P), or P0 of NAME(P0, ..., Pg-1), when constant.
  std::optional<int64_t> Extent;
  /// Every extent, when constant (one per dimension).
  std::vector<std::optional<int64_t>> Extents;
  int rank() const { return static_cast<int>(D->Extents.size()); }
  /// The process order (row-major without the clause; a 1-D arrangement
  /// has one order only).
  redist::GridOrder order() const {
    return D->Order.value_or(redist::GridOrder::RowMajor);
  }
};

/// A distribute directive: the variable's descriptor lives as long as it.
struct DistributionInfo {
  const Directive *D = nullptr;
  Placement Where;
  VariableInfo Var;
  const ArrangementInfo *Onto = nullptr;
  FormatValue Format;
  std::optional<int64_t> Extent;
  /// A directive on the variable lies in another function (or the variable
  /// lives at namespace scope): its distribution is only known at run time.
  bool Escapes = false;
  /// The declared distribution, when constant.
  std::optional<redist::Distribution> Declared;

  // An array of the N-D form (Directive::ArrayForm), matrices among them:
  // every extent and format (unset for '*') and the storage order.
  bool isArray() const { return D->ArrayForm; }
  std::vector<std::optional<int64_t>> Extents;
  std::vector<std::optional<FormatValue>> Formats;
  redist::StorageOrder Storage = redist::StorageOrder::ColumnMajor;
  /// The array's rank, whatever its form.
  int rank() const { return isArray() ? static_cast<int>(Extents.size()) : 1; }
  /// Each dimension's extent, whatever the form.
  std::vector<std::optional<int64_t>> allExtents() const {
    if (isArray())
      return Extents;
    return {Extent};
  }
};

/// A redistribute or assign directive.
struct ActionInfo {
  const Directive *D = nullptr;
  Placement Where;
  /// VAR of redistribute, DST of assign; SRC of assign.
  DistributionInfo *Target = nullptr;
  DistributionInfo *Source = nullptr;
  VariableInfo TargetVar;
  VariableInfo SourceVar;
  /// redistribute: the new format and arrangement (null without onto).
  FormatValue Format;
  const ArrangementInfo *Onto = nullptr;
  /// The distributions before and after, when known at translation time.
  /// Of an assign on the N-D path: those of its 1-D sides (SRC's, DST's),
  /// which FromArray and ToArray take as rank-1 arrays.
  std::optional<redist::Distribution> From;
  std::optional<redist::Distribution> To;
  /// Why From or To is not known (empty when both are).
  std::string NotConstant;

  /// The N-D path moves it: a redistribute of an array of the N-D form
  /// (matrices among them), or an assign involving one or with sections or a
  /// permutation, a 1-D array being the rank-1 case. Its formats are
  /// Formats.
  bool ArrayPath = false;
  std::vector<std::optional<FormatValue>> Formats;
  /// Of an assign: the region as constants, when the extents, sections and
  /// permutation are (ArrayRegion() for the whole array, unpermuted).
  std::optional<redist::ArrayRegion> Region;
  /// On the N-D path: the layouts before and after (the moved array's and
  /// the target's), when known at translation time; NotConstant says why
  /// not.
  std::optional<redist::ArrayLayout> FromArray, ToArray;

  bool isAssign() const { return D->Kind == DirectiveKind::Assign; }
  /// Whose elements move: SRC of assign, VAR of redistribute.
  const VariableInfo &movedVar() const {
    return isAssign() ? SourceVar : TargetVar;
  }
  const DistributionInfo &moved() const {
    return isAssign() ? *Source : *Target;
  }
  /// The runtime plans it: a parameter is not constant, or the element type
  /// depends on a template parameter.
  bool isDynamic() const {
    return !NotConstant.empty() || movedVar().ElementBytes == 0;
  }
};

/// What redistc knows of costs(C) or back_costs(C): how many costs and
/// their values, where Clang can tell.
struct CostsValue {
  std::optional<int64_t> Count;
  std::optional<std::vector<double>> Values;
};

/// A rebalance directive: always a call to the runtime (the counts are
/// known at run time only).
struct RebalanceInfo {
  const Directive *D = nullptr;
  Placement Where;
  VariableInfo Var;
  const ArrangementInfo *Onto = nullptr;
};

/// An inquire directive: NAME, a redist::ArrayInfo of a 1-D array's current
/// distribution or a redist::DistributedArrayInfo of an N-D array's layout,
/// read from VAR's descriptor at run time.
struct InquiryInfo {
  const Directive *D = nullptr;
  Placement Where;
  VariableInfo Var;
  const DistributionInfo *Dist = nullptr;
};

/// A dynamic action in a function template, as one instantiation of the
/// template sees it: there its parameters may be constants.
struct InstanceAction {
  /// The specialization for people, e.g. "fixed<3>".
  std::string Name;
  /// A C++ constant expression, valid in the directive's scope, that holds in
  /// this instantiation only, e.g. "K == 3 && std::is_same_v<T, double>";
  /// empty when the arguments cannot be written in the generated code.
  std::string Condition;
  /// Null without a condition, or when the instance's analysis failed.
  const ActionInfo *Action = nullptr;
  /// Why Action is null.
  std::string Why;
};

/// What one directive turned out to be (exactly one pointer is set).
struct AnalysedDirective {
  const Directive *D = nullptr;
  const ArrangementInfo *Arrangement = nullptr;
  const DistributionInfo *Distribution = nullptr;
  const ActionInfo *Action = nullptr;
  const RebalanceInfo *Rebalance = nullptr;
  const InquiryInfo *Inquiry = nullptr;
  /// A dynamic action directly in a function template: the instantiations
  /// of the template in this file whose arguments redistc can spell.
  std::vector<InstanceAction> Instances;
};

} // namespace redistc

#endif // REDISTC_MODEL_H
