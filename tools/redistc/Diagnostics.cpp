//===- Diagnostics.cpp - redistc's own diagnostics ------------------------===//

#include "Diagnostics.h"

using namespace clang;

namespace redistc {

Diagnostics::Diagnostics(DiagnosticsEngine &Engine) : Engine(Engine) {
  DiagnosticIDs &IDs = *Engine.getDiagnosticIDs();
  auto Error = [&](llvm::StringRef Text) {
    return IDs.getCustomDiagID(DiagnosticIDs::Error, Text);
  };
  auto Note = [&](llvm::StringRef Text) {
    return IDs.getCustomDiagID(DiagnosticIDs::Note, Text);
  };

  MissingDirective =
      Error("expected a redist directive: processors, distribute, "
            "redistribute or assign");
  UnknownDirective =
      Error("unknown redist directive '%0'; expected processors, distribute, "
            "redistribute or assign");
  Expected = Error("expected %0");
  UnknownClause = Error("unknown clause '%0' in %1 directive; expected %2");
  DuplicateClause = Error("duplicate '%0' clause");
  MalformedFormat =
      Error("malformed distribution format: expected block, block(E), "
            "cyclic, cyclic(E) or gen_block(A)");
  EmptyExpression = Error("expected an expression");
  Unbalanced = Error("unbalanced '%0'");
  MatchingBracket = Note("to match this '%0'");
  UnknownAlgorithm = Error("unknown schedule algorithm '%0'; expected %1");
  FromMacro = Error("a redist directive cannot come from a macro expansion "
                    "or _Pragma; write it as #pragma redist");
  NotMainFile = Error("redist directive in an included file: only the file "
                      "being translated may hold directives");
  NotCxx = Error("redistc translates C++ (C++11 or later) only");

  BadScope = Error("%0 directive must appear at namespace scope or in a "
                   "function body, not in a class");
  ActionOutsideFunction = Error("%0 directive must appear in a function body");
  DeclarationNotInBlock =
      Error("%0 directive must appear directly in a block or at namespace "
            "scope, not as the body of a statement");
  NotInteger = Error("%0 must be an integer expression, not %1");
  NotPositive = Error("%0 must be positive, got %1");
  TooLarge = Error("%0 does not fit in 64 bits: %1");
  ConstTarget = Error("cannot write to '%0' of type %1");
  NegativeExtent = Error("array extent must not be negative, got %0");
  CommaExpression = Error("unexpected ',' in %0: expected one expression");
  NotVariable = Error("expected a variable name");
  BadVariableType = Error("'%0' has type %1: a distributed variable must be a "
                          "std::vector, a pointer or an array");
  DependentVariable =
      Error("the type of '%0' depends on a template parameter; redistc needs "
            "a std::vector, a pointer or an array");
  NotTriviallyCopyable =
      Error("element type %0 of '%1' is not trivially copyable");
  NotResizable = Error("cannot redistribute '%0' of type %1: it cannot be "
                       "resized (only a std::vector can)");
  UseAssign = Note("use 'assign' to copy it into a variable distributed the "
                   "new way");
  NotDistributed = Error("'%0' has no distribute directive in scope");
  AlreadyDistributed = Error("'%0' is already distributed");
  UnknownArrangement = Error("unknown processors arrangement '%0'");
  ArrangementRedeclared =
      Error("processors arrangement '%0' is already declared in this scope");
  GenBlockType = Error("gen_block sizes must be an array or a std::vector of "
                       "integers, not %0");
  GenBlockCount = Error("gen_block has %0 entries but arrangement '%1' has "
                        "%2 processes");
  GenBlockSum = Error("gen_block sizes sum to %0 but the extent of '%1' is %2");
  GenBlockNegative = Error("gen_block size %0 of process %1 is negative");
  InvalidDistribution = Error("invalid distribution: %0");
  AssignExtent = Error("assign between arrays of different extents: '%0' has "
                       "%1 elements, '%2' has %3");
  AssignTypes = Error("assign between different element types %0 and %1");
  AssignSame = Error("assign of '%0' to itself");
  ScheduleNotApplicable =
      Error("schedule(%0) does not apply to this redistribution: %1");
  ArrayTooSmall = Error("array '%0' holds %1 elements but process %2 holds "
                        "%3 of them under %4");
  CommType = Error("comm expression must be an MPI_Comm, not %0");
  PreviousHere = Note("previous %0 is here");
}

} // namespace redistc
