//===- CodeGen.cpp - The code that replaces each directive ----------------===//

#include "CodeGen.h"

#include "RedistcConfig.h"

#include "redist/Error.h"
#include "redist/Schedulers.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <string>

using namespace clang;

namespace redistc {

namespace {

/// A C string literal holding Text.
std::string quoted(llvm::StringRef Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// "1 step", "4 steps": N and the noun, plural unless N is 1.
std::string counted(int64_t N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

std::string joined(const std::vector<int64_t> &Values) {
  std::string Out;
  for (size_t I = 0; I < Values.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Values[I]);
  return Out;
}

/// F's argument as an expression: a braced list of gen_block sizes is none
/// (it deduces no template argument), so make it an initializer_list.
std::string argumentExpr(const FormatValue &F) {
  if (llvm::StringRef(F.ArgText).startswith("{"))
    return "std::initializer_list<std::int64_t>" + F.ArgText;
  return F.ArgText;
}

/// C++ that constructs the distribution of format F over Procs processes.
std::string distributionInit(const FormatValue &F, const std::string &Procs,
                             const std::string &Where) {
  switch (F.Kind) {
  case FormatKind::Block:
    return "redist::Distribution::block(" + Procs + ")";
  case FormatKind::BlockSized:
    return "redist::Distribution::block(" + Procs +
           ", static_cast<std::int64_t>(" + F.ArgText + "))";
  case FormatKind::Cyclic:
    return "redist::Distribution::cyclic(" + Procs + ")";
  case FormatKind::CyclicSized:
    return "redist::Distribution::cyclic(" + Procs +
           ", static_cast<std::int64_t>(" + F.ArgText + "))";
  case FormatKind::GenBlock:
    return "redistc_detail::genBlock(" + argumentExpr(F) + ", " + Procs + ", " +
           quoted(Where) + ")";
  }
  return "";
}

/// C++ that constructs the constant distribution D.
std::string distributionValue(const redist::Distribution &D) {
  std::string P = std::to_string(D.procs());
  switch (D.kind()) {
  case redist::DistKind::Block:
    return "redist::Distribution::block(" + P + ")";
  case redist::DistKind::BlockSized:
    return "redist::Distribution::block(" + P + ", " +
           std::to_string(D.param()) + ")";
  case redist::DistKind::Cyclic:
    return "redist::Distribution::cyclic(" + P + ", " +
           std::to_string(D.param()) + ")";
  case redist::DistKind::GenBlock:
    return "redist::Distribution::genBlock({" + joined(D.sizes()) + "})";
  }
  return "";
}

/// Drops the lines an empty placeholder left blank, and indents every line
/// but the first like the directive.
std::string layout(const std::string &Code, const std::string &Indent) {
  std::string Out;
  size_t Pos = 0;
  bool First = true;
  while (Pos <= Code.size()) {
    size_t End = Code.find('\n', Pos);
    if (End == std::string::npos)
      End = Code.size();
    std::string Line = Code.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Line.find_first_not_of(" \t") == std::string::npos)
      continue;
    if (!First)
      Out += "\n" + Indent;
    Out += Line;
    First = false;
  }
  return Out;
}

/// The rows of the constant tables, for static_tables.tpl.
TemplateValues tableValues(const StaticTables &T) {
  TemplateValues V;
  V["RANKS"] = std::to_string(T.Ranks);
  V["STEPS"] = std::to_string(T.Steps);
  V["FROM_SIZES"] = joined(T.FromSize);
  V["TO_SIZES"] = joined(T.ToSize);
  int64_t Cells = T.Ranks * T.Steps;
  V["SEND_ROWS"] = std::to_string(std::max<int64_t>(Cells, 1));
  auto perRank = [&](const std::vector<int64_t> &Table) {
    if (Cells == 0)
      return std::string("-1");
    std::string Out;
    for (int64_t R = 0; R < T.Ranks; ++R) {
      Out += "\n      ";
      for (int64_t S = 0; S < T.Steps; ++S)
        Out +=
            std::to_string(Table[static_cast<size_t>(R * T.Steps + S)]) + ", ";
      Out += "// rank " + std::to_string(R);
    }
    return Out + "\n ";
  };
  V["SEND"] = perRank(T.Send);
  V["RECV"] = perRank(T.Recv);
  V["MESSAGE_ROWS"] = std::to_string(std::max<size_t>(T.Messages.size(), 1));
  auto side = [](const TableSide &S) {
    return "{" +
           joined({S.First, S.Count, S.Uniform, S.Repeat, S.Stride, S.TailFirst,
                   S.TailCount}) +
           "}";
  };
  std::string Messages;
  for (const TableMessage &M : T.Messages) {
    const TableDirect &D = M.Direct;
    Messages += "      {" + joined({M.Src, M.Dst, M.Length}) + ", " +
                side(M.Pack) + ", " + side(M.Unpack) + ", {" +
                joined({D.First, D.Count, D.Uniform, D.Repeat, D.SrcStride,
                        D.DstStride, D.TailFirst, D.TailCount}) +
                "}},\n";
  }
  if (T.Messages.empty())
    Messages = "      {0, 0, 0, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, "
               "{0, 0, 0, 0, 0, 0, 0, 0}},\n";
  V["MESSAGES"] = Messages + " ";
  // Several short rows to a line; a placeholder row keeps an empty table
  // valid C++.
  auto rows = [](size_t Count, size_t PerLine, const std::string &Empty,
                 auto Row) {
    std::string Out;
    for (size_t I = 0; I < Count; ++I) {
      Out += (I % PerLine == 0 ? "      " : " ") + Row(I) + ",";
      if (I % PerLine == PerLine - 1 || I + 1 == Count)
        Out += "\n";
    }
    return (Count == 0 ? "      " + Empty + ",\n" : Out) + " ";
  };
  V["PIECE_ROWS"] = std::to_string(std::max<size_t>(T.Pieces.size(), 1));
  V["PIECES"] = rows(T.Pieces.size(), 6, "{0, 0}", [&](size_t I) {
    return "{" + joined({T.Pieces[I].Offset, T.Pieces[I].Length}) + "}";
  });
  V["RUN_ROWS"] = std::to_string(std::max<size_t>(T.Runs.size(), 1));
  V["RUNS"] = rows(T.Runs.size(), 4, "{0, 0, 0}", [&](size_t I) {
    const redist::Run &R = T.Runs[I];
    return "{" + joined({R.SrcOffset, R.DstOffset, R.Length}) + "}";
  });
  V["MAX_LENGTH"] = std::to_string(T.MaxLength);
  return V;
}

/// The schedule comment: algorithm, steps, cost, bounds, and the steps
/// themselves when they fit on a screen.
std::string scheduleComment(const StaticTables &T) {
  TemplateValues V;
  V["ALGORITHM"] = T.Algorithm;
  V["STEPS"] = counted(T.Stats.Steps, "step", "steps");
  V["NON_EMPTY"] =
      T.Stats.NonEmptySteps == T.Stats.Steps
          ? ""
          : ", " + std::to_string(T.Stats.NonEmptySteps) + " non-empty";
  V["STEPS_LOWER_BOUND"] = std::to_string(T.Stats.StepsLowerBound);
  V["COST"] = counted(T.Stats.Cost, "element", "elements");
  V["COST_LOWER_BOUND"] = std::to_string(T.Stats.CostLowerBound);
  std::string List;
  if (T.Steps <= 32 && T.Messages.size() <= 256) {
    for (size_t S = 0; S < T.StepMessages.size(); ++S) {
      int64_t Cost = 0;
      std::string Pairs;
      for (int64_t Id : T.StepMessages[S]) {
        const TableMessage &M = T.Messages[static_cast<size_t>(Id)];
        Cost = std::max(Cost, M.Length);
        Pairs += " " + std::to_string(M.Src) + "->" + std::to_string(M.Dst);
      }
      List += "  //   step " + std::to_string(S) + " (cost " +
              std::to_string(Cost) + "):" + (Pairs.empty() ? " empty" : Pairs) +
              "\n";
    }
  }
  V["STEP_LIST"] = List;
  return renderTemplate("schedule_comment", V);
}

} // namespace

std::string CodeGen::location(SourceLocation Loc) const {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

std::string CodeGen::where(const Directive &D) const {
  return llvm::sys::path::filename(Options.InputPath).str() + ":" +
         std::to_string(SM.getSpellingLineNumber(D.HashLoc));
}

std::string CodeGen::indentation(const Directive &D) const {
  llvm::StringRef Buffer = SM.getBufferData(SM.getMainFileID());
  unsigned Offset = SM.getFileOffset(D.HashLoc);
  unsigned Start = Offset;
  while (Start > 0 && Buffer[Start - 1] != '\n')
    --Start;
  llvm::StringRef Prefix = Buffer.slice(Start, Offset);
  if (Prefix.find_first_not_of(" \t") != llvm::StringRef::npos)
    return "";
  return Prefix.str();
}

TemplateValues CodeGen::commonValues(const Directive &D) const {
  TemplateValues V;
  V["INPUT"] = quoted(Options.InputPath);
  V["OUTPUT"] = quoted(Options.OutputPath);
  V["OUTPUT_LINE"] = OutputLineMarker;
  V["LINE"] = std::to_string(SM.getSpellingLineNumber(D.HashLoc));
  V["NEXT_LINE"] = std::to_string(SM.getSpellingLineNumber(D.EndLoc) + 1);
  V["WHERE"] = where(D);
  return V;
}

std::string CodeGen::prologue() const {
  TemplateValues V;
  V["VERSION"] = VersionString;
  V["INPUT_NAME"] = llvm::sys::path::filename(Options.InputPath).str();
  V["INPUT"] = quoted(Options.InputPath);
  return renderTemplate("prologue", V);
}

bool CodeGen::generate(const std::vector<AnalysedDirective> &Directives,
                       std::vector<GeneratedDirective> &Out) {
  bool OK = true;
  for (const AnalysedDirective &AD : Directives) {
    GeneratedDirective G;
    G.Begin = SM.getFileOffset(AD.D->HashLoc);
    G.End = SM.getFileOffset(AD.D->EndLoc);
    if (!generateOne(AD, G)) {
      OK = false;
      continue;
    }
    G.Code = layout(G.Code, indentation(*AD.D));
    Out.push_back(std::move(G));
  }
  return OK;
}

bool CodeGen::generateOne(const AnalysedDirective &AD,
                          GeneratedDirective &Out) {
  if (AD.Arrangement) {
    processors(*AD.Arrangement, Out);
    return true;
  }
  if (AD.Distribution) {
    distribute(*AD.Distribution, Out);
    return true;
  }
  return action(*AD.Action, Out);
}

void CodeGen::processors(const ArrangementInfo &A, GeneratedDirective &Out) {
  const Directive &D = *A.D;
  TemplateValues V = commonValues(D);
  V["NAME"] = D.Arrangement.Name;
  V["EXTENT_TEXT"] = D.Slots[D.Extent].Text;
  V["COMM_TEXT"] = D.Comm >= 0 ? D.Slots[D.Comm].Text : "MPI_COMM_WORLD";
  std::string Name = A.ExtentExpr.substr(0, A.ExtentExpr.find('('));
  V["EXTENT_NAME"] = Name;
  V["COMM_NAME"] = A.CommExpr.substr(0, A.CommExpr.find('('));
  Out.Code =
      renderTemplate(A.Where.Scope == ScopeKind::Block ? "processors_block"
                                                       : "processors_namespace",
                     V);
  Out.Report =
      location(D.HashLoc) + ": processors " + D.Arrangement.Name + ": " +
      (A.Extent
           ? counted(*A.Extent, "process", "processes")
           : "'" + D.Slots[D.Extent].Text + "' processes, known at run time");
}

void CodeGen::distribute(const DistributionInfo &Dist,
                         GeneratedDirective &Out) {
  const Directive &D = *Dist.D;
  TemplateValues V = commonValues(D);
  V["VAR"] = Dist.Var.Text;
  V["EXTENT_TEXT"] = D.Slots[D.Extent].Text;
  V["FORMAT"] = Dist.Format.spelling();
  V["ARRANGEMENT"] = D.Onto.Name;
  V["DIST_NAME"] = Dist.DistExpr.substr(0, Dist.DistExpr.find('('));
  V["EXTENT_NAME"] = Dist.ExtentExpr.substr(0, Dist.ExtentExpr.find('('));
  V["COMM_NAME"] = Dist.CommExpr.substr(0, Dist.CommExpr.find('('));
  V["DIST_INIT"] =
      distributionInit(Dist.Format, Dist.Onto->ExtentExpr, where(D));
  V["COMM"] = Dist.Onto->CommExpr;
  Out.Code = renderTemplate(Dist.Where.Scope == ScopeKind::Block
                                ? "distribute_block"
                                : "distribute_namespace",
                            V);
  std::string Format =
      Dist.Declared ? Dist.Declared->str() : Dist.Format.spelling();
  std::string Extent = Dist.Extent ? std::to_string(*Dist.Extent)
                                   : "'" + D.Slots[D.Extent].Text + "'";
  Out.Report = location(D.HashLoc) + ": distribute " + Dist.Var.Text + ": " +
               Format + " of " + Extent + " elements onto " + D.Onto.Name;
}

bool CodeGen::action(const ActionInfo &A, GeneratedDirective &Out) {
  const Directive &D = *A.D;
  const bool IsAssign = D.Kind == DirectiveKind::Assign;
  const std::string AlgorithmName = D.Schedule ? *D.Schedule : "auto";
  const redist::Algorithm Algorithm =
      redist::parseAlgorithm(AlgorithmName).value_or(redist::Algorithm::Auto);
  const DistributionInfo &Target = *A.Target;
  const DistributionInfo *Source = IsAssign ? A.Source : &Target;
  const std::optional<int64_t> Extent = Source->Extent;
  const std::string Title =
      IsAssign ? "assign " + A.TargetVar.Text + " = " + A.SourceVar.Text
               : "redistribute " + A.TargetVar.Text;

  // Try the static path: every parameter constant, tables small enough.
  std::string Why = A.NotConstant;
  int64_t ElementBytes =
      IsAssign ? A.SourceVar.ElementBytes : A.TargetVar.ElementBytes;
  if (Why.empty() && ElementBytes == 0)
    Why = "the element type depends on a template parameter";
  std::optional<StaticTables> Tables;
  if (Why.empty()) {
    redist::Layout From(*A.From, *Extent);
    redist::Layout To(*A.To, *Extent);
    StaticPlan Plan =
        planStatically(From, To, Algorithm, ElementBytes, Options.Limits);
    if (!Plan.Error.empty()) {
      Diags.report(D.Schedule ? D.ScheduleLoc : D.KeywordLoc,
                   Diags.ScheduleNotApplicable)
          << AlgorithmName << Plan.Error;
      return false;
    }
    if (Options.ForceDynamic)
      Why = "--dynamic forces the runtime path";
    else if (!Plan.Fallback.empty())
      Why = Plan.Fallback;
    else
      Tables = std::move(Plan.Tables);
  }

  TemplateValues V = commonValues(D);
  V["ALGORITHM"] = AlgorithmName;
  V["SCHEDULE"] = D.Schedule ? " schedule(" + *D.Schedule + ")" : "";
  std::string CommCheck;
  if (IsAssign) {
    V["DST"] = A.TargetVar.Text;
    V["SRC"] = A.SourceVar.Text;
    V["SRC_COMM"] = Source->CommExpr;
    V["DST_COMM"] = Target.CommExpr;
    V["SRC_DIST"] = Source->DistExpr;
    V["DST_DIST"] = Target.DistExpr;
    V["SRC_EXTENT"] = Source->ExtentExpr;
    V["DST_EXTENT"] = Target.ExtentExpr;
  } else {
    V["VAR"] = A.TargetVar.Text;
    V["FORMAT"] = A.Format.spelling();
    V["ONTO"] = A.Onto ? " onto " + D.Onto.Name : "";
    V["FROM_DIST"] = Target.DistExpr;
    V["EXTENT"] = Target.ExtentExpr;
    V["COMM"] = Target.CommExpr;
    if (A.Onto && A.Onto != Target.Onto)
      CommCheck = "  redistc_detail::checkSameComm(" + Target.CommExpr + ", " +
                  A.Onto->CommExpr + ", " + quoted(where(D)) + ");";
    V["COMM_CHECK"] = CommCheck;
    std::string Procs =
        A.Onto ? A.Onto->ExtentExpr : Target.DistExpr + ".procs()";
    V["TO_INIT"] = distributionInit(A.Format, Procs, where(D));
  }

  if (!Tables) {
    V["WHY"] = Why;
    Out.Code =
        renderTemplate(IsAssign ? "assign_dynamic" : "redistribute_dynamic", V);
    Out.Report = location(D.HashLoc) + ": " + Title + ": dynamic (" + Why +
                 "); schedule " + AlgorithmName +
                 ": steps and cost chosen at run time";
    return true;
  }

  // The format's expression is folded into the tables; keep it used.
  V["USES"] = A.Format.ArgText.empty()
                  ? ""
                  : " static_cast<void>(" + argumentExpr(A.Format) + ");";
  V["FROM"] = A.From->str();
  V["TO"] = A.To->str();
  V["EXTENT_VALUE"] = std::to_string(*Extent);
  V["TO_VALUE"] = distributionValue(*A.To);
  V["SCHEDULE_COMMENT"] = scheduleComment(*Tables);
  V["TABLES"] = renderTemplate("static_tables", tableValues(*Tables));
  Out.Code =
      renderTemplate(IsAssign ? "assign_static" : "redistribute_static", V);
  const redist::ScheduleStats &S = Tables->Stats;
  std::string NonEmpty =
      S.NonEmptySteps == S.Steps
          ? ""
          : ", " + std::to_string(S.NonEmptySteps) + " non-empty";
  Out.Report = location(D.HashLoc) + ": " + Title + ": static; schedule " +
               Tables->Algorithm + ": " + counted(S.Steps, "step", "steps") +
               NonEmpty + " (lower bound " + std::to_string(S.StepsLowerBound) +
               "), cost " + std::to_string(S.Cost) + " (lower bound " +
               std::to_string(S.CostLowerBound) + ")";
  return true;
}

} // namespace redistc
