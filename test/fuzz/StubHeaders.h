//===- StubHeaders.h - Small stand-ins for the headers programs include ---===//
//
// The fuzzer parses each input with no file on disk: the real <vector> or
// <mpi.h> would cost more to parse than the input itself, and an input must
// not be able to make Clang read a device such as /dev/zero. These stand-ins
// declare what the directive programs of the tests use (std::vector with its
// usual members, MPI_Comm and the MPI calls, the fixed-width integers, the
// helpers of the MPI test programs' check.h), so
// that a mutated program still parses without errors and reaches code
// generation. Any other header is missing, which Clang reports.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_FUZZ_STUBHEADERS_H
#define REDIST_FUZZ_STUBHEADERS_H

#include <map>
#include <string>

namespace redist {
namespace fuzz {

/// The folder the stand-ins are in, for -isystem.
constexpr const char *StubIncludeDir = "/redistc-test/include";

/// Each stand-in's text by its path relative to the input's folder
/// (ToolRun.h's Input::Headers): "include/vector" and so on.
const std::map<std::string, std::string> &stubHeaders();

} // namespace fuzz
} // namespace redist

#endif // REDIST_FUZZ_STUBHEADERS_H
