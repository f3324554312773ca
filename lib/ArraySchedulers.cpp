//===- ArraySchedulers.cpp - Schedules for arrays of any rank -------------===//
//
// Why the product of per-axis schedules is a schedule, and what it costs.
//
// Let S^a = (S^a_1, ..., S^a_{n_a}) be a valid schedule of axis a's grid.
// Step (x_0, ..., x_{d-1}) of the product holds the message (m_0, ...,
// m_{d-1}) for every m_a in S^a_{x_a}.
//  - Every message is in exactly one step: it is exactly one tuple of axis
//    messages (a process is one tuple of 1-D processes on each side), and
//    each m_a is in exactly one step of S^a.
//  - No process sends twice in a step: two messages of one step from the
//    same process have the same 1-D sender on every axis, so on every axis
//    their messages share a sender within one step of S^a and are equal.
//    The same holds for receivers.
//  - Lengths are products of the axis lengths, so a step costs the product
//    of its factors' step costs, and the schedule prod_a cost(S^a), in
//    prod_a n_a steps.
//
// The bounds. Sender (p_0, ..., p_{d-1}) sends prod_a deg(p_a) messages, so
// the N-D step bound is max(prod_a ds_a, prod_a dd_a) <= prod_a max(ds_a,
// dd_a), with ds_a, dd_a the most messages of one sender, one receiver of
// axis a. Bound-meeting factors give prod_a max(ds_a, dd_a) steps, which
// meets the N-D bound exactly when one side (the senders, or the
// receivers) sets every axis's bound; the same holds for the cost bound
// with volumes. Rows 2 -> 1 process and columns 1 -> 2 processes: each
// axis needs 2 steps, the product 4, the grid only 2 (docs/matrices.md).
//
//===----------------------------------------------------------------------===//
#include "redist/ArraySchedulers.h"

#include "redist/Error.h"
#include "schedulers/AutoPicker.h"
#include "schedulers/SchedulerImpls.h"

#include <algorithm>
#include <stdexcept>

