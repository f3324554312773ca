//===- ChainScheduler.cpp - Optimal-step GEN_BLOCK schedules, cheaper -----===//
//
// The cost of a k-step schedule is T[0] + ... + T[k-1], its step costs sorted
// non-increasingly. We search over such threshold vectors T instead of over
// schedules: given T, a message of length w may go to the steps whose
// threshold is at least w, a prefix 0..a(w)-1 of the steps. Whether every
// message can get a step that way (no process twice in a step) is decided
// exactly, in O(messages log k), by a dynamic programme along the chain of
// runs (MessageChain.h):
//  - a run is a clique: its messages take distinct steps;
//  - consecutive runs share one message, so the state carried from a run to
//    the next is the set of steps the shared message can take;
//  - inside a run, the middle messages have nested step sets, so Hall's
//    condition reduces to two numbers X1 <= X2: the two steps taken by the
//    run's end messages must be >= X1 and one of them >= X2.
// Lowering any threshold only removes choices, so feasibility is monotone.
// The search fixes T[1], T[2], ... in turn (T[0] is the longest message),
// trying for each the values from the smallest feasible one upwards, and
// prunes with the bound T[i] >= L[i], L[i] the largest i-th longest message
// of one process. It starts from scpa's cost, so it never returns more.
// When it finishes within its budget its answer is optimal.
//
//===----------------------------------------------------------------------===//

#include "GenBlockSchedulers.h"
#include "MessageChain.h"

#include <algorithm>
#include <functional>

namespace redist {
namespace detail {

namespace {

/// A set of steps of the form [Lo, Hi) minus at most one step, Hole (-1 if
/// none). Every set the dynamic programme carries has this form, so a
/// transfer costs O(1) whatever the number of steps.
struct StepSet {
  int64_t Lo = 0, Hi = 0, Hole = -1;

  bool contains(int64_t C) const { return C >= Lo && C < Hi && C != Hole; }
  /// Number of members >= X.
  int64_t countFrom(int64_t X) const {
    int64_t From = std::max(Lo, X);
    if (From >= Hi)
      return 0;
    return Hi - From - (Hole >= From && Hole < Hi);
  }
  /// The largest member other than Not, or -1.
  int64_t highestExcept(int64_t Not) const {
    for (int64_t C = Hi - 1; C >= Lo && C >= Hi - 3; --C)
      if (C != Hole && C != Not)
        return C;
    return -1;
  }
  /// The steps [Lo, Hi) minus Hole, normalised; false when empty.
  static bool make(int64_t Lo, int64_t Hi, int64_t Hole, StepSet &Out) {
    Out.Lo = Lo;
    Out.Hi = Hi;
    Out.Hole = Hole >= Lo && Hole < Hi ? Hole : -1;
    return Out.countFrom(Lo) > 0;
  }
};

/// Decides whether thresholds can be met, and builds the schedule if so.
class ThresholdOracle {
public:
  ThresholdOracle(const CommGrid &G, const MessageChain &Chain)
      : G(G), Runs(Chain.Runs), Allowed(G.Messages.size()), In(Runs.size()) {
    SharedWithNext.resize(Runs.size());
    for (size_t R = 0; R < Runs.size(); ++R)
      SharedWithNext[R] =
          R + 1 < Runs.size() && Runs[R].Last == Runs[R + 1].First;
  }

  int64_t tests() const { return Tests; }

  /// Whether every message can take a step whose threshold T[k] (non-
  /// increasing) is at least its length.
  bool feasible(const std::vector<int64_t> &T) {
    ++Tests;
    return runForward(T);
  }

  /// The step of each message under T; T must be feasible. Not counted as
  /// a test.
  std::vector<int64_t> colour(const std::vector<int64_t> &T) {
    bool Ok = runForward(T);
    (void)Ok;
    return walkBack();
  }

private:
  // The forward pass: In[R] for every run. False when T cannot be met.
  bool runForward(const std::vector<int64_t> &T) {
    computeAllowed(T);
    StepSet Out;
    for (size_t R = 0; R < Runs.size(); ++R) {
      bool SharedFirst = R > 0 && SharedWithNext[R - 1];
      if (!SharedFirst)
        In[R] = StepSet{0, Allowed[Runs[R].First], -1};
      if (!transfer(R, SharedWithNext[R] ? In[R + 1] : Out))
        return false;
    }
    return true;
  }

