//===- CodeGenText.h - Pieces of generated code CodeGen's files share -----===//
//
// Private to CodeGen.cpp, which defines them, and CodeGenArray.cpp, which
// writes the code of arrays of rank 2 or more with them.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_CODEGENTEXT_H
#define REDISTC_CODEGENTEXT_H

#include "Model.h"
#include "StaticTables.h"

#include "redist/ArraySchedulers.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redistc {
namespace codegen {

/// A C string literal holding Text.
std::string quoted(llvm::StringRef Text);
/// The enumerator of redist::GridOrder that names O.
const char *orderEnumerator(redist::GridOrder O);
/// The algorithm an N-D array directive names: schedule(product(A))
/// or one that needs 1-D layouts (walker_otto, classes, scpa, chain) runs
/// per dimension; the others schedule the grid directly.
redist::ArrayAlgorithm arrayAlgorithm(const Directive &D);
/// "1 step", "4 steps": N and the noun, plural unless N is 1.
std::string counted(int64_t N, const char *One, const char *Many);
/// C++ that constructs the distribution of format F over Procs processes;
/// its run-time errors name Where. Without Where, a redist::directive::Target
/// instead, whose errors the directive's plan raises on every rank.
std::string distributionInit(const FormatValue &F, const std::string &Procs,
                             const std::optional<std::string> &Where);
/// F's argument as an expression (a braced list as an initializer_list).
std::string argumentExpr(const FormatValue &F);
/// C++ of the constant form of distribution D (redist::DistributionConstant);
/// a GEN_BLOCK's sizes go to the array named SizesName, declared in Decls.
std::string distributionConstant(const redist::Distribution &D,
                                 const std::string &SizesName,
                                 std::string &Decls);
/// The step calls of a static directive, each with a comment on its
/// messages, or a loop beyond MaxCalls steps.
std::string stepCalls(const StaticTables &T, int64_t MaxCalls);
/// The schedule comment: algorithm, steps, cost and bounds.
std::string scheduleComment(const StaticTables &T);
/// Code moved one level in: two more spaces on each non-empty line.
std::string indented(const std::string &Code);
/// The rows of an N-D array's message table (messages between processes,
/// redist::TranslatedArrayMessage), a comment before each step.
std::string processMessageRows(const StaticTables &T);
/// The --report text of such a table: "static; schedule ...".
std::string processTableReport(const StaticTables &T);

} // namespace codegen
} // namespace redistc

#endif // REDISTC_CODEGENTEXT_H
