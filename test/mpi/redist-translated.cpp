//===- redist-translated.cpp - Plans that follow translated tables --------===//
//
// What redistc's static code hands the runtime (redist/runtime/Translated.h):
// a schedule and each message's run series, as constant tables. The tables
// are built here the way redistc builds them, with lib, and translatedPlan
// must follow them: the plan's steps are the tables' steps (or, for an
// overlapped schedule, their events, in the Overlapped mode), every element
// arrives where the target distribution puts it, the plan is built once per
// communicator, directiveOptions() reaches it, and tables that do not
// describe the distributions raise InvalidArgument naming the directive on
// every rank instead of moving data wrongly.
//
//===----------------------------------------------------------------------===//
#include "CheckRedistribution.h"
#include "redist/OverlapSchedulers.h"
#include "redist/runtime/Translated.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace redist;
using D = Distribution;

namespace {

int Rank = 0, Size = 0;
int64_t TotalErrors = 0;

void runCase(const char *Name, const std::function<int64_t()> &Body) {
  const int64_t Errors = test::sumOverRanks(Body());
  TotalErrors += Errors;
  if (Rank == 0)
    std::printf("case %s: %s\n", Name,
                Errors == 0 ? "ok"
                            : (std::to_string(Errors) + " errors").c_str());
}

int64_t expect(bool Cond, const std::string &What) {
  if (Cond)
    return 0;
  std::printf("ERROR rank %d: %s\n", Rank, What.c_str());
  return 1;
}

/// The tables of From -> To, owned here; view() is what redistc emits. A
/// translated plan keeps a pointer to its view, which must live as long:
/// keep() holds both for the whole program, as static storage would.
struct Tables {
  std::string Where, Algorithm;
  std::vector<int64_t> FromSizes, ToSizes;
  DistributionConstant From{}, To{};
  int64_t N = 0, Steps = 0;
  std::vector<TranslatedMessage> Messages;
  std::vector<RunSeries> Series;
  std::vector<TranslatedEvent> Events;

  TranslatedSchedule view() const {
    return TranslatedSchedule{Where.c_str(),
                              Algorithm.c_str(),
                              From,
                              To,
                              N,
                              Steps,
                              static_cast<int64_t>(Messages.size()),
                              Messages.data(),
                              Series.data(),
                              static_cast<int64_t>(Events.size()),
                              Events.empty() ? nullptr : Events.data()};
  }
};

DistributionConstant constantOf(const Distribution &Dist,
                                std::vector<int64_t> &Sizes) {
  Sizes = Dist.sizes();
  return DistributionConstant{Dist.kind(), Dist.procs(), Dist.param(),
                              Sizes.empty() ? nullptr : Sizes.data()};
}

std::deque<Tables> AllTables;
std::deque<TranslatedSchedule> AllViews;
const TranslatedSchedule &keep(const Tables &T) {
  AllTables.push_back(T);
  AllViews.push_back(AllTables.back().view());
  return AllViews.back();
}

/// The tables of From -> To with A's steps, or with Overlap's events (and
/// every message in one step, row I being the grid's message I), as redistc
/// writes them.
Tables makeTables(const Distribution &From, const Distribution &To, int64_t N,
                  Algorithm A, const std::string &Where,
                  std::optional<OverlapAlgorithm> Overlap = std::nullopt) {
  Tables T;
  T.Where = Where;
  T.N = N;
  T.From = constantOf(From, T.FromSizes);
  T.To = constantOf(To, T.ToSizes);
  const Layout Src(From, N), Dst(To, N);
  const CommGrid Grid = computeGrid(Src, Dst);
  Schedule S;
  if (Overlap) {
    const OverlapSchedule O = makeOverlapSchedule(*Overlap, Grid);
    S.Algorithm = O.Algorithm;
    S.Steps.emplace_back();
    for (std::size_t Id = 0; Id < Grid.Messages.size(); ++Id)
      S.Steps.front().push_back(static_cast<int64_t>(Id));
    for (const OverlapEvent &E : O.Events)
      T.Events.push_back({E.Msg, E.Start, E.Len});
  } else {
    S = makeSchedule(A, Src, Dst, Grid);
  }
  T.Algorithm = S.Algorithm;
  T.Steps = static_cast<int64_t>(S.Steps.size());
  for (int64_t Step = 0; Step < T.Steps; ++Step)
    for (int64_t Id : S.Steps[static_cast<std::size_t>(Step)]) {
      const Message &M = Grid.Messages[static_cast<std::size_t>(Id)];
      const MessagePattern P = describeMessage(Src, Dst, M.Src, M.Dst);
      TranslatedMessage Row{Step,
                            M.Src,
                            M.Dst,
                            P.length(),
                            static_cast<int64_t>(T.Series.size()),
                            0,
                            P.Repeat,
                            P.SrcStride,
                            P.DstStride,
                            0};
      const std::vector<RunSeries> Slice = compressRuns(P.SliceRuns),
                                   Tail = compressRuns(P.TailRuns);
      Row.SliceSeries = static_cast<int64_t>(Slice.size());
      Row.TailSeries = static_cast<int64_t>(Tail.size());
      T.Series.insert(T.Series.end(), Slice.begin(), Slice.end());
      T.Series.insert(T.Series.end(), Tail.begin(), Tail.end());
      T.Messages.push_back(Row);
    }
  return T;
}

/// Whether Build() throws InvalidArgument whose text starts with Prefix and
/// contains Part; errors on this rank otherwise.
int64_t expectThrows(const std::function<void()> &Build,
                     const std::string &Prefix, const std::string &Part,
                     const std::string &Name) {
  try {
    Build();
  } catch (const InvalidArgument &E) {
    const std::string What = E.what();
    return expect(What.rfind(Prefix, 0) == 0 &&
                      What.find(Part) != std::string::npos,
                  Name + ": unexpected message: " + What);
  }
  return expect(false, Name + ": no exception");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  test::requireCommSize(4);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);

