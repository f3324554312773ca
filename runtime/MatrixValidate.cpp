//===- MatrixValidate.cpp - Checking a matrix plan's parameters -----------===//
//
// As for 1-D plans (Validate.cpp): resolveMatrixProblem checks on each rank,
// without communicating, what every rank can see alike; a leading dimension
// only its own rank can check travels in verifyMatrixParameters' reduction,
// which also finds ranks given different parameters, so that every rank
// throws the same way.
//
//===----------------------------------------------------------------------===//
#include "MatrixMessages.h"

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

std::optional<std::string> checkRanks(const char *Side, const MatrixSide &S,
                                      int CommSize) {
  const int64_t Procs = S.Layout.procs();
  if (S.Ranks.empty()) {
    if (Procs > CommSize)
      return std::string("the ") + Side + " grid has " + std::to_string(Procs) +
             " processes but the communicator only " +
             std::to_string(CommSize) + " ranks";
    return std::nullopt;
  }
  if (static_cast<int64_t>(S.Ranks.size()) != Procs)
    return std::string("the ") + Side + " ranks list has " +
           std::to_string(S.Ranks.size()) + " entries for a grid of " +
           std::to_string(Procs) + " processes";
  std::set<int> Seen;
  for (std::size_t Id = 0; Id < S.Ranks.size(); ++Id) {
    const int R = S.Ranks[Id];
    if (R < 0 || R >= CommSize)
      return std::string("the ") + Side + " rank " + std::to_string(R) +
             " of process " + std::to_string(Id) +
             " is outside the communicator of " + std::to_string(CommSize) +
             " ranks";
    if (!Seen.insert(R).second)
      return std::string("rank ") + std::to_string(R) + " holds two " + Side +
             " processes";
  }
  return std::nullopt;
}

int64_t procOfRank(const MatrixSide &S, int Rank) {
  if (S.Ranks.empty())
    return Rank < S.Layout.procs() ? Rank : -1;
  auto It = std::find(S.Ranks.begin(), S.Ranks.end(), Rank);
  return It == S.Ranks.end() ? -1 : It - S.Ranks.begin();
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
  if (auto P = checkRanks("source", From, CommSize))
    return P;
  if (auto P = checkRanks("target", To, CommSize))
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
  Out.FromProc = procOfRank(From, Rank);
  Out.ToProc = procOfRank(To, Rank);
  return std::nullopt;
}

std::string resolveLocalStorage(MatrixProblem &M) {
  auto Check = [&](const char *Name, const MatrixSide &S, int64_t Proc,
                   int64_t &Storage) -> std::string {
    if (Proc < 0)
      return "";
    const int64_t Least = leastLeadingDim(S.Layout, Proc);
    const int64_t LD = leadingDimOf(S, Proc, Proc);
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

void verifyMatrixParameters(const MatrixProblem &M, std::size_t ElementBytes,
                            const PlanOptions &Options,
                            const std::string &LocalProblem, MPI_Comm Comm) {
  // Every shared parameter as a number; the reduction takes the maximum of
  // each and of its negation, so min != max names a disagreement.
  std::vector<std::pair<std::string, int64_t>> Values;
  auto Side = [&](const char *Name, const MatrixSide &S) {
    const Layout2D &L = S.Layout;
    const std::string N(Name);
    Values.push_back({N + " rows", L.numRows()});
    Values.push_back({N + " columns", L.numCols()});
    Values.push_back({N + " grid rows", L.gridRows()});
    Values.push_back({N + " grid columns", L.gridCols()});
    Values.push_back({N + " row format",
                      static_cast<int64_t>(L.rows().distribution().kind())});
    Values.push_back({N + " row block size",
                      L.rows().isBlockCyclic() ? L.rows().blockSize() : 0});
    Values.push_back({N + " column format",
                      static_cast<int64_t>(L.cols().distribution().kind())});
    Values.push_back({N + " column block size",
                      L.cols().isBlockCyclic() ? L.cols().blockSize() : 0});
    for (int64_t P = 0; P < L.gridRows() && !L.rows().isBlockCyclic(); ++P)
      Values.push_back({N + " row segment", L.rows().localSize(P)});
    for (int64_t P = 0; P < L.gridCols() && !L.cols().isBlockCyclic(); ++P)
      Values.push_back({N + " column segment", L.cols().localSize(P)});
    Values.push_back({N + " grid order", static_cast<int64_t>(L.order())});
    Values.push_back({N + " first process row", L.rowSource()});
    Values.push_back({N + " first process column", L.colSource()});
    Values.push_back(
        {N + " storage order", static_cast<int64_t>(L.storage().Order)});
    for (std::size_t I = 0; I < S.Ranks.size(); ++I)
      Values.push_back(
          {N + " rank of process " + std::to_string(I), S.Ranks[I]});
    if (S.Ranks.empty())
      Values.push_back({N + " rank list", -1});
  };
  Side("source", M.From);
  Side("target", M.To);
  const MatrixRegion &R = M.Region;
  Values.push_back({"region rows", R.Rows});
  Values.push_back({"region columns", R.Cols});
  Values.push_back({"region source row", R.SourceRow});
  Values.push_back({"region source column", R.SourceCol});
  Values.push_back({"region target row", R.TargetRow});
  Values.push_back({"region target column", R.TargetCol});
  Values.push_back({"transposition", R.Transpose});
  Values.push_back({"algorithm", static_cast<int64_t>(M.Algorithm.Base) * 2 +
                                     M.Algorithm.Product});
  Values.push_back({"element size", static_cast<int64_t>(ElementBytes)});
  Values.push_back({"mode", static_cast<int64_t>(Options.Mode)});
  Values.push_back({"packing", static_cast<int64_t>(Options.Pack)});
  Values.push_back({"transfer limit", Options.MaxTransferBytes});
  Values.push_back({"shared memory", Options.SharedMemory});
  Values.push_back({"ranks per node", Options.RanksPerNode});
  // The list's length differs only if the layouts do; compare it first.
  std::vector<int64_t> Local{static_cast<int64_t>(Values.size()),
                             -static_cast<int64_t>(Values.size()),
                             LocalProblem.empty() ? 0 : 1, 0};
  std::vector<int64_t> Global(Local.size());
  MPI_Allreduce(Local.data(), Global.data(), static_cast<int>(Local.size()),
                MPI_INT64_T, MPI_MAX, Comm);
  if (Global[0] != -Global[1])
    throw InvalidArgument("ranks disagree on the matrix layouts (" +
                          std::to_string(-Global[1]) + " to " +
                          std::to_string(Global[0]) + " parameters)");
  std::vector<int64_t> Mine;
  for (const auto &V : Values) {
    Mine.push_back(V.second);
    Mine.push_back(-V.second);
  }
  std::vector<int64_t> All(Mine.size());
  MPI_Allreduce(Mine.data(), All.data(), static_cast<int>(Mine.size()),
                MPI_INT64_T, MPI_MAX, Comm);
  if (!LocalProblem.empty())
    throw InvalidArgument(LocalProblem);
  if (Global[2] != 0)
    throw InvalidArgument(
        "another rank's matrix parameters are invalid (see its error)");
  for (std::size_t I = 0; I < Values.size(); ++I)
    if (All[2 * I] != -All[2 * I + 1])
      throw InvalidArgument("ranks disagree on the " + Values[I].first + ": " +
                            std::to_string(-All[2 * I + 1]) + " to " +
                            std::to_string(All[2 * I]));
}

} // namespace detail
} // namespace redist
