//===- RingFlows.cpp - System 6 solved along the one-parameter family ----===//

#include "redist/RingFlows.h"
#include "RingAlgorithms.h"

#include "redist/Error.h"
#include "redist/RingSimulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

namespace redist {

namespace {

using ring::wrap;

/// p_j = delta_0 + ... + delta_j; p_{n-1} = 0.
std::vector<std::int64_t> prefixUnbalances(const RingProblem &P) {
  std::vector<std::int64_t> Prefix(P.size());
  std::int64_t Sum = 0;
  for (std::int64_t J = 0; J < P.size(); ++J)
    Prefix[J] = Sum += P.unbalance(J);
  return Prefix;
}

double hinge(double Y) { return Y > 0 ? Y : 0; }

/// One term of System 6 near a point: Value + Slope * (x - At).
struct Line {
  double Value, Slope;
};

/// Every process's sending and receiving time at X, with its slope there
/// (taken just right of X when Right, else just left).
std::vector<Line> terms(const RingProblem &P,
                        const std::vector<std::int64_t> &Prefix, double X,
                        bool Right) {
  const std::int64_t N = P.size();
  auto Flow = [&](std::int64_t J) {
    return X + static_cast<double>(Prefix[wrap(J, N)]);
  };
  // d/dx of max(+-R, 0) * C on the chosen side of X.
  auto Positive = [&](double R) { return R > 0 || (R == 0 && Right); };
  auto Negative = [&](double R) { return R < 0 || (R == 0 && !Right); };
  std::vector<Line> Lines;
  for (std::int64_t I = 0; I < N; ++I) {
    const double Out = Flow(I), In = Flow(I - 1);
    const double Cf = P.cost(I, 1), Cb = P.cost(I, -1);
    const double CfIn = P.cost(I - 1, 1), CbIn = P.cost(I + 1, -1);
    Line Send{hinge(Out) * Cf + hinge(-In) * Cb,
              (Positive(Out) ? Cf : 0) - (Negative(In) ? Cb : 0)};
    Line Receive{hinge(In) * CfIn + hinge(-Out) * CbIn,
                 (Positive(In) ? CfIn : 0) - (Negative(Out) ? CbIn : 0)};
    Lines.push_back(Send);
    Lines.push_back(Receive);
  }
  return Lines;
}

/// The exact minimiser of System 6 on [Lo, Hi], where no flow changes sign
/// inside: every term is one line there. The minimum of their maximum is
/// where the highest rising line meets the highest falling one.
std::pair<double, double>
minimiseBetween(const RingProblem &P, const std::vector<std::int64_t> &Prefix,
                double Lo, double Hi) {
  const std::vector<Line> Lines = terms(P, Prefix, Lo, /*Right=*/true);
  auto At = [](const Line &L, double Dx) { return L.Value + L.Slope * Dx; };
  auto Highest = [&](double Dx, bool Rising) {
    const Line *Best = nullptr;
    for (const Line &L : Lines)
      if ((L.Slope >= 0) == Rising && (!Best || At(L, Dx) > At(*Best, Dx)))
        Best = &L;
    return Best;
  };
  // Both envelopes are convex and monotone; bisect for their crossing,
  // then intersect the two lines that meet there.
  double A = 0, B = Hi - Lo;
  const Line *Up = Highest(A, true), *Down = Highest(B, false);
  if (!Down)
    return {Lo, ringFlowTime(P, Lo)};
  if (!Up)
    return {Hi, ringFlowTime(P, Hi)};
  for (int Step = 0; Step < 100; ++Step) {
    const double M = 0.5 * (A + B);
    if (At(*Highest(M, true), M) < At(*Highest(M, false), M))
      A = M;
    else
      B = M;
  }
  Up = Highest(A, true);
  Down = Highest(A, false);
  double Dx = A;
  if (Up->Slope != Down->Slope)
    Dx = (Down->Value - Up->Value) / (Up->Slope - Down->Slope);
  Dx = std::clamp(Dx, 0.0, Hi - Lo);
  return {Lo + Dx, ringFlowTime(P, Lo + Dx)};
}

void requireBidirectional(const RingProblem &P) {
  validateRingProblem(P);
  if (!P.Bidirectional)
    throw InvalidArgument("the flow family's System 6 is for bidirectional "
                          "rings");
}

} // namespace

void ringFlowsAt(const RingProblem &P, std::int64_t X,
                 std::vector<std::int64_t> &Fwd,
                 std::vector<std::int64_t> &Bwd) {
  const std::int64_t N = P.size();
  const std::vector<std::int64_t> Prefix = prefixUnbalances(P);
  Fwd.assign(N, 0);
  Bwd.assign(N, 0);
  if (N == 1)
    return;
  for (std::int64_t J = 0; J < N; ++J) {
    const std::int64_t R = X + Prefix[J];
    if (R > 0)
      Fwd[J] = R;
    else if (R < 0) {
      if (!P.Bidirectional)
        throw InvalidArgument("flow X = " + std::to_string(X) +
                              " sends backwards on a unidirectional ring");
      Bwd[wrap(J + 1, N)] = -R;
    }
  }
}

double ringFlowTime(const RingProblem &P, double X) {
  if (P.size() == 1)
    return 0;
  const std::vector<std::int64_t> Prefix = prefixUnbalances(P);
  double Time = 0;
  for (const Line &L : terms(P, Prefix, X, true))
    Time = std::max(Time, L.Value);
  return Time;
}

RingFlowRange ringFlowRange(const RingProblem &P) {
  const std::vector<std::int64_t> Prefix = prefixUnbalances(P);
  const auto [Min, Max] = std::minmax_element(Prefix.begin(), Prefix.end());
  return {-*Max, -*Min};
}

RingFlowSolution solveRingFlows(const RingProblem &P) {
  requireBidirectional(P);
  RingFlowSolution S;
  if (P.size() == 1)
    return S.Light = true, S;
  const std::vector<std::int64_t> Prefix = prefixUnbalances(P);
  // The breakpoints, where some flow changes sign; the function is convex,
  // so the best breakpoint is found by bisection on their differences, and
  // the real minimum lies next to it.
  std::set<std::int64_t> Unique;
  for (std::int64_t V : Prefix)
    Unique.insert(-V);
  const std::vector<std::int64_t> Breaks(Unique.begin(), Unique.end());
  auto Value = [&](std::size_t K) {
    return ringFlowTime(P, static_cast<double>(Breaks[K]));
  };
  std::size_t Lo = 0, Hi = Breaks.size() - 1;
  while (Lo < Hi) {
    const std::size_t M = (Lo + Hi) / 2;
    if (Value(M + 1) < Value(M))
      Lo = M + 1;
    else
      Hi = M;
  }
  S.RealX = static_cast<double>(Breaks[Lo]);
  S.RealTime = Value(Lo);
  for (std::size_t Side : {Lo - 1, Lo + 1}) {
    if (Side >= Breaks.size()) // Lo - 1 wraps round when Lo == 0
      continue;
    const double A = static_cast<double>(std::min(Breaks[Lo], Breaks[Side]));
    const double B = static_cast<double>(std::max(Breaks[Lo], Breaks[Side]));
    const auto [X, T] = minimiseBetween(P, Prefix, A, B);
    if (T < S.RealTime) {
      S.RealX = X;
      S.RealTime = T;
    }
  }
  // Theorem 4: round down or up, whichever is better.
  const std::int64_t Down = static_cast<std::int64_t>(std::floor(S.RealX));
  S.X = Down;
  S.Time = ringFlowTime(P, static_cast<double>(Down));
  const double UpTime = ringFlowTime(P, static_cast<double>(Down + 1));
  if (UpTime < S.Time) {
    S.X = Down + 1;
    S.Time = UpTime;
  }
  std::vector<std::int64_t> Fwd, Bwd;
  ringFlowsAt(P, S.X, Fwd, Bwd);
  S.Light = ring::lightFlows(P, Fwd, Bwd);
  return S;
}

/// Item moves the general-case search simulates at most (beyond the light
/// optimum's own schedule).
constexpr std::int64_t SearchBudget = 4'000'000;

namespace ring {

RingSchedule searchRingFlows(const RingProblem &P,
                             const RingFlowSolution &Light) {
  RingSchedule Best;
  Best.Makespan = std::numeric_limits<double>::infinity();
  auto Try = [&](const std::vector<std::int64_t> &Fwd,
                 const std::vector<std::int64_t> &Bwd, RingPriority Priority) {
    std::vector<RingTransfer> Transfers = runRingFlows(P, Fwd, Bwd, Priority);
    const double Makespan = ringMakespan(P, Transfers);
    if (Makespan < Best.Makespan - ringTimeTolerance(Makespan)) {
      Best.Fwd = Fwd;
      Best.Bwd = Bwd;
      Best.Transfers = std::move(Transfers);
      Best.Makespan = Makespan;
    }
  };
  {
    std::vector<std::int64_t> Fwd, Bwd;
    ringFlowsAt(P, Light.X, Fwd, Bwd);
    Try(Fwd, Bwd, RingPriority::ForwardFirst);
  }
  // Lemma 9: light flows meet System 6's optimum, so nothing beats them.
  if (!Light.Light) {
    // Every X when there are few, else the neighbourhood of the light
    // optimum, every breakpoint and an even spread.
    const RingFlowRange Range = ringFlowRange(P);
    std::set<std::int64_t> Candidates;
    constexpr std::int64_t AllUpTo = 256, Window = 64, Spread = 64;
    if (Range.Last - Range.First < AllUpTo) {
      for (std::int64_t X = Range.First; X <= Range.Last; ++X)
        Candidates.insert(X);
    } else {
      for (std::int64_t D = -Window; D <= Window; ++D)
        Candidates.insert(std::clamp(Light.X + D, Range.First, Range.Last));
      for (std::int64_t V : prefixUnbalances(P))
        Candidates.insert(-V);
      for (std::int64_t K = 0; K <= Spread; ++K)
        Candidates.insert(Range.First +
                          (Range.Last - Range.First) * K / Spread);
    }
    // Nearest the light optimum first, within a budget of simulated item
    // moves, so that planning stays proportional to the items moved.
    std::vector<std::int64_t> Order(Candidates.begin(), Candidates.end());
    std::stable_sort(Order.begin(), Order.end(),
                     [&](std::int64_t A, std::int64_t B) {
                       return std::llabs(A - Light.X) < std::llabs(B - Light.X);
                     });
    std::int64_t Budget = SearchBudget;
    for (std::int64_t X : Order) {
      std::vector<std::int64_t> Fwd, Bwd;
      ringFlowsAt(P, X, Fwd, Bwd);
      std::int64_t Moves = 0;
      for (std::int64_t I = 0; I < P.size(); ++I)
        Moves += Fwd[I] + Bwd[I];
      if ((Budget -= 2 * Moves) < 0)
        break;
      // The light optimum's forward-first schedule was simulated above.
      if (X != Light.X)
        Try(Fwd, Bwd, RingPriority::ForwardFirst);
      Try(Fwd, Bwd, RingPriority::BackwardFirst);
    }
  }
  Best.Algorithm = "bi-heterogeneous";
  return Best;
}

} // namespace ring

RingSchedule searchRingFlows(const RingProblem &P) {
  requireBidirectional(P);
  RingSchedule S = ring::searchRingFlows(P, solveRingFlows(P));
  S.LowerBound = ringLowerBound(P);
  return S;
}

} // namespace redist
