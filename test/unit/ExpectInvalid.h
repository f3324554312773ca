//===- ExpectInvalid.h - Checking the library's error messages, for tests -===//
//
// The library reports bad input as InvalidArgument naming the offending
// value; tests check that the message says what it must.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TEST_UNIT_EXPECTINVALID_H
#define REDIST_TEST_UNIT_EXPECTINVALID_H

#include "redist/Error.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace redist {
namespace test {

/// Expects Fn to throw InvalidArgument whose message contains every Part.
inline void expectInvalid(const std::function<void()> &Fn,
                          const std::vector<std::string> &Parts) {
  try {
    Fn();
    ADD_FAILURE() << "no InvalidArgument thrown; expected one mentioning "
                  << Parts.front();
  } catch (const InvalidArgument &E) {
    std::string What = E.what();
    for (const std::string &Part : Parts)
      EXPECT_NE(What.find(Part), std::string::npos)
          << "message \"" << What << "\" lacks \"" << Part << "\"";
  }
}

} // namespace test
} // namespace redist

#endif // REDIST_TEST_UNIT_EXPECTINVALID_H
