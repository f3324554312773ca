//===- ArrayLayout.cpp - Arrays of any rank over process grids ------------===//
//
// See redist/ArrayLayout.h. Everything is per dimension: a dimension's 1-D
// layout gives its owner and local index, the offset rotates the 1-D
// process onto the arrangement, and the strides combine the local indices.
//
//===----------------------------------------------------------------------===//
#include "redist/ArrayLayout.h"

#include "BlockCyclicMath.h"
#include "redist/Error.h"

#include <algorithm>
#include <numeric>

using namespace redist;

namespace {

std::string dimName(int D) { return "dimension " + std::to_string(D); }

void checkIndex(const std::string &What, int64_t Value, int64_t Limit) {
  if (Value < 0 || Value >= Limit)
    throw InvalidArgument(What + " " + std::to_string(Value) +
                          " out of range [0, " + std::to_string(Limit) + ")");
}

/// (X + By) % N for X in [0, N) and By in [0, N], without overflow.
int64_t rotate(int64_t X, int64_t By, int64_t N) {
  return X < N - By ? X + By : X - (N - By);
}

/// Parses a positive decimal number, or nothing.
std::optional<int64_t> parseCount(std::string_view S) {
  while (!S.empty() && S.front() == ' ')
    S.remove_prefix(1);
  while (!S.empty() && S.back() == ' ')
    S.remove_suffix(1);
  if (S.empty() || S.size() > 18)
    return std::nullopt;
  int64_t V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return std::nullopt;
    V = V * 10 + (C - '0');
  }
  return V;
}

/// The dimensions of Strides, fastest last, ties broken so that the one
/// with more local elements comes first.
std::vector<int> bySlowest(const std::vector<int64_t> &Strides,
                           const std::vector<int64_t> &Extents) {
  std::vector<int> Dims(Strides.size());
  std::iota(Dims.begin(), Dims.end(), 0);
  std::stable_sort(Dims.begin(), Dims.end(), [&](int A, int B) {
    size_t X = static_cast<size_t>(A), Y = static_cast<size_t>(B);
    if (Strides[X] != Strides[Y])
      return Strides[X] > Strides[Y];
    return Extents[X] > Extents[Y];
  });
  return Dims;
}

} // namespace

DimFormat DimFormat::collapsed() { return DimFormat(); }

DimFormat DimFormat::block() {
  DimFormat F;
  F.Distributed = true;
  return F;
}

DimFormat DimFormat::block(int64_t K) {
  DimFormat F = of(Distribution::block(1, K));
  return F;
}

DimFormat DimFormat::cyclic(int64_t K) {
  return of(Distribution::cyclic(1, K));
}

DimFormat DimFormat::genBlock(std::vector<int64_t> Sizes) {
  return of(Distribution::genBlock(std::move(Sizes)));
}

DimFormat DimFormat::of(const Distribution &D) {
  DimFormat F;
  F.Distributed = true;
  F.Kind = D.kind();
  F.Param = D.param();
  F.Sizes = D.sizes();
  return F;
}

DimFormat DimFormat::parse(std::string_view Text) {
  auto Fail = [&](const std::string &Why) -> DimFormat {
    throw InvalidArgument("format '" + std::string(Text) + "': " + Why);
  };
  std::string_view S = Text;
  while (!S.empty() && S.front() == ' ')
    S.remove_prefix(1);
  while (!S.empty() && S.back() == ' ')
    S.remove_suffix(1);
  if (S == "*")
    return collapsed();
  std::string_view Name = S, Arg;
  bool HasArg = false;
  if (size_t Open = S.find('('); Open != std::string_view::npos) {
    if (S.back() != ')')
      return Fail("expected ')' at its end");
    Name = S.substr(0, Open);
    Arg = S.substr(Open + 1, S.size() - Open - 2);
    HasArg = true;
  }
  if (Name == "gen_block") {
    if (!HasArg)
      return Fail("gen_block needs its sizes");
    std::vector<int64_t> Sizes;
    size_t Start = 0;
    while (true) {
      size_t End = Arg.find_first_of(";,", Start);
      std::string_view Item =
          Arg.substr(Start, End == std::string_view::npos ? End : End - Start);
      std::optional<int64_t> V = parseCount(Item);
      if (!V)
        return Fail("'" + std::string(Item) + "' is not a size");
      Sizes.push_back(*V);
      if (End == std::string_view::npos)
        break;
      Start = End + 1;
    }
    return genBlock(std::move(Sizes));
  }
  if (Name != "block" && Name != "cyclic")
    return Fail("expected *, block, block(K), cyclic, cyclic(K) or "
                "gen_block(S0;S1;...)");
  if (!HasArg)
    return Name == "block" ? block() : cyclic();
  std::optional<int64_t> K = parseCount(Arg);
  if (!K || *K == 0)
    return Fail("'" + std::string(Arg) + "' is not a positive block size");
  return Name == "block" ? block(*K) : cyclic(*K);
}

