//===- Validate.cpp - Checking a plan's parameters ------------------------===//
//
// Two steps. findInvalidParameter runs on each rank without communicating.
// agreeOnParameters then tells every rank, in one MPI_Allreduce, whether any
// rank found a problem and (the Verify option) whether the ranks were given
// different parameters: a rank that threw alone, or ranks that disagree,
// would leave the others waiting forever for messages that never come.
//
//===----------------------------------------------------------------------===//
#include "Agreement.h"
#include "PlanImpl.h"

#include "redist/Limits.h"
#include "redist/OverlapSchedulers.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

namespace redist {
namespace detail {
namespace {

std::optional<std::string> checkDistribution(const char *Side,
                                             const Distribution &D, int64_t N) {
  std::string Name = std::string(Side) + " distribution " + D.str();
  if (D.kind() != DistKind::GenBlock && D.procs() <= 0)
    return Name + ": process count " + std::to_string(D.procs()) +
           " must be positive";
  if ((D.kind() == DistKind::BlockSized || D.kind() == DistKind::Cyclic) &&
      D.param() <= 0)
    return Name + ": block size " + std::to_string(D.param()) +
           " must be positive";
  try {
    Layout L(D, N);
    (void)L;
  } catch (const InvalidArgument &E) {
    return Name + ": " + E.what();
  }
  return std::nullopt;
}

/// FNV-1a over a list: a parameter that is a list (listParameter), and all
/// the parameters for the quick comparison.
int64_t hashSizes(const std::vector<int64_t> &Sizes) {
  uint64_t H = 1469598103934665603ull;
  for (int64_t S : Sizes) {
    uint64_t V = static_cast<uint64_t>(S);
    for (int I = 0; I < 8; ++I) {
      H ^= (V >> (8 * I)) & 0xff;
      H *= 1099511628211ull;
    }
  }
  return static_cast<int64_t>(H);
}

int64_t bitsOf(double D) {
  int64_t B;
  std::memcpy(&B, &D, sizeof B);
  return B;
}

double doubleOf(int64_t B) {
  double D;
  std::memcpy(&D, &B, sizeof D);
  return D;
}

/// The shortest text that reads back as the same double: std::to_string's
/// six decimals would show 3.2e-9 as 0.000000.
std::string showDouble(int64_t V) {
  const double D = doubleOf(V);
  char Text[32];
  for (int Digits = 6; Digits < 17; ++Digits) {
    std::snprintf(Text, sizeof Text, "%.*g", Digits, D);
    if (std::strtod(Text, nullptr) == D)
      return Text;
  }
  std::snprintf(Text, sizeof Text, "%.17g", D);
  return Text;
}
} // namespace

std::string showKind(int64_t V) {
  switch (static_cast<DistKind>(V)) {
  case DistKind::Block:
    return "block";
  case DistKind::BlockSized:
    return "block(k)";
  case DistKind::Cyclic:
    return "cyclic";
  case DistKind::GenBlock:
    return "gen_block";
  }
  return std::to_string(V);
}

namespace {

/// Whether V is one of the enumerators in All (a value cast from an int may
/// be none of them).
template <typename Enum> bool isKnown(Enum V, const std::vector<Enum> &All) {
  return std::find(All.begin(), All.end(), V) != All.end();
}

/// The enumerator's name, or the number of a value outside the enum (whose
/// name function would throw or say "unknown").
template <typename Enum, typename NameFn>
std::string showEnum(int64_t V, const std::vector<Enum> &All, NameFn Name) {
  const Enum E = static_cast<Enum>(V);
  return isKnown(E, All) ? std::string(Name(E)) : std::to_string(V);
}

/// What a distribution's parameters are called in a message.
struct DistributionNames {
  const char *Format, *Procs, *BlockSize, *Sizes;
};

/// D's parameters, appended to Params under Names.
void addDistribution(std::vector<Parameter> &Params,
                     const DistributionNames &Names, const Distribution &D) {
  Params.push_back({Names.Format, static_cast<int64_t>(D.kind()), showKind});
  Params.push_back({Names.Procs, D.procs(), showNumber});
  Params.push_back({Names.BlockSize, D.param(), showNumber});
  Params.push_back(listParameter(Names.Sizes, D.sizes()));
}

std::vector<Parameter> allParameters(const Distribution &From,
                                     const Distribution &To, int64_t N,
                                     std::size_t ElementBytes,
                                     const PlanOptions &O) {
  std::vector<Parameter> Params;
  addDistribution(Params,
                  {"source distribution format", "source process count",
                   "source block size", "source gen_block sizes"},
                  From);
  addDistribution(Params,
                  {"target distribution format", "target process count",
                   "target block size", "target gen_block sizes"},
                  To);
  std::vector<Parameter> Rest = {
      {"extent N", N, showNumber},
      {"schedule algorithm", static_cast<int64_t>(O.Schedule),
       [](int64_t V) { return showEnum(V, allAlgorithms(), algorithmName); }},
  };
  Params.insert(Params.end(), Rest.begin(), Rest.end());
  for (Parameter &P : optionParameters(ElementBytes, O))
    Params.push_back(std::move(P));
  return Params;
}

} // namespace

std::string showNumber(int64_t V) { return std::to_string(V); }

Parameter listParameter(std::string Name, std::vector<int64_t> Items) {
  Parameter P(std::move(Name), hashSizes(Items), showNumber);
  P.List = true;
  P.Items = std::move(Items);
  return P;
}

std::vector<Parameter> optionParameters(std::size_t ElementBytes,
                                        const PlanOptions &O) {
  return {
      {"element size", static_cast<int64_t>(ElementBytes), showNumber},
      {"execution mode", static_cast<int64_t>(O.Mode),
       [](int64_t V) { return showEnum(V, allExecModes(), execModeName); }},
      {"overlap order", static_cast<int64_t>(O.Overlap),
       [](int64_t V) {
         return showEnum(V, allOverlapOrders(), overlapOrderName);
       }},
      {"overlap effort", O.OverlapEffort, showNumber},
      {"packing", static_cast<int64_t>(O.Pack),
       [](int64_t V) { return showEnum(V, allPackings(), packingName); }},
      {"maximum transfer size", O.MaxTransferBytes, showNumber},
      {"shared memory", O.SharedMemory,
       [](int64_t V) { return std::string(V ? "on" : "off"); }},
      {"ranks per node", O.RanksPerNode, showNumber},
      {"single-copy run bytes", O.SingleCopyRunBytes, showNumber},
      {"cost model alpha", bitsOf(O.Model.Alpha), showDouble},
      {"cost model beta", bitsOf(O.Model.BetaPerByte), showDouble},
      {"cost model gamma", bitsOf(O.Model.Gamma), showDouble},
      {"cost model element size", bitsOf(O.Model.ElementBytes), showDouble},
  };
}

int64_t maxTransferBytes(const PlanOptions &Options) {
  return Options.MaxTransferBytes > 0 ? Options.MaxTransferBytes : INT_MAX;
}

std::optional<std::string> findInvalidOptions(std::size_t ElementBytes,
                                              const PlanOptions &Options,
                                              const std::string &ScheduleName,
                                              bool Auto) {
  if (ElementBytes == 0)
    return std::string("element size 0: elements must have at least 1 byte");
  if (ElementBytes > static_cast<std::size_t>(INT_MAX))
    return "element size " + std::to_string(ElementBytes) +
           " exceeds INT_MAX bytes";
  if (Options.MaxTransferBytes < 0 || Options.MaxTransferBytes > INT_MAX)
    return "maximum transfer size " + std::to_string(Options.MaxTransferBytes) +
           " is outside 0..INT_MAX";
  if (!isKnown(Options.Mode, allExecModes()))
    return "unknown execution mode " +
           std::to_string(static_cast<int>(Options.Mode));
  if (!isKnown(Options.Overlap, allOverlapOrders()))
    return "unknown overlap order " +
           std::to_string(static_cast<int>(Options.Overlap));
  if (Options.OverlapEffort < 1 || Options.OverlapEffort > MaxOverlapEffort)
    return "overlap effort " + std::to_string(Options.OverlapEffort) +
           " is outside 1.." + std::to_string(MaxOverlapEffort);
  if (Options.Overlap != OverlapOrder::Steps) {
    // The overlapped schedulers make the order themselves.
    if (Options.Mode != ExecMode::Overlapped)
      return std::string("overlap order ") + overlapOrderName(Options.Overlap) +
             " needs the overlapped execution mode, not " +
             execModeName(Options.Mode);
    if (!Auto)
      return std::string("overlap order ") + overlapOrderName(Options.Overlap) +
             " makes its own schedule: the schedule algorithm must be auto, "
             "not " +
             ScheduleName;
  }
  if (!isKnown(Options.Pack, allPackings()))
    return "unknown packing " + std::to_string(static_cast<int>(Options.Pack));
  // The environment is read where the plan is built; raised here, on every
  // rank whose environment it is, before any data moves.
  if (auto Why = singleCopyEnvProblem())
    return Why;
  return std::nullopt;
}

std::optional<std::string>
findInvalidParameter(const Distribution &From, const Distribution &To,
                     int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                     const PlanOptions &Options) {
  if (Comm == MPI_COMM_NULL)
    return std::string("the communicator is MPI_COMM_NULL");
  if (!isKnown(Options.Schedule, allAlgorithms()))
    return "unknown schedule algorithm " +
           std::to_string(static_cast<int>(Options.Schedule));
  if (auto Why = findInvalidOptions(ElementBytes, Options,
                                    algorithmName(Options.Schedule),
                                    Options.Schedule == Algorithm::Auto))
    return Why;
  if (N < 0)
    return "extent N = " + std::to_string(N) + " is negative";
  if (auto Why = checkDistribution("source", From, N))
    return Why;
  if (auto Why = checkDistribution("target", To, N))
    return Why;

  int Size = 0;
  MPI_Comm_size(Comm, &Size);
  int64_t Needed = std::max(From.procs(), To.procs());
  if (Size < Needed)
    return "the communicator has " + std::to_string(Size) +
           " ranks, fewer than max(P, Q) = " + std::to_string(Needed) +
           " (P = " + std::to_string(From.procs()) +
           ", Q = " + std::to_string(To.procs()) + ")";

  // One Alltoallv round moves at least one element per rank, and its byte
  // displacements are ints.
  if (Options.Mode == ExecMode::Alltoallv &&
      static_cast<int64_t>(ElementBytes) * Size > INT_MAX)
    return "the Alltoallv mode cannot move elements of " +
           std::to_string(ElementBytes) + " bytes over " +
           std::to_string(Size) + " ranks (more than INT_MAX bytes per round)";

  // Too large to describe: every rank refuses here, before the collective
  // build, even ranks outside both distributions (which describe nothing)
  // and in the modes that compute no grid (Caterpillar, Alltoallv).
  const Layout Source(From, N), Target(To, N);
  try {
    checkRunLimit(Source, Target);
  } catch (const InvalidArgument &E) {
    return std::string(E.what());
  }

  std::string Why;
  if (!algorithmApplies(Options.Schedule, Source, Target, &Why))
    return std::string("schedule algorithm ") +
           algorithmName(Options.Schedule) + " does not apply to " +
           From.str() + " -> " + To.str() + ": " + Why;
  return std::nullopt;
}

namespace {

/// "rank 2", "ranks 1 and 3", "ranks 0, 1, 2, 3, 4 and 59 others".
std::string rankList(const std::vector<int> &Ranks) {
  const std::size_t Shown = std::min<std::size_t>(Ranks.size(), 5);
  std::string Text = Ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t I = 0; I < Shown; ++I) {
    if (I > 0)
      Text += I + 1 == Ranks.size() ? " and " : ", ";
    Text += std::to_string(Ranks[I]);
  }
  if (Shown < Ranks.size())
    Text += " and " + std::to_string(Ranks.size() - Shown) + " others";
  return Text;
}

/// The failure path of agreeOnParameters, when some rank has a Problem:
/// every rank learns which ranks have one and the first one's text.
[[noreturn]] void throwProblemOfRanks(const std::optional<std::string> &Problem,
                                      MPI_Comm Comm) {
  int Size = 0, Bad = Problem.has_value();
  MPI_Comm_size(Comm, &Size);
  std::vector<int> AllBad(static_cast<std::size_t>(Size));
  MPI_Allgather(&Bad, 1, MPI_INT, AllBad.data(), 1, MPI_INT, Comm);
  std::vector<int> Ranks;
  for (int R = 0; R < Size; ++R)
    if (AllBad[static_cast<std::size_t>(R)])
      Ranks.push_back(R);
  // Messages name a value or two: a bound keeps the broadcast small.
  std::string Text = Problem.value_or("").substr(0, 4096);
  int Length = static_cast<int>(Text.size());
  MPI_Bcast(&Length, 1, MPI_INT, Ranks.front(), Comm);
  Text.resize(static_cast<std::size_t>(Length));
  MPI_Bcast(Text.data(), Length, MPI_CHAR, Ranks.front(), Comm);
  if (Ranks.size() == 1)
    throw InvalidArgument("on rank " + std::to_string(Ranks.front()) + ": " +
                          Text);
  throw InvalidArgument("on " + rankList(Ranks) + "; on rank " +
                        std::to_string(Ranks.front()) + ": " + Text);
}

/// Minima and maxima over Comm of each of Values.
void reduceRanges(const std::vector<int64_t> &Values, std::vector<int64_t> &Min,
                  std::vector<int64_t> &Max, MPI_Comm Comm) {
  // Maxima of the values and of their complements (~v orders the other
  // way), so one MPI_MAX reduction yields every minimum and maximum.
  const std::size_t K = Values.size();
  std::vector<int64_t> Local(2 * K), Global(2 * K);
  for (std::size_t I = 0; I < K; ++I) {
    Local[I] = Values[I];
    Local[K + I] = ~Values[I];
  }
  MPI_Allreduce(Local.data(), Global.data(), static_cast<int>(2 * K),
                MPI_INT64_T, MPI_MAX, Comm);
  Min.resize(K);
  Max.assign(Global.begin(), Global.begin() + static_cast<std::ptrdiff_t>(K));
  for (std::size_t I = 0; I < K; ++I)
    Min[I] = ~Global[K + I];
}

/// How list P differs across Comm, once its hash does: its length, or its
/// first differing entry. One or two more reductions.
std::string listDifference(const Parameter &P, MPI_Comm Comm) {
  const int64_t Length = static_cast<int64_t>(P.Items.size());
  std::vector<int64_t> Min, Max;
  reduceRanges({Length}, Min, Max, Comm);
  if (Min[0] != Max[0])
    return " in length (from " + std::to_string(Min[0]) + " to " +
           std::to_string(Max[0]) + " entries); this rank has " +
           std::to_string(Length);
  reduceRanges(P.Items, Min, Max, Comm);
  for (std::size_t J = 0; J < P.Items.size(); ++J)
    if (Min[J] != Max[J])
      return " at entry " + std::to_string(J) + " (from " + P.Show(Min[J]) +
             " to " + P.Show(Max[J]) + "); this rank has " + P.Show(P.Items[J]);
  return ""; // equal lists hash alike
}

/// The failure path of the comparison: one more reduction finds which
/// parameter differs.
[[noreturn]] void throwDifference(const std::vector<Parameter> &Params,
                                  MPI_Comm Comm) {
  std::vector<int64_t> Values, Min, Max;
  for (const Parameter &P : Params)
    Values.push_back(P.Value);
  reduceRanges(Values, Min, Max, Comm);
  for (std::size_t I = 0; I < Params.size(); ++I) {
    if (Min[I] == Max[I])
      continue;
    const Parameter &P = Params[I];
    std::string Msg = std::string("verify: ranks were given different "
                                  "parameters: ") +
                      P.Name + " differs";
    if (P.List)
      Msg += listDifference(P, Comm);
    else
      Msg += " (from " + P.Show(Min[I]) + " to " + P.Show(Max[I]) +
             "); this rank has " + P.Show(P.Value);
    throw InvalidArgument(Msg);
  }
  // Not reached: equal parameters hash alike.
  throw InvalidArgument("verify: ranks were given different parameters");
}

} // namespace

void agree(const std::optional<std::string> &Problem,
           const std::vector<Parameter> *Params, MPI_Comm Comm) {
  // The usual case, every rank fine and alike, costs one reduction of four
  // numbers: whether any rank has a problem, whether any has none, and the
  // maximum of a hash of all parameters and of its complement. Only a
  // failure costs more.
  int64_t Hash = 0;
  if (Params) {
    std::vector<int64_t> Values;
    for (const Parameter &P : *Params)
      Values.push_back(P.Value);
    Hash = hashSizes(Values);
  }
  const int64_t Bad = Problem.has_value();
  int64_t Local[4] = {Bad, !Bad, Hash, ~Hash}, Max[4];
  MPI_Allreduce(Local, Max, 4, MPI_INT64_T, MPI_MAX, Comm);
  // A problem explains a difference (block size 0 on one rank), so it wins.
  // When every rank has one (the same parameters, all bad), each throws its
  // own, as it would alone.
  if (Max[0] && !Max[1])
    throw InvalidArgument(*Problem);
  if (Max[0])
    throwProblemOfRanks(Problem, Comm);
  if (Max[2] != Hash || ~Max[3] != Hash)
    throwDifference(*Params, Comm);
}

MPI_Comm duplicateAgreeing(const std::optional<std::string> &Problem,
                           MPI_Comm Comm) {
  // Colour 0 for the ranks without a problem, 1 for the others: the
  // duplicate has every rank exactly when all agree, and key 0 keeps the
  // ranks' order.
  MPI_Comm Dup = MPI_COMM_NULL;
  MPI_Comm_split(Comm, Problem ? 1 : 0, 0, &Dup);
  int Size = 0, DupSize = 0;
  MPI_Comm_size(Comm, &Size);
  MPI_Comm_size(Dup, &DupSize);
  if (DupSize == Size && !Problem)
    return Dup;
  // Every rank is here: some rank has a problem. Only a failure costs the
  // agreement's collectives, which throw on every rank.
  MPI_Comm_free(&Dup);
  agree(Problem, nullptr, Comm);
  throw std::logic_error("redist runtime: ranks with a problem did not agree");
}

void agreeOnProblem(const std::string &Problem, MPI_Comm Comm) {
  agree(Problem.empty() ? std::nullopt : std::optional<std::string>(Problem),
        nullptr, Comm);
}

void agreeOnParameters(const std::optional<std::string> &Problem, bool Compare,
                       const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options) {
  if (!Compare) {
    agree(Problem, nullptr, Comm);
    return;
  }
  const std::vector<Parameter> Params =
      allParameters(From, To, N, ElementBytes, Options);
  agree(Problem, &Params, Comm);
}

void agreeOnDistribution(const std::optional<std::string> &Problem,
                         const Distribution &D, int64_t N, MPI_Comm Comm) {
  std::vector<Parameter> Params;
  addDistribution(
      Params,
      {"distribution format", "process count", "block size", "gen_block sizes"},
      D);
  Params.push_back({"extent N", N, showNumber});
  agree(Problem, &Params, Comm);
}

void abortAlone(const char *Where, const std::string &Problem, MPI_Comm Comm,
                const char *Why) {
  int Rank = 0;
  MPI_Comm_rank(Comm, &Rank);
  // One write, so that the lines of several ranks do not interleave.
  const std::string Text =
      (Where ? std::string(Where) + ": " : std::string()) + "on rank " +
      std::to_string(Rank) + ": " + Problem + "\nredist: " + Why +
      ", so this rank cannot raise it on every rank: aborting the job\n";
  std::fputs(Text.c_str(), stderr);
  std::fflush(stderr);
  MPI_Abort(Comm, 1);
  std::abort(); // MPI_Abort does not return
}

} // namespace detail
} // namespace redist
