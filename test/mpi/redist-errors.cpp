//===- redist-errors.cpp - Every error case of the runtime ----------------===//
//
//   mpirun -np 4 redist-errors
//
// Each case builds a plan (or redistributes) with a bad parameter on every
// rank, or with parameters that differ between ranks under the Verify
// option. Every rank must catch redist::InvalidArgument whose message names
// the value; rank 0 then prints "error CASE: all 4 ranks: MESSAGE", and the
// program goes on to the next case: no rank may hang or abort.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/Redistribute.h"

#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace redist;

namespace {

int Rank = 0, Size = 0;
int Failures = 0;

/// Runs Body on every rank and checks that it throws InvalidArgument whose
/// message contains Expected, on every rank.
void expectError(const char *Name, const std::string &Expected,
                 const std::function<void()> &Body) {
  std::string Message;
  int Ok = 0;
  try {
    Body();
    Message = "no error";
  } catch (const InvalidArgument &E) {
    Message = E.what();
    Ok = Message.find(Expected) != std::string::npos;
  }
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!Ok)
    std::printf("FAIL %s on rank %d: expected \"%s\", got \"%s\"\n", Name, Rank,
                Expected.c_str(), Message.c_str());
  if (Rank == 0 && AllOk)
    std::printf("error %s: all %d ranks: %s\n", Name, Size, Message.c_str());
  Failures += !AllOk;
}

Plan makePlan(const Distribution &From, const Distribution &To, int64_t N,
              std::size_t E = 8, PlanOptions O = PlanOptions(),
              MPI_Comm Comm = MPI_COMM_WORLD) {
  return Plan(From, To, N, E, Comm, O);
}

PlanOptions verifying() {
  PlanOptions O;
  O.Verify = true;
  return O;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(4);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  using D = Distribution;

  expectError("block size 0", "got 0",
              [] { makePlan(D::cyclic(4, 0), D::block(4), 100); });
  expectError("negative block size", "got -3",
              [] { makePlan(D::block(4), D::block(4, -3), 100); });
  expectError("no processes", "got 0",
              [] { makePlan(D::block(0), D::block(4), 100); });
  expectError("negative process count", "got -2",
              [] { makePlan(D::block(4), D::cyclic(-2, 3), 100); });
  expectError("negative extent", "-1",
              [] { makePlan(D::block(4), D::block(4), -1); });
  expectError("communicator too small", "fewer than max(P, Q) = 5",
              [] { makePlan(D::block(5), D::block(4), 100); });
  expectError("element size 0", "element size 0",
              [] { makePlan(D::block(4), D::cyclic(4), 100, 0); });
  expectError("BLOCK(k) too small", "BLOCK(20)",
              [] { makePlan(D::block(4, 20), D::cyclic(4), 100); });
  expectError("algorithm that does not apply", "walker_otto", [] {
    PlanOptions O;
    O.Schedule = Algorithm::WalkerOtto;
    makePlan(D::cyclic(4, 3), D::cyclic(3, 5), 100, 8, O);
  });
  expectError("null communicator", "MPI_COMM_NULL", [] {
    makePlan(D::block(4), D::cyclic(4), 100, 8, PlanOptions(), MPI_COMM_NULL);
  });
  expectError("negative transfer limit", "-5", [] {
    PlanOptions O;
    O.MaxTransferBytes = -5;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("wrong source vector size", "rank 1", [] {
    const int64_t N = 100;
    std::vector<double> Src(
        static_cast<std::size_t>(localSize(D::cyclic(4, 3), N, Rank)));
    if (Rank == 1)
      Src.pop_back();
    std::vector<double> Dst;
    redistribute(Src, Dst, D::cyclic(4, 3), D::block(4), N, MPI_COMM_WORLD);
  });
  expectError("verify: extents differ", "extent N differs (from 100 to 101)",
              [] {
                makePlan(D::block(4), D::cyclic(4), Rank == 2 ? 101 : 100, 8,
                         verifying());
              });
  expectError("verify: block sizes differ", "source block size differs", [] {
    makePlan(D::cyclic(4, Rank == 0 ? 3 : 5), D::block(4), 100, 8, verifying());
  });
  expectError("verify: modes differ", "execution mode differs", [] {
    PlanOptions O = verifying();
    O.Mode = Rank == 3 ? ExecMode::Alltoallv : ExecMode::Scheduled;
    makePlan(D::cyclic(4, 3), D::block(4), 100, 8, O);
  });
  expectError("verify: element sizes differ", "element size differs", [] {
    makePlan(D::cyclic(4, 3), D::block(4), 100, Rank == 1 ? 4 : 8, verifying());
  });
  expectError("verify: one rank invalid", "extent N differs", [] {
    makePlan(D::block(4), D::cyclic(4), Rank == 3 ? -1 : 10, 8, verifying());
  });
  expectError("verify: same invalid parameters", "BLOCK(2)", [] {
    makePlan(D::block(4, 2), D::cyclic(4), 100, 8, verifying());
  });
  expectError("local index outside the part", "local index 30",
              [] { globalIndex(D::block(4), 100, 1, 30); });
  expectError("global index outside the array", "global index 100",
              [] { localPosition(D::block(4), 100, 100); });

  // The runtime still works after all these errors.
  Plan Pl(D::cyclic(4, 3), D::block(3), 1000, 8, MPI_COMM_WORLD);
  int64_t Errors = test::sumOverRanks(test::runAndCheck(Pl, "after errors"));
  if (Rank == 0)
    std::printf("redist-errors: %d failed cases, %lld element errors after\n",
                Failures, static_cast<long long>(Errors));
  MPI_Finalize();
  return Failures == 0 && Errors == 0 ? 0 : 1;
}