Distribution DimFormat::over(int64_t Procs) const {
  if (!Distributed)
    return Distribution::block(1);
  switch (Kind) {
  case DistKind::Block:
    return Distribution::block(Procs);
  case DistKind::BlockSized:
    return Distribution::block(Procs, Param);
  case DistKind::Cyclic:
    return Distribution::cyclic(Procs, Param);
  case DistKind::GenBlock:
    break;
  }
  if (static_cast<int64_t>(Sizes.size()) != Procs)
    throw InvalidArgument(str() + " has " + std::to_string(Sizes.size()) +
                          " sizes for " + std::to_string(Procs) + " processes");
  return Distribution::genBlock(Sizes);
}

std::string DimFormat::str() const {
  if (!Distributed)
    return "*";
  if (Kind != DistKind::GenBlock)
    return over(1).str();
  std::string S = "gen_block(";
  for (size_t I = 0; I < Sizes.size(); ++I)
    S += (I ? ";" : "") + std::to_string(Sizes[I]);
  return S + ")";
}

bool DimFormat::operator==(const DimFormat &O) const {
  return Distributed == O.Distributed && Kind == O.Kind && Param == O.Param &&
         Sizes == O.Sizes;
}

ArrayLayout::ArrayLayout(std::vector<int64_t> ExtentsIn,
                         std::vector<DimFormat> FormatsIn,
                         std::vector<int64_t> GridIn, GridOrder OrderIn,
                         std::vector<int64_t> FirstProcIn,
                         ArrayStorage StorageIn)
    : Extents(std::move(ExtentsIn)), Formats(std::move(FormatsIn)),
      Grid(std::move(GridIn)), Order(OrderIn),
      FirstProc(std::move(FirstProcIn)), Storage(std::move(StorageIn)) {
  const int D = rank();
  if (D < 1 || D > MaxArrayRank)
    throw InvalidArgument("an array has 1 to " + std::to_string(MaxArrayRank) +
                          " dimensions, not " + std::to_string(D));
  if (static_cast<int>(Formats.size()) != D)
    throw InvalidArgument(std::to_string(Formats.size()) +
                          " formats for an array of rank " + std::to_string(D));
  const int Distributed = static_cast<int>(
      std::count_if(Formats.begin(), Formats.end(),
                    [](const DimFormat &F) { return F.distributed(); }));
  if (Distributed != static_cast<int>(Grid.size()))
    throw InvalidArgument(std::to_string(Distributed) +
                          " distributed dimensions onto an arrangement of "
                          "rank " +
                          std::to_string(Grid.size()));
  if (FirstProc.empty())
    FirstProc.assign(static_cast<size_t>(D), 0);
  if (static_cast<int>(FirstProc.size()) != D)
    throw InvalidArgument(std::to_string(FirstProc.size()) +
                          " first-process offsets for an array of rank " +
                          std::to_string(D));
  for (size_t G = 0; G < Grid.size(); ++G) {
    if (Grid[G] <= 0)
      throw InvalidArgument("arrangement dimension " + std::to_string(G) +
                            " has " + std::to_string(Grid[G]) +
                            " processes; it needs at least 1");
    std::optional<int64_t> P = detail::checkedMul(Procs, Grid[G]);
    if (!P)
      throw InvalidArgument("the arrangement has more than 2^63 processes");
    Procs = *P;
  }
  int NextGrid = 0;
  for (int K = 0; K < D; ++K) {
    const size_t I = static_cast<size_t>(K);
    if (Extents[I] < 0)
      throw InvalidArgument(dimName(K) + " has the negative extent " +
                            std::to_string(Extents[I]));
    std::optional<int64_t> E = detail::checkedMul(Elements, Extents[I]);
    if (!E)
      throw InvalidArgument("the array has more than 2^63 elements");
    Elements = *E;
    const int G = Formats[I].distributed() ? NextGrid++ : -1;
    GridDim.push_back(G);
    const int64_t P = G < 0 ? 1 : Grid[static_cast<size_t>(G)];
    try {
      Dims.emplace_back(Formats[I].over(P), Extents[I]);
    } catch (const InvalidArgument &Err) {
      throw InvalidArgument(dimName(K) + " (extent " +
                            std::to_string(Extents[I]) + ", " +
                            Formats[I].str() + " over " + std::to_string(P) +
                            " processes): " + Err.what());
    }
    if (FirstProc[I] < 0 || FirstProc[I] >= P)
      throw InvalidArgument("the first process " +
                            std::to_string(FirstProc[I]) + " of " + dimName(K) +
                            " is outside [0, " + std::to_string(P) + ")");
  }
  if (!Storage.Strides.empty()) {
    if (static_cast<int>(Storage.Strides.size()) != D)
      throw InvalidArgument(std::to_string(Storage.Strides.size()) +
                            " strides for an array of rank " +
                            std::to_string(D));
    // The largest local part: each dimension's largest is some process's,
    // and the dimensions are independent.
    std::vector<int64_t> Largest;
    for (const Layout &L : Dims)
      Largest.push_back(L.maxLocalSize());
    for (int K = 0; K < D; ++K)
      if (Storage.Strides[static_cast<size_t>(K)] <= 0)
        throw InvalidArgument("the stride " +
                              std::to_string(Storage.Strides[K]) + " of " +
                              dimName(K) + " is not positive");
    std::vector<int> Slow = bySlowest(Storage.Strides, Largest);
    for (size_t J = 0; J + 1 < Slow.size(); ++J) {
      const size_t Outer = static_cast<size_t>(Slow[J]),
                   Inner = static_cast<size_t>(Slow[J + 1]);
      std::optional<int64_t> Need = detail::checkedMul(
          Storage.Strides[Inner], std::max<int64_t>(1, Largest[Inner]));
      if (!Need || Storage.Strides[Outer] < *Need)
        throw InvalidArgument(
            "the stride " + std::to_string(Storage.Strides[Outer]) + " of " +
            dimName(static_cast<int>(Outer)) + " is below the " +
            std::to_string(Largest[Inner]) + " local elements of " +
            dimName(static_cast<int>(Inner)) + " times its stride " +
            std::to_string(Storage.Strides[Inner]));
    }
    storageSize(0); // throws when beyond 2^63
  }
}

