//===- ArrayMessages.cpp - An array plan's problem and messages -----------===//
//
// See ArrayMessages.h. The checks come first, as for 1-D plans
// (Validate.cpp): resolveArrayProblem and resolveArrayStorage check on each
// rank, without communicating, what every rank can see alike and what only
// one rank can (its own strides); the plan's agreement (Agreement.h) then
// raises any rank's problem on every rank.
//
//===----------------------------------------------------------------------===//
#include "ArrayMessages.h"

#include "redist/Error.h"

#include <algorithm>
#include <set>

namespace redist {
namespace detail {

std::string ArrayProblem::what() const {
  return From.Layout.str() + " -> " + To.Layout.str();
}

std::optional<std::string> findInvalidArrayOptions(std::size_t ElementBytes,
                                                   const PlanOptions &Options,
                                                   ArrayAlgorithm Algo) {
  const std::vector<Algorithm> All = allAlgorithms();
  if (std::find(All.begin(), All.end(), Algo.Base) == All.end())
    return "unknown schedule algorithm " +
           std::to_string(static_cast<int>(Algo.Base));
  if (Algo.Base == Algorithm::Auto && Algo.Product)
    return std::string("schedule algorithm product(auto) does not exist; "
                       "auto weighs the products itself");
  if (auto Why =
          findInvalidOptions(ElementBytes, Options, arrayAlgorithmName(Algo),
                             Algo == ArrayAlgorithm{Algorithm::Auto, false}))
    return Why;
  if (Options.RanksPerNode < 0)
    return "ranks per node " + std::to_string(Options.RanksPerNode) +
           " is negative";
  return std::nullopt;
}

std::optional<std::string> checkSideRanks(const char *Side,
                                          const std::vector<int> &Ranks,
                                          int64_t Procs, int CommSize) {
  if (Ranks.empty()) {
    if (Procs > CommSize)
      return std::string("the ") + Side + " grid has " + std::to_string(Procs) +
             " processes but the communicator only " +
             std::to_string(CommSize) + " ranks";
    return std::nullopt;
  }
  if (static_cast<int64_t>(Ranks.size()) != Procs)
    return std::string("the ") + Side + " ranks list has " +
           std::to_string(Ranks.size()) + " entries for a grid of " +
           std::to_string(Procs) + " processes";
  std::set<int> Seen;
  for (std::size_t Id = 0; Id < Ranks.size(); ++Id) {
    const int R = Ranks[Id];
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

int64_t procOfRank(const std::vector<int> &Ranks, int64_t Procs, int Rank) {
  if (Ranks.empty())
    return Rank < Procs ? Rank : -1;
  auto It = std::find(Ranks.begin(), Ranks.end(), Rank);
  return It == Ranks.end() ? -1 : It - Ranks.begin();
}

std::optional<std::string> resolveArrayProblem(
    ArrayProblem &M, MPI_Comm Comm,
    const std::function<std::string(const SectionError &)> &NameSection) {
  if (Comm == MPI_COMM_NULL)
    return std::string("the communicator is MPI_COMM_NULL");
  int CommSize = 0, Rank = 0;
  MPI_Comm_size(Comm, &CommSize);
  MPI_Comm_rank(Comm, &Rank);
  const ArrayLayout &A = M.From.Layout, &B = M.To.Layout;
  if (auto P = checkSideRanks("source", M.From.Ranks, A.procs(), CommSize))
    return P;
  if (auto P = checkSideRanks("target", M.To.Ranks, B.procs(), CommSize))
    return P;
  try {
    M.Region = resolveRegion(A, B, M.Region);
  } catch (const SectionError &E) {
    return NameSection ? NameSection(E) : std::string(E.what());
  } catch (const InvalidArgument &E) {
    return std::string(E.what());
  }
  M.Rank = Rank;
  M.FromProc = procOfRank(M.From.Ranks, A.procs(), Rank);
  M.ToProc = procOfRank(M.To.Ranks, B.procs(), Rank);
  return std::nullopt;
}

std::string resolveArrayStorage(ArrayProblem &M) {
  auto Side = [&](const char *Name, const ArraySide &S, int64_t Proc,
                  std::vector<int64_t> &Strides,
                  int64_t &Storage) -> std::string {
    if (Proc < 0)
      return "";
    Strides = S.LocalStrides.empty() ? S.Layout.strides(Proc) : S.LocalStrides;
    if (std::optional<std::string> P = S.Layout.stridesProblem(Proc, Strides))
      return std::string("the ") + Name + " strides of rank " +
             std::to_string(M.Rank) + ": " + *P;
    Storage = S.Layout.storageSize(Proc, Strides);
    return "";
  };
  std::string P =
      Side("source", M.From, M.FromProc, M.FromStrides, M.SourceStorage);
  if (P.empty())
    P = Side("target", M.To, M.ToProc, M.ToStrides, M.TargetStorage);
  return P;
}

void addArrayLayoutParameters(std::vector<Parameter> &Params,
                              const std::string &Name, const ArrayLayout &L) {
  auto Number = [&](std::string What, int64_t Value) {
    Params.push_back({std::move(What), Value, showNumber});
  };
  Params.push_back(listParameter(Name + " extents", L.extents()));
  Params.push_back(listParameter(Name + " arrangement", L.grid()));
  for (int D = 0; D < L.rank(); ++D) {
    const std::string Dim = Name + " dimension " + std::to_string(D);
    const DimFormat &F = L.format(D);
    Number(Dim + " distributed", F.distributed());
    Params.push_back(
        {Dim + " format", static_cast<int64_t>(F.kind()), showKind});
    Number(Dim + " block size", F.param());
    Params.push_back(listParameter(Dim + " segments", F.sizes()));
  }
  Params.push_back({Name + " grid order", static_cast<int64_t>(L.order()),
                    [](int64_t V) -> std::string {
                      return V == static_cast<int64_t>(GridOrder::RowMajor)
                                 ? "row-major"
                                 : "column-major";
                    }});
  Params.push_back(listParameter(Name + " first processes", L.firstProcs()));
  Params.push_back(
      {Name + " storage order", static_cast<int64_t>(L.storage().Order),
       [](int64_t V) -> std::string {
         return V == static_cast<int64_t>(StorageOrder::ColumnMajor)
                    ? "column-major"
                    : "row-major";
       }});
  Params.push_back(listParameter(Name + " strides", L.storage().Strides));
}

Parameter ranksParameter(const std::string &Side,
                         const std::vector<int> &Ranks) {
  // Empty: ranks 0 .. procs - 1.
  return listParameter(Side + " ranks of the grid processes",
                       {Ranks.begin(), Ranks.end()});
}

Parameter algorithmParameter(ArrayAlgorithm A) {
  return {"schedule algorithm", static_cast<int64_t>(A.Base) * 2 + A.Product,
          [](int64_t V) {
            const std::vector<Algorithm> All = allAlgorithms();
            const Algorithm Base = static_cast<Algorithm>(V / 2);
            return std::find(All.begin(), All.end(), Base) == All.end()
                       ? std::to_string(V)
                       : arrayAlgorithmName({Base, V % 2 != 0});
          }};
}

std::vector<Parameter> arrayParameters(const ArrayProblem &M,
                                       std::size_t ElementBytes,
                                       const PlanOptions &Options,
                                       const std::vector<Parameter> *Region) {
  std::vector<Parameter> Params;
  auto Side = [&](const std::string &Name, const ArraySide &S) {
    addArrayLayoutParameters(Params, Name, S.Layout);
    Params.push_back(ranksParameter(Name, S.Ranks));
  };
  Side("source", M.From);
  Side("target", M.To);
  const ArrayRegion &R = M.Region;
  if (Region) {
    Params.insert(Params.end(), Region->begin(), Region->end());
  } else {
    Params.push_back(listParameter(
        "permutation", {R.Permutation.begin(), R.Permutation.end()}));
    Params.push_back(listParameter("section extents", R.Extents));
    Params.push_back(listParameter("section source begin", R.SourceBegin));
    Params.push_back(listParameter("section target begin", R.TargetBegin));
    Params.push_back(listParameter(
        "band", R.Band ? std::vector<int64_t>{R.Band->Row, R.Band->Col,
                                              R.Band->Begin, R.Band->End}
                       : std::vector<int64_t>{}));
  }
  Params.push_back(algorithmParameter(M.Algorithm));
  for (Parameter &P : optionParameters(ElementBytes, Options))
    Params.push_back(std::move(P));
  return Params;
}

ArrayMessages::ArrayMessages(const ArrayProblem &Problem)
    : M(Problem), Grid(computeArrayGrid(M.From.Layout, M.To.Layout, M.Region)),
      AxisRuns(static_cast<size_t>(M.From.Layout.rank())) {}

const std::vector<TriRun> &ArrayMessages::axisRuns(int A, int64_t P,
                                                   int64_t Q) {
  auto &Cache = AxisRuns[static_cast<size_t>(A)];
  auto It = Cache.find({P, Q});
  if (It != Cache.end())
    return It->second;
  std::vector<TriRun> Runs;
  int64_t Pos = 0;
  describeAxis(M.From.Layout, M.To.Layout, M.Region, A, P, Q)
      .forEachRun([&](const Run &R) {
        if (!Runs.empty() && Runs.back().Src + Runs.back().Len == R.SrcOffset &&
            Runs.back().Dst + Runs.back().Len == R.DstOffset)
          Runs.back().Len += R.Length;
        else
          Runs.push_back({R.SrcOffset, R.DstOffset, Pos, R.Length});
        Pos += R.Length;
      });
  return Cache.emplace(std::make_pair(P, Q), std::move(Runs)).first->second;
}

namespace {

/// One nested segment: a level of repeats per axis of Order (slowest
/// first), each axis's runs (Pos from 0 along the axis) its items; the
/// fastest axis's runs are the segment's runs where they are contiguous on
/// both sides, else a level too, around one element. O(runs of each axis)
/// entries, never one per element. Positions start at 0.
TriSegment nestSegment(const std::vector<int> &Order,
                       const std::vector<const std::vector<TriRun> *> &Runs,
                       const std::vector<int64_t> &SStr,
                       const std::vector<int64_t> &DStr) {
  const size_t N = Order.size();
  std::vector<int64_t> Height(N, 0), PosStride(N, 1);
  for (size_t X = 0; X < N; ++X)
    for (const TriRun &R : *Runs[X])
      Height[X] += R.Len;
  for (size_t J = N - 1; J-- > 0;) {
    const size_t Here = static_cast<size_t>(Order[J]);
    const size_t Next = static_cast<size_t>(Order[J + 1]);
    PosStride[Here] = PosStride[Next] * Height[Next];
  }
  const size_t Inner = static_cast<size_t>(Order[N - 1]);
  const bool Contiguous = SStr[Inner] == 1 && DStr[Inner] == 1;
  TriSegment S;
  for (size_t J = 0; J < N; ++J) {
    const size_t X = static_cast<size_t>(Order[J]);
    if (X == Inner && Contiguous)
      break;
    TriLevel L;
    L.SrcStep = SStr[X];
    L.DstStep = DStr[X];
    L.PosStep = PosStride[X];
    for (const TriRun &R : *Runs[X])
      L.Items.push_back(
          {R.Src * SStr[X], R.Dst * DStr[X], R.Pos * PosStride[X], R.Len});
    S.Outer.push_back(std::move(L));
  }
  if (Contiguous) {
    S.Runs = *Runs[Inner];
    S.PerRepeat = Height[Inner];
  } else {
    S.Runs.push_back({0, 0, 0, 1});
    S.PerRepeat = 1;
  }
  return S;
}

/// Runs as TriRuns, positions from 0; only indices [Lo, Hi) of them.
std::vector<TriRun> clipRuns(const std::vector<IndexedRun> &Runs, int64_t Lo,
                             int64_t Hi) {
  std::vector<TriRun> Out;
  int64_t Pos = 0;
  for (const IndexedRun &R : Runs) {
    const int64_t B = std::max(Lo, R.Index), E = std::min(Hi, R.Index + R.Len);
    if (B >= E)
      continue;
    Out.push_back({R.Src + (B - R.Index), R.Dst + (B - R.Index), Pos, E - B});
    Pos += E - B;
  }
  return Out;
}

} // namespace

MessageCutter ArrayMessages::cutter(int64_t Src, int64_t Dst,
                                    const std::vector<int64_t> *SourceStrides) {
  const ArrayLayout &A = M.From.Layout, &B = M.To.Layout;
  const int D = A.rank();
  const size_t N = static_cast<size_t>(D);
  // Strides of both ends; the other rank's offsets are never used, but
  // its layout's strides keep the description the same on both ends.
  const std::vector<int64_t> SStr = SourceStrides       ? *SourceStrides
                                    : Src == M.FromProc ? M.FromStrides
                                                        : A.strides(Src);
  const std::vector<int64_t> TStr =
      Dst == M.ToProc ? M.ToStrides : B.strides(Dst);
  std::vector<int64_t> DStr(N);
  std::vector<const std::vector<TriRun> *> Runs(N);
  for (int K = 0; K < D; ++K) {
    const size_t I = static_cast<size_t>(K);
    int T = 0;
    while (M.Region.Permutation[static_cast<size_t>(T)] != K)
      ++T;
    DStr[I] = TStr[static_cast<size_t>(T)];
    Runs[I] = &axisRuns(K, A.dimRankOf(K, Src), B.dimRankOf(T, Dst));
  }
  // Axes from the slowest to the fastest of the source's storage order; of
  // the target's where the two sides' fastest axes differ (a transposing
  // copy): the sender's packing then transposes, in tiles, and the
  // receiver's unpacking (a combining one too) sweeps its target in order,
  // which measured faster than the other way round (docs/PERFORMANCE.md).
  auto NthSlowest = [D](const ArrayLayout &L, int J) {
    return L.storage().Order == StorageOrder::RowMajor ? J : D - 1 - J;
  };
  const std::vector<int> &Perm = M.Region.Permutation;
  const bool Transposing =
      Perm[static_cast<size_t>(NthSlowest(B, D - 1))] != NthSlowest(A, D - 1);
  std::vector<int> Order(N);
  for (int J = 0; J < D; ++J)
    Order[static_cast<size_t>(J)] =
        Transposing ? Perm[static_cast<size_t>(NthSlowest(B, J))]
                    : NthSlowest(A, J);
  if (M.Region.Band)
    return bandCutter(Src, Dst, SStr, DStr, std::move(Runs), std::move(Order));
  std::vector<TriSegment> Segments;
  Segments.push_back(nestSegment(Order, Runs, SStr, DStr));
  return MessageCutter(std::move(Segments));
}

MessageCutter ArrayMessages::bandCutter(
    int64_t Src, int64_t Dst, const std::vector<int64_t> &SStr,
    const std::vector<int64_t> &DStr,
    std::vector<const std::vector<TriRun> *> Runs, std::vector<int> Order) {
  const ArrayLayout &A = M.From.Layout, &B = M.To.Layout;
  const ArrayBand &Band = *M.Region.Band;
  // The band's axis that comes first in the storage order goes outermost.
  const int Outer = *std::find_if(Order.begin(), Order.end(), [&](int X) {
    return X == Band.Row || X == Band.Col;
  });
  const int Inner = Outer == Band.Row ? Band.Col : Band.Row;
  Order.erase(std::find(Order.begin(), Order.end(), Outer));
  Order.insert(Order.begin(), Outer);
  // Index o of Outer moves Inner's indices [o + Lo, o + Hi): Begin <= i - j
  // < End read for j (Outer the column) or for i.
  const int64_t Lo = Outer == Band.Col ? Band.Begin : 1 - Band.End;
  const int64_t Hi = Outer == Band.Col ? Band.End : 1 - Band.Begin;
  auto Indexed = [&](int X) -> const std::vector<IndexedRun> & {
    auto &Cache = BandRuns[X == Band.Row ? 0 : 1];
    if (Cache.empty())
      Cache = indexedAxisRuns(A, B, M.Region, X);
    int T = 0;
    while (M.Region.Permutation[static_cast<size_t>(T)] != X)
      ++T;
    return Cache.at({A.dimRankOf(X, Src), B.dimRankOf(T, Dst)});
  };
  const std::vector<IndexedRun> &OuterRuns = Indexed(Outer);
  const std::vector<IndexedRun> &InnerRuns = Indexed(Inner);
  const std::vector<TriRun> AllInner =
      clipRuns(InnerRuns, INT64_MIN, INT64_MAX);
  const int64_t First = InnerRuns.front().Index,
                Last = InnerRuns.back().Index + InnerRuns.back().Len;
  std::vector<TriSegment> Segments;
  int64_t Base = 0;
  // Indices [T, T + Count) of outer run X, with Inner's runs Moving.
  auto Emit = [&](const IndexedRun &X, int64_t T, int64_t Count,
                  const std::vector<TriRun> &Moving) {
    if (Moving.empty()) // the interval falls between Inner's runs
      return;
    const std::vector<TriRun> One{{X.Src + T, X.Dst + T, 0, Count}};
    Runs[static_cast<size_t>(Outer)] = &One;
    Runs[static_cast<size_t>(Inner)] = &Moving;
    TriSegment S = nestSegment(Order, Runs, SStr, DStr);
    // The top level is Outer's, its item absolute.
    S.Outer.front().Items.front().Pos += Base;
    Base += Count * S.Outer.front().PosStep;
    Segments.push_back(std::move(S));
  };
  for (const IndexedRun &X : OuterRuns) {
    for (int64_t T = 0; T < X.Len;) {
      const int64_t O = X.Index + T;
      if (O + Hi <= First) { // nothing moves up to index First - Hi
        T += First - Hi - O + 1;
        continue;
      }
      if (O + Lo >= Last) // nor from here on
        break;
      if (O + Lo <= First && O + Hi >= Last) {
        // All of Inner's runs, while O + Lo <= First (O + Hi only grows).
        const int64_t Count = std::min(X.Len - T, First - Lo - O + 1);
        Emit(X, T, Count, AllInner);
        T += Count;
        continue;
      }
      Emit(X, T, 1, clipRuns(InnerRuns, O + Lo, O + Hi));
      ++T;
    }
  }
  return MessageCutter(std::move(Segments));
}

} // namespace detail
} // namespace redist
