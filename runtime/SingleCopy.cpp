//===- SingleCopy.cpp - One copy per element between ranks of a node -----===//
//
// The probe and the reads of SingleCopy.h, and the plan's part: which
// messages go that way (chooseDirect, in findNodePeers), and moving them in
// a group (startDirect before the group's other work, finishDirect after).
//
//===----------------------------------------------------------------------===//
#include "SingleCopy.h"

#include "Combine.h"
#include "PlanImpl.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace redist {
namespace {

/// Bytes the probe reads from each other rank of the node.
constexpr int ProbeBytes = 64;

/// The byte of the probe buffer of node rank R at I.
char probeByte(int R, int I) { return static_cast<char>(R * 31 + I * 7 + 1); }

/// Runs per process_vm_readv call: the kernel's limit of iovecs.
std::size_t iovecsPerCall() {
#ifdef IOV_MAX
  return IOV_MAX;
#else
  const long Max = sysconf(_SC_IOV_MAX);
  return Max > 0 ? static_cast<std::size_t>(Max) : 1024;
#endif
}

/// Bytes per process_vm_readv call at most: the kernel moves at most
/// MAX_RW_COUNT (INT_MAX rounded down to a page) per call anyway.
constexpr std::size_t BatchBytes = std::size_t(1) << 30;

/// The mean bytes per local iovec a single copy needs besides long remote
/// ones: the kernel copies into each local iovec apart. Measured (one
/// process reading 32 MB from another, loaded machine, best of 7): remote
/// runs of 256 KiB into local runs of 1 to 4 KiB took about what runs of
/// 8 KiB on both sides take, 256 and 512 bytes up to 1.5 times that.
constexpr int64_t LocalRunBytes = 1024;

/// A combining read's bounce buffer: small enough to stay in cache between
/// the read and the combination.
constexpr std::size_t BounceBytes = std::size_t(64) << 10;

/// Skips Bytes of the Count iovecs at V (V and Count updated).
void skipBytes(struct iovec *&V, std::size_t &Count, std::size_t Bytes) {
  while (Count > 0 && Bytes >= V->iov_len) {
    Bytes -= V->iov_len;
    ++V;
    --Count;
  }
  if (Bytes > 0) {
    V->iov_base = static_cast<char *>(V->iov_base) + Bytes;
    V->iov_len -= Bytes;
  }
}

/// Reads S's first Locals local and Remotes remote iovecs (of equal total
/// length); "" or the failure. A call that stops short (at the kernel's
/// limit per call) goes on from there.
std::string readBatch(long Pid, SingleCopyScratch &S, std::size_t Locals,
                      std::size_t Remotes) {
  struct iovec *Local = S.Local.data(), *Remote = S.Remote.data();
  while (Locals > 0 && Remotes > 0) {
    const ssize_t Read = process_vm_readv(static_cast<pid_t>(Pid), Local,
                                          Locals, Remote, Remotes, 0);
    if (Read < 0)
      return std::strerror(errno);
    if (Read == 0)
      return "no progress";
    skipBytes(Local, Locals, static_cast<std::size_t>(Read));
    skipBytes(Remote, Remotes, static_cast<std::size_t>(Read));
  }
  return "";
}

/// The iovecs of one batch of runs. A run that continues the one before
/// on a side extends that side's last iovec: the kernel pins the pages of
/// each remote iovec apart, so a sender's contiguous source read in one
/// piece into many target runs (a permuted array's) costs what one run does.
struct Batch {
  SingleCopyScratch &S;
  std::size_t Locals = 0, Remotes = 0, Bytes = 0;
  static void extend(struct iovec *V, std::size_t &Count, char *At,
                     std::size_t Len) {
    if (Count > 0 &&
        static_cast<char *>(V[Count - 1].iov_base) + V[Count - 1].iov_len == At)
      V[Count - 1].iov_len += Len;
    else
      V[Count++] = {At, Len};
  }
  /// Adds Len bytes from the sender's Remote to Local; whether the batch
  /// has room for another run.
  bool add(char *Remote, char *Local, std::size_t Len) {
    extend(S.Remote.data(), Remotes, Remote, Len);
    extend(S.Local.data(), Locals, Local, Len);
    Bytes += Len;
    return Locals < S.Local.size() && Remotes < S.Remote.size() &&
           Bytes < BatchBytes;
  }
  std::string read(long Pid) {
    std::string Failed = readBatch(Pid, S, Locals, Remotes);
    Locals = Remotes = Bytes = 0;
    return Failed;
  }
};

} // namespace

