//===- StaticTables.cpp - Schedules computed at translation time ----------===//

#include "StaticTables.h"

#include "redist/Error.h"
#include "redist/MessagePattern.h"
#include "redist/OverlapSchedule.h"

#include <algorithm>
#include <string>

namespace redistc {

namespace {

StaticPlan planChecked(const redist::Layout &From, const redist::Layout &To,
                       const StaticAlgorithm &Algorithm, int64_t ElementBytes,
                       const StaticLimits &Limits,
                       const redist::CostModel &Costs) {
  StaticPlan Out;
  const int64_t Limit = Limits.MaxRows;
  auto tooLarge = [&](const std::string &What) {
    Out.Fallback = "the tables of " + What +
                   " exceed the static table limit of " +
                   std::to_string(Limit) + " rows";
    return Out;
  };
  // Each row of the grid costs time in the number of processes: refuse
  // more processes than rows first.
  const int64_t Ranks = std::max(From.procs(), To.procs());
  if (Ranks > Limit)
    return tooLarge(std::to_string(Ranks) + " processes");
  // Count the messages row by row, without building a grid that may be huge
  // (an all-to-all on 4096 x 4096 processes).
  int64_t MessageCount = 0;
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    MessageCount +=
        static_cast<int64_t>(redist::computeRow(From, To, Src).size());
    if (MessageCount > Limit)
      return tooLarge(std::to_string(MessageCount) + " or more messages");
  }

  std::string Why;
  if (!Algorithm.Overlap &&
      !redist::algorithmApplies(Algorithm.Steps, From, To, &Why)) {
    Out.Error = Why;
    return Out;
  }
  redist::CommGrid Grid = redist::computeGrid(From, To);
  redist::CostModel Model = Costs;
  Model.ElementBytes = static_cast<double>(ElementBytes);
  redist::Schedule Sched;
  std::optional<redist::OverlapSchedule> Overlapped;
  try {
    if (Algorithm.Overlap) {
      redist::OverlapOptions Search;
      Search.Effort = Algorithm.OverlapEffort;
      if (!Algorithm.Search)
        Search.MatchingWork = Search.DeadlineWork = Search.DeadlineRounds =
            Search.ListSearchWork = Search.ExactNodes = Search.SearchWork = 0;
      Overlapped =
          redist::makeOverlapSchedule(*Algorithm.Overlap, Grid, Search);
      // The events order the messages: the tables hold them in one step.
      Sched.Algorithm = Overlapped->Algorithm;
      Sched.Steps.emplace_back();
      for (size_t Id = 0; Id < Grid.Messages.size(); ++Id)
        Sched.Steps.front().push_back(static_cast<int64_t>(Id));
    } else {
      Sched = redist::makeSchedule(Algorithm.Steps, From, To, Grid, Model);
    }
  } catch (const redist::InvalidArgument &E) {
    Out.Error = E.what();
    return Out;
  }
  std::optional<std::string> Problem =
      Overlapped ? redist::validateOverlapSchedule(Grid, *Overlapped)
                 : redist::validateSchedule(Grid, Sched);
  if (Problem) {
    Out.Error =
        "the schedule library produced an invalid schedule: " + *Problem;
    return Out;
  }

