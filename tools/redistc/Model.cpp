//===- Model.cpp - What the directives mean -------------------------------===//

#include "Model.h"

namespace redistc {

bool FormatValue::isConstant() const {
  switch (Kind) {
  case FormatKind::Block:
  case FormatKind::Cyclic:
    return true;
  case FormatKind::BlockSized:
  case FormatKind::CyclicSized:
    return Param.has_value();
  case FormatKind::GenBlock:
    return Sizes.has_value();
  }
  return false;
}

std::string FormatValue::spelling() const {
  switch (Kind) {
  case FormatKind::Block:
    return "block";
  case FormatKind::Cyclic:
    return "cyclic";
  case FormatKind::BlockSized:
    return "block(" + ArgText + ")";
  case FormatKind::CyclicSized:
    return "cyclic(" + ArgText + ")";
  case FormatKind::GenBlock:
    return "gen_block(" + ArgText + ")";
  }
  return "";
}

redist::Distribution FormatValue::distribution(int64_t Procs) const {
  switch (Kind) {
  case FormatKind::Block:
    return redist::Distribution::block(Procs);
  case FormatKind::BlockSized:
    return redist::Distribution::block(Procs, *Param);
  case FormatKind::Cyclic:
    return redist::Distribution::cyclic(Procs);
  case FormatKind::CyclicSized:
    return redist::Distribution::cyclic(Procs, *Param);
  case FormatKind::GenBlock:
    return redist::Distribution::genBlock(*Sizes);
  }
  return redist::Distribution::block(Procs);
}

} // namespace redistc
