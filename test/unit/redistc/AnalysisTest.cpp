//===- AnalysisTest.cpp - The model Analysis makes ------------------------===//
//
// What Analysis makes of valid directives: constants, variable kinds and
// element types, placement, the distribution before each action (and why it
// is unknown when it is), and the instantiations of function templates. Its
// error messages are in DiagnosticsTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "ToolRun.h"

#include "clang/AST/DeclCXX.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace redistc {
namespace test {
namespace {

/// The parts of an action's model the tests compare, as text.
struct ActionSummary {
  std::string From, To, NotConstant;
  bool Dynamic;
};

ActionSummary summary(const ActionInfo &A) {
  return {A.From ? A.From->str() : "?", A.To ? A.To->str() : "?", A.NotConstant,
          A.isDynamic()};
}

bool operator==(const ActionSummary &A, const ActionSummary &B) {
  return A.From == B.From && A.To == B.To && A.NotConstant == B.NotConstant &&
         A.Dynamic == B.Dynamic;
}

void PrintTo(const ActionSummary &A, std::ostream *OS) {
  *OS << "{" << A.From << " -> " << A.To << ", \"" << A.NotConstant << "\", "
      << (A.Dynamic ? "dynamic" : "static") << "}";
}

/// The summaries of every action in Code, in order.
std::vector<ActionSummary> actions(const std::string &Code) {
  std::vector<ActionSummary> Out;
  Seen Diags =
      analyse(Input(Code), [&](clang::ASTContext &, const Analysis &A) {
        for (const AnalysedDirective &AD : A.results())
          if (AD.Action)
            Out.push_back(summary(*AD.Action));
      });
  EXPECT_EQ(Diags, Seen());
  return Out;
}

const char *const Prelude = "#include <vector>\n"
                            "#pragma redist processors P(4)\n";

TEST(Analysis, ConstantsAndScopes) {
  std::string Code = std::string(Prelude) +
                     "int nprocs;\n"
                     "#pragma redist processors Q(nprocs)\n"
                     "enum { Two = 2 };\n"
                     "void f() {\n"
                     "#pragma redist processors R(Two * 3)\n"
                     "}\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &, const Analysis &A) {
    const std::vector<AnalysedDirective> &R = A.results();
    ASSERT_EQ(R.size(), 3u);
    ASSERT_TRUE(R[0].Arrangement && R[1].Arrangement && R[2].Arrangement);
    EXPECT_EQ(R[0].Arrangement->Extent, std::optional<int64_t>(4));
    EXPECT_EQ(R[1].Arrangement->Extent, std::nullopt);
    EXPECT_EQ(R[2].Arrangement->Extent, std::optional<int64_t>(6));
    EXPECT_EQ(R[0].Arrangement->Where.Scope, ScopeKind::Namespace);
    EXPECT_EQ(R[2].Arrangement->Where.Scope, ScopeKind::Block);
    EXPECT_EQ(R[2].Arrangement->Where.IndexInBlock, 0);
  });
  EXPECT_EQ(Diags, Seen());
}

TEST(Analysis, VariableKinds) {
  std::string Code = std::string(Prelude) +
                     "struct Pair { int a; short b; };\n"
                     "std::vector<Pair> Global;\n"
                     "#pragma redist distribute Global[100](cyclic(3)) onto P\n"
                     "void f(double *Ptr, long n) {\n"
                     "  float Arr[40];\n"
                     "#pragma redist distribute Ptr[n](block) onto P\n"
                     "#pragma redist distribute Arr[100](gen_block({10, 20, "
                     "30, 40})) onto P\n"
                     "}\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &Ctx,
                                       const Analysis &A) {
    const std::vector<AnalysedDirective> &R = A.results();
    ASSERT_EQ(R.size(), 4u);
    const DistributionInfo *Global = R[1].Distribution;
    const DistributionInfo *Ptr = R[2].Distribution;
    const DistributionInfo *Arr = R[3].Distribution;
    ASSERT_TRUE(Global && Ptr && Arr);

    EXPECT_EQ(Global->Var.Kind, VarKind::Vector);
    EXPECT_EQ(Global->Var.Element.getAsString(Ctx.getPrintingPolicy()), "Pair");
    EXPECT_EQ(Global->Var.ElementBytes, 8);
    EXPECT_EQ(Global->Extent, std::optional<int64_t>(100));
    ASSERT_TRUE(Global->Declared);
    EXPECT_EQ(Global->Declared->str(), "cyclic(3)");
    // Known at namespace scope only at run time: any function may change it.
    EXPECT_TRUE(Global->Escapes);

    EXPECT_EQ(Ptr->Var.Kind, VarKind::Pointer);
    EXPECT_EQ(Ptr->Var.ElementBytes, 8);
    EXPECT_EQ(Ptr->Extent, std::nullopt);
    EXPECT_EQ(Ptr->Onto, R[0].Arrangement);
    EXPECT_FALSE(Ptr->Escapes);

    EXPECT_EQ(Arr->Var.Kind, VarKind::Array);
    EXPECT_EQ(Arr->Var.ArraySize, std::optional<int64_t>(40));
    EXPECT_EQ(Arr->Var.ElementBytes, 4);
    EXPECT_EQ(Arr->Format.Sizes,
              std::optional<std::vector<int64_t>>({10, 20, 30, 40}));
    EXPECT_EQ(Arr->Format.spelling(), "gen_block({10, 20, 30, 40})");
  });
  EXPECT_EQ(Diags, Seen());
}

