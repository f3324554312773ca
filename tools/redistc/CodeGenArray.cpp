//===- CodeGenArray.cpp - The code of arrays of any rank ------------------===//
//
// An arrangement of rank two or more declares its extents as one vector;
// the distribute of an array of the N-D form (a matrix is its rank-2 case),
// its descriptor: the current redist::ArrayLayout and the communicator. Its
// redistribute, and an assign of such arrays (with sections or a
// permutation; a 1-D array is the rank-1 array of its distribution), are
// static when both layouts and the region are constant:
// redistc computes the schedule with the library's calls the runtime makes
// (planArrayStatically) and emits it as a table of messages between
// processes, which the runtime checks and follows. Otherwise the runtime
// plans them on first use (redist/runtime/TranslatedArray.h) and caches
// the plan; either way the one executor moves the data.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"
#include "CodeGenText.h"
#include "GeneratedNames.h"

#include "redist/ArraySections.h"

#include "clang/AST/Decl.h"

using namespace clang;

namespace redistc {

using namespace codegen;

namespace {

/// C++ of a redist::directive::FormatArg for F (unset: '*').
std::string formatArg(const std::optional<FormatValue> &F) {
  if (!F)
    return "redist::directive::collapsedFormat()";
  const std::string Param = "static_cast<std::int64_t>(" + F->ArgText + ")";
  auto Format = [](const char *Kind, const std::string &P) {
    return std::string("redist::directive::format(redist::DistKind::") + Kind +
           ", " + P + ")";
  };
  switch (F->Kind) {
  case FormatKind::Block:
    return Format("Block", "0");
  case FormatKind::BlockSized:
    return Format("BlockSized", Param);
  case FormatKind::Cyclic:
    return Format("Cyclic", "1");
  case FormatKind::CyclicSized:
    return Format("Cyclic", Param);
  case FormatKind::GenBlock:
    return "redist::directive::genBlockFormat(" + argumentExpr(*F) + ")";
  }
  return "";
}

std::string formatArgs(const std::vector<std::optional<FormatValue>> &Fs) {
  std::string Out;
  for (size_t K = 0; K < Fs.size(); ++K)
    Out += (K ? ", " : "") + formatArg(Fs[K]);
  return Out;
}

/// The arrangement's extents as a std::vector<std::int64_t> expression.
std::string gridOf(const ArrangementInfo &A) {
  const DeclaredNames Names(A);
  if (A.rank() == 1)
    return "std::vector<std::int64_t>{" + Names.use(Declared::Extent) + "}";
  return Names.use(Declared::Grid);
}

/// The current layout of Dist's variable as a redist::ArrayLayout, whatever
/// its form.
std::string arrayLayoutOf(const DistributionInfo &Dist) {
  const DeclaredNames Names(Dist);
  const std::string Current = Names.use(Declared::Distribution);
  if (Dist.isArray())
    return Current;
  return "redist::ArrayLayout::rankOne(" + Current + ", " +
         Names.use(Declared::Extent) + ")";
}

/// "[NX][NY][NZ]" of a distribute.
std::string extentsText(const Directive &D) {
  std::string Out;
  for (int Slot : D.Extents)
    Out += "[" + D.Slots[Slot].Text + "]";
  return Out;
}

/// The C++ ranges of Section ({} for the whole array), and its text.
std::string rangesOf(const Directive &D,
                     const std::vector<SectionSpec> &Section,
                     std::string &Text) {
  std::string Out;
  for (size_t K = 0; K < Section.size(); ++K) {
    const SectionSpec &R = Section[K];
    Out += K ? ", " : "";
    if (R.whole()) {
      Out += "redist::directive::whole()";
      Text += "[:]";
      continue;
    }
    const std::string &B = D.Slots[R.Begin].Text, &E = D.Slots[R.End].Text;
    Out += "redist::directive::range(" + B + ", " + E + ")";
    Text += "[" + B + ":" + E + "]";
  }
  return Out;
}

const char *storageText(redist::StorageOrder O) {
  return O == redist::StorageOrder::RowMajor
             ? "row-major (last index fastest)"
             : "column-major (first index fastest)";
}

} // namespace

void CodeGen::arrayProcessors(const ArrangementInfo &A,
                              GeneratedDirective &Out) {
  const Directive &D = *A.D;
  TemplateValues V = commonValues(D);
  V["NAME"] = D.Arrangement.Name;
  std::string Texts, Shape;
  for (size_t K = 0; K < D.Extents.size(); ++K) {
    const std::string &T = D.Slots[D.Extents[K]].Text;
    Texts += (K ? ", " : "") + T;
    Shape += (K ? " x " : "") +
             (A.Extents[K] ? std::to_string(*A.Extents[K]) : "'" + T + "'");
  }
  V["EXTENTS_TEXT"] = Texts;
  V["SHAPE"] = Shape;
  V["COMM_TEXT"] = D.Comm >= 0 ? D.Slots[D.Comm].Text : "MPI_COMM_WORLD";
  const bool RowMajor = A.order() == redist::GridOrder::RowMajor;
  V["ORDER_TEXT"] = RowMajor ? "row-major" : "column-major";
  std::string Init = "std::vector<std::int64_t>{";
  for (size_t K = 0; K < D.Extents.size(); ++K)
    Init += (K ? ", " : "") + std::string("static_cast<std::int64_t>(") +
            D.Slots[D.Extents[K]].Text + ")";
  V["GRID_INIT"] = Init + "}";
  const DeclaredNames Names(A);
  V["GRID_NAME"] = Names.name(Declared::Grid);
  V["COMM_NAME"] = Names.name(Declared::Comm);
  Out.Code = renderTemplate(A.Where.Scope == ScopeKind::Block
                                ? "array_processors_block"
                                : "array_processors_namespace",
                            V);
  Out.Report = location(D.HashLoc) + ": processors " + D.Arrangement.Name +
               ": a " + Shape + " arrangement, " + V["ORDER_TEXT"];
}

void CodeGen::arrayDistribute(const DistributionInfo &Dist,
                              GeneratedDirective &Out) {
  const Directive &D = *Dist.D;
  TemplateValues V = commonValues(D);
  V["VAR"] = Dist.Var.Text;
  V["EXTENTS"] = extentsText(D);
  V["FORMAT"] = arraySpelling(Dist.Formats);
  V["ARRANGEMENT"] = D.Onto.Name;
  V["STORAGE"] = storageText(Dist.Storage);
  const DeclaredNames Names(Dist);
  const DeclaredNames Onto(*Dist.Onto);
  V["DIST_NAME"] = Names.name(Declared::Distribution);
  V["COMM_NAME"] = Names.name(Declared::Comm);
  V["COMM"] = Onto.use(Declared::Comm);
  std::string Extents;
  for (size_t K = 0; K < D.Extents.size(); ++K)
    Extents += (K ? ", " : "") + std::string("static_cast<std::int64_t>(") +
               D.Slots[D.Extents[K]].Text + ")";
  const std::string Target = "redist::directive::arrayTarget({" + Extents +
                             "}, {" + formatArgs(Dist.Formats) + "}, " +
                             gridOf(*Dist.Onto) + ", " +
                             orderEnumerator(Dist.Onto->order()) + ", " +
                             (Dist.Storage == redist::StorageOrder::RowMajor
                                  ? "redist::StorageOrder::RowMajor"
                                  : "redist::StorageOrder::ColumnMajor") +
                             ")";
  // In a function body the ranks agree on the values (verify(on|off)); at
  // namespace scope there is no communicator yet, so errors are thrown at
  // once.
  const bool InBlock = Dist.Where.Scope == ScopeKind::Block;
  V["LAYOUT_INIT"] = InBlock ? "redist::directive::distributedArray(" + Target +
                                   ", " + V["COMM"] + ", " + quoted(where(D)) +
                                   verification(D) + ")"
                             : "redist::directive::arrayLayout(" + Target +
                                   ", " + quoted(where(D)) + ")";
  Out.Code = renderTemplate(
      InBlock ? "array_distribute_block" : "array_distribute_namespace", V);
  std::string Shape;
  for (size_t K = 0; K < D.Extents.size(); ++K)
    Shape += (K ? " x " : "") + (Dist.Extents[K]
                                     ? std::to_string(*Dist.Extents[K])
                                     : "'" + D.Slots[D.Extents[K]].Text + "'");
  Out.Report =
      location(D.HashLoc) + ": distribute " + Dist.Var.Text + ": (" +
      V["FORMAT"] + ") of " + Shape + " onto " + D.Onto.Name + ", " +
      (Dist.Storage == redist::StorageOrder::RowMajor ? "row-major"
                                                      : "column-major") +
      " storage";
}

void CodeGen::arrayInquire(const InquiryInfo &I, GeneratedDirective &Out) {
  const Directive &D = *I.D;
  TemplateValues V = commonValues(D);
  const DeclaredNames Var(*I.Dist);
  V["VAR"] = I.Var.Text;
  V["NAME"] = D.Into.Name;
  V["DIST"] = Var.use(Declared::Distribution);
  V["COMM"] = Var.use(Declared::Comm);
  Out.Code = renderTemplate("array_inquire", V);
  Out.Report = location(D.HashLoc) + ": inquire " + I.Var.Text + " into " +
               D.Into.Name + ": its layout when control gets here";
}

TemplateValues CodeGen::arrayActionValues(const ActionInfo &A) const {
  const Directive &D = *A.D;
  TemplateValues V = commonValues(D);
  // overlap and overlap_split: the plan's Overlapped mode orders auto's grid
  // at run time.
  V["ALGORITHM"] = D.Overlap ? redist::overlapAlgorithmName(*D.Overlap)
                             : redist::arrayAlgorithmName(arrayAlgorithm(D));
  V["SCHEDULE"] =
      D.Schedule || D.Overlap ? " schedule(" + V["ALGORITHM"] + ")" : "";
  V["VERIFY"] = verification(D);
  V["VERIFY_CLAUSE"] =
      D.Verify ? std::string(" verify(") + (*D.Verify ? "on" : "off") + ")"
               : "";
  const DeclaredNames Target(*A.Target);
  if (!A.isAssign()) {
    V["VAR"] = A.TargetVar.Text;
    V["FORMAT"] = arraySpelling(A.Formats);
    V["FORMATS"] = "{" + formatArgs(A.Formats) + "}";
    V["ONTO"] = A.Onto ? " onto " + D.Onto.Name : "";
    V["FROM_DIST"] = Target.use(Declared::Distribution);
    V["COMM"] = Target.use(Declared::Comm);
    if (A.Onto) {
      V["GRID"] = gridOf(*A.Onto);
      V["ORDER"] = orderEnumerator(A.Onto->order());
    } else {
      V["GRID"] = V["FROM_DIST"] + ".grid()";
      V["ORDER"] = V["FROM_DIST"] + ".order()";
    }
    V["COMM_CHECK"] = A.Onto && A.Onto != A.Target->Onto
                          ? "  redist::directive::checkSameComm(" + V["COMM"] +
                                ", " +
                                DeclaredNames(*A.Onto).use(Declared::Comm) +
                                ", " + quoted(where(D)) + ");"
                          : "";
    return V;
  }
  const DeclaredNames Source(*A.Source);
  V["DST_VAR"] = A.TargetVar.Text;
  V["SRC_VAR"] = A.SourceVar.Text;
  std::string DstText = A.TargetVar.Text, SrcSection;
  const std::string DstRanges = rangesOf(D, D.TargetSection, DstText),
                    SrcRanges = rangesOf(D, D.SourceSection, SrcSection);
  std::string Perm;
  for (size_t K = 0; K < D.Permutation.size(); ++K)
    Perm += (K ? ", " : "") + std::to_string(D.Permutation[K]);
  V["DST"] = DstText;
  V["SRC"] = D.Permutation.empty() ? A.SourceVar.Text + SrcSection
             : D.Transpose         ? "transpose(" + A.SourceVar.Text + ")"
                           : "permute(" + A.SourceVar.Text + ", " + Perm + ")";
  std::string Region;
  if (!D.SourceSection.empty())
    Region += " in " + A.SourceVar.Text + SrcSection;
  if (!D.Permutation.empty())
    Region += ", target axis k taken from source axis (" + Perm + ")[k]";
  if (!D.TargetSection.empty())
    Region += ", into " + DstText;
  V["REGION_TEXT"] = Region;
  V["REGION_INIT"] =
      "{{" + Perm + "}, {" + SrcRanges + "}, {" + DstRanges + "}}";
  V["SRC_LAYOUT"] = arrayLayoutOf(*A.Source);
  V["DST_LAYOUT"] = arrayLayoutOf(*A.Target);
  V["SRC_COMM"] = Source.use(Declared::Comm);
  V["DST_COMM"] = Target.use(Declared::Comm);
  return V;
}

bool CodeGen::arrayPlan(const ActionInfo &A, bool InInstance,
                        std::optional<StaticTables> &Tables, std::string &Why) {
  const Directive &D = *A.D;
  // Static when both layouts and the region are constant: the schedule of
  // the library's calls the runtime would make, as a table it checks.
  Why = A.NotConstant;
  if (Why.empty() && D.Overlap)
    Why = std::string("schedule(") + redist::overlapAlgorithmName(*D.Overlap) +
          ") orders the messages at run time";
  if (Why.empty() && A.movedVar().ElementBytes == 0)
    Why = "the element type depends on a template parameter";
  if (!Why.empty())
    return true;
  const redist::ArrayAlgorithm Algorithm = arrayAlgorithm(D);
  StaticPlan Plan = planArrayStatically(
      *A.FromArray, *A.ToArray, A.Region.value_or(redist::ArrayRegion()),
      Algorithm, A.movedVar().ElementBytes, Options.Limits, Options.Model);
  return takePlan(D, redist::arrayAlgorithmName(Algorithm), InInstance, Plan,
                  Tables, Why);
}

void CodeGen::addArrayStaticValues(const ActionInfo &A,
                                   const StaticTables &Tables,
                                   TemplateValues &V) {
  V["SCHEDULE_COMMENT"] = scheduleComment(Tables);
  V["FROM"] = A.FromArray->str();
  V["TO"] = A.ToArray->str();
  int64_t Elements = 1;
  for (int64_t E : A.FromArray->extents())
    Elements *= E;
  V["EXTENT_VALUE"] = std::to_string(Elements);
  V["FROM_KEY"] = quoted(A.FromArray->str());
  V["TO_KEY"] =
      quoted(A.ToArray->str() +
             redist::regionKey(A.Region.value_or(redist::ArrayRegion())));
  V["MESSAGES"] = processMessageRows(Tables);
  V["STEPS_COUNT"] = std::to_string(Tables.Steps);
  V["MESSAGE_COUNT"] = std::to_string(Tables.Messages.size());
  V["STEP_CALLS"] = stepCalls(Tables, Options.Limits.MaxStepCalls);
  V["ALGORITHM"] = Tables.Algorithm;
}

bool CodeGen::arrayAction(const ActionInfo &A,
                          const std::vector<InstanceAction> &Instances,
                          GeneratedDirective &Out) {
  const Directive &D = *A.D;
  const std::string Kind = A.isAssign() ? "array_assign" : "array_redistribute";
  const std::string Location = location(D.HashLoc) + ": " + title(A) + ": ";
  std::optional<StaticTables> Tables;
  std::string Why;
  if (!arrayPlan(A, /*InInstance=*/false, Tables, Why))
    return false;
  TemplateValues V = arrayActionValues(A);
  if (Tables) {
    addArrayStaticValues(A, *Tables, V);
    V["PATH"] = "static,\n// " + V["FROM"] + " -> " + V["TO"];
    V["BODY"] = renderTemplate(Kind + "_static_body", V);
    Out.Code = renderTemplate(Kind, V);
    Out.Report = Location + processTableReport(*Tables);
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
    V["PATH"] = "dynamic, because\n// " + Why;
    Out.Code = renderTemplate(Kind, V);
    Out.Report = Location + dynamicReport(A, Why);
    return true;
  }
  const auto *Function = dyn_cast<FunctionDecl>(A.Where.Function);
  V["PATH"] = "static in\n// the instantiations of " +
              (Function ? Function->getNameAsString() : "the function") +
              " below, dynamic in any other";
  V["BRANCHES"] = Branches;
  V["BODY"] = renderTemplate(
      "array_instances",
      {{"BRANCHES", Branches}, {"WHY", Why}, {"BODY", indented(V["BODY"])}});
  Out.Code = renderTemplate(Kind, V);
  Out.Report = InstanceReport + location(D.HashLoc) + ": " + title(A) +
               " in other instantiations: " + dynamicReport(A, Why);
  return true;
}

} // namespace redistc
