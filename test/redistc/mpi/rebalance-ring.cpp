// The rebalance directive end to end: redistc turns it into a call to
// redist::rebalanceRing on the arrangement's communicator. Every rank starts
// with a different number of tagged items, and targets that sum to the same
// total; after each directive (unidirectional, then bidirectional) every
// item must be on some rank exactly once and every rank must hold its
// target. A bad target (sums that differ) must throw on every rank, naming
// the directive's line.
//
// RUN: redistc %s -o %t.cpp --report | FileCheck --check-prefix=REPORT %s
// RUN: %mpicxx %redist_cxxflags %t.cpp -o %t %redist_libs
// RUN: %mpirun -np 3 %t | FileCheck --check-prefixes=CHECK,NP3 %s
// RUN: %mpirun -np 5 %t | FileCheck --check-prefixes=CHECK,NP5 %s
//
// REPORT: processors P: 'Size' processes, known at run time
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a unidirectional ring (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a bidirectional ring (the counts are known at run time)
// REPORT: rebalance items: dynamic, a call to redist::rebalanceRing on a unidirectional ring (the counts are known at run time)
//
// NP3: ranks: 3, items: 9
// NP5: ranks: 5, items: 20
// CHECK-NEXT: unidirectional: every item once, every rank at its target
// CHECK-NEXT: bidirectional: every item once, every rank at its target
// CHECK-NEXT: error on every rank: rebalance-ring.cpp:{{[0-9]+}}: rebalanceRing: the loads sum to {{[0-9]+}} but the targets to {{[0-9]+}}; they must be equal
// CHECK-NEXT: done

#include <redist/Error.h>

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct Item {
  int Origin, Index;
};

static bool everyItemOnce(const std::vector<Item> &Items, int Rank, int Size,
                          std::int64_t Target) {
  // Rank r started with r + 2 items: count each (origin, index) everywhere.
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
  (void)Rank;
  return Every;
}

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank, Size;
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
    bool Ok = everyItemOnce(items, Rank, Size, Count);
    if (Rank == 0)
      std::printf("unidirectional: %s\n",
                  Ok ? "every item once, every rank at its target" : "WRONG");
    // Back to an even spread, both ways.
    Count = Total / Size + (Rank < Total % Size ? 1 : 0);
#pragma redist rebalance items(Count) onto P ring(bidirectional)
    Ok = everyItemOnce(items, Rank, Size, Count);
    if (Rank == 0)
      std::printf("bidirectional: %s\n",
                  Ok ? "every item once, every rank at its target" : "WRONG");
    std::string Message = "no error";
    try {
      const std::int64_t TooMany = Count + 1;
#pragma redist rebalance items(TooMany) onto P ring(unidirectional)
    } catch (const redist::InvalidArgument &E) {
      Message = E.what();
    }
    if (Rank == 0)
      std::printf("error on every rank: %s\n", Message.c_str());
  }
  if (Rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