TEST(Analysis, GenBlockSizesFromConstexprArrays) {
  std::string Code = std::string(Prelude) +
                     "#include <array>\n"
                     "constexpr std::array<long, 4> S = {1, 2, 3, 4};\n"
                     "std::vector<long> Runtime = {1, 2, 3, 4};\n"
                     "void f(std::vector<double> &X, std::vector<double> &Y) "
                     "{\n"
                     "#pragma redist distribute X[10](gen_block(S)) onto P\n"
                     "#pragma redist distribute Y[10](gen_block(Runtime)) "
                     "onto P\n"
                     "}\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &, const Analysis &A) {
    const FormatValue &S = A.results()[1].Distribution->Format;
    EXPECT_EQ(S.Sizes, std::optional<std::vector<int64_t>>({1, 2, 3, 4}));
    EXPECT_EQ(S.SizesCount, std::optional<int64_t>(4));
    EXPECT_TRUE(S.isConstant());
    const FormatValue &Runtime = A.results()[2].Distribution->Format;
    EXPECT_FALSE(Runtime.Sizes);
    EXPECT_FALSE(Runtime.isConstant());
  });
  EXPECT_EQ(Diags, Seen());
}

TEST(Analysis, StraightLineTracking) {
  std::string Code =
      std::string(Prelude) +
      "#pragma redist processors Two(2)\n"
      "void f(std::vector<double> &x, std::vector<double> &y) {\n"
      "#pragma redist distribute x[1000](cyclic(3)) onto P\n"
      "#pragma redist distribute y[1000](block) onto P\n"
      "#pragma redist redistribute x(block)\n"
      "#pragma redist assign y = x\n"
      "#pragma redist redistribute x(cyclic) onto Two\n"
      "}\n";
  EXPECT_EQ(actions(Code),
            (std::vector<ActionSummary>{{"cyclic(3)", "block", "", false},
                                        {"block", "block", "", false},
                                        {"block", "cyclic", "", false}}));
}

TEST(Analysis, WhyTheDistributionIsUnknown) {
  std::string Code = std::string(Prelude) +
                     "void f(std::vector<double> &x, int k, bool c) {\n"
                     "#pragma redist distribute x[1000](block) onto P\n"
                     "#pragma redist redistribute x(cyclic(k))\n"
                     "#pragma redist redistribute x(block)\n"
                     "  if (c) goto skip;\n"
                     "skip:\n"
                     "  ;\n"
                     "#pragma redist redistribute x(cyclic)\n"
                     "again:\n"
                     "#pragma redist redistribute x(block)\n"
                     "  if (c) goto again;\n"
                     "  {\n"
                     "#pragma redist redistribute x(cyclic)\n"
                     "  }\n"
                     "}\n";
  const std::string Unknown =
      "the distribution of 'x' is only known at run time";
  EXPECT_EQ(actions(Code), (std::vector<ActionSummary>{
                               {"block", "?", "'k' is not a constant", true},
                               {"?", "block", "'k' is not a constant", true},
                               // A label between the directives.
                               {"?", "cyclic", Unknown, true},
                               // A labelled directive.
                               {"?", "block", Unknown, true},
                               // Another block.
                               {"?", "cyclic", Unknown, true}}));
}

TEST(Analysis, AnotherFunctionMakesItDynamic) {
  std::string Code = std::string(Prelude) +
                     "void f(std::vector<double> &x) {\n"
                     "#pragma redist distribute x[1000](block) onto P\n"
                     "  auto g = [&] {\n"
                     "#pragma redist redistribute x(cyclic)\n"
                     "  };\n"
                     "  g();\n"
                     "#pragma redist redistribute x(block)\n"
                     "}\n";
  std::vector<ActionSummary> A = actions(Code);
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(A[1].NotConstant,
            "the distribution of 'x' is only known at run time");
}

