// The rebalance directive end to end: redistc turns it into a call to
// redist::rebalanceRing on the arrangement's communicator. Every rank starts
// with a different number of items tagged with their origin, and each
// directive gets targets that sum to the same total: after it, every item
// must be on some rank exactly once and every rank must hold its target.
// The directives cover both directions, measured and given costs (one for
// all links, one per rank, a braced list, separate backward costs) and every
// algorithm that moves items, over a few seeded random targets (zeros
// included). Bad values (targets whose sum differs, a cost that is not
// positive, a wrong number of costs, none, an algorithm that does not fit
// the costs) must throw on every rank, naming the directive's line and the
// value, and move nothing.
//
// RUN: redistc %s -o %t.cpp --report | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 2 %t | FileCheck --check-prefixes=CHECK,NP2 %s
// RUN: %mpirun -np 3 %t | FileCheck --check-prefixes=CHECK,NP3 %s
// RUN: %mpirun -np 5 %t | FileCheck --check-prefixes=CHECK,NP5 %s
//
// REPORT: processors P: 'Size' processes, known at run time
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a unidirectional ring, schedule auto, measured link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a bidirectional ring, schedule auto, measured link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a unidirectional ring, schedule uni_heterogeneous, given link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a bidirectional ring, schedule bi_heterogeneous, given link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a bidirectional ring, schedule bi_homogeneous, given link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a bidirectional ring, schedule uni_homogeneous, measured link costs (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a unidirectional ring, schedule uni_homogeneous, given link costs (the counts are known at run time)
//
// NP2: ranks: 2, items: 5
// NP3: ranks: 3, items: 9
// NP5: ranks: 5, items: 20
// CHECK-NEXT: unidirectional, measured: every item once, every rank at its target
// CHECK-NEXT: bidirectional, measured: every item once, every rank at its target
// CHECK-NEXT: seeded targets, 3 rounds of 5 directives: every item once, every rank at its target
// CHECK-NEXT: sum differs: every rank: rebalance-ring.cpp:167: rebalanceRing: the loads sum to {{[0-9]+}} but the targets to {{[0-9]+}}; they must be equal
// CHECK-NEXT: negative cost: every rank: rebalance-ring.cpp:172: rebalanceRing: CostFwd[{{[0-9]+}}] = -1 must be a positive finite number
// CHECK-NEXT: costs per rank: every rank: rebalance-ring.cpp:176: rebalanceRing: CostBwd has {{[0-9]+}} costs for {{[0-9]+}} ranks; give one per rank, or one for all
// CHECK-NEXT: no costs: every rank: rebalance-ring.cpp:180: costs(...) has no entries; give one cost for every link or one per rank
// CHECK-NEXT: algorithm: every rank: rebalance-ring.cpp:183: rebalanceRing: bi-homogeneous needs equal link costs
// CHECK-NEXT: after the errors: every item once, every rank at its target
// CHECK-NEXT: done

#include <redist/Error.h>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

struct Item {
  int Origin, Index;
};

int Rank = 0, Size = 1;

/// Whether, on every rank, Items holds Target items, and every item that
/// rank r started with (r + 2 of them) is on exactly one rank.
static bool everyItemOnce(const std::vector<Item> &Items,
                          std::int64_t Target) {
  std::vector<int> Seen(Size * (Size + 2), 0);
  bool Ok = static_cast<std::int64_t>(Items.size()) == Target;
  for (const Item &I : Items)
    if (I.Origin >= 0 && I.Origin < Size && I.Index >= 0 &&
        I.Index < I.Origin + 2)
      ++Seen[I.Origin * (Size + 2) + I.Index];
    else
      Ok = false;
  std::vector<int> All(Seen.size());
  MPI_Allreduce(Seen.data(), All.data(), static_cast<int>(Seen.size()),
                MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int R = 0; R < Size; ++R)
    for (int K = 0; K < R + 2; ++K)
      Ok = Ok && All[R * (Size + 2) + K] == 1;
  int Mine = Ok, Every = 0;
  MPI_Allreduce(&Mine, &Every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return Every;
}

static void report(const char *What, bool Ok) {
  if (Rank == 0)
    std::printf("%s: %s\n", What,
                Ok ? "every item once, every rank at its target" : "WRONG");
}

/// This rank's share of Total items under random targets, the same on every
/// rank for a Seed: each item goes to a random rank, so some get none.
static std::int64_t randomTarget(unsigned Seed, int Total) {
  std::mt19937 Rng(Seed);
  std::uniform_int_distribution<int> Pick(0, Size - 1);
  std::int64_t Mine = 0;
  for (int K = 0; K < Total; ++K)
    Mine += Pick(Rng) == Rank;
  return Mine;
}

/// Runs Body, which must throw InvalidArgument on every rank and move
/// nothing; rank 0 prints its message.
static void expectError(const char *What, std::vector<Item> &items,
                        const std::function<void()> &Body) {
  const std::size_t Before = items.size();
  std::string Message = "no error";
  try {
    Body();
  } catch (const redist::InvalidArgument &E) {
    Message = E.what();
  }
  int Caught = Message != "no error" && items.size() == Before, Every = 0;
  MPI_Allreduce(&Caught, &Every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("%s: %s: %s\n", What, Every ? "every rank" : "NOT EVERY RANK",
                Message.c_str());
}

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  const int Total = Size * (Size + 3) / 2;
  if (Rank == 0)
    std::printf("ranks: %d, items: %d\n", Size, Total);
  {
#pragma redist processors P(Size)
    std::vector<Item> items;
    for (int K = 0; K < Rank + 2; ++K)
      items.push_back({Rank, K});
    // The last rank takes what the others give up: rank r keeps 1 item.
    std::int64_t Count = Rank == Size - 1 ? Total - (Size - 1) : 1;
#pragma redist rebalance items(Count) onto P
    report("unidirectional, measured", everyItemOnce(items, Count));
    // Back to an even spread, both ways.
    Count = Total / Size + (Rank < Total % Size ? 1 : 0);
#pragma redist rebalance items(Count) onto P ring(bidirectional)
    report("bidirectional, measured", everyItemOnce(items, Count));

    // Given costs: rank r's links are 1 + r % 3 slow forward, 2 backward.
    std::vector<double> Fwd(Size), Bwd(Size, 2.0);
    for (int R = 0; R < Size; ++R)
      Fwd[R] = 1 + R % 3;
    bool Ok = true;
    unsigned Seed = 1;
    for (int Round = 0; Round < 3; ++Round) {
      Count = randomTarget(Seed++, Total);
#pragma redist rebalance items(Count) onto P ring schedule(uni_heterogeneous) costs(Fwd)
      Ok = everyItemOnce(items, Count) && Ok;
      Count = randomTarget(Seed++, Total);
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_heterogeneous) costs(Fwd) back_costs(Bwd)
      Ok = everyItemOnce(items, Count) && Ok;
      Count = randomTarget(Seed++, Total);
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_homogeneous) costs(2.5)
      Ok = everyItemOnce(items, Count) && Ok;
      // A unidirectional algorithm on a bidirectional ring sends forward.
      Count = randomTarget(Seed++, Total);
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(uni_homogeneous)
      Ok = everyItemOnce(items, Count) && Ok;
      Count = randomTarget(Seed++, Total);
#pragma redist rebalance items(Count) onto P schedule(uni_homogeneous) costs({0.5})
      Ok = everyItemOnce(items, Count) && Ok;
    }
    report("seeded targets, 3 rounds of 5 directives", Ok);

    expectError("sum differs", items, [&] {
      const std::int64_t TooMany = Count + 1;
#pragma redist rebalance items(TooMany) onto P ring(unidirectional)
    });
    expectError("negative cost", items, [&] {
      std::vector<double> Bad = Fwd;
      Bad[Size - 1] = -1;
#pragma redist rebalance items(Count) onto P costs(Bad)
    });
    expectError("costs per rank", items, [&] {
      std::vector<double> OneMore(Size + 1, 1.0);
#pragma redist rebalance items(Count) onto P ring(bidirectional) costs(1) back_costs(OneMore)
    });
    expectError("no costs", items, [&] {
      const std::vector<double> None;
#pragma redist rebalance items(Count) onto P costs(None)
    });
    expectError("algorithm", items, [&] {
#pragma redist rebalance items(Count) onto P ring(bidirectional) schedule(bi_homogeneous) costs(Fwd)
    });
    report("after the errors", everyItemOnce(items, Count));
  }
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