std::optional<std::string> singleCopyEnvProblem() {
  const char *Value = std::getenv("REDIST_SINGLE_COPY");
  if (!Value || !std::strcmp(Value, "off"))
    return std::nullopt;
  char *End = nullptr;
  errno = 0;
  const long long Bytes = std::strtoll(Value, &End, 10);
  if (*Value && !*End && errno == 0 && Bytes >= 0)
    return std::nullopt;
  return std::string("REDIST_SINGLE_COPY='") + Value +
         "' is neither 'off' nor a number of bytes (0 or more)";
}

std::optional<int64_t> singleCopyRunBytesFromEnv() {
  const char *Value = std::getenv("REDIST_SINGLE_COPY");
  if (!Value || singleCopyEnvProblem())
    return std::nullopt;
  if (!std::strcmp(Value, "off"))
    return -1;
  return std::strtoll(Value, nullptr, 10);
}

bool singleCopyAsked(const PlanOptions &Options, MPI_Comm Comm) {
  if (Options.SingleCopyRunBytes >= 0)
    return true; // the same on every rank
  const std::optional<int64_t> Env = singleCopyRunBytesFromEnv();
  const int Mine = Env && *Env >= 0;
  int Any = 0;
  MPI_Allreduce(&Mine, &Any, 1, MPI_INT, MPI_LOR, Comm);
  return Any != 0;
}

bool probeSingleCopy(MPI_Comm Node, bool Wanted, std::vector<long> &Pids) {
  int Me = 0, Size = 0;
  MPI_Comm_rank(Node, &Me);
  MPI_Comm_size(Node, &Size);
  char Mine[ProbeBytes];
  for (int I = 0; I < ProbeBytes; ++I)
    Mine[I] = probeByte(Me, I);
  // Each rank's process and the address of its probe buffer.
  const long Own[2] = {static_cast<long>(getpid()),
                       static_cast<long>(reinterpret_cast<uintptr_t>(Mine))};
  std::vector<long> All(2 * static_cast<std::size_t>(Size));
  MPI_Allgather(Own, 2, MPI_LONG, All.data(), 2, MPI_LONG, Node);
  int Ok = Wanted;
  for (int R = 0; Ok && R < Size; ++R) {
    if (R == Me)
      continue;
    char Got[ProbeBytes] = {};
    struct iovec Local = {Got, ProbeBytes};
    struct iovec Remote = {
        reinterpret_cast<void *>(static_cast<uintptr_t>(All[2 * R + 1])),
        ProbeBytes};
    Ok = process_vm_readv(static_cast<pid_t>(All[2 * R]), &Local, 1, &Remote, 1,
                          0) == ProbeBytes;
    for (int I = 0; Ok && I < ProbeBytes; ++I)
      Ok = Got[I] == probeByte(R, I);
  }
  // Every rank has read before any probe buffer goes.
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_LAND, Node);
  Pids.resize(static_cast<std::size_t>(Size));
  for (int R = 0; R < Size; ++R)
    Pids[static_cast<std::size_t>(R)] = All[2 * static_cast<std::size_t>(R)];
  return AllOk != 0;
}

ReadIovecs readIovecs(const detail::CopyProgram &P) {
  // Per segment, from its shape: the runs of one repeat that break on a
  // side, and whether the deepest repeats continue each other there (then
  // each item of them, or the segment's whole repeat, is one iovec).
  ReadIovecs V;
  for (const detail::CopySegment &S : P.Segments) {
    if (S.Runs.empty())
      continue;
    const int64_t Repeats = detail::segmentRepeats(S);
    // The deepest repeats: their items, each Count of them, and the steps.
    int64_t Items = 1, Deepest = S.Repeat;
    int64_t FromStep = S.FromStride, ToStep = S.ToStride;
    if (!S.Outer.empty()) {
      const detail::CopyLevel &L = S.Outer.back();
      Items = static_cast<int64_t>(L.Items.size());
      Deepest = 0;
      for (const detail::CopyItem &I : L.Items)
        Deepest += I.Count;
      FromStep = L.FromStep;
      ToStep = L.ToStep;
    }
    auto Count = [&](auto Offset, int64_t Step) {
      int64_t Breaks = 1, Length = S.Runs[0].Length;
      for (std::size_t I = 1; I < S.Runs.size(); ++I) {
        const detail::CopyRun &A = S.Runs[I - 1], &B = S.Runs[I];
        Breaks += Offset(B) != Offset(A) + A.Length;
        Length += B.Length;
      }
      if (Breaks == 1 && Step == Length && Deepest > 0)
        return Repeats / Deepest * Items;
      return Breaks * Repeats;
    };
    V.Remote +=
        Count([](const detail::CopyRun &R) { return R.From; }, FromStep);
    V.Local += Count([](const detail::CopyRun &R) { return R.To; }, ToStep);
  }
  return V;
}

