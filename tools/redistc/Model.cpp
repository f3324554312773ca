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

redist::DimFormat FormatValue::dimFormat() const {
  switch (Kind) {
  case FormatKind::Block:
    return redist::DimFormat::block();
  case FormatKind::BlockSized:
    return redist::DimFormat::block(*Param);
  case FormatKind::Cyclic:
    return redist::DimFormat::cyclic();
  case FormatKind::CyclicSized:
    return redist::DimFormat::cyclic(*Param);
  case FormatKind::GenBlock:
    return redist::DimFormat::genBlock(*Sizes);
  }
  return redist::DimFormat::block();
}

std::string arraySpelling(const std::vector<std::optional<FormatValue>> &F) {
  std::string Out;
  for (size_t K = 0; K < F.size(); ++K)
    Out += (K ? ", " : "") + (F[K] ? F[K]->spelling() : std::string("*"));
  return Out;
}

} // namespace redistc