  // After a successful forward pass, the step of each message.
  std::vector<int64_t> walkBack() {
    std::vector<int64_t> StepOf(G.Messages.size(), -1);
    // The end messages of the runs, walking back from each component's end;
    // each takes the highest (cheapest) step that still works.
    int64_t After = -1; // Step of the current run's last message.
    for (int64_t R = static_cast<int64_t>(Runs.size()) - 1; R >= 0; --R) {
      const MessageRun &Run = Runs[R];
      if (!SharedWithNext[R]) {
        StepSet Out;
        transfer(R, Out);
        After = Out.highestExcept(-1);
      }
      StepOf[Run.Last] = After;
      // The conditions only get easier for a higher step, so the highest
      // member of In[R] other than After is the one to try.
      int64_t Before = In[R].highestExcept(After);
      StepOf[Run.First] = Before;
      assignMiddle(Run, Before, After, StepOf);
      After = Before;
    }
    // Messages in no run conflict with nothing: the cheapest step that
    // admits them.
    for (size_t I = 0; I < StepOf.size(); ++I)
      if (StepOf[I] < 0)
        StepOf[I] = Allowed[I] - 1;
    return StepOf;
  }

  void computeAllowed(const std::vector<int64_t> &T) {
    for (size_t I = 0; I < G.Messages.size(); ++I) {
      int64_t Len = G.Messages[I].Len;
      // T is non-increasing: count the thresholds >= Len.
      Allowed[I] = std::partition_point(T.begin(), T.end(),
                                        [&](int64_t V) { return V >= Len; }) -
                   T.begin();
    }
  }

  // Hall's condition for the middle messages of run R, which may not use
  // the steps lo < hi of the end messages: for each middle step count b,
  // [lo < b] + [hi < b] <= b - #(middle messages allowed at most b steps).
  // So lo >= X1 and hi >= X2. False if no choice of lo, hi works.
  bool middleBounds(int64_t R, int64_t &X1, int64_t &X2) {
    const MessageRun &Run = Runs[R];
    Middle.clear();
    for (int64_t I = Run.First + 1; I < Run.Last; ++I)
      Middle.push_back(Allowed[I]);
    std::sort(Middle.begin(), Middle.end());
    X1 = X2 = 0;
    int64_t M = static_cast<int64_t>(Middle.size());
    for (int64_t I = 0; I < M; ++I) {
      if (I + 1 < M && Middle[I + 1] == Middle[I])
        continue;
      int64_t Slack = Middle[I] - (I + 1);
      if (Slack < 0)
        return false;
      if (Slack < 1)
        X1 = std::max(X1, Middle[I]);
      if (Slack < 2)
        X2 = std::max(X2, Middle[I]);
    }
    return true;
  }

  // From the steps In[R] of run R's first message, the steps C its last
  // message can take: C < a (its allowed count), C >= X1, and a step F of
  // the first message with F != C, F >= X1, and max(F, C) >= X2. False when
  // there is none.
  bool transfer(int64_t R, StepSet &Next) {
    int64_t X1, X2;
    if (!middleBounds(R, X1, X2))
      return false;
    int64_t A = Allowed[Runs[R].Last];
    int64_t FromX1 = In[R].countFrom(X1);
    if (FromX1 == 0)
      return false;
    bool HighFirst = In[R].countFrom(X2) > 0;
    // C below X2 needs a first step >= X2; C >= X2 needs any other first
    // step >= X1, which fails only for C equal to the only one.
    int64_t Only = FromX1 == 1 ? In[R].highestExcept(-1) : -1;
    return StepSet::make(HighFirst ? X1 : X2, A, Only, Next);
  }

  // Middle messages in order of fewest allowed steps, each taking the lowest
  // step not yet used in the run: succeeds under Hall's condition.
  void assignMiddle(const MessageRun &Run, int64_t First, int64_t Last,
                    std::vector<int64_t> &StepOf) {
    Ids.clear();
    for (int64_t I = Run.First + 1; I < Run.Last; ++I)
      Ids.push_back(I);
    std::stable_sort(Ids.begin(), Ids.end(), [&](int64_t X, int64_t Y) {
      return Allowed[X] < Allowed[Y];
    });
    int64_t Next = 0;
    for (int64_t Id : Ids) {
      while (Next == First || Next == Last)
        ++Next;
      StepOf[Id] = Next++;
    }
  }

