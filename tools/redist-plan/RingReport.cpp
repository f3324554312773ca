//===- RingReport.cpp - A ring rebalancing as a table or JSON -------------===//

#include "RingReport.h"

#include "redist/RingFlows.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <string>

using namespace redist;
using llvm::json::OStream;

namespace redistplan {

namespace {

/// A time or a cost: integers as integers, others with 12 significant
/// digits, so that sums of decimal costs print as the decimals they are
/// (0.1 + 0.2 as 0.3).
std::string numberText(double V) {
  if (V == std::nearbyint(V) && std::fabs(V) < 1e15)
    return std::to_string(static_cast<long long>(V));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::format("%.12g", V);
  return OS.str();
}

void number(OStream &J, double V) {
  J.rawValue([&](llvm::raw_ostream &OS) { OS << numberText(V); });
}

void numbers(OStream &J, const std::vector<double> &Values) {
  J.array([&] {
    for (double V : Values)
      number(J, V);
  });
}

/// Writes Contents as one compact line inside the indented document.
template <typename Fn> void compact(OStream &J, Fn Contents) {
  J.rawValue([&](llvm::raw_ostream &OS) {
    OStream Line(OS);
    Contents(Line);
  });
}

const char *boundName(const RingProblem &P) {
  if (P.Bidirectional)
    return P.homogeneous() ? "Lemma 6" : "Lemma 12";
  return P.homogeneous() ? "Lemma 1" : "Theorem 2, corrected";
}

} // namespace

void printRingJson(llvm::raw_ostream &OS, const RingProblem &P,
                   const RingSchedule &S) {
  OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("format", RingJsonFormatName);
    J.attributeBegin("problem");
    compact(J, [&](OStream &Line) {
      Line.object([&] {
        Line.attribute("loads", P.Loads);
        Line.attribute("target", P.Targets);
        Line.attributeBegin("c_fwd");
        numbers(Line, P.CostFwd);
        Line.attributeEnd();
        Line.attributeBegin("c_bwd");
        if (P.Bidirectional)
          Line.array([&] {
            for (std::int64_t I = 0; I < P.size(); ++I)
              number(Line, P.cost(I, -1));
          });
        else
          Line.value(nullptr);
        Line.attributeEnd();
        Line.attribute("bidirectional", P.Bidirectional);
      });
    });
    J.attributeEnd();
    J.attribute("algorithm", S.Algorithm);
    J.attributeBegin("fwd");
    compact(J, [&](OStream &Line) { Line.value(S.Fwd); });
    J.attributeEnd();
    J.attributeBegin("bwd");
    compact(J, [&](OStream &Line) { Line.value(S.Bwd); });
    J.attributeEnd();
    J.attributeArray("transfers", [&] {
      for (const RingTransfer &T : S.Transfers)
        compact(J, [&](OStream &Line) {
          Line.object([&] {
            Line.attribute("from", T.From);
            Line.attribute("dir", T.Dir);
            Line.attributeBegin("start");
            number(Line, T.Start);
            Line.attributeEnd();
            Line.attribute("items", T.Items);
          });
        });
    });
    J.attributeBegin("makespan");
    number(J, S.Makespan);
    J.attributeEnd();
    J.attributeBegin("lower_bound");
    number(J, S.LowerBound);
    J.attributeEnd();
  });
  OS << '\n';
}

void printRingTable(llvm::raw_ostream &OS, const RingProblem &P,
                    const RingSchedule &S, RingAlgorithm Requested) {
  const std::int64_t N = P.size();
  OS << "Ring:       " << N << (N == 1 ? " process, " : " processes, ")
     << (P.Bidirectional ? "bidirectional" : "unidirectional") << ", "
     << (P.homogeneous() ? "homogeneous" : "heterogeneous") << " links\n";
  OS << "Algorithm:  " << S.Algorithm;
  if (Requested == RingAlgorithm::Auto)
    OS << ", chosen by auto";
  OS << "\n\n";
  OS << "process   load  target  delta    c_fwd    c_bwd    fwd    bwd\n";
  for (std::int64_t I = 0; I < N; ++I)
    OS << llvm::format(
        "%7lld %6lld %7lld %6lld %8s %8s %6lld %6lld\n",
        static_cast<long long>(I), static_cast<long long>(P.Loads[I]),
        static_cast<long long>(P.Targets[I]),
        static_cast<long long>(P.unbalance(I)),
        numberText(P.CostFwd[I]).c_str(),
        P.Bidirectional ? numberText(P.cost(I, -1)).c_str() : "-",
        static_cast<long long>(S.Fwd[I]), static_cast<long long>(S.Bwd[I]));
  OS << "\nTransfers (items back to back from the start):\n";
  if (S.Transfers.empty())
    OS << "  none\n";
  for (const RingTransfer &T : S.Transfers) {
    const std::int64_t To = ((T.From + T.Dir) % N + N) % N;
    const double End =
        T.Start + static_cast<double>(T.Items) * P.cost(T.From, T.Dir);
    OS << "  " << T.From << " -> " << To << ": " << T.Items
       << (T.Items == 1 ? " item" : " items") << " from " << numberText(T.Start)
       << " to " << numberText(End) << "\n";
  }
  OS << "\nMakespan:    " << numberText(S.Makespan) << "\n";
  OS << "Lower bound: " << numberText(S.LowerBound) << " (" << boundName(P)
     << ")";
  if (S.LowerBound > 0)
    OS << ", makespan / bound = "
       << llvm::format("%.3f", S.Makespan / S.LowerBound);
  OS << "\n";
  if (P.Bidirectional && N > 1) {
    const RingFlowSolution F = solveRingFlows(P);
    OS << "System 6:    " << numberText(F.Time)
       << " (integer optimum over the flow family, a lower bound; "
       << (F.Light ? "light, so optimal" : "not light") << ")\n";
  }
}

} // namespace redistplan
