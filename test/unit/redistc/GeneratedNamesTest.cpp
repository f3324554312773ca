//===- GeneratedNamesTest.cpp - Names of what the generated code declares -===//

#include "GeneratedNames.h"
#include "ToolRun.h"

#include "gtest/gtest.h"

namespace redistc {
namespace test {
namespace {

TEST(GeneratedNames, NamedAfterTheDirective) {
  std::string Code = "#include <vector>\n"
                     "#pragma redist processors P(4)\n"
                     "std::vector<double> G;\n"
                     "#pragma redist distribute G[10](block) onto P\n"
                     "struct S { std::vector<double> m; };\n"
                     "void f(S &s) {\n"
                     "#pragma redist processors Q(2)\n"
                     "#pragma redist distribute s.m[10](block) onto Q\n"
                     "}\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &, const Analysis &A) {
    const std::vector<AnalysedDirective> &R = A.results();
    ASSERT_EQ(R.size(), 4u);
    // At namespace scope: functions, called at each use.
    const DeclaredNames P(*R[0].Arrangement);
    EXPECT_EQ(P.name(Declared::Extent), "redistc_P1_extent");
    EXPECT_EQ(P.use(Declared::Extent), "redistc_P1_extent()");
    EXPECT_EQ(P.use(Declared::Comm), "redistc_P1_comm()");
    const DeclaredNames G(*R[1].Distribution);
    EXPECT_EQ(G.name(Declared::Distribution), "redistc_G2_dist");
    EXPECT_EQ(G.use(Declared::Distribution), "redistc_G2_dist()");
    // In a block: variables.
    const DeclaredNames Q(*R[2].Arrangement);
    EXPECT_EQ(Q.name(Declared::Comm), "redistc_Q3_comm");
    EXPECT_EQ(Q.use(Declared::Comm), "redistc_Q3_comm");
    // A member is named after its last identifier.
    const DeclaredNames M(*R[3].Distribution);
    EXPECT_EQ(M.name(Declared::Distribution), "redistc_m4_dist");
    EXPECT_EQ(M.use(Declared::Extent), "redistc_m4_extent");
    EXPECT_EQ(M.use(Declared::Comm), "redistc_m4_comm");
  });
  EXPECT_EQ(Diags, Seen());
}

} // namespace
} // namespace test
} // namespace redistc
