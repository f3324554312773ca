//===- redist-edge-cases.cpp - Named edge cases of the runtime ------------===//
//
//   mpirun -np 4 redist-edge-cases
//
// Each case prints "case NAME: ok" (rank 0) when every element of every
// redistribution it runs is right on every rank, and its other checks hold;
// otherwise "case NAME: N errors". Exits 1 on any error. Needs 4 ranks.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/CommGrid.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/Redistribute.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace redist;

namespace {

int Rank = 0;
int64_t TotalErrors = 0;

/// Runs Body on every rank; it returns this rank's error count.
void runCase(const char *Name, const std::function<int64_t()> &Body) {
  int64_t Errors = test::sumOverRanks(Body());
  TotalErrors += Errors;
  if (Rank == 0) {
    if (Errors == 0)
      std::printf("case %s: ok\n", Name);
    else
      std::printf("case %s: %lld errors\n", Name,
                  static_cast<long long>(Errors));
  }
}

int64_t expect(bool Cond, const std::string &What) {
  if (Cond)
    return 0;
  std::printf("ERROR rank %d: %s\n", Rank, What.c_str());
  return 1;
}

/// Every mode and packing (the Scheduled mode with shared memory and
/// without), with the default algorithm, Times executions.
int64_t allModes(const Distribution &From, const Distribution &To, int64_t N,
                 std::size_t ElementBytes = 8, int Times = 1,
                 int64_t MaxTransferBytes = 0, MPI_Comm Comm = MPI_COMM_WORLD) {
  int64_t Errors = 0;
  for (ExecMode M : allExecModes())
    for (Packing K : allPackings())
      for (bool Shared : {true, false}) {
        if (!Shared && M != ExecMode::Scheduled)
          continue;
        PlanOptions O;
        O.Mode = M;
        O.Pack = K;
        O.MaxTransferBytes = MaxTransferBytes;
        O.SharedMemory = Shared;
        Plan Pl(From, To, N, ElementBytes, Comm, O);
        Errors += test::runAndCheck(
            Pl,
            From.str() + " -> " + To.str() + " N=" + std::to_string(N) + " " +
                execModeName(M) + "/" + packingName(K) +
                (Shared ? "" : "/p2p") + " E=" + std::to_string(ElementBytes),
            Times);
      }
  return Errors;
}

/// A 24-byte element with padding-free mixed fields.
struct Particle {
  double X, Y;
  int32_t Id;
  float Mass;
  bool operator==(const Particle &O) const {
    return X == O.X && Y == O.Y && Id == O.Id && Mass == O.Mass;
  }
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(4);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  using D = Distribution;

