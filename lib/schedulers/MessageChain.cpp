//===- MessageChain.cpp - The chain structure of GEN_BLOCK messages -------===//

#include "MessageChain.h"
#include "GenBlockSchedulers.h"

#include "redist/Error.h"

#include <algorithm>

namespace redist {
namespace detail {

namespace {

std::string describe(int64_t Id, const Message &M) {
  return "message " + std::to_string(Id) + " (" + std::to_string(M.Src) +
         " -> " + std::to_string(M.Dst) + ", length " + std::to_string(M.Len) +
         ")";
}

// Appends the runs of equal Key (sender or receiver) to Runs.
template <typename KeyFn>
void collectRuns(const std::vector<Message> &Ms, bool BySender, KeyFn Key,
                 std::vector<MessageRun> &Runs) {
  int64_t N = static_cast<int64_t>(Ms.size());
  for (int64_t First = 0; First < N;) {
    int64_t Last = First;
    while (Last + 1 < N && Key(Ms[Last + 1]) == Key(Ms[First]))
      ++Last;
    if (Last > First)
      Runs.push_back({First, Last, BySender});
    First = Last + 1;
  }
}

// One contiguous segment per process: GEN_BLOCK, or block-cyclic with a
// single round of blocks, ceil(N / b) <= P (b * P may overflow).
bool isSegmented(const Layout &L) {
  return !L.isBlockCyclic() || L.extent() == 0 ||
         (L.extent() - 1) / L.blockSize() < L.procs();
}

} // namespace

bool chainSchedulersApply(const Layout &From, const Layout &To,
                          std::string *Why) {
  for (const Layout *L : {&From, &To})
    if (!isSegmented(*L)) {
      if (Why)
        *Why = (L == &From ? "the source " : "the target ") +
               L->distribution().str() + " over " +
               std::to_string(L->extent()) +
               " elements gives some process more than one segment; scpa "
               "and chain need GEN_BLOCK or BLOCK on both sides";
      return false;
    }
  return true;
}

std::optional<std::string> whyNotChain(const CommGrid &G) {
  const std::vector<Message> &Ms = G.Messages;
  for (size_t I = 0; I < Ms.size(); ++I) {
    const Message &M = Ms[I];
    int64_t Id = static_cast<int64_t>(I);
    if (M.Src < 0 || M.Src >= G.P || M.Dst < 0 || M.Dst >= G.Q)
      return describe(Id, M) + " names a process outside the grid";
    if (M.Len <= 0)
      return describe(Id, M) + " is empty";
    if (I == 0)
      continue;
    const Message &Prev = Ms[I - 1];
    if (Prev.Src > M.Src || (Prev.Src == M.Src && Prev.Dst >= M.Dst))
      return describe(Id, M) + " is not sorted after " + describe(Id - 1, Prev);
    // Sorted by sender, the receivers must not go back: otherwise some
    // process holds more than one segment.
    if (Prev.Dst > M.Dst)
      return describe(Id, M) + " goes back to an earlier receiver than " +
             describe(Id - 1, Prev) +
             ": the messages do not form a GEN_BLOCK chain";
  }
  return std::nullopt;
}

MessageChain analyseChain(const CommGrid &G) {
  if (std::optional<std::string> Why = whyNotChain(G))
    throw InvalidArgument(*Why);
  MessageChain C;
  collectRuns(
      G.Messages, true, [](const Message &M) { return M.Src; }, C.Runs);
  collectRuns(
      G.Messages, false, [](const Message &M) { return M.Dst; }, C.Runs);
  std::sort(C.Runs.begin(), C.Runs.end(),
            [](const MessageRun &A, const MessageRun &B) {
              return A.First < B.First;
            });
  C.MaxDegree = G.Messages.empty() ? 0 : 1;
  for (const MessageRun &R : C.Runs)
    C.MaxDegree = std::max(C.MaxDegree, R.size());
  return C;
}

} // namespace detail
} // namespace redist
