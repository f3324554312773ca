//===- redist-faults.cpp - Random plans with one parameter wrong ----------===//
//
//   mpirun -np R redist-faults SEED DRAWS
//   mpirun -np R redist-faults SEED abort
//   mpirun -np R redist-faults null RANK
//
// A property test. From SEED (the same on every rank) it draws DRAWS random
// redistributions, each of one plan kind (kinds[] below: 1-D arrays and
// matrices), with one parameter made wrong or different on a random set of
// ranks: a block size, an extent, gen_block sizes, a grid extent, the
// source buffer's size, a leading dimension, a null buffer, an option. Each
// draw runs on a fresh duplicate of MPI_COMM_WORLD, through the plan API
// (Plan, MatrixPlan), redistribute() or the directive API, sometimes after
// the same plan was cached with the valid parameters. It must end either
//   - with the data right: when every rank was given valid parameters that
//     agree (or differ only where they may, as per-rank leading
//     dimensions), every element of every rank's target is checked, and
//     what lies outside the moved part is untouched; or
//   - with redist::InvalidArgument on every rank, the same text on all
//     (less the "this rank has" tail of a Verify mismatch; when every rank
//     was given a bad value, each names its own, so the texts are compared
//     without their numbers), and both buffers untouched on every rank:
//     when some rank's value is invalid, or (with Verify) when the ranks'
//     values differ.
// The verdicts are gathered after each draw over a communicator of their
// own. A draw that hangs is ended by lit's timeout; the draw's number and
// description are printed before it runs, so the output names it.
//
// Verify off: values that differ between ranks are not drawn (docs/runtime.md:
// only Verify makes them safe), invalid ones are. On a fresh communicator
// every plan agrees on problems as it builds.
//
// The "abort" mode draws one case where a rank-local bad value must, by
// design, end the job instead (docs/runtime.md, "Errors"): Verify off after
// a plan was cached on the communicator, or a null buffer given to
// Plan::execute on some ranks. The process then either finishes with the
// error raised on every rank, or the faulty ranks print the problem and
// "aborting the job" and MPI_Abort ends every rank. Never a hang (lit's
// timeout) and never a crash. "null RANK" is the null buffer case alone,
// on rank RANK.
//
// A new plan kind (N-D arrays) is one more entry in kinds[]: a function that
// draws its parameters and one fault from the shared generator and returns
// an Attempt.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/Redistribute.h"
#include "redist/runtime/TranslatedMatrix.h"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

int Rank = 0, Size = 0;

/// The generator every rank draws from alike: every rank must consume the
/// same numbers, so nothing a rank decides alone may draw.
class Draws {
public:
  explicit Draws(uint64_t Seed) : Rng(Seed) {}
  int64_t uniform(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }
  bool coin(int Percent) { return uniform(0, 99) < Percent; }
  template <typename T> const T &pick(const std::vector<T> &V) {
    return V[static_cast<std::size_t>(
        uniform(0, static_cast<int64_t>(V.size()) - 1))];
  }
  /// A non-empty set of ranks: often one, sometimes all.
  std::vector<bool> ranks() {
    std::vector<bool> Set(static_cast<std::size_t>(Size), false);
    const int64_t How = uniform(0, 9);
    if (How < 5) {
      Set[static_cast<std::size_t>(uniform(0, Size - 1))] = true;
    } else if (How < 7) {
      Set.assign(Set.size(), true);
    } else {
      const int64_t Mask = uniform(1, (int64_t(1) << Size) - 1);
      for (int R = 0; R < Size; ++R)
        Set[static_cast<std::size_t>(R)] = (Mask >> R) & 1;
    }
    return Set;
  }

private:
  std::mt19937_64 Rng;
};

/// The value Steps places after Now in All, cyclically: another option.
template <typename T>
T another(const std::vector<T> &All, T Now, int64_t Steps) {
  const int64_t At = std::find(All.begin(), All.end(), Now) - All.begin();
  return All[static_cast<std::size_t>((At + Steps) %
                                      static_cast<int64_t>(All.size()))];
}

/// What one rank does in one draw.
struct Attempt {
  /// Shown when the draw starts, and on failure.
  std::string Desc;
  /// The fault's name, counted in the summary.
  std::string Fault;
  bool Verify = true;
  /// This rank's parameters: invalid, or valid but (with Verify) differing
  /// from another rank's.
  bool Invalid = false, Different = false;
  /// Builds the plan and moves the data; throws on error.
  std::function<void()> Run;
  /// After Run: with Ran, the elements wrong; without, those touched.
  std::function<int64_t(bool Ran)> Check;
};

using Kind = Attempt (*)(Draws &, MPI_Comm);

//===-- 1-D arrays --------------------------------------------------------===//

/// A 1-D distribution as its parts, so that a fault can change one.
struct Side1 {
  DistKind Format = DistKind::Block;
  int64_t P = 1, K = 1;
  std::vector<int64_t> Sizes;
  /// The directive API's Target, which holds an invalid value instead of
  /// throwing, as a rank's own bad value must not throw alone.
  directive::Target target() const {
    if (Format == DistKind::GenBlock)
      return directive::genBlockTarget(Sizes, P);
    return directive::target(Format, P, K);
  }
  Distribution value() const { return target().value("redist-faults"); }
  std::string str() const {
    std::string S;
    switch (Format) {
    case DistKind::Block:
      return "block(" + std::to_string(P) + ")";
    case DistKind::BlockSized:
      return "block(" + std::to_string(P) + ", " + std::to_string(K) + ")";
    case DistKind::Cyclic:
      return "cyclic(" + std::to_string(P) + ", " + std::to_string(K) + ")";
    case DistKind::GenBlock:
      for (int64_t V : Sizes)
        S += (S.empty() ? "" : ",") + std::to_string(V);
      return "gen_block(" + S + ")";
    }
    return S;
  }
};

Side1 drawSide1(Draws &D, int64_t N) {
  Side1 S;
  S.P = D.uniform(1, Size);
  switch (D.uniform(0, 3)) {
  case 0:
    S.Format = DistKind::Block;
    break;
  case 1:
    S.Format = DistKind::BlockSized;
    S.K = (N + S.P - 1) / S.P + D.uniform(0, 3);
    S.K = std::max<int64_t>(S.K, 1);
    break;
  case 2:
    S.Format = DistKind::Cyclic;
    S.K = D.coin(40) ? D.uniform(1, 3) : D.uniform(1, N / 2 + 1);
    break;
  default: {
    S.Format = DistKind::GenBlock;
    // N split at P - 1 random cuts.
    std::vector<int64_t> Cuts{0, N};
    for (int64_t I = 1; I < S.P; ++I)
      Cuts.push_back(D.uniform(0, N));
    std::sort(Cuts.begin(), Cuts.end());
    for (std::size_t I = 1; I < Cuts.size(); ++I)
      S.Sizes.push_back(Cuts[I] - Cuts[I - 1]);
  }
  }
  return S;
}