  StaticTables T;
  T.Algorithm = Sched.Algorithm;
  T.Stats = redist::measureSchedule(Grid, Sched);
  T.Steps = static_cast<int64_t>(Sched.Steps.size());
  for (int64_t Step = 0; Step < T.Steps; ++Step) {
    std::vector<int64_t> Ids = Sched.Steps[static_cast<size_t>(Step)];
    std::sort(Ids.begin(), Ids.end()); // the grid's order: by source
    for (int64_t Id : Ids) {
      const redist::Message &M = Grid.Messages[static_cast<size_t>(Id)];
      const redist::MessagePattern P =
          redist::describeMessage(From, To, M.Src, M.Dst);
      TableMessage Row;
      Row.Step = Step;
      Row.Src = M.Src;
      Row.Dst = M.Dst;
      Row.Elements = P.length();
      if (Row.Elements != M.Len) {
        Out.Error = "the schedule library describes message " +
                    std::to_string(M.Src) + " -> " + std::to_string(M.Dst) +
                    " with " + std::to_string(Row.Elements) +
                    " elements, not " + std::to_string(M.Len);
        return Out;
      }
      Row.Repeat = P.Repeat;
      Row.SrcStride = P.SrcStride;
      Row.DstStride = P.DstStride;
      Row.First = static_cast<int64_t>(T.Series.size());
      for (const std::vector<redist::Run> *Runs : {&P.SliceRuns, &P.TailRuns}) {
        std::vector<redist::RunSeries> S = redist::compressRuns(*Runs);
        (Runs == &P.SliceRuns ? Row.SliceSeries : Row.TailSeries) =
            static_cast<int64_t>(S.size());
        T.Series.insert(T.Series.end(), S.begin(), S.end());
      }
      T.Messages.push_back(Row);
    }
  }
  if (Overlapped) {
    // Its one step lists the grid's messages in order: row Id is message Id.
    T.Overlap = redist::measureOverlapSchedule(Grid, *Overlapped);
    for (const redist::OverlapEvent &E : Overlapped->Events)
      T.Events.push_back({E.Msg, E.Start, E.Len});
  }
  if (T.rows() > Limit)
    return tooLarge(std::to_string(MessageCount) + " messages and " +
                    std::to_string(T.Series.size()) + " run series");
  Out.Tables = std::move(T);
  return Out;
}

/// The tables of Sched over G, a grid of processes: its messages, step by
/// step, each step in the grid's order (by source).
StaticTables processTables(const redist::CommGrid &G,
                           const redist::Schedule &Sched) {
  StaticTables T;
  T.Algorithm = Sched.Algorithm;
  T.Stats = redist::measureSchedule(G, Sched);
  T.Steps = static_cast<int64_t>(Sched.Steps.size());
  for (int64_t Step = 0; Step < T.Steps; ++Step) {
    std::vector<int64_t> Ids = Sched.Steps[static_cast<size_t>(Step)];
    std::sort(Ids.begin(), Ids.end());
    for (int64_t Id : Ids) {
      const redist::Message &M = G.Messages[static_cast<size_t>(Id)];
      TableMessage Row;
      Row.Step = Step;
      Row.Src = M.Src;
      Row.Dst = M.Dst;
      Row.Elements = M.Len;
      T.Messages.push_back(Row);
    }
  }
  return T;
}

StaticPlan planArrayChecked(const redist::ArrayLayout &From,
                            const redist::ArrayLayout &To,
                            const redist::ArrayRegion &Region,
                            redist::ArrayAlgorithm Algorithm,
                            int64_t ElementBytes, const StaticLimits &Limits,
                            const redist::CostModel &Costs) {
  StaticPlan Out;
  const int64_t Limit = Limits.MaxRows;
  auto tooLarge = [&](const std::string &What) {
    Out.Fallback = "the table of " + What +
                   " exceeds the static table limit of " +
                   std::to_string(Limit) + " rows";
    return Out;
  };
  const int64_t Procs = std::max(From.procs(), To.procs());
  if (Procs > Limit)
    return tooLarge(std::to_string(Procs) + " processes");
  const redist::ArrayRegion R = redist::resolveRegion(From, To, Region);
  std::string Why;
  if (!redist::arrayAlgorithmApplies(Algorithm, From, To, R, &Why)) {
    Out.Error = Why;
    return Out;
  }
  const redist::ArrayGrid Grid = redist::computeArrayGrid(From, To, Region);
  if (static_cast<int64_t>(Grid.Whole.Messages.size()) > Limit)
    return tooLarge(std::to_string(Grid.Whole.Messages.size()) + " messages");
  redist::CostModel Model = Costs;
  Model.ElementBytes = static_cast<double>(ElementBytes);
  // makeArraySchedule validates what it makes.
  const redist::Schedule Sched =
      redist::makeArraySchedule(Algorithm, From, To, R, Grid, Model);
  Out.Tables = processTables(Grid.Whole, Sched);
  return Out;
}

} // namespace

StaticPlan planStatically(const redist::Layout &From, const redist::Layout &To,
                          const StaticAlgorithm &Algorithm,
                          int64_t ElementBytes, const StaticLimits &Limits,
                          const redist::CostModel &Model) {
  // The library refuses layouts it cannot describe (redist/Limits.h) from
  // any of the calls above, before allocating.
  try {
    return planChecked(From, To, Algorithm, ElementBytes, Limits, Model);
  } catch (const redist::InvalidArgument &E) {
    StaticPlan Out;
    Out.Beyond = E.what();
    return Out;
  }
}

StaticPlan planArrayStatically(const redist::ArrayLayout &From,
                               const redist::ArrayLayout &To,
                               const redist::ArrayRegion &Region,
                               redist::ArrayAlgorithm Algorithm,
                               int64_t ElementBytes, const StaticLimits &Limits,
                               const redist::CostModel &Model) {
  try {
    return planArrayChecked(From, To, Region, Algorithm, ElementBytes, Limits,
                            Model);
  } catch (const redist::InvalidArgument &E) {
    StaticPlan Out;
    Out.Beyond = E.what();
    return Out;
  }
}

} // namespace redistc
