//===- redist-errors.cpp - Every error case of the runtime ----------------===//
//
//   mpirun -np 4 redist-errors
//
// Each case builds a plan (or redistributes) with a bad parameter on every
// rank, or with parameters that differ between ranks under the Verify
// option (one case per parameter Verify compares). Every rank must catch
// redist::InvalidArgument whose message names the value; rank 0 then prints
// "error CASE: all 4 ranks: MESSAGE", and the program goes on to the next
// case: no rank may hang or abort.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/runtime/LocalPart.h"
#include "redist/runtime/Redistribute.h"

#include <mpi.h>

#include <climits>
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

/// The parameters of one plan.
struct Params {
  Distribution From = Distribution::cyclic(4, 3);
  Distribution To = Distribution::block(4);
  int64_t N = 100;
  std::size_t ElementBytes = 8;
  PlanOptions Options = verifying();
};

/// One parameter Verify compares: Vary sets it (Odd: the value of the one
/// rank that differs), and Range is how the message shows the two values.
struct Mismatch {
  const char *Parameter;
  const char *Range;
  std::function<void(Params &, bool Odd)> Vary;
};

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
  expectError("transfer limit above INT_MAX", "2147483648", [] {
    PlanOptions O;
    O.MaxTransferBytes = int64_t(INT_MAX) + 1;
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("element size above INT_MAX", "element size 2147483648", [] {
    makePlan(D::block(4), D::cyclic(4), 100, std::size_t(INT_MAX) + 1);
  });
  expectError("unknown algorithm", "unknown schedule algorithm 42", [] {
    PlanOptions O;
    O.Schedule = static_cast<Algorithm>(42);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("unknown mode", "unknown execution mode 7", [] {
    PlanOptions O;
    O.Mode = static_cast<ExecMode>(7);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("unknown packing", "unknown packing 9", [] {
    PlanOptions O;
    O.Pack = static_cast<Packing>(9);
    makePlan(D::block(4), D::cyclic(4), 100, 8, O);
  });
  expectError("Alltoallv round above INT_MAX bytes", "600000000 bytes over 4",
              [] {
                PlanOptions O;
                O.Mode = ExecMode::Alltoallv;
                makePlan(D::block(4), D::cyclic(4), 100, 600000000, O);
              });
  expectError("GEN_BLOCK sizes not summing to N", "sum to 100, not to N = 99",
              [] {
                makePlan(D::genBlock({10, 20, 30, 40}), D::block(4), 99);
              });
  expectError("GEN_BLOCK negative size", "-5", [] {
    makePlan(D::block(4), D::genBlock({10, -5, 30}), 35);
  });
  expectError("GEN_BLOCK without sizes", "got 0 sizes",
              [] { makePlan(D::genBlock({}), D::block(4), 0); });
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
  expectError("verify: one rank invalid", "extent N differs", [] {
    makePlan(D::block(4), D::cyclic(4), Rank == 3 ? -1 : 10, 8, verifying());
  });
  expectError("verify: same invalid parameters", "BLOCK(2)", [] {
    makePlan(D::block(4, 2), D::cyclic(4), 100, 8, verifying());
  });

  // Every parameter Verify compares (Validate.cpp's allParameters), each
  // differing on one rank.
  using GB = std::vector<int64_t>;
  const Mismatch Mismatches[] = {
      {"source distribution format", " (from block to cyclic)",
       [](Params &X, bool Odd) { X.From = Odd ? D::block(4) : D::cyclic(4); }},
      {"source process count", " (from 3 to 4)",
       [](Params &X, bool Odd) { X.From = D::cyclic(Odd ? 3 : 4, 3); }},
      {"source block size", " (from 3 to 5)",
       [](Params &X, bool Odd) { X.From = D::cyclic(4, Odd ? 5 : 3); }},
      {"source gen_block sizes", "",
       [](Params &X, bool Odd) {
         X.From = D::genBlock(Odd ? GB{40, 20, 20, 20} : GB{25, 25, 25, 25});
       }},
      {"target distribution format", " (from block to cyclic)",
       [](Params &X, bool Odd) { X.To = Odd ? D::cyclic(4) : D::block(4); }},
      {"target process count", " (from 2 to 4)",
       [](Params &X, bool Odd) { X.To = D::block(Odd ? 2 : 4); }},
      {"target block size", " (from 25 to 30)",
       [](Params &X, bool Odd) { X.To = D::block(4, Odd ? 30 : 25); }},
      {"target gen_block sizes", "",
       [](Params &X, bool Odd) {
         X.To = D::genBlock(Odd ? GB{0, 100} : GB{50, 50});
       }},
      {"extent N", " (from 99 to 100)",
       [](Params &X, bool Odd) { X.N = Odd ? 99 : 100; }},
      {"element size", " (from 8 to 24)",
       [](Params &X, bool Odd) { X.ElementBytes = Odd ? 24 : 8; }},
      {"schedule algorithm", " (from auto to greedy)",
       [](Params &X, bool Odd) {
         X.Options.Schedule = Odd ? Algorithm::Greedy : Algorithm::Auto;
       }},
      {"execution mode", " (from scheduled to unsync)",
       [](Params &X, bool Odd) {
         X.Options.Mode = Odd ? ExecMode::Unsynchronized : ExecMode::Scheduled;
       }},
      {"packing", " (from auto to datatypes)",
       [](Params &X, bool Odd) {
         X.Options.Pack = Odd ? Packing::Datatypes : Packing::Auto;
       }},
      {"maximum transfer size", " (from 0 to 4096)",
       [](Params &X, bool Odd) {
         X.Options.MaxTransferBytes = Odd ? 4096 : 0;
       }},
      {"cost model alpha", " (from 5e-06 to 1e-05)",
       [](Params &X, bool Odd) { X.Options.Model.Alpha = Odd ? 1e-5 : 5e-6; }},
      {"cost model beta", " (from 1e-09 to 3.2e-09)",
       [](Params &X, bool Odd) { X.Options.Model.Beta = Odd ? 1e-9 : 3.2e-9; }},
      {"cost model element size", " (from 4 to 8)",
       [](Params &X, bool Odd) { X.Options.Model.ElementBytes = Odd ? 4 : 8; }},
  };
  int Case = 0;
  for (const Mismatch &M : Mismatches) {
    // Rank 0 keeps the common value, so that its message is the same in
    // every run; the odd rank out moves from case to case.
    const int OddRank = 1 + Case++ % (Size - 1);
    const std::string Name = std::string("verify: ") + M.Parameter;
    expectError(Name.c_str(),
                std::string("verify: ranks were given different parameters: ") +
                    M.Parameter + " differs" + M.Range,
                [&] {
                  Params X;
                  M.Vary(X, Rank == OddRank);
                  makePlan(X.From, X.To, X.N, X.ElementBytes, X.Options);
                });
  }
  expectError("verify: unknown algorithm on one rank",
              "schedule algorithm differs (from auto to 42)", [] {
                PlanOptions O = verifying();
                if (Rank == 2)
                  O.Schedule = static_cast<Algorithm>(42);
                makePlan(D::block(4), D::cyclic(4), 100, 8, O);
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