/// How a 1-D draw moves its data.
enum class Path1 { Plan, Redistribute, Assign, AssignPointers };

/// The element values of a 1-D array: elementValue of the global index.
std::vector<uint64_t> sourcePart1(const Distribution &D, int64_t N) {
  std::vector<uint64_t> V(
      static_cast<std::size_t>(Rank < D.procs() ? localSize(D, N, Rank) : 0));
  for (std::size_t L = 0; L < V.size(); ++L)
    test::elementValue(globalIndex(D, N, Rank, static_cast<int64_t>(L)), 8,
                       reinterpret_cast<unsigned char *>(&V[L]));
  return V;
}

constexpr uint64_t Guard = 0xA5A5A5A5A5A5A5A5ull;

Attempt array1(Draws &D, MPI_Comm Comm) {
  Attempt A;
  const int64_t N = D.uniform(0, 240);
  Side1 From = drawSide1(D, N), To = drawSide1(D, N);
  PlanOptions O;
  O.Verify = D.coin(75);
  O.Mode = D.pick(allExecModes());
  O.Pack = D.pick(allPackings());
  if (D.coin(20))
    O.MaxTransferBytes = 8 * D.uniform(1, 16);
  const Path1 Path = D.pick(std::vector<Path1>{
      Path1::Plan, Path1::Redistribute, Path1::Assign, Path1::AssignPointers});
  const bool Cached = Path != Path1::Plan && O.Verify && D.coin(50);
  const std::vector<bool> Faulty = D.ranks();
  const bool All =
      std::all_of(Faulty.begin(), Faulty.end(), [](bool B) { return B; });
  const bool Mine = Faulty[static_cast<std::size_t>(Rank)];

  // The fault, drawn among those that apply: each changes this rank's copy
  // of the parameters where Mine.
  int64_t MyN = N, SourceSlack = 0;
  Side1 MyFrom = From, MyTo = To;
  PlanOptions MyO = O;
  bool NullSource = false, NullTarget = false;
  std::vector<std::string> Faults{"none", "extent", "process count"};
  if (O.Verify)
    Faults.insert(Faults.end(), {"mode", "packing", "transfer limit"});
  for (const Side1 *S : {&From, &To})
    if (S->Format == DistKind::GenBlock && (S->P > 1 || !O.Verify))
      Faults.push_back(S == &From ? "source gen_block sizes"
                                  : "target gen_block sizes");
  if (To.Format == DistKind::Cyclic || To.Format == DistKind::BlockSized)
    Faults.push_back("target block size");
  if (O.Verify &&
      (From.Format == DistKind::Cyclic || From.Format == DistKind::BlockSized))
    Faults.push_back("source block size");
  // Pointers carry no size: only vectors can be too short or too long.
  if (Path == Path1::Redistribute || Path == Path1::Assign)
    Faults.push_back("source buffer size");
  if (Path == Path1::AssignPointers)
    Faults.push_back("null buffer");
  A.Fault = D.pick(Faults);
  // Whether the fault makes the value invalid (else: valid, different).
  const bool MakeInvalid = !O.Verify || D.coin(50);
  const int64_t Amount = D.uniform(1, 3);
  // The invalid values a Distribution factory would throw on this rank
  // alone (a block size of 0, a negative gen_block size) only reach the
  // runtime through the directive API's Target; on the other paths the
  // fault is then a valid, different value, or a sum that is off.
  const bool Directive = Path == Path1::Assign || Path == Path1::AssignPointers;
  std::string What;
  if (A.Fault == "extent") {
    // Different: N + Amount, which stays valid for every format but
    // GEN_BLOCK (sizes that no longer sum to N) and BLOCK(k).
    if (MakeInvalid) {
      MyN = -Amount;
      What = "N = " + std::to_string(-Amount);
      A.Invalid = Mine;
    } else {
      MyN = N + Amount;
      What = "N = " + std::to_string(N + Amount);
      auto Fits = [&](const Side1 &S) {
        return S.Format == DistKind::GenBlock     ? false
               : S.Format == DistKind::BlockSized ? S.K * S.P >= N + Amount
                                                  : true;
      };
      A.Invalid = Mine && (!Fits(From) || !Fits(To));
      A.Different = Mine && !All;
    }
  } else if (A.Fault == "process count") {
    Side1 &S = D.coin(50) ? MyFrom : MyTo;
    const Side1 &Base = &S == &MyFrom ? From : To;
    if (MakeInvalid) {
      // More processes than ranks.
      S.P = Size + Amount;
      if (S.Format == DistKind::GenBlock)
        S.Sizes.resize(static_cast<std::size_t>(S.P), 0);
      What =
          (&S == &MyFrom ? "source P = " : "target P = ") + std::to_string(S.P);
      A.Invalid = Mine;
    } else {
      // Another process count that fits: one more where possible.
      S.P = Base.P < Size ? Base.P + 1 : Base.P - 1;
      if (S.P < 1)
        S.P = 2;
      if (S.Format == DistKind::GenBlock)
        S.Sizes.resize(static_cast<std::size_t>(S.P), 0);
      What =
          (&S == &MyFrom ? "source P = " : "target P = ") + std::to_string(S.P);
      A.Invalid =
          Mine &&
          (S.P > Size || (S.Format == DistKind::BlockSized && S.K * S.P < N) ||
           (S.Format == DistKind::GenBlock &&
            std::accumulate(S.Sizes.begin(), S.Sizes.end(), int64_t(0)) != N));
      A.Different = Mine && !All;
    }
  } else if (A.Fault == "source gen_block sizes" ||
             A.Fault == "target gen_block sizes") {
    const bool Source = A.Fault[0] == 's';
    std::vector<int64_t> &Sizes = Source ? MyFrom.Sizes : MyTo.Sizes;
    const std::size_t I = static_cast<std::size_t>(
        D.uniform(0, static_cast<int64_t>(Sizes.size()) - 1));
    if (MakeInvalid) {
      if (Directive && !Source && D.coin(50)) {
        Sizes[I] = -Amount; // the Target holds the problem
      } else {
        Sizes[I] += Amount; // sums to N + Amount
      }
      A.Invalid = Mine;
    } else {
      // Elements moved from a process that has some to the next: the same
      // sum (nothing to move when N = 0).
      std::size_t Giver = I;
      for (std::size_t K = 0; K < Sizes.size() && Sizes[Giver] == 0; ++K)
        Giver = (Giver + 1) % Sizes.size();
      if (Sizes[Giver] > 0) {
        const int64_t Moved = std::max<int64_t>(1, Sizes[Giver] / 2);
        Sizes[Giver] -= Moved;
        Sizes[(Giver + 1) % Sizes.size()] += Moved;
      }
      A.Different = Mine && !All && Sizes != (Source ? From : To).Sizes;
    }
    What =
        (Source ? "source " : "target ") + (Source ? MyFrom.str() : MyTo.str());
  } else if (A.Fault == "target block size" || A.Fault == "source block size") {
    const bool Source = A.Fault[0] == 's';
    Side1 &S = Source ? MyFrom : MyTo;
    if (MakeInvalid && Directive && !Source && D.coin(50)) {
      S.K = D.coin(50) ? 0 : -Amount;
      A.Invalid = Mine;
    } else if (MakeInvalid && S.Format == DistKind::BlockSized &&
               (N - 1) / S.P >= 1) {
      S.K = (N - 1) / S.P; // BLOCK(k) covers fewer than N
      A.Invalid = Mine;
    } else if (MakeInvalid) {
      S.K = -Amount;
      A.Invalid = Mine;
      if (!Directive || Source) {
        // No runtime call can carry it: change N's sign instead.
        S.K = (Source ? From : To).K;
        MyN = -1;
      }
    } else {
      S.K += Amount;
      A.Different = Mine && !All;
    }
    What = (Source ? "source " : "target ") + S.str() +
           (MyN != N ? ", N = " + std::to_string(MyN) : "");
  } else if (A.Fault == "mode") {
    MyO.Mode = another(allExecModes(), O.Mode, Amount);
    A.Different = Mine && !All;
    What = execModeName(MyO.Mode);
  } else if (A.Fault == "packing") {
    MyO.Pack = another(allPackings(), O.Pack, 1);
    A.Different = Mine && !All;
    What = packingName(MyO.Pack);
  } else if (A.Fault == "transfer limit") {
    MyO.MaxTransferBytes = O.MaxTransferBytes + 8 * Amount;
    A.Different = Mine && !All;
    What = std::to_string(MyO.MaxTransferBytes) + " bytes";
  } else if (A.Fault == "source buffer size") {
    SourceSlack = D.coin(50) ? -1 : Amount;
    What = (SourceSlack < 0 ? "one element short" : "longer by ") +
           (SourceSlack < 0 ? std::string() : std::to_string(SourceSlack));
    // Invalid where the part exists to be short, or is longer.
    A.Invalid = Mine && (SourceSlack > 0 ||
                         (Rank < From.P && localSize(From.value(), N, Rank)));
  } else if (A.Fault == "null buffer") {
    NullSource = D.coin(50);
    NullTarget = !NullSource;
    What = NullSource ? "null source" : "null target";
    const Side1 &S = NullSource ? From : To;
    A.Invalid = Mine && Rank < S.P && localSize(S.value(), N, Rank) > 0;
  }
  A.Verify = O.Verify;
  if (!Mine) {
    MyN = N, MyFrom = From, MyTo = To, MyO = O;
    SourceSlack = 0, NullSource = NullTarget = false;
  }
  const char *PathName[] = {"Plan", "redistribute", "assign", "assign*"};
  A.Desc = "1-D " + From.str() + " -> " + To.str() + " of " +
           std::to_string(N) + ", " + execModeName(O.Mode) + "/" +
           packingName(O.Pack) + (O.Verify ? "" : ", unverified") + ", " +
           PathName[static_cast<int>(Path)] + (Cached ? ", cached" : "") +
           "; " + A.Fault + ": " + What + " on ranks";
  for (int R = 0; R < Size; ++R)
    if (Faulty[static_cast<std::size_t>(R)])
      A.Desc += " " + std::to_string(R);

  // The buffers, made from this rank's parameters where they are valid.
  struct Buffers {
    std::vector<uint64_t> Src, SrcCopy, Dst;
    std::size_t DstSize = 0;
  };
  auto B = std::make_shared<Buffers>();
  {
    std::vector<uint64_t> Src;
    try {
      Src = sourcePart1(MyFrom.value(), MyN);
    } catch (const InvalidArgument &) {
      Src = sourcePart1(From.value(), N);
    }
    if (SourceSlack < 0 && !Src.empty())
      Src.pop_back();
    for (int64_t I = 0; I < SourceSlack; ++I)
      Src.push_back(Guard);
    B->Src = Src;
    B->SrcCopy = Src;
    // The target: the base size plus guards; a vector target of the
    // directive path is resized by it.
    const int64_t DstN = Rank < To.P ? localSize(To.value(), N, Rank) : 0;
    B->DstSize = static_cast<std::size_t>(DstN);
    B->Dst.assign(B->DstSize + 6, Guard);
  }
  const Distribution BaseFrom = From.value(), BaseTo = To.value();
  A.Run = [=] {
    auto Pointer = [](std::vector<uint64_t> &V) {
      return V.empty() ? nullptr : V.data() + 3;
    };
    auto Once = [&](const std::vector<uint64_t> &Source, const Distribution &F,
                    const directive::Target &T, int64_t Extent,
                    const PlanOptions &Opt, bool NullS, bool NullD) {
      switch (Path) {
      case Path1::Plan: {
        Plan Pl(F, T.value("redist-faults"), Extent, 8, Comm, Opt);
        if (static_cast<std::size_t>(Pl.targetLocalSize()) > B->DstSize)
          B->Dst.assign(static_cast<std::size_t>(Pl.targetLocalSize()) + 6,
                        Guard);
        Pl.execute(Source.data(), B->Dst.data() + 3);
        break;
      }
      case Path1::Redistribute: {
        std::vector<uint64_t> Out(B->DstSize, Guard);
        redistribute(Source, Out, F, T.value("redist-faults"), Extent, Comm,
                     Opt);
        B->Dst.assign(3, Guard);
        B->Dst.insert(B->Dst.end(), Out.begin(), Out.end());
        B->Dst.insert(B->Dst.end(), 3, Guard);
        break;
      }
      case Path1::Assign:
      case Path1::AssignPointers: {
        directiveOptions() = Opt;
        const Plan &Pl = directive::dynamicPlan<std::vector<uint64_t>>(
            F, T, Extent, Comm, "auto", "faults.cpp:1",
            Opt.Verify ? Verification::On : Verification::Off);
        if (Path == Path1::Assign) {
          std::vector<uint64_t> Out(B->DstSize, Guard);
          directive::assign(Out, Source, Pl, "faults.cpp:2");
          B->Dst.assign(3, Guard);
          B->Dst.insert(B->Dst.end(), Out.begin(), Out.end());
          B->Dst.insert(B->Dst.end(), 3, Guard);
        } else {
          if (static_cast<std::size_t>(Pl.targetLocalSize()) > B->DstSize)
            B->Dst.assign(static_cast<std::size_t>(Pl.targetLocalSize()) + 6,
                          Guard);
          const uint64_t *S = NullS ? nullptr : Source.data();
          uint64_t *T2 = NullD ? nullptr : Pointer(B->Dst);
          directive::assign(T2, S, Pl, "faults.cpp:2");
        }
        break;
      }
      }
    };
    if (Cached) {
      // The same plan cached with the valid parameters on every rank first.
      Once(sourcePart1(BaseFrom, N), BaseFrom, directive::Target(BaseTo), N, O,
           false, false);
      B->Dst.assign(B->DstSize + 6, Guard);
    }
    Once(B->Src, MyFrom.target().problem() ? BaseFrom : MyFrom.value(),
         MyTo.target(), MyN, MyO, NullSource, NullTarget);
    directiveOptions() = PlanOptions();
  };
  // A rank whose own source part is invalid gets the base one; the source
  // from-side problem is then the N or the size. (MyFrom's problems are all
  // values a factory refuses: never drawn for the source side.)
  A.Check = [=](bool Ran) -> int64_t {
    int64_t Errors = B->Src != B->SrcCopy;
    if (!Ran) {
      for (uint64_t V : B->Dst)
        Errors += V != Guard;
      return Errors + (B->Dst.size() != B->DstSize + 6);
    }
    const Distribution T = MyTo.value();
    const int64_t Want = Rank < T.procs() ? localSize(T, MyN, Rank) : 0;
    if (B->Dst.size() < static_cast<std::size_t>(Want) + 6)
      return Errors + 1;
    for (int64_t L = 0; L < Want; ++L) {
      uint64_t V = 0;
      test::elementValue(globalIndex(T, MyN, Rank, L), 8,
                         reinterpret_cast<unsigned char *>(&V));
      Errors += B->Dst[static_cast<std::size_t>(L) + 3] != V;
    }
    for (std::size_t I = 0; I < 3; ++I)
      Errors += (B->Dst[I] != Guard) + (B->Dst[B->Dst.size() - 1 - I] != Guard);
    return Errors;
  };
  return A;
}

