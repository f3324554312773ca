//===- GeneratedNames.h - Names of what the generated code declares -------===//
//
// A processors directive declares its arrangement's extent and communicator;
// a distribute directive, its variable's descriptor: the current
// distribution, the extent and the communicator. They are named after the
// directive and its number (Directive::Id), so that no two directives
// declare the same name:
//   directive 1, processors P(4):        redistc_P1_extent, redistc_P1_comm
//   directive 2, distribute s.x[N](...): redistc_x2_dist, redistc_x2_extent,
//                                        redistc_x2_comm
//   directive 3, processors G(2, 3):     redistc_G3_grid, redistc_G3_comm
// At namespace scope they are functions, evaluated at each use.
//
//===----------------------------------------------------------------------===//
#ifndef REDISTC_GENERATEDNAMES_H
#define REDISTC_GENERATEDNAMES_H

#include "Model.h"

#include <string>

namespace redistc {

/// What a processors or distribute directive declares (a processors
/// directive declares no distribution).
/// An arrangement of rank two or more declares Grid, its extents as a
/// std::vector, instead of Extent; an array of the N-D form's Distribution
/// is a redist::ArrayLayout, and it has no Extent.
enum class Declared { Distribution, Extent, Comm, Grid };

/// The names one processors or distribute directive declares.
class DeclaredNames {
public:
  explicit DeclaredNames(const ArrangementInfo &A);
  explicit DeclaredNames(const DistributionInfo &Dist);

  /// The name as declared, e.g. "redistc_x2_dist".
  std::string name(Declared What) const;
  /// An expression that reads it: the name, called at namespace scope.
  std::string use(Declared What) const;

private:
  std::string Stem;
  bool Functions;
};

} // namespace redistc

#endif // REDISTC_GENERATEDNAMES_H
