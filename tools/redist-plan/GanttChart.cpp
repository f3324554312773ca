//===- GanttChart.cpp - A schedule drawn as an SVG time chart -------------===//

#include "GanttChart.h"

#include "redist/Error.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

using namespace redist;
using llvm::raw_ostream;

namespace redistplan {

namespace {

constexpr double LabelWidth = 130; // left margin, for the row labels
constexpr double RowHeight = 18;
constexpr double BoxHeight = 14;
constexpr double TopMargin = 44;    // caption and time axis
constexpr double ChartWidth = 960;  // the time axis, at most
constexpr double MaxUnitWidth = 40; // pixels per element, at most

/// Escapes the characters XML gives a meaning to.
std::string xml(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '&':
      Out += "&amp;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

/// A tick spacing of 1, 2 or 5 times a power of ten, giving at most about
/// twelve ticks.
int64_t tickStep(int64_t Span) {
  int64_t Step = 1;
  while (true) {
    for (int64_t Factor : {1, 2, 5})
      if (Span / (Step * Factor) <= 12)
        return Step * Factor;
    Step *= 10;
  }
}

/// One line naming the redistribution, for the caption.
std::string problemCaption(const Plan &P) {
  if (const auto *A = std::get_if<ArrayProblem>(&P.Problem))
    return A->From.distribution().str() + " on " +
           std::to_string(A->From.procs()) + " -> " +
           A->To.distribution().str() + " on " + std::to_string(A->To.procs()) +
           ", N = " + std::to_string(A->From.extent());
  if (const auto *A = std::get_if<GridArrayProblem>(&P.Problem)) {
    std::string Extents;
    for (int D = 0; D < A->From.rank(); ++D)
      Extents += (D ? "x" : "") + std::to_string(A->From.extent(D));
    return Extents + " array, " + arraySideSpelling(A->From) + " -> " +
           arraySideSpelling(A->To);
  }
  const MatrixProblem &M = std::get<MatrixProblem>(P.Problem);
  auto Side = [](const redist::Layout2D &L) {
    return std::to_string(L.gridRows()) + "x" + std::to_string(L.gridCols()) +
           ":" + std::to_string(L.rows().blockSize()) + "x" +
           std::to_string(L.cols().blockSize());
  };
  return std::to_string(M.From.numRows()) + " x " +
         std::to_string(M.From.numCols()) + " matrix, " + Side(M.From) +
         " -> " + Side(M.To);
}

} // namespace

void writeGantt(raw_ostream &OS, const Plan &P) {
  const CommGrid &G = P.Grid;
  if (G.P + G.Q > MaxGanttProcesses)
    throw InvalidArgument("--gantt draws at most " +
                          std::to_string(MaxGanttProcesses) +
                          " processes, sources and targets together; this "
                          "redistribution has " +
                          std::to_string(G.P + G.Q));
  // A step schedule is drawn as its steps on a time line, each step
  // starting when the previous one's longest message ends.
  OverlapSchedule StepEvents;
  OverlapStats StepStats;
  if (!P.Overlapped) {
    StepEvents = stepsOnTimeLine(G, P.Sched);
    StepStats = measureOverlapSchedule(G, StepEvents);
  }
  const OverlapSchedule &Events = P.Overlapped ? P.Events : StepEvents;
  const OverlapStats &S = P.Overlapped ? P.EventStats : StepStats;
  const int64_t Span =
      std::max<int64_t>(1, std::max(S.Makespan, S.MakespanBound));
  const double Unit = std::min(MaxUnitWidth, ChartWidth / Span);
  double Width = LabelWidth + Unit * Span + 20;
  const double Height =
      TopMargin + RowHeight * static_cast<double>(G.P + G.Q) + 10;
  auto X = [&](int64_t Time) { return LabelWidth + Unit * Time; };
  auto Num = [](double V) { return llvm::format("%.1f", V); };

  const std::string Problem = problemCaption(P);
  std::string Caption = P.Sched.Algorithm + ": " + Problem + "; makespan " +
                        std::to_string(S.Makespan) + ", T_opt " +
                        std::to_string(S.MakespanBound);
  if (P.Overlapped)
    Caption += ", " + std::to_string(S.SplitMessages) + " split messages";
  else
    Caption += "; " + std::to_string(P.Stats.Steps) +
               " synchronous steps, cost " + std::to_string(P.Stats.Cost);
  // Wide enough for the caption, at about 7 pixels a character.
  Width = std::max(Width, 16 + 7.0 * static_cast<double>(Caption.size()));
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(Width)
     << "\" height=\"" << Num(Height) << "\" font-family=\"sans-serif\" "
     << "font-size=\"11\">\n";
  OS << "<title>" << xml(P.Sched.Algorithm + " schedule of " + Problem)
     << "</title>\n";
  OS << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  OS << "<text class=\"caption\" x=\"8\" y=\"16\" font-size=\"13\">"
     << xml(Caption) << "</text>\n";

  // Time axis: ticks and light grid lines.
  const double Bottom = Height - 10;
  OS << "<g class=\"axis\" stroke=\"#ddd\">\n";
  for (int64_t T = 0, Step = tickStep(Span); T <= Span; T += Step)
    OS << "<line x1=\"" << Num(X(T)) << "\" y1=\"" << Num(TopMargin - 6)
       << "\" x2=\"" << Num(X(T)) << "\" y2=\"" << Num(Bottom)
       << "\"/><text x=\"" << Num(X(T)) << "\" y=\"" << Num(TopMargin - 10)
       << "\" stroke=\"none\" fill=\"#444\" text-anchor=\"middle\">" << T
       << "</text>\n";
  OS << "</g>\n";

  // Step boundaries of a step schedule.
  if (!P.Overlapped) {
    OS << "<g class=\"steps\" stroke=\"#888\" stroke-dasharray=\"4,3\">\n";
    int64_t At = 0;
    for (const std::vector<int64_t> &Step : P.Sched.Steps) {
      int64_t Longest = 0;
      for (int64_t Id : Step)
        Longest = std::max(Longest, G.Messages[Id].Len);
      At += Longest;
      OS << "<line x1=\"" << Num(X(At)) << "\" y1=\"" << Num(TopMargin - 4)
         << "\" x2=\"" << Num(X(At)) << "\" y2=\"" << Num(Bottom) << "\"/>\n";
    }
    OS << "</g>\n";
  }

  // One row per process; each message keeps one colour in both its rows.
  std::vector<std::vector<const OverlapEvent *>> Rows(G.P + G.Q);
  for (const OverlapEvent &E : Events.Events) {
    const Message &M = G.Messages[E.Msg];
    Rows[M.Src].push_back(&E);
    Rows[G.P + M.Dst].push_back(&E);
  }
  for (int64_t Row = 0; Row < G.P + G.Q; ++Row) {
    const bool Sends = Row < G.P;
    const int64_t Process = Sends ? Row : Row - G.P;
    const double Top = TopMargin + RowHeight * static_cast<double>(Row);
    OS << "<g class=\"row\" id=\"" << (Sends ? "send-" : "recv-") << Process
       << "\">\n";
    OS << "<text class=\"label\" x=\"8\" y=\"" << Num(Top + BoxHeight - 3)
       << "\">" << (Sends ? "source " : "target ") << Process
       << (Sends ? " sends" : " receives") << "</text>\n";
    for (const OverlapEvent *E : Rows[Row]) {
      const Message &M = G.Messages[E->Msg];
      const int64_t Partner = Sends ? M.Dst : M.Src;
      const unsigned Hue = static_cast<unsigned>((E->Msg * 137) % 360);
      OS << "<rect class=\"event\" data-msg=\"" << E->Msg << "\" data-start=\""
         << E->Start << "\" data-len=\"" << E->Len << "\" x=\""
         << Num(X(E->Start)) << "\" y=\"" << Num(Top) << "\" width=\""
         << Num(Unit * E->Len) << "\" height=\"" << Num(BoxHeight)
         << "\" fill=\"hsl(" << Hue << ",60%,75%)\" stroke=\"#333\">"
         << "<title>" << M.Src << " -&gt; " << M.Dst << ": elements ["
         << E->Start << "," << E->end() << ") of message " << E->Msg
         << " (length " << M.Len << ")</title></rect>\n";
      if (Unit * E->Len >= 7 * (std::to_string(Partner).size() + 1))
        OS << "<text x=\"" << Num(X(E->Start) + Unit * E->Len / 2) << "\" y=\""
           << Num(Top + BoxHeight - 3) << "\" text-anchor=\"middle\">"
           << (Sends ? "&#8594;" : "&#8592;") << Partner << "</text>\n";
    }
    OS << "</g>\n";
  }

  OS << "<line class=\"bound\" x1=\"" << Num(X(S.MakespanBound)) << "\" y1=\""
     << Num(TopMargin - 6) << "\" x2=\"" << Num(X(S.MakespanBound))
     << "\" y2=\"" << Num(Bottom)
     << "\" stroke=\"red\" stroke-width=\"1.5\"><title>T_opt = "
     << S.MakespanBound << "</title></line>\n";
  OS << "</svg>\n";
}

} // namespace redistplan
