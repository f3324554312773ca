//===- redist/CostModel.h - Predicted time of a schedule, and its file ----===//
//
// auto picks the schedule this model predicts fastest. It extends the affine
// model of desprez-1998 §4.3.1 (alpha per step, beta per element of the
// schedule's cost) with gamma, a start-up per message, counted along the
// schedule's critical path (ScheduleStats::CriticalMessages):
//
//   alpha * non-empty steps + gamma * critical messages + beta * cost
//
// alpha is what a step costs beyond its own messages (the wait for the
// partners a step boundary imposes); gamma is what one point-to-point
// message costs to start (posting, matching, the wire's latency); beta is
// the time per byte. redist-calibrate measures the three on a machine and
// writes them into a model file, a flat JSON object:
//
//   {"format": "redist-model/1", "alpha_s": 3e-06,
//    "beta_s_per_byte": 4e-10, "gamma_s": 2e-06,
//    "measured_on": {"ranks": 4, "nodes": 1, ...}}
//
// The three constants are required, finite and non-negative; "measured_on"
// is optional and holds strings and numbers only (it documents where the
// constants come from). Any other member is an error, so that a misspelt
// constant never falls back to a default silently. Every reader of model
// files (the runtime, redist-plan, redistc) uses readCostModelFile, so that
// all accept and reject the same files.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_COSTMODEL_H
#define REDIST_COSTMODEL_H

#include "redist/Schedule.h"

#include <optional>
#include <string>
#include <string_view>

namespace redist {

/// The defaults are rough figures for a commodity MPI on one node: a step
/// and a message start-up of 3 and 2 microseconds (together the 5 of the
/// two-term model, so that the two agree wherever a message of every step
/// lies on the critical path), and 2.5 GB/s.
struct CostModel {
  double Alpha = 3e-6;            ///< seconds per non-empty step
  double BetaPerByte = 1 / 2.5e9; ///< seconds per byte
  double Gamma = 2e-6;            ///< seconds per critical message
  double ElementBytes = 8;        ///< bytes per element of the cost
  /// Seconds per element.
  double beta() const { return BetaPerByte * ElementBytes; }
  double predict(const ScheduleStats &S) const {
    return Alpha * static_cast<double>(S.NonEmptySteps) +
           Gamma * static_cast<double>(S.CriticalMessages) +
           beta() * static_cast<double>(S.Cost);
  }
  bool operator==(const CostModel &O) const {
    return Alpha == O.Alpha && BetaPerByte == O.BetaPerByte &&
           Gamma == O.Gamma && ElementBytes == O.ElementBytes;
  }
  bool operator!=(const CostModel &O) const { return !(*this == O); }
};

/// The "format" member of a model file.
constexpr const char *CostModelFormat = "redist-model/1";
/// The members that hold the three constants.
constexpr const char *AlphaMember = "alpha_s";
constexpr const char *BetaMember = "beta_s_per_byte";
constexpr const char *GammaMember = "gamma_s";
/// The optional member that says where the constants were measured.
constexpr const char *MeasuredOnMember = "measured_on";

/// The model a model file's Text describes (ElementBytes left at its
/// default). Throws InvalidArgument, one line that starts with Name and
/// names the offending member, when Text is not such a file.
CostModel parseCostModel(std::string_view Text, const std::string &Name);

/// parseCostModel on the contents of the file at Path, named by Path; a file
/// that cannot be read throws InvalidArgument as well.
CostModel readCostModelFile(const std::string &Path);

/// The file the environment variable REDIST_MODEL names, or nullopt when it
/// is unset or empty.
std::optional<std::string> defaultModelPath();

/// The model a tool's --model File gives: the file File names when it is
/// not empty, else defaultCostModel(). From, if given, receives the file's
/// name or "defaults".
CostModel loadCostModel(const std::string &File, std::string *From = nullptr);

/// The model in the file REDIST_MODEL names, or CostModel() without one.
/// The file is read once per process and name: later calls return the same
/// model, or throw the same InvalidArgument.
CostModel defaultCostModel();

} // namespace redist

#endif // REDIST_COSTMODEL_H
