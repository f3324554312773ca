//===- redist-faults.cpp - Random plans with one parameter wrong ----------===//
//
//   mpirun -np R redist-faults SEED DRAWS
//   mpirun -np R redist-faults SEED abort
//   mpirun -np R redist-faults null RANK
//
// A property test. From SEED (the same on every rank) it draws DRAWS random
// redistributions, each of one plan kind (Kinds[] below: 1-D arrays,
// matrices and N-D arrays), with one parameter made wrong or different on a
// random set of ranks: a block size, an extent, gen_block sizes, a grid
// extent, the source buffer's size, a leading dimension or stride, a null
// buffer, an option, the ranks of a grid, the permutation or the section.
// Each draw runs on a fresh duplicate of MPI_COMM_WORLD, through the plan
// API (Plan, MatrixPlan, ArrayPlan), redistribute() or the directive API,
// sometimes after the same plan was cached with the valid parameters. It
// must end either
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
// Plan::execute or ArrayPlan::execute on some ranks. The process then
// either finishes with the error raised on every rank, or the faulty ranks
// print the problem and "aborting the job" and MPI_Abort ends every rank.
// Never a hang (lit's timeout) and never a crash. "null RANK" is the null
// buffer case alone, on rank RANK.
//
// A new plan kind is one more entry in Kinds[]: a function that draws its
// parameters and one fault from the shared generator and returns an
// Attempt.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/ArrayPlan.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/Redistribute.h"
#include "redist/runtime/TranslatedArray.h"

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
    // A larger matrix. A plan's whole source no longer fits the target; a
    // larger target holds it, a larger source holds a region. A directive
    // moves a rank-2 array, whose extents must match on both sides.
    (D.coin(50) ? S.M : S.N) += Amount;
    A.Different = Mine && !All;
    A.Invalid = Mine && (OnSource || Plain) && Region.Rows < 0;
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
    // What a matrix directive's code calls: the rank-2 array's.
    const ArrayLayout F = arrayLayoutOf(MyFrom.layout());
    const directive::ArrayTarget T = directive::arrayTarget(
        {MyTo.M, MyTo.N},
        {directive::format(DistKind::Cyclic, TargetK.value_or(MyTo.MB)),
         directive::format(DistKind::Cyclic, MyTo.NB)},
        {MyTo.P0, MyTo.P1}, MyTo.Order, StorageOrder::ColumnMajor);
    const Plan &Pl = directive::dynamicArrayPlan<std::vector<uint64_t>>(
        F, T, {}, Comm, "auto", "faults.cpp:3",
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

//===-- N-D arrays --------------------------------------------------------===//

/// One dimension's format as its parts, so that a fault can change one.
struct FormatN {
  enum KindN { Star, Block, BlockK, CyclicK, GenBlock } Kind = Star;
  int64_t K = 1;
  std::vector<int64_t> Sizes;
  DimFormat value() const {
    switch (Kind) {
    case Star:
      return DimFormat::collapsed();
    case Block:
      return DimFormat::block();
    case BlockK:
      return DimFormat::block(K);
    case CyclicK:
      return DimFormat::cyclic(K);
    case GenBlock:
      return DimFormat::genBlock(Sizes);
    }
    return DimFormat::collapsed();
  }
};

/// An ArrayPlan side as its parts: extents, formats, arrangement, grid
/// order, first processes, storage order, padding of the layout's strides
/// (none: the tightest of each process) and the ranks of its processes.
struct SideN {
  std::vector<int64_t> Extents;
  std::vector<FormatN> Formats;
  std::vector<int64_t> Grid;
  GridOrder Order = GridOrder::RowMajor;
  std::vector<int64_t> First;
  StorageOrder Storage = StorageOrder::ColumnMajor;
  /// Padding added to each stride of the layout's (every process's), in
  /// storage order; empty: the tightest strides of each process.
  std::vector<int64_t> Pad;
  std::vector<int> Ranks; ///< empty: ranks 0 .. procs - 1

  int rank() const { return static_cast<int>(Extents.size()); }
  int64_t procs() const {
    return std::accumulate(Grid.begin(), Grid.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }
  /// The arrangement extent of array dimension D (1 for *).
  int64_t procsOf(int D) const {
    int G = 0;
    for (int K = 0; K < D; ++K)
      G += Formats[static_cast<std::size_t>(K)].Kind != FormatN::Star;
    return Formats[static_cast<std::size_t>(D)].Kind == FormatN::Star
               ? 1
               : Grid[static_cast<std::size_t>(G)];
  }
  /// Dimensions in storage order, fastest first.
  std::vector<int> fastestFirst() const {
    std::vector<int> Dims(static_cast<std::size_t>(rank()));
    std::iota(Dims.begin(), Dims.end(), 0);
    if (Storage == StorageOrder::RowMajor)
      std::reverse(Dims.begin(), Dims.end());
    return Dims;
  }
  /// Makes every format fit its extent and arrangement extent (after a
  /// fault changed one): BLOCK(k) covers the extent, GEN_BLOCK has one size
  /// per process summing to the extent, offsets lie in the arrangement.
  void fit() {
    for (int D = 0; D < rank(); ++D) {
      FormatN &F = Formats[static_cast<std::size_t>(D)];
      const int64_t N = Extents[static_cast<std::size_t>(D)], P = procsOf(D);
      int64_t &S = First[static_cast<std::size_t>(D)];
      S = std::min(S, P - 1);
      if (F.Kind == FormatN::BlockK)
        F.K = std::max({F.K, (N + P - 1) / P, int64_t(1)});
      if (F.Kind != FormatN::GenBlock)
        continue;
      while (static_cast<int64_t>(F.Sizes.size()) > P) {
        const int64_t Last = F.Sizes.back();
        F.Sizes.pop_back();
        F.Sizes.back() += Last;
      }
      F.Sizes.resize(static_cast<std::size_t>(P), 0);
      int64_t Off =
          std::accumulate(F.Sizes.begin(), F.Sizes.end(), int64_t(0)) - N;
      for (std::size_t I = F.Sizes.size(); I-- > 0 && Off != 0;) {
        const int64_t Take = std::min(F.Sizes[I], Off);
        F.Sizes[I] -= Take; // Off < 0: adds -Off to the last size
        Off -= Take;
      }
    }
  }
  ArrayLayout layout() const {
    std::vector<DimFormat> Fs;
    for (const FormatN &F : Formats)
      Fs.push_back(F.value());
    ArrayStorage St{Storage, {}};
    if (!Pad.empty()) {
      // Every process's strides: each dimension's largest local part,
      // padded.
      const ArrayLayout Tight(Extents, Fs, Grid, Order, First, St);
      St.Strides.assign(static_cast<std::size_t>(rank()), 0);
      int64_t Stride = 1;
      for (int D : fastestFirst()) {
        Stride += Pad[static_cast<std::size_t>(D)];
        St.Strides[static_cast<std::size_t>(D)] = Stride;
        Stride *= std::max<int64_t>(1, Tight.dim(D).maxLocalSize());
      }
    }
    return ArrayLayout(Extents, Fs, Grid, Order, First, St);
  }
  int64_t procOfRank() const {
    if (Ranks.empty())
      return Rank < procs() ? Rank : -1;
    auto It = std::find(Ranks.begin(), Ranks.end(), Rank);
    return It == Ranks.end() ? -1 : It - Ranks.begin();
  }
  std::string str() const {
    std::string S = layout().str();
    if (!Pad.empty())
      S += ", padded";
    if (!Ranks.empty()) {
      S += ", ranks";
      for (int R : Ranks)
        S += " " + std::to_string(R);
    }
    return S;
  }
};

std::vector<int> drawPermutation(Draws &D, int N) {
  std::vector<int> P(static_cast<std::size_t>(N));
  std::iota(P.begin(), P.end(), 0);
  for (std::size_t I = P.size(); I > 1; --I)
    std::swap(
        P[I - 1],
        P[static_cast<std::size_t>(D.uniform(0, static_cast<int64_t>(I) - 1))]);
  return P;
}

SideN drawSideN(Draws &D, const std::vector<int64_t> &Extents) {
  SideN S;
  S.Extents = Extents;
  const int Dims = S.rank();
  // The distributed dimensions: G of them, an arrangement of rank G.
  const int G = static_cast<int>(D.uniform(0, std::min(Dims, 3)));
  std::vector<int> Spread = drawPermutation(D, Dims);
  Spread.resize(static_cast<std::size_t>(G));
  std::sort(Spread.begin(), Spread.end());
  int64_t Procs = 1;
  for (int K = 0; K < G; ++K) {
    S.Grid.push_back(D.uniform(1, Size / Procs));
    Procs *= S.Grid.back();
  }
  S.Formats.resize(static_cast<std::size_t>(Dims));
  S.First.assign(static_cast<std::size_t>(Dims), 0);
  for (int K = 0, J = 0; K < Dims; ++K) {
    if (J >= G || Spread[static_cast<std::size_t>(J)] != K)
      continue;
    const int64_t N = Extents[static_cast<std::size_t>(K)],
                  P = S.Grid[static_cast<std::size_t>(J++)];
    FormatN &F = S.Formats[static_cast<std::size_t>(K)];
    F.Kind = static_cast<FormatN::KindN>(D.uniform(1, 4));
    if (F.Kind == FormatN::BlockK)
      F.K = std::max<int64_t>(1, (N + P - 1) / P + D.uniform(0, 2));
    if (F.Kind == FormatN::CyclicK)
      F.K = D.coin(50) ? 1 : D.uniform(1, std::max<int64_t>(1, N / 2));
    if (F.Kind == FormatN::GenBlock) {
      std::vector<int64_t> Cuts{0, N};
      for (int64_t I = 1; I < P; ++I)
        Cuts.push_back(D.uniform(0, N));
      std::sort(Cuts.begin(), Cuts.end());
      for (std::size_t I = 1; I < Cuts.size(); ++I)
        F.Sizes.push_back(Cuts[I] - Cuts[I - 1]);
    }
    if (D.coin(40))
      S.First[static_cast<std::size_t>(K)] = D.uniform(0, P - 1);
  }
  S.Order = D.coin(30) ? GridOrder::ColumnMajor : GridOrder::RowMajor;
  S.Storage = D.coin(50) ? StorageOrder::RowMajor : StorageOrder::ColumnMajor;
  if (D.coin(30))
    for (int K = 0; K < Dims; ++K)
      S.Pad.push_back(D.uniform(0, 2));
  if (D.coin(50)) {
    std::vector<int> Perm = drawPermutation(D, Size);
    S.Ranks.assign(Perm.begin(), Perm.begin() + Procs);
  }
  return S;
}

/// The whole source, unpermuted, when Section is false; else the section
/// SourceBegin + [0, Extents) (source axes) into TargetBegin (target axes)
/// of target axis K = source axis Perm[K].
struct RegionN {
  std::vector<int> Perm;
  bool Section = false;
  std::vector<int64_t> Extents, SourceBegin, TargetBegin;
  ArrayRegion value() const {
    ArrayRegion R;
    R.Permutation = Perm;
    if (Section)
      R.Extents = Extents, R.SourceBegin = SourceBegin,
      R.TargetBegin = TargetBegin;
    return R;
  }
  /// Whether the region fits From's and To's extents (resolveRegion's
  /// rules, written out again: the test's own oracle).
  bool fits(const SideN &From, const SideN &To) const {
    const std::size_t N = From.Extents.size();
    std::vector<bool> Seen(N, false);
    if (Perm.size() != N)
      return false;
    for (int A : Perm) {
      if (A < 0 || A >= static_cast<int>(N) ||
          Seen[static_cast<std::size_t>(A)])
        return false;
      Seen[static_cast<std::size_t>(A)] = true;
    }
    for (std::size_t T = 0; T < N; ++T) {
      const std::size_t A = static_cast<std::size_t>(Perm[T]);
      if (!Section) {
        if (To.Extents[T] != From.Extents[A])
          return false;
        continue;
      }
      if (SourceBegin[A] < 0 || Extents[A] < 0 ||
          SourceBegin[A] + Extents[A] > From.Extents[A] || TargetBegin[T] < 0 ||
          TargetBegin[T] + Extents[A] > To.Extents[T])
        return false;
    }
    return true;
  }
  std::string str() const {
    std::string S;
    auto List = [](const auto &V) {
      std::string L;
      for (auto X : V)
        L += (L.empty() ? "" : ",") + std::to_string(X);
      return "(" + L + ")";
    };
    bool Identity = true;
    for (std::size_t K = 0; K < Perm.size(); ++K)
      Identity &= Perm[K] == static_cast<int>(K);
    if (!Identity)
      S += " permuted " + List(Perm);
    if (Section)
      S += " section " + List(Extents) + " from " + List(SourceBegin) + " to " +
           List(TargetBegin);
    return S;
  }
};

/// An N-D element's value: its source index, hashed.
uint64_t valueN(const std::vector<int64_t> &Index) {
  int64_t G = 0;
  for (int64_t I : Index)
    G = G * 1009 + I;
  uint64_t V = 0;
  test::elementValue(G, 8, reinterpret_cast<unsigned char *>(&V));
  return V;
}

/// Calls F(Index) for every index of an array of Extents.
template <typename Fn>
void forEachIndex(const std::vector<int64_t> &Extents, Fn F) {
  for (int64_t E : Extents)
    if (E == 0)
      return;
  std::vector<int64_t> I(Extents.size(), 0);
  while (true) {
    F(I);
    std::size_t K = I.size();
    while (K > 0) {
      --K;
      if (++I[K] < Extents[K])
        break;
      I[K] = 0;
      if (K == 0)
        return;
    }
  }
}

/// Where this rank keeps its part of a side: its process (-1: none), the
/// strides and the storage size, which the test works out itself.
struct PlaceN {
  int64_t Proc = -1;
  std::vector<int64_t> Strides;
  int64_t Storage = 0;
};

PlaceN placeOf(const SideN &S, const ArrayLayout &L,
               const std::vector<int64_t> &LocalStrides) {
  PlaceN P;
  P.Proc = S.procOfRank();
  if (P.Proc < 0 || P.Proc >= L.procs())
    return P.Proc = -1, P;
  P.Strides = LocalStrides.empty() ? L.strides(P.Proc) : LocalStrides;
  P.Storage = 1;
  for (int D = 0; D < L.rank(); ++D) {
    const int64_t E = L.localExtent(P.Proc, D);
    if (E == 0)
      return P.Storage = 0, P;
    P.Storage += (E - 1) * P.Strides[static_cast<std::size_t>(D)];
  }
  return P;
}

/// The offset of global Index in this rank's storage (Place), or -1 when
/// another process holds it.
int64_t offsetOf(const ArrayLayout &L, const PlaceN &Place,
                 const std::vector<int64_t> &Index) {
  if (L.toLocal(Index).Proc != Place.Proc)
    return -1;
  int64_t Off = 0;
  for (int D = 0; D < L.rank(); ++D)
    Off += L.dim(D).toLocal(Index[static_cast<std::size_t>(D)]) *
           Place.Strides[static_cast<std::size_t>(D)];
  return Off;
}

/// This rank's own strides of its process of S: the tightest, padded by
/// Amount per dimension, or (Invalid) with the second fastest stride one
/// below the fastest dimension's local extent. Empty where the rank holds
/// no process, or Invalid cannot be made.
std::vector<int64_t> localStridesN(const SideN &S, const ArrayLayout &L,
                                   bool Invalid, int64_t Amount) {
  const int64_t Proc = S.procOfRank();
  if (Proc < 0 || Proc >= L.procs())
    return {};
  const std::vector<int> Order = S.fastestFirst();
  const std::vector<int64_t> E = L.localExtents(Proc);
  const int64_t Fast = E[static_cast<std::size_t>(Order[0])];
  if (Invalid &&
      (Order.size() < 2 || Fast < 3 || std::count(E.begin(), E.end(), 0) > 0))
    return {};
  std::vector<int64_t> Strides(E.size());
  int64_t Stride = 1;
  for (std::size_t J = 0; J < Order.size(); ++J) {
    const std::size_t D = static_cast<std::size_t>(Order[J]);
    Strides[D] = Stride;
    Stride = Stride * std::max<int64_t>(1, E[D]) + Amount;
    if (Invalid && J == 0)
      Stride = Fast - 1;
  }
  return Strides;
}

/// Sets A's Run and Check: an ArrayPlan with this rank's parameters (its
/// own strides, empty for the layout's; null buffers as given), every
/// element of its storage checked.
void bindN(Attempt &A, const SideN &MyFrom, const SideN &MyTo,
           const RegionN &MyRegion, const PlanOptions &MyO,
           const std::vector<int64_t> &LocalFrom,
           const std::vector<int64_t> &LocalTo, bool NullSource,
           bool NullTarget, MPI_Comm Comm) {
  const ArrayLayout FL = MyFrom.layout(), TL = MyTo.layout();
  const PlaceN SrcPlace = placeOf(MyFrom, FL, LocalFrom),
               DstPlace = placeOf(MyTo, TL, LocalTo);
  // The storage: three guards either side, padding filled too.
  struct Buffers {
    std::vector<uint64_t> Src, SrcCopy, Dst, DstCopy;
  };
  auto B = std::make_shared<Buffers>();
  B->Src.assign(static_cast<std::size_t>(SrcPlace.Storage) + 6, Guard);
  for (std::size_t I = 0; I < B->Src.size(); ++I)
    B->Src[I] ^= I;
  if (SrcPlace.Proc >= 0)
    forEachIndex(MyFrom.Extents, [&](const std::vector<int64_t> &I) {
      const int64_t Off = offsetOf(FL, SrcPlace, I);
      if (Off >= 0)
        B->Src[static_cast<std::size_t>(Off) + 3] = valueN(I);
    });
  B->SrcCopy = B->Src;
  B->Dst.assign(static_cast<std::size_t>(DstPlace.Storage) + 6, Guard);
  for (std::size_t I = 0; I < B->Dst.size(); ++I)
    B->Dst[I] ^= I * 7;
  B->DstCopy = B->Dst;
  A.Run = [=] {
    ArrayPlan Pl({FL, MyFrom.Ranks, LocalFrom}, {TL, MyTo.Ranks, LocalTo}, 8,
                 Comm, MyRegion.value(), MyO);
    // The storage must be what the plan touches.
    if (Pl.sourceStorageSize() != SrcPlace.Storage ||
        Pl.targetStorageSize() != DstPlace.Storage)
      throw std::runtime_error(
          "the plan's storage sizes " + std::to_string(Pl.sourceStorageSize()) +
          ", " + std::to_string(Pl.targetStorageSize()) +
          " differ from the test's " + std::to_string(SrcPlace.Storage) + ", " +
          std::to_string(DstPlace.Storage));
    Pl.execute(NullSource ? nullptr : B->Src.data() + 3,
               NullTarget ? nullptr : B->Dst.data() + 3);
  };
  A.Check = [=](bool Ran) -> int64_t {
    int64_t Errors = B->Src != B->SrcCopy;
    if (!Ran)
      return Errors + (B->Dst != B->DstCopy);
    // Every target element: its source element inside the section, else
    // untouched; padding and guards untouched.
    std::vector<uint64_t> Want = B->DstCopy;
    if (DstPlace.Proc >= 0) {
      // The region resolved: the whole source, or the section.
      const std::size_t N = MyFrom.Extents.size();
      const std::vector<int64_t> Ext =
          MyRegion.Section ? MyRegion.Extents : MyFrom.Extents;
      const std::vector<int64_t> SB =
          MyRegion.Section ? MyRegion.SourceBegin : std::vector<int64_t>(N, 0);
      const std::vector<int64_t> TB =
          MyRegion.Section ? MyRegion.TargetBegin : std::vector<int64_t>(N, 0);
      forEachIndex(MyTo.Extents, [&](const std::vector<int64_t> &T) {
        const int64_t Off = offsetOf(TL, DstPlace, T);
        if (Off < 0)
          return;
        std::vector<int64_t> Source(T.size());
        for (std::size_t K = 0; K < T.size(); ++K) {
          const std::size_t Axis = static_cast<std::size_t>(MyRegion.Perm[K]);
          const int64_t In = T[K] - TB[K];
          if (In < 0 || In >= Ext[Axis])
            return;
          Source[Axis] = SB[Axis] + In;
        }
        Want[static_cast<std::size_t>(Off) + 3] = valueN(Source);
      });
    }
    for (std::size_t I = 0; I < Want.size(); ++I)
      Errors += B->Dst[I] != Want[I];
    return Errors;
  };
}

/// A random N-D move: the source (rank 1 to 4), the region (sometimes
/// permuted, sometimes a section) and the target.
void drawProblemN(Draws &D, SideN &From, RegionN &Region, SideN &To) {
  const int Dims = static_cast<int>(D.uniform(1, 4));
  const int64_t MaxExtent[] = {0, 40, 12, 7, 5};
  std::vector<int64_t> Extents;
  for (int K = 0; K < Dims; ++K)
    Extents.push_back(D.coin(5) ? 0 : D.uniform(1, MaxExtent[Dims]));
  From = drawSideN(D, Extents);
  Region.Perm.resize(static_cast<std::size_t>(Dims));
  std::iota(Region.Perm.begin(), Region.Perm.end(), 0);
  if (Dims > 1 && D.coin(40))
    Region.Perm = drawPermutation(D, Dims);
  std::vector<int64_t> TargetExtents(static_cast<std::size_t>(Dims));
  Region.Section = D.coin(40);
  for (int K = 0; K < Dims && Region.Section; ++K) {
    const int64_t N = Extents[static_cast<std::size_t>(K)];
    Region.Extents.push_back(D.uniform(0, N));
    Region.SourceBegin.push_back(D.uniform(0, N - Region.Extents.back()));
  }
  for (int T = 0; T < Dims; ++T) {
    const std::size_t S = static_cast<std::size_t>(Region.Perm[T]);
    TargetExtents[static_cast<std::size_t>(T)] =
        Region.Section ? Region.Extents[S] + D.uniform(0, 3) : Extents[S];
  }
  for (int T = 0; T < Dims && Region.Section; ++T)
    Region.TargetBegin.push_back(D.uniform(
        0, TargetExtents[static_cast<std::size_t>(T)] -
               Region.Extents[static_cast<std::size_t>(Region.Perm[T])]));
  To = drawSideN(D, TargetExtents);
}

Attempt arrayN(Draws &D, MPI_Comm Comm) {
  Attempt A;
  SideN From, To;
  RegionN Region;
  drawProblemN(D, From, Region, To);
  const int Dims = From.rank();
  PlanOptions O;
  O.Verify = D.coin(75);
  O.Mode = D.pick(allExecModes());
  O.Pack = D.pick(allPackings());
  if (D.coin(20))
    O.MaxTransferBytes = 8 * D.uniform(1, 16);
  const std::vector<bool> Faulty = D.ranks();
  const bool All =
      std::all_of(Faulty.begin(), Faulty.end(), [](bool B) { return B; });
  const bool Mine = Faulty[static_cast<std::size_t>(Rank)];

  // The faults that apply; those that only make a value different need
  // Verify. Each is drawn alike on every rank (FaultFrom, FaultTo,
  // FaultRegion), and taken by the faulty ranks; the local strides and
  // null buffers depend on the rank's own part.
  const bool OnSource = D.coin(50);
  const SideN &Base = OnSource ? From : To;
  std::vector<std::string> Faults{"none",  "extent",        "section",
                                  "ranks", "local strides", "null buffer"};
  if (!Base.Grid.empty())
    Faults.push_back("grid extent");
  if (Dims > 1)
    Faults.push_back("permutation");
  std::vector<int> Sized, GenBlocks, Offsets;
  for (int K = 0; K < Dims; ++K) {
    const FormatN &F = Base.Formats[static_cast<std::size_t>(K)];
    if (F.Kind == FormatN::BlockK || F.Kind == FormatN::CyclicK)
      Sized.push_back(K);
    if (F.Kind == FormatN::GenBlock && Base.procsOf(K) > 1)
      GenBlocks.push_back(K);
    if (F.Kind != FormatN::Star && Base.procsOf(K) > 1)
      Offsets.push_back(K);
  }
  if (!GenBlocks.empty() && (O.Verify || !Region.Section))
    Faults.push_back("gen_block sizes");
  if (O.Verify) {
    Faults.push_back("mode");
    if (!Sized.empty())
      Faults.push_back("block size");
    if (!Offsets.empty())
      Faults.push_back("first process");
  }
  A.Fault = D.pick(Faults);
  const bool MakeInvalid = !O.Verify || D.coin(50);
  const int64_t Amount = D.uniform(1, 3);
  SideN FaultFrom = From, FaultTo = To;
  RegionN FaultRegion = Region;
  PlanOptions FaultO = O;
  SideN &S = OnSource ? FaultFrom : FaultTo;
  const std::string SideName = OnSource ? "source " : "target ";
  std::string What;
  // Whether the faulty value is invalid whatever the other ranks have; a
  // valid one differs from the others' unless every rank has it.
  bool Invalid = false;
  bool NullSource = false, NullTarget = false;
  const int Dim = static_cast<int>(D.uniform(0, Dims - 1));
  const std::size_t DimI = static_cast<std::size_t>(Dim);
  if (A.Fault == "extent") {
    // Changed on one side: whole arrays then differ (invalid); a section
    // may still fit, or (MakeInvalid) the extent ends inside it.
    int64_t &N = S.Extents[DimI];
    if (Region.Section && MakeInvalid) {
      const std::size_t Axis =
          OnSource ? DimI : static_cast<std::size_t>(Region.Perm[DimI]);
      const int64_t End =
          Region.Extents[Axis] +
          (OnSource ? Region.SourceBegin[Axis] : Region.TargetBegin[DimI]);
      N = End > 0 ? End - 1 : N + Amount;
    } else {
      N = D.coin(50) || N < Amount ? N + Amount : N - Amount;
    }
    S.fit();
    What = SideName + "dimension " + std::to_string(Dim) + " extent " +
           std::to_string(N);
  } else if (A.Fault == "grid extent") {
    if (MakeInvalid) {
      S.Grid[0] = Size + Amount; // more processes than ranks
      S.Ranks.clear();
      Invalid = true;
    } else {
      // Another arrangement that fits the communicator.
      if (S.Grid.size() > 1 && S.Grid.front() != S.Grid.back())
        std::swap(S.Grid.front(), S.Grid.back());
      else if (S.Grid[0] > 1)
        S.Grid[0] -= 1;
      else
        S.Grid[0] = S.procs() * 2 <= Size ? 2 : Size + Amount;
      Invalid = S.procs() > Size;
      if (!S.Ranks.empty() && !Invalid) {
        std::vector<int> Perm = drawPermutation(D, Size);
        S.Ranks.assign(Perm.begin(), Perm.begin() + S.procs());
      } else {
        S.Ranks.clear();
      }
    }
    S.fit();
    What = SideName + "arrangement";
    for (int64_t P : S.Grid)
      What += " " + std::to_string(P);
  } else if (A.Fault == "gen_block sizes") {
    const int K = GenBlocks[static_cast<std::size_t>(
        D.uniform(0, static_cast<int64_t>(GenBlocks.size()) - 1))];
    std::vector<int64_t> &Sizes = S.Formats[static_cast<std::size_t>(K)].Sizes;
    if (MakeInvalid && !Region.Section) {
      // Sizes summing to more, and the extent with them: the whole
      // arrays' extents then differ.
      Sizes.back() += Amount;
      S.Extents[static_cast<std::size_t>(K)] += Amount;
    } else {
      // Elements moved from one process to the next: the same sum.
      std::size_t Giver = static_cast<std::size_t>(
          D.uniform(0, static_cast<int64_t>(Sizes.size()) - 1));
      for (std::size_t I = 0; I < Sizes.size() && Sizes[Giver] == 0; ++I)
        Giver = (Giver + 1) % Sizes.size();
      if (Sizes[Giver] > 0) {
        const int64_t Moved = std::max<int64_t>(1, Sizes[Giver] / 2);
        Sizes[Giver] -= Moved;
        Sizes[(Giver + 1) % Sizes.size()] += Moved;
      }
    }
    What = SideName + "dimension " + std::to_string(K) + " " +
           S.Formats[static_cast<std::size_t>(K)].value().str();
  } else if (A.Fault == "block size") {
    const int K = Sized[static_cast<std::size_t>(
        D.uniform(0, static_cast<int64_t>(Sized.size()) - 1))];
    S.Formats[static_cast<std::size_t>(K)].K += Amount;
    What = SideName + "dimension " + std::to_string(K) + " " +
           S.Formats[static_cast<std::size_t>(K)].value().str();
  } else if (A.Fault == "first process") {
    const int K = Offsets[static_cast<std::size_t>(
        D.uniform(0, static_cast<int64_t>(Offsets.size()) - 1))];
    int64_t &F = S.First[static_cast<std::size_t>(K)];
    F = (F + 1) % S.procsOf(K);
    What = SideName + "dimension " + std::to_string(K) + " first process " +
           std::to_string(F);
  } else if (A.Fault == "permutation") {
    std::vector<int> &P = FaultRegion.Perm;
    const std::size_t I = static_cast<std::size_t>(D.uniform(0, Dims - 2));
    if (MakeInvalid)
      P[I] = P[I + 1]; // listed twice
    else
      std::swap(P[I], P[I + 1]);
    What = "permutation" + FaultRegion.str();
  } else if (A.Fault == "section") {
    RegionN &R = FaultRegion;
    if (!R.Section) {
      // A section of the whole: one source axis one longer (invalid) or
      // shorter.
      R.Section = true;
      R.Extents = From.Extents;
      R.SourceBegin.assign(static_cast<std::size_t>(Dims), 0);
      R.TargetBegin.assign(static_cast<std::size_t>(Dims), 0);
      if (MakeInvalid || R.Extents[DimI] == 0)
        R.Extents[DimI] += Amount;
      else
        R.Extents[DimI] -= 1;
    } else if (MakeInvalid) {
      R.SourceBegin[DimI] = From.Extents[DimI] - R.Extents[DimI] + Amount;
    } else {
      R.Extents[DimI] = std::max<int64_t>(0, R.Extents[DimI] - 1);
    }
    What = "section" + R.str();
  } else if (A.Fault == "ranks") {
    if (S.Ranks.empty()) {
      S.Ranks.resize(static_cast<std::size_t>(S.procs()));
      std::iota(S.Ranks.begin(), S.Ranks.end(), 0);
    }
    const std::size_t I = static_cast<std::size_t>(
        D.uniform(0, static_cast<int64_t>(S.Ranks.size()) - 1));
    Invalid = MakeInvalid;
    if (MakeInvalid && (S.Ranks.size() < 2 || D.coin(50))) {
      S.Ranks[I] = Size + static_cast<int>(Amount) - 1; // beyond the ranks
    } else if (MakeInvalid) {
      S.Ranks[I] = S.Ranks[(I + 1) % S.Ranks.size()]; // two processes
    } else if (S.Ranks.size() > 1) {
      std::swap(S.Ranks.front(), S.Ranks.back());
    } else {
      S.Ranks[0] = (S.Ranks[0] + 1) % Size;
    }
    What = SideName + "ranks";
    for (int R : S.Ranks)
      What += " " + std::to_string(R);
  } else if (A.Fault == "mode") {
    FaultO.Mode = another(allExecModes(), O.Mode, Amount);
    What = execModeName(FaultO.Mode);
  } else if (A.Fault == "null buffer") {
    NullSource = D.coin(50);
    NullTarget = !NullSource;
    What = NullSource ? "null source where it is empty"
                      : "null target where it is empty";
  } else if (A.Fault == "local strides") {
    What = SideName + (MakeInvalid
                           ? "strides too small where they can be"
                           : "strides padded by " + std::to_string(Amount));
  }
  // A fault whose layouts cannot be made (never meant to happen) is none.
  try {
    FaultFrom.layout();
    FaultTo.layout();
  } catch (const InvalidArgument &E) {
    A.Fault = "none";
    What = std::string("(dropped: ") + E.what() + ")";
    FaultFrom = From, FaultTo = To, FaultRegion = Region;
    Invalid = false;
  }
  if (!FaultRegion.fits(FaultFrom, FaultTo))
    Invalid = true;
  bool Changed = FaultFrom.str() != From.str() || FaultTo.str() != To.str() ||
                 FaultRegion.str() != Region.str() || FaultO.Mode != O.Mode;
  if (!O.Verify && !Invalid && Changed) {
    // Valid but different, which only Verify makes safe: not drawn.
    A.Fault = "none";
    What += " (dropped: valid, and Verify is off)";
    FaultFrom = From, FaultTo = To, FaultRegion = Region;
    Changed = false;
  }
  A.Verify = O.Verify;
  A.Invalid = Mine && Invalid;
  A.Different = Mine && !All && !Invalid && Changed;
  const SideN MyFrom = Mine ? FaultFrom : From, MyTo = Mine ? FaultTo : To;
  const RegionN MyRegion = Mine ? FaultRegion : Region;
  const PlanOptions MyO = Mine ? FaultO : O;
  const ArrayLayout FL = MyFrom.layout(), TL = MyTo.layout();
  // The rank's own strides, a fault where Mine.
  std::vector<int64_t> LocalFrom, LocalTo;
  if (A.Fault == "local strides" && Mine) {
    std::vector<int64_t> &Local = OnSource ? LocalFrom : LocalTo;
    const ArrayLayout &L = OnSource ? FL : TL;
    if (MakeInvalid)
      Local = localStridesN(OnSource ? MyFrom : MyTo, L, true, 0);
    A.Invalid = !Local.empty();
    if (Local.empty())
      Local = localStridesN(OnSource ? MyFrom : MyTo, L, false, Amount);
  }
  const PlaceN SrcPlace = placeOf(MyFrom, FL, LocalFrom),
               DstPlace = placeOf(MyTo, TL, LocalTo);
  NullSource = NullSource && Mine && SrcPlace.Storage == 0;
  NullTarget = NullTarget && Mine && DstPlace.Storage == 0;

  A.Desc = "N-D " + From.str() + " -> " + To.str() + Region.str() + ", " +
           execModeName(O.Mode) + "/" + packingName(O.Pack) +
           (O.Verify ? "" : ", unverified") + "; " + A.Fault + ": " + What +
           " on ranks";
  for (int R = 0; R < Size; ++R)
    if (Faulty[static_cast<std::size_t>(R)])
      A.Desc += " " + std::to_string(R);

  bindN(A, MyFrom, MyTo, MyRegion, MyO, LocalFrom, LocalTo, NullSource,
        NullTarget, Comm);
  return A;
}

/// The abort mode's N-D case: an ArrayPlan built alike everywhere and given
/// a null buffer by the faulty ranks (ArrayPlan::execute checks as
/// Plan::execute does). A faulty rank whose part is not empty must end the
/// job.
Attempt abortN(Draws &D, MPI_Comm Comm) {
  Attempt A;
  SideN From, To;
  RegionN Region;
  drawProblemN(D, From, Region, To);
  PlanOptions O;
  O.Verify = D.coin(50);
  O.Mode = D.pick(allExecModes());
  const std::vector<bool> Faulty = D.ranks();
  const bool Mine = Faulty[static_cast<std::size_t>(Rank)];
  const bool NullSource = D.coin(50);
  const SideN &S = NullSource ? From : To;
  A.Verify = O.Verify;
  A.Fault = NullSource ? "null source" : "null target";
  A.Invalid = Mine && placeOf(S, S.layout(), {}).Storage > 0;
  A.Desc = "N-D " + From.str() + " -> " + To.str() + Region.str() + ", " +
           execModeName(O.Mode) + "; " + A.Fault + " on ranks";
  for (int R = 0; R < Size; ++R)
    if (Faulty[static_cast<std::size_t>(R)])
      A.Desc += " " + std::to_string(R);
  bindN(A, From, To, Region, O, {}, {}, Mine && NullSource, Mine && !NullSource,
        Comm);
  return A;
}

/// The abort mode's case: a 1-D plan, Verify off, cached on every rank
/// with valid values first, then asked for again with an invalid extent on
/// the faulty ranks (redistribute()); or built alike everywhere and given a
/// null buffer by the faulty ranks (Plan::execute). A faulty rank whose
/// value is invalid must end the job.
Attempt abortCase(Draws &D, MPI_Comm Comm) {
  if (D.coin(30))
    return abortN(D, Comm);
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

// One entry per plan kind.
const std::pair<const char *, Kind> Kinds[] = {
    {"1-D", array1}, {"matrix", matrix}, {"N-D", arrayN}};

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
