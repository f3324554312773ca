//===- DiagnosticsTest.cpp - Every diagnostic redistc reports -------------===//
//
// One case for each place that reports one of redistc's diagnostics (the
// call sites of Diagnostics::report in PragmaParser, the Analysis* files,
// CodeGen and TranslateAction), each with all that the translation reports:
// name, line:col and message. EveryDiagnosticHasACase checks the cases
// against Diagnostics.def, so that a new diagnostic comes with a case.
//
//===----------------------------------------------------------------------===//

#include "ToolRun.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

namespace redistc {
namespace test {
namespace {

struct DiagnosticCase {
  /// The test's name.
  std::string Label;
  Input In;
  Seen Expected;
};

void PrintTo(const DiagnosticCase &C, std::ostream *OS) { *OS << C.Label; }

/// What inquire needs declared, as redist/runtime/LocalPart.h declares it.
const std::map<std::string, std::string> ArrayInfoHeader = {
    {"LocalPart.h", "namespace redist { class ArrayInfo {}; }\n"}};
const std::map<std::string, std::string> BothInfoHeaders = {
    {"LocalPart.h",
     "namespace redist { class ArrayInfo {}; class DistributedArrayInfo {}; "
     "}\n"}};

const std::vector<DiagnosticCase> &cases() {
  static const std::vector<DiagnosticCase> Cases = {
      // PragmaParser: the syntax of the directives.
      {"MissingDirective",
       {"#pragma redist\n"},
       {"MissingDirective 1:15: error: expected a redist directive: "
        "processors, distribute, redistribute, assign, rebalance or inquire"}},
      {"UnknownDirective",
       {"#pragma redist scatter x\n"},
       {"UnknownDirective 1:16: error: unknown redist directive 'scatter'; "
        "expected processors, distribute, redistribute, assign, rebalance or "
        "inquire"}},
      {"UnknownDirectiveNotAWord",
       {"#pragma redist 42\n"},
       {"UnknownDirective 1:16: error: unknown redist directive '42'; "
        "expected processors, distribute, redistribute, assign, rebalance or "
        "inquire"}},
      {"ExpectedArrangementName",
       {"#pragma redist processors (4)\n"},
       {"Expected 1:27: error: expected an arrangement name after "
        "'processors'"}},
      {"ExpectedNumberOfProcesses",
       {"#pragma redist processors P\n"},
       {"Expected 1:28: error: expected '(' and the number of processes"}},
      {"EmptyExpression",
       {"#pragma redist processors P()\n"},
       {"EmptyExpression 1:29: error: expected an expression"}},
      {"UnknownClauseOfProcessors",
       {"#pragma redist processors P(4) onto Q\n"},
       {"UnknownClause 1:32: error: unknown clause 'onto' in processors "
        "directive; expected comm(EXPR)"}},
      {"DuplicateComm",
       {"#pragma redist processors P(4) comm(C) comm(C)\n"},
       {"DuplicateClause 1:40: error: duplicate 'comm' clause"}},
      {"ExpectedCommunicator",
       {"#pragma redist processors P(4) comm\n"},
       {"Expected 1:36: error: expected '(' and a communicator"}},
      {"ExpectedClosingBracket",
       {"#pragma redist processors P((4)\n"},
       {"Expected 1:32: error: expected ')'",
        "MatchingBracket 1:28: note: to match this '('"}},
      {"Unbalanced",
       {"#pragma redist processors P(4]\n"},
       {"Unbalanced 1:30: error: unbalanced ']'",
        "MatchingBracket 1:28: note: to match this '('"}},
      {"NotAVariableName",
       {"#pragma redist distribute 3[8](block) onto P\n"},
       {"NotVariable 1:27: error: expected a variable name"}},
      {"ExpectedExtent",
       {"#pragma redist distribute x(block) onto P\n"},
       {"Expected 1:28: error: expected '[' and the global number of "
        "elements"}},
      {"ExpectedFormat",
       {"#pragma redist redistribute x\n"},
       {"Expected 1:30: error: expected '(' and a distribution format"}},
      {"MalformedFormat",
       {"#pragma redist distribute x[8](blocky) onto P\n"},
       {"MalformedFormat 1:32: error: malformed distribution format: "
        "expected block, block(E), cyclic, cyclic(E) or gen_block(A)"}},
      {"ExpectedParenAfterFormat",
       {"#pragma redist distribute x[8](block 2) onto P\n"},
       {"Expected 1:38: error: expected ')'"}},
      {"ExpectedGenBlockSizes",
       {"#pragma redist distribute x[8](gen_block) onto P\n"},
       {"Expected 1:41: error: expected '(' and an array of sizes after "
        "gen_block"}},
      {"ExpectedOnto",
       {"#pragma redist distribute x[8](block)\n"},
       {"Expected 1:38: error: expected 'onto NAME' naming a processors "
        "arrangement"}},
      {"UnknownClauseOfDistribute",
       {"#pragma redist distribute x[8](block) schedule(auto) onto P\n"},
       {"UnknownClause 1:39: error: unknown clause 'schedule' in distribute "
        "directive; expected onto NAME, storage(row_major|column_major) or "
        "verify(on|off)"}},
      {"DuplicateOnto",
       {"#pragma redist distribute x[8](block) onto P onto P\n"},
       {"DuplicateClause 1:46: error: duplicate 'onto' clause"}},
      {"ExpectedNameAfterOnto",
       {"#pragma redist distribute x[8](block) onto 4\n"},
       {"Expected 1:44: error: expected an arrangement name after 'onto'"}},
      {"UnknownClauseOfRedistribute",
       {"#pragma redist redistribute x(block) into P\n"},
       {"UnknownClause 1:38: error: unknown clause 'into' in redistribute "
        "directive; expected onto NAME, schedule(ALG) or verify(on|off)"}},
      {"UnknownAlgorithm",
       {"#pragma redist redistribute x(block) schedule(fastest)\n"},
       {"UnknownAlgorithm 1:47: error: unknown schedule algorithm 'fastest'; "
        "expected auto, caterpillar, walker_otto, classes, stepwise, greedy, "
        "scpa, chain, mincost, mincost_steps, overlap or overlap_split"}},
      {"EffortNeedsOverlap",
       {"#pragma redist redistribute x(block) schedule(greedy, effort(4))\n"},
       {"EffortNeedsOverlap 1:55: error: effort(N) applies to "
        "schedule(overlap) and schedule(overlap_split) only, not to "
        "'greedy'"}},
      {"BadEffortZero",
       {"#pragma redist redistribute x(block) schedule(overlap, effort(0))\n"},
       {"BadEffort 1:63: error: effort(N) takes an integer from 1 to "
        "1000000, not '0'"}},
      {"BadEffortTooLarge",
       {"#pragma redist redistribute x(block) schedule(overlap_split, "
        "effort(1000001))\n"},
       {"BadEffort 1:69: error: effort(N) takes an integer from 1 to "
        "1000000, not '1000001'"}},
      {"BadEffortNotALiteral",
       {"#pragma redist redistribute x(block) schedule(overlap, effort(n))\n"},
       {"BadEffort 1:63: error: effort(N) takes an integer from 1 to "
        "1000000, not 'n'"}},
      {"BadEffortMissing",
       {"#pragma redist redistribute x(block) schedule(overlap, effort(\n"},
       {"BadEffort 1:63: error: effort(N) takes an integer from 1 to "
        "1000000, not 'end of directive'"}},
      {"ExpectedEffort",
       {"#pragma redist redistribute x(block) schedule(overlap, fast)\n"},
       {"Expected 1:56: error: expected effort(N) after ',' in "
        "schedule(...)"}},
      {"ExpectedEffortParen",
       {"#pragma redist redistribute x(block) schedule(overlap, effort 4)\n"},
       {"Expected 1:63: error: expected '(' and the search effort"}},
      {"ExpectedEffortClose",
       {"#pragma redist redistribute x(block) schedule(overlap, effort(4 "
        "5))\n"},
       {"Expected 1:65: error: expected ')' after the search effort"}},
      {"ExpectedAlgorithm",
       {"#pragma redist redistribute x(block) schedule\n"},
       {"Expected 1:46: error: expected '(' and an algorithm name"}},
      {"ExpectedAlgorithmName",
       {"#pragma redist redistribute x(block) schedule(1)\n"},
       {"Expected 1:47: error: expected an algorithm name: auto, "
        "caterpillar, walker_otto, classes, stepwise, greedy, scpa, chain, "
        "mincost, mincost_steps, overlap or overlap_split"}},
      {"HyphenatedAlgorithm",
       {"#pragma redist redistribute x(block) schedule(mincost-steps)\n"},
       {"Expected 1:54: error: expected ')' after the algorithm name (names "
        "of several words join them with '_', as in mincost_steps)"}},
      {"ExpectedParenAfterAlgorithm",
       {"#pragma redist redistribute x(block) schedule(auto\n"},
       {"Expected 1:51: error: expected ')' after the algorithm name"}},
      {"DuplicateSchedule",
       {"#pragma redist redistribute x(block) schedule(auto) schedule(auto)\n"},
       {"DuplicateClause 1:53: error: duplicate 'schedule' clause"}},
      {"ExpectedVerifySetting",
       {"#pragma redist redistribute x(block) verify(maybe)\n"},
       {"Expected 1:45: error: expected on or off in verify(...)"}},
      {"ExpectedVerifyParen",
       {"#pragma redist assign x = y verify on\n"},
       {"Expected 1:36: error: expected '(' and on or off"}},
      {"DuplicateVerify",
       {"#pragma redist redistribute x(block) verify(on) VERIFY(off)\n"},
       {"DuplicateClause 1:49: error: duplicate 'verify' clause"}},
      {"ExpectedInto",
       {"#pragma redist inquire x as Info\n"},
       {"Expected 1:26: error: expected 'into' and a name after the "
        "variable"}},
      {"ExpectedInquiryName",
       {"#pragma redist inquire x into 3\n"},
       {"Expected 1:31: error: expected a name for the inquiry after "
        "'into'"}},
      {"ExpectedEndOfInquire",
       {"#pragma redist inquire x into Info onto P\n"},
       {"Expected 1:36: error: expected the end of the inquire directive"}},
      {"ExpectedEquals",
       {"#pragma redist assign x x\n"},
       {"Expected 1:25: error: expected '=' after the target variable"}},
      {"UnknownClauseOfAssign",
       {"#pragma redist assign x = y onto P\n"},
       {"UnknownClause 1:29: error: unknown clause 'onto' in assign "
        "directive; expected schedule(ALG) or verify(on|off)"}},
      {"ExpectedArrowAfterThis",
       {"#pragma redist redistribute this.x(block)\n"},
       {"Expected 1:33: error: expected '->' after 'this'"}},
      {"FromMacro",
       {"_Pragma(\"redist processors P(4)\")\n"},
       {"FromMacro 1:1: error: a redist directive cannot come from a macro "
        "expansion or _Pragma; write it as #pragma redist"}},
      {"NotMainFile",
       {"#include \"directives.h\"\n",
        {{"directives.h", "#pragma redist processors P(4)\n"}}},
       {"NotMainFile directives.h:1:1: error: redist directive in an included "
        "file: only the file being translated may hold directives"}},
      {"NotCxx11",
       {"#pragma redist processors P(4)\n", {}, {"-std=c++98"}},
       {"NotCxx 1:1: error: redistc translates C++ (C++11 or later) only"}},
      {"NotCxx",
       {"int c;\n", {}, {"-x", "c"}},
       {"NotCxx error: redistc translates C++ (C++11 or later) only"}},
      {"InClass",
       {"struct S {\n"
        "#pragma redist processors P(4)\n"
        "};\n"},
       {"BadScope 2:16: error: processors directive must appear at namespace "
        "scope or in a function body, not in a class"}},
      // After a constructor's initializers the handler cannot tell: Clang
      // drops the injected declaration (M is not declared yet), and Analysis
      // finds the directive directly in the class.
      {"InClassAfterConstructor",
       {"#include <vector>\n"
        "struct S {\n"
        "  S() : M{1.0} {}\n"
        "#pragma redist distribute M[10](block) onto P\n"
        "  std::vector<double> M;\n"
        "};\n"},
       {"clang 4:27: error: use of undeclared identifier 'M'",
        "BadScope 4:16: error: distribute directive must appear at "
        "namespace scope or in a function body, not in a class"}},

      // Analysis: where directives may appear.
      {"UndefinedConstant",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &A) {\n"
        "#pragma redist distribute A[100](block(1/0)) onto P\n"
        "}\n"},
       {"UndefinedConstant 4:41: error: block size '1/0' has undefined "
        "behaviour: division by zero"}},
      {"InquireOutsideFunction",
       {"#include <vector>\n"
        "#include \"LocalPart.h\"\n"
        "#pragma redist processors P(4)\n"
        "std::vector<double> G;\n"
        "#pragma redist distribute G[10](block) onto P\n"
        "#pragma redist inquire G into Info\n",
        ArrayInfoHeader},
       {"ActionOutsideFunction 6:16: error: inquire directive must appear in "
        "a function body"}},
      {"InquireNotDistributed",
       {"#include <vector>\n"
        "#include \"LocalPart.h\"\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist inquire X into Info\n"
        "}\n",
        ArrayInfoHeader},
       {"NotDistributed 4:24: error: 'X' has no distribute directive in "
        "scope"}},
      {"InquireNeedsArrayInfo",
       {"#include <vector>\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist inquire X into Info\n"
        "}\n"},
       {"InquireNeedsArrayInfo 3:16: error: inquire declares a "
        "redist::ArrayInfo: include \"redist/runtime/LocalPart.h\" before "
        "it"}},
      {"ActionOutsideFunction",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "std::vector<double> G;\n"
        "#pragma redist distribute G[10](block) onto P\n"
        "#pragma redist redistribute G(cyclic)\n"},
       {"ActionOutsideFunction 5:16: error: redistribute directive must "
        "appear in a function body"}},
      {"VerifyAtNamespaceScope",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "std::vector<double> G;\n"
        "#pragma redist distribute G[10](block) onto P verify(off)\n"},
       {"VerifyAtNamespaceScope 4:54: error: verify clause on a distribute "
        "directive at namespace scope: its distribution is made where the "
        "variable is first used, on each rank alone, with no agreement to "
        "turn on or off"}},
      {"DeclarationNotInBlock",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(bool C, std::vector<double> &X) {\n"
        "  if (C)\n"
        "#pragma redist distribute X[10](block) onto P\n"
        "  (void)X;\n"
        "}\n"},
       {"DeclarationNotInBlock 5:16: error: distribute directive must appear "
        "directly in a block or at namespace scope, not as the body of a "
        "statement"}},