void SingleCopyScratch::reserve(std::size_t Sources, std::size_t Readers) {
  Requests.resize(std::max(Requests.size(), 2 * (Sources + Readers)));
  Addresses.resize(std::max(Addresses.size(), Sources));
  Local.resize(iovecsPerCall());
  Remote.resize(iovecsPerCall());
  if (Sources > 0 && Bounce.empty()) {
    Bounce.resize(BounceBytes);
    Combined.Segments.resize(1);
    Combined.Segments[0].Runs.reserve(iovecsPerCall());
    Combined.WritesTarget = true;
  }
}

namespace {

/// readRuns with a combination: batches of runs read into the bounce
/// buffer (a run longer than what is left of it split), each batch
/// combined into Dst by one program whose runs go from the buffer to the
/// runs' target offsets.
std::string readCombined(long Pid, const detail::CopyProgram &P, uint64_t Src,
                         char *Dst, std::size_t ElementBytes, const Combine &C,
                         SingleCopyScratch &Scratch) {
  char *const From = reinterpret_cast<char *>(static_cast<uintptr_t>(Src));
  const int64_t E = static_cast<int64_t>(ElementBytes);
  const int64_t Room = static_cast<int64_t>(Scratch.Bounce.size()) / E;
  char *Bounce = Scratch.Bounce.data();
  std::vector<detail::CopyRun> &Runs = Scratch.Combined.Segments[0].Runs;
  Runs.clear();
  Batch B{Scratch};
  bool Full = false;
  int64_t Used = 0;
  std::string Failed;
  auto Flush = [&] {
    Failed = B.read(Pid);
    if (Failed.empty() && !Runs.empty()) {
      Scratch.Combined.Elements = Used;
      detail::runCombineProgram(Scratch.Combined, Bounce, Dst, C);
    }
    Runs.clear();
    Full = false;
    Used = 0;
    return Failed.empty();
  };
  detail::forEachRun(P, [&](int64_t F, int64_t T, int64_t Length) {
    while (Length > 0) {
      if ((Used == Room || Full) && !Flush())
        return false;
      const int64_t L = std::min(Length, Room - Used);
      const bool HasRoom = B.add(From + F * E, Bounce + Used * E,
                                 static_cast<std::size_t>(L * E));
      Runs.push_back({Used, T, L});
      // The combining program holds as many runs as it has room for.
      Full = !HasRoom || Runs.size() == Runs.capacity();
      Used += L;
      F += L;
      T += L;
      Length -= L;
    }
    return true;
  });
  if (Failed.empty())
    Flush();
  return Failed;
}

} // namespace

std::string readRuns(long Pid, const detail::CopyProgram &P, uint64_t Src,
                     char *Dst, std::size_t ElementBytes, const Combine *C,
                     SingleCopyScratch &Scratch) {
  if (C)
    return readCombined(Pid, P, Src, Dst, ElementBytes, *C, Scratch);
  char *const From = reinterpret_cast<char *>(static_cast<uintptr_t>(Src));
  const int64_t E = static_cast<int64_t>(ElementBytes);
  Batch B{Scratch};
  std::string Failed;
  detail::forEachRun(P, [&](int64_t F, int64_t T, int64_t Length) {
    if (B.add(From + F * E, Dst + T * E, static_cast<std::size_t>(Length * E)))
      return true;
    Failed = B.read(Pid);
    return Failed.empty();
  });
  return Failed.empty() ? B.read(Pid) : Failed;
}