//===-- Matrices ----------------------------------------------------------===//

/// A ScaLAPACK-style side: CYCLIC(MB) x CYCLIC(NB) over P0 x P1 with
/// offsets, a leading dimension, a grid order and the ranks of its
/// processes.
struct SideM {
  int64_t M = 1, N = 1, P0 = 1, P1 = 1, MB = 1, NB = 1, RSrc = 0, CSrc = 0;
  int64_t LD = 0; // the layout's, for every process; 0: tightest
  GridOrder Order = GridOrder::RowMajor;
  StorageOrder Storage = StorageOrder::ColumnMajor;
  std::vector<int> Ranks;
  int64_t LocalLD = 0; // this rank's own, not compared
  Layout2D layout() const {
    return Layout2D(Layout(Distribution::cyclic(P0, MB), M),
                    Layout(Distribution::cyclic(P1, NB), N), Order, RSrc, CSrc,
                    {Storage, LD});
  }
  MatrixSide side() const { return MatrixSide{layout(), Ranks, LocalLD}; }
  std::string str() const {
    return std::to_string(M) + "x" + std::to_string(N) + " on " +
           std::to_string(P0) + "x" + std::to_string(P1) + " cyclic(" +
           std::to_string(MB) + "," + std::to_string(NB) + ")" +
           (RSrc || CSrc ? " src (" + std::to_string(RSrc) + "," +
                               std::to_string(CSrc) + ")"
                         : "") +
           (LD ? " LD " + std::to_string(LD) : "") +
           (Storage == StorageOrder::RowMajor ? " row-major" : "");
  }
};

