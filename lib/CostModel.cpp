//===- CostModel.cpp - Reading model files --------------------------------===//
//
// A strict reader for the one JSON shape a model file has: an object whose
// members are numbers or strings, and one member, measured_on, that is an
// object of numbers and strings. lib/ links nothing but the C++ library, and
// the runtime reads model files too, so this small reader stands in for a
// JSON library; every reader of model files goes through it.
//
//===----------------------------------------------------------------------===//

#include "redist/CostModel.h"

#include "redist/Error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace redist {

namespace {

/// A member's value: a number, a string, or (measured_on) an object.
struct Value {
  enum Kind { Number, String, Object } K = Number;
  double Num = 0;
  std::string Str;
};

class ModelParser {
public:
  ModelParser(std::string_view Text, const std::string &Name)
      : Text(Text), Name(Name) {}

  /// The top-level object's members, by name.
  std::map<std::string, Value> parse() {
    std::map<std::string, Value> Members;
    skipSpace();
    parseObject(Members, /*Nested=*/false);
    skipSpace();
    if (Pos != Text.size())
      fail("unexpected text after the closing '}'");
    return Members;
  }

  [[noreturn]] void failMember(const std::string &Member,
                               const std::string &Problem) const {
    throw InvalidArgument(Name + ": member \"" + Member + "\": " + Problem);
  }

private:
  [[noreturn]] void fail(const std::string &Problem) const {
    int64_t Line = 1, Column = 1;
    for (std::size_t I = 0; I < Pos && I < Text.size(); ++I) {
      Column = Text[I] == '\n' ? 1 : Column + 1;
      Line += Text[I] == '\n';
    }
    throw InvalidArgument(Name + ":" + std::to_string(Line) + ":" +
                          std::to_string(Column) + ": " + Problem +
                          " (a model file is one JSON object)");
  }

  void skipSpace() {
    while (Pos < Text.size() && std::strchr(" \t\r\n", Text[Pos]))
      ++Pos;
  }

  void expect(char C, const char *What) {
    skipSpace();
    if (Pos >= Text.size() || Text[Pos] != C)
      fail(std::string("expected ") + What);
    ++Pos;
  }

  std::string parseString() {
    expect('"', "'\"'");
    std::string Out;
    while (true) {
      if (Pos >= Text.size())
        fail("unterminated string");
      char C = Text[Pos++];
      if (C == '"')
        return Out;
      if (static_cast<unsigned char>(C) < 0x20)
        fail("control character in a string");
      if (C != '\\') {
        Out += C;
        continue;
      }
      if (Pos >= Text.size())
        fail("unterminated string");
      char E = Text[Pos++];
      const char *Escapes = "\"\\/bfnrt";
      const char *Meant = "\"\\/\b\f\n\r\t";
      if (const char *At = std::strchr(Escapes, E); At && E) {
        Out += Meant[At - Escapes];
      } else if (E == 'u') {
        // Kept as written: strings only document where a model comes from.
        if (Pos + 4 > Text.size())
          fail("truncated \\u escape");
        for (int I = 0; I < 4; ++I)
          if (!std::isxdigit(static_cast<unsigned char>(Text[Pos + I])))
            fail("bad \\u escape");
        Out += "\\u" + std::string(Text.substr(Pos, 4));
        Pos += 4;
      } else {
        fail(std::string("bad escape '\\") + E + "'");
      }
    }
  }

  /// A JSON number, checked against JSON's grammar before strtod reads it.
  double parseNumber() {
    const std::size_t Start = Pos;
    auto Digits = [&] {
      const std::size_t From = Pos;
      while (Pos < Text.size() &&
             std::isdigit(static_cast<unsigned char>(Text[Pos])))
        ++Pos;
      return Pos > From;
    };
    if (Pos < Text.size() && Text[Pos] == '-')
      ++Pos;
    if (Pos < Text.size() && Text[Pos] == '0')
      ++Pos;
    else if (!Digits())
      fail("expected a number");
    if (Pos < Text.size() && Text[Pos] == '.') {
      ++Pos;
      if (!Digits())
        fail("expected digits after '.'");
    }
    if (Pos < Text.size() && (Text[Pos] == 'e' || Text[Pos] == 'E')) {
      ++Pos;
      if (Pos < Text.size() && (Text[Pos] == '+' || Text[Pos] == '-'))
        ++Pos;
      if (!Digits())
        fail("expected digits in the exponent");
    }
    const std::string Literal(Text.substr(Start, Pos - Start));
    return std::strtod(Literal.c_str(), nullptr); // +-HUGE_VAL on overflow
  }

