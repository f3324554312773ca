//===- Fit.h - Least squares with non-negative coefficients ---------------===//
//
// redist-calibrate fits the cost model's constants to its timings: a few
// coefficients, each a time, so none may be negative. With so few, the
// non-negative least-squares solution is found by trying every set of
// coefficients held at zero and keeping the best feasible fit.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_TOOLS_REDIST_CALIBRATE_FIT_H
#define REDIST_TOOLS_REDIST_CALIBRATE_FIT_H

#include <optional>
#include <vector>

namespace redistcalibrate {

/// One timing: Time ~ sum over j of Row[j] * coefficient j.
struct Observation {
  std::vector<double> Row;
  double Time = 0;
};

/// The non-negative coefficients that minimise the sum of squared relative
/// errors ((predicted - Time) / Time)^2, so that microsecond and
/// millisecond timings count alike. Observations need positive times and
/// rows of one length (at most 8 coefficients). nullopt when no choice of
/// coefficients is determined by the observations.
std::optional<std::vector<double>>
fitNonNegative(const std::vector<Observation> &Obs);

} // namespace redistcalibrate

#endif // REDIST_TOOLS_REDIST_CALIBRATE_FIT_H