// One dimension over a 1-D arrangement of D's processes: its local part is
// the 1-D local part, tightly stored.
ArrayLayout ArrayLayout::rankOne(const Distribution &D, int64_t N) {
  return ArrayLayout({N}, {DimFormat::of(D)}, {D.procs()});
}

int64_t ArrayLayout::procAt(const std::vector<int64_t> &Coords) const {
  if (Coords.size() != Grid.size())
    throw InvalidArgument(std::to_string(Coords.size()) +
                          " coordinates for an arrangement of rank " +
                          std::to_string(Grid.size()));
  int64_t Id = 0;
  const int G = static_cast<int>(Grid.size());
  for (int J = 0; J < G; ++J) {
    const int K = Order == GridOrder::RowMajor ? J : G - 1 - J;
    const size_t I = static_cast<size_t>(K);
    checkIndex("coordinate " + std::to_string(K), Coords[I], Grid[I]);
    Id = Id * Grid[I] + Coords[I];
  }
  return Id;
}

std::vector<int64_t> ArrayLayout::coordsOf(int64_t Proc) const {
  checkIndex("process", Proc, Procs);
  const int G = static_cast<int>(Grid.size());
  std::vector<int64_t> C(Grid.size());
  for (int J = G - 1; J >= 0; --J) {
    const int K = Order == GridOrder::RowMajor ? J : G - 1 - J;
    const size_t I = static_cast<size_t>(K);
    C[I] = Proc % Grid[I];
    Proc /= Grid[I];
  }
  return C;
}

