//===- RingMpiBench.cpp - rebalanceRing against any-to-any moves ----------===//
//
//   mpirun -np P ring-mpi-bench [--items N] [--repeats R] [--seed S]
//
// One rebalancing of N items per rank on average (64-byte items; loads and
// targets drawn from the seed, from 0.5 to 1.5 times the mean), done three
// ways, interleaved, R times each:
//   ring       redist::rebalanceRing, bidirectional, auto, costs given (1),
//              planning included;
//   gen_block  the same counts as a GEN_BLOCK -> GEN_BLOCK redistribution
//              (redist::redistribute, cached plan): any-to-any;
//   alltoallv  that redistribution's messages as one MPI_Alltoallv.
// Each time is the slowest rank's; prints min and median per method and the
// ratios to ring. The items are reset (untimed) before every run.
//
//===----------------------------------------------------------------------===//

#include "BenchmarkHeap.h"
#include "ToolCommandLine.h"

#include "redist/runtime/Redistribute.h"
#include "redist/runtime/Ring.h"

#include "llvm/Support/CommandLine.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace cl = llvm::cl;

namespace {

cl::OptionCategory BenchCategory("ring-mpi-bench options");
cl::opt<long long> Items("items", cl::desc("Mean items per rank"),
                         cl::init(100000), cl::cat(BenchCategory));
cl::opt<int> Repeats("repeats", cl::desc("Runs per method"), cl::init(15),
                     cl::cat(BenchCategory));
cl::opt<unsigned long long> Seed("seed", cl::desc("Random seed"), cl::init(7),
                                 cl::cat(BenchCategory));

struct Item {
  double Data[8];
};

std::vector<std::int64_t> drawCounts(std::mt19937_64 &Rng, int Size,
                                     std::int64_t Total) {
  std::vector<double> Weights(Size);
  for (double &W : Weights)
    W = std::uniform_real_distribution<double>(0.5, 1.5)(Rng);
  double Sum = 0;
  for (double W : Weights)
    Sum += W;
  std::vector<std::int64_t> Counts(Size);
  std::int64_t Given = 0;
  for (int R = 0; R < Size; ++R)
    Given += Counts[R] = static_cast<std::int64_t>(Total * Weights[R] / Sum);
  Counts[0] += Total - Given;
  return Counts;
}

double slowest(double Seconds) {
  double Max = 0;
  MPI_Allreduce(&Seconds, &Max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return Max;
}

} // namespace

int main(int Argc, char **Argv) {
  redist::bench::setUpBenchmarkHeap();
  MPI_Init(&Argc, &Argv);
  redist::tools::parseToolCommandLine(Argc, Argv, BenchCategory,
                                      "ring rebalancing against peers\n");
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::mt19937_64 Rng(Seed);
  const std::int64_t Total = Items * Size;
  const std::vector<std::int64_t> Loads = drawCounts(Rng, Size, Total);
  const std::vector<std::int64_t> Targets = drawCounts(Rng, Size, Total);
  const std::vector<Item> Initial(Loads[Rank], Item{{1, 2, 3, 4, 5, 6, 7, 8}});

  // The any-to-any move: GEN_BLOCK segments, and its Alltoallv counts.
  const redist::Distribution From = redist::Distribution::genBlock(Loads);
  const redist::Distribution To = redist::Distribution::genBlock(Targets);
  std::vector<int> SendCounts(Size, 0), RecvCounts(Size, 0), SendDispls(Size),
      RecvDispls(Size);
  std::vector<std::int64_t> SrcBegin(Size + 1, 0), DstBegin(Size + 1, 0);
  for (int R = 0; R < Size; ++R) {
    SrcBegin[R + 1] = SrcBegin[R] + Loads[R];
    DstBegin[R + 1] = DstBegin[R] + Targets[R];
  }
  auto Overlap = [&](int S, int D) {
    return std::max<std::int64_t>(0,
                                  std::min(SrcBegin[S + 1], DstBegin[D + 1]) -
                                      std::max(SrcBegin[S], DstBegin[D]));
  };
  for (int R = 0; R < Size; ++R) {
    SendCounts[R] = static_cast<int>(Overlap(Rank, R) * sizeof(Item));
    RecvCounts[R] = static_cast<int>(Overlap(R, Rank) * sizeof(Item));
  }
  for (int R = 1; R < Size; ++R) {
    SendDispls[R] = SendDispls[R - 1] + SendCounts[R - 1];
    RecvDispls[R] = RecvDispls[R - 1] + RecvCounts[R - 1];
  }

  redist::RingOptions Options;
  Options.Bidirectional = true;
  Options.CostFwd = {1.0};
  std::vector<double> Ring, RingMoving, GenBlock, Alltoallv;
  long long RingMessages = 0;
  std::string Algorithm;
  std::vector<Item> Work, Out(Targets[Rank]);
  for (int Run = 0; Run <= Repeats; ++Run) { // run 0 warms up
    Work = Initial;
    MPI_Barrier(MPI_COMM_WORLD);
    double Start = MPI_Wtime();
    const redist::RingRebalanceResult Moved =
        redist::rebalanceRing(Work, Targets[Rank], MPI_COMM_WORLD, Options);
    const double RingTime = slowest(MPI_Wtime() - Start);
    const double MoveTime = slowest(Moved.Seconds);
    long long Messages = Moved.Messages, AllMessages = 0;
    MPI_Allreduce(&Messages, &AllMessages, 1, MPI_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    RingMessages = AllMessages;
    Algorithm = Moved.Schedule.Algorithm;
    if (static_cast<std::int64_t>(Work.size()) != Targets[Rank])
      MPI_Abort(MPI_COMM_WORLD, 1);

    Work = Initial;
    MPI_Barrier(MPI_COMM_WORLD);
    Start = MPI_Wtime();
    redist::redistribute(Work, Out, From, To, Total, MPI_COMM_WORLD);
    const double GenTime = slowest(MPI_Wtime() - Start);

    Work = Initial;
    MPI_Barrier(MPI_COMM_WORLD);
    Start = MPI_Wtime();
    MPI_Alltoallv(Work.data(), SendCounts.data(), SendDispls.data(), MPI_BYTE,
                  Out.data(), RecvCounts.data(), RecvDispls.data(), MPI_BYTE,
                  MPI_COMM_WORLD);
    const double AllTime = slowest(MPI_Wtime() - Start);
    if (Run > 0) {
      Ring.push_back(RingTime);
      RingMoving.push_back(MoveTime);
      GenBlock.push_back(GenTime);
      Alltoallv.push_back(AllTime);
    }
  }
  auto Report = [&](const char *Name, std::vector<double> V) {
    std::sort(V.begin(), V.end());
    std::vector<double> R = Ring;
    std::sort(R.begin(), R.end());
    std::printf("| %s | %.3f | %.3f | %.2f | %.2f |\n", Name, V.front() * 1e3,
                V[V.size() / 2] * 1e3, V.front() / R.front(),
                V[V.size() / 2] / R[R.size() / 2]);
  };
  if (Rank == 0) {
    std::printf("ring-mpi-bench: %d ranks, %lld items of %zu bytes per rank "
                "on average, %d runs each, interleaved\n\n",
                Size, static_cast<long long>(Items), sizeof(Item),
                static_cast<int>(Repeats));
    std::printf("ring: %s, %lld messages in all\n\n", Algorithm.c_str(),
                RingMessages);
    std::printf("| method | min ms | median ms | min / ring | median / ring "
                "|\n|---|---:|---:|---:|---:|\n");
    Report("ring (rebalanceRing)", Ring);
    Report("ring, moving only (planning excluded)", RingMoving);
    Report("gen_block (redistribute)", GenBlock);
    Report("MPI_Alltoallv", Alltoallv);
  }
  MPI_Finalize();
  return 0;
}
