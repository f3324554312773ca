//===- Session.cpp - One benchmark session: build, run, time, check -------===//

#include "Session.h"

#include "CopyReference.h"
#include "Data.h"
#include "Measure.h"
#include "NodeReads.h"
#include "RoundOrder.h"

#include "redist/runtime/NodeMemory.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace redist {
namespace bench {

std::string firstLine(const std::string &Message) {
  StringRef Text = StringRef(Message).trim();
  return Text.substr(0, Text.find('\n')).trim().str();
}

namespace {

// Builds a method on every rank; a failure on any rank stops every rank.
std::unique_ptr<Method> buildOnAllRanks(const MethodInfo &Info,
                                        const Problem &Pb) {
  std::unique_ptr<Method> M;
  std::string Failure;
  try {
    M = Info.Make(Pb);
  } catch (const std::exception &E) {
    Failure = E.what();
  }
  int Failed = !Failure.empty(), AnyFailed = 0;
  MPI_Allreduce(&Failed, &AnyFailed, 1, MPI_INT, MPI_MAX, Pb.Comm);
  if (AnyFailed)
    throw BenchError{
        std::string(Info.Name) + ": " +
        (Failure.empty() ? "failed on another rank" : firstLine(Failure))};
  return M;
}

} // namespace

std::vector<Result> measureAll(const std::vector<MethodInfo> &Methods,
                               const Problem &Pb,
                               const std::vector<double> &Src,
                               const double *NodeSrc, bool NodeShared, int Reps,
                               bool Verify, ReferenceTimes &Refs) {
  struct Candidate {
    const MethodInfo *Info = nullptr;
    std::unique_ptr<Method> M;
    Result R;
    const double *From = nullptr; ///< its source: Src or NodeSrc
    /// Whether its source is NodeSrc: its target is then NodeDst, in node
    /// memory too, where the node's ranks may share the writing of their
    /// targets (Plan::nodeWrites()); otherwise Dst.
    bool OnNode = false;
    std::vector<double> Dst;
    NodeArray<double> NodeDst;
    MutableArrayRef<double> to() {
      return OnNode ? MutableArrayRef<double>(NodeDst.data(), NodeDst.size())
                    : MutableArrayRef<double>(Dst);
    }
    int64_t ReadsBefore = 0;  ///< its plan's nodeReads() before running
    int64_t WritesBefore = 0; ///< its plan's nodeWrites() before the timing
  };
  std::vector<Candidate> Candidates;
  for (const MethodInfo &Info : Methods) {
    Candidate C;
    C.Info = &Info;
    C.R.Method = Info.Name;
    // The setup is timed like a run; a few builds give a stable median.
    std::vector<double> PlanTimes;
    for (int I = 0, E = std::min(Reps, 5); I < E; ++I) {
      C.M.reset();
      PlanTimes.push_back(
          timeCollective(Pb.Comm, [&] { C.M = buildOnAllRanks(Info, Pb); }));
    }
    C.R.PlanSeconds = median(PlanTimes);
    C.R.Algorithm = C.M->algorithm();
    const Plan *Pl = C.M->plan();
    C.OnNode = Pl && !C.M->privateSource();
    C.From = C.OnNode ? NodeSrc : Src.data();
    C.Dst = makeEmptyPart(Pb.To, Pb.Rank);
    if (C.OnNode) {
      // Collective: every rank builds the same methods in the same order.
      C.NodeDst = NodeArray<double>(Pb.Comm, C.Dst.size());
      C.Dst = {};
      clearPart(C.to());
    }
    C.ReadsBefore = Pl ? Pl->nodeReads() : 0;
    Candidates.push_back(std::move(C));
  }

  auto Check = [&](Candidate &C) {
    if (!Verify)
      return;
    // The source it read, node memory or not, must be unchanged too.
    int64_t Wrong =
        countWrongElements(Pb.From, Pb.To, ArrayRef<double>(C.From, Src.size()),
                           C.to(), Pb.Rank, Pb.Comm);
    if (Wrong > 0 && C.R.Correct && Pb.Rank == 0)
      errs() << "redist-bench: error: " << C.Info->Name
             << " got elements wrong: " << Wrong << "\n";
    C.R.Checked = true;
    C.R.Correct = C.R.Correct && Wrong == 0;
  };
  // The first run is untimed: it warms caches and MPI's connections.
  for (Candidate &C : Candidates) {
    C.M->run(C.From, C.to().data());
    Check(C);
    if (const Plan *Pl = C.M->plan())
      C.WritesBefore = Pl->nodeWrites();
  }
  MemcpyReference Memcpy(Pb.Comm, Pb.From.N * 8);
  ParallelCopyLimit Limit(
      Pb.Comm, static_cast<int64_t>(makeEmptyPart(Pb.To, Pb.Rank).size()) * 8);
  Memcpy.time();
  Limit.time();
  // Entries 0 and 1 of a round are the references, then the methods; each
  // round runs them in its own order (RoundOrder.h), the same on every rank.
  const std::size_t Entries = 2 + Candidates.size();
  for (int Round = 0; Round < Reps; ++Round) {
    // The check after the last round must see what that round wrote, not
    // what the first run left: a run that writes nothing would pass.
    if (Verify && Round == Reps - 1)
      for (Candidate &C : Candidates)
        clearPart(C.to());
    for (std::size_t K : roundOrder(Entries, static_cast<std::size_t>(Round))) {
      if (K == 0) {
        Refs.Memcpy.push_back(Memcpy.time());
      } else if (K == 1) {
        Refs.Limit.push_back(Limit.time());
      } else {
        Candidate &C = Candidates[K - 2];
        C.R.Times.push_back(
            timeCollective(Pb.Comm, [&] { C.M->run(C.From, C.to().data()); }));
      }
    }
  }
  std::vector<Result> Results;
  for (Candidate &C : Candidates) {
    Check(C);
    if (C.OnNode)
      C.R.NodeWrites = nodeWritesSince(*C.M->plan(), C.WritesBefore, Pb.Comm);
    // Runs that took the handover where they should have read node memory
    // measured the wrong path: the run fails, verified or not.
    if (C.Info->MustReadNode) {
      std::string Missed =
          missedNodeReads(C.Info->Name, *C.M->plan(), C.ReadsBefore, Reps + 1,
                          NodeShared, Pb.Comm);
      if (!Missed.empty()) {
        if (Pb.Rank == 0)
          errs() << "redist-bench: error: " << Missed << "\n";
        C.R.Correct = false;
      }
    }
    Results.push_back(std::move(C.R));
  }
  return Results;
}

} // namespace bench
} // namespace redist
