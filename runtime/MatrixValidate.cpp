//===- MatrixValidate.cpp - A matrix plan's names for the array checks ----===//
//
// A matrix plan runs the array plan's checks (ArrayMessages.cpp) on the
// rank-2 arrays of its layouts; this file converts its parameters to them
// and names what they find in rows, columns and leading dimensions.
//
//===----------------------------------------------------------------------===//
#include "MatrixValidate.h"

#include <algorithm>

namespace redist {
namespace detail {

ArraySide arraySideOf(const MatrixSide &S) {
  ArraySide A{arrayLayoutOf(S.Layout), S.Ranks, {}};
  // A negative one is refused by leadingDimProblem, in its own words.
  if (S.LocalLeadingDim > 0)
    A.LocalStrides = S.Layout.storage().Order == StorageOrder::ColumnMajor
                         ? std::vector<int64_t>{1, S.LocalLeadingDim}
                         : std::vector<int64_t>{S.LocalLeadingDim, 1};
  return A;
}

ArrayRegion arrayRegionOf(const MatrixSide &From, const MatrixRegion &R) {
  ArrayRegion A;
  if (R.Transpose)
    A.Permutation = {1, 0};
  const bool Whole = R.Rows == -1 && R.Cols == -1;
  A.Extents = {Whole ? From.Layout.numRows() : R.Rows,
               Whole ? From.Layout.numCols() : R.Cols};
  // An empty region starts anywhere.
  if (A.Extents[0] > 0 && A.Extents[1] > 0) {
    A.SourceBegin = {R.SourceRow, R.SourceCol};
    A.TargetBegin = {R.TargetRow, R.TargetCol};
  }
  if (R.banded())
    A.Band = ArrayBand{0, 1, R.DiagonalBegin, R.DiagonalEnd};
  return A;
}

std::string regionProblem(const SectionError &E, const MatrixRegion &R) {
  if (R.Rows < 0 || R.Cols < 0)
    return "the region is " + std::to_string(R.Rows) + " x " +
           std::to_string(R.Cols) + ": its sizes must not be negative";
  return std::string("the region's ") + (E.Target ? "target " : "source ") +
         (E.Dim == 0 ? "rows " : "columns ") + std::to_string(E.Begin) +
         " .. " + std::to_string(E.Begin) + " + " + std::to_string(E.Length) +
         " is outside [0, " + std::to_string(E.Extent) + ")";
}

std::string leadingDimProblem(const MatrixProblem &M, int Rank,
                              int64_t FromProc, int64_t ToProc) {
  for (const MatrixSide *S : {&M.From, &M.To}) {
    const char *Name = S == &M.From ? "source" : "target";
    if (S->LocalLeadingDim < 0)
      return std::string("the ") + Name + " leading dimension " +
             std::to_string(S->LocalLeadingDim) + " is negative";
    const int64_t Proc = S == &M.From ? FromProc : ToProc;
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

void addLayoutParameters(std::vector<Parameter> &Params,
                         const std::string &Name, const Layout2D &L) {
  auto Number = [&](std::string What, int64_t Value) {
    Params.push_back({std::move(What), Value, showNumber});
  };
  Number(Name + " rows", L.numRows());
  Number(Name + " columns", L.numCols());
  Number(Name + " grid rows", L.gridRows());
  Number(Name + " grid columns", L.gridCols());
  auto Axis = [&](const std::string &Axis, const Layout &A) {
    Params.push_back({Name + " " + Axis + " format",
                      static_cast<int64_t>(A.distribution().kind()), showKind});
    Number(Name + " " + Axis + " block size",
           A.isBlockCyclic() ? A.blockSize() : 0);
    // GEN_BLOCK's segments; none for the block-cyclic formats.
    std::vector<int64_t> Segments;
    for (int64_t P = 0; P < A.procs() && !A.isBlockCyclic(); ++P)
      Segments.push_back(A.localSize(P));
    Params.push_back(
        listParameter(Name + " " + Axis + " segments", std::move(Segments)));
  };
  Axis("row", L.rows());
  Axis("column", L.cols());
  Params.push_back({Name + " grid order", static_cast<int64_t>(L.order()),
                    [](int64_t V) -> std::string {
                      return V == static_cast<int64_t>(GridOrder::RowMajor)
                                 ? "row-major"
                                 : "column-major";
                    }});
  Number(Name + " first process row", L.rowSource());
  Number(Name + " first process column", L.colSource());
  Params.push_back(
      {Name + " storage order", static_cast<int64_t>(L.storage().Order),
       [](int64_t V) -> std::string {
         return V == static_cast<int64_t>(StorageOrder::ColumnMajor)
                    ? "column-major"
                    : "row-major";
       }});
  Number(Name + " leading dimension", L.storage().LeadingDim);
}

std::vector<Parameter> matrixParameters(const MatrixProblem &M,
                                        std::size_t ElementBytes,
                                        const PlanOptions &Options) {
  std::vector<Parameter> Params;
  auto Number = [&](std::string Name, int64_t Value) {
    Params.push_back({std::move(Name), Value, showNumber});
  };
  auto Side = [&](const std::string &Name, const MatrixSide &S) {
    addLayoutParameters(Params, Name, S.Layout);
    Params.push_back(ranksParameter(Name, S.Ranks));
  };
  Side("source", M.From);
  Side("target", M.To);
  const MatrixRegion &R = M.Region;
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
  Params.push_back(algorithmParameter(M.Algorithm));
  for (Parameter &P : optionParameters(ElementBytes, Options))
    Params.push_back(std::move(P));
  return Params;
}

} // namespace detail
} // namespace redist
