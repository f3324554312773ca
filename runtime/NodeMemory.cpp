//===- NodeMemory.cpp - Arrays a node's ranks all map ---------------------===//
//
// Each rank's node memory is a memory file (MemoryFile.h) that the other
// ranks of its node map while the allocation is collective (writable, since
// a plan may write a peer's target there); the
// table below records what this process owns and maps, for execute() to
// find. Freeing unmaps locally: the memory goes once every mapping of it
// has.
//
//===----------------------------------------------------------------------===//
#include "redist/runtime/NodeMemory.h"

#include "MemoryFile.h"
#include "NodeMemoryTable.h"
#include "redist/Error.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace redist {
namespace {

struct Owned {
  char *Base;
  std::size_t Bytes;
  uint64_t Serial;
  std::vector<long> Readers; ///< processes that map it, this one included
};
struct View {
  long Pid;
  uint64_t OwnerSerial;
  char *Base;
  std::size_t Bytes;
  uint64_t Allocation; ///< the serial of this process's allocation it came with
};
struct Table {
  std::mutex Lock;
  std::vector<Owned> Own;
  std::vector<View> Views;
  uint64_t NextSerial = 1, Epoch = 0;
};
Table &table() {
  static Table T;
  return T;
}

/// What one rank tells the node's others when allocating.
struct Announcement {
  char Name[MemoryFileNameBytes];
  int64_t Pid;
  uint64_t Serial;
};

/// "" when REDIST_NODE_MEMORY is unset, "on" or "off", else its value.
std::string badSetting() {
  const char *V = std::getenv("REDIST_NODE_MEMORY");
  if (!V || !std::strcmp(V, "on") || !std::strcmp(V, "off"))
    return "";
  return *V ? V : "(empty)";
}

bool sharingOff() {
  const char *V = std::getenv("REDIST_NODE_MEMORY");
  return V && !std::strcmp(V, "off");
}

/// Collective over Comm: throws InvalidArgument on every rank when some
/// rank's REDIST_NODE_MEMORY is bad, naming the first such rank and value.
void agreeOnSetting(MPI_Comm Comm) {
  int Rank = 0, Size = 0;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_size(Comm, &Size);
  std::string Bad = badSetting();
  int Mine = Bad.empty() ? Size : Rank, First = Size;
  MPI_Allreduce(&Mine, &First, 1, MPI_INT, MPI_MIN, Comm);
  if (First == Size)
    return;
  char Value[64] = {};
  if (Rank == First)
    std::snprintf(Value, sizeof Value, "%s", Bad.c_str());
  MPI_Bcast(Value, sizeof Value, MPI_CHAR, First, Comm);
  throw InvalidArgument("REDIST_NODE_MEMORY is '" + std::string(Value) +
                        "' on rank " + std::to_string(First) +
                        "; it must be 'on' or 'off'");
}

} // namespace

NodeBuffer::NodeBuffer(MPI_Comm Comm, std::size_t Size) : Bytes(Size) {
  agreeOnSetting(Comm);
  MPI_Comm Node = MPI_COMM_NULL;
  int Rank = 0, NodeSize = 0;
  MPI_Comm_rank(Comm, &Rank);
  MPI_Comm_split_type(Comm, MPI_COMM_TYPE_SHARED, Rank, MPI_INFO_NULL, &Node);
  MPI_Comm_size(Node, &NodeSize);
  Table &T = table();
  {
    std::lock_guard<std::mutex> Guard(T.Lock);
    Serial = T.NextSerial++;
  }
  // This rank's memory file, then every other's mapped here; the node's
  // ranks share only if all of that worked on all of them.
  int Fd = -1, Ok = !sharingOff();
  void *Address = nullptr;
  Announcement Mine{};
  Mine.Pid = detail::processId();
  Mine.Serial = Serial;
  if (Ok && Bytes > 0) {
    const std::string Name =
        createMemoryFile("redist-node-memory", Bytes, Address, Fd);
    Ok = !Name.empty();
    std::snprintf(Mine.Name, sizeof Mine.Name, "%s", Name.c_str());
  }
  int AllOk = 0;
  MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_LAND, Node);
  std::vector<View> Mapped;
  std::vector<long> Readers{static_cast<long>(Mine.Pid)};
  if (AllOk) {
    std::vector<Announcement> All(static_cast<std::size_t>(NodeSize));
    MPI_Allgather(&Mine, sizeof Mine, MPI_BYTE, All.data(), sizeof Mine,
                  MPI_BYTE, Node);
    for (const Announcement &A : All) {
      if (A.Pid == Mine.Pid)
        continue;
      Readers.push_back(static_cast<long>(A.Pid));
      if (!A.Name[0] || !Ok)
        continue; // nothing to map (zero bytes), or given up
      std::size_t ViewBytes = 0;
      // Writable: a plan may write a peer's target (NodePull.cpp).
      void *P = openMemoryFile(A.Name, ViewBytes, true);
      if (!P)
        Ok = 0;
      else
        Mapped.push_back(View{static_cast<long>(A.Pid), A.Serial,
                              static_cast<char *>(P), ViewBytes, Serial});
    }
    MPI_Allreduce(&Ok, &AllOk, 1, MPI_INT, MPI_LAND, Node);
  }
  if (Fd >= 0)
    close(Fd); // the mappings keep the memory
  MPI_Comm_free(&Node);
  if (!AllOk) {
    for (const View &V : Mapped)
      munmap(V.Base, V.Bytes);
    Mapped.clear();
    Readers.resize(1);
  }
  Shared = AllOk != 0;
  if (!Address && Bytes > 0) {
    Address = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Address == MAP_FAILED)
      throw std::bad_alloc();
  }
  Data = Address;
  std::lock_guard<std::mutex> Guard(T.Lock);
  if (Data)
    T.Own.push_back(Owned{static_cast<char *>(Data), Bytes, Serial, Readers});
  T.Views.insert(T.Views.end(), Mapped.begin(), Mapped.end());
  ++T.Epoch;
}

