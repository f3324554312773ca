//===- RunSeries.cpp - Runs that repeat at fixed distances ----------------===//

#include "redist/RunSeries.h"

using namespace redist;

namespace {

/// Whether R is the run after the last of S.
bool continues(const RunSeries &S, const Run &R) {
  return R.Length == S.Length &&
         R.SrcOffset == S.SrcOffset + S.Count * S.SrcStep &&
         R.DstOffset == S.DstOffset + S.Count * S.DstStep;
}

/// The series that starts with Runs[I] and Runs[I + 1] (when they have the
/// same length), extended as far as the runs continue it.
RunSeries seriesFrom(const std::vector<Run> &Runs, std::size_t I) {
  const Run &A = Runs[I];
  RunSeries S{A.SrcOffset, A.DstOffset, A.Length, 0, 0, 1};
  if (I + 1 >= Runs.size() || Runs[I + 1].Length != A.Length)
    return S;
  S.SrcStep = Runs[I + 1].SrcOffset - A.SrcOffset;
  S.DstStep = Runs[I + 1].DstOffset - A.DstOffset;
  while (I + S.Count < Runs.size() && continues(S, Runs[I + S.Count]))
    ++S.Count;
  return S;
}

} // namespace

std::vector<RunSeries> redist::compressRuns(const std::vector<Run> &Runs) {
  std::vector<RunSeries> Out;
  std::size_t I = 0;
  while (I < Runs.size()) {
    RunSeries S = seriesFrom(Runs, I);
    // A pair that only blocks a longer series starting at its second run
    // is better cut after its first.
    if (S.Count == 2 && seriesFrom(Runs, I + 1).Count > 2)
      S = RunSeries{
          Runs[I].SrcOffset, Runs[I].DstOffset, Runs[I].Length, 0, 0, 1};
    Out.push_back(S);
    I += static_cast<std::size_t>(S.Count);
  }
  return Out;
}

void redist::expandRuns(const RunSeries *Series, std::size_t Count,
                        std::vector<Run> &Out) {
  for (std::size_t I = 0; I < Count; ++I) {
    const RunSeries &S = Series[I];
    for (int64_t K = 0; K < S.Count; ++K)
      Out.push_back(Run{S.SrcOffset + K * S.SrcStep,
                        S.DstOffset + K * S.DstStep, S.Length});
  }
}
