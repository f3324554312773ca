//===- CodeGenMatrix.cpp - The code of 2-D arrangements and matrices ------===//
//
// A 2-D arrangement declares its two extents and its communicator; a matrix's
// distribute, its descriptor: the current redist::Layout2D and the
// communicator. A redistribute of a matrix is static when both layouts are
// constant: the schedule redistc computes with lib/ (makeSchedule2D, as the
// runtime would) becomes a table of messages between grid processes, which
// the runtime checks and follows; otherwise the runtime plans it. Either
// way the runtime's one executor moves the data, step by step through
// directive::RedistributeSteps as for arrays.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"
#include "CodeGenText.h"
#include "GeneratedNames.h"

#include "redist/Schedulers2D.h"

using namespace clang;

namespace redistc {

using namespace codegen;

namespace {

/// The formats as the directive echoes them: "cyclic(64), block".
std::string formats(const FormatValue &Rows, const FormatValue &Cols) {
  return Rows.spelling() + ", " + Cols.spelling();
}

/// C++ of the constant form of layout L (redist::MatrixConstant), its
/// GEN_BLOCK sizes declared in Decls under names starting with Prefix.
std::string matrixConstant(const redist::Layout2D &L, const std::string &Prefix,
                           std::string &Decls) {
  return "{" +
         distributionConstant(L.rows().distribution(), Prefix + "_row_sizes",
                              Decls) +
         ",\n       " +
         distributionConstant(L.cols().distribution(), Prefix + "_col_sizes",
                              Decls) +
         ",\n       " + std::to_string(L.numRows()) + ", " +
         std::to_string(L.numCols()) + ", " + orderEnumerator(L.order()) + "}";
}

} // namespace

void CodeGen::gridProcessors(const ArrangementInfo &A,
                             GeneratedDirective &Out) {
  const Directive &D = *A.D;
  TemplateValues V = commonValues(D);
  V["NAME"] = D.Arrangement.Name;
  V["ROWS_TEXT"] = D.Slots[D.Extent].Text;
  V["COLS_TEXT"] = D.Slots[D.Extent2].Text;
  V["COMM_TEXT"] = D.Comm >= 0 ? D.Slots[D.Comm].Text : "MPI_COMM_WORLD";
  const bool RowMajor = A.order() == redist::GridOrder::RowMajor;
  V["RANK_OF"] = RowMajor ? "i * " + V["COLS_TEXT"] + " + j (row-major)"
                          : "i + j * " + V["ROWS_TEXT"] + " (column-major)";
  const DeclaredNames Names(A);
  V["ROWS_NAME"] = Names.name(Declared::GridRows);
  V["COLS_NAME"] = Names.name(Declared::GridCols);
  V["COMM_NAME"] = Names.name(Declared::Comm);
  Out.Code = renderTemplate(A.Where.Scope == ScopeKind::Block
                                ? "processors_grid_block"
                                : "processors_grid_namespace",
                            V);
  auto Extent = [&](const std::optional<int64_t> &E, int Slot) {
    return E ? std::to_string(*E) : "'" + D.Slots[Slot].Text + "'";
  };
  Out.Report = location(D.HashLoc) + ": processors " + D.Arrangement.Name +
               ": a " + Extent(A.Extent, D.Extent) + " x " +
               Extent(A.Extent2, D.Extent2) + " grid, " +
               (RowMajor ? "row-major" : "column-major");
}

void CodeGen::matrixDistribute(const DistributionInfo &Dist,
                               GeneratedDirective &Out) {
  const Directive &D = *Dist.D;
  TemplateValues V = commonValues(D);
  V["VAR"] = Dist.Var.Text;
  V["ROWS_TEXT"] = D.Slots[D.Extent].Text;
  V["COLS_TEXT"] = D.Slots[D.Extent2].Text;
  V["FORMAT"] = formats(Dist.Format, Dist.Format2);
  V["ARRANGEMENT"] = D.Onto.Name;
  const DeclaredNames Names(Dist);
  const DeclaredNames Onto(*Dist.Onto);
  V["DIST_NAME"] = Names.name(Declared::Distribution);
  V["COMM_NAME"] = Names.name(Declared::Comm);
  V["COMM"] = Onto.use(Declared::Comm);
  const std::string Where = where(D);
  // In a function body the ranks agree on the values (verify(on|off)); at
  // namespace scope there is no communicator yet, so errors are thrown at
  // once.
  const bool InBlock = Dist.Where.Scope == ScopeKind::Block;
  const std::optional<std::string> ErrorsAtOnce =
      InBlock ? std::nullopt : std::optional<std::string>(Where);
  const std::string Shape =
      distributionInit(Dist.Format, Onto.use(Declared::GridRows),
                       ErrorsAtOnce) +
      ", " +
      distributionInit(Dist.Format2, Onto.use(Declared::GridCols),
                       ErrorsAtOnce) +
      ", static_cast<std::int64_t>(" + V["ROWS_TEXT"] +
      "), static_cast<std::int64_t>(" + V["COLS_TEXT"] + "), " +
      orderEnumerator(Dist.Onto->order());
  V["LAYOUT_INIT"] = InBlock ? "redist::directive::distributedMatrix("
                               "redist::directive::matrixTarget(" +
                                   Shape + "), " + Onto.use(Declared::Comm) +
                                   ", " + quoted(Where) + verification(D) + ")"
                             : "redist::directive::matrix(" + Shape + ", " +
                                   quoted(Where) + ")";
  Out.Code = renderTemplate(Dist.Where.Scope == ScopeKind::Block
                                ? "matrix_distribute_block"
                                : "matrix_distribute_namespace",
                            V);
  Out.Report =
      location(D.HashLoc) + ": distribute " + Dist.Var.Text + ": " +
      (Dist.DeclaredMatrix ? Dist.DeclaredMatrix->str()
                           : "(" + V["FORMAT"] + ") of " + V["ROWS_TEXT"] +
                                 " x " + V["COLS_TEXT"]) +
      " onto " + D.Onto.Name;
}

bool CodeGen::matrixAction(const ActionInfo &A, GeneratedDirective &Out) {
  const Directive &D = *A.D;
  const DeclaredNames Var(*A.Target);
  const redist::Algorithm2D Algorithm = arrayAlgorithm(D);
  TemplateValues V = commonValues(D);
  V["VAR"] = A.TargetVar.Text;
  V["FORMAT"] = formats(A.Format, A.Format2);
  V["ONTO"] = A.Onto ? " onto " + D.Onto.Name : "";
  // overlap and overlap_split: the matrix plan's Overlapped mode orders
  // auto's grid at run time.
  V["ALGORITHM"] = D.Overlap ? redist::overlapAlgorithmName(*D.Overlap)
                             : redist::algorithm2DName(Algorithm);
  V["SCHEDULE"] =
      D.Schedule || D.Overlap ? " schedule(" + V["ALGORITHM"] + ")" : "";
  V["VERIFY"] = verification(D);
  V["VERIFY_CLAUSE"] =
      D.Verify ? std::string(" verify(") + (*D.Verify ? "on" : "off") + ")"
               : "";
  V["FROM_DIST"] = Var.use(Declared::Distribution);
  V["COMM"] = Var.use(Declared::Comm);
  V["COMM_CHECK"] = A.Onto && A.Onto != A.Target->Onto
                        ? "  redist::directive::checkSameComm(" + V["COMM"] +
                              ", " +
                              DeclaredNames(*A.Onto).use(Declared::Comm) +
                              ", " + quoted(where(D)) + ");"
                        : "";
  const std::string Location =
      location(D.HashLoc) + ": redistribute " + A.TargetVar.Text + ": ";

  std::string Why = A.NotConstant;
  if (Why.empty() && D.Overlap)
    Why = "schedule(" + V["ALGORITHM"] +
          ") orders a matrix's messages at run time";
  if (Why.empty() && A.TargetVar.ElementBytes == 0)
    Why = "the element type depends on a template parameter";
  std::optional<StaticTables> Tables;
  if (Why.empty()) {
    StaticPlan Plan = planMatrixStatically(*A.FromMatrix, *A.ToMatrix,
                                           Algorithm, A.TargetVar.ElementBytes,
                                           Options.Limits, Options.Model);
    if (!takePlan(D, V["ALGORITHM"], /*InInstance=*/false, Plan, Tables, Why))
      return false;
  }

  if (Tables) {
    // The static path folds the formats' expressions into the table; keep
    // them used.
    std::string Uses;
    for (const FormatValue *F : {&A.Format, &A.Format2})
      if (!F->ArgText.empty())
        Uses += " static_cast<void>(" + argumentExpr(*F) + ");";
    V["USES"] = Uses;
    V["FROM"] = A.FromMatrix->str();
    V["TO"] = A.ToMatrix->str();
    V["SCHEDULE_COMMENT"] = scheduleComment(*Tables);
    std::string Sizes;
    V["FROM_CONSTANT"] = matrixConstant(*A.FromMatrix, "redistc_from", Sizes);
    V["TO_CONSTANT"] = matrixConstant(*A.ToMatrix, "redistc_to", Sizes);
    V["SIZE_TABLES"] =
        Sizes.empty() ? "" : "  // The gen_block sizes.\n" + Sizes;
    V["MESSAGES"] = processMessageRows(*Tables);
    V["STEPS_COUNT"] = std::to_string(Tables->Steps);
    V["MESSAGE_COUNT"] = std::to_string(Tables->Messages.size());
    V["STEP_CALLS"] = stepCalls(*Tables, Options.Limits.MaxStepCalls);
    V["ALGORITHM"] = Tables->Algorithm;
    Out.Code = renderTemplate("matrix_redistribute_static", V);
    Out.Report = Location + processTableReport(*Tables);
    return true;
  }

  // Without onto, the current grid: its extents and order.
  std::string Rows, Cols;
  if (A.Onto) {
    const DeclaredNames Onto(*A.Onto);
    Rows = Onto.use(Declared::GridRows);
    Cols = Onto.use(Declared::GridCols);
    V["ORDER"] = orderEnumerator(A.Onto->order());
  } else {
    Rows = V["FROM_DIST"] + ".gridRows()";
    Cols = V["FROM_DIST"] + ".gridCols()";
    V["ORDER"] = V["FROM_DIST"] + ".order()";
  }
  V["ROWS_INIT"] = distributionInit(A.Format, Rows, std::nullopt);
  V["COLS_INIT"] = distributionInit(A.Format2, Cols, std::nullopt);
  V["WHY"] = Why;
  Out.Code = renderTemplate("matrix_redistribute_dynamic", V);
  Out.Report = Location + "dynamic (" + Why + "); schedule " + V["ALGORITHM"] +
               ": steps and cost chosen at run time";
  return true;
}

} // namespace redistc