SideM drawSideM(Draws &D, int64_t M, int64_t N, const std::vector<int> &Perm,
                bool Plain) {
  SideM S;
  S.M = M, S.N = N;
  S.P0 = D.uniform(1, Size);
  S.P1 = D.uniform(1, Size / S.P0);
  S.MB = D.uniform(1, std::max<int64_t>(1, M / 2));
  S.NB = D.uniform(1, std::max<int64_t>(1, N / 2));
  S.Order = D.coin(30) ? GridOrder::ColumnMajor : GridOrder::RowMajor;
  if (Plain) // the directive API's layouts: no offsets, default storage
    return S;
  S.RSrc = D.uniform(0, S.P0 - 1);
  S.CSrc = D.uniform(0, S.P1 - 1);
  S.Storage = D.coin(25) ? StorageOrder::RowMajor : StorageOrder::ColumnMajor;
  if (D.coin(30)) {
    const Layout2D L = S.layout();
    int64_t Need = 1;
    for (int64_t P = 0; P < L.procs(); ++P)
      Need = std::max(Need, L.leadingDim(P));
    S.LD = Need + D.uniform(0, 3);
  }
  S.Ranks.assign(Perm.begin(), Perm.begin() + S.P0 * S.P1);
  return S;
}

int64_t procOf(const SideM &S, const Layout2D &L) {
  if (S.Ranks.empty())
    return Rank < L.procs() ? Rank : -1;
  for (std::size_t I = 0; I < S.Ranks.size(); ++I)
    if (S.Ranks[I] == Rank)
      return static_cast<int64_t>(I);
  return -1;
}

/// Element (I, J)'s value, and what fills the storage around it.
uint64_t valueM(int64_t I, int64_t J) {
  uint64_t V = 0;
  test::elementValue(I * 100003 + J, 8, reinterpret_cast<unsigned char *>(&V));
  return V;
}