int64_t ArrayLayout::dimRankOf(int D, int64_t Proc) const {
  const int G = gridDimOf(D);
  if (G < 0)
    return 0;
  const int64_t P = Grid[static_cast<size_t>(G)];
  const int64_t C = coordsOf(Proc)[static_cast<size_t>(G)];
  return rotate(C, P - firstProc(D), P);
}

int64_t ArrayLayout::procOfDimRanks(const std::vector<int64_t> &Ranks) const {
  std::vector<int64_t> C(Grid.size());
  for (int D = 0; D < rank(); ++D) {
    const int G = gridDimOf(D);
    if (G < 0)
      continue;
    const int64_t P = Grid[static_cast<size_t>(G)];
    const int64_t R = Ranks[static_cast<size_t>(D)];
    checkIndex("1-D process of " + dimName(D), R, P);
    C[static_cast<size_t>(G)] = rotate(R, firstProc(D), P);
  }
  return procAt(C);
}

int64_t ArrayLayout::localExtent(int64_t Proc, int D) const {
  return dim(D).localSize(dimRankOf(D, Proc));
}

std::vector<int64_t> ArrayLayout::localExtents(int64_t Proc) const {
  std::vector<int64_t> E;
  for (int D = 0; D < rank(); ++D)
    E.push_back(localExtent(Proc, D));
  return E;
}

std::vector<int64_t> ArrayLayout::strides(int64_t Proc) const {
  if (!Storage.Strides.empty())
    return Storage.Strides;
  const std::vector<int64_t> E = localExtents(Proc);
  std::vector<int64_t> S(E.size());
  int64_t Next = 1;
  const int D = rank();
  for (int J = 0; J < D; ++J) {
    const int K = Storage.Order == StorageOrder::ColumnMajor ? J : D - 1 - J;
    const size_t I = static_cast<size_t>(K);
    S[I] = Next;
    // Checked where the layout was built: the part fits in 2^63 elements
    // (the array does), and empty dimensions count 1.
    Next *= std::max<int64_t>(1, E[I]);
  }
  return S;
}

std::optional<std::string>
ArrayLayout::stridesProblem(int64_t Proc,
                            const std::vector<int64_t> &Strides) const {
  const int D = rank();
  if (static_cast<int>(Strides.size()) != D)
    return std::to_string(Strides.size()) + " strides for an array of rank " +
           std::to_string(D);
  const std::vector<int64_t> E = localExtents(Proc);
  for (int K = 0; K < D; ++K)
    if (Strides[static_cast<size_t>(K)] <= 0)
      return "the stride " + std::to_string(Strides[K]) + " of " + dimName(K) +
             " is not positive";
  std::vector<int> Slow = bySlowest(Strides, E);
  for (size_t J = 0; J + 1 < Slow.size(); ++J) {
    const size_t Outer = static_cast<size_t>(Slow[J]),
                 Inner = static_cast<size_t>(Slow[J + 1]);
    std::optional<int64_t> Need =
        detail::checkedMul(Strides[Inner], std::max<int64_t>(1, E[Inner]));
    if (!Need || Strides[Outer] < *Need)
      return "the stride " + std::to_string(Strides[Outer]) + " of " +
             dimName(static_cast<int>(Outer)) + " is below the " +
             std::to_string(E[Inner]) + " local elements of " +
             dimName(static_cast<int>(Inner)) + " times its stride " +
             std::to_string(Strides[Inner]);
  }
  int64_t Last = 0;
  for (int K = 0; K < D; ++K) {
    if (E[static_cast<size_t>(K)] == 0)
      return std::nullopt;
    std::optional<int64_t> T = detail::checkedMul(E[K] - 1, Strides[K]);
    if (!T || *T > INT64_MAX - 1 - Last)
      return "the local storage of process " + std::to_string(Proc) +
             " exceeds 2^63 elements";
    Last += *T;
  }
  return std::nullopt;
}

