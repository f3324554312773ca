//===- Agreement.h - Ranks agreeing on a plan's parameters ----------------===//
//
// Private to the runtime. Every plan, 1-D or array, is checked on each rank
// alone, then one MPI_Allreduce tells every rank whether any rank found a
// problem and (the Verify option) whether the ranks were given different
// parameters, by a hash of all of them (Validate.cpp). A plan describes its
// parameters as a list of Parameters; only a failure costs more collectives,
// to find the ranks at fault or the parameter that differs and its range.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_AGREEMENT_H
#define REDIST_RUNTIME_AGREEMENT_H

#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redist {
namespace detail {

/// One value every rank must have alike, as a number.
struct Parameter {
  Parameter(std::string Name, int64_t Value,
            std::function<std::string(int64_t)> Show)
      : Name(std::move(Name)), Value(Value), Show(std::move(Show)) {}
  std::string Name;
  int64_t Value;
  std::function<std::string(int64_t)> Show;
  /// A list compared by its hash (Value, whose range means nothing to the
  /// user): a difference names its length or its first entry that differs,
  /// each shown by Show.
  bool List = false;
  std::vector<int64_t> Items;
};

std::string showNumber(int64_t V);
/// A DistKind's name.
std::string showKind(int64_t V);
/// A list of Items as a Parameter, compared by its hash; a difference names
/// the first entry that differs and its range.
Parameter listParameter(std::string Name, std::vector<int64_t> Items);
/// The plan options every plan compares but the schedule algorithm (an
/// array plan's is its own, algorithmParameter), and the element size.
std::vector<Parameter> optionParameters(std::size_t ElementBytes,
                                        const PlanOptions &O);

/// Collective over Comm (not MPI_COMM_NULL), before any data moves. When
/// some rank's Problem is set, throws InvalidArgument on every rank: that
/// rank's problem, prefixed with the ranks at fault unless every rank has
/// one. With Params (the same number on every rank), throws on every rank
/// when they differ, naming the first parameter that does, its range and
/// this rank's value. One MPI_Allreduce when all is well.
void agree(const std::optional<std::string> &Problem,
           const std::vector<Parameter> *Params, MPI_Comm Comm);

/// MPI_Comm_dup, which also agrees on problems: collective over Comm (not
/// MPI_COMM_NULL). When some rank's Problem is set, throws on every rank as
/// agree does; otherwise returns the duplicate. It splits Comm by each
/// rank's verdict, so a plan that needs a duplicate anyway learns whether
/// any rank found a problem without another MPI call.
MPI_Comm duplicateAgreeing(const std::optional<std::string> &Problem,
                           MPI_Comm Comm);

/// The checks of the element size and of Options that do not depend on the
/// layouts, with the schedule algorithm named ScheduleName (Auto: whether it
/// is auto). Returns the first problem, naming the value.
std::optional<std::string> findInvalidOptions(std::size_t ElementBytes,
                                              const PlanOptions &Options,
                                              const std::string &ScheduleName,
                                              bool Auto);

} // namespace detail
} // namespace redist

#endif // REDIST_RUNTIME_AGREEMENT_H
