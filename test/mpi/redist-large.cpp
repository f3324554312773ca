//===- redist-large.cpp - Arrays and messages beyond MPI's int counts -----===//
//
//   mpirun -np 2 redist-large quick|full [N]
//
// GEN_BLOCK {N, 0} -> {0, N} of 1-byte elements: the whole array is one
// message from rank 0 to rank 1. N defaults to 2^31 + 2^20 + 7, more
// elements and bytes than an int counts, so under the default transfer limit
// the message must go in pieces (the first of exactly INT_MAX bytes, the
// largest a count allows) and the Alltoallv mode in several rounds; each
// plan's transfers() must say how many.
//
// With shared memory on (the default) the Scheduled mode hands the message
// over instead, in at most 4096 chunks: no MPI transfer, and a ring of four
// chunks; or, with single copies, rank 1 reads it from rank 0's source
// (process_vm_readv stops at about 2^31 bytes per call): no buffer at all.
//
// "full" executes plans in the Scheduled mode (through shared memory, and
// over MPI with Runs and Auto packing), the Unsynchronized mode with
// datatypes, and the Alltoallv mode with Runs and Datatypes, and checks
// every element of the target, the guard bytes around it and the source.
// Rank 0 holds the N-byte source and rank 1 the target, plus at most an
// N-byte buffer each: about 4 N bytes in all. "quick" builds only the plans
// without large buffers (2 N bytes in all) and executes the Scheduled
// mode's. Prints one line per plan; exits 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace redist;

