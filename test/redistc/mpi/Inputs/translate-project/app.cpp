// translate-project's program: CYCLIC(2) -> BLOCK of APP_EXTENT elements on
// AppProcs processes, every element checked.
#include "app_procs.h"

#include <mpi.h>

#include <cstdio>
#include <vector>

#pragma redist processors P(AppProcs)
constexpr long N = APP_EXTENT;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<long> x;
  for (long G = 2 * Rank; Rank < AppProcs && G < N; G += 2 * AppProcs)
    for (long I = G; I < G + 2 && I < N; ++I)
      x.push_back(I);
#pragma redist distribute x[N](cyclic(2)) onto P
#pragma redist redistribute x(block)
  const long Block = (N + AppProcs - 1) / AppProcs;
  long Wrong = 0;
  for (long L = 0; L < static_cast<long>(x.size()); ++L)
    Wrong += x[L] != Rank * Block + L;
  long Total = 0, Count = static_cast<long>(x.size()), Elements = 0;
  MPI_Reduce(&Wrong, &Total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&Count, &Elements, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("app: %ld elements, %ld misplaced\n", Elements, Total);
  MPI_Finalize();
  return 0;
}
