//===- Schedulers2D.cpp - Schedules for matrices --------------------------===//
//
// Why the product of two schedules is a schedule, and what it costs.
//
// Let R = (R_1, ..., R_a) be a valid schedule of the row grid and
// C = (C_1, ..., C_b) one of the column grid. Step (x, y) of the product
// holds the 2-D message (m, n) for every m in R_x and n in C_y.
//  - Every 2-D message is in exactly one step: it is exactly one pair (m, n)
//    (procOfRanks is one-to-one on each side), m is in exactly one R_x and n
//    in exactly one C_y.
//  - No process sends twice in a step: two messages (m, n), (m', n') of step
//    (x, y) from the same process have the same row rank and column rank as
//    source, so m and m' share a sender within R_x, hence m = m', and
//    likewise n = n'. The same holds for receivers.
//  - Lengths are products len(m) * len(n) of non-negative numbers, so step
//    (x, y) costs max_{R_x} len * max_{C_y} len, and the schedule costs
//    sum_x sum_y of that = cost(R) * cost(C). It has a * b steps.
//
// The bounds. Let ds, dd be the most messages of one sender, one receiver of
// the row grid, D_r = max(ds, dd) its step bound, and es, ed, D_c the same
// for the columns. Sender (p0, p1) sends deg(p0) * deg(p1) messages, so the
// 2-D step bound is D = max(ds * es, dd * ed) <= D_r * D_c. If R and C take
// D_r and D_c steps, the product takes D_r * D_c, which is D exactly when
// ds * es = D_r * D_c or dd * ed = D_r * D_c, that is (degrees being
// positive in a non-empty grid) when the senders set both 1-D bounds or the
// receivers do. The cost bound works the same with volumes: sender
// (p0, p1) sends vol(p0) * vol(p1) elements. So "both factors meet their
// bounds" is not enough on its own: rows 2 -> 1 process and columns 1 -> 2
// processes have 1-D bounds 2 and 2, the product takes 4 steps, but the
// 2-D grid (2 senders, 2 receivers, each pair one message) needs only 2.
// Schedulers2DTest checks the exact condition on a sweep.
//
//===----------------------------------------------------------------------===//

#include "redist/Schedulers2D.h"

#include "redist/Error.h"
#include "schedulers/AutoPicker.h"
#include "schedulers/SchedulerImpls.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace redist {

namespace {

constexpr std::string_view ProductPrefix = "product(";

void setWhy(std::string *Why, const std::string &Text) {
  if (Why)
    *Why = Text;
}

Schedule runAlgorithm(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                      const CommGrid2D &G) {
  if (!A.Product)
    return detail::scheduleAnyGrid(A.Base, G.Whole);
  return productSchedule(G,
                         makeSchedule(A.Base, From.rows(), To.rows(), G.Rows),
                         makeSchedule(A.Base, From.cols(), To.cols(), G.Cols));
}

} // namespace

std::string algorithm2DName(Algorithm2D A) {
  std::string Base = algorithmName(A.Base);
  return A.Product ? std::string(ProductPrefix) + Base + ")" : Base;
}

std::optional<Algorithm2D> parseAlgorithm2D(std::string_view Name) {
  bool Product = Name.substr(0, ProductPrefix.size()) == ProductPrefix &&
                 Name.size() > ProductPrefix.size() && Name.back() == ')';
  if (Product)
    Name = Name.substr(ProductPrefix.size(),
                       Name.size() - ProductPrefix.size() - 1);
  std::optional<Algorithm> Base = parseAlgorithm(Name);
  if (!Base)
    return std::nullopt;
  Algorithm2D A{*Base, Product};
  for (Algorithm2D Known : allAlgorithms2D())
    if (Known == A)
      return A;
  return std::nullopt;
}

std::vector<Algorithm2D> allAlgorithms2D() {
  // mincost last, as in 1-D: auto reaches it only when nothing cheaper
  // meets both bounds.
  std::vector<Algorithm2D> All{{Algorithm::Auto, false},
                               {Algorithm::Caterpillar, false},
                               {Algorithm::Stepwise, false},
                               {Algorithm::Greedy, false}};
  for (Algorithm A : allAlgorithms())
    if (A != Algorithm::Auto)
      All.push_back({A, true});
  All.push_back({Algorithm::MinCost, false});
  All.push_back({Algorithm::MinCostSteps, false});
  return All;
}

