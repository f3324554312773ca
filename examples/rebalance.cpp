//===- rebalance.cpp - redist's example: a GEN_BLOCK load balancer --------===//
//
// A load balancer in the style of HPF-2's GEN_BLOCK: an array of N doubles
// lives in contiguous segments, one per process, and the work per element
// varies over the array: a hot spot, a tenth of the array, costs 31 times
// more than the rest, and it moves on every round, as the front of a
// simulation would. Each round every process
//   1. does its share of the work and measures it, in 64 bins of its
//      segment (a real program would time the bins with MPI_Wtime; counting
//      the units of work keeps this example's output the same on every run),
//   2. learns every process's measurements with one MPI_Allgather,
//   3. computes new segment sizes that give each process the same share of
//      the measured load (taken as spread evenly within each bin), and
//   4. moves the array there with one directive:
//        #pragma redist redistribute x(gen_block(NewSizes))
// The sizes are only known at run time, so redistc translates the directive
// into a call to the runtime (the dynamic path). After each move the
// program checks that every element arrived where GEN_BLOCK puts it, and
// measures the round's work again: it prints the load imbalance (largest load
// over mean load) before and after.
//
// Build and run: see examples/CMakeLists.txt and docs/redistc.md; it runs on
// any number of MPI processes.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

constexpr std::int64_t N = 60000;
constexpr int Rounds = 3;
/// Load measurements per process and round.
constexpr int Bins = 64;