  const CommGrid &G;
  const std::vector<MessageRun> &Runs;
  std::vector<char> SharedWithNext;
  std::vector<int64_t> Allowed;     // per message: steps 0..Allowed-1
  std::vector<StepSet> In;          // per run: steps of its first message
  std::vector<int64_t> Middle, Ids; // scratch
  int64_t Tests = 0;
};

int64_t scheduleCost(const CommGrid &G, const Schedule &S) {
  int64_t Cost = 0;
  for (const std::vector<int64_t> &Step : S.Steps) {
    int64_t Max = 0;
    for (int64_t Id : Step)
      Max = std::max(Max, G.Messages[Id].Len);
    Cost += Max;
  }
  return Cost;
}

/// L[i]: the largest i-th longest message of one process (i = 0..K-1).
std::vector<int64_t> degreeBounds(const CommGrid &G,
                                  const MessageChain &Chain) {
  int64_t K = Chain.MaxDegree;
  std::vector<int64_t> L(K, 0);
  for (const Message &M : G.Messages)
    L[0] = std::max(L[0], M.Len);
  std::vector<int64_t> Lens;
  for (const MessageRun &Run : Chain.Runs) {
    Lens.clear();
    for (int64_t I = Run.First; I <= Run.Last; ++I)
      Lens.push_back(G.Messages[I].Len);
    std::sort(Lens.rbegin(), Lens.rend());
    for (size_t I = 0; I < Lens.size(); ++I)
      L[I] = std::max(L[I], Lens[I]);
  }
  return L;
}

} // namespace

Schedule scheduleChain(const CommGrid &G, ChainReport *Report,
                       int64_t TestBudget) {
  MessageChain Chain = analyseChain(G);
  ChainReport Local;
  ChainReport &Rep = Report ? *Report : Local;
  Rep = ChainReport();

  Schedule Best = scheduleScpa(G);
  Best.Algorithm = "chain";
  int64_t BestCost = scheduleCost(G, Best);
  Rep.ScpaCost = BestCost;
  const int64_t K = Chain.MaxDegree;
  const std::vector<int64_t> L = degreeBounds(G, Chain);
  for (int64_t V : L)
    Rep.LowerBound += V;
  if (K <= 1 || BestCost == Rep.LowerBound) {
    Rep.Cost = BestCost;
    Rep.ProvedOptimal = true;
    return Best;
  }

  std::vector<int64_t> Lengths;
  for (const Message &M : G.Messages)
    Lengths.push_back(M.Len);
  std::sort(Lengths.begin(), Lengths.end());
  Lengths.erase(std::unique(Lengths.begin(), Lengths.end()), Lengths.end());
  auto IndexOf = [&](int64_t V) {
    return std::lower_bound(Lengths.begin(), Lengths.end(), V) -
           Lengths.begin();
  };
  // TailBound[j] = L[j] + ... + L[K-1].
  std::vector<int64_t> TailBound(K + 1, 0);
  for (int64_t J = K - 1; J >= 0; --J)
    TailBound[J] = TailBound[J + 1] + L[J];

  ThresholdOracle Oracle(G, Chain);
  std::vector<int64_t> T(K, L[0]);
  bool OutOfBudget = false;

  auto Record = [&](int64_t Cost) {
    if (Cost >= BestCost)
      return;
    std::vector<int64_t> StepOf = Oracle.colour(T);
    Schedule S;
    S.Algorithm = "chain";
    S.Steps.assign(K, {});
    for (size_t I = 0; I < StepOf.size(); ++I)
      S.Steps[StepOf[I]].push_back(static_cast<int64_t>(I));
    int64_t Actual = scheduleCost(G, S);
    if (Actual < BestCost) {
      Best = std::move(S);
      BestCost = Actual;
    }
  };
  auto Feasible = [&]() {
    if (Oracle.tests() >= TestBudget) {
      OutOfBudget = true;
      return false;
    }
    return Oracle.feasible(T);
  };
  // Sets T[J..K-1] = V.
  auto FillFrom = [&](int64_t J, int64_t V) {
    std::fill(T.begin() + J, T.end(), V);
  };

  // Fixes T[J..K-1] given T[0..J-1] (sum Sum), knowing T[J..] = T[J-1] is
  // feasible. Returns true when it reached the bound Sum + TailBound[J].
  std::function<bool(int64_t, int64_t)> Search = [&](int64_t J,
                                                     int64_t Sum) -> bool {
    if (Sum + TailBound[J] >= BestCost || OutOfBudget)
      return false;
    std::copy(L.begin() + J, L.end(), T.begin() + J);
    if (Feasible()) {
      Record(Sum + TailBound[J]);
      return true;
    }
    if (OutOfBudget)
      return false;
    // Smallest feasible T[J] with T[J+1..] = T[J]: binary search.
    int64_t Lo = IndexOf(L[J]), Hi = IndexOf(T[J - 1]);
    while (Lo < Hi) {
      int64_t Mid = (Lo + Hi) / 2;
      FillFrom(J, Lengths[Mid]);
      if (Feasible())
        Hi = Mid;
      else if (OutOfBudget)
        return false;
      else
        Lo = Mid + 1;
    }
    if (J == K - 1) {
      T[J] = Lengths[Lo];
      Record(Sum + Lengths[Lo]);
      return false;
    }
    for (int64_t Idx = Lo;
         Idx < static_cast<int64_t>(Lengths.size()) && Lengths[Idx] <= T[J - 1];
         ++Idx) {
      int64_t V = Lengths[Idx];
      if (Sum + V + TailBound[J + 1] >= BestCost || OutOfBudget)
        break;
      FillFrom(J, V);
      if (Search(J + 1, Sum + V))
        break;
    }
    return false;
  };
  Search(1, L[0]);

  Rep.FeasibilityTests = Oracle.tests();
  Rep.Cost = BestCost;
  Rep.ProvedOptimal = !OutOfBudget || BestCost == Rep.LowerBound;
  return Best;
}

} // namespace detail
} // namespace redist
