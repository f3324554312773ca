//===- StaticTables.cpp - Schedules computed at translation time ----------===//

#include "StaticTables.h"

#include "redist/Error.h"

#include <algorithm>
#include <climits>
#include <string>

namespace redistc {

/// Integers in one row of the message table.
constexpr int64_t MessageEntries = 27;

int64_t StaticTables::entries() const {
  return static_cast<int64_t>(FromSize.size() + ToSize.size() + Send.size() +
                              Recv.size()) +
         static_cast<int64_t>(Messages.size()) * MessageEntries +
         static_cast<int64_t>(Pieces.size()) * 2 +
         static_cast<int64_t>(Runs.size()) * 3;
}

namespace {

/// Appends Runs as pieces of one side, merging those contiguous there.
int64_t appendPieces(const std::vector<redist::Run> &Runs, bool SrcSide,
                     std::vector<TablePiece> &Pieces) {
  size_t Begin = Pieces.size();
  for (const redist::Run &R : Runs) {
    int64_t Offset = SrcSide ? R.SrcOffset : R.DstOffset;
    if (Pieces.size() > Begin &&
        Pieces.back().Offset + Pieces.back().Length == Offset)
      Pieces.back().Length += R.Length;
    else
      Pieces.push_back(TablePiece{Offset, R.Length});
  }
  return static_cast<int64_t>(Pieces.size() - Begin);
}

/// One side of a message, as the generated code walks it.
TableSide makeSide(const redist::MessagePattern &P, bool SrcSide,
                   std::vector<TablePiece> &Pieces) {
  TableSide S;
  S.Repeat = P.Repeat;
  S.Stride = SrcSide ? P.SrcStride : P.DstStride;
  S.First = static_cast<int64_t>(Pieces.size());
  S.Count = appendPieces(P.SliceRuns, SrcSide, Pieces);
  // One piece per slice, the slices back to back: a single piece.
  if (S.Count == 1 && S.Repeat > 1 && Pieces.back().Length == S.Stride) {
    Pieces.back().Length *= S.Repeat;
    S.Repeat = 1;
  }
  S.Uniform = S.Count > 0 ? Pieces[static_cast<size_t>(S.First)].Length : 0;
  for (int64_t I = S.First; I < S.First + S.Count; ++I)
    if (Pieces[static_cast<size_t>(I)].Length != S.Uniform)
      S.Uniform = 0;
  S.TailFirst = static_cast<int64_t>(Pieces.size());
  S.TailCount = appendPieces(P.TailRuns, SrcSide, Pieces);
  return S;
}

/// Both sides at once, for a message a rank sends to itself.
TableDirect makeDirect(const redist::MessagePattern &P,
                       std::vector<redist::Run> &Runs) {
  TableDirect D;
  D.Repeat = P.Repeat;
  D.SrcStride = P.SrcStride;
  D.DstStride = P.DstStride;
  D.First = static_cast<int64_t>(Runs.size());
  Runs.insert(Runs.end(), P.SliceRuns.begin(), P.SliceRuns.end());
  D.Count = static_cast<int64_t>(P.SliceRuns.size());
  D.Uniform = D.Count > 0 ? P.SliceRuns.front().Length : 0;
  for (const redist::Run &R : P.SliceRuns)
    if (R.Length != D.Uniform)
      D.Uniform = 0;
  D.TailFirst = static_cast<int64_t>(Runs.size());
  Runs.insert(Runs.end(), P.TailRuns.begin(), P.TailRuns.end());
  D.TailCount = static_cast<int64_t>(P.TailRuns.size());
  return D;
}

/// Whether MPI should move this side with a derived datatype: the rule of the
/// runtime's Packing::Auto, on the same merged runs.
bool wantsDatatype(const TableSide &S, int64_t Length, int64_t ElementBytes) {
  return redist::preferDatatype(Length, ElementBytes,
                                S.Count * S.Repeat + S.TailCount);
}

} // namespace

StaticPlan planStatically(const redist::Layout &From, const redist::Layout &To,
                          redist::Algorithm Algorithm, int64_t ElementBytes,
                          const StaticLimits &Limits) {
  StaticPlan Out;
  const int64_t Limit = Limits.MaxEntries;
  auto tooLarge = [&](const std::string &What) {
    Out.Fallback = What + " exceed the static table limit of " +
                   std::to_string(Limit) + " entries";
    return Out;
  };
  const int64_t Ranks = std::max(From.procs(), To.procs());
  if (Ranks > Limit / 2)
    return tooLarge("the local sizes of " + std::to_string(Ranks) +
                    " processes");
  // Count the messages row by row, without building a grid that may be huge
  // (an all-to-all on 4096 x 4096 processes).
  int64_t MessageCount = 0;
  for (int64_t Src = 0; Src < From.procs(); ++Src) {
    MessageCount +=
        static_cast<int64_t>(redist::computeRow(From, To, Src).size());
    if (MessageCount * MessageEntries > Limit)
      return tooLarge("the descriptions of more than " +
                      std::to_string(MessageCount) + " messages");
  }

  std::string Why;
  if (!redist::algorithmApplies(Algorithm, From, To, &Why)) {
    Out.Error = Why;
    return Out;
  }
  redist::CommGrid Grid = redist::computeGrid(From, To);
  redist::CostModel Model;
  Model.ElementBytes = static_cast<double>(ElementBytes);
  redist::Schedule Sched;
  try {
    Sched = redist::makeSchedule(Algorithm, From, To, Grid, Model);
  } catch (const redist::InvalidArgument &E) {
    Out.Error = E.what();
    return Out;
  }
  if (std::optional<std::string> Problem =
          redist::validateSchedule(Grid, Sched)) {
    Out.Error =
        "the schedule library produced an invalid schedule: " + *Problem;
    return Out;
  }

  StaticTables T;
  T.Algorithm = Sched.Algorithm;
  T.Stats = redist::measureSchedule(Grid, Sched);
  T.Ranks = Ranks;
  T.Steps = static_cast<int64_t>(Sched.Steps.size());
  if (T.Steps > Limit / (2 * T.Ranks) ||
      2 * T.Ranks * T.Steps + MessageCount * MessageEntries > Limit)
    return tooLarge("the send and receive tables of " +
                    std::to_string(T.Steps) + " steps on " +
                    std::to_string(Ranks) + " processes");
  for (int64_t R = 0; R < Ranks; ++R) {
    T.FromSize.push_back(R < From.procs() ? From.localSize(R) : 0);
    T.ToSize.push_back(R < To.procs() ? To.localSize(R) : 0);
  }
  T.Send.assign(static_cast<size_t>(Ranks * T.Steps), -1);
  T.Recv.assign(static_cast<size_t>(Ranks * T.Steps), -1);
  for (int64_t S = 0; S < T.Steps; ++S)
    for (int64_t Id : Sched.Steps[static_cast<size_t>(S)]) {
      const redist::Message &M = Grid.Messages[static_cast<size_t>(Id)];
      T.Send[static_cast<size_t>(M.Src * T.Steps + S)] = Id;
      T.Recv[static_cast<size_t>(M.Dst * T.Steps + S)] = Id;
    }
  T.StepMessages = Sched.Steps;

  int64_t LongestMessage = 0;
  for (const redist::Message &M : Grid.Messages) {
    redist::MessagePattern Pattern =
        redist::describeMessage(From, To, M.Src, M.Dst);
    TableMessage TM;
    TM.Src = M.Src;
    TM.Dst = M.Dst;
    TM.Pack = makeSide(Pattern, /*SrcSide=*/true, T.Pieces);
    TM.Unpack = makeSide(Pattern, /*SrcSide=*/false, T.Pieces);
    if (M.Src == M.Dst)
      TM.Direct = makeDirect(Pattern, T.Runs);
    TM.Length = Pattern.length();
    if (TM.Length != M.Len) {
      Out.Error = "the schedule library describes message " +
                  std::to_string(M.Src) + " -> " + std::to_string(M.Dst) +
                  " with " + std::to_string(TM.Length) + " elements, not " +
                  std::to_string(M.Len);
      return Out;
    }
    LongestMessage = std::max(LongestMessage, TM.Length);
    if (M.Src != M.Dst) {
      for (TableSide *S : {&TM.Pack, &TM.Unpack}) {
        if (wantsDatatype(*S, TM.Length, ElementBytes))
          S->Type = T.Types++;
        else
          T.MaxLength = std::max(T.MaxLength, TM.Length);
      }
    }
    T.Messages.push_back(TM);
    if (T.entries() > Limit)
      return tooLarge("the local runs of " +
                      std::to_string(Grid.Messages.size()) + " messages");
  }
  if (LongestMessage > INT_MAX / std::max<int64_t>(ElementBytes, 1)) {
    Out.Fallback = "a message of " + std::to_string(LongestMessage) +
                   " elements exceeds MPI's int byte count";
    return Out;
  }
  Out.Tables = std::move(T);
  return Out;
}

} // namespace redistc
