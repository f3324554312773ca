//===- OverlapSchedulers.cpp - Names and dispatch of overlap schedulers ---===//
//
// makeOverlapSchedule checks every schedule with validateOverlapSchedule
// before handing it out, as makeSchedule does for step schedules.
//
//===----------------------------------------------------------------------===//

#include "redist/OverlapSchedulers.h"

#include <stdexcept>
#include <string>

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
