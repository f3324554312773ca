//===- redist-node-memory.cpp - Plans reading sources in node memory ------===//
//
//   mpirun -np 4 redist-node-memory [--setting]
//
// The cases of node memory (redist/runtime/NodeMemory.h) the sweeps'
// --node-memory does not reach, on 4 ranks of one node. Each runs plans of
// the Unsynchronized mode (which moves a node's messages all at once) or a
// Scheduled node phase, checks every target element, that the sources are
// unchanged, and on each rank that Plan::nodeReads() grew by one per
// execute where the sources allow it (on every rank with messages within
// the node) and not at all where one does not (on every rank alike):
// sources at offsets inside larger arrays, sizes differing per rank, zero
// on one; moved arrays; arrays large enough to move in rounds, read tile by
// tile; one source in ordinary memory; a rank's source
// freed and allocated anew between executes, and a reader that dropped its
// mapping of it; a combining execute; executeStep; a plan over half of the
// ranks; arrays allocated over communicators that keep a sender's memory
// from its reader. Then targets in node memory too, where the node's ranks
// share the whole tiles of all targets (Plan::nodeWrites(), checked on
// every rank like nodeReads()): targets at offsets inside larger arrays
// with elements of 4, 8 and 16 bytes; one target in ordinary memory; a
// target allocated anew; executeStep; a combining execute. Prints one line
// per case; exits 1 on any error.
//
// --setting: allocates node memory once, and prints the error every rank
// raises (REDIST_NODE_MEMORY set badly on some rank, see node-memory.test).
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "ExpectError.h"
#include "redist/runtime/MatrixPlan.h"
#include "redist/runtime/NodeMemory.h"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace redist;
using D = Distribution;

