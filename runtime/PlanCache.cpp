//===- PlanCache.cpp - Plan once, execute many ----------------------------===//
//
// cachedPlan keeps every plan it builds, keyed by all of its parameters and
// the communicator handle. Handles can be reused by MPI once a communicator
// is freed, so a plan must never outlive its communicator: an attribute on
// each communicator drops its plans when it is freed, and an attribute on
// MPI_COMM_SELF drops them all when MPI_Finalize runs (MPI deletes
// MPI_COMM_SELF's attributes first), while MPI can still free them.
//
//===----------------------------------------------------------------------===//
#include "PlanImpl.h"
#include "redist/runtime/Redistribute.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <unordered_map>

namespace redist {
namespace {

bool sameOptions(const PlanOptions &A, const PlanOptions &B) {
  return A.Schedule == B.Schedule && A.Mode == B.Mode &&
         A.Overlap == B.Overlap && A.OverlapEffort == B.OverlapEffort &&
         A.Pack == B.Pack && A.Verify == B.Verify &&
         A.SharedMemory == B.SharedMemory && A.RanksPerNode == B.RanksPerNode &&
         A.FailRingOnRank == B.FailRingOnRank &&
         A.SingleCopyRunBytes == B.SingleCopyRunBytes &&
         A.MaxTransferBytes == B.MaxTransferBytes && A.Model == B.Model;
}

struct CacheKey {
  Distribution From, To;
  int64_t N;
  std::size_t ElementBytes;
  MPI_Comm Comm;
  PlanOptions Options;
  /// The tables a translated plan follows (static storage), or null.
  const TranslatedSchedule *Given = nullptr;

  bool operator==(const CacheKey &O) const {
    return From == O.From && To == O.To && N == O.N &&
           ElementBytes == O.ElementBytes && Comm == O.Comm &&
           Given == O.Given && sameOptions(Options, O.Options);
  }
};

std::size_t combine(std::size_t H, std::size_t V) {
  return H ^ (V + 0x9e3779b97f4a7c15ull + (H << 6) + (H >> 2));
}

std::size_t hashDistribution(const Distribution &D) {
  std::size_t H = static_cast<std::size_t>(D.kind());
  H = combine(H, static_cast<std::size_t>(D.procs()));
  H = combine(H, static_cast<std::size_t>(D.param()));
  for (int64_t S : D.sizes())
    H = combine(H, static_cast<std::size_t>(S));
  return H;
}

struct CacheKeyHash {
  std::size_t operator()(const CacheKey &K) const {
    std::size_t H = combine(hashDistribution(K.From), hashDistribution(K.To));
    H = combine(H, static_cast<std::size_t>(K.N));
    H = combine(H, K.ElementBytes);
    H = combine(
        H, std::hash<const void *>()(reinterpret_cast<const void *>(K.Comm)));
    H = combine(H, static_cast<std::size_t>(K.Options.Schedule));
    H = combine(H, static_cast<std::size_t>(K.Options.Mode));
    H = combine(H, static_cast<std::size_t>(K.Options.Overlap));
    H = combine(H, static_cast<std::size_t>(K.Options.Pack));
    H = combine(H, std::hash<const void *>()(K.Given));
    return H;
  }
};

using Cache = std::unordered_map<CacheKey, std::unique_ptr<Plan>, CacheKeyHash>;

Cache &cache() {
  static Cache C;
  return C;
}

/// Array directives' plans (TranslatedArray.cpp): few, so a list.
using ArrayCache =
    std::vector<std::pair<detail::ArrayPlanKey, std::unique_ptr<Plan>>>;

ArrayCache &arrayCache() {
  static ArrayCache C;
  return C;
}

int CommKeyval = MPI_KEYVAL_INVALID;
int FinalizeKeyval = MPI_KEYVAL_INVALID;

/// Runs when a communicator carrying our attribute is freed.
int dropPlansOfComm(MPI_Comm Comm, int, void *, void *) {
  Cache &C = cache();
  for (auto It = C.begin(); It != C.end();)
    It = It->first.Comm == Comm ? C.erase(It) : std::next(It);
  ArrayCache &M = arrayCache();
  M.erase(
      std::remove_if(M.begin(), M.end(),
                     [&](const auto &Kept) { return Kept.first.Comm == Comm; }),
      M.end());
  return MPI_SUCCESS;
}

/// Runs when MPI_Finalize deletes MPI_COMM_SELF's attributes.
int dropAllPlans(MPI_Comm, int, void *, void *) {
  cache().clear();
  arrayCache().clear();
  return MPI_SUCCESS;
}

void watchCommunicator(MPI_Comm Comm) {
  if (FinalizeKeyval == MPI_KEYVAL_INVALID) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, dropAllPlans, &FinalizeKeyval,
                           nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, FinalizeKeyval, nullptr);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, dropPlansOfComm, &CommKeyval,
                           nullptr);
  }
  if (Comm == MPI_COMM_SELF)
    return;
  void *Value = nullptr;
  int Found = 0;
  MPI_Comm_get_attr(Comm, CommKeyval, &Value, &Found);
  if (!Found)
    MPI_Comm_set_attr(Comm, CommKeyval, nullptr);
}

/// Whether this rank has built a cached plan on Comm (the attribute stays
/// until Comm is freed, clearPlanCache() or not). Ranks build collectively,
/// so where this rank has not, no rank can find a plan on Comm cached.
bool builtPlansOn(MPI_Comm Comm) {
  if (CommKeyval == MPI_KEYVAL_INVALID || Comm == MPI_COMM_SELF)
    return false;
  void *Value = nullptr;
  int Found = 0;
  MPI_Comm_get_attr(Comm, CommKeyval, &Value, &Found);
  return Found != 0;
}