TEST(Analysis, MemberFunctionDefinedInItsClass) {
  // Clang parses the body after the class; the directives belong to it.
  std::string Code = std::string(Prelude) +
                     "struct S {\n"
                     "  void f() {\n"
                     "#pragma redist distribute M[1000](cyclic(3)) onto P\n"
                     "#pragma redist redistribute M(block)\n"
                     "  }\n"
                     "  std::vector<double> M;\n"
                     "};\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &, const Analysis &A) {
    const std::vector<AnalysedDirective> &R = A.results();
    ASSERT_EQ(R.size(), 3u);
    ASSERT_TRUE(R[1].Distribution && R[2].Action);
    EXPECT_EQ(R[1].Distribution->Where.Scope, ScopeKind::Block);
    EXPECT_EQ(R[1].Distribution->Where.IndexInBlock, 0);
    const auto *F =
        llvm::dyn_cast<clang::CXXMethodDecl>(R[1].Distribution->Where.Function);
    ASSERT_TRUE(F);
    EXPECT_EQ(F->getNameAsString(), "f");
    EXPECT_EQ(summary(*R[2].Action),
              (ActionSummary{"cyclic(3)", "block", "", false}));
  });
  EXPECT_EQ(Diags, Seen());
}

TEST(Analysis, ProcessesOfAnUnknownArrangement) {
  std::string Code = std::string(Prelude) +
                     "int n;\n"
                     "#pragma redist processors N(n)\n"
                     "void f(std::vector<double> &x) {\n"
                     "#pragma redist distribute x[1000](block) onto N\n"
                     "#pragma redist redistribute x(cyclic) onto P\n"
                     "}\n";
  EXPECT_EQ(actions(Code),
            (std::vector<ActionSummary>{
                {"?", "cyclic",
                 "the number of processes of 'N' is not a constant", true}}));
}

TEST(Analysis, InstancesOfAFunctionTemplate) {
  std::string Code = std::string(Prelude) +
                     "enum class Mode { Fast = 7 };\n"
                     "template <int K, class T, Mode M>\n"
                     "void f(std::vector<T> &x) {\n"
                     "#pragma redist distribute x[1000](cyclic(K)) onto P\n"
                     "#pragma redist redistribute x(block)\n"
                     "}\n"
                     "void g(std::vector<double> &d, std::vector<char> &c) {\n"
                     "  f<3, double, Mode::Fast>(d);\n"
                     "  f<0, char, Mode::Fast>(c);\n"
                     "  struct Local { int i; };\n"
                     "  std::vector<Local> l;\n"
                     "  f<5, Local, Mode::Fast>(l);\n"
                     "}\n";
  Seen Diags = analyse(Input(Code), [](clang::ASTContext &, const Analysis &A) {
    const AnalysedDirective &AD = A.results()[2];
    ASSERT_TRUE(AD.Action);
    EXPECT_TRUE(AD.Action->isDynamic());
    EXPECT_EQ(AD.Action->NotConstant, "'K' is not a constant");
    ASSERT_EQ(AD.Instances.size(), 3u);

    const InstanceAction &Three = AD.Instances[0];
    EXPECT_EQ(Three.Name, "f<3, double, Mode::Fast>");
    EXPECT_EQ(Three.Condition, "K == 3 && std::is_same_v<T, double> && "
                               "M == static_cast<decltype(M)>(7)");
    ASSERT_TRUE(Three.Action);
    EXPECT_EQ(summary(*Three.Action),
              (ActionSummary{"cyclic(3)", "block", "", false}));

    // An instance whose own analysis fails keeps the runtime path.
    const InstanceAction &Zero = AD.Instances[1];
    EXPECT_EQ(Zero.Name, "f<0, char, Mode::Fast>");
    EXPECT_FALSE(Zero.Action);
    EXPECT_EQ(Zero.Why,
              "in this instantiation, block size must be positive, got 0");

    // The generated code cannot name a type local to a function.
    const InstanceAction &Local = AD.Instances[2];
    EXPECT_EQ(Local.Condition, "");
    EXPECT_FALSE(Local.Action);
    EXPECT_EQ(Local.Why, "redistc cannot write its template arguments in "
                         "the generated code");
  });
  EXPECT_EQ(Diags, Seen());
}

} // namespace
} // namespace test
} // namespace redistc