namespace {

int Rank = 0;

/// Fills Pl's source part at Src with each element's value (shifted by
/// Shift), runs Pl (step by step when Steps) into Target (a fresh array
/// where null), and checks every target element and that the source is
/// unchanged. Returns this rank's errors.
int64_t runOnce(const Plan &Pl, unsigned char *Src, int64_t Shift,
                const std::string &Label, bool Steps = false,
                unsigned char *Target = nullptr) {
  const std::size_t E = Pl.elementBytes();
  const int64_t SrcN = Pl.sourceLocalSize(), DstN = Pl.targetLocalSize();
  for (int64_t L = 0; L < SrcN; ++L)
    test::elementValue(Pl.source().toGlobal(Pl.rank(), L) + Shift, E,
                       Src + static_cast<std::size_t>(L) * E);
  const std::vector<unsigned char> Copy(
      Src, Src + static_cast<std::size_t>(SrcN) * E);
  std::vector<unsigned char> Fresh(Target ? 0
                                          : static_cast<std::size_t>(DstN) * E);
  unsigned char *Dst = Target ? Target : Fresh.data();
  std::memset(Dst, 0xA5, static_cast<std::size_t>(DstN) * E);
  if (Steps) {
    for (int64_t K = 0; K < static_cast<int64_t>(Pl.schedule().Steps.size());
         ++K)
      Pl.executeStep(Src, Dst, K);
  } else {
    Pl.execute(Src, Dst);
  }
  int64_t Errors = 0;
  std::vector<unsigned char> Want(E);
  for (int64_t L = 0; L < DstN; ++L) {
    test::elementValue(Pl.target().toGlobal(Pl.rank(), L) + Shift, E,
                       Want.data());
    if (std::memcmp(Dst + static_cast<std::size_t>(L) * E, Want.data(), E) !=
            0 &&
        ++Errors <= 3)
      std::printf("ERROR %s rank %d: target local %lld is wrong\n",
                  Label.c_str(), Pl.rank(), static_cast<long long>(L));
  }
  if (!Copy.empty() && std::memcmp(Copy.data(), Src, Copy.size()) != 0) {
    ++Errors;
    std::printf("ERROR %s rank %d: the source was modified\n", Label.c_str(),
                Pl.rank());
  }
  return Errors;
}

/// Pl.nodeReads() must be Before + Reads on a rank with messages within the
/// node (sharedMessages()), Before on any other. Returns this rank's errors.
int64_t expectReads(const Plan &Pl, int64_t Before, int64_t Reads,
                    const std::string &Label) {
  const int64_t Want = Before + (Pl.sharedMessages() > 0 ? Reads : 0);
  if (Pl.nodeReads() == Want)
    return 0;
  std::printf("ERROR %s rank %d: nodeReads() %lld, expected %lld (%lld "
              "messages within the node)\n",
              Label.c_str(), Pl.rank(), static_cast<long long>(Pl.nodeReads()),
              static_cast<long long>(Want),
              static_cast<long long>(Pl.sharedMessages()));
  return 1;
}

/// Pl.nodeWrites() must be Before + Writes on a rank with messages within
/// the node, Before on any other. Returns this rank's errors.
int64_t expectWrites(const Plan &Pl, int64_t Before, int64_t Writes,
                     const std::string &Label) {
  const int64_t Want = Before + (Pl.sharedMessages() > 0 ? Writes : 0);
  if (Pl.nodeWrites() == Want)
    return 0;
  std::printf("ERROR %s rank %d: nodeWrites() %lld, expected %lld\n",
              Label.c_str(), Pl.rank(), static_cast<long long>(Pl.nodeWrites()),
              static_cast<long long>(Want));
  return 1;
}

/// Bytes of node memory over Comm for Pl's source or target part, at
/// Offset bytes into an array with Spare bytes more behind it.
struct Placed {
  NodeArray<unsigned char> Array;
  std::size_t Offset = 0;
  std::size_t Bytes = 0;
  unsigned char *data() { return Array.data() + Offset; }
};
Placed place(MPI_Comm Comm, std::size_t Bytes, std::size_t Offset,
             std::size_t Spare) {
  return {NodeArray<unsigned char>(Comm, Offset + Bytes + Spare), Offset,
          Bytes};
}
Placed placeSource(const Plan &Pl, MPI_Comm Comm, std::size_t Offset = 0,
                   std::size_t Spare = 0) {
  return place(
      Comm, static_cast<std::size_t>(Pl.sourceLocalSize()) * Pl.elementBytes(),
      Offset, Spare);
}
Placed placeTarget(const Plan &Pl, MPI_Comm Comm, std::size_t Offset = 0,
                   std::size_t Spare = 0) {
  return place(
      Comm, static_cast<std::size_t>(Pl.targetLocalSize()) * Pl.elementBytes(),
      Offset, Spare);
}

/// The bytes around a placed target, which no execute may write.
constexpr unsigned char Around = 0x5A;
void fillAround(Placed &T) {
  std::memset(T.Array.data(), Around, T.Array.size());
}
int64_t checkAround(Placed &T, const std::string &Label) {
  for (std::size_t I = 0; I < T.Array.size(); ++I)
    if ((I < T.Offset || I >= T.Offset + T.Bytes) &&
        T.Array.data()[I] != Around) {
      std::printf("ERROR %s rank %d: byte %zu around the target written\n",
                  Label.c_str(), Rank, I);
      return 1;
    }
  return 0;
}

bool isPrime(int64_t N) {
  for (int64_t D = 2; D * D <= N; ++D)
    if (N % D == 0)
      return false;
  return N > 1;
}

/// CYCLIC(3) -> CYCLIC(5) on 4 ranks with E-byte elements, each rank's
/// part 1.25 MiB (four rounds or more, and twice it exceeds an L2 of up to
/// 2.5 MiB): short runs, whole tiles of one shape on every rank. A prime
/// number of slices, so that tiles of a few slices leave a partial last
/// one, and an incomplete slice (7 elements).
Plan sharingPlan(std::size_t E, ExecMode Mode) {
  int64_t Slices = (5 << 18) * 4 / (60 * static_cast<int64_t>(E));
  while (!isPrime(Slices))
    ++Slices;
  PlanOptions O;
  O.Mode = Mode;
  return Plan(D::cyclic(4, 3), D::cyclic(4, 5), 60 * Slices + 7, E,
              MPI_COMM_WORLD, O);
}

/// Runs Case on every rank and prints "NAME: ok" or the errors summed over
/// the ranks. Returns the sum.
PlanOptions unsync() {
  PlanOptions O;
  O.Mode = ExecMode::Unsynchronized;
  return O;
}

/// t = 1 * t + 2 * s on doubles with a matrix plan, its source in node
/// memory and its target there too where NodeTarget: read directly, no
/// tiles shared (a combining execute reads its target), every element
/// checked exactly.
int64_t combineCase(bool NodeTarget, const char *Label) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int64_t Errors = 0;
  const MatrixSide From{Layout2D::blockCyclic(40, 30, 2, 2, 4, 3), {}, 0};
  const MatrixSide To{Layout2D::blockCyclic(40, 30, 4, 1, 5, 2), {}, 0};
  PlanOptions O = unsync();
  O.Pack = Packing::Runs;
  const MatrixPlan Pl(From, To, sizeof(double), MPI_COMM_WORLD, MatrixRegion(),
                      O);
  NodeArray<double> Src(MPI_COMM_WORLD,
                        static_cast<std::size_t>(Pl.sourceStorageSize()));
  const std::size_t Count = static_cast<std::size_t>(Pl.targetStorageSize());
  std::vector<double> Private(NodeTarget ? 0 : Count);
  NodeArray<double> Node(MPI_COMM_WORLD, NodeTarget ? Count : 0);
  double *Dst = NodeTarget ? Node.data() : Private.data();
  for (std::size_t I = 0; I < Src.size(); ++I) {
    const auto [R, C] = From.Layout.toGlobal(Rank, static_cast<int64_t>(I));
    Src[I] = static_cast<double>(R * 100 + C);
  }
  for (std::size_t I = 0; I < Count; ++I) {
    const auto [R, C] = To.Layout.toGlobal(Rank, static_cast<int64_t>(I));
    Dst[I] = -static_cast<double>(R + C);
  }
  Combine C;
  C.Alpha[0] = 2;
  C.Beta[0] = 1;
  Pl.execute(Src.data(), Dst, C);
  for (std::size_t I = 0; I < Count; ++I) {
    const auto [R, Col] = To.Layout.toGlobal(Rank, static_cast<int64_t>(I));
    const double Want =
        -static_cast<double>(R + Col) + 2 * static_cast<double>(R * 100 + Col);
    if (Dst[I] != Want && ++Errors <= 3)
      std::printf("ERROR %s rank %d: (%lld, %lld) holds %g, not %g\n", Label,
                  Rank, static_cast<long long>(R), static_cast<long long>(Col),
                  Dst[I], Want);
  }
  Errors += expectReads(Pl.plan(), 0, 1, Label);
  Errors += expectWrites(Pl.plan(), 0, 0, Label);
  return Errors;
}

