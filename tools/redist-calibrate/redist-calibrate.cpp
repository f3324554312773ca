//===- redist-calibrate.cpp - Measure the cost model on this machine ------===//
//
//   mpirun -np R redist-calibrate [-o FILE] [--max-bytes B]
//
// Measures the constants of redist's cost model (redist/CostModel.h) and
// writes them as a model file (redist-model/1) for the runtime
// (REDIST_MODEL, PlanOptions::Model), redist-plan --model and redistc
// --model:
//   - ping-pong between two ranks, messages of 1 byte to B bytes: a one-way
//     time of gamma + beta' * bytes (gamma: a message's start-up);
//   - step-synchronised exchanges, as the runtime's Scheduled mode runs
//     them: every rank sends to rank + k and receives from rank - k in step
//     k, each step waiting for its own transfers; a step takes alpha + gamma
//     + beta * bytes, with every rank busy at once.
// One least-squares fit, with non-negative constants, of both: alpha, beta
// and gamma (beta', the uncontended time per byte, is recorded as well).
// First within the node of rank 0, then, when the ranks span several nodes
// (MPI_COMM_TYPE_SHARED), across them; the model file holds the constants
// across nodes then, since those messages set a multi-node run's pace, and
// both sets under "measured_on".
//
//===----------------------------------------------------------------------===//

#include "Fit.h"
#include "ToolCommandLine.h"

#include "redist/CostModel.h"
#include "redist/Error.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

using namespace redistcalibrate;
namespace cl = llvm::cl;

