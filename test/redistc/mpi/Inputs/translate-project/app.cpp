// translate-project's program: CYCLIC(2) -> BLOCK of APP_EXTENT elements on
// AppProcs processes, every element checked. redistc must see what the
// compiler sees (CMakeLists.txt says where each part comes from).
#include "app_procs.h"

#include <mpi.h>

#include <cstdio>
#include <vector>

#if APP_DIRECTORY_EARLY != 1 || APP_DIRECTORY_LATE != 2
#error "redistc must get the directory's compile definitions"
#endif
#if defined(__STRICT_ANSI__)
#error "redistc must parse app.cpp with GNU extensions (gnu++20)"
#endif

// consteval: C++20.
consteval int appProcs() { return AppProcs; }

#pragma redist processors P(appProcs())
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
