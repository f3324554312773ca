//===- TableReport.cpp - A plan as the papers' tables show it -------------===//

#include "TableReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <vector>

using namespace redist;
using llvm::raw_ostream;
using llvm::right_justify;

namespace redistplan {

std::string stepLabel(int64_t Index) {
  // Bijective base 26: after z comes aa, as in spreadsheet columns.
  std::string Label;
  for (uint64_t Rest = static_cast<uint64_t>(Index) + 1; Rest > 0;
       Rest = (Rest - 1) / 26)
    Label.insert(Label.begin(), static_cast<char>('a' + (Rest - 1) % 26));
  return Label;
}

namespace {

/// Lines of the step list wrap before this column.
constexpr size_t LineWidth = 80;

unsigned widthOf(int64_t Value) { return std::to_string(Value).size(); }

void printArray(raw_ostream &OS, const ArrayProblem &A) {
  OS << "Redistribution: " << A.From.distribution().str() << " on "
     << A.From.procs() << " processes -> " << A.To.distribution().str()
     << " on " << A.To.procs() << " processes\n";

  int64_t N = A.From.extent();
  OS << "Array length:   N = " << N;
  std::optional<int64_t> Slice;
  if (A.From.isBlockCyclic() && A.To.isBlockCyclic())
    Slice = sliceLength(A.From.procs(), A.From.blockSize(), A.To.procs(),
                        A.To.blockSize());
  if (Slice && N == *Slice) {
    OS << ", one slice of L = lcm(P*r, Q*s)";
  } else if (Slice) {
    int64_t Whole = N / *Slice, Rest = N % *Slice;
    OS << ": " << Whole << (Whole == 1 ? " whole slice" : " whole slices")
       << " of L = lcm(P*r, Q*s) = " << *Slice << " and " << Rest
       << (Rest == 1 ? " more element" : " more elements");
  }
  OS << "\n";
}

/// "2x3 grid, 32x32 blocks".
void printMatrixSide(raw_ostream &OS, const Layout2D &L) {
  OS << L.gridRows() << 'x' << L.gridCols() << " grid, " << L.rows().blockSize()
     << 'x' << L.cols().blockSize() << " blocks";
}

void printMatrix(raw_ostream &OS, const MatrixProblem &M) {
  OS << "Redistribution: ";
  printMatrixSide(OS, M.From);
  OS << " -> ";
  printMatrixSide(OS, M.To);
  OS << "; process (i, j) is i*P1 + j\n";
  OS << "Matrix:         " << M.From.numRows() << " x " << M.From.numCols()
     << "; message lengths count matrix elements\n";
}

void printGridArray(raw_ostream &OS, const GridArrayProblem &A) {
  OS << "Redistribution: " << arraySideSpelling(A.From) << " -> "
     << arraySideSpelling(A.To);
  const std::vector<int> &Perm = A.Region.Permutation;
  bool Identity = true;
  for (size_t K = 0; K < Perm.size(); ++K)
    Identity = Identity && Perm[K] == static_cast<int>(K);
  if (!Identity) {
    OS << ", permuted (";
    for (size_t K = 0; K < Perm.size(); ++K)
      OS << (K ? "," : "") << Perm[K];
    OS << ")";
  }
  OS << "; processes numbered row-major over each grid\n";
  OS << "Array:          ";
  for (int D = 0; D < A.From.rank(); ++D)
    OS << (D ? " x " : "") << A.From.extent(D);
  OS << "; message lengths count array elements\n";
}

void printProblem(raw_ostream &OS, const Plan &P) {
  if (const auto *Array = std::get_if<ArrayProblem>(&P.Problem))
    printArray(OS, *Array);
  else if (const auto *Grid = std::get_if<GridArrayProblem>(&P.Problem))
    printGridArray(OS, *Grid);
  else
    printMatrix(OS, std::get<MatrixProblem>(P.Problem));

  OS << "Algorithm:      " << P.Sched.Algorithm;
  if (P.Choice)
    OS << ", chosen by auto";
  OS << " (model: " << P.Model << ")\n";
  if (!P.Sched.Note.empty())
    OS << "Note:           " << P.Sched.Note << "\n";
}

/// What follows each message's length in the grid: the label of its step,
/// or, in an overlapped schedule, @ and the start of its first event, with
/// a + when it has more.
std::vector<std::string> gridSuffixes(const Plan &P) {
  const CommGrid &G = P.Grid;
  std::vector<std::string> Suffix(G.Messages.size());
  if (!P.Overlapped) {
    std::vector<int64_t> StepOf = stepOfEachMessage(G, P.Sched);
    for (size_t Id = 0; Id < G.Messages.size(); ++Id)
      Suffix[Id] = stepLabel(StepOf[Id]);
    return Suffix;
  }
  // Events come by start time: the first one of a message is its start.
  for (const OverlapEvent &E : P.Events.Events) {
    std::string &Text = Suffix[E.Msg];
    if (Text.empty())
      Text = "@" + std::to_string(E.Start);
    else if (Text.back() != '+')
      Text += '+';
  }
  return Suffix;
}

/// The grid as in the papers: one row per source process, one column per
/// target process, each entry the message length followed by its step (or
/// its start time).
void printGrid(raw_ostream &OS, const Plan &P) {
  const CommGrid &G = P.Grid;
  std::vector<std::string> Suffix = gridSuffixes(P);
  std::vector<std::string> Cells(G.P * G.Q, "-");
  for (size_t Id = 0; Id < G.Messages.size(); ++Id) {
    const Message &M = G.Messages[Id];
    Cells[M.Src * G.Q + M.Dst] = std::to_string(M.Len) + Suffix[Id];
  }
  std::vector<int64_t> RowCounts = G.rowCounts();
  std::vector<int64_t> ColumnCounts = G.columnCounts();

  unsigned LabelWidth = std::max<unsigned>(4, widthOf(G.P - 1));
  unsigned CellWidth = widthOf(G.Q - 1);
  for (const std::string &Cell : Cells)
    CellWidth = std::max<unsigned>(CellWidth, Cell.size());
  for (int64_t Count : ColumnCounts)
    CellWidth = std::max(CellWidth, widthOf(Count));
  unsigned CountWidth = 4;
  for (int64_t Count : RowCounts)
    CountWidth = std::max(CountWidth, widthOf(Count));

  if (P.Overlapped)
    OS << "Communication grid: message length, then @ the time it starts, + "
          "if split (- = no message)\n";
  else
    OS << "Communication grid: message length, then the step that sends it "
          "(- = no message)\n";
  OS << right_justify("S/R", LabelWidth) << " |";
  for (int64_t Dst = 0; Dst < G.Q; ++Dst)
    OS << ' ' << right_justify(std::to_string(Dst), CellWidth);
  OS << " | N.M.\n";
  std::string Rule = std::string(LabelWidth + 1, '-') + '+' +
                     std::string(G.Q * (CellWidth + 1) + 1, '-') + '+' +
                     std::string(CountWidth + 1, '-');
  OS << Rule << '\n';
  for (int64_t Src = 0; Src < G.P; ++Src) {
    OS << right_justify(std::to_string(Src), LabelWidth) << " |";
    for (int64_t Dst = 0; Dst < G.Q; ++Dst)
      OS << ' ' << right_justify(Cells[Src * G.Q + Dst], CellWidth);
    OS << " | " << right_justify(std::to_string(RowCounts[Src]), CountWidth)
       << '\n';
  }
  OS << Rule << '\n';
  OS << right_justify("N.M.", LabelWidth) << " |";
  for (int64_t Count : ColumnCounts)
    OS << ' ' << right_justify(std::to_string(Count), CellWidth);
  OS << " |\n";
}

void printSteps(raw_ostream &OS, const Plan &P) {
  OS << "Steps: the messages src->dst:length of each step, which costs its "
        "longest message\n";
  for (size_t Index = 0; Index < P.Sched.Steps.size(); ++Index) {
    const std::vector<int64_t> &Step = P.Sched.Steps[Index];
    OS << "  " << stepLabel(Index) << ": ";
    if (Step.empty()) {
      OS << "no message, cost 0\n";
      continue;
    }
    int64_t Shortest = P.Grid.Messages[Step.front()].Len;
    int64_t Longest = Shortest;
    for (int64_t Id : Step) {
      Shortest = std::min(Shortest, P.Grid.Messages[Id].Len);
      Longest = std::max(Longest, P.Grid.Messages[Id].Len);
    }
    OS << Step.size() << (Step.size() == 1 ? " message" : " messages");
    if (Shortest == Longest)
      OS << ", length " << Longest;
    else
      OS << ", lengths " << Shortest << ".." << Longest;
    OS << ", cost " << Longest << ":\n";
    // The messages, as many per line as fit in LineWidth columns.
    std::string Line = "   ";
    for (int64_t Id : Step) {
      const Message &M = P.Grid.Messages[Id];
      std::string Item = ' ' + std::to_string(M.Src) + "->" +
                         std::to_string(M.Dst) + ':' + std::to_string(M.Len);
      if (Line.size() + Item.size() > LineWidth && Line.size() > 3) {
        OS << Line << '\n';
        Line = "   ";
      }
      Line += Item;
    }
    OS << Line << '\n';
  }
}

void printSummary(raw_ostream &OS, const Plan &P) {
  const ScheduleStats &S = P.Stats;
  const CostModel &M = P.Costs;
  OS << "Summary\n";
  OS << "  messages:   " << P.Grid.Messages.size() << '\n';
  OS << "  steps:      " << S.Steps << ", " << S.NonEmptySteps
     << " non-empty; lower bound " << S.StepsLowerBound
     << " (most messages of one process)\n";
  OS << "  cost:       " << S.Cost << "; lower bound " << S.CostLowerBound
     << " (most elements one process sends or receives)\n";
  OS << "  critical:   " << S.CriticalMessages
     << " messages on the longest chain of start-ups; lower bound "
     << S.CriticalLowerBound << " (most messages one rank sends, or "
     << "receives)\n";
  OS << "  model:      "
     << llvm::format("alpha %g s per step, gamma %g s per critical message, "
                     "beta %g s per byte (%g s per %g-byte element); from ",
                     M.Alpha, M.Gamma, M.BetaPerByte, M.beta(), M.ElementBytes)
     << P.CostsFrom << '\n';
  OS << "  predicted:  "
     << llvm::format("%.3g s = %g s * %lld steps + %g s * %lld critical "
                     "messages + %g s * %lld elements\n",
                     M.predict(S), M.Alpha,
                     static_cast<long long>(S.NonEmptySteps), M.Gamma,
                     static_cast<long long>(S.CriticalMessages), M.beta(),
                     static_cast<long long>(S.Cost));
}

/// What auto weighed: each candidate's figures and predicted time.
void printChoice(raw_ostream &OS, const AutoChoice &C, const Plan &P) {
  OS << "Auto: " << P.Sched.Choice << '\n';
  // 2-D names (product(mincost-steps)) are longer than 1-D ones.
  std::size_t Width = 13;
  for (const AutoCandidate &A : C.Candidates)
    Width = std::max(Width, A.Name.size() + 1);
  OS << "  " << llvm::left_justify("algorithm", Width)
     << "  steps  critical   cost   predicted\n";
  for (std::size_t I = 0; I < C.Candidates.size(); ++I) {
    const AutoCandidate &A = C.Candidates[I];
    OS << (I == C.Best ? "* " : "  ") << llvm::left_justify(A.Name, Width);
    if (!A.Failure.empty()) {
      OS << "failed: " << A.Failure << '\n';
      continue;
    }
    OS << llvm::format("%6lld %9lld %6lld %11.3g s\n",
                       static_cast<long long>(A.Stats.NonEmptySteps),
                       static_cast<long long>(A.Stats.CriticalMessages),
                       static_cast<long long>(A.Stats.Cost), A.Seconds);
  }
}

/// One line of events per process: [start,end) and the process at the
/// other end, wrapped like the steps.
void printTimeLine(raw_ostream &OS, const Plan &P) {
  const CommGrid &G = P.Grid;
  OS << "Time line: the events of each process, [start,end)->target or "
        "<-source, time in elements\n";
  std::vector<std::vector<std::string>> Sends(G.P), Receives(G.Q);
  for (const OverlapEvent &E : P.Events.Events) {
    const Message &M = G.Messages[E.Msg];
    const std::string When =
        "[" + std::to_string(E.Start) + "," + std::to_string(E.end()) + ")";
    Sends[M.Src].push_back(When + "->" + std::to_string(M.Dst));
    Receives[M.Dst].push_back(When + "<-" + std::to_string(M.Src));
  }
  auto PrintLine = [&](const std::string &Head,
                       const std::vector<std::string> &Items) {
    std::string Line = Head;
    for (const std::string &Item : Items) {
      if (Line.size() + Item.size() + 1 > LineWidth &&
          Line.size() > Head.size()) {
        OS << Line << '\n';
        Line = std::string(Head.size(), ' ');
      }
      Line += ' ' + Item;
    }
    OS << Line << '\n';
  };
  const unsigned Width = widthOf(std::max(G.P, G.Q) - 1);
  auto Padded = [&](int64_t Process) {
    std::string Text = std::to_string(Process);
    return std::string(Width - Text.size(), ' ') + Text;
  };
  for (int64_t Src = 0; Src < G.P; ++Src)
    PrintLine("  source " + Padded(Src) + " sends:   ", Sends[Src]);
  for (int64_t Dst = 0; Dst < G.Q; ++Dst)
    PrintLine("  target " + Padded(Dst) + " receives:", Receives[Dst]);
}

void printOverlapSummary(raw_ostream &OS, const Plan &P) {
  const OverlapStats &S = P.EventStats;
  OS << "Summary\n";
  OS << "  messages:   " << P.Grid.Messages.size() << ", " << S.SplitMessages
     << " split; " << S.Events << " events\n";
  OS << "  makespan:   " << S.Makespan
     << "; lower bound T_opt = " << S.MakespanBound
     << " (most elements one process sends or receives)\n";
}

} // namespace

void printTable(raw_ostream &OS, const Plan &P) {
  printProblem(OS, P);
  OS << '\n';
  // What a schedule is made of: events on a time line, or steps.
  const char *Parts = P.Overlapped ? "time line" : "steps";
  if (P.Grid.P > MaxTableProcesses || P.Grid.Q > MaxTableProcesses) {
    OS << "Grid and " << Parts << " not shown: more than " << MaxTableProcesses
       << " processes on a side (P = " << P.Grid.P << ", Q = " << P.Grid.Q
       << "); --json lists every message and "
       << (P.Overlapped ? "event" : "step") << ".\n\n";
  } else {
    printGrid(OS, P);
    OS << '\n';
    if (P.Overlapped)
      printTimeLine(OS, P);
    else
      printSteps(OS, P);
    OS << '\n';
  }
  if (P.Overlapped) {
    printOverlapSummary(OS, P);
    return;
  }
  printSummary(OS, P);
  if (P.Choice) {
    OS << '\n';
    printChoice(OS, *P.Choice, P);
  }
}

} // namespace redistplan
