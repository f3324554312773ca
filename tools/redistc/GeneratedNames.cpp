//===- GeneratedNames.cpp - Names of what the generated code declares -----===//

#include "GeneratedNames.h"

#include <cctype>

namespace redistc {

namespace {

/// The last identifier in the text of VAR: x in x, ns::x, this->x or s.x.
std::string lastIdentifier(const std::string &Text) {
  size_t End = Text.size();
  size_t Begin = End;
  while (Begin > 0 && (isalnum(static_cast<unsigned char>(Text[Begin - 1])) ||
                       Text[Begin - 1] == '_'))
    --Begin;
  return Begin == End ? "var" : Text.substr(Begin);
}

} // namespace

DeclaredNames::DeclaredNames(const ArrangementInfo &A)
    : Stem("redistc_" + A.D->Arrangement.Name + std::to_string(A.D->Id)),
      Functions(A.Where.Scope == ScopeKind::Namespace) {}

DeclaredNames::DeclaredNames(const DistributionInfo &Dist)
    : Stem("redistc_" + lastIdentifier(Dist.Var.Text) +
           std::to_string(Dist.D->Id)),
      Functions(Dist.Where.Scope == ScopeKind::Namespace) {}

std::string DeclaredNames::name(Declared What) const {
  switch (What) {
  case Declared::Distribution:
    return Stem + "_dist";
  case Declared::Extent:
    return Stem + "_extent";
  case Declared::Comm:
    return Stem + "_comm";
  case Declared::Grid:
    return Stem + "_grid";
  }
  return Stem;
}

std::string DeclaredNames::use(Declared What) const {
  return name(What) + (Functions ? "()" : "");
}

} // namespace redistc