void NodeBuffer::release() noexcept {
  if (Serial == 0)
    return;
  Table &T = table();
  std::lock_guard<std::mutex> Guard(T.Lock);
  T.Own.erase(
      std::remove_if(T.Own.begin(), T.Own.end(),
                     [&](const Owned &O) { return O.Serial == Serial; }),
      T.Own.end());
  auto Gone =
      std::stable_partition(T.Views.begin(), T.Views.end(), [&](const View &V) {
        return V.Allocation != Serial;
      });
  for (auto It = Gone; It != T.Views.end(); ++It)
    munmap(It->Base, It->Bytes);
  T.Views.erase(Gone, T.Views.end());
  ++T.Epoch;
  if (Data)
    munmap(Data, Bytes);
  Data = nullptr;
  Bytes = 0;
  Shared = false;
  Serial = 0;
}

NodeBuffer::~NodeBuffer() { release(); }

NodeBuffer::NodeBuffer(NodeBuffer &&Other) noexcept {
  *this = std::move(Other);
}

NodeBuffer &NodeBuffer::operator=(NodeBuffer &&Other) noexcept {
  if (this != &Other) {
    release();
    std::swap(Data, Other.Data);
    std::swap(Bytes, Other.Bytes);
    std::swap(Shared, Other.Shared);
    std::swap(Serial, Other.Serial);
  }
  return *this;
}

namespace detail {

NodeAddress findOwnNodeMemory(const void *P, std::size_t Bytes,
                              const std::vector<long> &Readers) {
  Table &T = table();
  std::lock_guard<std::mutex> Guard(T.Lock);
  const char *C = static_cast<const char *>(P);
  for (const Owned &O : T.Own) {
    if (C < O.Base || C > O.Base + O.Bytes ||
        Bytes > static_cast<std::size_t>(O.Base + O.Bytes - C))
      continue;
    for (long R : Readers)
      if (std::find(O.Readers.begin(), O.Readers.end(), R) == O.Readers.end())
        return NodeAddress();
    return NodeAddress{true, processId(), O.Serial,
                       static_cast<uint64_t>(C - O.Base)};
  }
  return NodeAddress();
}

char *findNodeView(const NodeAddress &A, std::size_t Bytes) {
  Table &T = table();
  std::lock_guard<std::mutex> Guard(T.Lock);
  for (const View &V : T.Views)
    if (V.Pid == A.Pid && V.OwnerSerial == A.Serial)
      return A.Offset <= V.Bytes && Bytes <= V.Bytes - A.Offset
                 ? V.Base + A.Offset
                 : nullptr;
  return nullptr;
}

namespace {
std::atomic<int64_t> KeptPid{0};
} // namespace

int64_t processId() {
  static std::once_flag Once;
  std::call_once(Once,
                 [] { pthread_atfork(nullptr, nullptr, [] { KeptPid = 0; }); });
  int64_t Pid = KeptPid.load(std::memory_order_relaxed);
  if (Pid == 0) {
    Pid = static_cast<int64_t>(getpid());
    KeptPid.store(Pid, std::memory_order_relaxed);
  }
  return Pid;
}

uint64_t nodeMemoryEpoch() {
  Table &T = table();
  std::lock_guard<std::mutex> Guard(T.Lock);
  return T.Epoch;
}

} // namespace detail
} // namespace redist