/// This rank's storage of S: each offset's global (I, J), or (-1, -1) for
/// padding. Empty where the rank holds no process or a bad value.
std::vector<std::pair<int64_t, int64_t>> storageMap(const SideM &S) {
  std::vector<std::pair<int64_t, int64_t>> Map;
  try {
    const Layout2D L = S.layout();
    const int64_t Id = procOf(S, L);
    if (Id < 0)
      return Map;
    const int64_t LR = L.localRows(Id), LC = L.localCols(Id);
    const int64_t LD = S.LocalLD > 0 ? S.LocalLD : L.leadingDim(Id);
    if (LR == 0 || LC == 0)
      return Map;
    const bool ColMajor = S.Storage == StorageOrder::ColumnMajor;
    const int64_t Slow = ColMajor ? LC : LR, Fast = ColMajor ? LR : LC;
    if (LD < Fast)
      return Map;
    const auto [GR, GC] = L.coordsOf(Id);
    Map.assign(static_cast<std::size_t>((Slow - 1) * LD + Fast), {-1, -1});
    for (int64_t R = 0; R < LR; ++R)
      for (int64_t C = 0; C < LC; ++C)
        Map[static_cast<std::size_t>(ColMajor ? R + C * LD : R * LD + C)] = {
            L.rows().toGlobal(L.rowRankOf(GR), R),
            L.cols().toGlobal(L.colRankOf(GC), C)};
  } catch (const InvalidArgument &) {
    Map.clear();
  }
  return Map;
}

enum class PathM { Plan, Assign, AssignPointers };

