//===- CodeGen.cpp - The code that replaces each directive ----------------===//

#include "CodeGen.h"
#include "CodeGenText.h"

#include "GeneratedNames.h"
#include "RedistcConfig.h"

#include "redist/ArraySchedulers.h"
#include "redist/Error.h"
#include "redist/Schedulers.h"

#include "clang/AST/Decl.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

using namespace clang;

namespace redistc {

// The helpers CodeGenArray.cpp shares are declared in CodeGenText.h.
namespace codegen {

const char *orderEnumerator(redist::GridOrder O) {
  return O == redist::GridOrder::RowMajor ? "redist::GridOrder::RowMajor"
                                          : "redist::GridOrder::ColumnMajor";
}

redist::ArrayAlgorithm arrayAlgorithm(const Directive &D) {
  const redist::Algorithm Base = D.Schedule.value_or(redist::Algorithm::Auto);
  if (D.ScheduleProduct)
    return {Base, true};
  for (const redist::ArrayAlgorithm &A : redist::allArrayAlgorithms())
    if (A.Base == Base && !A.Product)
      return A;
  return {Base, true};
}

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
  if (F.BracedList)
    return "std::initializer_list<std::int64_t>" + F.ArgText;
  return F.ArgText;
}

/// The enumerator of redist::RingAlgorithm that names A.
const char *ringAlgorithmEnumerator(redist::RingAlgorithm A) {
  switch (A) {
  case redist::RingAlgorithm::Auto:
    return "Auto";
  case redist::RingAlgorithm::UniHomogeneous:
    return "UniHomogeneous";
  case redist::RingAlgorithm::UniHeterogeneous:
    return "UniHeterogeneous";
  case redist::RingAlgorithm::BiHomogeneous:
    return "BiHomogeneous";
  case redist::RingAlgorithm::BiHeterogeneous:
    return "BiHeterogeneous";
  case redist::RingAlgorithm::Exhaustive:
    return "Exhaustive";
  }
  return "Auto";
}

/// C++ that constructs the distribution of format F over Procs processes;
/// its run-time errors name Where. Without Where, a redist::directive::Target
/// instead, whose errors the directive's plan raises on every rank.
std::string distributionInit(const FormatValue &F, const std::string &Procs,
                             const std::optional<std::string> &Where) {
  const std::string Tail = Where ? ", " + quoted(*Where) + ")" : ")";
  auto BlockCyclic = [&](const char *Kind, const std::string &Param) {
    return std::string("redist::directive::") +
           (Where ? "distribution" : "target") + "(redist::DistKind::" + Kind +
           ", " + Procs + ", " + Param + Tail;
  };
  const std::string Param = "static_cast<std::int64_t>(" + F.ArgText + ")";
  switch (F.Kind) {
  case FormatKind::Block:
    return BlockCyclic("Block", "0");
  case FormatKind::BlockSized:
    return BlockCyclic("BlockSized", Param);
  case FormatKind::Cyclic:
    return BlockCyclic("Cyclic", "1");
  case FormatKind::CyclicSized:
    return BlockCyclic("Cyclic", Param);
  case FormatKind::GenBlock:
    return std::string("redist::directive::") +
           (Where ? "genBlock(" : "genBlockTarget(") + argumentExpr(F) + ", " +
           Procs + Tail;
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

/// Code moved one level in: two more spaces on each non-empty line.
std::string indented(const std::string &Code) {
  std::string Out;
  size_t Pos = 0;
  while (Pos < Code.size()) {
    size_t End = Code.find('\n', Pos);
    End = End == std::string::npos ? Code.size() : End + 1;
    llvm::StringRef Line(Code.data() + Pos, End - Pos);
    if (!Line.trim().empty() && !Line.startswith("#"))
      Out += "  ";
    Out += Line.str();
    Pos = End;
  }
  return Out;
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

/// C++ of the constant form of distribution D (redist::DistributionConstant);
/// a GEN_BLOCK's sizes go to the array named SizesName, declared in Decls.
std::string distributionConstant(const redist::Distribution &D,
                                 const std::string &SizesName,
                                 std::string &Decls) {
  std::string Kind, Param = "0", Sizes = "nullptr";
  switch (D.kind()) {
  case redist::DistKind::Block:
    Kind = "Block";
    break;
  case redist::DistKind::BlockSized:
    Kind = "BlockSized";
    Param = std::to_string(D.param());
    break;
  case redist::DistKind::Cyclic:
    Kind = "Cyclic";
    Param = std::to_string(D.param());
    break;
  case redist::DistKind::GenBlock:
    Kind = "GenBlock";
    Sizes = SizesName;
    Decls += "  static constexpr std::int64_t " + SizesName + "[] = {" +
             joined(D.sizes()) + "};\n";
    break;
  }
  return "{redist::DistKind::" + Kind + ", " + std::to_string(D.procs()) +
         ", " + Param + ", " + Sizes + "}";
}

/// The rows of the constant tables, for static_tables.tpl: the messages
/// under a comment per step, the run series several to a line.
void addTableValues(const StaticTables &T, TemplateValues &V) {
  std::string Messages;
  int64_t Step = -1;
  for (const TableMessage &M : T.Messages) {
    if (M.Step != Step) {
      Step = M.Step;
      Messages += "      // step " + std::to_string(Step) + "\n";
    }
    Messages +=
        "      {" +
        joined({M.Step, M.Src, M.Dst, M.Elements, M.First, M.SliceSeries,
                M.Repeat, M.SrcStride, M.DstStride, M.TailSeries}) +
        "},\n";
  }
  // A placeholder row keeps an empty table valid C++.
  if (T.Messages.empty())
    Messages = "      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},\n";
  V["MESSAGES"] = Messages;
  std::string Series;
  constexpr size_t PerLine = 3;
  for (size_t I = 0; I < T.Series.size(); ++I) {
    const redist::RunSeries &R = T.Series[I];
    Series += (I % PerLine == 0 ? "      " : " ") + std::string("{") +
              joined({R.SrcOffset, R.DstOffset, R.Length, R.SrcStep, R.DstStep,
                      R.Count}) +
              "},";
    if (I % PerLine == PerLine - 1 || I + 1 == T.Series.size())
      Series += "\n";
  }
  if (T.Series.empty())
    Series = "      {0, 0, 0, 0, 0, 0},\n";
  V["SERIES"] = Series;
  V["STEPS_COUNT"] = std::to_string(T.Steps);
  V["MESSAGE_COUNT"] = std::to_string(T.Messages.size());
  V["EVENT_COUNT"] = std::to_string(T.Events.size());
  if (T.Events.empty()) {
    V["EVENT_TABLE"] = "";
    V["EVENTS"] = "nullptr";
    return;
  }
  std::string Events = "  // The events, by start: message (row above), "
                       "start, elements.\n"
                       "  static constexpr redist::TranslatedEvent "
                       "redistc_events[] = {\n";
  for (const TableEvent &E : T.Events)
    Events += "      {" + joined({E.Msg, E.Start, E.Len}) + "},\n";
  V["EVENT_TABLE"] = Events + "  };\n";
  V["EVENTS"] = "redistc_events";
}

/// What one step call's comment says of its messages: each with its peers
/// when they are few, else how many and how long.
std::string stepSummary(const std::vector<const TableMessage *> &Step) {
  if (Step.empty())
    return "no message";
  int64_t Shortest = INT64_MAX, Longest = 0;
  for (const TableMessage *M : Step) {
    Shortest = std::min(Shortest, M->Elements);
    Longest = std::max(Longest, M->Elements);
  }
  const std::string Length = Shortest == Longest
                                 ? counted(Longest, "element", "elements")
                                 : std::to_string(Shortest) + " to " +
                                       std::to_string(Longest) + " elements";
  constexpr size_t MaxListed = 4;
  if (Step.size() > MaxListed)
    return std::to_string(Step.size()) + " messages of " + Length;
  std::string Peers;
  for (const TableMessage *M : Step)
    Peers += (Peers.empty() ? "" : ", ") + std::to_string(M->Src) + "->" +
             std::to_string(M->Dst);
  return Peers + ": " + Length +
         (Step.size() > 1 && Shortest == Longest ? " each" : "");
}

/// The step calls of a static directive: one per step, each with a comment
/// on its messages, or a loop over the step numbers beyond MaxCalls steps.
std::string stepCalls(const StaticTables &T, int64_t MaxCalls) {
  if (T.Steps > MaxCalls)
    return "  // " + counted(T.Steps, "step", "steps") +
           ", listed in the message table above.\n"
           "  for (std::int64_t redistc_step = 0; redistc_step < " +
           std::to_string(T.Steps) +
           "; ++redistc_step)\n"
           "    redistc_steps.step(redistc_step);";
  std::vector<std::vector<const TableMessage *>> Steps(
      static_cast<size_t>(T.Steps));
  for (const TableMessage &M : T.Messages)
    Steps[static_cast<size_t>(M.Step)].push_back(&M);
  std::string Calls;
  for (size_t K = 0; K < Steps.size(); ++K)
    Calls += (K == 0 ? "" : "\n") + std::string("  redistc_steps.step(") +
             std::to_string(K) + "); // " + stepSummary(Steps[K]);
  return Calls;
}

/// Why a directive that could be static is not, under --dynamic.
constexpr const char *ForcedDynamic = "--dynamic forces the runtime path";

/// ", K non-empty" when some of the schedule's steps are empty.
std::string nonEmptySteps(const redist::ScheduleStats &S) {
  return S.NonEmptySteps == S.Steps
             ? ""
             : ", " + std::to_string(S.NonEmptySteps) + " non-empty";
}

/// The schedule comment: algorithm, steps, cost and bounds; or for an
/// overlapped schedule its makespan, bound and splits.
std::string scheduleComment(const StaticTables &T) {
  TemplateValues V;
  if (T.Overlap) {
    V["ALGORITHM"] = T.Algorithm;
    V["MAKESPAN"] = counted(T.Overlap->Makespan, "element", "elements");
    V["MAKESPAN_LOWER_BOUND"] = std::to_string(T.Overlap->MakespanBound);
    V["EVENTS"] = counted(T.Overlap->Events, "event", "events");
    V["SPLIT"] =
        counted(T.Overlap->SplitMessages, "split message", "split messages");
    return renderTemplate("overlap_comment", V);
  }
  V["ALGORITHM"] = T.Algorithm;
  V["STEPS"] = counted(T.Stats.Steps, "step", "steps");
  V["NON_EMPTY"] = nonEmptySteps(T.Stats);
  V["STEPS_LOWER_BOUND"] = std::to_string(T.Stats.StepsLowerBound);
  V["COST"] = counted(T.Stats.Cost, "element", "elements");
  V["COST_LOWER_BOUND"] = std::to_string(T.Stats.CostLowerBound);
  return renderTemplate("schedule_comment", V);
}

std::string processMessageRows(const StaticTables &T) {
  std::string Rows;
  int64_t Step = -1;
  for (const TableMessage &M : T.Messages) {
    if (M.Step != Step) {
      Step = M.Step;
      Rows += "      // step " + std::to_string(Step) + "\n";
    }
    Rows += "      {" + std::to_string(M.Step) + ", " + std::to_string(M.Src) +
            ", " + std::to_string(M.Dst) + ", " + std::to_string(M.Elements) +
            "},\n";
  }
  // A placeholder row keeps an empty table valid C++.
  if (T.Messages.empty())
    Rows = "      {0, 0, 0, 0},\n";
  return Rows;
}

std::string processTableReport(const StaticTables &T) {
  const redist::ScheduleStats &S = T.Stats;
  return "static; schedule " + T.Algorithm + ": " +
         counted(S.Steps, "step", "steps") + " (lower bound " +
         std::to_string(S.StepsLowerBound) + "), cost " +
         std::to_string(S.Cost) + " (lower bound " +
         std::to_string(S.CostLowerBound) + "); a table of " +
         counted(static_cast<int64_t>(T.Messages.size()), "message",
                 "messages");
}

} // namespace codegen

using namespace codegen;

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
    if (AD.Arrangement->rank() > 1)
      arrayProcessors(*AD.Arrangement, Out);
    else
      processors(*AD.Arrangement, Out);
    return true;
  }
  if (AD.Distribution) {
    if (AD.Distribution->isArray())
      arrayDistribute(*AD.Distribution, Out);
    else
      distribute(*AD.Distribution, Out);
    return true;
  }
  if (AD.Action && AD.Action->ArrayPath)
    return arrayAction(*AD.Action, AD.Instances, Out);
  if (AD.Rebalance) {
    rebalance(*AD.Rebalance, Out);
    return true;
  }
  if (AD.Inquiry && AD.Inquiry->Dist->isArray()) {
    arrayInquire(*AD.Inquiry, Out);
    return true;
  }
  if (AD.Inquiry) {
    inquire(*AD.Inquiry, Out);
    return true;
  }
  return action(*AD.Action, AD.Instances, Out);
}

void CodeGen::rebalance(const RebalanceInfo &R, GeneratedDirective &Out) {
  const Directive &D = *R.D;
  TemplateValues V = commonValues(D);
  V["VAR"] = R.Var.Text;
  V["COUNT"] = D.Slots[D.Count].Text;
  V["ARRANGEMENT"] = D.Onto.Name;
  V["COMM"] = DeclaredNames(*R.Onto).use(Declared::Comm);
  V["DIRECTION"] = D.Bidirectional ? "bidirectional" : "unidirectional";
  V["BIDIRECTIONAL"] = D.Bidirectional ? "true" : "false";
  const redist::RingAlgorithm Algorithm =
      D.RingSchedule.value_or(redist::RingAlgorithm::Auto);
  V["ALGORITHM"] = ringAlgorithmEnumerator(Algorithm);
  std::string Clauses, Costs;
  if (D.RingSchedule)
    Clauses += " schedule(" + ringAlgorithmSpelling(Algorithm) + ")";
  for (const auto &[Spec, Clause, Field] :
       {std::make_tuple(&D.Costs, "costs", "CostFwd"),
        std::make_tuple(&D.BackCosts, "back_costs", "CostBwd")}) {
    if (!Spec->present())
      continue;
    const std::string &Text = D.Slots[Spec->Arg].Text;
    Clauses += " " + std::string(Clause) + "(" + Text + ")";
    // A braced list deduces nothing: make it an initializer_list.
    const std::string Arg =
        Spec->BracedList ? "std::initializer_list<double>" + Text : Text;
    Costs += " redistc_ring." + std::string(Field) +
             " = redist::directive::ringCosts(" + Arg + ", " + quoted(Clause) +
             ", " + quoted(where(D)) + ");";
  }
  V["CLAUSES"] = Clauses;
  V["COSTS"] = Costs;
  Out.Code = renderTemplate("rebalance", V);
  Out.Report = location(D.HashLoc) + ": rebalance " + R.Var.Text +
               ": dynamic, a call to redist::rebalanceRing on a " +
               V["DIRECTION"] + " ring, schedule " +
               ringAlgorithmSpelling(Algorithm) + ", " +
               (D.Costs.present() ? "given" : "measured") +
               " link costs (the counts are known at run time)";
}

void CodeGen::processors(const ArrangementInfo &A, GeneratedDirective &Out) {
  const Directive &D = *A.D;
  TemplateValues V = commonValues(D);
  V["NAME"] = D.Arrangement.Name;
  V["EXTENT_TEXT"] = D.Slots[D.Extent].Text;
  V["COMM_TEXT"] = D.Comm >= 0 ? D.Slots[D.Comm].Text : "MPI_COMM_WORLD";
  const DeclaredNames Names(A);
  V["EXTENT_NAME"] = Names.name(Declared::Extent);
  V["COMM_NAME"] = Names.name(Declared::Comm);
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
  const DeclaredNames Names(Dist);
  const DeclaredNames Onto(*Dist.Onto);
  V["DIST_NAME"] = Names.name(Declared::Distribution);
  V["EXTENT_NAME"] = Names.name(Declared::Extent);
  V["COMM_NAME"] = Names.name(Declared::Comm);
  V["DIST_INIT"] =
      Dist.Where.Scope == ScopeKind::Block
          ? checkedDistribution(Dist, V["EXTENT_NAME"], V["COMM_NAME"])
          : distributionInit(Dist.Format, Onto.use(Declared::Extent), where(D));
  V["COMM"] = Onto.use(Declared::Comm);
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

// A distribute in a function body: its distribution, which the ranks of
// its communicator agree on when the directive runs (verify(on|off)).
std::string CodeGen::checkedDistribution(const DistributionInfo &Dist,
                                         const std::string &Extent,
                                         const std::string &Comm) const {
  const Directive &D = *Dist.D;
  const DeclaredNames Onto(*Dist.Onto);
  return "redist::directive::distributed(" +
         distributionInit(Dist.Format, Onto.use(Declared::Extent),
                          std::nullopt) +
         ", " + Extent + ", " + Comm + ", " + quoted(where(D)) +
         verification(D) + ")";
}

void CodeGen::inquire(const InquiryInfo &I, GeneratedDirective &Out) {
  const Directive &D = *I.D;
  TemplateValues V = commonValues(D);
  const DeclaredNames Var(*I.Dist);
  V["VAR"] = I.Var.Text;
  V["NAME"] = D.Into.Name;
  V["DIST"] = Var.use(Declared::Distribution);
  V["EXTENT"] = Var.use(Declared::Extent);
  V["COMM"] = Var.use(Declared::Comm);
  Out.Code = renderTemplate("inquire", V);
  Out.Report = location(D.HashLoc) + ": inquire " + I.Var.Text + " into " +
               D.Into.Name + ": its distribution when control gets here";
}

std::string CodeGen::algorithmName(const Directive &D) {
  if (D.Overlap)
    return redist::overlapAlgorithmName(*D.Overlap);
  return redist::algorithmName(D.Schedule.value_or(redist::Algorithm::Auto));
}

std::string CodeGen::title(const ActionInfo &A) {
  return A.D->Kind == DirectiveKind::Assign
             ? "assign " + A.TargetVar.Text + " = " + A.SourceVar.Text
             : "redistribute " + A.TargetVar.Text;
}

// The last argument of the plan call: none where the program's
// directiveOptions() decide, else the clause's or --verify's setting.
std::string CodeGen::verification(const Directive &D) const {
  std::optional<bool> Verify = D.Verify ? D.Verify : Options.Verify;
  if (!Verify)
    return "";
  return *Verify ? ", redist::Verification::On" : ", redist::Verification::Off";
}

bool CodeGen::plan(const ActionInfo &A, bool InInstance,
                   std::optional<StaticTables> &Tables, std::string &Why) {
  const Directive &D = *A.D;
  Why = A.NotConstant;
  const int64_t ElementBytes = A.movedVar().ElementBytes;
  if (Why.empty() && ElementBytes == 0)
    Why = "the element type depends on a template parameter";
  if (!Why.empty())
    return true;
  const std::optional<int64_t> Extent = A.moved().Extent;
  redist::Layout From(*A.From, *Extent);
  redist::Layout To(*A.To, *Extent);
  StaticPlan Plan =
      planStatically(From, To,
                     {D.Schedule.value_or(redist::Algorithm::Auto), D.Overlap,
                      D.OverlapEffort, /*Search=*/!Options.ForceDynamic},
                     ElementBytes, Options.Limits, Options.Model);
  return takePlan(D, algorithmName(D), InInstance, Plan, Tables, Why);
}

bool CodeGen::takePlan(const Directive &D, const std::string &Algorithm,
                       bool InInstance, StaticPlan &Plan,
                       std::optional<StaticTables> &Tables, std::string &Why) {
  if (!Plan.Beyond.empty()) {
    if (InInstance) {
      Why = "it cannot be planned: " + Plan.Beyond;
      return true;
    }
    Diags.report(D.KeywordLoc, Diags.BeyondLibrary) << Plan.Beyond;
    return false;
  }
  if (!Plan.Error.empty()) {
    // An instantiation keeps the runtime path, which checks it if it runs.
    if (InInstance) {
      Why = "schedule(" + Algorithm + ") does not apply: " + Plan.Error;
      return true;
    }
    Diags.report(D.Schedule || D.Overlap ? D.ScheduleLoc : D.KeywordLoc,
                 Diags.ScheduleNotApplicable)
        << Algorithm << Plan.Error;
    return false;
  }
  if (Options.ForceDynamic)
    Why = ForcedDynamic;
  else if (!Plan.Fallback.empty())
    Why = Plan.Fallback;
  else
    Tables = std::move(Plan.Tables);
  return true;
}

TemplateValues CodeGen::actionValues(const ActionInfo &A) const {
  const Directive &D = *A.D;
  const DeclaredNames Target(*A.Target);
  TemplateValues V = commonValues(D);
  V["ALGORITHM"] = algorithmName(D);
  // The echoed clause names the algorithm as the library does.
  const std::string Effort =
      D.OverlapEffort != 1 ? std::to_string(D.OverlapEffort) : "";
  V["SCHEDULE"] = D.Schedule || D.Overlap
                      ? " schedule(" + algorithmName(D) +
                            (Effort.empty() ? "" : ", effort(" + Effort + ")") +
                            ")"
                      : "";
  V["VERIFY"] = verification(D);
  // The dynamic plan's search effort, after its verification argument.
  V["EFFORT"] = Effort.empty() ? ""
                : V["VERIFY"].empty()
                    ? ", redist::Verification::Default, " + Effort
                    : ", " + Effort;
  V["VERIFY_CLAUSE"] =
      D.Verify ? std::string(" verify(") + (*D.Verify ? "on" : "off") + ")"
               : "";
  if (D.Kind == DirectiveKind::Assign) {
    const DeclaredNames Source(*A.Source);
    V["DST"] = A.TargetVar.Text;
    V["SRC"] = A.SourceVar.Text;
    V["SRC_COMM"] = Source.use(Declared::Comm);
    V["DST_COMM"] = Target.use(Declared::Comm);
    V["SRC_DIST"] = Source.use(Declared::Distribution);
    V["DST_DIST"] = Target.use(Declared::Distribution);
    V["SRC_EXTENT"] = Source.use(Declared::Extent);
    V["DST_EXTENT"] = Target.use(Declared::Extent);
    V["USES"] = "";
    return V;
  }
  V["VAR"] = A.TargetVar.Text;
  V["FORMAT"] = A.Format.spelling();
  V["ONTO"] = A.Onto ? " onto " + D.Onto.Name : "";
  V["FROM_DIST"] = Target.use(Declared::Distribution);
  V["EXTENT"] = Target.use(Declared::Extent);
  V["COMM"] = Target.use(Declared::Comm);
  V["COMM_CHECK"] = A.Onto && A.Onto != A.Target->Onto
                        ? "  redist::directive::checkSameComm(" +
                              Target.use(Declared::Comm) + ", " +
                              DeclaredNames(*A.Onto).use(Declared::Comm) +
                              ", " + quoted(where(D)) + ");"
                        : "";
  std::string Procs = A.Onto ? DeclaredNames(*A.Onto).use(Declared::Extent)
                             : Target.use(Declared::Distribution) + ".procs()";
  V["TO_INIT"] = distributionInit(A.Format, Procs, std::nullopt);
  // The static path folds the format's expression into its tables; keep it
  // used.
  V["USES"] = A.Format.ArgText.empty()
                  ? ""
                  : " static_cast<void>(" + argumentExpr(A.Format) + ");";
  return V;
}

void CodeGen::addStaticValues(const ActionInfo &A, const StaticTables &Tables,
                              TemplateValues &V) const {
  V["FROM"] = A.From->str();
  V["TO"] = A.To->str();
  V["EXTENT_VALUE"] = std::to_string(*A.moved().Extent);
  V["TO_VALUE"] = distributionValue(*A.To);
  V["SCHEDULE_COMMENT"] = scheduleComment(Tables);
  std::string Sizes;
  TemplateValues TV = V;
  TV["ALGORITHM"] = Tables.Algorithm;
  TV["FROM_CONSTANT"] =
      distributionConstant(*A.From, "redistc_from_sizes", Sizes);
  TV["TO_CONSTANT"] = distributionConstant(*A.To, "redistc_to_sizes", Sizes);
  TV["SIZE_TABLES"] =
      Sizes.empty() ? "" : "  // The gen_block sizes.\n" + Sizes;
  addTableValues(Tables, TV);
  V["TABLES"] = renderTemplate("static_tables", TV);
  V["STEP_CALLS"] = Tables.Overlap
                        ? "  redistc_steps.all(); // every event, in order"
                        : stepCalls(Tables, Options.Limits.MaxStepCalls);
  V["MOVES"] = Tables.Overlap ? "event by event" : "step by step";
}

std::string CodeGen::staticReport(const StaticTables &Tables) {
  const redist::ScheduleStats &S = Tables.Stats;
  if (Tables.Overlap)
    return "static; overlapped schedule " + Tables.Algorithm + ": makespan " +
           std::to_string(Tables.Overlap->Makespan) + " (lower bound " +
           std::to_string(Tables.Overlap->MakespanBound) + "), " +
           counted(Tables.Overlap->Events, "event", "events") + ", " +
           counted(Tables.Overlap->SplitMessages, "split message",
                   "split messages") +
           "; tables of " +
           counted(static_cast<int64_t>(Tables.Messages.size()), "message",
                   "messages") +
           " and " +
           counted(static_cast<int64_t>(Tables.Series.size()), "run series",
                   "run series");
  return "static; schedule " + Tables.Algorithm + ": " +
         counted(S.Steps, "step", "steps") + nonEmptySteps(S) +
         " (lower bound " + std::to_string(S.StepsLowerBound) + "), cost " +
         std::to_string(S.Cost) + " (lower bound " +
         std::to_string(S.CostLowerBound) + "); tables of " +
         counted(static_cast<int64_t>(Tables.Messages.size()), "message",
                 "messages") +
         " and " +
         counted(static_cast<int64_t>(Tables.Series.size()), "run series",
                 "run series");
}

std::string CodeGen::dynamicReport(const ActionInfo &A,
                                   const std::string &Why) {
  const Directive &D = *A.D;
  const std::string Algorithm =
      !A.ArrayPath || D.Overlap ? algorithmName(D)
                                : redist::arrayAlgorithmName(arrayAlgorithm(D));
  return "dynamic (" + Why + "); schedule " + Algorithm +
         ": steps and cost chosen at run time";
}

std::string
CodeGen::instanceBranches(const ActionInfo &A,
                          const std::vector<InstanceAction> &Instances,
                          const std::string &StaticBody, std::string &Report) {
  std::string Branches;
  for (const InstanceAction &I : Instances) {
    const std::string Prefix =
        location(A.D->HashLoc) + ": " + title(A) + " in " + I.Name + ": ";
    if (!I.Action) {
      Report += Prefix + dynamicReport(A, I.Why) + "\n";
      continue;
    }
    const ActionInfo &IA = *I.Action;
    std::optional<StaticTables> Tables;
    std::string Why;
    if (IA.ArrayPath)
      arrayPlan(IA, /*InInstance=*/true, Tables, Why);
    else
      plan(IA, /*InInstance=*/true, Tables, Why);
    if (!Tables) {
      Report += Prefix + dynamicReport(IA, Why) + "\n";
      continue;
    }
    TemplateValues V;
    if (IA.ArrayPath) {
      Report += Prefix + processTableReport(*Tables) + "\n";
      V = arrayActionValues(IA);
      addArrayStaticValues(IA, *Tables, V);
    } else {
      Report += Prefix + staticReport(*Tables) + "\n";
      V = actionValues(IA);
      addStaticValues(IA, *Tables, V);
    }
    TemplateValues Branch = V;
    Branch["ELSE"] = Branches.empty() ? "" : "} else ";
    Branch["CONDITION"] = I.Condition;
    Branch["INSTANCE"] = I.Name;
    Branch["BODY"] = indented(renderTemplate(StaticBody, V));
    Branches += renderTemplate("instance_branch", Branch);
  }
  return Branches;
}

bool CodeGen::action(const ActionInfo &A,
                     const std::vector<InstanceAction> &Instances,
                     GeneratedDirective &Out) {
  const Directive &D = *A.D;
  const std::string Kind =
      D.Kind == DirectiveKind::Assign ? "assign" : "redistribute";
  const std::string Location = location(D.HashLoc) + ": ";
  std::optional<StaticTables> Tables;
  std::string Why;
  if (!plan(A, /*InInstance=*/false, Tables, Why))
    return false;
  // Under --dynamic, a directive in a function template whose
  // instantiations would have been static is dynamic because of --dynamic,
  // not because of the template's parameters.
  if (Options.ForceDynamic)
    for (const InstanceAction &I : Instances) {
      std::optional<StaticTables> InstanceTables;
      std::string InstanceWhy;
      if (I.Action &&
          plan(*I.Action, /*InInstance=*/true, InstanceTables, InstanceWhy) &&
          InstanceWhy == ForcedDynamic) {
        Why = ForcedDynamic;
        break;
      }
    }
  TemplateValues V = actionValues(A);
  if (Tables) {
    addStaticValues(A, *Tables, V);
    V["BODY"] = renderTemplate(Kind + "_static_body", V);
    Out.Code = renderTemplate(Kind + "_static", V);
    Out.Report = Location + title(A) + ": " + staticReport(*Tables);
    return true;
  }
  V["WHY"] = Why;
  V["BODY"] = renderTemplate(Kind + "_dynamic_body", V);

  // In a function template: static code for each instantiation where every
  // parameter is constant, chosen at compile time, else the runtime.
  std::string InstanceReport;
  const std::string Branches =
      Options.ForceDynamic
          ? ""
          : instanceBranches(A, Instances, Kind + "_static_body",
                             InstanceReport);
  if (Branches.empty()) {
    Out.Code = renderTemplate(Kind + "_dynamic", V);
    Out.Report = Location + title(A) + ": " + dynamicReport(A, Why);
    return true;
  }
  const auto *Function = dyn_cast<FunctionDecl>(A.Where.Function);
  V["FUNCTION"] = Function ? Function->getNameAsString() : "the function";
  V["BRANCHES"] = Branches;
  V["BODY"] = indented(V["BODY"]);
  Out.Code = renderTemplate(Kind + "_instances", V);
  Out.Report = InstanceReport + Location + title(A) +
               " in other instantiations: " + dynamicReport(A, Why);
  return true;
}

} // namespace redistc
