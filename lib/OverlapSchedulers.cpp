//===- OverlapSchedulers.cpp - Names and dispatch of overlap schedulers ---===//
//
// makeOverlapSchedule checks every schedule with validateOverlapSchedule
// before handing it out, as makeSchedule does for step schedules.
//
//===----------------------------------------------------------------------===//

#include "redist/OverlapSchedulers.h"

#include "redist/Error.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace redist {

const char *overlapAlgorithmName(OverlapAlgorithm A) {
  return A == OverlapAlgorithm::Overlap ? "overlap" : "overlap-split";
}

std::optional<OverlapAlgorithm> parseOverlapAlgorithm(std::string_view Name) {
  for (OverlapAlgorithm A :
       {OverlapAlgorithm::Overlap, OverlapAlgorithm::OverlapSplit})
    if (Name == overlapAlgorithmName(A))
      return A;
  return std::nullopt;
}

void validateOverlapOptions(const OverlapOptions &Opts) {
  if (Opts.Effort < 1 || Opts.Effort > MaxOverlapEffort)
    throw InvalidArgument("overlap: effort " + std::to_string(Opts.Effort) +
                          " is out of range (1 to " +
                          std::to_string(MaxOverlapEffort) + ")");
  const std::pair<const char *, int64_t> Budgets[] = {
      {"MatchingWork", Opts.MatchingWork},
      {"DeadlineRestarts", Opts.DeadlineRestarts},
      {"DeadlineWork", Opts.DeadlineWork},
      {"DeadlineRounds", Opts.DeadlineRounds},
      {"ListSearchWork", Opts.ListSearchWork},
      {"ExactMessages", Opts.ExactMessages},
      {"ExactNodes", Opts.ExactNodes},
      {"SearchWork", Opts.SearchWork},
      {"SearchMessages", Opts.SearchMessages}};
  for (const auto &[Name, Value] : Budgets)
    if (Value < 0)
      throw InvalidArgument(std::string("overlap: ") + Name + " " +
                            std::to_string(Value) + " is negative");
}

OverlapSchedule makeOverlapSchedule(OverlapAlgorithm A, const CommGrid &G,
                                    const OverlapOptions &Opts,
                                    OverlapReport *Report) {
  OverlapSchedule S = A == OverlapAlgorithm::Overlap
                          ? scheduleOverlap(G, Opts, Report)
                          : scheduleOverlapSplit(G, Opts, Report);
  if (std::optional<std::string> Problem = validateOverlapSchedule(G, S))
    throw std::logic_error(std::string("internal error: the ") + S.Algorithm +
                           " schedule is invalid: " + *Problem);
  return S;
}

} // namespace redist
