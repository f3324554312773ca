//===- PragmaParserTest.cpp - What the pragma handler records -------------===//
//
// The directives as PragmaParser records them, before any analysis: kinds,
// names, formats, clauses, the user's text of each expression and the
// locations later diagnostics point at. Its error messages are in
// DiagnosticsTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "ToolRun.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

namespace redistc {
namespace test {
namespace {

/// The directives of Code, with every location as LINE:COL.
struct Parsed {
  std::vector<Directive> Directives;
  std::vector<std::string> HashLocs, KeywordLocs, EndLocs;
  std::vector<std::string> NameLocs, FormatLocs, OntoLocs, ScheduleLocs,
      VerifyLocs, IntoLocs;
  Seen Diags;
};

Parsed parseCode(const std::string &Code,
                 std::map<std::string, std::string> Headers = {}) {
  Parsed P;
  P.Diags =
      parse(Input(Code, std::move(Headers)),
            [&](clang::ASTContext &Ctx, std::vector<Directive> &Directives) {
              const clang::SourceManager &SM = Ctx.getSourceManager();
              auto at = [&](clang::SourceLocation Loc) {
                return Loc.isValid() ? lineColumn(SM, Loc) : std::string("-");
              };
              for (Directive &D : Directives) {
                P.HashLocs.push_back(at(D.HashLoc));
                P.KeywordLocs.push_back(at(D.KeywordLoc));
                P.EndLocs.push_back(at(D.EndLoc));
                P.NameLocs.push_back(at(D.Arrangement.Loc));
                P.FormatLocs.push_back(at(D.Format.Loc));
                P.OntoLocs.push_back(at(D.Onto.Loc));
                P.ScheduleLocs.push_back(at(D.ScheduleLoc));
                P.VerifyLocs.push_back(at(D.VerifyLoc));
                P.IntoLocs.push_back(at(D.Into.Loc));
                // The expressions die with the AST.
                for (ExprSlot &S : D.Slots)
                  S.E = nullptr;
              }
              P.Directives = Directives;
            });
  return P;
}

std::vector<std::string> slotTexts(const Directive &D) {
  std::vector<std::string> Texts;
  for (const ExprSlot &S : D.Slots)
    Texts.push_back(S.Text);
  return Texts;
}

TEST(PragmaParser, Processors) {
  Parsed P = parseCode("int nprocs;\n"
                       "int world;\n"
                       "#pragma redist processors P(nprocs / 2) comm(world)\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 1u);
  const Directive &D = P.Directives[0];
  EXPECT_EQ(D.Kind, DirectiveKind::Processors);
  EXPECT_EQ(D.Id, 1u);
  EXPECT_EQ(D.Arrangement.Name, "P");
  EXPECT_EQ(slotTexts(D), (std::vector<std::string>{"nprocs / 2", "world"}));
  EXPECT_EQ(D.Extent, 0);
  EXPECT_EQ(D.Comm, 1);
  EXPECT_EQ(D.Var, -1);
  EXPECT_EQ(P.HashLocs[0], "3:1");
  EXPECT_EQ(P.KeywordLocs[0], "3:16");
  EXPECT_EQ(P.NameLocs[0], "3:27");
  EXPECT_EQ(P.EndLocs[0], "3:52");
}

TEST(PragmaParser, DistributeFormats) {
  Parsed P = parseCode("#include <vector>\n"
                       "std::vector<double> a, b, c, d, e, f;\n"
                       "constexpr int K = 4;\n"
                       "constexpr int S[2] = {3, 5};\n"
                       "#pragma redist distribute a[8](block) onto P\n"
                       "#pragma redist distribute b[8](block(K)) onto P\n"
                       "#pragma redist distribute c[8](cyclic) onto P\n"
                       "#pragma redist distribute d[8](cyclic(K + 1)) onto P\n"
                       "#pragma redist distribute e[8](gen_block(S)) onto P\n"
                       "#pragma redist distribute f[8](gen_block({3, 5})) "
                       "onto P\n");
  ASSERT_EQ(P.Directives.size(), 6u);
  const FormatKind Kinds[] = {FormatKind::Block,    FormatKind::BlockSized,
                              FormatKind::Cyclic,   FormatKind::CyclicSized,
                              FormatKind::GenBlock, FormatKind::GenBlock};
  const std::vector<std::string> Slots[] = {
      {"a", "8"},          {"b", "8", "K"}, {"c", "8"},
      {"d", "8", "K + 1"}, {"e", "8", "S"}, {"f", "8", "{3, 5}"}};
  for (size_t I = 0; I < 6; ++I) {
    const Directive &D = P.Directives[I];
    SCOPED_TRACE(I);
    EXPECT_EQ(D.Kind, DirectiveKind::Distribute);
    EXPECT_EQ(D.Id, I + 1);
    EXPECT_EQ(D.Format.Kind, Kinds[I]);
    EXPECT_EQ(slotTexts(D), Slots[I]);
    EXPECT_EQ(D.Var, 0);
    EXPECT_EQ(D.Extent, 1);
    EXPECT_EQ(D.Format.Arg, Slots[I].size() == 3 ? 2 : -1);
    EXPECT_EQ(D.Format.BracedList, I == 5);
    EXPECT_EQ(D.Onto.Name, "P");
    EXPECT_EQ(P.FormatLocs[I], std::to_string(I + 5) + ":32");
  }
  // The arrangement need not exist for the parser.
  EXPECT_EQ(P.Diags, Seen());
}

TEST(PragmaParser, KeywordsAreCaseInsensitive) {
  Parsed P = parseCode("#include <vector>\n"
                       "std::vector<double> x;\n"
                       "void f() {\n"
                       "#pragma redist REDISTRIBUTE x(CYCLIC(3)) ONTO Q "
                       "Schedule(GREEDY)\n"
                       "}\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 1u);
  const Directive &D = P.Directives[0];
  EXPECT_EQ(D.Kind, DirectiveKind::Redistribute);
  EXPECT_EQ(D.Format.Kind, FormatKind::CyclicSized);
  EXPECT_EQ(D.Onto.Name, "Q");
  EXPECT_EQ(P.OntoLocs[0], "4:47");
  // Algorithms are stored in lower case, as the library names them.
  EXPECT_EQ(D.Schedule, redist::Algorithm::Greedy);
  EXPECT_EQ(P.ScheduleLocs[0], "4:58");
}

TEST(PragmaParser, VerifyClause) {
  Parsed P = parseCode("#include <vector>\n"
                       "std::vector<double> x, y;\n"
                       "void f() {\n"
                       "#pragma redist redistribute x(block) verify(off)\n"
                       "#pragma redist redistribute x(cyclic) VERIFY(On) "
                       "schedule(greedy)\n"
                       "#pragma redist assign y = x verify(on)\n"
                       "#pragma redist redistribute x(block)\n"
                       "}\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 4u);
  EXPECT_EQ(P.Directives[0].Verify, std::optional<bool>(false));
  EXPECT_EQ(P.VerifyLocs[0], "4:45");
  // Any order with the other clauses, any case.
  EXPECT_EQ(P.Directives[1].Verify, std::optional<bool>(true));
  EXPECT_EQ(P.Directives[1].Schedule, redist::Algorithm::Greedy);
  EXPECT_EQ(P.VerifyLocs[1], "5:46");
  EXPECT_EQ(P.Directives[2].Kind, DirectiveKind::Assign);
  EXPECT_EQ(P.Directives[2].Verify, std::optional<bool>(true));
  // Without the clause: the file's default decides (CodeGenOptions).
  EXPECT_FALSE(P.Directives[3].Verify);
  EXPECT_EQ(P.VerifyLocs[3], "-");
}

TEST(PragmaParser, Inquire) {
  // The code after the directive uses the name it declares.
  Parsed P = parseCode(
      "#include <vector>\n"
      "#include \"LocalPart.h\"\n"
      "struct S { std::vector<double> m; };\n"
      "void f(S &s) {\n"
      "#pragma redist inquire s.m INTO Info\n"
      "  (void)Info.extent();\n"
      "}\n",
      {{"LocalPart.h",
        "namespace redist { struct ArrayInfo { long extent() const; }; }\n"}});
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 1u);
  const Directive &D = P.Directives[0];
  EXPECT_EQ(D.Kind, DirectiveKind::Inquire);
  EXPECT_EQ(slotTexts(D), std::vector<std::string>{"s.m"});
  EXPECT_EQ(D.Var, 0);
  EXPECT_EQ(D.Into.Name, "Info");
  EXPECT_EQ(P.IntoLocs[0], "5:33");
}

TEST(PragmaParser, AssignAndVariableForms) {
  Parsed P = parseCode("#include <vector>\n"
                       "namespace ns { std::vector<double> x; }\n"
                       "struct S {\n"
                       "  std::vector<double> m, n;\n"
                       "  void f(S &o);\n"
                       "};\n"
                       "void S::f(S &o) {\n"
                       "#pragma redist assign this->m = o.n schedule(auto)\n"
                       "#pragma redist assign ::ns::x = ns::x\n"
                       "}\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 2u);
  const Directive &A = P.Directives[0];
  EXPECT_EQ(A.Kind, DirectiveKind::Assign);
  EXPECT_EQ(slotTexts(A), (std::vector<std::string>{"this->m", "o.n"}));
  EXPECT_EQ(A.Var, 0);
  EXPECT_EQ(A.Src, 1);
  // `auto` is a C++ keyword, read as the algorithm name all the same.
  EXPECT_EQ(A.Schedule, redist::Algorithm::Auto);
  EXPECT_EQ(slotTexts(P.Directives[1]),
            (std::vector<std::string>{"::ns::x", "ns::x"}));
  EXPECT_FALSE(P.Directives[1].Schedule);
}

// A matrix and its grid are the rank-2 case of the N-D form; only the plain
// 1-D array and arrangement keep theirs.
TEST(PragmaParser, MatricesAreRankTwoArrays) {
  Parsed P = parseCode("#include <vector>\n"
                       "std::vector<double> a, x;\n"
                       "#pragma redist processors G(2, 3)\n"
                       "#pragma redist processors P(6)\n"
                       "#pragma redist distribute a[10][20](block, cyclic(2)) "
                       "onto G\n"
                       "#pragma redist distribute x[10](block) onto P\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 4u);
  EXPECT_TRUE(P.Directives[0].ArrayForm);
  EXPECT_EQ(P.Directives[0].Extents.size(), 2u);
  EXPECT_FALSE(P.Directives[1].ArrayForm);
  const Directive &A = P.Directives[2];
  EXPECT_TRUE(A.ArrayForm);
  EXPECT_EQ(A.Extents.size(), 2u);
  ASSERT_EQ(A.Formats.size(), 2u);
  EXPECT_EQ(A.Formats[1]->Kind, FormatKind::CyclicSized);
  EXPECT_FALSE(A.Storage);
  EXPECT_FALSE(P.Directives[3].ArrayForm);
}

TEST(PragmaParser, ArraysOfAnyRank) {
  Parsed P = parseCode(
      "#include <vector>\n"
      "std::vector<double> u, v, w;\n"
      "constexpr int N = 4;\n"
      "#pragma redist processors T(2, N, 1) order(column_major)\n"
      "#pragma redist distribute u[8][N][6](block, *, cyclic(2)) onto T "
      "storage(row_major)\n"
      "#pragma redist redistribute u(*, block, *) onto T\n"
      "#pragma redist assign w[0:N][:][2:6] = u[4:8][:][0:N]\n"
      "#pragma redist assign v = permute(u, 2, 0, 1)\n"
      "#pragma redist assign v = transpose(u)\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 6u);
  const Directive &G = P.Directives[0];
  EXPECT_TRUE(G.ArrayForm);
  EXPECT_EQ(G.Extents, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(G.Order, redist::GridOrder::ColumnMajor);
  const Directive &U = P.Directives[1];
  EXPECT_TRUE(U.ArrayForm);
  EXPECT_EQ(slotTexts(U), (std::vector<std::string>{"u", "8", "N", "6", "2"}));
  EXPECT_EQ(U.Extents, (std::vector<int>{1, 2, 3}));
  ASSERT_EQ(U.Formats.size(), 3u);
  EXPECT_EQ(U.Formats[0]->Kind, FormatKind::Block);
  EXPECT_FALSE(U.Formats[1]);
  EXPECT_EQ(U.Formats[2]->Kind, FormatKind::CyclicSized);
  EXPECT_EQ(U.Formats[2]->Arg, 4);
  EXPECT_EQ(U.Storage, redist::StorageOrder::RowMajor);
  const Directive &R = P.Directives[2];
  ASSERT_EQ(R.Formats.size(), 3u);
  EXPECT_FALSE(R.Formats[0]);
  EXPECT_EQ(R.Formats[1]->Kind, FormatKind::Block);
  const Directive &S = P.Directives[3];
  EXPECT_EQ(slotTexts(S), (std::vector<std::string>{"w", "0", "N", "2", "6",
                                                    "u", "4", "8", "0", "N"}));
  ASSERT_EQ(S.TargetSection.size(), 3u);
  EXPECT_FALSE(S.TargetSection[0].whole());
  EXPECT_TRUE(S.TargetSection[1].whole());
  EXPECT_EQ(S.TargetSection[2].Begin, 3);
  ASSERT_EQ(S.SourceSection.size(), 3u);
  EXPECT_EQ(S.Src, 5);
  EXPECT_TRUE(S.SourceSection[1].whole());
  EXPECT_EQ(P.Directives[4].Permutation, (std::vector<int>{2, 0, 1}));
  EXPECT_FALSE(P.Directives[4].Transpose);
  EXPECT_EQ(P.Directives[5].Permutation, (std::vector<int>{1, 0}));
  EXPECT_TRUE(P.Directives[5].Transpose);
  EXPECT_EQ(slotTexts(P.Directives[5]), (std::vector<std::string>{"v", "u"}));
}

TEST(PragmaParser, MacrosAndContinuations) {
  Parsed P = parseCode("#define N 8\n"
                       "#define WHOLE P2(4)\n"
                       "#pragma redist processors P1(N)\n"
                       "#pragma redist processors WHOLE\n"
                       "#pragma redist processors P3(2 \\\n"
                       "  * N)\n");
  EXPECT_EQ(P.Diags, Seen());
  ASSERT_EQ(P.Directives.size(), 3u);
  // The user's text where the directive's brackets are the user's...
  EXPECT_EQ(slotTexts(P.Directives[0]), std::vector<std::string>{"N"});
  // ...the expanded tokens where a macro gave them.
  EXPECT_EQ(P.Directives[1].Arrangement.Name, "P2");
  EXPECT_EQ(slotTexts(P.Directives[1]), std::vector<std::string>{"4"});
  // A continued line becomes one line of generated code.
  EXPECT_EQ(slotTexts(P.Directives[2]), std::vector<std::string>{"2    * N"});
  EXPECT_EQ(P.EndLocs[2], "6:7");
}

TEST(PragmaParser, AnErrorRecordsNothing) {
  Parsed P = parseCode("#pragma redist processors P(4)\n"
                       "#pragma redist processors\n"
                       "#pragma redist processors Q(2)\n");
  ASSERT_EQ(P.Directives.size(), 2u);
  EXPECT_EQ(P.Directives[0].Arrangement.Name, "P");
  EXPECT_EQ(P.Directives[1].Arrangement.Name, "Q");
  // Numbered as recorded: the ids name generated variables.
  EXPECT_EQ(P.Directives[1].Id, 2u);
  EXPECT_EQ(P.Diags.size(), 1u);
}

TEST(PragmaParser, OtherPragmasAreLeftAlone) {
  Parsed P = parseCode("#pragma once\n"
                       "#pragma GCC diagnostic ignored \"-Wall\"\n"
                       "#pragma redist processors P(4)\n");
  EXPECT_EQ(P.Diags, Seen());
  EXPECT_EQ(P.Directives.size(), 1u);
}

} // namespace
} // namespace test
} // namespace redistc