  runCase("empty array", [] {
    return allModes(D::cyclic(4, 3), D::block(3), 0) +
           allModes(D::block(4, 5), D::cyclic(1), 0);
  });
  runCase("fewer elements than processes", [] {
    return allModes(D::block(4), D::cyclic(3, 2), 2) +
           allModes(D::cyclic(4), D::block(4), 3);
  });
  runCase("block larger than the array", [] {
    return allModes(D::cyclic(4, 100), D::cyclic(3, 3), 10) +
           allModes(D::cyclic(2, 7), D::cyclic(4, 64), 5);
  });
  runCase("ranks without data", [] {
    // Rank 3 is in neither set; then one source to all, all to one target.
    return allModes(D::cyclic(2, 3), D::cyclic(3, 2), 1000) +
           allModes(D::block(1), D::cyclic(4, 5), 999) +
           allModes(D::cyclic(4, 3), D::block(1), 1001);
  });
  runCase("different process counts", [] {
    return allModes(D::cyclic(4, 2), D::block(3), 1000) +
           allModes(D::block(2), D::cyclic(4, 7), 4099);
  });
  runCase("same distribution, local copies only", [] {
    int64_t Errors = allModes(D::cyclic(4, 3), D::cyclic(4, 3), 1234);
    Plan Pl(D::cyclic(4, 3), D::cyclic(4, 3), 1234, 8, MPI_COMM_WORLD);
    Errors += expect(Pl.activeSteps() == 0 && Pl.transfers() == 0,
                     "an identity redistribution uses MPI");
    return Errors;
  });
  runCase("gen_block distributions", [] {
    // Empty segments, GEN_BLOCK on one side and on both, every algorithm
    // that applies.
    int64_t Errors =
        allModes(D::genBlock({5, 0, 17, 78}), D::cyclic(3, 4), 100);
    Errors += allModes(D::block(4), D::genBlock({0, 60, 40}), 100);
    for (Algorithm A : allAlgorithms()) {
      Distribution From = D::genBlock({50, 0, 50}),
                   To = D::genBlock({10, 20, 30, 40});
      if (!algorithmApplies(A, Layout(From, 100), Layout(To, 100)))
        continue;
      PlanOptions O;
      O.Schedule = A;
      Errors +=
          test::runAndCheck(Plan(From, To, 100, 8, MPI_COMM_WORLD, O),
                            std::string("gen_block ") + algorithmName(A), 2);
    }
    return Errors;
  });
  runCase("plans executed several times", [] {
    return allModes(D::cyclic(4, 3), D::cyclic(4, 5), 3000, 8, 5);
  });
  runCase("element sizes 1, 3, 8, 24", [] {
    int64_t Errors = 0;
    for (std::size_t E : {1, 3, 8, 24})
      Errors += allModes(D::cyclic(4, 3), D::cyclic(3, 5), 997, E, 2);
    return Errors;
  });
  runCase("messages split into pieces", [] {
    int64_t Errors = 0;
    for (int64_t Limit : {1, 7, 100})
      for (std::size_t E : {3, 8, 24})
        Errors += allModes(D::cyclic(4, 3), D::cyclic(4, 5), 3001, E, 2, Limit);
    // The pieces are really there: with 100-byte transfers, a rank's 6000
    // bytes of outgoing data take more than 60 transfers.
    PlanOptions O;
    O.MaxTransferBytes = 100;
    O.SharedMemory = false;
    Plan Pl(D::block(4), D::cyclic(4), 4000, 8, MPI_COMM_WORLD, O);
    Errors +=
        expect(Pl.transfers() >= 60,
               "pieces: only " + std::to_string(Pl.transfers()) + " transfers");
    return Errors;
  });
  runCase("memory bound of the scheduled mode", [] {
    // BLOCK -> CYCLIC: each rank sends 3 messages of 10000 elements; with
    // copy loops its buffers hold one sent and one received message, not
    // N/4.
    PlanOptions O;
    O.Pack = Packing::Runs;
    O.SharedMemory = false;
    Plan Pl(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, O);
    int64_t Errors = test::runAndCheck(Pl, "memory bound");
    Errors += expect(Pl.bufferBytes() == 2 * 10000 * 8,
                     "buffers of " + std::to_string(Pl.bufferBytes()) +
                         " bytes, expected 160000");
    O.Pack = Packing::Datatypes;
    Plan Dt(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, O);
    Errors += expect(Dt.bufferBytes() == 0, "datatype plan has buffers");
    // Automatic packing chooses per side: the sender gathers runs of one
    // element with a copy loop, the receiver takes its contiguous 80 KB
    // straight into the target array with a datatype.
    O.Pack = Packing::Auto;
    Plan Au(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, O);
    Errors += test::runAndCheck(Au, "automatic packing");
    Errors += expect(Au.bufferBytes() == 10000 * 8,
                     "automatic packing: buffers of " +
                         std::to_string(Au.bufferBytes()) +
                         " bytes, expected 80000 (send side only)");
    // The reverse packs nothing: long runs on the receiver's side are
    // scattered by a datatype too (runs of 1 element, 8 bytes, are not).
    Plan Back(D::cyclic(4, 1024), D::cyclic(4, 2048), 160000, 8, MPI_COMM_WORLD,
              O);
    Errors += test::runAndCheck(Back, "automatic packing, long runs");
    Errors += expect(Back.bufferBytes() == 0,
                     "automatic packing of 8 KB runs: buffers of " +
                         std::to_string(Back.bufferBytes()) + " bytes");
    return Errors;
  });
  runCase("shared memory handover", [] {
    // All 4 ranks share this node: in the Scheduled mode every message is
    // handed over through shared memory, with no MPI transfer and no buffer
    // but the ring. Each message sent has slots of its own (four 256 KiB
    // chunks, or the whole message when shorter) where they all fit in the
    // largest message: then the three move at once, in one group. Otherwise
    // they take the three steps, through the slots of the largest.
    int64_t Errors = 0;
    for (int64_t N : {160000, 8000000}) {
      Plan Pl(D::block(4), D::cyclic(4), N, 8, MPI_COMM_WORLD);
      Errors += test::runAndCheck(Pl, "shared N=" + std::to_string(N), 2);
      const std::size_t Message = static_cast<std::size_t>(N / 16 * 8);
      const std::size_t Slots = std::min<std::size_t>(4 << 18, Message);
      const bool AtOnce = 3 * Slots <= Message;
      const std::size_t Ring = AtOnce ? 3 * Slots : Slots;
      const int64_t Steps = AtOnce ? 1 : 3;
      Errors += expect(AtOnce == (N == 8000000),
                       "shared N=" + std::to_string(N) + ": the test's sizes");
      Errors +=
          expect(Pl.sharedMessages() == 6 && Pl.transfers() == 0 &&
                     Pl.activeSteps() == Steps,
                 "shared N=" + std::to_string(N) + ": " +
                     std::to_string(Pl.sharedMessages()) +
                     " shared messages, " + std::to_string(Pl.transfers()) +
                     " transfers, " + std::to_string(Pl.activeSteps()) +
                     " steps, expected " + std::to_string(Steps));
      Errors += expect(Pl.bufferBytes() == Ring,
                       "shared N=" + std::to_string(N) + ": ring of " +
                           std::to_string(Pl.bufferBytes()) +
                           " bytes, expected " + std::to_string(Ring));
    }
    // The Unsynchronized mode hands all three messages over at once, each
    // through slots of its own.
    PlanOptions U;
    U.Mode = ExecMode::Unsynchronized;
    Plan Unsync(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, U);
    Errors += test::runAndCheck(Unsync, "shared unsync", 2);
    Errors +=
        expect(Unsync.sharedMessages() == 6 && Unsync.transfers() == 0 &&
                   Unsync.bufferBytes() == 3 * 10000 * 8,
               "shared unsync: " + std::to_string(Unsync.sharedMessages()) +
                   " shared messages, " + std::to_string(Unsync.transfers()) +
                   " transfers, " + std::to_string(Unsync.bufferBytes()) +
                   " bytes of buffers, expected 240000");
    // The Overlapped mode hands them over too, before its events, where
    // the slots of all fit in its bound (the largest part sent plus the
    // largest received): at N = 8000000, not at 160000, where they go over
    // MPI in its events' order.
    for (int64_t N : {160000, 8000000}) {
      PlanOptions V;
      V.Mode = ExecMode::Overlapped;
      Plan Pl(D::block(4), D::cyclic(4), N, 8, MPI_COMM_WORLD, V);
      const std::string Name = "overlapped N=" + std::to_string(N);
      Errors += test::runAndCheck(Pl, Name, 2);
      const bool AtOnce = N == 8000000;
      Errors +=
          expect(Pl.sharedMessages() == (AtOnce ? 6 : 0) &&
                     Pl.transfers() == (AtOnce ? 0 : 6) &&
                     (!AtOnce || Pl.bufferBytes() == 3 * (4 << 18)),
                 Name + ": " + std::to_string(Pl.sharedMessages()) +
                     " shared messages, " + std::to_string(Pl.transfers()) +
                     " transfers, " + std::to_string(Pl.bufferBytes()) +
                     " bytes of buffers");
    }
    // Off, and under Packing::Datatypes, the messages take MPI.
    PlanOptions O;
    O.SharedMemory = false;
    Plan Off(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, O);
    O.SharedMemory = true;
    O.Pack = Packing::Datatypes;
    Plan Typed(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD, O);
    for (const Plan *Pl : {&Off, &Typed})
      Errors += expect(Pl->sharedMessages() == 0 && Pl->transfers() == 6,
                       "MPI plan: " + std::to_string(Pl->sharedMessages()) +
                           " shared messages, " +
                           std::to_string(Pl->transfers()) + " transfers");
    return Errors;
  });
  runCase("node phase before the MPI steps", [] {
    // "Nodes" of K consecutive ranks (PlanOptions::RanksPerNode). In the
    // Scheduled mode each rank hands its node peers' messages over first,
    // all at once with those it takes, then sends and receives the others
    // over MPI in their steps. K = 2: one message sent within the node,
    // which always fits the memory bound, however short. K = 3: ranks 0-2
    // send two each, which fit at N = 8000000; rank 3 is alone and has
    // only MPI steps.
    int64_t Errors = 0;
    for (int PerNode : {2, 3}) {
      PlanOptions O;
      O.RanksPerNode = PerNode;
      const int NodeSize = std::min(PerNode, 4 - Rank / PerNode * PerNode);
      for (int64_t N : {160000, 8000000}) {
        if (PerNode == 3 && N != 8000000)
          continue;
        Plan Pl(D::block(4), D::cyclic(4), N, 8, MPI_COMM_WORLD, O);
        const std::string Name = "node phase, " + std::to_string(PerNode) +
                                 " per node, N=" + std::to_string(N);
        Errors += test::runAndCheck(Pl, Name, 2);
        // This rank's steps with a message to or from another node; with
        // one on this node, the node phase adds a group of its own.
        const CommGrid Grid = computeGrid(Pl.source(), Pl.target());
        int64_t WithMpi = 0;
        for (const std::vector<int64_t> &Step : Pl.schedule().Steps) {
          bool Mpi = false;
          for (int64_t Id : Step) {
            const Message &M = Grid.Messages[static_cast<std::size_t>(Id)];
            Mpi = Mpi || ((M.Src == Rank || M.Dst == Rank) &&
                          M.Src / PerNode != M.Dst / PerNode);
          }
          WithMpi += Mpi;
        }
        const int64_t Shared = 2 * (NodeSize - 1);
        const int64_t Steps = (Shared > 0) + WithMpi;
        Errors += expect(
            Pl.sharedMessages() == Shared && Pl.transfers() == 6 - Shared &&
                Pl.activeSteps() == Steps,
            Name + ": " + std::to_string(Pl.sharedMessages()) +
                " shared messages, " + std::to_string(Pl.transfers()) +
                " transfers, " + std::to_string(Pl.activeSteps()) +
                " steps, expected " + std::to_string(Shared) + ", " +
                std::to_string(6 - Shared) + ", " + std::to_string(Steps));
      }
    }
    return Errors;
  });
  runCase("handover in rounds of whole slices", [] {
    // CYCLIC(3) -> CYCLIC(5) repeats every slice of 60 elements. Moving all
    // at once, a node's messages go in rounds of whole slices, each packed
    // and unpacked a tile of slices at a time over all messages (8 slices
    // of 8-byte elements, 5 of 12-byte ones). 17477 slices leave a shorter
    // last tile, and 7 elements an incomplete slice of their own round.
    // Each rank's part (2 MB) exceeds a core's L2, as rounds require. The
    // rounds cover 256 KiB of each local part, or less in the Scheduled
    // and Overlapped modes, whose memory bounds ask that the slots of all
    // fit in the largest message (the Overlapped mode's node phase runs
    // before its events). Whole
    // node, then nodes of 2 ranks (one message each way beside MPI steps);
    // 8-byte elements, and 12-byte ones, which no kernel specialises.
    const int64_t N = 60 * 17477 + 7;
    int64_t Errors = 0;
    for (int PerNode : {0, 2}) {
      const int64_t Shared = PerNode == 2 ? 2 : 6;
      for (ExecMode Mode : {ExecMode::Scheduled, ExecMode::Unsynchronized,
                            ExecMode::Overlapped})
        for (std::size_t Bytes : {8, 12}) {
          PlanOptions O;
          O.Mode = Mode;
          O.RanksPerNode = PerNode;
          Plan Pl(D::cyclic(4, 3), D::cyclic(4, 5), N, Bytes, MPI_COMM_WORLD,
                  O);
          const std::string Name = std::string("rounds, ") +
                                   execModeName(Mode) + ", " +
                                   std::to_string(PerNode) + " per node, " +
                                   std::to_string(Bytes) + " bytes";
          Errors += test::runAndCheck(Pl, Name, 2);
          Errors +=
              expect(Pl.sharedMessages() == Shared && Pl.handoverRounds() >= 4,
                     Name + ": " + std::to_string(Pl.sharedMessages()) +
                         " shared messages in " +
                         std::to_string(Pl.handoverRounds()) + " rounds");
        }
    }
    // Runs of 256 and 512 bytes (CYCLIC(64) -> CYCLIC(96), slices of 768
    // elements, 1.5 KiB per rank): tiles of 5 slices instead of one, 1403
    // slices leaving a shorter last tile, and an incomplete slice.
    for (ExecMode Mode : {ExecMode::Scheduled, ExecMode::Unsynchronized}) {
      PlanOptions O;
      O.Mode = Mode;
      const Plan Pl(D::cyclic(4, 64), D::cyclic(4, 96), 768 * 1403 + 100, 8,
                    MPI_COMM_WORLD, O);
      const std::string Name =
          std::string("rounds of long runs, ") + execModeName(Mode);
      Errors += test::runAndCheck(Pl, Name, 2);
      Errors += expect(Pl.sharedMessages() == 6 && Pl.handoverRounds() >= 4,
                       Name + ": " + std::to_string(Pl.sharedMessages()) +
                           " shared messages in " +
                           std::to_string(Pl.handoverRounds()) + " rounds");
    }
    // One slice (BLOCK -> CYCLIC), fewer slices than four rounds, and
    // GEN_BLOCK: chunks of each message instead.
    PlanOptions U;
    U.Mode = ExecMode::Unsynchronized;
    const Plan OneSlice(D::block(4), D::cyclic(4), 160000, 8, MPI_COMM_WORLD,
                        U),
        FewSlices(D::cyclic(4, 3), D::cyclic(4, 5), 180, 8, MPI_COMM_WORLD, U),
        Irregular(D::genBlock({5000, 1, 4000, 999}), D::cyclic(4, 5), 10000, 8,
                  MPI_COMM_WORLD, U);
    for (const Plan *Pl : {&OneSlice, &FewSlices, &Irregular}) {
      Errors += test::runAndCheck(
          *Pl, "chunks, " + Pl->source().distribution().str(), 1);
      Errors += expect(Pl->sharedMessages() > 0 && Pl->handoverRounds() == 0,
                       "chunks: " + std::to_string(Pl->handoverRounds()) +
                           " rounds, " + std::to_string(Pl->sharedMessages()) +
                           " shared messages");
    }
    return Errors;
  });
  runCase("sub-communicator", [] {
    // Ranks {1, 3} and {0, 2}: each half redistributes on its own.
    MPI_Comm Half;
    MPI_Comm_split(MPI_COMM_WORLD, Rank % 2, -Rank, &Half);
    int64_t Errors = allModes(D::cyclic(2, 3), D::block(2), 777, 8, 1, 0, Half);
    MPI_Comm_free(&Half);
    return Errors;
  });
  runCase("typed redistribute of a struct", [] {
    const int64_t N = 1000;
    Distribution From = D::cyclic(4, 3), To = D::cyclic(3, 8);
    Layout LF(From, N), LT(To, N);
    auto Value = [](int64_t G) {
      return Particle{G * 0.5, -G * 1.5, static_cast<int32_t>(G),
                      static_cast<float>(G) * 0.25f};
    };
    std::vector<Particle> Src(
        static_cast<std::size_t>(localSize(From, N, Rank)));
    for (std::size_t L = 0; L < Src.size(); ++L)
      Src[L] = Value(LF.toGlobal(Rank, static_cast<int64_t>(L)));
    std::vector<Particle> Dst;
    redistribute(Src, Dst, From, To, N, MPI_COMM_WORLD);
    int64_t Errors =
        expect(static_cast<int64_t>(Dst.size()) == localSize(To, N, Rank),
               "target vector not resized");
    for (std::size_t L = 0; L < Dst.size(); ++L)
      if (!(Dst[L] == Value(LT.toGlobal(Rank, static_cast<int64_t>(L)))))
        ++Errors;
    // In place, and back.
    redistribute(Dst, To, From, N, MPI_COMM_WORLD);
    Errors += expect(Dst == Src, "in-place round trip differs");
    return Errors;
  });
  runCase("plan cache", [] {
    clearPlanCache();
    int64_t Errors = 0;
    const Plan &A =
        cachedPlan(D::cyclic(4, 3), D::block(4), 500, 8, MPI_COMM_WORLD);
    const Plan &B =
        cachedPlan(D::cyclic(4, 3), D::block(4), 500, 8, MPI_COMM_WORLD);
    PlanOptions O;
    O.Pack = Packing::Datatypes;
    const Plan &C =
        cachedPlan(D::cyclic(4, 3), D::block(4), 500, 8, MPI_COMM_WORLD, O);
    const Plan &E =
        cachedPlan(D::cyclic(4, 3), D::block(4), 501, 8, MPI_COMM_WORLD);
    Errors += expect(&A == &B, "same parameters, different plans");
    Errors += expect(&A != &C && &A != &E, "different parameters, one plan");
    Errors += expect(planCacheSize() == 3,
                     "cache size " + std::to_string(planCacheSize()));
    Errors += test::runAndCheck(A, "cached plan", 3);

    // A freed communicator takes its plans with it, so a new communicator
    // that reuses the handle never meets a stale plan.
    MPI_Comm Dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &Dup);
    cachedPlan(D::cyclic(4, 3), D::block(4), 500, 8, Dup);
    Errors += expect(planCacheSize() == 4, "plan on a duplicate not cached");
    MPI_Comm_free(&Dup);
    Errors +=
        expect(planCacheSize() == 3, "plans of a freed communicator remain: " +
                                         std::to_string(planCacheSize()));
    MPI_Comm Half;
    MPI_Comm_split(MPI_COMM_WORLD, Rank / 2, Rank, &Half);
    Errors += test::runAndCheck(
        cachedPlan(D::cyclic(2, 3), D::block(2), 500, 8, Half),
        "plan on a new communicator");
    MPI_Comm_free(&Half);
    clearPlanCache();
    Errors += expect(planCacheSize() == 0, "clearPlanCache left plans");
    return Errors;
  });
  runCase("cost model picks the schedule", [] {
    // CYCLIC(4) -> CYCLIC(5) on 3 processes: the caterpillar's first step
    // holds only local copies, so it starts one message fewer in a row than
    // the class schedule (2 against 3), which costs 200 elements against
    // its 210. Start-ups decide under the first model, bytes under the
    // second.
    int64_t Errors = 0;
    CostModel StartUps, Bytes;
    StartUps.Alpha = 0;
    StartUps.Gamma = 1e-3;
    StartUps.BetaPerByte = 1e-12;
    Bytes.Alpha = 0;
    Bytes.Gamma = 0;
    Bytes.BetaPerByte = 1e-6;
    const char *Expected[2] = {"caterpillar", "classes"};
    for (int I = 0; I < 2; ++I) {
      PlanOptions O;
      O.Model = I == 0 ? StartUps : Bytes;
      Plan Pl(D::cyclic(3, 4), D::cyclic(3, 5), 600, 8, MPI_COMM_WORLD, O);
      const Schedule &S = Pl.schedule();
      Errors += expect(S.Algorithm == Expected[I],
                       "auto picked " + S.Algorithm + ", not " + Expected[I]);
      Errors += expect(S.Choice.rfind(S.Algorithm + ": predicted", 0) == 0,
                       "auto's reason: " + S.Choice);
      Errors += test::runAndCheck(Pl, std::string("model ") + Expected[I]);
    }

    // REDIST_MODEL names the default model: PlanOptions() reads it.
    const std::string Good =
                          "redist-edge-model-" + std::to_string(Rank) + ".json",
                      Bad = "redist-edge-bad-model-" + std::to_string(Rank) +
                            ".json";
    {
      std::FILE *F = std::fopen(Good.c_str(), "w");
      std::fputs("{\"format\": \"redist-model/1\", \"alpha_s\": 0, "
                 "\"beta_s_per_byte\": 1e-6, \"gamma_s\": 0}\n",
                 F);
      std::fclose(F);
      F = std::fopen(Bad.c_str(), "w");
      std::fputs("{\"format\": \"redist-model/1\", \"alpha_s\": 0}\n", F);
      std::fclose(F);
    }
    setenv("REDIST_MODEL", Good.c_str(), 1);
    {
      PlanOptions O;
      Errors += expect(O.Model == Bytes, "REDIST_MODEL's model not read");
      Plan Pl(D::cyclic(3, 4), D::cyclic(3, 5), 600, 8, MPI_COMM_WORLD);
      Errors +=
          expect(Pl.schedule().Algorithm == "classes",
                 "with REDIST_MODEL, auto picked " + Pl.schedule().Algorithm);
    }
    // A bad file: InvalidArgument naming it, on every rank, before any
    // communication (so no rank waits for another).
    setenv("REDIST_MODEL", Bad.c_str(), 1);
    try {
      PlanOptions O;
      Errors += expect(false, "a bad REDIST_MODEL file was accepted");
    } catch (const InvalidArgument &E) {
      const std::string What = E.what();
      Errors += expect(What.rfind("REDIST_MODEL: " + Bad +
                                      ": member \"beta_s_per_byte\": missing",
                                  0) == 0,
                       "bad REDIST_MODEL: " + What);
    }
    unsetenv("REDIST_MODEL");
    Errors += expect(PlanOptions().Model == CostModel(),
                     "without REDIST_MODEL, not the defaults");
    std::remove(Good.c_str());
    std::remove(Bad.c_str());
    return Errors;
  });
  runCase("local part helpers", [] {
    int64_t Errors = 0;
    for (const Distribution &Dist :
         {D::block(4), D::block(3, 40), D::cyclic(4), D::cyclic(3, 7)}) {
      const int64_t N = 101;
      Layout L(Dist, N);
      int64_t Total = 0;
      for (int64_t P = 0; P < 5; ++P) {
        int64_t Size = localSize(Dist, N, P);
        Total += Size;
        Errors += expect(Size == (P < L.procs() ? L.localSize(P) : 0),
                         Dist.str() + ": localSize");
        for (int64_t I = 0; I < Size; ++I) {
          int64_t G = globalIndex(Dist, N, P, I);
          Errors += expect(localPosition(Dist, N, G) == LocalPosition{P, I},
                           Dist.str() + ": localPosition(globalIndex)");
        }
      }
      Errors += expect(Total == N, Dist.str() + ": sizes do not sum to N");
    }
    return Errors;
  });
  runCase("array info", [] {
    // The same answers from an ArrayInfo, for this rank and for others, and
    // the errors of the free functions.
    int64_t Errors = 0;
    const Distribution Dist = D::genBlock({30, 0, 50, 21});
    const int64_t N = 101;
    const ArrayInfo Info(Dist, N, MPI_COMM_WORLD);
    Errors += expect(Info.rank() == Rank && Info.extent() == N &&
                         Info.distribution() == Dist &&
                         Info.communicator() == MPI_COMM_WORLD,
                     "array info: its parameters");
    Errors += expect(Info.localSize() == localSize(Dist, N, Rank) &&
                         Info.localSize(5) == 0,
                     "array info: local sizes");
    for (int64_t L = 0; L < Info.localSize(); ++L)
      Errors +=
          expect(Info.position(Info.globalIndex(L)) == LocalPosition{Rank, L},
                 "array info: position(globalIndex)");
    Errors += expect(Info.str() ==
                         "gen_block(30,0,50,21) over 4 processes, 101 elements",
                     "array info: str() is " + Info.str());
    for (const std::function<void()> &Bad : std::vector<std::function<void()>>{
             [&] { Info.globalIndex(1, 0); }, [&] { Info.position(N); },
             [&] { Info.localSize(-1); },
             [] { ArrayInfo(D::block(4, 10), 101, MPI_COMM_WORLD); }}) {
      bool Threw = false;
      try {
        Bad();
      } catch (const InvalidArgument &) {
        Threw = true;
      }
      Errors += expect(Threw, "array info: a bad argument did not throw");
    }
    return Errors;
  });

  if (Rank == 0)
    std::printf("redist-edge-cases: %lld errors\n",
                static_cast<long long>(TotalErrors));
  MPI_Finalize();
  return TotalErrors == 0 ? 0 : 1;
}