Attempt matrix(Draws &D, MPI_Comm Comm) {
  Attempt A;
  const PathM Path = D.pick(
      std::vector<PathM>{PathM::Plan, PathM::Assign, PathM::AssignPointers});
  const bool Plain = Path != PathM::Plan;
  const int64_t M = D.uniform(1, 30), N = D.uniform(1, 30);
  std::vector<int> Perm(static_cast<std::size_t>(Size));
  std::iota(Perm.begin(), Perm.end(), 0);
  for (std::size_t I = Perm.size(); I > 1; --I)
    std::swap(Perm[I - 1], Perm[static_cast<std::size_t>(
                               D.uniform(0, static_cast<int64_t>(I) - 1))]);
  SideM From = drawSideM(D, M, N, Perm, Plain);
  // The target: the same matrix, or (plan path) a region of it into a
  // matrix of another size, sometimes transposed.
  MatrixRegion Region;
  int64_t TM = M, TN = N;
  if (!Plain && D.coin(40)) {
    Region.Rows = D.uniform(1, M);
    Region.Cols = D.uniform(1, N);
    Region.SourceRow = D.uniform(0, M - Region.Rows);
    Region.SourceCol = D.uniform(0, N - Region.Cols);
    Region.Transpose = D.coin(30);
    const int64_t RR = Region.Transpose ? Region.Cols : Region.Rows,
                  RC = Region.Transpose ? Region.Rows : Region.Cols;
    TM = RR + D.uniform(0, 5);
    TN = RC + D.uniform(0, 5);
    Region.TargetRow = D.uniform(0, TM - RR);
    Region.TargetCol = D.uniform(0, TN - RC);
  }
  std::shuffle(Perm.begin(), Perm.end(), std::mt19937(D.uniform(0, 1 << 30)));
  SideM To = drawSideM(D, TM, TN, Perm, Plain);
  PlanOptions O;
  O.Verify = D.coin(75);
  O.Mode = D.pick(allExecModes());
  O.Pack = D.pick(allPackings());
  const std::vector<bool> Faulty = D.ranks();
  const bool All =
      std::all_of(Faulty.begin(), Faulty.end(), [](bool B) { return B; });
  const bool Mine = Faulty[static_cast<std::size_t>(Rank)];

  std::vector<std::string> Faults{"none", "grid extent"};
  if (Path != PathM::AssignPointers)
    Faults.push_back("leading dimension");
  if (O.Verify)
    Faults.insert(Faults.end(), {"extent", "block size", "mode"});
  if (O.Verify && !Plain)
    Faults.insert(Faults.end(), {"source process", "grid ranks"});
  if (O.Verify && Region.Rows > 1)
    Faults.push_back("region rows");
  if (Plain)
    Faults.push_back("target block size 0");
  if (Path == PathM::Assign)
    Faults.push_back("source buffer size");
  if (Path == PathM::AssignPointers)
    Faults.push_back("null buffer");
  A.Fault = D.pick(Faults);
  const bool MakeInvalid = !O.Verify || D.coin(50);
  const int64_t Amount = D.uniform(1, 3);
  const bool OnSource = D.coin(50);
  SideM MyFrom = From, MyTo = To;
  MatrixRegion MyRegion = Region;
  PlanOptions MyO = O;
  int64_t SourceSlack = 0;
  std::optional<int64_t> TargetK;
  bool NullSource = false, NullTarget = false;
  std::string What;
  SideM &S = OnSource ? MyFrom : MyTo;
  const char *SideName = OnSource ? "source " : "target ";
  if (A.Fault == "grid extent") {
    if (MakeInvalid) {
      // More processes than ranks: P0 x P1 above the communicator.
      S.P0 = Size + Amount;
      S.P1 = 1;
      if (!S.Ranks.empty())
        S.Ranks.resize(static_cast<std::size_t>(S.P0), 0);
      S.RSrc = 0, S.CSrc = 0, S.LD = 0;
      A.Invalid = Mine;
    } else {
      // The other grid of the same process count, or one fewer row.
      std::swap(S.P0, S.P1);
      if (S.P0 == S.P1)
        S.P0 = S.P0 > 1 ? S.P0 - 1 : S.P0 + (S.P1 * 2 <= Size);
      if (S.P0 * S.P1 > Size)
        S.P0 = 1;
      S.RSrc = std::min(S.RSrc, S.P0 - 1), S.CSrc = std::min(S.CSrc, S.P1 - 1);
      S.LD = 0;
      if (!S.Ranks.empty())
        S.Ranks.assign(Perm.begin(), Perm.begin() + S.P0 * S.P1);
      const SideM &Base = OnSource ? From : To;
      A.Different = Mine && !All && (S.P0 != Base.P0 || S.P1 != Base.P1);
    }
    What = SideName + std::to_string(S.P0) + "x" + std::to_string(S.P1);
  } else if (A.Fault == "leading dimension") {
    // This rank's own: too small where its part has more than one row
    // (invalid), else padded (valid: never compared).
    const Layout2D L = S.layout();
    const int64_t Id = procOf(S, L);
    const bool ColMajor = S.Storage == StorageOrder::ColumnMajor;
    const int64_t Fast =
        Id < 0 ? 0 : (ColMajor ? L.localRows(Id) : L.localCols(Id));
    const int64_t Slow =
        Id < 0 ? 0 : (ColMajor ? L.localCols(Id) : L.localRows(Id));
    if (Path != PathM::Plan) {
      // The directive API has no per-rank leading dimension: the source
      // vector's size stands in for it.
      SourceSlack = -Amount;
      What = "source storage short by " + std::to_string(Amount);
      A.Invalid = Mine && Id >= 0 && Fast > 0 && Slow > 0 && OnSource;
      if (!OnSource)
        SourceSlack = 0, What = "none (target vectors are resized)";
    } else if (MakeInvalid && Fast >= 2 && Slow >= 1) {
      S.LocalLD = Fast - 1;
      A.Invalid = Mine;
      What = SideName + std::string("local LD ") + std::to_string(S.LocalLD) +
             " (fewer than the local part's)";
    } else {
      S.LocalLD =
          std::max<int64_t>(1, L.leadingDim(std::max<int64_t>(Id, 0))) + Amount;
      What = SideName + std::string("local LD padded by ") +
             std::to_string(Amount);
    }
  } else if (A.Fault == "extent") {
    // A larger matrix: the whole source no longer fits the target; a
    // larger target holds it, a larger source holds a region.
    (D.coin(50) ? S.M : S.N) += Amount;
    A.Different = Mine && !All;
    A.Invalid = Mine && OnSource && Region.Rows < 0;
    What = SideName + std::to_string(S.M) + "x" + std::to_string(S.N);
  } else if (A.Fault == "block size") {
    (D.coin(50) ? S.MB : S.NB) += Amount;
    A.Different = Mine && !All;
    What = SideName + std::string("cyclic(") + std::to_string(S.MB) + "," +
           std::to_string(S.NB) + ")";
  } else if (A.Fault == "source process") {
    if (S.P0 > 1)
      S.RSrc = (S.RSrc + 1) % S.P0;
    else if (S.P1 > 1)
      S.CSrc = (S.CSrc + 1) % S.P1;
    else
      S.M += 1, A.Invalid = Mine && OnSource && Region.Rows < 0;
    A.Different = Mine && !All;
    What = SideName + std::string("source process (") + std::to_string(S.RSrc) +
           "," + std::to_string(S.CSrc) + ")";
  } else if (A.Fault == "grid ranks") {
    if (S.Ranks.size() > 1) {
      std::swap(S.Ranks[0], S.Ranks[1]);
    } else {
      S.Ranks[0] = (S.Ranks[0] + 1) % Size;
    }
    A.Different = Mine && !All;
    What = SideName + std::string("ranks of the grid");
  } else if (A.Fault == "region rows") {
    MyRegion.Rows -= 1;
    A.Different = Mine && !All;
    What = std::to_string(MyRegion.Rows) + " rows";
  } else if (A.Fault == "mode") {
    MyO.Mode = another(allExecModes(), O.Mode, Amount);
    A.Different = Mine && !All;
    What = execModeName(MyO.Mode);
  } else if (A.Fault == "target block size 0") {
    TargetK = D.coin(50) ? 0 : -Amount;
    A.Invalid = Mine;
    What = "target MB = " + std::to_string(*TargetK);
  } else if (A.Fault == "source buffer size") {
    SourceSlack = D.coin(50) ? -1 : Amount;
    What = SourceSlack < 0 ? "one element short" : "longer";
    A.Invalid = Mine && (SourceSlack > 0 || !storageMap(From).empty());
  } else if (A.Fault == "null buffer") {
    NullSource = D.coin(50);
    NullTarget = !NullSource;
    What = NullSource ? "null source" : "null target";
    A.Invalid = Mine && !storageMap(NullSource ? From : To).empty();
  }
  A.Verify = O.Verify;
  if (!Mine) {
    MyFrom = From, MyTo = To, MyRegion = Region, MyO = O;
    SourceSlack = 0, TargetK.reset(), NullSource = NullTarget = false;
  }
  // A Layout2D refuses at once, on this rank alone, a leading dimension
  // its new shape does not fit: a fault must reach the plan, so that one
  // takes the tightest instead (still a different layout).
  for (SideM *Changed : {&MyFrom, &MyTo}) {
    try {
      Changed->layout();
    } catch (const InvalidArgument &) {
      Changed->LD = 0;
    }
  }
  const char *PathName[] = {"MatrixPlan", "assign", "assign*"};
  A.Desc = "matrix " + From.str() + " -> " + To.str() +
           (Region.Rows >= 0 ? " region " + std::to_string(Region.Rows) + "x" +
                                   std::to_string(Region.Cols) +
                                   (Region.Transpose ? " transposed" : "")
                             : "") +
           ", " + execModeName(O.Mode) + "/" + packingName(O.Pack) +
           (O.Verify ? "" : ", unverified") + ", " +
           PathName[static_cast<int>(Path)] + "; " + A.Fault + ": " + What +
           " on ranks";
  for (int R = 0; R < Size; ++R)
    if (Faulty[static_cast<std::size_t>(R)])
      A.Desc += " " + std::to_string(R);

  struct Buffers {
    std::vector<uint64_t> Src, SrcCopy, Dst, DstCopy;
  };
  auto B = std::make_shared<Buffers>();
  const auto SrcMap = storageMap(MyFrom), DstMap = storageMap(MyTo);
  for (const auto &[I, J] : SrcMap)
    B->Src.push_back(I < 0 ? Guard : valueM(I, J));
  if (SourceSlack < 0)
    B->Src.resize(B->Src.size() > static_cast<std::size_t>(-SourceSlack)
                      ? B->Src.size() - static_cast<std::size_t>(-SourceSlack)
                      : 0);
  for (int64_t I = 0; I < SourceSlack; ++I)
    B->Src.push_back(Guard);
  B->SrcCopy = B->Src;
  for (std::size_t O2 = 0; O2 < DstMap.size(); ++O2)
    B->Dst.push_back(Guard ^ O2);
  B->DstCopy = B->Dst;
  A.Run = [=] {
    if (Path == PathM::Plan) {
      MatrixPlan Pl(MyFrom.side(), MyTo.side(), 8, Comm, MyRegion, MyO);
      // The storage must be what the plan touches.
      if (Pl.sourceStorageSize() > static_cast<int64_t>(B->Src.size()) ||
          Pl.targetStorageSize() > static_cast<int64_t>(B->Dst.size()))
        throw std::runtime_error("the plan's storage sizes differ from the "
                                 "test's");
      Pl.execute(B->Src.empty() ? nullptr : B->Src.data(),
                 B->Dst.empty() ? nullptr : B->Dst.data());
      return;
    }
    directiveOptions() = MyO;
    const Layout2D F = MyFrom.layout();
    const directive::MatrixTarget T = directive::matrixTarget(
        directive::target(DistKind::Cyclic, MyTo.P0, TargetK.value_or(MyTo.MB)),
        directive::target(DistKind::Cyclic, MyTo.P1, MyTo.NB), MyTo.M, MyTo.N,
        MyTo.Order);
    const Plan &Pl = directive::dynamicMatrixPlan<std::vector<uint64_t>>(
        F, T, Comm, "auto", "faults.cpp:3",
        MyO.Verify ? Verification::On : Verification::Off);
    directiveOptions() = PlanOptions();
    if (Path == PathM::Assign) {
      std::vector<uint64_t> Out = B->Dst;
      directive::assign(Out, B->Src, Pl, "faults.cpp:4");
      B->Dst = Out;
    } else {
      const uint64_t *Sp =
          NullSource || B->Src.empty() ? nullptr : B->Src.data();
      uint64_t *Dp = NullTarget || B->Dst.empty() ? nullptr : B->Dst.data();
      directive::assign(Dp, Sp, Pl, "faults.cpp:4");
    }
  };
  A.Check = [=](bool Ran) -> int64_t {
    directiveOptions() = PlanOptions();
    int64_t Errors = B->Src != B->SrcCopy;
    if (!Ran)
      return Errors + (B->Dst != B->DstCopy);
    if (B->Dst.size() != DstMap.size())
      return Errors + 1;
    const int64_t RR = MyRegion.Rows < 0 ? MyFrom.M : MyRegion.Rows,
                  RC = MyRegion.Cols < 0 ? MyFrom.N : MyRegion.Cols;
    for (std::size_t Off = 0; Off < DstMap.size(); ++Off) {
      const auto [I, J] = DstMap[Off];
      uint64_t Want = Guard ^ Off;
      if (I >= 0) {
        // Target (I, J) inside the region gets its source element.
        const int64_t DI = I - MyRegion.TargetRow, DJ = J - MyRegion.TargetCol;
        const int64_t Rows = MyRegion.Transpose ? RC : RR,
                      Cols = MyRegion.Transpose ? RR : RC;
        if (DI >= 0 && DI < Rows && DJ >= 0 && DJ < Cols)
          Want = MyRegion.Transpose
                     ? valueM(MyRegion.SourceRow + DJ, MyRegion.SourceCol + DI)
                     : valueM(MyRegion.SourceRow + DI, MyRegion.SourceCol + DJ);
      }
      Errors += B->Dst[Off] != Want;
    }
    return Errors;
  };
  return A;
}