namespace {

int Rank = 0;

/// The value element g holds: checked after every move.
double value(std::int64_t G) { return 0.5 * static_cast<double>(G); }

/// The hot spot of round R (from 1): [HotBegin, HotBegin + N / 10).
std::int64_t hotBegin(int R) { return (3 * R - 1) * N / 10; }

/// Units of work element g costs in round R.
long cost(std::int64_t G, int R) {
  return G >= hotBegin(R) && G < hotBegin(R) + N / 10 ? 31 : 1;
}

/// First element of bin B of a segment of S elements (B = Bins: the end).
std::int64_t binStart(std::int64_t S, int B) { return B * S / Bins; }

/// Round R's kernel: cost(g, R) steps on each local element, into Result.
/// Returns the units of work done in each bin of the segment: this
/// process's measured load.
std::vector<long> work(const std::vector<double> &X, std::int64_t First, int R,
                       double &Result) {
  const std::int64_t S = static_cast<std::int64_t>(X.size());
  std::vector<long> Units(Bins, 0);
  for (int B = 0; B < Bins; ++B)
    for (std::int64_t L = binStart(S, B); L < binStart(S, B + 1); ++L) {
      const long Steps = cost(First + L, R);
      double V = X[L];
      for (long Step = 0; Step < Steps; ++Step)
        V = 0.5 * V + 1.0;
      Result += V;
      Units[B] += Steps;
    }
  return Units;
}

/// The load of each process, from every process's bins.
std::vector<long> loadsOf(const std::vector<long> &AllBins) {
  std::vector<long> Loads(AllBins.size() / Bins, 0);
  for (std::size_t I = 0; I < AllBins.size(); ++I)
    Loads[I / Bins] += AllBins[I];
  return Loads;
}

/// Largest load over mean load: 1 is perfect balance.
double imbalance(const std::vector<long> &Loads) {
  long Max = 0, Total = 0;
  for (long Load : Loads) {
    Max = std::max(Max, Load);
    Total += Load;
  }
  return Total == 0 ? 1.0
                    : static_cast<double>(Max) * Loads.size() /
                          static_cast<double>(Total);
}

/// New GEN_BLOCK sizes from the measured loads of every bin of the old
/// segments: cut the cumulative load, taken as linear within each bin, into
/// equal shares.
std::vector<std::int64_t> balance(const std::vector<std::int64_t> &Sizes,
                                  const std::vector<long> &AllBins) {
  // The bins in global order, as (first element, elements, load).
  struct Piece {
    std::int64_t Start, Size;
    double Load;
  };
  std::vector<Piece> Pieces;
  std::int64_t Start = 0;
  double Total = 0;
  for (std::size_t P = 0; P < Sizes.size(); ++P) {
    for (int B = 0; B < Bins; ++B) {
      const double Load = static_cast<double>(AllBins[P * Bins + B]);
      Pieces.push_back({Start + binStart(Sizes[P], B),
                        binStart(Sizes[P], B + 1) - binStart(Sizes[P], B),
                        Load});
      Total += Load;
    }
    Start += Sizes[P];
  }
  const std::size_t P = Sizes.size();
  std::vector<std::int64_t> Cuts(P + 1, 0);
  Cuts[P] = N;
  double Before = 0; // load of the pieces before piece I
  std::size_t I = 0;
  for (std::size_t K = 1; K < P; ++K) {
    const double Share = Total * static_cast<double>(K) / P;
    while (I + 1 < Pieces.size() && Before + Pieces[I].Load < Share)
      Before += Pieces[I++].Load;
    const Piece &Pc = Pieces[I];
    std::int64_t Cut = Pc.Start;
    if (Pc.Load > 0)
      Cut += static_cast<std::int64_t>(
          (Share - Before) / Pc.Load * static_cast<double>(Pc.Size) + 0.5);
    Cuts[K] = std::clamp(Cut, Cuts[K - 1], N);
  }
  std::vector<std::int64_t> NewSizes(P);
  for (std::size_t K = 0; K < P; ++K)
    NewSizes[K] = Cuts[K + 1] - Cuts[K];
  return NewSizes;
}

std::string sizesText(const std::vector<std::int64_t> &Sizes) {
  std::string Text;
  for (std::int64_t S : Sizes)
    Text += (Text.empty() ? "" : ",") + std::to_string(S);
  return "gen_block(" + Text + ")";
}

/// The global index of this process's first element under GEN_BLOCK(Sizes).
std::int64_t firstOf(const std::vector<std::int64_t> &Sizes) {
  std::int64_t First = 0;
  for (int P = 0; P < Rank; ++P)
    First += Sizes[P];
  return First;
}

/// Counts, over all processes, the local elements that hold the value of
/// the global index GEN_BLOCK(Sizes) puts there (this process's segment
/// starts at First), and prints it on rank 0.
void check(const std::vector<double> &X, const std::vector<std::int64_t> &Sizes,
           std::int64_t First) {
  long Right = 0;
  if (static_cast<std::int64_t>(X.size()) == Sizes[Rank])
    for (std::size_t L = 0; L < X.size(); ++L)
      Right += X[L] == value(First + static_cast<std::int64_t>(L));
  long Total = 0;
  MPI_Reduce(&Right, &Total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (Rank == 0)
    std::printf("  check: %ld of %lld elements arrived, each where "
                "gen_block puts it%s\n",
                Total, static_cast<long long>(N),
                Total == N ? "" : "  <-- WRONG");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  if (Rank == 0)
    std::printf("redist rebalance example: %lld doubles on %d processes\n",
                static_cast<long long>(N), Size);

  // Start from equal segments.
  std::vector<std::int64_t> Sizes(Size, N / Size);
  Sizes[Size - 1] += N % Size;
  std::int64_t First = firstOf(Sizes);
  std::vector<double> x(Sizes[Rank]);
  for (std::size_t L = 0; L < x.size(); ++L)
    x[L] = value(First + static_cast<std::int64_t>(L));
#pragma redist processors Procs(Size)
#pragma redist distribute x[N](gen_block(Sizes)) onto Procs

  double Result = 0; // the kernel's output, unused here
  std::vector<long> AllBins(static_cast<std::size_t>(Size) * Bins);
  // Does round R's work and gathers every process's measurements.
  auto Measure = [&](int R) {
    std::vector<long> Mine = work(x, First, R, Result);
    MPI_Allgather(Mine.data(), Bins, MPI_LONG, AllBins.data(), Bins, MPI_LONG,
                  MPI_COMM_WORLD);
  };
  for (int Round = 1; Round <= Rounds; ++Round) {
    Measure(Round);
    std::vector<std::int64_t> NewSizes = balance(Sizes, AllBins);
    if (Rank == 0)
      std::printf("round %d, hot spot [%lld, %lld): load imbalance %.2f "
                  "under %s\n  rebalance to %s\n",
                  Round, static_cast<long long>(hotBegin(Round)),
                  static_cast<long long>(hotBegin(Round) + N / 10),
                  imbalance(loadsOf(AllBins)), sizesText(Sizes).c_str(),
                  sizesText(NewSizes).c_str());

#pragma redist redistribute x(gen_block(NewSizes))

    Sizes = NewSizes;
    First = firstOf(Sizes);
    check(x, Sizes, First);
    Measure(Round);
    if (Rank == 0)
      std::printf("  load imbalance after: %.2f\n",
                  imbalance(loadsOf(AllBins)));
  }

  MPI_Finalize();
  return 0;
}