bool algorithm2DApplies(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        std::string *Why) {
  if (From.numRows() != To.numRows() || From.numCols() != To.numCols()) {
    setWhy(Why, "the source is " + std::to_string(From.numRows()) + " x " +
                    std::to_string(From.numCols()) + " and the target " +
                    std::to_string(To.numRows()) + " x " +
                    std::to_string(To.numCols()));
    return false;
  }
  if (A.Product) {
    std::string Reason;
    if (!algorithmApplies(A.Base, From.rows(), To.rows(), &Reason)) {
      setWhy(Why, "on the rows, " + Reason);
      return false;
    }
    if (!algorithmApplies(A.Base, From.cols(), To.cols(), &Reason)) {
      setWhy(Why, "on the columns, " + Reason);
      return false;
    }
    return true;
  }
  if (A.Base == Algorithm::Auto)
    return true;
  if (!detail::schedulesAnyGrid(A.Base)) {
    setWhy(Why, std::string(algorithmName(A.Base)) +
                    " needs 1-D layouts; use product(" + algorithmName(A.Base) +
                    ")");
    return false;
  }
  return A.Base != Algorithm::Caterpillar ||
         detail::caterpillarFits(From.procs(), To.procs(), Why);
}

Schedule productSchedule(const CommGrid2D &G, const Schedule &RowSchedule,
                         const Schedule &ColSchedule) {
  Schedule S;
  S.Algorithm = std::string(ProductPrefix) + RowSchedule.Algorithm +
                (RowSchedule.Algorithm == ColSchedule.Algorithm
                     ? ""
                     : "," + ColSchedule.Algorithm) +
                ")";
  if (!RowSchedule.Note.empty())
    S.Note = "rows: " + RowSchedule.Note;
  if (!ColSchedule.Note.empty())
    S.Note += (S.Note.empty() ? "" : "; ") + std::string("columns: ") +
              ColSchedule.Note;
  S.Steps.reserve(RowSchedule.Steps.size() * ColSchedule.Steps.size());
  for (const std::vector<int64_t> &RowStep : RowSchedule.Steps)
    for (const std::vector<int64_t> &ColStep : ColSchedule.Steps) {
      std::vector<int64_t> &Step = S.Steps.emplace_back();
      Step.reserve(RowStep.size() * ColStep.size());
      for (int64_t RowId : RowStep)
        for (int64_t ColId : ColStep)
          Step.push_back(G.messageId(RowId, ColId));
    }
  return S;
}

namespace {

/// Throws InvalidArgument when A does not apply to From -> To or G is not
/// their grid.
void requireApplies(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                    const CommGrid2D &G) {
  std::string Why;
  if (!algorithm2DApplies(A, From, To, &Why))
    throw InvalidArgument("algorithm '" + algorithm2DName(A) +
                          "' does not apply: " + Why);
  if (G.Whole.P != From.procs() || G.Whole.Q != To.procs() ||
      G.Rows.P != From.gridRows() || G.Cols.P != From.gridCols())
    throw InvalidArgument(
        "the grid is for " + std::to_string(G.Whole.P) + " x " +
        std::to_string(G.Whole.Q) + " processes but the layouts have " +
        std::to_string(From.procs()) + " and " + std::to_string(To.procs()));
}

} // namespace

// Every candidate in allAlgorithms2D() order, run by AutoPicker, the same
// rule, cost model and mincost seeds as 1-D auto.
AutoChoice chooseSchedule2D(const Layout2D &From, const Layout2D &To,
                            const CommGrid2D &G, const CostModel &Model) {
  requireApplies({Algorithm::Auto, false}, From, To, G);
  detail::AutoPicker Picker(G.Whole, Model);
  for (Algorithm2D A : allAlgorithms2D())
    if (A.Base != Algorithm::Auto && algorithm2DApplies(A, From, To) &&
        Picker.run(A.Base, algorithm2DName(A), /*OnGrid=*/!A.Product,
                   [&] { return runAlgorithm(A, From, To, G); }))
      break;
  return Picker.take();
}

Schedule makeSchedule2D(Algorithm2D A, const Layout2D &From, const Layout2D &To,
                        const CommGrid2D &G, const CostModel &Model) {
  requireApplies(A, From, To, G);
  if (A.Base == Algorithm::Auto)
    return chooseSchedule2D(From, To, G, Model).Chosen; // validated there
  Schedule S = runAlgorithm(A, From, To, G);
  if (std::optional<std::string> Problem = validateSchedule(G.Whole, S))
    throw std::logic_error("internal error: the " + S.Algorithm +
                           " schedule is invalid: " + *Problem);
  return S;
}

} // namespace redist