  void parseObject(std::map<std::string, Value> &Members, bool Nested) {
    expect('{', "'{'");
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == '}') {
      ++Pos;
      return;
    }
    while (true) {
      skipSpace();
      const std::size_t KeyPos = Pos;
      std::string Key = parseString();
      if (Members.count(Key)) {
        Pos = KeyPos;
        fail("member \"" + Key + "\" appears twice");
      }
      expect(':', "':'");
      skipSpace();
      Value V;
      if (Pos < Text.size() && Text[Pos] == '"') {
        V.Str = parseString();
        V.K = Value::String;
      } else if (Pos < Text.size() && Text[Pos] == '{') {
        if (Nested)
          fail("member \"" + Key + "\": objects nest one level at most");
        std::map<std::string, Value> Inner;
        parseObject(Inner, /*Nested=*/true);
        V.K = Value::Object;
      } else {
        V.Num = parseNumber();
      }
      Members.emplace(std::move(Key), V);
      skipSpace();
      if (Pos < Text.size() && Text[Pos] == ',') {
        ++Pos;
        continue;
      }
      expect('}', "',' or '}'");
      return;
    }
  }

  std::string_view Text;
  const std::string &Name;
  std::size_t Pos = 0;
};

} // namespace

CostModel parseCostModel(std::string_view Text, const std::string &Name) {
  ModelParser Parser(Text, Name);
  std::map<std::string, Value> Members = Parser.parse();

  auto Format = Members.find("format");
  if (Format == Members.end())
    throw InvalidArgument(Name + ": member \"format\" is missing (expected \"" +
                          CostModelFormat + "\")");
  if (Format->second.K != Value::String ||
      Format->second.Str != CostModelFormat)
    Parser.failMember("format", std::string("expected \"") + CostModelFormat +
                                    "\" (a file of another format or "
                                    "version?)");

  CostModel Model;
  for (const auto &[Member, Field] :
       {std::pair{AlphaMember, &CostModel::Alpha},
        std::pair{BetaMember, &CostModel::BetaPerByte},
        std::pair{GammaMember, &CostModel::Gamma}}) {
    auto It = Members.find(Member);
    if (It == Members.end())
      Parser.failMember(Member, "missing (the model needs alpha_s, "
                                "beta_s_per_byte and gamma_s)");
    if (It->second.K != Value::Number)
      Parser.failMember(Member, "expected a number of seconds");
    const double V = It->second.Num;
    if (!std::isfinite(V) || V < 0) {
      std::ostringstream Shown;
      Shown << V;
      Parser.failMember(Member,
                        "must be finite and non-negative, got " + Shown.str());
    }
    Model.*Field = V;
  }
  for (const auto &[Member, V] : Members) {
    if (Member == "format" || Member == AlphaMember || Member == BetaMember ||
        Member == GammaMember)
      continue;
    if (Member != MeasuredOnMember)
      Parser.failMember(Member, std::string("unknown member (known: format, ") +
                                    AlphaMember + ", " + BetaMember + ", " +
                                    GammaMember + ", " + MeasuredOnMember +
                                    ")");
    if (V.K != Value::Object)
      Parser.failMember(Member, "expected an object");
  }
  return Model;
}

CostModel readCostModelFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw InvalidArgument(
        Path + ": cannot open the model file: " + std::strerror(errno));
  std::ostringstream Text;
  Text << In.rdbuf();
  if (In.bad())
    throw InvalidArgument(Path + ": cannot read the model file");
  return parseCostModel(Text.str(), Path);
}

std::optional<std::string> defaultModelPath() {
  const char *Path = std::getenv("REDIST_MODEL");
  if (!Path || !*Path)
    return std::nullopt;
  return std::string(Path);
}

CostModel loadCostModel(const std::string &File, std::string *From) {
  if (!File.empty()) {
    if (From)
      *From = File;
    return readCostModelFile(File);
  }
  if (From)
    *From = defaultModelPath().value_or("defaults");
  return defaultCostModel();
}

CostModel defaultCostModel() {
  std::optional<std::string> Path = defaultModelPath();
  if (!Path)
    return CostModel();
  // Plans are built often; the file is read once per name.
  struct Loaded {
    std::string Path;
    CostModel Model;
    std::string Error;
  };
  static std::mutex Lock;
  static std::optional<Loaded> Last;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Last || Last->Path != *Path) {
    Loaded L{*Path, CostModel(), ""};
    try {
      L.Model = readCostModelFile(*Path);
    } catch (const InvalidArgument &E) {
      L.Error = std::string("REDIST_MODEL: ") + E.what();
    }
    Last = std::move(L);
  }
  if (!Last->Error.empty())
    throw InvalidArgument(Last->Error);
  return Last->Model;
}

} // namespace redist