/// The abort mode's case: a 1-D plan, Verify off, cached on every rank
/// with valid values first, then asked for again with an invalid extent on
/// the faulty ranks (redistribute()); or built alike everywhere and given a
/// null buffer by the faulty ranks (Plan::execute). A faulty rank whose
/// value is invalid must end the job.
Attempt abortCase(Draws &D, MPI_Comm Comm) {
  Attempt A;
  const int64_t N = D.uniform(1, 200);
  const Side1 From = drawSide1(D, N), To = drawSide1(D, N);
  PlanOptions O;
  O.Verify = false;
  O.Mode = D.pick(allExecModes());
  const std::vector<bool> Faulty = D.ranks();
  const bool Mine = Faulty[static_cast<std::size_t>(Rank)];
  const bool NullPointer = D.coin(50), NullSource = D.coin(50);
  const Distribution F = From.value(), T = To.value();
  const int64_t SrcN = Rank < F.procs() ? localSize(F, N, Rank) : 0,
                DstN = Rank < T.procs() ? localSize(T, N, Rank) : 0;
  A.Verify = false;
  A.Fault = NullPointer ? (NullSource ? "null source" : "null target")
                        : "extent, cached";
  A.Invalid = Mine && (!NullPointer || (NullSource ? SrcN : DstN) > 0);
  A.Desc = "1-D " + From.str() + " -> " + To.str() + " of " +
           std::to_string(N) + ", " + execModeName(O.Mode) + ", unverified; " +
           A.Fault + " on ranks";
  for (int R = 0; R < Size; ++R)
    if (Faulty[static_cast<std::size_t>(R)])
      A.Desc += " " + std::to_string(R);
  auto Src = std::make_shared<std::vector<uint64_t>>(sourcePart1(F, N));
  auto Dst = std::make_shared<std::vector<uint64_t>>();
  A.Run = [=] {
    if (NullPointer) {
      Plan Pl(F, T, N, 8, Comm, O);
      Dst->assign(static_cast<std::size_t>(DstN), Guard);
      Pl.execute(Mine && NullSource ? nullptr : Src->data(),
                 Mine && !NullSource ? nullptr : Dst->data());
      return;
    }
    redistribute(*Src, *Dst, F, T, N, Comm, O);
    redistribute(*Src, *Dst, F, T, Mine ? -1 : N, Comm, O);
  };
  A.Check = [=](bool Ran) -> int64_t {
    if (!Ran)
      return 1;
    int64_t Errors = static_cast<int64_t>(Dst->size()) != DstN;
    for (int64_t L = 0; L < DstN && !Errors; ++L) {
      uint64_t V = 0;
      test::elementValue(globalIndex(T, N, Rank, L), 8,
                         reinterpret_cast<unsigned char *>(&V));
      Errors += (*Dst)[static_cast<std::size_t>(L)] != V;
    }
    return Errors;
  };
  return A;
}

// One entry per plan kind. N-D arrays (redist::ArrayPlan) go here.
const std::pair<const char *, Kind> Kinds[] = {{"1-D", array1},
                                               {"matrix", matrix}};

/// The error text every rank must share: a Verify mismatch's "; this rank
/// has ..." tail removed, and with NoNumbers the numbers too (and the
/// plural of "elements", which follows them).
uint64_t textHash(std::string Text, bool NoNumbers) {
  const std::size_t Tail = Text.find("; this rank has ");
  if (Tail != std::string::npos)
    Text.resize(Tail);
  for (std::size_t At;
       NoNumbers && (At = Text.find("elements")) != std::string::npos;)
    Text.erase(At + 7, 1);
  uint64_t H = 1469598103934665603ull;
  for (char C : Text) {
    if (NoNumbers && std::isdigit(static_cast<unsigned char>(C)))
      continue;
    H = (H ^ static_cast<unsigned char>(C)) * 1099511628211ull;
  }
  return H;
}