void Plan::Impl::chooseDirect(const NodeRings &Node) {
  std::vector<char> ReadFrom(static_cast<std::size_t>(CommSize), 0);
  const std::optional<int64_t> Env = singleCopyRunBytesFromEnv();
  // Negative: this rank reads none. Only "off" in its environment keeps
  // the others from reading it (and so the whole node falls back).
  const int64_t Least = Env ? *Env : Options.SingleCopyRunBytes;
  if (!probeSingleCopy(Node.comm(), !Env || *Env >= 0, NodePids))
    NodePids.clear();
  const bool Reads = !NodePids.empty() && Least >= 0;
  const std::vector<std::vector<int64_t>> SenderStrides =
      NodePids.empty() ? std::vector<std::vector<int64_t>>()
                       : arraySenderStrides(Node);
  // Per sender, the bytes and iovecs of all its messages (several parts in
  // the Overlapped mode) to this rank.
  std::vector<int64_t> Bytes(ReadFrom.size(), 0), Remote(ReadFrom.size(), 0),
      Local(ReadFrom.size(), 0);
  for (std::size_t I = 0; I < Recvs.size() && Reads; ++I) {
    detail::PeerMessage &M = Recvs[I];
    if (!Node.onNode(M.Peer))
      continue;
    M.Program = directProgram(Node, I, SenderStrides);
    const int64_t MessageBytes =
        M.Elements * static_cast<int64_t>(ElementBytes);
    const ReadIovecs V = readIovecs(M.Program);
    Bytes[static_cast<std::size_t>(M.Peer)] += MessageBytes;
    Remote[static_cast<std::size_t>(M.Peer)] += V.Remote;
    Local[static_cast<std::size_t>(M.Peer)] += V.Local;
  }
  if (ArrayMsgs)
    ArrayMsgs->dropRuns(); // directProgram's cuts kept some
  // The kernel pins each remote iovec's pages apart, which costs, and
  // copies into each local one, which costs much less (LocalRunBytes).
  const int64_t LocalLeast = std::min(Least, LocalRunBytes);
  for (std::size_t R = 0; R < ReadFrom.size(); ++R)
    ReadFrom[R] = Reads && Bytes[R] > 0 &&
                  Bytes[R] >= Least * std::max<int64_t>(1, Remote[R]) &&
                  Bytes[R] >= LocalLeast * Local[R];
  // The receiver decides; its senders learn it.
  std::vector<char> ReadBy(ReadFrom.size(), 0);
  MPI_Alltoall(ReadFrom.data(), 1, MPI_CHAR, ReadBy.data(), 1, MPI_CHAR, Comm);
  for (detail::PeerMessage &M : Recvs) {
    M.Direct = ReadFrom[static_cast<std::size_t>(M.Peer)] != 0;
    if (!M.Direct)
      M.Program = detail::CopyProgram(); // buildTransfers' or buildShared's
  }
  for (detail::PeerMessage &M : Sends)
    M.Direct = ReadBy[static_cast<std::size_t>(M.Peer)] != 0;
}

std::vector<std::vector<int64_t>>
Plan::Impl::arraySenderStrides(const NodeRings &Node) const {
  if (!Array)
    return {};
  // Each node rank's source strides (none where it holds no source
  // process), padded to the largest rank: one small allgather per plan.
  const std::size_t Width = MaxArrayRank + 1;
  std::vector<int64_t> Mine(Width, 0), All;
  if (Array->FromProc >= 0) {
    Mine[0] = static_cast<int64_t>(Array->FromStrides.size());
    std::copy(Array->FromStrides.begin(), Array->FromStrides.end(),
              Mine.begin() + 1);
  }
  int NodeSize = 0;
  MPI_Comm_size(Node.comm(), &NodeSize);
  All.resize(Width * static_cast<std::size_t>(NodeSize));
  MPI_Allgather(Mine.data(), static_cast<int>(Width), MPI_INT64_T, All.data(),
                static_cast<int>(Width), MPI_INT64_T, Node.comm());
  std::vector<std::vector<int64_t>> Strides(static_cast<std::size_t>(NodeSize));
  for (std::size_t R = 0; R < Strides.size(); ++R) {
    const int64_t *Row = All.data() + R * Width;
    Strides[R].assign(Row + 1, Row + 1 + Row[0]);
  }
  return Strides;
}

detail::CopyProgram Plan::Impl::directProgram(
    const NodeRings &Node, std::size_t I,
    const std::vector<std::vector<int64_t>> &SenderStrides) {
  const detail::PeerMessage &M = Recvs[I];
  if (Array) {
    // The receiver's cutter placed the sender's elements at its layout's
    // strides; a sender with strides of its own is cut again at them.
    const std::vector<int64_t> &Given =
        SenderStrides[static_cast<std::size_t>(Node.nodeRank(M.Peer))];
    const int64_t From = detail::procOfRank(Array->From.Ranks,
                                            Array->From.Layout.procs(), M.Peer);
    if (Given != Array->From.Layout.strides(From))
      return ArrayMsgs->cutter(From, Array->ToProc, &Given)
          .program(detail::CopySide::Direct, M.First, M.First + M.Elements);
  }
  return RecvCutters[I].program(detail::CopySide::Direct, M.First,
                                M.First + M.Elements);
}

