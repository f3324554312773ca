//===- Fit.cpp - Least squares with non-negative coefficients -------------===//

#include "Fit.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

namespace redistcalibrate {

namespace {

/// The weighted least-squares coefficients of the columns in Free (the
/// others zero), by the normal equations; nullopt when they are singular.
std::optional<std::vector<double>> solve(const std::vector<Observation> &Obs,
                                         const std::vector<std::size_t> &Free,
                                         std::size_t Columns) {
  const std::size_t K = Free.size();
  // [A | b] of A x = b, A = sum of w^2 r r^T over the free columns.
  std::vector<std::vector<double>> M(K, std::vector<double>(K + 1, 0));
  for (const Observation &O : Obs) {
    const double W2 = 1 / (O.Time * O.Time);
    for (std::size_t I = 0; I < K; ++I) {
      for (std::size_t J = 0; J < K; ++J)
        M[I][J] += W2 * O.Row[Free[I]] * O.Row[Free[J]];
      M[I][K] += W2 * O.Row[Free[I]] * O.Time;
    }
  }
  // Gaussian elimination with partial pivoting.
  for (std::size_t C = 0; C < K; ++C) {
    std::size_t Pivot = C;
    for (std::size_t R = C + 1; R < K; ++R)
      if (std::fabs(M[R][C]) > std::fabs(M[Pivot][C]))
        Pivot = R;
    std::swap(M[C], M[Pivot]);
    double Scale = 0;
    for (std::size_t J = 0; J < K; ++J)
      Scale = std::max(Scale, std::fabs(M[J][C]));
    if (M[C][C] == 0 || std::fabs(M[C][C]) < 1e-12 * Scale)
      return std::nullopt;
    for (std::size_t R = 0; R < K; ++R) {
      if (R == C)
        continue;
      const double F = M[R][C] / M[C][C];
      for (std::size_t J = C; J <= K; ++J)
        M[R][J] -= F * M[C][J];
    }
  }
  std::vector<double> X(Columns, 0);
  for (std::size_t I = 0; I < K; ++I)
    X[Free[I]] = M[I][K] / M[I][I];
  return X;
}

} // namespace

std::optional<std::vector<double>>
fitNonNegative(const std::vector<Observation> &Obs) {
  if (Obs.empty())
    return std::nullopt;
  const std::size_t Columns = Obs.front().Row.size();
  if (Columns == 0 || Columns > 8)
    return std::nullopt;
  std::optional<std::vector<double>> Best;
  double BestError = std::numeric_limits<double>::infinity();
  for (unsigned Mask = 1; Mask < (1u << Columns); ++Mask) {
    std::vector<std::size_t> Free;
    for (std::size_t J = 0; J < Columns; ++J)
      if (Mask & (1u << J))
        Free.push_back(J);
    std::optional<std::vector<double>> X = solve(Obs, Free, Columns);
    if (!X)
      continue;
    bool Feasible = true;
    for (double V : *X)
      Feasible = Feasible && V >= 0 && std::isfinite(V);
    if (!Feasible)
      continue;
    double Error = 0;
    for (const Observation &O : Obs) {
      double Predicted = 0;
      for (std::size_t J = 0; J < Columns; ++J)
        Predicted += O.Row[J] * (*X)[J];
      Error += std::pow((Predicted - O.Time) / O.Time, 2);
    }
    if (Error < BestError) {
      BestError = Error;
      Best = std::move(X);
    }
  }
  return Best;
}

} // namespace redistcalibrate
