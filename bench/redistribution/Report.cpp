//===- Report.cpp - How redist-bench prints what it measured --------------===//

#include "Report.h"

#include "Measure.h"
#include "NodeReads.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace redist {
namespace bench {
namespace {

double gigabytesPerSecond(int64_t Bytes, double Seconds) {
  return Seconds > 0 ? static_cast<double>(Bytes) / Seconds / 1e9 : 0;
}

json::Array sizesArray(const IndexMap &M) {
  json::Array Sizes;
  for (int64_t Size : M.Sizes)
    Sizes.push_back(Size);
  return Sizes;
}

// "cyclic(3) over 4", or "gen_block(12,20,15) over 3".
std::string layoutText(const IndexMap &M) {
  std::string Text;
  if (M.isGenBlock()) {
    Text = "gen_block(";
    for (size_t I = 0; I < M.Sizes.size(); ++I)
      Text += (I ? "," : "") + std::to_string(M.Sizes[I]);
    Text += ")";
  } else {
    Text = "cyclic(" + std::to_string(M.Block) + ")";
  }
  return Text + " over " + std::to_string(M.Procs);
}

/// Time over Reference, 0 without a reference time.
double ratio(double Time, double Reference) {
  return Reference > 0 ? Time / Reference : 0;
}

} // namespace

void printJson(const Result &R, const Problem &Pb, const ReferenceTimes &Refs) {
  double Median = median(R.Times);
  const double Memcpy = median(Refs.Memcpy), Limit = median(Refs.Limit);
  json::Object Obj{
      {"method", R.Method},
      {"algorithm", R.Algorithm},
      {"P", Pb.From.Procs},
      {"Q", Pb.To.Procs},
      {"N", Pb.From.N},
      {"ranks", Pb.Ranks},
      {"median_s", Median},
      {"min_s", minimum(R.Times)},
      {"gbps", gigabytesPerSecond(Pb.From.N * 8, Median)},
      {"memcpy_s", Memcpy},
      {"limit_s", Limit},
      {"x_memcpy", ratio(Median, Memcpy)},
      {"x_limit", ratio(Median, Limit)},
      {"verified", R.Checked && R.Correct},
  };
  if (R.NodeWrites)
    Obj["node_writes"] = *R.NodeWrites;
  if (Pb.From.isGenBlock())
    Obj["source"] = sizesArray(Pb.From);
  else
    Obj["r"] = Pb.From.Block;
  if (Pb.To.isGenBlock())
    Obj["target"] = sizesArray(Pb.To);
  else
    Obj["s"] = Pb.To.Block;
  outs() << formatv("{0}", json::Value(std::move(Obj))) << "\n";
  outs().flush();
}

void printHeader(const Problem &Pb, const ReferenceTimes &Refs, int Reps,
                 bool NodeShared) {
  const std::vector<double> &MemcpyTimes = Refs.Memcpy;
  int64_t Bytes = Pb.From.N * 8;
  outs() << "redist-bench: " << layoutText(Pb.From) << " -> "
         << layoutText(Pb.To) << ", N = " << Pb.From.N << " doubles ("
         << format("%.2f", Bytes / 1e6) << " MB), " << Pb.Ranks << " ranks, "
         << Reps << " reps\n";
  outs() << format("memcpy (one core): median %.3f ms, min %.3f ms, "
                   "%.2f GB/s\n",
                   median(MemcpyTimes) * 1e3, minimum(MemcpyTimes) * 1e3,
                   gigabytesPerSecond(Bytes, median(MemcpyTimes)));
  outs() << format("copy limit (all ranks at once): median %.3f ms, min %.3f "
                   "ms, %.2f x memcpy\n",
                   median(Refs.Limit) * 1e3, minimum(Refs.Limit) * 1e3,
                   ratio(median(Refs.Limit), median(MemcpyTimes)));
  outs() << nodeMemoryNote(NodeShared) << "\n";
  outs() << "method           algorithm       plan_ms  median_ms    min_ms"
            "    GB/s  x_memcpy  x_limit  verified  node_writes\n";
  outs().flush();
}

void printRow(const Result &R, const Problem &Pb, const ReferenceTimes &Refs) {
  double Median = median(R.Times);
  auto Ratio = [&](const std::vector<double> &Reference) -> std::string {
    const double Ref = median(Reference);
    return Ref > 0 ? formatv("{0:f2}", Median / Ref).str() : "-";
  };
  const std::string Writes =
      R.NodeWrites ? std::to_string(*R.NodeWrites) : std::string("-");
  outs() << format(
      "%-17s%-13s%10.3f%11.3f%10.3f%8.2f%10s%9s  %-8s%13s\n", R.Method.c_str(),
      R.Algorithm.c_str(), R.PlanSeconds * 1e3, Median * 1e3,
      minimum(R.Times) * 1e3, gigabytesPerSecond(Pb.From.N * 8, Median),
      Ratio(Refs.Memcpy).c_str(), Ratio(Refs.Limit).c_str(),
      R.Checked ? (R.Correct ? "yes" : "NO") : "-", Writes.c_str());
  outs().flush();
}

} // namespace bench
} // namespace redist
