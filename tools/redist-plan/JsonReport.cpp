//===- JsonReport.cpp - A plan in the redist-schedule/1 JSON format -------===//

#include "JsonReport.h"

#include "llvm/Support/JSON.h"

using namespace redist;
using llvm::json::OStream;

namespace redistplan {

namespace {

/// Writes Contents as one compact line inside the indented document, so that
/// each message and each step takes one line of output.
template <typename Fn> void compact(OStream &J, Fn Contents) {
  J.rawValue([&](llvm::raw_ostream &OS) {
    OStream Line(OS);
    Contents(Line);
  });
}

/// The problem of cyclic2d: grids and blocks as [rows, columns] pairs.
void writeProblem(OStream &J, const MatrixProblem &Matrix) {
  auto Pair = [](int64_t Rows, int64_t Cols) {
    return llvm::json::Array{Rows, Cols};
  };
  const Layout2D &From = Matrix.From, &To = Matrix.To;
  J.attribute("kind", "cyclic2d");
  J.attribute("M", From.numRows());
  J.attribute("N", From.numCols());
  J.attribute("P", Pair(From.gridRows(), From.gridCols()));
  J.attribute("r", Pair(From.rows().blockSize(), From.cols().blockSize()));
  J.attribute("Q", Pair(To.gridRows(), To.gridCols()));
  J.attribute("s", Pair(To.rows().blockSize(), To.cols().blockSize()));
}

/// The problem of array: formats spelled as on the command line, and the
/// permutation always (the identity when none was given).
void writeProblem(OStream &J, const GridArrayProblem &Array) {
  auto Side = [&](const char *Name, const ArrayLayout &L) {
    J.attributeObject(Name, [&] {
      J.attribute("grid", L.grid());
      J.attributeArray("formats", [&] {
        for (const DimFormat &F : L.formats())
          J.value(F.str());
      });
    });
  };
  J.attribute("kind", "array");
  J.attribute("extents", Array.From.extents());
  Side("from", Array.From);
  Side("to", Array.To);
  J.attribute("permute", Array.Region.Permutation);
}

void writeProblem(OStream &J, const ArrayProblem &Array) {
  const Layout &From = Array.From, &To = Array.To;
  if (From.isBlockCyclic() && To.isBlockCyclic()) {
    J.attribute("kind", "cyclic");
    J.attribute("P", From.procs());
    J.attribute("r", From.blockSize());
    J.attribute("Q", To.procs());
    J.attribute("s", To.blockSize());
  } else {
    J.attribute("kind", "gen_block");
    J.attribute("source", From.distribution().sizes());
    J.attribute("target", To.distribution().sizes());
  }
  J.attribute("N", From.extent());
}

/// auto's choice: the model it weighed with, why it chose, and every
/// candidate, one per line.
void writeChoice(OStream &J, const AutoChoice &C, const Plan &P) {
  J.attributeObject("auto", [&] {
    J.attributeBegin("cost_model");
    compact(J, [&](OStream &Line) {
      Line.object([&] {
        Line.attribute(AlphaMember, P.Costs.Alpha);
        Line.attribute(BetaMember, P.Costs.BetaPerByte);
        Line.attribute(GammaMember, P.Costs.Gamma);
        Line.attribute("element_bytes", P.Costs.ElementBytes);
        Line.attribute("from", P.CostsFrom);
      });
    });
    J.attributeEnd();
    J.attribute("reason", P.Sched.Choice);
    J.attributeArray("candidates", [&] {
      for (std::size_t I = 0; I < C.Candidates.size(); ++I) {
        const AutoCandidate &A = C.Candidates[I];
        compact(J, [&](OStream &Line) {
          Line.object([&] {
            Line.attribute("algorithm", A.Name);
            if (!A.Failure.empty()) {
              Line.attribute("failure", A.Failure);
              return;
            }
            Line.attribute("non_empty_steps", A.Stats.NonEmptySteps);
            Line.attribute("critical_messages", A.Stats.CriticalMessages);
            Line.attribute("cost", A.Stats.Cost);
            Line.attribute("predicted_s", A.Seconds);
            Line.attribute("chosen", I == C.Best);
          });
        });
      }
    });
  });
}

/// "lower_bounds": steps and cost, and for an overlapped schedule T_opt.
void writeLowerBounds(OStream &J, const Plan &P) {
  J.attributeBegin("lower_bounds");
  compact(J, [&](OStream &Line) {
    Line.object([&] {
      Line.attribute("steps", P.Stats.StepsLowerBound);
      Line.attribute("cost", P.Stats.CostLowerBound);
      if (P.Overlapped)
        Line.attribute("makespan", P.EventStats.MakespanBound);
    });
  });
  J.attributeEnd();
}

/// The members of an overlapped schedule, after "messages".
void writeEvents(OStream &J, const Plan &P) {
  J.attributeArray("events", [&] {
    for (const OverlapEvent &E : P.Events.Events)
      compact(J, [&](OStream &Line) {
        Line.object([&] {
          Line.attribute("msg", E.Msg);
          Line.attribute("start", E.Start);
          Line.attribute("len", E.Len);
        });
      });
  });
  J.attribute("makespan", P.EventStats.Makespan);
  J.attribute("split_messages", P.EventStats.SplitMessages);
  writeLowerBounds(J, P);
}

} // namespace

void printJson(llvm::raw_ostream &OS, const Plan &P) {
  OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("format", JsonFormatName);
    J.attributeBegin("problem");
    compact(J, [&](OStream &Line) {
      Line.object([&] {
        std::visit([&](const auto &Problem) { writeProblem(Line, Problem); },
                   P.Problem);
      });
    });
    J.attributeEnd();
    J.attribute("algorithm", P.Sched.Algorithm);
    J.attribute("model", P.Model);
    J.attributeArray("messages", [&] {
      for (size_t Id = 0; Id < P.Grid.Messages.size(); ++Id) {
        const Message &M = P.Grid.Messages[Id];
        compact(J, [&](OStream &Line) {
          Line.object([&] {
            Line.attribute("id", static_cast<int64_t>(Id));
            Line.attribute("src", M.Src);
            Line.attribute("dst", M.Dst);
            Line.attribute("len", M.Len);
          });
        });
      }
    });
    if (P.Overlapped) {
      writeEvents(J, P);
      return;
    }
    J.attributeArray("steps", [&] {
      for (const std::vector<int64_t> &Step : P.Sched.Steps)
        compact(J, [&](OStream &Line) { Line.value(Step); });
    });
    J.attribute("num_steps", P.Stats.Steps);
    J.attribute("cost", P.Stats.Cost);
    writeLowerBounds(J, P);
    // Added after the others, and only when they apply: readers that know
    // the members above keep working.
    if (P.Choice)
      writeChoice(J, *P.Choice, P);
    if (P.StepLimit > 0)
      J.attribute("step_limit", P.StepLimit);
    if (!P.Sched.Note.empty())
      J.attribute("note", P.Sched.Note);
  });
  OS << '\n';
}

} // namespace redistplan