namespace redist {

namespace {

constexpr std::string_view ProductPrefix = "product(";

void setWhy(std::string *Why, const std::string &Text) {
  if (Why)
    *Why = Text;
}

/// Whether Base schedules axis A of the move, per axis.
bool axisApplies(Algorithm Base, const ArrayLayout &From, const ArrayLayout &To,
                 const ArrayRegion &R, int A, std::string *Why) {
  if (isWholeAxis(From, To, R, A)) {
    int T = 0;
    while (R.Permutation[static_cast<size_t>(T)] != A)
      ++T;
    return algorithmApplies(Base, From.dim(A), To.dim(T), Why);
  }
  if (!detail::schedulesAnyGrid(Base)) {
    setWhy(Why, std::string(algorithmName(Base)) +
                    " needs whole axes, and this one has a section");
    return false;
  }
  return true;
}

Schedule axisSchedule(Algorithm Base, const ArrayLayout &From,
                      const ArrayLayout &To, const ArrayRegion &R,
                      const AxisGrid &G) {
  if (isWholeAxis(From, To, R, G.SourceDim))
    return makeSchedule(Base, From.dim(G.SourceDim), To.dim(G.TargetDim),
                        G.Lines);
  return detail::scheduleAnyGrid(Base, G.Lines);
}

Schedule runAlgorithm(ArrayAlgorithm A, const ArrayLayout &From,
                      const ArrayLayout &To, const ArrayRegion &R,
                      const ArrayGrid &G) {
  if (!A.Product)
    return detail::scheduleAnyGrid(A.Base, G.Whole);
  std::vector<Schedule> Factors;
  for (const AxisGrid &Axis : G.Axes)
    Factors.push_back(axisSchedule(A.Base, From, To, R, Axis));
  return productSchedule(G, Factors);
}

/// Throws InvalidArgument when A does not apply to From -> To or G is not
/// their grid.
void requireApplies(ArrayAlgorithm A, const ArrayLayout &From,
                    const ArrayLayout &To, const ArrayRegion &R,
                    const ArrayGrid &G) {
  std::string Why;
  if (!arrayAlgorithmApplies(A, From, To, R, &Why))
    throw InvalidArgument("algorithm '" + arrayAlgorithmName(A) +
                          "' does not apply: " + Why);
  if (G.Whole.P != From.procs() || G.Whole.Q != To.procs() ||
      static_cast<int>(G.Axes.size()) != From.rank())
    throw InvalidArgument(
        "the grid is for " + std::to_string(G.Whole.P) + " x " +
        std::to_string(G.Whole.Q) + " processes but the layouts have " +
        std::to_string(From.procs()) + " and " + std::to_string(To.procs()));
}

} // namespace

std::string arrayAlgorithmName(ArrayAlgorithm A) {
  std::string Base = algorithmName(A.Base);
  return A.Product ? std::string(ProductPrefix) + Base + ")" : Base;
}

std::optional<ArrayAlgorithm> parseArrayAlgorithm(std::string_view Name) {
  bool Product = Name.substr(0, ProductPrefix.size()) == ProductPrefix &&
                 Name.size() > ProductPrefix.size() && Name.back() == ')';
  if (Product)
    Name = Name.substr(ProductPrefix.size(),
                       Name.size() - ProductPrefix.size() - 1);
  std::optional<Algorithm> Base = parseAlgorithm(Name);
  if (!Base)
    return std::nullopt;
  ArrayAlgorithm A{*Base, Product};
  for (ArrayAlgorithm Known : allArrayAlgorithms())
    if (Known == A)
      return A;
  return std::nullopt;
}

std::vector<ArrayAlgorithm> allArrayAlgorithms() {
  // mincost last, as in 1-D: auto reaches it only when nothing cheaper
  // meets both bounds.
  std::vector<ArrayAlgorithm> All{{Algorithm::Auto, false},
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

bool arrayAlgorithmApplies(ArrayAlgorithm A, const ArrayLayout &From,
                           const ArrayLayout &To, const ArrayRegion &R,
                           std::string *Why) {
  if (A.Product) {
    if (R.Band) {
      setWhy(Why, "a band of diagonals couples dimensions " +
                      std::to_string(R.Band->Row) + " and " +
                      std::to_string(R.Band->Col) +
                      ", so its grid is no product of per-axis grids");
      return false;
    }
    for (int Axis = 0; Axis < From.rank(); ++Axis) {
      std::string Reason;
      if (!axisApplies(A.Base, From, To, R, Axis, &Reason)) {
        // A matrix's axes keep their names.
        setWhy(
            Why,
            (From.rank() == 2
                 ? std::string(Axis == 0 ? "on the rows, " : "on the columns, ")
                 : "on source dimension " + std::to_string(Axis) + ", ") +
                Reason);
        return false;
      }
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

Schedule productSchedule(const ArrayGrid &G,
                         const std::vector<Schedule> &Factors) {
  Schedule S;
  bool Same = true;
  for (const Schedule &F : Factors)
    Same = Same && F.Algorithm == Factors.front().Algorithm;
  const size_t D = Factors.size();
  S.Algorithm = std::string(ProductPrefix);
  for (size_t A = 0; A < D; ++A) {
    if (A == 0 || !Same)
      S.Algorithm += (A ? "," : "") + Factors[A].Algorithm;
    // A matrix's axes keep their names.
    if (!Factors[A].Note.empty())
      S.Note += (S.Note.empty() ? "" : "; ") +
                (D == 2 ? std::string(A == 0 ? "rows" : "columns")
                        : "dimension " + std::to_string(A)) +
                ": " + Factors[A].Note;
  }
  S.Algorithm += ")";
  for (const Schedule &F : Factors)
    if (F.Steps.empty())
      return S;
  // Step tuples, last axis fastest; within a step, message tuples likewise.
  std::vector<size_t> Step(D, 0);
  std::vector<int64_t> Ids(D);
  size_t Steps = 1;
  for (const Schedule &F : Factors)
    Steps *= F.Steps.size();
  S.Steps.reserve(Steps);
  std::vector<size_t> At(D, 0);
  while (true) {
    std::vector<int64_t> &Out = S.Steps.emplace_back();
    std::fill(At.begin(), At.end(), 0);
    bool Empty = false;
    size_t Size = 1;
    for (size_t A = 0; A < D; ++A) {
      Empty = Empty || Factors[A].Steps[Step[A]].empty();
      Size *= Factors[A].Steps[Step[A]].size();
    }
    Out.reserve(Size);
    while (!Empty) {
      for (size_t A = 0; A < D; ++A)
        Ids[A] = Factors[A].Steps[Step[A]][At[A]];
      Out.push_back(G.messageId(Ids));
      size_t A = D;
      while (A > 0) {
        --A;
        if (++At[A] < Factors[A].Steps[Step[A]].size())
          break;
        At[A] = 0;
        if (A == 0)
          Empty = true; // every tuple done
      }
    }
    size_t A = D;
    while (A > 0) {
      --A;
      if (++Step[A] < Factors[A].Steps.size())
        break;
      Step[A] = 0;
      if (A == 0)
        return S;
    }
  }
}

// Every candidate in allArrayAlgorithms() order, run by AutoPicker, the
// same rule, cost model and mincost seeds as 1-D auto.
AutoChoice chooseArraySchedule(const ArrayLayout &From, const ArrayLayout &To,
                               const ArrayRegion &R, const ArrayGrid &G,
                               const CostModel &Model) {
  requireApplies({Algorithm::Auto, false}, From, To, R, G);
  detail::AutoPicker Picker(G.Whole, Model);
  for (ArrayAlgorithm A : allArrayAlgorithms())
    if (A.Base != Algorithm::Auto && arrayAlgorithmApplies(A, From, To, R) &&
        Picker.run(A.Base, arrayAlgorithmName(A), /*OnGrid=*/!A.Product,
                   [&] { return runAlgorithm(A, From, To, R, G); }))
      break;
  return Picker.take();
}

Schedule makeArraySchedule(ArrayAlgorithm A, const ArrayLayout &From,
                           const ArrayLayout &To, const ArrayRegion &R,
                           const ArrayGrid &G, const CostModel &Model) {
  requireApplies(A, From, To, R, G);
  if (A.Base == Algorithm::Auto)
    return chooseArraySchedule(From, To, R, G, Model).Chosen;
  Schedule S = runAlgorithm(A, From, To, R, G);
  if (std::optional<std::string> Problem = validateSchedule(G.Whole, S))
    throw std::logic_error("internal error: the " + S.Algorithm +
                           " schedule is invalid: " + *Problem);
  return S;
}

} // namespace redist
