//===- MatrixPlan.cpp - Plans for 2-D distributed matrices ----------------===//
//
// A MatrixPlan is the rank-2 case of an array plan (ArrayPlan.cpp), built
// and checked by the array's code, agreement included. Only the spelling
// is the matrix's own: its side and region converted to the array's, and
// the names its errors give (rows, columns, the region's fields, leading
// dimensions). The one check of its own is ScaLAPACK's rule for a leading
// dimension, which is stricter than the strides an array accepts.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/MatrixPlan.h"

#include "Combine.h"
#include "PlanImpl.h"

#include <algorithm>
#include <string>
#include <vector>

namespace redist {

namespace {

/// The rank-2 array side of S: a positive LocalLeadingDim as this rank's
/// strides.
ArraySide arraySideOf(const MatrixSide &S) {
  ArraySide A{arrayLayoutOf(S.Layout), S.Ranks, {}};
  // A negative one is refused by leadingDimProblem, in its own words.
  if (S.LocalLeadingDim > 0)
    A.LocalStrides = S.Layout.storage().Order == StorageOrder::ColumnMajor
                         ? std::vector<int64_t>{1, S.LocalLeadingDim}
                         : std::vector<int64_t>{S.LocalLeadingDim, 1};
  return A;
}

/// R (with its sizes resolved) as a section: a transpose is the
/// permutation (1, 0), a band of diagonals one over the source's rows and
/// columns.
ArrayRegion arrayRegionOf(const MatrixRegion &R) {
  ArrayRegion A;
  if (R.Transpose)
    A.Permutation = {1, 0};
  A.Extents = {R.Rows, R.Cols};
  // An empty region starts anywhere.
  if (R.Rows > 0 && R.Cols > 0) {
    A.SourceBegin = {R.SourceRow, R.SourceCol};
    A.TargetBegin = {R.TargetRow, R.TargetCol};
  }
  if (R.banded())
    A.Band = ArrayBand{0, 1, R.DiagonalBegin, R.DiagonalEnd};
  return A;
}

/// E, a section of arrayRegionOf(R) outside an array, in R's words.
std::string regionProblem(const SectionError &E, const MatrixRegion &R) {
  if (R.Rows < 0 || R.Cols < 0)
    return "the region is " + std::to_string(R.Rows) + " x " +
           std::to_string(R.Cols) + ": its sizes must not be negative";
  return std::string("the region's ") + (E.Target ? "target " : "source ") +
         (E.Dim == 0 ? "rows " : "columns ") + std::to_string(E.Begin) +
         " .. " + std::to_string(E.Begin) + " + " + std::to_string(E.Length) +
         " is outside [0, " + std::to_string(E.Extent) + ")";
}

/// ScaLAPACK's rule for this rank's leading dimensions on both sides (its
/// processes FromProc and ToProc, -1 for none): not negative, and at least
/// the local rows (columns in row-major storage) of its process, even where
/// a part of one column would allow less. Returns what is wrong, or "".
std::string leadingDimProblem(const MatrixSide &From, const MatrixSide &To,
                              int Rank, int64_t FromProc, int64_t ToProc) {
  for (const MatrixSide *S : {&From, &To}) {
    const char *Name = S == &From ? "source" : "target";
    if (S->LocalLeadingDim < 0)
      return std::string("the ") + Name + " leading dimension " +
             std::to_string(S->LocalLeadingDim) + " is negative";
    const int64_t Proc = S == &From ? FromProc : ToProc;
    if (Proc < 0 || S->LocalLeadingDim == 0)
      continue; // the layout's own, checked where it was made
    const bool ColumnMajor =
        S->Layout.storage().Order == StorageOrder::ColumnMajor;
    const int64_t Least = std::max<int64_t>(
        1, ColumnMajor ? S->Layout.localRows(Proc) : S->Layout.localCols(Proc));
    if (S->LocalLeadingDim < Least)
      return std::string("the ") + Name + " leading dimension " +
             std::to_string(S->LocalLeadingDim) + " of rank " +
             std::to_string(Rank) + " is below its " + std::to_string(Least) +
             " local " + (ColumnMajor ? "rows" : "columns");
  }
  return "";
}

/// R's parameters for the Verify option, named by MatrixRegion's fields
/// ("region rows differs ...") in place of the section's.
std::vector<detail::Parameter> regionParameters(const MatrixRegion &R) {
  std::vector<detail::Parameter> Params;
  auto Number = [&](std::string Name, int64_t Value) {
    Params.push_back({std::move(Name), Value, detail::showNumber});
  };
  Number("region rows", R.Rows);
  Number("region columns", R.Cols);
  Number("region source row", R.SourceRow);
  Number("region source column", R.SourceCol);
  Number("region target row", R.TargetRow);
  Number("region target column", R.TargetCol);
  Number("region first diagonal", R.DiagonalBegin);
  Number("region end diagonal", R.DiagonalEnd);
  Params.push_back({"transposition", R.Transpose,
                    [](int64_t V) { return std::string(V ? "on" : "off"); }});
  return Params;
}

} // namespace

std::unique_ptr<Plan>
detail::PlanBuilder::matrix(const MatrixSide &From, const MatrixSide &To,
                            const MatrixRegion &Region, Algorithm2D Algorithm,
                            std::size_t ElementBytes, MPI_Comm Comm,
                            const PlanOptions &Options) {
  MatrixRegion R = Region;
  if (R.Rows == -1 && R.Cols == -1) {
    R.Rows = From.Layout.numRows();
    R.Cols = From.Layout.numCols();
  }
  auto Array = std::make_unique<ArrayProblem>(
      arraySideOf(From), arraySideOf(To), arrayRegionOf(R), Algorithm);
  std::optional<std::string> Bad =
      findInvalidArrayOptions(ElementBytes, Options, Algorithm);
  if (!Bad)
    Bad = resolveArrayProblem(*Array, Comm, [&](const SectionError &E) {
      return regionProblem(E, R);
    });
  if (!Bad) {
    // What only this rank can see (its leading dimensions) is agreed on
    // like the rest.
    std::string Local = leadingDimProblem(From, To, Array->Rank,
                                          Array->FromProc, Array->ToProc);
    if (Local.empty())
      Local = resolveArrayStorage(*Array);
    if (!Local.empty())
      Bad = Local;
  }
  const std::vector<Parameter> Named = regionParameters(R);
  return array(std::move(Array), Bad, ElementBytes, Comm, Options, &Named);
}

MatrixPlan::MatrixPlan(const MatrixSide &From, const MatrixSide &To,
                       std::size_t ElementBytes, MPI_Comm Comm,
                       const MatrixRegion &Region, const PlanOptions &Options,
                       Algorithm2D Algorithm)
    : ArrayPlan(detail::PlanBuilder::matrix(From, To, Region, Algorithm,
                                            ElementBytes, Comm, Options)),
      Combinable(Options.Pack == Packing::Runs), ElementBytes(ElementBytes) {}

void MatrixPlan::execute(const void *Src, void *Dst, const Combine &C) const {
  if (!Combinable)
    throw InvalidArgument("a combining execute needs a plan packed with "
                          "Packing::Runs");
  if (detail::elementBytesOf(C.Type) != ElementBytes)
    throw InvalidArgument("the combination's element type has " +
                          std::to_string(detail::elementBytesOf(C.Type)) +
                          " bytes, the plan's elements " +
                          std::to_string(ElementBytes));
  detail::CombineScope Scope(C);
  execute(Src, Dst);
}

} // namespace redist
