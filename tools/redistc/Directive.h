//===- Directive.h - A parsed #pragma redist directive --------------------===//
//
// What the pragma handler (PragmaParser) records of each directive: its kind,
// its names and formats, and the embedded C++ expressions ("slots"). Clang
// parses the slots in the scope of the directive; after the parse, Analysis
// binds each slot to its Expr and decides what the directive means.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_DIRECTIVE_H
#define REDISTC_DIRECTIVE_H

#include "redist/ArrayLayout.h"
#include "redist/OverlapSchedulers.h"
#include "redist/Ring.h"
#include "redist/Schedulers.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace redistc {

/// One C++ expression written inside a directive.
struct ExprSlot {
  /// Where the user wrote it, in the main file (macro uses included).
  clang::SourceRange Range;
  /// The user's spelling, re-emitted verbatim in the generated code.
  std::string Text;
  /// Bound after the parse; null when Clang could not parse it.
  const clang::Expr *E = nullptr;
};

enum class DirectiveKind {
  Processors,
  Distribute,
  Redistribute,
  Assign,
  Rebalance,
  Inquire
};

const char *directiveName(DirectiveKind K);

/// A ring algorithm as rebalance's schedule(...) spells it: one identifier,
/// '_' where the library's name has '-' (bi_heterogeneous).
std::string ringAlgorithmSpelling(redist::RingAlgorithm A);

/// BLOCK, BLOCK(E), CYCLIC, CYCLIC(E) or GEN_BLOCK(A).
enum class FormatKind { Block, BlockSized, Cyclic, CyclicSized, GenBlock };

struct FormatSpec {
  FormatKind Kind = FormatKind::Block;
  /// The slot of E or A; -1 for BLOCK and CYCLIC.
  int Arg = -1;
  /// gen_block({n0, n1, ...}): A is a braced list, which Clang parses as the
  /// initializer of `new long long[]{...}` (never evaluated).
  bool BracedList = false;
  /// The format keyword.
  clang::SourceLocation Loc;
};

/// costs(C) or back_costs(C) of rebalance: one cost for every link, or one
/// per process.
struct CostsSpec {
  /// The slot of C; -1 without the clause.
  int Arg = -1;
  /// costs({c0, c1, ...}): Clang parses the list as the initializer of
  /// `new double[]{...}` (never evaluated), as for gen_block.
  bool BracedList = false;
  /// The clause's keyword.
  clang::SourceLocation Loc;
  bool present() const { return Arg >= 0; }
};

/// One range of a section in an assign, [BEGIN:END] or [:].
struct SectionSpec {
  /// The slots of BEGIN and END; -1 for [:], the whole dimension.
  int Begin = -1, End = -1;
  /// The '['.
  clang::SourceLocation Loc;
  bool whole() const { return Begin < 0; }
};

/// A reference to a processors arrangement by name.
struct NameRef {
  std::string Name;
  clang::SourceLocation Loc;
  bool present() const { return !Name.empty(); }
};

struct Directive {
  DirectiveKind Kind = DirectiveKind::Processors;
  /// 1-based, in order of appearance; names the generated variables.
  unsigned Id = 0;
  /// The '#' of the directive, and the end of its last line (the newline).
  clang::SourceLocation HashLoc;
  clang::SourceLocation EndLoc;
  /// The directive keyword (processors, distribute, ...).
  clang::SourceLocation KeywordLoc;
  std::vector<ExprSlot> Slots;

  // processors NAME(EXTENT) [comm(EXPR)]
  // processors NAME(P0, ..., Pg-1) [order(row_major|column_major)]
  //            [comm(EXPR)]
  NameRef Arrangement;
  int Comm = -1;
  /// order(...) of an arrangement of rank 2 or more; unset without the
  /// clause.
  std::optional<redist::GridOrder> Order;
  clang::SourceLocation OrderLoc;

