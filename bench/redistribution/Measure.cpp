//===- Measure.cpp - How redist-bench times things ------------------------===//

#include "Measure.h"

#include <algorithm>

namespace redist {
namespace bench {

double median(std::vector<double> Times) {
  if (Times.empty())
    return 0;
  std::sort(Times.begin(), Times.end());
  size_t Mid = Times.size() / 2;
  return Times.size() % 2 ? Times[Mid] : (Times[Mid - 1] + Times[Mid]) / 2;
}

double minimum(const std::vector<double> &Times) {
  return Times.empty() ? 0 : *std::min_element(Times.begin(), Times.end());
}

} // namespace bench
} // namespace redist