int64_t runCase(const char *Name, const std::function<int64_t()> &Case) {
  const int64_t Errors = test::sumOverRanks(Case());
  if (Rank == 0) {
    if (Errors == 0)
      std::printf("%s: ok\n", Name);
    else
      std::printf("%s: %lld errors\n", Name, static_cast<long long>(Errors));
  }
  return Errors;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(4);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (argc > 1 && std::strcmp(argv[1], "--setting") == 0) {
    const bool Ok = test::expectErrorOnEveryRank(
        "REDIST_NODE_MEMORY", "REDIST_NODE_MEMORY is",
        [] { NodeArray<double> A(MPI_COMM_WORLD, 100); });
    MPI_Finalize();
    return Ok ? 0 : 1;
  }
  int64_t Errors = 0;

  Errors += runCase("offsets, sizes per rank, moved arrays", [] {
    // GEN_BLOCK with nothing on rank 1 (chunks of whole messages), and
    // CYCLIC(3) -> CYCLIC(5) (tiles of slices), 8- and 12-byte elements.
    int64_t Errors = 0;
    const Plan Irregular(D::genBlock({7000, 0, 2500, 999}), D::cyclic(4, 5),
                         10499, 8, MPI_COMM_WORLD, unsync());
    const Plan Sliced(D::cyclic(4, 3), D::cyclic(4, 5), 60 * 300 + 7, 12,
                      MPI_COMM_WORLD, unsync());
    for (const Plan *Pl : {&Irregular, &Sliced}) {
      const std::string Label = Pl->source().distribution().str();
      // Each rank's source at an offset of its own inside a larger array.
      Placed S = placeSource(*Pl, MPI_COMM_WORLD,
                             8 * static_cast<std::size_t>(Rank) + 3, 40);
      Errors += test::sumOverRanks(!S.Array.shared()) != 0;
      Errors += runOnce(*Pl, S.data(), 1, Label + " at an offset");
      Errors += expectReads(*Pl, 0, 1, Label + " at an offset");
      // The same memory moved into another array, then assigned to a
      // third: still node memory, still read directly.
      NodeArray<unsigned char> Moved(std::move(S.Array));
      NodeArray<unsigned char> Assigned;
      Assigned = std::move(Moved);
      Errors += runOnce(*Pl, Assigned.data() + S.Offset, 2, Label + " moved");
      Errors += expectReads(*Pl, 0, 2, Label + " moved");
    }
    return Errors;
  });

  Errors += runCase("tiles of whole slices", [] {
    // Arrays that exceed a core's L2 move all at once in rounds of whole
    // slices (handoverRounds()), so the direct reads go tile by tile:
    // CYCLIC(3) -> CYCLIC(5) (runs of 1-3 elements) with 8- and 12-byte
    // elements, a shorter last tile and an incomplete slice, in the
    // Unsynchronized mode and the Scheduled and Overlapped node phases;
    // CYCLIC(64) -> CYCLIC(96) (long runs, larger tiles).
    int64_t Errors = 0;
    struct Case {
      int64_t From, To, N;
      std::size_t Bytes;
      ExecMode Mode;
    };
    const Case Cases[] = {
        {3, 5, 60 * 17477 + 7, 8, ExecMode::Unsynchronized},
        {3, 5, 60 * 17477 + 7, 12, ExecMode::Unsynchronized},
        {3, 5, 60 * 17477 + 7, 8, ExecMode::Scheduled},
        {3, 5, 60 * 17477 + 7, 8, ExecMode::Overlapped},
        {64, 96, 768 * 1403 + 100, 8, ExecMode::Unsynchronized}};
    for (const Case &C : Cases) {
      PlanOptions O;
      O.Mode = C.Mode;
      const Plan Pl(D::cyclic(4, C.From), D::cyclic(4, C.To), C.N, C.Bytes,
                    MPI_COMM_WORLD, O);
      const std::string Label = "CYCLIC(" + std::to_string(C.From) +
                                ") -> CYCLIC(" + std::to_string(C.To) + "), " +
                                std::to_string(C.Bytes) + " bytes, " +
                                execModeName(C.Mode);
      if (Pl.handoverRounds() < 4 && ++Errors)
        std::printf("ERROR %s rank %d: %lld rounds\n", Label.c_str(), Rank,
                    static_cast<long long>(Pl.handoverRounds()));
      Placed S = placeSource(Pl, MPI_COMM_WORLD, C.Bytes);
      Errors += runOnce(Pl, S.data(), 1, Label);
      Errors += runOnce(Pl, S.data(), 2, Label, true);
      Errors += expectReads(Pl, 0, 2, Label);
    }
    return Errors;
  });

  Errors += runCase("one source in ordinary memory", [] {
    // Rank 1's source is not node memory: every rank of the node takes the
    // handover, then reads directly again once it is.
    int64_t Errors = 0;
    const Plan Pl(D::cyclic(4, 3), D::cyclic(4, 5), 60 * 200 + 11, 8,
                  MPI_COMM_WORLD, unsync());
    Placed S = placeSource(Pl, MPI_COMM_WORLD);
    std::vector<unsigned char> Private(S.Array.size());
    for (int Time = 0; Time < 2; ++Time) {
      Errors += runOnce(Pl, Rank == 1 ? Private.data() : S.data(), Time,
                        "one private");
      Errors += expectReads(Pl, 0, 0, "one private");
    }
    Errors += runOnce(Pl, S.data(), 5, "all in node memory again");
    Errors += expectReads(Pl, 0, 1, "all in node memory again");
    return Errors;
  });

  Errors += runCase("a source allocated anew", [] {
    // Rank 2, which only sends, frees its source and takes one allocated
    // anew (collectively; the others keep their sources): read directly
    // again. Then the others free what they allocated with it, which held
    // their mappings of rank 2's new memory: no reader maps it any more,
    // and every rank takes the handover, without waiting for anyone.
    int64_t Errors = 0;
    const Plan Pl(D::block(4), D::genBlock({3000, 3000, 0, 3001}), 9001, 8,
                  MPI_COMM_WORLD, unsync());
    Placed S = placeSource(Pl, MPI_COMM_WORLD);
    Errors += runOnce(Pl, S.data(), 0, "before");
    Errors += expectReads(Pl, 0, 1, "before");
    Placed Fresh = placeSource(Pl, MPI_COMM_WORLD);
    if (Rank == 2)
      S.Array = NodeArray<unsigned char>();
    unsigned char *Mine = Rank == 2 ? Fresh.data() : S.data();
    Errors += runOnce(Pl, Mine, 1, "allocated anew");
    Errors += expectReads(Pl, 0, 2, "allocated anew");
    if (Rank != 2)
      Fresh.Array = NodeArray<unsigned char>();
    Errors += runOnce(Pl, Mine, 2, "a reader's view dropped");
    Errors += expectReads(Pl, 0, 2, "a reader's view dropped");
    return Errors;
  });

  Errors += runCase("combining execute",
                    [] { return combineCase(false, "combine"); });

  Errors += runCase("executeStep", [] {
    // Step by step: in the Unsynchronized mode step 0 reads; in the
    // Scheduled mode with nodes of 2 ranks (one message within each, which
    // always fits the node phase) the node phase does, the other steps go
    // over MPI.
    int64_t Errors = 0;
    PlanOptions O;
    O.RanksPerNode = 2;
    const Plan Phase(D::block(4), D::cyclic(4), 20000, 8, MPI_COMM_WORLD, O);
    const Plan Unsync(D::cyclic(4, 3), D::cyclic(4, 5), 60 * 100, 8,
                      MPI_COMM_WORLD, unsync());
    for (const Plan *Pl : {&Phase, &Unsync}) {
      const std::string Label = execModeName(Pl->options().Mode);
      Placed S = placeSource(*Pl, MPI_COMM_WORLD);
      Errors += runOnce(*Pl, S.data(), 3, Label + " step by step", true);
      Errors += runOnce(*Pl, S.data(), 4, Label + " whole");
      Errors += expectReads(*Pl, 0, 2, Label);
      Errors += Pl->sharedMessages() == 0;
    }
    return Errors;
  });

  Errors += runCase("plan over half of the ranks", [] {
    // Ranks {0, 1} and {2, 3}, each pair a plan of its own, the arrays
    // allocated over all four.
    int64_t Errors = 0;
    MPI_Comm Half;
    MPI_Comm_split(MPI_COMM_WORLD, Rank / 2, Rank, &Half);
    {
      const Plan Pl(D::cyclic(2, 3), D::cyclic(2, 7), 5000 + Rank / 2, 8, Half,
                    unsync());
      Placed S = placeSource(Pl, MPI_COMM_WORLD, 16);
      Errors += runOnce(Pl, S.data(), 6, "half");
      Errors += runOnce(Pl, S.data(), 7, "half");
      Errors += expectReads(Pl, 0, 2, "half");
      Errors += Pl.sharedMessages() == 0;
    }
    MPI_Comm_free(&Half);
    return Errors;
  });

  Errors += runCase("arrays over another communicator", [] {
    // Allocated over {0, 2} and {1, 3}: rank 1 does not map rank 0's
    // source, which the plan over all four reads. Every rank takes the
    // handover; and with the arrays of {0, 1} and {2, 3}, likewise.
    int64_t Errors = 0;
    const Plan Pl(D::cyclic(4, 3), D::cyclic(4, 5), 60 * 200, 8, MPI_COMM_WORLD,
                  unsync());
    for (int Split : {0, 1}) {
      MPI_Comm Part;
      MPI_Comm_split(MPI_COMM_WORLD, Split == 0 ? Rank % 2 : Rank / 2, Rank,
                     &Part);
      Placed S = placeSource(Pl, Part);
      Errors += runOnce(Pl, S.data(), 8 + Split, "apart");
      Errors += runOnce(Pl, S.data(), 10 + Split, "apart");
      Errors += expectReads(Pl, 0, 0, "apart");
      MPI_Comm_free(&Part);
    }
    return Errors;
  });

  Errors += runCase("targets at offsets, elements of 4, 8 and 16 bytes", [] {
    // Every source and target in node memory, each at an offset of its
    // own (odd: unaligned) inside a larger array: the node's ranks share
    // the whole tiles of all targets on every execute, in the
    // Unsynchronized mode and the Scheduled and Overlapped node phases,
    // and write nothing around them.
    int64_t Errors = 0;
    const std::pair<std::size_t, ExecMode> Cases[] = {
        {4, ExecMode::Unsynchronized},
        {8, ExecMode::Unsynchronized},
        {16, ExecMode::Unsynchronized},
        {8, ExecMode::Scheduled},
        {16, ExecMode::Overlapped}};
    for (const auto &[E, Mode] : Cases) {
      const Plan Pl = sharingPlan(E, Mode);
      const std::string Label = std::to_string(E) + " bytes, " +
                                execModeName(Mode) + ", targets at offsets";
      if (Pl.handoverRounds() < 4 && ++Errors)
        std::printf("ERROR %s rank %d: %lld rounds\n", Label.c_str(), Rank,
                    static_cast<long long>(Pl.handoverRounds()));
      Placed S = placeSource(Pl, MPI_COMM_WORLD, 8 * Rank + 3, 8);
      Placed T = placeTarget(Pl, MPI_COMM_WORLD, 16 * Rank + 5, 24);
      fillAround(T);
      Errors += runOnce(Pl, S.data(), 1, Label, false, T.data());
      Errors += runOnce(Pl, S.data(), 2, Label, false, T.data());
      Errors += checkAround(T, Label);
      Errors += expectReads(Pl, 0, 2, Label);
      Errors += expectWrites(Pl, 0, 2, Label);
    }
    return Errors;
  });

  Errors += runCase("one target in ordinary memory", [] {
    // Rank 1's target is not node memory: every rank reads only, then
    // shares the tiles again once it is.
    int64_t Errors = 0;
    const Plan Pl = sharingPlan(8, ExecMode::Unsynchronized);
    Placed S = placeSource(Pl, MPI_COMM_WORLD);
    Placed T = placeTarget(Pl, MPI_COMM_WORLD);
    std::vector<unsigned char> Private(T.Bytes);
    for (int Time = 0; Time < 2; ++Time)
      Errors += runOnce(Pl, S.data(), Time, "one private target", false,
                        Rank == 1 ? Private.data() : T.data());
    Errors += expectReads(Pl, 0, 2, "one private target");
    Errors += expectWrites(Pl, 0, 0, "one private target");
    Errors += runOnce(Pl, S.data(), 5, "all targets in node memory again",
                      false, T.data());
    Errors += expectReads(Pl, 0, 3, "all targets in node memory again");
    Errors += expectWrites(Pl, 0, 1, "all targets in node memory again");
    return Errors;
  });

  Errors += runCase("a target allocated anew", [] {
    // Every rank allocates a second target (collectively); rank 2 frees
    // its first and takes the second, the others keep their first. Freeing
    // unmapped rank 2's views of the others' first targets: every rank
    // reads only. Once all take their second targets, the tiles are shared
    // again, and still after the others free their first.
    int64_t Errors = 0;
    const Plan Pl = sharingPlan(8, ExecMode::Unsynchronized);
    Placed S = placeSource(Pl, MPI_COMM_WORLD);
    Placed T = placeTarget(Pl, MPI_COMM_WORLD);
    Errors += runOnce(Pl, S.data(), 0, "first targets", false, T.data());
    Errors += expectWrites(Pl, 0, 1, "first targets");
    Placed Fresh = placeTarget(Pl, MPI_COMM_WORLD);
    if (Rank == 2)
      T.Array = NodeArray<unsigned char>();
    Errors += runOnce(Pl, S.data(), 1, "one target anew", false,
                      Rank == 2 ? Fresh.data() : T.data());
    Errors += expectReads(Pl, 0, 2, "one target anew");
    Errors += expectWrites(Pl, 0, 1, "one target anew");
    Errors += runOnce(Pl, S.data(), 2, "all targets anew", false, Fresh.data());
    Errors += expectWrites(Pl, 0, 2, "all targets anew");
    T.Array = NodeArray<unsigned char>();
    Errors +=
        runOnce(Pl, S.data(), 3, "first targets freed", false, Fresh.data());
    Errors += expectReads(Pl, 0, 4, "first targets freed");
    Errors += expectWrites(Pl, 0, 3, "first targets freed");
    return Errors;
  });

  Errors += runCase("executeStep, targets in node memory", [] {
    // The Unsynchronized mode moves everything in step 0, which shares the
    // tiles as execute does. The Scheduled mode with nodes of 2 ranks
    // reads its node phase, but every target takes parts from the other
    // node over MPI: no sharing, step by step or not.
    int64_t Errors = 0;
    const Plan Unsync = sharingPlan(8, ExecMode::Unsynchronized);
    PlanOptions O;
    O.RanksPerNode = 2;
    const Plan Phase(D::cyclic(4, 3), D::cyclic(4, 5), 60 * 500 + 7, 8,
                     MPI_COMM_WORLD, O);
    for (const Plan *Pl : {&Unsync, &Phase}) {
      const std::string Label =
          std::string(execModeName(Pl->options().Mode)) + " step by step";
      Placed S = placeSource(*Pl, MPI_COMM_WORLD);
      Placed T = placeTarget(*Pl, MPI_COMM_WORLD, 8, 8);
      fillAround(T);
      Errors += runOnce(*Pl, S.data(), 3, Label, true, T.data());
      Errors += runOnce(*Pl, S.data(), 4, Label, false, T.data());
      Errors += checkAround(T, Label);
      Errors += expectReads(*Pl, 0, 2, Label);
      Errors += expectWrites(*Pl, 0, Pl == &Unsync ? 2 : 0, Label);
      Errors += Pl->sharedMessages() == 0;
    }
    return Errors;
  });

  Errors += runCase("combining execute, target in node memory", [] {
    return combineCase(true, "combine into node memory");
  });

  const int64_t Total = test::sumOverRanks(Errors);
  if (Rank == 0)
    std::printf("redist-node-memory: %lld errors\n",
                static_cast<long long>(Total));
  MPI_Finalize();
  return Total == 0 ? 0 : 1;
}
