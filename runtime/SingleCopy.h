//===- SingleCopy.h - One copy per element between ranks of a node -------===//
//
// Private to the runtime. A message between two ranks of one node whose
// runs are long is read by the receiver straight from the sender's source
// array into its target with Linux's cross-memory attach
// (process_vm_readv): every element is read once and written once, where
// the shared-memory handover (NodeHandover.h) copies it twice. The kernel
// pins the pages of each remote iovec apart, so short remote runs cost more
// than they save, and copies into each local iovec apart, which costs
// less; runs adjacent on one side are one iovec there. The receiver
// chooses per sender by the mean length of the remote iovecs
// (PlanOptions::SingleCopyRunBytes) and of the local ones. None by default:
// pinning each 4 KiB page costs more than the handover's second copy on a
// quiet machine (docs/runtime.md, "Single copies").
//
// The kernel may refuse (Yama's ptrace_scope, a container's seccomp
// profile, another user's process): when a plan is built, the node's ranks
// probe reads from one another and use single copies only if every read
// worked on every rank, so that both ends of every message agree.
// REDIST_SINGLE_COPY=off in a rank's environment makes its probe fail, which
// forces the fallback on its whole node; REDIST_SINGLE_COPY=BYTES sets the
// run length this rank, as a receiver, asks for.
//
// Per execute(), the source address travels to each reader in one 8-byte
// message (the caller's arrays may move between calls), and each reader
// answers with a zero-byte "done", which the sender waits for before it
// returns, so that its source stays untouched while it is read.
//
// Within a combining execute() (Combine.h) the reader cannot let the kernel
// write its target: it reads the runs into a bounded bounce buffer and
// combines them from there into the target, as the unpack it replaces
// would. Only the reader changes, so both ends agree whatever the
// combination (which each rank gives its own execute()).
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_SINGLECOPY_H
#define REDIST_RUNTIME_SINGLECOPY_H

#include "CopyProgram.h"
#include "redist/runtime/Plan.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <sys/uio.h>

namespace redist {

struct Combine;

/// The single-copy messages' tags on a NodeRings' comm() (the handover's
/// signals use 0 and 1).
constexpr int SourceAddressTag = 2, ReadDoneTag = 3;

/// This rank's environment: std::nullopt without REDIST_SINGLE_COPY (or
/// with a bad value, which singleCopyEnvProblem names), -1 for "off", else
/// the run length in bytes it names.
std::optional<int64_t> singleCopyRunBytesFromEnv();
/// What is wrong with REDIST_SINGLE_COPY, if anything; a plan's parameter
/// check raises it on every rank.
std::optional<std::string> singleCopyEnvProblem();

/// Collective over Comm: whether any rank asks for single copies, by
/// Options or, where the option asks none (the default), by its
/// environment; the same answer on every rank, so that the node's ranks
/// probe together or not at all. A non-negative option answers without
/// communicating.
bool singleCopyAsked(const PlanOptions &Options, MPI_Comm Comm);

/// Collective over Node: whether every rank of Node can read every other
/// one's memory with process_vm_readv, the same answer on every rank (false
/// when any rank passes Wanted false). Pids receives each node rank's
/// process id.
bool probeSingleCopy(MPI_Comm Node, bool Wanted, std::vector<long> &Pids);

/// The iovecs a single copy's read of P takes: on the sender's side
/// (Remote), runs adjacent there read as one, and on this rank's (Local)
/// likewise. What the choice weighs.
struct ReadIovecs {
  int64_t Remote = 0, Local = 0;
};
ReadIovecs readIovecs(const detail::CopyProgram &P);

/// A sender this rank reads from in one group: its rank in the node's
/// communicator, its process, and the messages (indices into the plan's
/// receives) read from it.
struct DirectSource {
  int NodeRank = 0;
  long Pid = 0;
  std::vector<int> Recvs;
};

/// What reading works in, sized once so that execute() allocates nothing.
struct SingleCopyScratch {
  std::vector<MPI_Request> Requests;
  std::vector<uint64_t> Addresses; ///< one per source of a group
  std::vector<struct iovec> Local, Remote;
  /// A combining read's bounce buffer (a reader's only), and the program
  /// that combines a batch of it into the target: one run per iovec.
  std::vector<char> Bounce;
  detail::CopyProgram Combined;
  /// Room for groups of up to Sources sources and Readers readers.
  void reserve(std::size_t Sources, std::size_t Readers);
};

/// Copies P's runs (CopySide::Direct: the sender's offsets to this rank's,
/// through every repeat and nested level) from process Pid's array at
/// address Src into Dst, IOV_MAX runs per call; with C, through the bounce
/// buffer, each batch then combined into Dst as C says.
/// Returns "" or what failed.
std::string readRuns(long Pid, const detail::CopyProgram &P, uint64_t Src,
                     char *Dst, std::size_t ElementBytes, const Combine *C,
                     SingleCopyScratch &Scratch);

} // namespace redist

#endif // REDIST_RUNTIME_SINGLECOPY_H