namespace {

constexpr const char *ToolName = "redist-calibrate";

cl::OptionCategory CalibrateCategory("redist-calibrate options");
cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the model file here "
                                         "(default: standard output)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(CalibrateCategory));
cl::opt<int64_t> MaxBytes("max-bytes",
                          cl::desc("Largest message measured, in bytes "
                                   "(default 1048576; at least 1024)"),
                          cl::value_desc("B"), cl::init(1 << 20),
                          cl::cat(CalibrateCategory));
// Also how the tests reach the across-node path on one machine.
cl::opt<int64_t> RanksPerNode(
    "ranks-per-node",
    cl::desc("Treat every K consecutive ranks as one node instead of asking "
             "MPI which ranks share memory (default: ask MPI)"),
    cl::value_desc("K"), cl::init(0), cl::cat(CalibrateCategory));

/// The most steps of one timed exchange: enough to average a step, few
/// enough to finish fast on 16 oversubscribed ranks.
constexpr int MaxExchangeSteps = 8;

/// What one set of measurements gave.
struct Constants {
  double Alpha = 0, BetaPerByte = 0, Gamma = 0, PingPongBetaPerByte = 0;
  int Ranks = 0;
};

/// Waits for every rank of Comm without spinning: ranks not being measured
/// leave the cores to those that are (the machine may be oversubscribed).
void quietBarrier(MPI_Comm Comm) {
  MPI_Request Request;
  MPI_Ibarrier(Comm, &Request);
  for (int Done = 0;;) {
    MPI_Test(&Request, &Done, MPI_STATUS_IGNORE);
    if (Done)
      return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

/// Message sizes: 1 byte, then powers of 4 up to Max.
std::vector<int64_t> messageSizes(int64_t Max) {
  std::vector<int64_t> Sizes;
  for (int64_t S = 1; S <= Max; S *= 4)
    Sizes.push_back(S);
  if (Sizes.back() != Max)
    Sizes.push_back(Max);
  return Sizes;
}

/// Repetitions for Bytes: many for small messages, whose times are short and
/// noisy, a few for the largest.
int repetitions(int64_t Bytes, int Most) {
  const int64_t ByVolume = (int64_t(1) << 22) / (Bytes + 256);
  return static_cast<int>(std::clamp<int64_t>(ByVolume, 4, Most));
}

/// The least one-way time of Bytes between ranks A and B of Comm (on A),
/// over round trips; the other ranks wait quietly.
double pingPong(MPI_Comm Comm, int A, int B, int64_t Bytes,
                std::vector<char> &Buffer) {
  int Rank;
  MPI_Comm_rank(Comm, &Rank);
  const int Count = static_cast<int>(Bytes);
  const int Reps = repetitions(Bytes, 100);
  double Best = 0;
  if (Rank == A || Rank == B) {
    const int Peer = Rank == A ? B : A;
    for (int I = -1; I < Reps; ++I) { // I = -1: warm-up
      const double Start = MPI_Wtime();
      if (Rank == A) {
        MPI_Send(Buffer.data(), Count, MPI_BYTE, Peer, 0, Comm);
        MPI_Recv(Buffer.data(), Count, MPI_BYTE, Peer, 0, Comm,
                 MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(Buffer.data(), Count, MPI_BYTE, Peer, 0, Comm,
                 MPI_STATUS_IGNORE);
        MPI_Send(Buffer.data(), Count, MPI_BYTE, Peer, 0, Comm);
      }
      const double OneWay = (MPI_Wtime() - Start) / 2;
      if (I >= 0 && (I == 0 || OneWay < Best))
        Best = OneWay;
    }
  }
  quietBarrier(Comm);
  return Best;
}

/// The least time of one step of Bytes per message, every rank of Comm
/// sending and receiving, over timed runs of several steps (the slowest
/// rank's time of each run, divided by its steps).
double exchange(MPI_Comm Comm, int64_t Bytes, std::vector<char> &Send,
                std::vector<char> &Recv) {
  int Rank, Size;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  const int Steps = std::min(Size - 1, MaxExchangeSteps);
  const int Count = static_cast<int>(Bytes);
  const int Reps = repetitions(Bytes, 30);
  double Best = 0;
  for (int I = -1; I < Reps; ++I) {
    MPI_Barrier(Comm);
    const double Start = MPI_Wtime();
    for (int K = 1; K <= Steps; ++K) {
      MPI_Request Requests[2];
      MPI_Irecv(Recv.data(), Count, MPI_BYTE, (Rank - K + Size) % Size, K, Comm,
                &Requests[0]);
      MPI_Isend(Send.data(), Count, MPI_BYTE, (Rank + K) % Size, K, Comm,
                &Requests[1]);
      MPI_Waitall(2, Requests, MPI_STATUSES_IGNORE);
    }
    double Mine = MPI_Wtime() - Start, Slowest = 0;
    MPI_Allreduce(&Mine, &Slowest, 1, MPI_DOUBLE, MPI_MAX, Comm);
    const double PerStep = Slowest / Steps;
    if (I >= 0 && (I == 0 || PerStep < Best))
      Best = PerStep;
  }
  return Best;
}

/// Measures on Comm, with ping-pong between its ranks A and B, and fits.
/// Collective; the result is valid on rank A.
std::optional<Constants> calibrate(MPI_Comm Comm, int A, int B) {
  int Rank, Size;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  const std::vector<int64_t> Sizes = messageSizes(MaxBytes);
  std::vector<char> Send(static_cast<std::size_t>(MaxBytes), 1),
      Recv(static_cast<std::size_t>(MaxBytes), 0);
  // Columns: alpha, gamma, beta (every rank busy), beta' (ping-pong).
  std::vector<Observation> Obs;
  for (int64_t Bytes : Sizes) {
    const double OneWay = pingPong(Comm, A, B, Bytes, Send);
    const double Step = exchange(Comm, Bytes, Send, Recv);
    const double S = static_cast<double>(Bytes);
    if (OneWay > 0)
      Obs.push_back({{0, 1, 0, S}, OneWay});
    if (Step > 0)
      Obs.push_back({{1, 1, S, 0}, Step});
  }
  if (Rank != A)
    return std::nullopt;
  std::optional<std::vector<double>> X = fitNonNegative(Obs);
  if (!X)
    return std::nullopt;
  Constants C;
  C.Alpha = (*X)[0];
  C.Gamma = (*X)[1];
  C.BetaPerByte = (*X)[2];
  C.PingPongBetaPerByte = (*X)[3];
  C.Ranks = Size;
  return C;
}

std::string hostName() {
  char Name[256] = {};
  if (gethostname(Name, sizeof(Name) - 1) != 0)
    return "unknown";
  return Name;
}

std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  char Text[32];
  std::strftime(Text, sizeof(Text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  return Text;
}

/// The model file: the constants auto uses, and where they come from.
std::string modelText(const Constants &Used,
                      const std::optional<Constants> &Within,
                      const std::optional<Constants> &Across, int Ranks,
                      int Nodes, double Seconds) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("format", redist::CostModelFormat);
    J.attribute(redist::AlphaMember, Used.Alpha);
    J.attribute(redist::BetaMember, Used.BetaPerByte);
    J.attribute(redist::GammaMember, Used.Gamma);
    J.attributeObject(redist::MeasuredOnMember, [&] {
      J.attribute("tool", std::string(ToolName) + " " + REDIST_VERSION_STRING);
      J.attribute("host", hostName());
      J.attribute("date", utcNow());
      J.attribute("ranks", Ranks);
      J.attribute("nodes", Nodes);
      J.attribute("constants", Across ? "across nodes" : "within a node");
      J.attribute("largest_message_bytes", MaxBytes.getValue());
      for (const auto &[Prefix, C] :
           {std::pair{"within_node_", &Within}, {"across_nodes_", &Across}}) {
        if (!*C)
          continue;
        const std::string P = Prefix;
        J.attribute(P + "ranks", (*C)->Ranks);
        J.attribute(P + redist::AlphaMember, (*C)->Alpha);
        J.attribute(P + redist::BetaMember, (*C)->BetaPerByte);
        J.attribute(P + redist::GammaMember, (*C)->Gamma);
        J.attribute(P + "ping_pong_beta_s_per_byte", (*C)->PingPongBetaPerByte);
      }
      J.attribute("seconds", Seconds);
    });
  });
  OS << '\n';
  return OS.str();
}

/// Writes Text to OutputFile; an error message, or empty.
std::string writeOutput(const std::string &Text) {
  if (OutputFile == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return "";
  }
  std::error_code EC;
  llvm::raw_fd_ostream Out(OutputFile, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    Out << Text;
    Out.close();
    EC = Out.error();
  }
  return EC ? "cannot write " + OutputFile + ": " + EC.message() : "";
}

/// Everything after parsing; returns the exit code, the same on every rank.
int run(int Rank, int Ranks) {
  std::string Problem;
  if (Ranks < 2)
    Problem = "needs at least 2 ranks (mpirun -np R with R >= 2), got " +
              std::to_string(Ranks);
  else if (MaxBytes < 1024 || MaxBytes > INT_MAX)
    Problem = "--max-bytes must be from 1024 to " + std::to_string(INT_MAX) +
              ", got " + std::to_string(MaxBytes);
  else if (RanksPerNode.getNumOccurrences() &&
           (RanksPerNode < 1 || RanksPerNode > Ranks))
    Problem = "--ranks-per-node must be from 1 to the " +
              std::to_string(Ranks) + " ranks, got " +
              std::to_string(RanksPerNode);
  if (!Problem.empty()) {
    if (Rank == 0)
      llvm::WithColor::error(llvm::errs(), ToolName) << Problem << '\n';
    return 1;
  }
  const double Start = MPI_Wtime();

  // The nodes, and rank 0's node.
  MPI_Comm Node;
  if (RanksPerNode > 0)
    MPI_Comm_split(MPI_COMM_WORLD, static_cast<int>(Rank / RanksPerNode), Rank,
                   &Node);
  else
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, Rank,
                        MPI_INFO_NULL, &Node);
  int NodeRank, Leader, Nodes;
  MPI_Comm_rank(Node, &NodeRank);
  Leader = NodeRank == 0;
  MPI_Allreduce(&Leader, &Nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int HasRankZero = Rank == 0, OnFirstNode = 0;
  MPI_Allreduce(&HasRankZero, &OnFirstNode, 1, MPI_INT, MPI_MAX, Node);
  int FirstNodeRanks = 0;
  MPI_Comm_size(Node, &FirstNodeRanks);
  MPI_Bcast(&FirstNodeRanks, 1, MPI_INT, 0, MPI_COMM_WORLD);

  std::optional<Constants> Within, Across;
  if (FirstNodeRanks >= 2) {
    // Within rank 0's node; the other nodes wait.
    MPI_Comm Local;
    MPI_Comm_split(MPI_COMM_WORLD, OnFirstNode ? 0 : MPI_UNDEFINED, Rank,
                   &Local);
    if (Local != MPI_COMM_NULL) {
      Within = calibrate(Local, 0, 1);
      MPI_Comm_free(&Local);
    }
    quietBarrier(MPI_COMM_WORLD);
  }
  if (Nodes > 1) {
    // Rank 0 and the first rank of another node; every rank exchanges.
    int Mine = OnFirstNode ? INT_MAX : Rank, Other = 0;
    MPI_Allreduce(&Mine, &Other, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    Across = calibrate(MPI_COMM_WORLD, 0, Other);
  }
  MPI_Comm_free(&Node);

  int Status = 0;
  if (Rank == 0) {
    const std::optional<Constants> &Used = Across ? Across : Within;
    if (!Used) {
      llvm::WithColor::error(llvm::errs(), ToolName)
          << "the timings determine no model (every fit was singular)\n";
      Status = 1;
    } else {
      const std::string Text =
          modelText(*Used, Within, Across, Ranks, Nodes, MPI_Wtime() - Start);
      // What the readers will see: a file they reject is a bug here.
      redist::parseCostModel(Text, OutputFile);
      if (std::string Error = writeOutput(Text); !Error.empty()) {
        llvm::WithColor::error(llvm::errs(), ToolName) << Error << '\n';
        Status = 1;
      } else {
        llvm::errs() << llvm::format(
            "%s: alpha %.3g s, gamma %.3g s, beta %.3g s/byte (%d ranks on "
            "%d node%s, %s; %.1f s)%s%s\n",
            ToolName, Used->Alpha, Used->Gamma, Used->BetaPerByte, Ranks, Nodes,
            Nodes == 1 ? "" : "s", Across ? "across nodes" : "within a node",
            MPI_Wtime() - Start, OutputFile == "-" ? "" : "; wrote ",
            OutputFile == "-" ? "" : OutputFile.c_str());
      }
    }
  }
  MPI_Bcast(&Status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return Status;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  int Rank = 0, Ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Ranks);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << ToolName << " " << REDIST_VERSION_STRING << '\n';
  });
  // Every rank parses the same arguments; only rank 0 reports.
  const bool Parsed = redist::tools::parseToolCommandLine(
      Argc, Argv, CalibrateCategory,
      "measures redist's cost model (alpha, beta, gamma) on this machine\n\n"
      "  mpirun -np R redist-calibrate [-o FILE] [--max-bytes B]\n",
      Rank == 0 ? &llvm::errs() : &llvm::nulls());
  int Status = 1;
  try {
    if (Parsed)
      Status = run(Rank, Ranks);
  } catch (const redist::InvalidArgument &E) {
    llvm::WithColor::error(llvm::errs(), ToolName)
        << "internal error: the model written is invalid: " << E.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return Status;
}