/// One rank's verdict on one draw, gathered on every rank.
struct Verdict {
  int32_t Code; // 0: ran, 1: InvalidArgument, 2: another exception
  int32_t Invalid, Different;
  int32_t Pad;
  uint64_t Hash, HashNoNumbers;
  int64_t Errors;
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (argc < 3 || argc > 4 || Size > 8) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: mpirun -np R redist-faults SEED DRAWS|abort"
                           " [ONLY] (R <= 8)\n");
    MPI_Finalize();
    return 2;
  }
  if (std::strcmp(argv[1], "null") == 0) {
    // The regression case of the abort mode's null buffers: cyclic(4, 3) ->
    // block(4) of 100, rank R alone gives execute() a null source. It must
    // end the job (it used to throw on rank R alone, leaving the others
    // waiting in execute() forever).
    const int R = std::atoi(argv[2]);
    Plan Pl(Distribution::cyclic(Size, 3), Distribution::block(Size), 100, 8,
            MPI_COMM_WORLD);
    std::vector<uint64_t> Src(static_cast<std::size_t>(Pl.sourceLocalSize())),
        Dst(static_cast<std::size_t>(Pl.targetLocalSize()));
    Pl.execute(Rank == R ? nullptr : Src.data(), Dst.data());
    if (Rank == 0)
      std::printf("FAIL: execute() returned\n");
    MPI_Finalize();
    return 1;
  }
  const uint64_t Seed = std::strtoull(argv[1], nullptr, 10);
  const bool AbortMode = std::strcmp(argv[2], "abort") == 0;
  const int64_t Count = AbortMode ? 1 : std::atoll(argv[2]);
  // A third argument runs draw ONLY alone, to look at it (the others are
  // drawn, not run).
  const int64_t Only = argc == 4 ? std::atoll(argv[3]) : -1;
  // The verdicts travel on a communicator no plan uses.
  MPI_Comm Check;
  MPI_Comm_dup(MPI_COMM_WORLD, &Check);
  Draws D(Seed);
  int64_t Failures = 0, Errors = 0, Ran = 0;
  std::map<std::string, std::pair<int64_t, int64_t>> ByFault;
  std::map<std::string, int64_t> ByKind;
  for (int64_t K = 0; K < Count; ++K) {
    const auto &[KindName, Draw] =
        Kinds[D.uniform(0, static_cast<int64_t>(std::size(Kinds)) - 1)];
    MPI_Comm Comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
    Attempt A = AbortMode ? abortCase(D, Comm) : Draw(D, Comm);
    if (Only >= 0 && K != Only) {
      MPI_Comm_free(&Comm);
      continue;
    }
    ++ByKind[AbortMode ? "1-D" : KindName];
    if (Rank == 0) {
      std::printf("draw %lld: %s\n", static_cast<long long>(K), A.Desc.c_str());
      std::fflush(stdout);
    }
    if (AbortMode) {
      // Whether the job must end: some rank's value is invalid.
      int Mine = A.Invalid, Any = 0;
      MPI_Allreduce(&Mine, &Any, 1, MPI_INT, MPI_MAX, Check);
      if (Rank == 0)
        std::printf("expect: %s\n", Any ? "abort" : "data");
      std::fflush(stdout);
      MPI_Barrier(Check);
    }
    Verdict V{};
    std::string Text;
    try {
      A.Run();
    } catch (const InvalidArgument &E) {
      V.Code = 1;
      Text = E.what();
    } catch (const std::exception &E) {
      V.Code = 2;
      Text = E.what();
    }
    V.Errors = A.Check(V.Code == 0);
    V.Invalid = A.Invalid;
    V.Different = A.Different;
    V.Hash = textHash(Text, false);
    V.HashNoNumbers = textHash(Text, true);
    std::vector<Verdict> All(static_cast<std::size_t>(Size));
    MPI_Allgather(&V, sizeof V, MPI_BYTE, All.data(), sizeof V, MPI_BYTE,
                  Check);
    bool AnyInvalid = false, AnyDifferent = false, AllInvalid = true;
    int64_t DrawErrors = 0;
    for (const Verdict &W : All) {
      AnyInvalid |= W.Invalid != 0;
      AllInvalid &= W.Invalid != 0;
      AnyDifferent |= W.Different != 0;
      DrawErrors += W.Errors;
    }
    // In the abort mode a rank's invalid value must have ended the job.
    const bool WantError = AnyInvalid || (A.Verify && AnyDifferent);
    if (AbortMode && AnyInvalid) {
      if (Rank == 0)
        std::printf("FAIL: the job was not aborted\n");
      ++Failures;
    }
    bool Ok = DrawErrors == 0;
    for (const Verdict &W : All) {
      Ok &= W.Code == (WantError ? 1 : 0);
      Ok &= AllInvalid ? W.HashNoNumbers == All[0].HashNoNumbers
                       : W.Hash == All[0].Hash;
    }
    if (!A.Verify && AnyDifferent && !AnyInvalid)
      Ok = false; // never drawn: the draw itself is wrong
    auto &Count2 = ByFault[A.Fault];
    ++(WantError ? Count2.first : Count2.second);
    Ran += !WantError;
    Errors += WantError;
    if (!Ok) {
      ++Failures;
      if (Rank == 0)
        std::printf("FAIL draw %lld: expected %s\n", static_cast<long long>(K),
                    WantError ? "the same error on every rank"
                              : "the data moved");
      std::fflush(stdout);
      MPI_Barrier(Check);
      std::printf("  rank %d: %s%s, %lld element errors\n", Rank,
                  V.Code == 0   ? "ran"
                  : V.Code == 1 ? "InvalidArgument: "
                                : "exception: ",
                  Text.c_str(), static_cast<long long>(V.Errors));
      std::fflush(stdout);
      MPI_Barrier(Check);
    }
    MPI_Comm_free(&Comm);
  }
  if (Rank == 0) {
    std::printf("faults by name (error everywhere / data moved):");
    for (const auto &[Name, C] : ByFault)
      std::printf(" %s %lld/%lld;", Name.c_str(),
                  static_cast<long long>(C.first),
                  static_cast<long long>(C.second));
    std::printf("\nredist-faults: %d ranks, seed %llu: %lld draws (", Size,
                static_cast<unsigned long long>(Seed),
                static_cast<long long>(Count));
    bool First = true;
    for (const auto &[Name, C] : ByKind) {
      std::printf("%s%s %lld", First ? "" : ", ", Name.c_str(),
                  static_cast<long long>(C));
      First = false;
    }
    std::printf("): %lld the same error on every rank, %lld data right, "
                "%lld failures\n",
                static_cast<long long>(Errors), static_cast<long long>(Ran),
                static_cast<long long>(Failures));
  }
  MPI_Comm_free(&Check);
  MPI_Finalize();
  return Failures == 0 ? 0 : 1;
}