  runCase("plans follow the tables", [] {
    struct Config {
      Distribution From, To;
      int64_t N;
      Algorithm A;
    };
    const std::vector<Config> Configs = {
        {D::cyclic(4, 3), D::cyclic(4, 5), 60 * 1000 + 7, Algorithm::Stepwise},
        {D::cyclic(4, 3), D::cyclic(4, 5), 60 * 1000 + 7, Algorithm::Greedy},
        {D::cyclic(4, 1), D::block(4), 4096, Algorithm::Caterpillar},
        {D::block(4), D::cyclic(3, 2), 1001, Algorithm::Auto},
        {D::genBlock({10, 0, 500, 490}), D::cyclic(4, 7), 1000,
         Algorithm::Auto},
        {D::cyclic(2, 5), D::cyclic(4, 2), 0, Algorithm::Auto},
    };
    int64_t Errors = 0;
    int Index = 0;
    for (const Config &C : Configs) {
      const std::string Name = "config " + std::to_string(Index++);
      const Tables T =
          makeTables(C.From, C.To, C.N, C.A, "t.cpp:" + std::to_string(Index));
      const TranslatedSchedule &S = keep(T);
      const Plan &Pl = translatedPlan(S, 8, MPI_COMM_WORLD);
      Errors += test::runAndCheck(Pl, Name, 2);
      // The plan's steps are the tables'.
      const Schedule &Followed = Pl.schedule();
      Errors +=
          expect(Followed.Algorithm == T.Algorithm &&
                     static_cast<int64_t>(Followed.Steps.size()) == T.Steps,
                 Name + ": the plan does not follow the tables' " +
                     std::to_string(T.Steps) + " steps");
      const CommGrid Grid = computeGrid(Pl.source(), Pl.target());
      for (const TranslatedMessage &M : T.Messages) {
        const auto &Step = Followed.Steps[static_cast<std::size_t>(M.Step)];
        const bool There =
            std::any_of(Step.begin(), Step.end(), [&](int64_t Id) {
              const Message &G = Grid.Messages[static_cast<std::size_t>(Id)];
              return G.Src == M.Src && G.Dst == M.Dst;
            });
        Errors +=
            expect(There, Name + ": message " + std::to_string(M.Src) + " -> " +
                              std::to_string(M.Dst) + " left its step");
      }
      Errors += expect(&translatedPlan(S, 8, MPI_COMM_WORLD) == &Pl,
                       Name + ": the plan was built twice");
    }
    return Errors;
  });

  runCase("directive options reach the plan", [] {
    const Tables T = makeTables(D::cyclic(4, 3), D::cyclic(4, 5), 6000,
                                Algorithm::Stepwise, "t.cpp:20");
    const TranslatedSchedule &S = keep(T);
    int64_t Errors = 0;
    for (int PerNode : {1, 2}) {
      directiveOptions().RanksPerNode = PerNode;
      const Plan &Pl = translatedPlan(S, 8, MPI_COMM_WORLD);
      Errors += test::runAndCheck(Pl, "ranks per node", 1);
      // Each rank sends to and receives from the 3 others: one of them on
      // its node when nodes have 2 ranks.
      const int64_t Want = PerNode == 1 ? 0 : 2;
      Errors +=
          expect(Pl.sharedMessages() == Want,
                 std::to_string(PerNode) +
                     " per node: " + std::to_string(Pl.sharedMessages()) +
                     " shared messages, expected " + std::to_string(Want));
    }
    directiveOptions() = PlanOptions();
    return Errors;
  });

