//===- redist-ring-sweep.cpp - rebalanceRing end to end, and its errors ---===//
//
//   mpirun -np R redist-ring-sweep SEED COUNT
//
// COUNT random rebalancings on the R ranks, drawn alike on every rank from
// SEED: loads and targets from 0 to 40 items with empty ranks, uni- and
// bidirectional rings, every algorithm that applies, costs given (equal,
// integer or fractional, symmetric or not) or measured, small and unlimited
// pieces, MPI_COMM_WORLD or a periodic Cartesian communicator. Every item
// carries its origin rank, its index there and a payload; after each move
// rank 0 gathers every item and checks that each one arrived exactly once
// and intact, and every rank checks that it holds its target count and
// planned the same schedule as the others. Then the measured link costs
// (shape and caching), and the error cases: every rank must throw
// InvalidArgument naming the value, and carry on.
//
//===----------------------------------------------------------------------===//
#include "ExpectError.h"
#include "redist/Error.h"
#include "redist/runtime/Ring.h"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace redist;

namespace {

int Rank = 0, Size = 0;
int Failures = 0;

struct Item {
  int Origin;
  int Index;
  double Payload;
};

double payload(int Origin, int Index) { return Origin * 1000.5 + Index; }

/// Counts that sum to Total over Size ranks, some of them empty.
std::vector<std::int64_t> randomCounts(std::mt19937_64 &Rng, int Total) {
  std::vector<std::int64_t> Counts(Size, 0);
  std::vector<int> Owners;
  std::bernoulli_distribution Empty(0.3);
  for (int R = 0; R < Size; ++R)
    if (!Empty(Rng))
      Owners.push_back(R);
  if (Owners.empty())
    Owners.push_back(0);
  std::uniform_int_distribution<std::size_t> Pick(0, Owners.size() - 1);
  for (int I = 0; I < Total; ++I)
    ++Counts[Owners[Pick(Rng)]];
  return Counts;
}

std::vector<double> randomCosts(std::mt19937_64 &Rng, int Kind) {
  if (Kind == 0)
    return {1.0};
  std::vector<double> Costs(Size);
  for (double &C : Costs)
    C = Kind == 1 ? std::uniform_int_distribution<int>(1, 4)(Rng)
                  : 0.25 * std::uniform_int_distribution<int>(1, 9)(Rng);
  return Costs;
}

/// A hash of the schedule, to compare across ranks.
long long scheduleHash(const RingSchedule &S) {
  unsigned long long H = S.Transfers.size();
  for (const RingTransfer &T : S.Transfers)
    H = H * 1000003 + T.From * 7 + T.Dir + 31 * T.Items +
        static_cast<unsigned long long>(T.Start * 1024);
  return static_cast<long long>(H >> 1);
}

/// Every item exactly once, intact, and every rank at its target.
bool checkItems(const std::vector<Item> &Items,
                const std::vector<std::int64_t> &Loads, std::int64_t Target) {
  bool Ok = static_cast<std::int64_t>(Items.size()) == Target;
  if (!Ok)
    std::printf("FAIL rank %d holds %zu items, target %lld\n", Rank,
                Items.size(), static_cast<long long>(Target));
  int Count = static_cast<int>(Items.size());
  std::vector<int> Counts(Size), Offsets(Size);
  MPI_Gather(&Count, 1, MPI_INT, Counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int Total = 0;
  for (int R = 0; R < Size; ++R) {
    Offsets[R] = Total * static_cast<int>(sizeof(Item));
    Total += Counts[R];
    Counts[R] *= sizeof(Item);
  }
  std::vector<Item> All(Rank == 0 ? Total : 0);
  MPI_Gatherv(Items.data(), Count * static_cast<int>(sizeof(Item)), MPI_BYTE,
              All.data(), Counts.data(), Offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  if (Rank == 0) {
    std::vector<std::vector<int>> Seen(Size);
    for (int R = 0; R < Size; ++R)
      Seen[R].assign(Loads[R], 0);
    for (const Item &I : All) {
      if (I.Origin < 0 || I.Origin >= Size || I.Index < 0 ||
          I.Index >= Loads[I.Origin] ||
          I.Payload != payload(I.Origin, I.Index)) {
        std::printf("FAIL corrupt item (%d, %d)\n", I.Origin, I.Index);
        Ok = false;
        continue;
      }
      ++Seen[I.Origin][I.Index];
    }
    for (int R = 0; R < Size; ++R)
      for (std::int64_t K = 0; K < Loads[R]; ++K)
        if (Seen[R][K] != 1) {
          std::printf("FAIL item (%d, %lld) arrived %d times\n", R,
                      static_cast<long long>(K), Seen[R][K]);
          Ok = false;
        }
  }
  int Mine = Ok, Everyone = 0;
  MPI_Allreduce(&Mine, &Everyone, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return Everyone;
}

/// Body must throw InvalidArgument naming Expected on every rank.
void expectError(const char *Name, const std::string &Expected,
                 const std::function<void()> &Body) {
  Failures += !test::expectErrorOnEveryRank(Name, Expected, Body);
}

/// The measured link costs: one per link and direction, positive and
/// finite, the same on every rank, and cached: asked again, the
/// communicator gives the very same numbers (a new ping-pong would not).
void measuredCosts() {
  MPI_Comm Comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
  bool Ok = true;
  for (bool Bidirectional : {true, false}) {
    std::vector<double> Fwd, Bwd, FwdAgain, BwdAgain;
    measuredRingCosts(Comm, sizeof(Item), Bidirectional, Fwd, Bwd);
    measuredRingCosts(Comm, sizeof(Item), Bidirectional, FwdAgain, BwdAgain);
    Ok = Ok && Fwd.size() == static_cast<std::size_t>(Size) &&
         Bwd.size() == (Bidirectional ? Fwd.size() : 0) && Fwd == FwdAgain &&
         Bwd == BwdAgain;
    for (const std::vector<double> *Costs : {&Fwd, &Bwd})
      for (double C : *Costs)
        Ok = Ok && C > 0 && std::isfinite(C);
    // Every rank holds rank 0's numbers.
    std::vector<double> Root = Fwd;
    Root.insert(Root.end(), Bwd.begin(), Bwd.end());
    std::vector<double> Mine = Root;
    MPI_Bcast(Root.data(), static_cast<int>(Root.size()), MPI_DOUBLE, 0, Comm);
    Ok = Ok && Root == Mine;
  }
  MPI_Comm_free(&Comm);
  int Mine = Ok, All = 0;
  MPI_Allreduce(&Mine, &All, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("measured costs: %s\n",
                All ? "one per link and direction, positive, the same on "
                      "every rank, cached"
                    : "WRONG");
  Failures += !All;
}

void errorCases() {
  std::vector<Item> Items(3, Item{Rank, 0, 0});
  RingOptions Options;
  Options.CostFwd = {1.0};
  expectError("targets not summing to the items", "the loads sum to",
              [&] { rebalanceRing(Items, 4, MPI_COMM_WORLD, Options); });
  expectError("negative target",
              "rank " + std::to_string(Size - 1) +
                  "'s target_count = -2 is negative",
              [&] {
                rebalanceRing(Items, Rank == Size - 1 ? -2 : 3, MPI_COMM_WORLD,
                              Options);
              });
  expectError("different options",
              "ranks were given different options (rank " +
                  std::to_string(Size - 1) + "'s differ from rank 0's)",
              [&] {
                RingOptions Mine = Options;
                Mine.Bidirectional = Size > 1 && Rank == Size - 1;
                rebalanceRing(Items, 3, MPI_COMM_WORLD, Mine);
              });
  expectError("zero cost", "CostFwd[0] = 0", [&] {
    RingOptions Bad = Options;
    Bad.CostFwd = {0.0};
    rebalanceRing(Items, 3, MPI_COMM_WORLD, Bad);
  });
  expectError("wrong number of costs",
              "CostFwd has " + std::to_string(Size + 1) + " costs for " +
                  std::to_string(Size) + " ranks",
              [&] {
                RingOptions Bad = Options;
                Bad.CostFwd.assign(Size + 1, 1.0);
                rebalanceRing(Items, 3, MPI_COMM_WORLD, Bad);
              });
  expectError("backward costs on a unidirectional ring",
              "CostBwd given for a unidirectional ring", [&] {
                RingOptions Bad = Options;
                Bad.CostBwd = {1.0};
                rebalanceRing(Items, 3, MPI_COMM_WORLD, Bad);
              });
  expectError("algorithm that does not apply",
              "bi-homogeneous needs a bidirectional ring", [&] {
                RingOptions Bad = Options;
                Bad.Algorithm = RingAlgorithm::BiHomogeneous;
                rebalanceRing(Items, 3, MPI_COMM_WORLD, Bad);
              });
  expectError("null communicator", "MPI_COMM_NULL",
              [&] { rebalanceRing(Items, 3, MPI_COMM_NULL, Options); });
  MPI_Comm Line;
  int Dims = Size, Periodic = 0;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &Dims, &Periodic, 0, &Line);
  expectError("non-periodic Cartesian communicator",
              "one-dimensional and periodic",
              [&] { rebalanceRing(Items, 3, Line, Options); });
  MPI_Comm_free(&Line);
  // No item moved in any of these.
  bool Intact = Items.size() == 3;
  for (const Item &I : Items)
    Intact = Intact && I.Origin == Rank;
  int Mine = Intact, All = 0;
  MPI_Allreduce(&Mine, &All, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("items after the errors: %s\n", All ? "untouched" : "CHANGED");
  Failures += !All;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Argc != 3) {
    if (Rank == 0)
      std::fprintf(stderr, "usage: redist-ring-sweep SEED COUNT\n");
    MPI_Finalize();
    return 2;
  }
  const unsigned long long Seed = std::strtoull(Argv[1], nullptr, 10);
  const int Count = std::atoi(Argv[2]);
  std::mt19937_64 Rng(Seed);
  MPI_Comm Cart;
  int Dims = Size, Periodic = 1;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &Dims, &Periodic, 0, &Cart);
  int Uni = 0, Bi = 0, Measured = 0, OnCart = 0, Checked = 0;
  std::vector<int> ByAlgorithm(allRingAlgorithms().size(), 0);
  long long Messages = 0;
  for (int Case = 0; Case < Count; ++Case) {
    const int Total = std::uniform_int_distribution<int>(0, 40 * Size)(Rng);
    const std::vector<std::int64_t> Loads = randomCounts(Rng, Total);
    const std::vector<std::int64_t> Targets = randomCounts(Rng, Total);
    RingOptions Options;
    Options.Bidirectional = std::bernoulli_distribution(0.5)(Rng);
    const int Kind = std::uniform_int_distribution<int>(0, 3)(Rng);
    if (Kind < 3) {
      Options.CostFwd = randomCosts(Rng, Kind);
      if (Options.Bidirectional && Kind > 0 &&
          std::bernoulli_distribution(0.5)(Rng))
        Options.CostBwd = randomCosts(Rng, Kind);
    }
    Options.MaxPieceItems = std::bernoulli_distribution(0.5)(Rng)
                                ? std::uniform_int_distribution<int>(1, 5)(Rng)
                                : 0;
    // An algorithm that applies (Kind 0 and measured costs: every one).
    std::vector<RingAlgorithm> Algorithms{RingAlgorithm::Auto,
                                          RingAlgorithm::UniHeterogeneous};
    if (Kind == 0 || Kind == 3)
      Algorithms.push_back(RingAlgorithm::UniHomogeneous);
    if (Options.Bidirectional) {
      Algorithms.push_back(RingAlgorithm::BiHeterogeneous);
      if ((Kind == 0 && Options.CostBwd.empty()) || Kind == 3)
        Algorithms.push_back(RingAlgorithm::BiHomogeneous);
    }
    // The most specific one half of the time, so that each gets its share.
    Options.Algorithm =
        std::bernoulli_distribution(0.5)(Rng)
            ? Algorithms.back()
            : Algorithms[std::uniform_int_distribution<std::size_t>(
                  0, Algorithms.size() - 1)(Rng)];
    const bool UseCart = std::bernoulli_distribution(0.3)(Rng);

    std::vector<Item> Items;
    for (int K = 0; K < Loads[Rank]; ++K)
      Items.push_back({Rank, K, payload(Rank, K)});
    RingRebalanceResult R;
    try {
      R = rebalanceRing(Items, Targets[Rank], UseCart ? Cart : MPI_COMM_WORLD,
                        Options);
    } catch (const InvalidArgument &E) {
      std::printf("FAIL case %d on rank %d: %s\n", Case, Rank, E.what());
      ++Failures;
      break;
    }
    long long Hash[2] = {scheduleHash(R.Schedule), -scheduleHash(R.Schedule)};
    long long Max[2];
    MPI_Allreduce(Hash, Max, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (Max[0] != Hash[0] || Max[1] != Hash[1]) {
      std::printf("FAIL case %d: rank %d planned another schedule\n", Case,
                  Rank);
      ++Failures;
    }
    if (!checkItems(Items, Loads, Targets[Rank])) {
      if (Rank == 0)
        std::printf("FAIL case %d (%s, %s)\n", Case,
                    Options.Bidirectional ? "bidirectional" : "unidirectional",
                    std::string(ringAlgorithmName(Options.Algorithm)).c_str());
      ++Failures;
    }
    ++Checked;
    (Options.Bidirectional ? Bi : Uni) += 1;
    Measured += Kind == 3;
    ++ByAlgorithm[static_cast<std::size_t>(Options.Algorithm)];
    OnCart += UseCart;
    Messages += R.Messages;
  }
  MPI_Comm_free(&Cart);
  long long AllMessages = 0;
  MPI_Reduce(&Messages, &AllMessages, 1, MPI_LONG_LONG, MPI_SUM, 0,
             MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("redist-ring-sweep: %d ranks, seed %llu: %d rebalancings "
                "(%d unidirectional, %d bidirectional, %d with measured "
                "costs, %d on a Cartesian ring, %lld messages), %d failures\n",
                Size, Seed, Checked, Uni, Bi, Measured, OnCart, AllMessages,
                Failures);
  if (Rank == 0) {
    std::printf("by algorithm:");
    for (RingAlgorithm A : allRingAlgorithms())
      if (A != RingAlgorithm::Exhaustive)
        std::printf(" %s %d", std::string(ringAlgorithmName(A)).c_str(),
                    ByAlgorithm[static_cast<std::size_t>(A)]);
    std::printf("\n");
  }
  measuredCosts();
  errorCases();
  if (Rank == 0)
    std::printf("redist-ring-sweep: %d failures in all\n", Failures);
  MPI_Finalize();
  return Failures != 0;
}