  // distribute VAR[EXTENT](FORMAT) onto NAME [verify(on|off)]
  // inquire VAR into NAME
  // redistribute VAR(FORMAT) [onto NAME] [schedule(ALG)] [verify(on|off)]
  // assign DST = SRC [schedule(ALG)] [verify(on|off)]
  int Var = -1; ///< VAR, or DST of assign
  NameRef Into; ///< NAME of inquire: the variable it declares
  int Src = -1; ///< SRC of assign
  /// EXTENT of processors and distribute (the first of several).
  int Extent = -1;
  /// FORMAT (the first of several, when it is not '*').
  FormatSpec Format;
  /// The first comma of P0, P1, ... and of F0, F1, ... (where a second
  /// format of a 1-D array is reported).
  clang::SourceLocation SecondLoc;
  NameRef Onto;

  // Arrays of any rank and arrangements of any rank:
  //   processors NAME(P0, ..., Pg-1)
  //   distribute VAR[E0]...[Ed-1](F0, ..., Fd-1) onto NAME
  //              [storage(row_major|column_major)]
  //   redistribute VAR(F0, ..., Fd-1) ...
  //   assign DST[S0]...[Sd-1] = SRC[S0]...[Sd-1]
  //   assign DST = permute(SRC, K0, ..., Kd-1) | transpose(SRC)
  /// Every extent's slot; Extent is the first.
  std::vector<int> Extents;
  /// Every format, unset for '*'; Format is the first when it is one.
  /// FormatLocs holds where each is written.
  std::vector<std::optional<FormatSpec>> Formats;
  std::vector<clang::SourceLocation> FormatLocs;
  /// storage(...) of distribute; unset without the clause.
  std::optional<redist::StorageOrder> Storage;
  clang::SourceLocation StorageLoc;
  /// A distribute or processors the N-D path takes: an array of rank two
  /// (a matrix) or more, or with '*', or with storage(...), or more than
  /// two formats; an arrangement of rank two or more. Of inquire: NAME is a
  /// redist::DistributedArrayInfo.
  bool ArrayForm = false;
  /// The sections of DST and SRC of assign; empty: the whole array.
  std::vector<SectionSpec> TargetSection, SourceSection;
  /// permute(SRC, K0, ...) or transpose(SRC) (1, 0): target axis k is source
  /// axis Permutation[k]; empty without either. PermuteLoc is the keyword.
  std::vector<int> Permutation;
  clang::SourceLocation PermuteLoc;
  bool Transpose = false;
  /// ALG of schedule(ALG); unset without the clause, or when ALG is
  /// overlap or overlap_split, which set Overlap instead.
  std::optional<redist::Algorithm> Schedule;
  /// schedule(product(ALG)): ALG per dimension; for a 1-D array, ALG.
  bool ScheduleProduct = false;
  std::optional<redist::OverlapAlgorithm> Overlap;
  /// N of schedule(overlap, effort(N)): how long the search may run
  /// (redist::OverlapOptions::Effort).
  int64_t OverlapEffort = 1;
  clang::SourceLocation ScheduleLoc;

  // rebalance VAR(COUNT) onto NAME [ring[(bidirectional | unidirectional)]]
  //           [schedule(RING_ALG)] [costs(C)] [back_costs(C)]
  int Count = -1; ///< the number of items this process must end with
  bool Bidirectional = false;
  /// RING_ALG of rebalance's schedule(...), at ScheduleLoc.
  std::optional<redist::RingAlgorithm> RingSchedule;
  /// Seconds per item from rank i to i + 1, and to i - 1; measured by the
  /// runtime without the clauses.
  CostsSpec Costs, BackCosts;

  /// verify(on) or verify(off): whether the plan (a distribute's own
  /// agreement) checks that every rank passed the same parameters; unset
  /// without the clause.
  std::optional<bool> Verify;
  clang::SourceLocation VerifyLoc;
};

} // namespace redistc

#endif // REDISTC_DIRECTIVE_H