/// The cached plan of Key, prepared by Prepare() on a miss. Problem, set
/// when the caller's values make no plan, is raised like the parameters'.
/// Where names the caller if abortAlone must end the job.
template <typename PrepareFn>
const Plan &lookUp(const CacheKey &Key, std::optional<std::string> Problem,
                   const char *Where, PrepareFn &&Prepare) {
  Cache &C = cache();
  auto It = Problem ? C.end() : C.find(Key);
  // A cached plan's parameters were checked when it was built.
  detail::PreparedPlan Fresh;
  if (It == C.end() && !Problem) {
    Fresh = Prepare();
    Problem = Fresh.Problem;
  }
  Fresh.Problem = Problem;
  // With Verify, on every call and before the plan is used: ranks given
  // different parameters may find a plan on some ranks and build one
  // (collectively) on others, and a rank with a problem would throw alone;
  // both would hang. After it, the ranks hit or miss together. Without
  // Verify, only a miss agrees, as its build is collective anyway; but a
  // rank with a problem misses while the others may hit and start moving
  // data, unless no plan was built on the communicator yet: it cannot throw
  // alone, so it ends the job.
  const bool Compare = Key.Options.Verify;
  if (!Compare && Problem && Key.Comm != MPI_COMM_NULL &&
      builtPlansOn(Key.Comm))
    detail::abortAlone(Where, *Problem, Key.Comm);
  if (Key.Comm != MPI_COMM_NULL && (Compare || It == C.end()))
    detail::agreeOnParameters(Problem, Compare, Key.From, Key.To, Key.N,
                              Key.ElementBytes, Key.Comm, Key.Options);
  if (It != C.end())
    return *It->second;
  std::unique_ptr<Plan> Built = detail::PlanBuilder::finish(std::move(Fresh));
  watchCommunicator(Key.Comm);
  return *C.emplace(Key, std::move(Built)).first->second;
}

} // namespace

const Plan &detail::cachedPlan(const std::optional<std::string> &Problem,
                               const Distribution &From, const Distribution &To,
                               int64_t N, std::size_t ElementBytes,
                               MPI_Comm Comm, const PlanOptions &Options,
                               const char *Where) {
  return lookUp(CacheKey{From, To, N, ElementBytes, Comm, Options}, Problem,
                Where, [&] {
                  return detail::PlanBuilder::prepare(From, To, N, ElementBytes,
                                                      Comm, Options);
                });
}

const Plan &cachedPlan(const Distribution &From, const Distribution &To,
                       int64_t N, std::size_t ElementBytes, MPI_Comm Comm,
                       const PlanOptions &Options) {
  return detail::cachedPlan(std::nullopt, From, To, N, ElementBytes, Comm,
                            Options);
}

const Plan &translatedPlan(const TranslatedSchedule &S,
                           std::size_t ElementBytes, MPI_Comm Comm,
                           Verification V,
                           const std::optional<std::string> &Problem) {
  const PlanOptions Options = directiveOptions(V);
  try {
    const Distribution From = S.From.value(), To = S.To.value();
    return lookUp(
        CacheKey{From, To, S.N, ElementBytes, Comm, Options, &S}, Problem,
        S.Where, [&] {
          PlanOptions Followed = Options;
          Followed.Schedule =
              parseAlgorithm(S.Algorithm).value_or(Algorithm::Auto);
          // The tables' steps, or their events (which the
          // Overlapped mode then follows), are the order.
          Followed.Overlap = OverlapOrder::Steps;
          if (S.Events) {
            Followed.Mode = ExecMode::Overlapped;
            Followed.Overlap =
                parseOverlapOrder(S.Algorithm).value_or(OverlapOrder::Overlap);
          }
          return detail::PlanBuilder::prepare(From, To, S.N, ElementBytes, Comm,
                                              Followed, &S);
        });
  } catch (const InvalidArgument &E) {
    directiveError(S.Where, E.what());
  }
}

bool detail::ArrayPlanKey::operator==(const ArrayPlanKey &O) const {
  return From == O.From && To == O.To && ElementBytes == O.ElementBytes &&
         Algorithm == O.Algorithm && Given == O.Given && Comm == O.Comm &&
         sameOptions(Options, O.Options);
}

const Plan *detail::findArrayPlan(const ArrayPlanKey &Key) {
  for (const auto &Kept : arrayCache())
    if (Kept.first == Key)
      return Kept.second.get();
  return nullptr;
}

const Plan &detail::keepArrayPlan(ArrayPlanKey Key,
                                  std::unique_ptr<Plan> Built) {
  watchCommunicator(Key.Comm);
  arrayCache().emplace_back(std::move(Key), std::move(Built));
  return *arrayCache().back().second;
}

void clearPlanCache() {
  cache().clear();
  arrayCache().clear();
}

std::size_t planCacheSize() { return cache().size(); }

void checkSourceSize(const Plan &Pl, std::size_t SrcElements) {
  const int64_t Expected = Pl.sourceLocalSize();
  std::string Problem;
  if (static_cast<int64_t>(SrcElements) != Expected)
    Problem = "the source vector holds " +
              directive::elements(static_cast<int64_t>(SrcElements)) +
              ", its distribution gives this rank " + std::to_string(Expected);
  directive::agreeOnSizes(Problem, Pl.communicator(), "redistribute");
}

} // namespace redist