int64_t ArrayLayout::storageSize(int64_t Proc,
                                 const std::vector<int64_t> &Given) const {
  const std::vector<int64_t> S = Given.empty() ? strides(Proc) : Given;
  const std::vector<int64_t> E = localExtents(Proc);
  int64_t Last = 0;
  for (size_t K = 0; K < E.size(); ++K) {
    if (E[K] == 0)
      return 0;
    std::optional<int64_t> T = detail::checkedMul(E[K] - 1, S[K]);
    if (!T || *T > INT64_MAX - 1 - Last)
      throw InvalidArgument("the local storage of process " +
                            std::to_string(Proc) + " exceeds 2^63 elements");
    Last += *T;
  }
  return Last + 1;
}

LocalPlace ArrayLayout::toLocal(const std::vector<int64_t> &Index) const {
  if (static_cast<int>(Index.size()) != rank())
    throw InvalidArgument(std::to_string(Index.size()) +
                          " indices for an array of rank " +
                          std::to_string(rank()));
  std::vector<int64_t> Ranks(Index.size());
  for (int D = 0; D < rank(); ++D) {
    checkIndex("index of " + dimName(D), Index[static_cast<size_t>(D)],
               extent(D));
    Ranks[static_cast<size_t>(D)] = dim(D).owner(Index[D]);
  }
  const int64_t Proc = procOfDimRanks(Ranks);
  const std::vector<int64_t> S = strides(Proc);
  int64_t Offset = 0;
  for (int D = 0; D < rank(); ++D)
    Offset += dim(D).toLocal(Index[static_cast<size_t>(D)]) *
              S[static_cast<size_t>(D)];
  return {Proc, Offset};
}

std::vector<int64_t> ArrayLayout::toGlobal(int64_t Proc, int64_t Offset) const {
  checkIndex("process", Proc, Procs);
  const int64_t Size = storageSize(Proc);
  if (Offset < 0 || Offset >= Size)
    throw InvalidArgument("offset " + std::to_string(Offset) +
                          " is outside the " + std::to_string(Size) +
                          " storage elements of process " +
                          std::to_string(Proc));
  const std::vector<int64_t> S = strides(Proc), E = localExtents(Proc);
  std::vector<int64_t> Index(S.size());
  int64_t Rest = Offset;
  for (int D : bySlowest(S, E)) {
    const size_t I = static_cast<size_t>(D);
    const int64_t L = Rest / S[I];
    Rest %= S[I];
    if (L >= E[I])
      throw InvalidArgument("offset " + std::to_string(Offset) +
                            " of process " + std::to_string(Proc) +
                            " is in the padding of " + dimName(D));
    Index[I] = dim(D).toGlobal(dimRankOf(D, Proc), L);
  }
  if (Rest != 0)
    throw InvalidArgument("offset " + std::to_string(Offset) + " of process " +
                          std::to_string(Proc) + " is in the padding");
  return Index;
}

std::string ArrayLayout::str() const {
  std::string S = "[";
  for (size_t K = 0; K < Extents.size(); ++K)
    S += (K ? "," : "") + std::to_string(Extents[K]);
  S += "](";
  for (size_t K = 0; K < Formats.size(); ++K)
    S += (K ? "," : "") + Formats[K].str();
  S += ") onto ";
  for (size_t G = 0; G < Grid.size(); ++G)
    S += (G ? "x" : "") + std::to_string(Grid[G]);
  if (Grid.empty())
    S += "1";
  S += Order == GridOrder::RowMajor ? " row-major" : " column-major";
  if (std::any_of(FirstProc.begin(), FirstProc.end(),
                  [](int64_t F) { return F != 0; })) {
    S += ", first (";
    for (size_t K = 0; K < FirstProc.size(); ++K)
      S += (K ? "," : "") + std::to_string(FirstProc[K]);
    S += ")";
  }
  S += Storage.Order == StorageOrder::RowMajor ? ", row-major storage"
                                               : ", column-major storage";
  if (!Storage.Strides.empty()) {
    S += " strides (";
    for (size_t K = 0; K < Storage.Strides.size(); ++K)
      S += (K ? "," : "") + std::to_string(Storage.Strides[K]);
    S += ")";
  }
  return S;
}

bool ArrayLayout::operator==(const ArrayLayout &O) const {
  return Extents == O.Extents && Formats == O.Formats && Grid == O.Grid &&
         Order == O.Order && FirstProc == O.FirstProc &&
         Storage.Order == O.Storage.Order &&
         Storage.Strides == O.Storage.Strides;
}