      // Analysis: names.
      {"UnknownArrangement",
       {"#include <vector>\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist distribute X[10](block) onto Inner\n"
        "}\n"},
       {"UnknownArrangement 3:45: error: unknown processors arrangement "
        "'Inner'"}},
      {"UnknownArrangementOfRedistribute",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist distribute X[10](block) onto P\n"
        "#pragma redist redistribute X(block) onto Q\n"
        "}\n"},
       {"UnknownArrangement 5:43: error: unknown processors arrangement "
        "'Q'"}},
      {"ArrangementRedeclared",
       {"void f() {\n"
        "#pragma redist processors P(8)\n"
        "#pragma redist processors P(2)\n"
        "}\n"},
       {"ArrangementRedeclared 3:27: error: processors arrangement 'P' is "
        "already declared in this scope",
        "PreviousHere 2:27: note: previous declaration is here"}},
      {"NotAVariable",
       {"#pragma redist processors P(4)\n"
        "void work();\n"
        "void f() {\n"
        "#pragma redist distribute work[100](block) onto P\n"
        "}\n"},
       {"NotVariable 4:27: error: expected a variable name"}},
      {"NotDistributed",
       {"#include <vector>\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist redistribute X(cyclic)\n"
        "}\n"},
       {"NotDistributed 3:29: error: 'X' has no distribute directive in "
        "scope"}},
      {"SourceNotDistributed",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &A, std::vector<double> &B) {\n"
        "#pragma redist distribute A[10](block) onto P\n"
        "#pragma redist assign A = B\n"
        "}\n"},
       {"NotDistributed 5:27: error: 'B' has no distribute directive in "
        "scope"}},
      {"AlreadyDistributed",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Z) {\n"
        "#pragma redist distribute Z[10](block) onto P\n"
        "#pragma redist distribute Z[10](cyclic) onto P\n"
        "}\n"},
       {"AlreadyDistributed 5:27: error: 'Z' is already distributed",
        "PreviousHere 4:16: note: previous distribute is here"}},
      {"AssignSame",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Z) {\n"
        "#pragma redist distribute Z[10](block) onto P\n"
        "#pragma redist assign Z = Z\n"
        "}\n"},
       {"AssignSame 5:27: error: assign of 'Z' to itself"}},

      // Analysis: types.
      {"NotAnArrayKind",
       {"#pragma redist processors P(4)\n"
        "void f(int Scalar) {\n"
        "#pragma redist distribute Scalar[100](block) onto P\n"
        "}\n"},
       {"BadVariableType 3:27: error: 'Scalar' has type 'int': a distributed "
        "variable must be a std::vector, a pointer or an array"}},
      {"IncompleteElement",
       {"#pragma redist processors P(4)\n"
        "struct Incomplete;\n"
        "void f(Incomplete *Ptr) {\n"
        "#pragma redist distribute Ptr[100](block) onto P\n"
        "}\n"},
       {"BadVariableType 4:27: error: 'Ptr' has type 'Incomplete *': a "
        "distributed variable must be a std::vector, a pointer or an "
        "array"}},
      {"DependentVariable",
       {"#pragma redist processors P(4)\n"
        "template <class T> void f(T &X) {\n"
        "#pragma redist distribute X[100](block) onto P\n"
        "}\n"},
       {"DependentVariable 3:27: error: the type of 'X' depends on a template "
        "parameter; redistc needs a std::vector, a pointer or an array"}},
      {"NotTriviallyCopyable",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "struct Counted { Counted(const Counted &); };\n"
        "void f(std::vector<Counted> &V) {\n"
        "#pragma redist distribute V[100](block) onto P\n"
        "}\n"},
       {"NotTriviallyCopyable 5:27: error: element type 'Counted' of 'V' is "
        "not trivially copyable"}},
      {"NotResizable",
       {"#pragma redist processors P(4)\n"
        "void f(double *Ptr) {\n"
        "#pragma redist distribute Ptr[100](block) onto P\n"
        "#pragma redist redistribute Ptr(cyclic)\n"
        "}\n"},
       {"NotResizable 4:29: error: cannot redistribute 'Ptr' of type 'double "
        "*': it cannot be resized (only a std::vector can)",
        "UseAssign 4:16: note: use 'assign' to copy it into a variable "
        "distributed the new way"}},
      {"RebalanceCount",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, double Half) {\n"
        "#pragma redist rebalance Items(Half) onto P\n"
        "}\n"},
       {"RebalanceCount 4:32: error: the item count of a rebalance directive "
        "must be an integer, not 'double'"}},
      {"UnknownRingAlgorithm",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule(greedy)\n"
        "}\n"},
       {"UnknownRingAlgorithm 4:51: error: unknown ring algorithm 'greedy'; "
        "expected auto, uni_homogeneous, uni_heterogeneous, bi_homogeneous or "
        "bi_heterogeneous"}},
      {"RingExhaustive",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule(exhaustive)\n"
        "}\n"},
       {"RingExhaustive 4:51: error: the exhaustive search plans small "
        "reference instances and cannot move items; expected auto, "
        "uni_homogeneous, uni_heterogeneous, bi_homogeneous or "
        "bi_heterogeneous"}},
      {"ExpectedRingAlgorithmName",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule(2)\n"
        "}\n"},
       {"Expected 4:51: error: expected a ring algorithm name: auto, "
        "uni_homogeneous, uni_heterogeneous, bi_homogeneous or "
        "bi_heterogeneous"}},
      {"ExpectedRingAlgorithmParen",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule\n"
        "}\n"},
       {"Expected 4:50: error: expected '(' and a ring algorithm name"}},
      {"ExpectedRingAlgorithmClose",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule(auto\n"
        "}\n"},
       {"Expected 4:55: error: expected ')' after the ring algorithm name"}},
      {"ExpectedCosts",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs\n"
        "}\n"},
       {"Expected 4:47: error: expected '(' and the link costs: a number, an "
        "array or a braced list of numbers"}},
      {"RingCostType",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs(\"fast\")\n"
        "}\n"},
       {"RingCostType 4:48: error: costs must be a number, or an array, "
        "std::array or std::vector of numbers, not 'const char[5]'"}},
      {"RingCostCount",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs({1, 2, 3})\n"
        "}\n"},
       {"RingCostCount 4:48: error: costs has 3 entries but arrangement 'P' "
        "has 4 processes; give one cost for every link or one per process"}},
      {"RingCostEmpty",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs({})\n"
        "}\n"},
       {"RingCostEmpty 4:48: error: costs has no entries; give one cost for "
        "every link or one per process"}},
      {"RingCostValue",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs({1, 2, 1, -0.25})\n"
        "}\n"},
       {"RingCostValue 4:58: error: costs[3] must be a positive finite number "
        "of seconds per item, got -0.25"}},
      {"BackCostsUnidirectional",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P costs(1) back_costs(1)\n"
        "}\n"},
       {"BackCostsUnidirectional 4:51: error: back_costs needs "
        "ring(bidirectional): a unidirectional ring sends forward only"}},
      {"BackCostsAlone",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P ring(bidirectional) "
        "back_costs(1)\n"
        "}\n"},
       {"BackCostsAlone 4:62: error: back_costs needs costs(...) too: the "
        "forward links cannot be measured while the backward ones are given"}},
      {"RingScheduleNotApplicable",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &Items, long N) {\n"
        "#pragma redist rebalance Items(N) onto P schedule(bi_heterogeneous)\n"
        "}\n"},
       {"RingScheduleNotApplicable 4:51: error: schedule(bi_heterogeneous) "
        "does not apply to this ring: bi-heterogeneous needs a bidirectional "
        "ring"}},
      {"ConstTarget",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(const std::vector<double> &In) {\n"
        "#pragma redist distribute In[100](block) onto P\n"
        "#pragma redist redistribute In(cyclic)\n"
        "}\n"},
       {"ConstTarget 5:29: error: cannot write to 'In' of type 'const "
        "std::vector<double>'"}},
      {"AssignTypes",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<float> &A, std::vector<double> &B) {\n"
        "#pragma redist distribute A[100](block) onto P\n"
        "#pragma redist distribute B[100](cyclic) onto P\n"
        "#pragma redist assign A = B\n"
        "}\n"},
       {"AssignTypes 6:16: error: assign between different element types "
        "'float' and 'double'"}},
      {"CommType",
       {"typedef struct ompi_communicator_t *MPI_Comm;\n"
        "#pragma redist processors C(4) comm(42)\n"},
       {"CommType 2:37: error: comm expression must be an MPI_Comm, not "
        "'int'"}},

      // Analysis: values.
      {"NotInteger",
       {"#pragma redist processors D(2.5)\n"},
       {"NotInteger 1:29: error: number of processes must be an integer "
        "expression, not 'double'"}},
      {"NotPositiveProcesses",
       {"#pragma redist processors Z(0)\n"},
       {"NotPositive 1:29: error: number of processes must be positive, got "
        "0"}},
      {"TooLarge",
       {"#pragma redist processors H(18446744073709551615ULL)\n"},
       {"TooLarge 1:29: error: number of processes does not fit in 64 bits: "
        "18446744073709551615"}},
      {"CommaInBlockSize",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &C) {\n"
        "#pragma redist distribute C[100](cyclic(2, 3)) onto P\n"
        "}\n"},
       {"CommaExpression 4:42: error: unexpected ',' in block size: expected "
        "one expression"}},
      {"CommaInGenBlock",
       {"#include <vector>\n"
        "#pragma redist processors P(2)\n"
        "constexpr int A[2] = {1, 2};\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist distribute X[3](gen_block(A, A)) onto P\n"
        "}\n"},
       {"CommaExpression 5:43: error: unexpected ',' in gen_block: give one "
        "array of sizes: expected one expression"}},
      {"NotPositiveBlockSize",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &B) {\n"
        "#pragma redist distribute B[100](cyclic(-2)) onto P\n"
        "}\n"},
       {"NotPositive 4:41: error: block size must be positive, got -2"}},
      {"NegativeExtent",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &G) {\n"
        "#pragma redist distribute G[-1](block) onto P\n"
        "}\n"},
       {"NegativeExtent 4:29: error: array extent must not be negative, got "
        "-1"}},
      {"GenBlockType",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "const double Fractions[4] = {0.25, 0.25, 0.25, 0.25};\n"
        "void f(std::vector<double> &M) {\n"
        "#pragma redist distribute M[100](gen_block(Fractions)) onto P\n"
        "}\n"},
       {"GenBlockType 5:44: error: gen_block sizes must be an array or a "
        "std::vector of integers, not 'const double[4]'"}},
      {"GenBlockNegative",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &L) {\n"
        "#pragma redist distribute L[100](gen_block({50, -1, 25, 26})) onto "
        "P\n"
        "}\n"},
       {"GenBlockNegative 4:44: error: gen_block size -1 of process 1 is "
        "negative"}},
      {"GenBlockCount",
       {"#include <array>\n"
        "#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "constexpr std::array<int, 3> Sizes3 = {1, 2, 3};\n"
        "void f(std::vector<double> &H) {\n"
        "#pragma redist distribute H[6](gen_block(Sizes3)) onto P\n"
        "}\n"},
       {"GenBlockCount 6:42: error: gen_block has 3 entries but arrangement "
        "'P' has 4 processes"}},
      {"GenBlockSum",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "constexpr long Sizes4[4] = {10, 20, 30, 40};\n"
        "void f(std::vector<double> &K) {\n"
        "#pragma redist distribute K[99](gen_block(Sizes4)) onto P\n"
        "}\n"},
       {"GenBlockSum 5:43: error: gen_block sizes sum to 100 but the extent "
        "of 'K' is 99"}},
      {"InvalidDistribution",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &A) {\n"
        "#pragma redist distribute A[100](block(10)) onto P\n"
        "}\n"},
       {"InvalidDistribution 4:34: error: invalid distribution: BLOCK(10) "
        "over 4 processes covers only 40 elements, fewer than N = 100"}},
      {"ArrayTooSmall",
       {"#pragma redist processors P(4)\n"
        "void f() {\n"
        "  double A[10];\n"
        "#pragma redist distribute A[100](block) onto P\n"
        "}\n"},
       {"ArrayTooSmall 4:27: error: array 'A' holds 10 elements but process 0 "
        "holds 25 of them under block"}},
      {"AssignExtent",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &A, std::vector<double> &B) {\n"
        "#pragma redist distribute A[1000](cyclic(3)) onto P\n"
        "#pragma redist distribute B[999](block) onto P\n"
        "#pragma redist assign B = A\n"
        "}\n"},
       {"AssignExtent 6:16: error: assign between arrays of different "
        "extents: 'B' has 999 elements, 'A' has 1000"}},

      // CodeGen: the schedule.
      {"ScheduleNotApplicable",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist distribute X[1000](cyclic(3)) onto P\n"
        "#pragma redist redistribute X(cyclic(5)) schedule(walker_otto)\n"
        "}\n"},
       {"ScheduleNotApplicable 5:51: error: schedule(walker_otto) does not "
        "apply to this redistribution: walker_otto needs one block size to be "
        "a multiple of the other (got r=3, s=5)"}},
      {"BeyondLibrary",
       {"#include <vector>\n"
        "#pragma redist processors P(2)\n"
        "void f(std::vector<double> &X) {\n"
        "#pragma redist distribute X[9223372036854775807](cyclic) onto P\n"
        "#pragma redist redistribute X(cyclic(1LL << 62))\n"
        "}\n"},
       {"BeyondLibrary 5:16: error: this redistribution cannot be planned: "
        "cyclic on 2 processes -> cyclic(4611686018427387904) on 2 processes "
        "over N = 9223372036854775807 elements: the messages of one source "
        "process take up to 4611686018427387904 runs of local indices to "
        "describe, more than the library's limit of 4294967296 per "
        "process"}},

      // The rules of 1-D arrays, and the parse of dimensions.
      {"TooManyDimensions",
       {"#pragma redist processors T(1, 1, 1, 1, 1, 1, 1, 1)\n"},
       {"TooManyDimensions 1:48: error: redist distributes arrays of rank 1 "
        "to 7 over arrangements of rank 1 to 7"}},
      {"ArrayFormatCount",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &B) {\n"
        "#pragma redist distribute B[10](block, block) onto P\n"
        "}\n"},
       {"ArrayFormatCount 5:38: error: 'B' has one dimension: give one "
        "format"}},
      {"ArrayOntoGrid",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &D) {\n"
        "#pragma redist distribute D[10](block) onto G\n"
        "}\n"},
       {"ArrayOntoGrid 5:45: error: array 'D' needs a 1-D processors "
        "arrangement, but 'G' is 2-D"}},
      {"InquiryRank",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "#pragma redist processors P(4)\n"
        "#include \"LocalPart.h\"\n"
        "void f(std::vector<double> &A) {\n"
        "#pragma redist distribute A[10](block) onto P\n"
        "  [] {\n"
        "    std::vector<double> A;\n"
        "#pragma redist distribute A[4][4](block, block) onto G\n"
        "  }();\n"
        "#pragma redist inquire A into Info\n"
        "}\n",
        BothInfoHeaders},
       {"InquiryRank 11:16: error: inquire of 'A' follows another distribute "
        "than the latest one of that name; inquire it in the distribute's "
        "block"}},

      // Arrays of any rank (AnalysisArray.cpp).
      {"ArrayFormatRank",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "void f(std::vector<double> &A) {\n"
        "#pragma redist distribute A[4][5][6](block, block) onto G\n"
        "}\n"},
       {"ArrayFormatRank 4:45: error: 'A' has 3 dimensions but 2 formats; "
        "give one format, or '*', per dimension"}},
      {"ArrayGridRank",
       {"#include <vector>\n"
        "#pragma redist processors T(2, 2, 2)\n"
        "void f(std::vector<double> &B) {\n"
        "#pragma redist distribute B[4][5][6](block, block, *) onto T\n"
        "}\n"},
       {"ArrayGridRank 4:60: error: 'B' has 2 distributed dimensions (formats "
        "other than '*') but arrangement 'T' has rank 3"}},
      {"OneDimensionStar",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &V) {\n"
        "#pragma redist distribute V[20](block) onto P\n"
        "#pragma redist redistribute V(*) onto P\n"
        "}\n"},
       {"OneDimensionStar 6:31: error: 'V' is distributed as a 1-D array, "
        "whose format is never '*'; distribute it with storage(column_major) "
        "to use '*'"}},
      {"ArrayAssignRank",
       {"#include <vector>\n"
        "#pragma redist processors G(2, 3)\n"
        "void f(std::vector<double> &M, std::vector<double> &U) {\n"
        "#pragma redist distribute M[4][5](block, block) onto G\n"
        "#pragma redist distribute U[4][5][6](*, block, block) onto G\n"
        "#pragma redist assign M = U\n"
        "}\n"},
       {"ArrayAssignRank 6:16: error: assign between 'M' of rank 2 and 'U' "
        "of rank 3"}},
      {"InvalidRegion",
       {"#include <vector>\n"
        "#pragma redist processors P(4)\n"
        "void f(std::vector<double> &V, std::vector<double> &U) {\n"
        "#pragma redist distribute U[4][5][6](block, *, *) onto P\n"
        "#pragma redist distribute V[6][4][5](block, *, *) onto P\n"
        "#pragma redist assign V = permute(U, 2, 1, 1)\n"
        "}\n"},
       {"InvalidRegion 6:27: error: invalid assign: the permutation is not "
        "one: entry 2 is 1, listed twice"}},
  };
  return Cases;
}

class DiagnosticTest : public ::testing::TestWithParam<DiagnosticCase> {};

TEST_P(DiagnosticTest, ReportedWhereExpected) {
  Translation Out;
  EXPECT_EQ(translate(GetParam().In, Out), GetParam().Expected);
  EXPECT_FALSE(Out.Done);
}

INSTANTIATE_TEST_SUITE_P(
    Each, DiagnosticTest, ::testing::ValuesIn(cases()),
    [](const ::testing::TestParamInfo<DiagnosticCase> &Info) {
      return Info.param.Label;
    });

TEST(DiagnosticCoverage, EveryDiagnosticHasACase) {
  std::vector<std::string> Names = {
#define REDISTC_DIAGNOSTIC(Name, Level, Text) #Name,
#include "Diagnostics.def"
  };
  for (const std::string &Name : Names) {
    bool Found = false;
    for (const DiagnosticCase &C : cases())
      for (const std::string &Line : C.Expected)
        Found |= Line.rfind(Name + " ", 0) == 0;
    EXPECT_TRUE(Found) << Name << " has no case here";
  }
}

} // namespace
} // namespace test
} // namespace redistc