  runCase("overlapped tables run in the overlapped mode", [] {
    struct Config {
      Distribution From, To;
      int64_t N;
      OverlapAlgorithm A;
    };
    // 4,3 -> 4,5 needs no split; 4,2 -> 3,3 at N = 37 has an incomplete
    // slice.
    const std::vector<Config> Configs = {
        {D::cyclic(4, 3), D::cyclic(4, 5), 6007, OverlapAlgorithm::Overlap},
        {D::cyclic(4, 3), D::cyclic(4, 5), 6007,
         OverlapAlgorithm::OverlapSplit},
        {D::cyclic(4, 2), D::cyclic(3, 3), 37, OverlapAlgorithm::OverlapSplit},
        {D::genBlock({10, 0, 500, 490}), D::cyclic(4, 7), 1000,
         OverlapAlgorithm::Overlap},
    };
    int64_t Errors = 0;
    int Index = 0;
    for (const Config &C : Configs) {
      const std::string Name = "overlapped config " + std::to_string(Index++);
      const Tables T = makeTables(C.From, C.To, C.N, Algorithm::Auto,
                                  "o.cpp:" + std::to_string(Index), C.A);
      const Plan &Pl = translatedPlan(keep(T), 8, MPI_COMM_WORLD);
      Errors +=
          expect(Pl.options().Mode == ExecMode::Overlapped &&
                     Pl.overlapSchedule().Events.size() == T.Events.size(),
                 Name + ": the plan does not follow the tables' events");
      Errors += test::runAndCheck(Pl, Name, 2);
    }
    // Every message of two elements or more split in two back-to-back
    // events: each moves as two parts, the second from the middle of the
    // message's runs.
    Tables Split =
        makeTables(D::cyclic(4, 3), D::cyclic(3, 5), 6007, Algorithm::Auto,
                   "split.cpp:1", OverlapAlgorithm::Overlap);
    std::vector<TranslatedEvent> Halves;
    for (const TranslatedEvent &E : Split.Events) {
      const int64_t Half = E.Len / 2;
      if (Half > 0)
        Halves.push_back({E.Msg, E.Start, Half});
      Halves.push_back({E.Msg, E.Start + Half, E.Len - Half});
    }
    std::stable_sort(Halves.begin(), Halves.end(),
                     [](const TranslatedEvent &A, const TranslatedEvent &B) {
                       return A.Start < B.Start;
                     });
    Split.Events = Halves;
    const Plan &Pl = translatedPlan(keep(Split), 8, MPI_COMM_WORLD);
    Errors += test::runAndCheck(Pl, "split events", 2);
    return Errors;
  });

  runCase("tables that do not fit raise on every rank", [] {
    const Tables Good = makeTables(D::cyclic(4, 3), D::cyclic(4, 5), 600,
                                   Algorithm::Stepwise, "bad.cpp:7");
    int64_t Errors = 0;
    auto Check = [&](Tables T, const std::string &Part,
                     const std::string &Name) {
      const TranslatedSchedule &S = keep(T);
      Errors += expectThrows([&] { translatedPlan(S, 8, MPI_COMM_WORLD); },
                             "bad.cpp:7: ", Part, Name);
    };
    Tables Short = Good;
    Short.Messages[3].Elements += 1;
    Check(Short, "do not add up", "a wrong length");
    Tables Twice = Good;
    Twice.Messages[1].Step = Twice.Messages[0].Step;
    Twice.Messages[1].Src = Twice.Messages[0].Src;
    Check(Twice, "process", "a process twice in a step");
    Tables Late = Good;
    Late.Messages.back().Step = Late.Steps;
    Check(Late, "step", "a step out of range");
    Tables Other = Good;
    Other.To.Param = 6; // tables of cyclic(5) for cyclic(6)
    Check(Other, "translate the file again", "another distribution");
    // Invalid parameters name the directive too.
    Tables Zero = Good;
    Zero.From.Param = 0;
    Check(Zero, "block size", "cyclic(0)");
    const Tables GoodEvents =
        makeTables(D::cyclic(4, 3), D::cyclic(4, 5), 600, Algorithm::Auto,
                   "bad.cpp:7", OverlapAlgorithm::Overlap);
    Tables Clash = GoodEvents;
    for (TranslatedEvent &E : Clash.Events)
      E.Start = 0; // every port used by several events at once
    Check(Clash, "not a valid overlapped schedule", "events at once");
    Tables Stray = GoodEvents;
    Stray.Events.back().Msg = static_cast<int64_t>(Stray.Messages.size());
    Check(Stray, "names message", "an event of no message");
    return Errors;
  });

  if (Rank == 0)
    std::printf("redist-translated: %lld errors\n",
                static_cast<long long>(TotalErrors));
  MPI_Finalize();
  return TotalErrors == 0 ? 0 : 1;
}