void Plan::Impl::buildDirect() {
  std::size_t Sources = 0, Readers = 0;
  for (detail::Group &G : Groups) {
    for (int S : G.DirectSends) {
      const int Peer = Rings->nodeRank(Sends[static_cast<std::size_t>(S)].Peer);
      if (std::find(G.DirectReaders.begin(), G.DirectReaders.end(), Peer) ==
          G.DirectReaders.end())
        G.DirectReaders.push_back(Peer);
    }
    for (int R : G.DirectRecvs) {
      const int Peer = Rings->nodeRank(Recvs[static_cast<std::size_t>(R)].Peer);
      auto It = std::find_if(
          G.DirectSources.begin(), G.DirectSources.end(),
          [&](const DirectSource &D) { return D.NodeRank == Peer; });
      if (It == G.DirectSources.end()) {
        DirectSource D;
        D.NodeRank = Peer;
        D.Pid = NodePids[static_cast<std::size_t>(Peer)];
        G.DirectSources.push_back(D);
        It = G.DirectSources.end() - 1;
      }
      It->Recvs.push_back(R);
    }
    Sources = std::max(Sources, G.DirectSources.size());
    Readers = std::max(Readers, G.DirectReaders.size());
  }
  if (Sources + Readers > 0)
    Direct.reserve(Sources, Readers);
}

void Plan::Impl::startDirect(const detail::Group &G, const char *Src) const {
  if (!G.direct())
    return;
  MPI_Comm Node = Rings->comm();
  MPI_Request *Reqs = Direct.Requests.data();
  SourceAddress = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(Src));
  std::size_t K = 0;
  for (std::size_t I = 0; I < G.DirectSources.size(); ++I)
    MPI_Irecv(&Direct.Addresses[I], 1, MPI_UINT64_T,
              G.DirectSources[I].NodeRank, SourceAddressTag, Node, &Reqs[K++]);
  for (int Peer : G.DirectReaders) {
    MPI_Isend(&SourceAddress, 1, MPI_UINT64_T, Peer, SourceAddressTag, Node,
              &Reqs[K++]);
    MPI_Irecv(nullptr, 0, MPI_BYTE, Peer, ReadDoneTag, Node, &Reqs[K++]);
  }
}

void Plan::Impl::finishDirect(const detail::Group &G, char *Dst) const {
  if (!G.direct())
    return;
  MPI_Comm Node = Rings->comm();
  MPI_Request *Reqs = Direct.Requests.data();
  const int Sources = static_cast<int>(G.DirectSources.size());
  const std::size_t Own = G.DirectSources.size() + 2 * G.DirectReaders.size();
  MPI_Request *Done = Reqs + Own; // our "done" answers
  std::string Failed;
  const Combine *C = detail::activeCombine();
  // Each source as soon as its address arrives.
  for (int Left = Sources; Left > 0; --Left) {
    int I = MPI_UNDEFINED;
    MPI_Waitany(Sources, Reqs, &I, MPI_STATUS_IGNORE);
    const DirectSource &D = G.DirectSources[static_cast<std::size_t>(I)];
    for (int R : D.Recvs) {
      std::string Why =
          readRuns(D.Pid, Recvs[static_cast<std::size_t>(R)].Program,
                   Direct.Addresses[static_cast<std::size_t>(I)], Dst,
                   ElementBytes, C, Direct);
      if (Failed.empty() && !Why.empty())
        Failed = "redist runtime: reading rank " +
                 std::to_string(Recvs[static_cast<std::size_t>(R)].Peer) +
                 "'s source with process_vm_readv failed: " + Why;
    }
    // Answered even after a failure, so that the sender does not wait.
    MPI_Isend(nullptr, 0, MPI_BYTE, D.NodeRank, ReadDoneTag, Node, &Done[I]);
  }
  MPI_Waitall(static_cast<int>(Own) + Sources, Reqs, MPI_STATUSES_IGNORE);
  if (!Failed.empty())
    throw std::runtime_error(Failed);
}

} // namespace redist
