//===- TranslateTest.cpp - A whole translation, in memory and on disk -----===//
//
// TranslateAction on a buffer (the report, the untouched file) and
// translateFile as redistc's main calls it: the files it writes, and the
// error when it cannot write the output.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "ToolRun.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

namespace redistc {
namespace test {
namespace {

const char *const Program = "#include <vector>\n"
                            "#pragma redist processors P(4)\n"
                            "void f(std::vector<double> &x, int k) {\n"
                            "#pragma redist distribute x[1000](cyclic(3)) "
                            "onto P\n"
                            "#pragma redist redistribute x(cyclic(5))\n"
                            "#pragma redist redistribute x(cyclic(k))\n"
                            "}\n";

TEST(Translate, AFileWithoutDirectivesIsKept) {
  const std::string Code = "int a;\n#pragma once\n  // the end";
  Translation Out;
  EXPECT_EQ(translate(Input(Code), Out), Seen());
  EXPECT_TRUE(Out.Done);
  EXPECT_EQ(Out.Text, Code);
  EXPECT_TRUE(Out.Report.empty());
}

TEST(Translate, Report) {
  Translation Out;
  EXPECT_EQ(translate(Input(Program), Out), Seen());
  ASSERT_TRUE(Out.Done);
  ASSERT_EQ(Out.Report.size(), 4u);
  const std::string At = std::string(InputPath) + ":";
  EXPECT_EQ(Out.Report[0], At + "2:1: processors P: 4 processes");
  EXPECT_EQ(Out.Report[1],
            At + "4:1: distribute x: cyclic(3) of 1000 elements onto P");
  EXPECT_EQ(
      Out.Report[2].rfind(At + "5:1: redistribute x: static; schedule ", 0), 0u)
      << Out.Report[2];
  EXPECT_EQ(Out.Report[3], At + "6:1: redistribute x: dynamic ('k' is not a "
                                "constant); schedule auto: steps and cost "
                                "chosen at run time");
  // Every directive line is replaced; the lines after it keep their number.
  EXPECT_EQ(Out.Text.find("\n#pragma redist"), std::string::npos);
  EXPECT_NE(Out.Text.find("#line 7 \"" + std::string(InputPath) + "\""),
            std::string::npos);
}

TEST(Translate, ForcedDynamic) {
  Translation Out;
  CodeGenOptions Options;
  Options.ForceDynamic = true;
  EXPECT_EQ(translate(Input(Program), Out, Options), Seen());
  ASSERT_EQ(Out.Report.size(), 4u);
  EXPECT_NE(Out.Report[2].find("dynamic (--dynamic forces the runtime path)"),
            std::string::npos)
      << Out.Report[2];
}

/// A directory of its own for each test, removed after it.
class TranslateFile : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("redistc-unit-tests", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  /// translateFile on in.cpp, as redistc's main calls it.
  int translateInput(const OutputOptions &Output) const {
    return translateFile(Compilations, path("in.cpp"), CodeGenOptions(), Output,
                         "redistc");
  }
  std::string read(llvm::StringRef Name) const {
    auto Buffer = llvm::MemoryBuffer::getFile(path(Name));
    return Buffer ? (*Buffer)->getBuffer().str() : "<missing>";
  }

  llvm::SmallString<256> Dir;
  clang::tooling::FixedCompilationDatabase Compilations{".", {}};
};

TEST_F(TranslateFile, WritesTheTranslationDependenciesAndReport) {
  write("in.cpp", Program);
  OutputOptions Output;
  Output.OutputFile = path("out.cpp");
  Output.DepFile = path("out.d");
  Output.Report = true;
  ::testing::internal::CaptureStdout();
  int Status = translateInput(Output);
  llvm::outs().flush();
  std::string Report = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(Status, 0);
  // The translation: the user's code kept, every directive replaced.
  const std::string Translated = read("out.cpp");
  EXPECT_NE(Translated.find("void f(std::vector<double> &x, int k) {\n"),
            std::string::npos);
  EXPECT_EQ(Translated.find("\n#pragma redist"), std::string::npos);
  EXPECT_EQ(read("out.d").rfind(path("out.cpp") + ":", 0), 0u);
  EXPECT_NE(read("out.d").find("vector"), std::string::npos);
  EXPECT_NE(Report.find("in.cpp:2:1: processors P: 4 processes\n"),
            std::string::npos)
      << Report;
}

TEST_F(TranslateFile, CannotWrite) {
  write("in.cpp", Program);
  OutputOptions Output;
  Output.OutputFile = path("missing/out.cpp");
  ::testing::internal::CaptureStderr();
  int Status = translateInput(Output);
  std::string Errors = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(Status, 1);
  EXPECT_NE(Errors.find("redistc: error: cannot write " +
                        path("missing/out.cpp") + ": "),
            std::string::npos)
      << Errors;
}

TEST_F(TranslateFile, NoOutputAfterAnError) {
  write("in.cpp", "#pragma redist scatter x\n");
  OutputOptions Output;
  Output.OutputFile = path("out.cpp");
  ::testing::internal::CaptureStderr();
  int Status = translateInput(Output);
  std::string Errors = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(Status, 1);
  EXPECT_NE(Errors.find("in.cpp:1:16: error: unknown redist directive"),
            std::string::npos)
      << Errors;
  EXPECT_FALSE(llvm::sys::fs::exists(path("out.cpp")));
}

} // namespace
} // namespace test
} // namespace redistc