namespace {

int Rank = 0;

/// The byte global element G holds in the run salted with Salt: Fibonacci
/// hashing, so neighbours differ and a shifted or misplaced range shows. The
/// hash is linear in G, so the loops below step it by one addition, which
/// the compiler vectorizes: they run at memory speed.
constexpr uint32_t Golden = 2654435761u;
inline uint32_t hashOf(int64_t G, uint32_t Salt) {
  return static_cast<uint32_t>(G) * Golden + Salt;
}

/// Fills Out[0..Count) with the values of global elements First...
void fill(uint8_t *Out, int64_t Count, int64_t First, uint32_t Salt) {
  uint32_t H = hashOf(First, Salt);
  for (int64_t I = 0; I < Count; ++I, H += Golden)
    Out[I] = static_cast<uint8_t>(H >> 24);
}

/// Number of elements of In[0..Count) that do not hold the values of global
/// elements First... Counted in 32-bit blocks, which vectorize better.
int64_t countWrong(const uint8_t *In, int64_t Count, int64_t First,
                   uint32_t Salt) {
  int64_t Wrong = 0;
  uint32_t H = hashOf(First, Salt);
  for (int64_t B = 0; B < Count; B += 4096) {
    const int64_t E = std::min(Count, B + 4096);
    uint32_t BlockWrong = 0;
    for (int64_t I = B; I < E; ++I, H += Golden)
      BlockWrong += In[I] != static_cast<uint8_t>(H >> 24);
    Wrong += BlockWrong;
  }
  return Wrong;
}

struct Variant {
  ExecMode Mode;
  Packing Pack;
  bool Shared; ///< PlanOptions::SharedMemory
  /// With Shared: read by a single copy (SingleCopyRunBytes 0), else
  /// handed over (-1).
  bool Direct;
  /// Whether "quick" builds it (plans with buffers touch N bytes each), and
  /// executes it.
  bool Quick, QuickRun;
};

int64_t expect(bool Cond, const std::string &What) {
  if (Cond)
    return 0;
  std::printf("ERROR rank %d: %s\n", Rank, What.c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(2);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const std::string What = argc > 1 ? argv[1] : "";
  if (What != "quick" && What != "full") {
    if (Rank == 0)
      std::fprintf(stderr, "usage: redist-large quick|full [N]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const bool Full = What == "full";
  const int64_t N =
      argc > 2 ? std::atoll(argv[2]) : (int64_t(1) << 31) + (1 << 20) + 7;
  const Distribution From = Distribution::genBlock({N, 0});
  const Distribution To = Distribution::genBlock({0, N});

  // What the default limit implies: pieces of INT_MAX bytes, and rounds in
  // which each of the 2 ranks gets INT_MAX / 2 bytes.
  const int64_t Pieces = (N + INT_MAX - 1) / INT_MAX;
  const int64_t PerRound = INT_MAX / 2;
  const int64_t Rounds = (N + PerRound - 1) / PerRound;

  // Rank 0 holds the source, rank 1 the target between guard bytes.
  const int64_t Guard = 64;
  std::unique_ptr<uint8_t[]> Src, Dst;
  if (Rank == 0)
    Src.reset(new uint8_t[static_cast<std::size_t>(N)]);
  if (Rank == 1)
    Dst.reset(new uint8_t[static_cast<std::size_t>(N + 2 * Guard)]);

  const Variant Variants[] = {
      {ExecMode::Scheduled, Packing::Runs, true, false, true, true},
      {ExecMode::Scheduled, Packing::Runs, true, true, true, true},
      {ExecMode::Scheduled, Packing::Runs, false, false, false, false},
      {ExecMode::Scheduled, Packing::Auto, false, false, true, true},
      {ExecMode::Unsynchronized, Packing::Datatypes, false, false, true, false},
      {ExecMode::Alltoallv, Packing::Runs, false, false, false, false},
      {ExecMode::Alltoallv, Packing::Datatypes, false, false, true, false},
  };
  int64_t Errors = 0;
  uint32_t Salt = 0;
  for (const Variant &V : Variants) {
    if (!Full && !V.Quick)
      continue;
    const bool Execute = Full || V.QuickRun;
    PlanOptions O;
    O.Mode = V.Mode;
    O.Pack = V.Pack;
    O.SharedMemory = V.Shared;
    O.SingleCopyRunBytes = V.Direct ? 0 : -1;
    const std::string Label = std::string(execModeName(V.Mode)) + "/" +
                              packingName(V.Pack) +
                              (V.Mode != ExecMode::Scheduled ? ""
                               : V.Direct                    ? "/single-copy"
                               : V.Shared                    ? "/shared"
                                                             : "/p2p");
    Plan Pl(From, To, N, 1, MPI_COMM_WORLD, O);

    // The message goes in pieces, or the collective in rounds, or through
    // shared memory or by a single copy without MPI transfers.
    const int64_t Want = V.Shared                        ? 0
                         : V.Mode == ExecMode::Alltoallv ? Rounds
                                                         : Pieces;
    // Where the kernel refuses single copies (test/lit.cfg.py's feature
    // single-copy), the node falls back to the handover.
    const bool Direct = V.Direct && Pl.directMessages() > 0;
    Errors += expect(Pl.transfers() == Want &&
                         Pl.sharedMessages() == (V.Shared && !Direct) &&
                         Pl.directMessages() == Direct,
                     Label + ": " + std::to_string(Pl.transfers()) +
                         " transfers, expected " + std::to_string(Want));
    // Auto packing chooses datatypes for runs this long: no buffer. The
    // sender's shared ring holds 4 of 4096 chunks; the receiver has none.
    // A single copy needs none.
    const bool Buffered = Direct     ? false
                          : V.Shared ? Rank == 0
                                     : V.Pack == Packing::Runs;
    const std::size_t MaxBuffer = V.Shared ? static_cast<std::size_t>(N / 1000)
                                  : Buffered ? static_cast<std::size_t>(N)
                                             : std::size_t(0);
    Errors += expect(
        Pl.bufferBytes() <= MaxBuffer && (Pl.bufferBytes() > 0) == Buffered,
        Label + ": " + std::to_string(Pl.bufferBytes()) + " bytes of buffers");

    int64_t Wrong = 0;
    if (Execute) {
      // A new salt per plan, so no plan can pass on an earlier one's data.
      Salt += 0x9e3779b9u;
      if (Rank == 0)
        fill(Src.get(), N, 0, Salt);
      // The target and its guards start as guard bytes, alternating between
      // plans as in CheckRedistribution.h.
      if (Rank == 1)
        std::memset(Dst.get(), test::GuardBytes[Salt % 2],
                    static_cast<std::size_t>(N + 2 * Guard));
      Pl.execute(Src.get(), Dst ? Dst.get() + Guard : nullptr);
      if (Rank == 0)
        Wrong += countWrong(Src.get(), N, 0, Salt);
      if (Rank == 1) {
        const uint8_t Poison = test::GuardBytes[Salt % 2];
        Wrong += countWrong(Dst.get() + Guard, N, 0, Salt);
        for (int64_t I = 0; I < Guard; ++I)
          Wrong += (Dst[static_cast<std::size_t>(I)] != Poison) +
                   (Dst[static_cast<std::size_t>(N + Guard + I)] != Poison);
      }
    }
    Errors += expect(Wrong == 0, Label + ": " + std::to_string(Wrong) +
                                     " wrong elements or guard bytes");
    const int64_t AllWrong = test::sumOverRanks(Wrong);
    if (Rank == 0)
      std::printf(
          "%s: N = %lld bytes, %lld transfers%s%s\n", Label.c_str(),
          static_cast<long long>(N), static_cast<long long>(Pl.transfers()),
          Execute
              ? (AllWrong == 0 ? ", every element right" : ", WRONG ELEMENTS")
              : "",
          !V.Direct ? ""
          : Direct  ? ", by single copy"
                    : ", handed over (single copies refused)");
  }
  int64_t Total = test::sumOverRanks(Errors);
  if (Rank == 0)
    std::printf("redist-large: %s, %lld errors\n", What.c_str(),
                static_cast<long long>(Total));
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
