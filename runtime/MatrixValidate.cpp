//===- MatrixValidate.cpp - Checking a matrix plan's parameters -----------===//
//
// As for 1-D plans (Validate.cpp): resolveMatrixProblem and
// resolveLocalStorage check on each rank, without communicating, what every
// rank can see alike and what only one rank can (its leading dimensions);
// the plan's agreement (Agreement.h) then raises any rank's problem on
// every rank and, with Verify, compares matrixParameters across ranks.
//
//===----------------------------------------------------------------------===//
#include "MatrixValidate.h"

#include "ArrayMessages.h"

#include "redist/Error.h"

#include <algorithm>
#include <climits>
#include <set>

namespace redist {
namespace detail {
namespace {

/// Storage elements process Proc needs with leading dimension LD.
int64_t storageNeed(const Layout2D &L, int64_t Proc, int64_t LD) {
  const int64_t R = L.localRows(Proc), C = L.localCols(Proc);
  if (R == 0 || C == 0)
    return 0;
  const bool ColMajor = L.storage().Order == StorageOrder::ColumnMajor;
  const int64_t Lines = ColMajor ? C : R, Last = ColMajor ? R : C;
  if (Lines - 1 > (INT64_MAX - Last) / LD)
    throw InvalidArgument("the local storage of process " +
                          std::to_string(Proc) + " exceeds 2^63 elements");
  return (Lines - 1) * LD + Last;
}

/// The least leading dimension process Proc of L can have.
int64_t leastLeadingDim(const Layout2D &L, int64_t Proc) {
  return std::max<int64_t>(1, L.storage().Order == StorageOrder::ColumnMajor
                                  ? L.localRows(Proc)
                                  : L.localCols(Proc));
}

/// This rank's leading dimension of Side's process Proc.
int64_t leadingDimOf(const MatrixSide &Side, int64_t Proc) {
  return Side.LocalLeadingDim > 0 ? Side.LocalLeadingDim
                                  : Side.Layout.leadingDim(Proc);
}

} // namespace

std::optional<std::string> resolveMatrixProblem(MatrixProblem &Out,
                                                MPI_Comm Comm) {
  const MatrixSide &From = Out.From, &To = Out.To;
  if (Comm == MPI_COMM_NULL)
    return std::string("the communicator is MPI_COMM_NULL");
  int CommSize = 0, Rank = 0;
  MPI_Comm_size(Comm, &CommSize);
  MPI_Comm_rank(Comm, &Rank);
  if (auto P =
          checkSideRanks("source", From.Ranks, From.Layout.procs(), CommSize))
    return P;
  if (auto P = checkSideRanks("target", To.Ranks, To.Layout.procs(), CommSize))
    return P;
  for (const MatrixSide *S : {&From, &To})
    if (S->LocalLeadingDim < 0)
      return std::string("the ") + (S == &From ? "source" : "target") +
             " leading dimension " + std::to_string(S->LocalLeadingDim) +
             " is negative";
  MatrixRegion R = Out.Region;
  const Layout2D &A = From.Layout, &B = To.Layout;
  if (R.Rows == -1 && R.Cols == -1) {
    R.Rows = A.numRows();
    R.Cols = A.numCols();
  }
  if (R.Rows < 0 || R.Cols < 0)
    return "the region is " + std::to_string(R.Rows) + " x " +
           std::to_string(R.Cols) + ": its sizes must not be negative";
  auto Fits = [](const char *What, int64_t Start, int64_t Len,
                 int64_t Extent) -> std::optional<std::string> {
    if (Start < 0 || Start > Extent - Len)
      return std::string("the region's ") + What + " " + std::to_string(Start) +
             " .. " + std::to_string(Start) + " + " + std::to_string(Len) +
             " is outside [0, " + std::to_string(Extent) + ")";
    return std::nullopt;
  };
  if (R.Rows > 0 && R.Cols > 0) {
    if (auto P = Fits("source rows", R.SourceRow, R.Rows, A.numRows()))
      return P;
    if (auto P = Fits("source columns", R.SourceCol, R.Cols, A.numCols()))
      return P;
    const int64_t TR = R.Transpose ? R.Cols : R.Rows;
    const int64_t TC = R.Transpose ? R.Rows : R.Cols;
    if (auto P = Fits("target rows", R.TargetRow, TR, B.numRows()))
      return P;
    if (auto P = Fits("target columns", R.TargetCol, TC, B.numCols()))
      return P;
  }
  Out.Region = R;
  Out.Rank = Rank;
  Out.FromProc = procOfRank(From.Ranks, From.Layout.procs(), Rank);
  Out.ToProc = procOfRank(To.Ranks, To.Layout.procs(), Rank);
  return std::nullopt;
}

std::string resolveLocalStorage(MatrixProblem &M) {
  auto Check = [&](const char *Name, const MatrixSide &S, int64_t Proc,
                   int64_t &Storage) -> std::string {
    if (Proc < 0)
      return "";
    const int64_t Least = leastLeadingDim(S.Layout, Proc);
    const int64_t LD = leadingDimOf(S, Proc);
    if (LD < Least)
      return std::string("the ") + Name + " leading dimension " +
             std::to_string(LD) + " of rank " + std::to_string(M.Rank) +
             " is below its " + std::to_string(Least) + " local " +
             (S.Layout.storage().Order == StorageOrder::ColumnMajor
                  ? "rows"
                  : "columns");
    try {
      Storage = storageNeed(S.Layout, Proc, LD);
    } catch (const InvalidArgument &E) {
      return E.what();
    }
    return "";
  };
  std::string P = Check("source", M.From, M.FromProc, M.SourceStorage);
  if (P.empty())
    P = Check("target", M.To, M.ToProc, M.TargetStorage);
  return P;
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
