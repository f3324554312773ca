//===- redist/Error.h - The error type of the schedule library ------------===//
//
// Every invalid input to the schedule library (a non-positive process count or
// block size, a negative extent, an algorithm that does not apply) raises
// redist::InvalidArgument with a message that names the offending value.
// Callers (redist-plan, the runtime, redistc) turn it into their own report.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_ERROR_H
#define REDIST_ERROR_H

#include <stdexcept>
#include <string>

namespace redist {

class InvalidArgument : public std::invalid_argument {
public:
  explicit InvalidArgument(const std::string &What)
      : std::invalid_argument(What) {}
};

} // namespace redist

#endif // REDIST_ERROR_H
