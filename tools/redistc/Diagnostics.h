//===- Diagnostics.h - redistc's own diagnostics --------------------------===//
//
// Every error redistc reports about a directive goes through Clang's
// DiagnosticsEngine, so that it prints like Clang's own: file:line:col, the
// source line and a caret. This table registers redistc's messages as custom
// diagnostic ids.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_DIAGNOSTICS_H
#define REDISTC_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace redistc {

class Diagnostics {
public:
  explicit Diagnostics(clang::DiagnosticsEngine &Engine);

  clang::DiagnosticBuilder report(clang::SourceLocation Loc, unsigned ID) {
    return Engine.Report(Loc, ID);
  }
  bool hasErrors() const { return Engine.hasErrorOccurred(); }
  unsigned errorCount() const { return Engine.getNumErrors(); }

  // Syntax of the directives.
  unsigned MissingDirective;
  unsigned UnknownDirective;
  unsigned Expected;
  unsigned UnknownClause;
  unsigned DuplicateClause;
  unsigned MalformedFormat;
  unsigned EmptyExpression;
  unsigned Unbalanced;
  unsigned MatchingBracket;
  unsigned UnknownAlgorithm;
  unsigned FromMacro;
  unsigned NotMainFile;
  unsigned NotCxx;

  // Meaning of the directives.
  unsigned BadScope;
  unsigned ActionOutsideFunction;
  unsigned DeclarationNotInBlock;
  unsigned NotInteger;
  unsigned NotPositive;
  unsigned TooLarge;
  unsigned ConstTarget;
  unsigned NegativeExtent;
  unsigned CommaExpression;
  unsigned NotVariable;
  unsigned BadVariableType;
  unsigned DependentVariable;
  unsigned NotTriviallyCopyable;
  unsigned NotResizable;
  unsigned UseAssign;
  unsigned NotDistributed;
  unsigned AlreadyDistributed;
  unsigned UnknownArrangement;
  unsigned ArrangementRedeclared;
  unsigned GenBlockType;
  unsigned GenBlockCount;
  unsigned GenBlockSum;
  unsigned GenBlockNegative;
  unsigned InvalidDistribution;
  unsigned AssignExtent;
  unsigned AssignTypes;
  unsigned AssignSame;
  unsigned ScheduleNotApplicable;
  unsigned ArrayTooSmall;
  unsigned CommType;
  unsigned PreviousHere;

private:
  clang::DiagnosticsEngine &Engine;
};

} // namespace redistc

#endif // REDISTC_DIAGNOSTICS_H
