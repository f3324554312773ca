//===- PragmaParser.cpp - The #pragma redist handler ----------------------===//

#include "PragmaParser.h"

#include "redist/Ring.h"
#include "redist/Schedulers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclFriend.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

using namespace clang;

namespace redistc {

namespace {

/// The keyword a token spells, whether the lexer made it an identifier or a
/// C++ keyword (`auto` in schedule(auto)); empty for other tokens.
llvm::StringRef wordOf(const Token &Tok) {
  if (const IdentifierInfo *II = Tok.getIdentifierInfo())
    return II->getName();
  return {};
}

bool isWord(const Token &Tok, llvm::StringRef Word) {
  return wordOf(Tok).equals_insensitive(Word);
}

/// An algorithm's name as a directive spells it: one identifier, so '_'
/// where the library's name has '-' (mincost_steps, like walker_otto).
std::string directiveSpelling(redist::Algorithm A) {
  std::string Name = redist::algorithmName(A);
  std::replace(Name.begin(), Name.end(), '-', '_');
  return Name;
}

/// The same for the overlapped schedulers (overlap, overlap_split).
std::string directiveSpelling(redist::OverlapAlgorithm A) {
  std::string Name = redist::overlapAlgorithmName(A);
  std::replace(Name.begin(), Name.end(), '-', '_');
  return Name;
}

constexpr redist::OverlapAlgorithm OverlapAlgorithms[] = {
    redist::OverlapAlgorithm::Overlap, redist::OverlapAlgorithm::OverlapSplit};

/// The algorithm a directive names, in any case.
std::optional<redist::Algorithm> parseDirectiveAlgorithm(llvm::StringRef Word) {
  for (redist::Algorithm A : redist::allAlgorithms())
    if (Word.equals_insensitive(directiveSpelling(A)))
      return A;
  return std::nullopt;
}

/// Items as "a, b or c", for "expected ..." messages.
std::string orList(llvm::ArrayRef<std::string> Items) {
  std::string List;
  for (size_t I = 0; I < Items.size(); ++I) {
    if (I)
      List += I + 1 == Items.size() ? " or " : ", ";
    List += Items[I];
  }
  return List;
}

/// The names of every schedule algorithm, for "expected ..." messages.
std::string algorithmList() {
  std::vector<std::string> Names;
  for (redist::Algorithm A : redist::allAlgorithms())
    Names.push_back(directiveSpelling(A));
  for (redist::OverlapAlgorithm A : OverlapAlgorithms)
    Names.push_back(directiveSpelling(A));
  return orList(Names);
}

/// The ring algorithms that can move items: all but the exhaustive search,
/// a reference for small instances.
std::vector<redist::RingAlgorithm> movingRingAlgorithms() {
  std::vector<redist::RingAlgorithm> Out;
  for (redist::RingAlgorithm A : redist::allRingAlgorithms())
    if (A != redist::RingAlgorithm::Exhaustive)
      Out.push_back(A);
  return Out;
}

std::string ringAlgorithmList() {
  std::vector<std::string> Names;
  for (redist::RingAlgorithm A : movingRingAlgorithms())
    Names.push_back(ringAlgorithmSpelling(A));
  return orList(Names);
}

/// The clauses that may follow a directive's operands, in the order an
/// "expected ..." message lists them.
enum class ClauseKind {
  Onto,
  Schedule,
  Verify,
  Ring,
  Costs,
  BackCosts,
  Storage
};

/// The clauses a directive takes.
class ClauseSet {
public:
  ClauseSet(std::initializer_list<ClauseKind> Kinds) {
    for (ClauseKind K : Kinds)
      Bits |= bit(K);
  }
  bool contains(ClauseKind K) const { return Bits & bit(K); }

  /// The clauses as an unknown clause's message lists them.
  std::string syntax() const {
    std::vector<std::string> Items;
    for (ClauseKind K :
         {ClauseKind::Onto, ClauseKind::Storage, ClauseKind::Schedule,
          ClauseKind::Verify, ClauseKind::Ring, ClauseKind::Costs,
          ClauseKind::BackCosts})
      if (contains(K))
        Items.push_back(syntaxOf(K));
    return orList(Items);
  }

private:
  static unsigned bit(ClauseKind K) { return 1u << static_cast<unsigned>(K); }
  static const char *syntaxOf(ClauseKind K) {
    switch (K) {
    case ClauseKind::Onto:
      return "onto NAME";
    case ClauseKind::Schedule:
      return "schedule(ALG)";
    case ClauseKind::Verify:
      return "verify(on|off)";
    case ClauseKind::Ring:
      return "ring(bidirectional)";
    case ClauseKind::Costs:
      return "costs(C)";
    case ClauseKind::BackCosts:
      return "back_costs(C)";
    case ClauseKind::Storage:
      return "storage(row_major|column_major)";
    }
    return "?";
  }
  unsigned Bits = 0;
};

/// A token of Kind at Loc; a keyword or an identifier gets the
/// IdentifierInfo of Name.
Token makeToken(Preprocessor &PP, tok::TokenKind Kind, SourceLocation Loc,
                llvm::StringRef Name = {}) {
  Token T;
  T.startToken();
  T.setKind(Kind);
  T.setLocation(Loc);
  T.setLength(1);
  if (!Name.empty())
    T.setIdentifierInfo(PP.getIdentifierInfo(Name));
  return T;
}

/// Whether Toks is one braced list: '{' ... '}', the braces matching.
bool isBracedList(llvm::ArrayRef<Token> Toks) {
  if (Toks.empty() || Toks.front().isNot(tok::l_brace))
    return false;
  int Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].is(tok::l_brace))
      ++Depth;
    else if (Toks[I].is(tok::r_brace) && --Depth == 0)
      return I + 1 == Toks.size();
  }
  return false;
}

/// The most dimensions an array or an arrangement has.
constexpr size_t MaxRank = static_cast<size_t>(redist::MaxArrayRank);

/// Recursive-descent parser over the tokens of one directive line.
class DirectiveParser {
public:
  DirectiveParser(Preprocessor &PP, Diagnostics &Diags,
                  llvm::ArrayRef<Token> Toks, const Token &Eod)
      : PP(PP), Diags(Diags), Toks(Toks), Eod(Eod) {}

  /// The directive, or nullopt after reporting a syntax error.
  std::optional<Directive> parse(SourceLocation HashLoc);

  /// The tokens of each slot, in slot order.
  std::vector<std::vector<Token>> SlotTokens;

private:
  const Token &peek() const { return Pos < Toks.size() ? Toks[Pos] : Eod; }
  bool atEnd() const { return Pos >= Toks.size(); }
  const Token &next() {
    const Token &T = peek();
    if (!atEnd())
      ++Pos;
    return T;
  }
  bool expectPunct(tok::TokenKind Kind, const char *What) {
    if (peek().is(Kind)) {
      next();
      return true;
    }
    Diags.report(peek().getLocation(), Diags.Expected) << What;
    return false;
  }

  bool parseProcessors(Directive &D);
  bool parseDistribute(Directive &D);
  bool parseRedistribute(Directive &D);
  bool parseAssign(Directive &D);
  bool parseRebalance(Directive &D);
  bool parseInquire(Directive &D);

  bool parseName(NameRef &Name, const char *What);
  int parseVariable();
  int parseBracketed(tok::TokenKind Open, const char *OpenText);
  bool parseFormat(FormatSpec &F);
  bool parseFormats(Directive &D);
  bool parseSection(std::vector<SectionSpec> &Section);
  bool parsePermutation(Directive &D);
  bool splitDimensions(Directive &D);
  bool parseSchedule(Directive &D);
  bool parseRingSchedule(Directive &D);
  bool parseCosts(CostsSpec &Costs);
  void asArrayNew(std::vector<Token> &Slot,
                  llvm::ArrayRef<std::pair<tok::TokenKind, const char *>> Type);
  std::optional<bool> parseChoice(llvm::StringRef First, llvm::StringRef Second,
                                  const char *Open, const char *Words,
                                  const char *Close,
                                  SourceLocation *WordLoc = nullptr);
  bool parseClauses(Directive &D, ClauseSet Allowed);
  int addSlot(llvm::ArrayRef<Token> SlotToks, bool DelimitedByFile);

  Preprocessor &PP;
  Diagnostics &Diags;
  llvm::ArrayRef<Token> Toks;
  const Token &Eod;
  size_t Pos = 0;
  Directive *Current = nullptr;
};

std::optional<Directive> DirectiveParser::parse(SourceLocation HashLoc) {
  Directive D;
  D.HashLoc = HashLoc;
  D.EndLoc = Eod.getLocation();
  Current = &D;
  if (atEnd()) {
    Diags.report(Eod.getLocation(), Diags.MissingDirective);
    return std::nullopt;
  }
  const Token &Keyword = next();
  D.KeywordLoc = Keyword.getLocation();
  llvm::StringRef Word = wordOf(Keyword);
  bool OK;
  if (Word.equals_insensitive("processors")) {
    D.Kind = DirectiveKind::Processors;
    OK = parseProcessors(D);
  } else if (Word.equals_insensitive("distribute")) {
    D.Kind = DirectiveKind::Distribute;
    OK = parseDistribute(D);
  } else if (Word.equals_insensitive("redistribute")) {
    D.Kind = DirectiveKind::Redistribute;
    OK = parseRedistribute(D);
  } else if (Word.equals_insensitive("assign")) {
    D.Kind = DirectiveKind::Assign;
    OK = parseAssign(D);
  } else if (Word.equals_insensitive("rebalance")) {
    D.Kind = DirectiveKind::Rebalance;
    OK = parseRebalance(D);
  } else if (Word.equals_insensitive("inquire")) {
    D.Kind = DirectiveKind::Inquire;
    OK = parseInquire(D);
  } else {
    Diags.report(Keyword.getLocation(), Diags.UnknownDirective)
        << (Word.empty() ? PP.getSpelling(Keyword) : Word.str());
    return std::nullopt;
  }
  if (!OK)
    return std::nullopt;
  return D;
}

// processors NAME(EXTENT) [comm(EXPR)]
// processors NAME(P0, P1) [order(row_major|column_major)] [comm(EXPR)]
bool DirectiveParser::parseProcessors(Directive &D) {
  if (!parseName(D.Arrangement, "an arrangement name after 'processors'"))
    return false;
  D.Extent = parseBracketed(tok::l_paren, "'(' and the number of processes");
  if (D.Extent < 0 || !splitDimensions(D))
    return false;
  while (!atEnd()) {
    const Token &Clause = next();
    if (isWord(Clause, "order") && D.Extents.size() >= 2) {
      if (D.Order) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "order";
        return false;
      }
      std::optional<bool> RowMajor =
          parseChoice("row_major", "column_major", "'(' and the grid order",
                      "row_major or column_major in order(...)",
                      "')' after the grid order", &D.OrderLoc);
      if (!RowMajor)
        return false;
      D.Order = *RowMajor ? redist::GridOrder::RowMajor
                          : redist::GridOrder::ColumnMajor;
      continue;
    }
    if (isWord(Clause, "comm")) {
      if (D.Comm >= 0) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "comm";
        return false;
      }
      D.Comm = parseBracketed(tok::l_paren, "'(' and a communicator");
      if (D.Comm < 0)
        return false;
      continue;
    }
    Diags.report(Clause.getLocation(), Diags.UnknownClause)
        << PP.getSpelling(Clause) << "processors"
        << (D.Extents.size() >= 2
                ? "order(row_major|column_major) or comm(EXPR)"
                : "comm(EXPR)");
    return false;
  }
  return true;
}

// distribute VAR[E0]...[Ed-1](F0, ..., Fd-1) onto NAME
//            [storage(row_major|column_major)] [verify(on|off)]
bool DirectiveParser::parseDistribute(Directive &D) {
  D.Var = parseVariable();
  if (D.Var < 0)
    return false;
  D.Extent =
      parseBracketed(tok::l_square, "'[' and the global number of elements");
  if (D.Extent < 0)
    return false;
  D.Extents.push_back(D.Extent);
  while (peek().is(tok::l_square)) {
    if (D.Extents.size() == MaxRank) {
      Diags.report(peek().getLocation(), Diags.TooManyDimensions);
      return false;
    }
    const int E = parseBracketed(tok::l_square, "'['");
    if (E < 0)
      return false;
    D.Extents.push_back(E);
  }
  if (!parseFormats(D))
    return false;
  if (!parseClauses(
          D, {ClauseKind::Onto, ClauseKind::Storage, ClauseKind::Verify}))
    return false;
  if (!D.Onto.present()) {
    Diags.report(Eod.getLocation(), Diags.Expected)
        << "'onto NAME' naming a processors arrangement";
    return false;
  }
  bool Star = false;
  for (const std::optional<FormatSpec> &F : D.Formats)
    Star = Star || !F;
  // Every rank but the plain 1-D VAR[N](F) takes the N-D path: a matrix is
  // its rank-2 case.
  D.ArrayForm =
      D.Extents.size() > 1 || D.Formats.size() > 2 || Star || D.Storage;
  return true;
}

// redistribute VAR(FORMAT) [onto NAME] [schedule(ALG)]
bool DirectiveParser::parseRedistribute(Directive &D) {
  D.Var = parseVariable();
  if (D.Var < 0)
    return false;
  if (!parseFormats(D))
    return false;
  return parseClauses(
      D, {ClauseKind::Onto, ClauseKind::Schedule, ClauseKind::Verify});
}

// assign DST[SECTION] = SRC[SECTION] [schedule(ALG)]
// assign DST = permute(SRC, K0, ..., Kd-1) | transpose(SRC) [schedule(ALG)]
bool DirectiveParser::parseAssign(Directive &D) {
  D.Var = parseVariable();
  if (D.Var < 0 || !parseSection(D.TargetSection) ||
      !expectPunct(tok::equal, "'=' after the target variable"))
    return false;
  const bool Call = Pos + 1 < Toks.size() && Toks[Pos + 1].is(tok::l_paren);
  if (Call && (isWord(peek(), "permute") || isWord(peek(), "transpose"))) {
    if (!parsePermutation(D))
      return false;
  } else {
    D.Src = parseVariable();
    if (D.Src < 0 || !parseSection(D.SourceSection))
      return false;
  }
  return parseClauses(D, {ClauseKind::Schedule, ClauseKind::Verify});
}

// [BEGIN:END] or [:] per dimension, as many as written (none: the whole
// array).
bool DirectiveParser::parseSection(std::vector<SectionSpec> &Section) {
  while (peek().is(tok::l_square)) {
    SectionSpec R;
    R.Loc = next().getLocation();
    if (peek().is(tok::colon)) {
      next();
      if (!expectPunct(tok::r_square, "']' after ':' of a whole dimension"))
        return false;
      Section.push_back(R);
      continue;
    }
    // BEGIN up to the ':' outside brackets, END up to the ']'.
    const size_t Begin = Pos;
    int Depth = 0;
    size_t Colon = 0, Close = 0;
    for (size_t I = Pos; I < Toks.size(); ++I) {
      const Token &T = Toks[I];
      if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
        ++Depth;
      } else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
        if (Depth == 0) {
          Close = I;
          break;
        }
        --Depth;
      } else if (Depth == 0 && T.is(tok::colon) && !Colon) {
        Colon = I;
      }
    }
    if (!Colon || !Close || Close < Colon || Colon == Begin ||
        Close == Colon + 1 || Toks[Close].isNot(tok::r_square)) {
      Diags.report(R.Loc, Diags.Expected)
          << "a section range '[BEGIN:END]' or '[:]'";
      return false;
    }
    auto FromFile = [](llvm::ArrayRef<Token> T) {
      return T.front().getLocation().isFileID() &&
             T.back().getLocation().isFileID();
    };
    const llvm::ArrayRef<Token> First = Toks.slice(Begin, Colon - Begin),
                                Last = Toks.slice(Colon + 1, Close - Colon - 1);
    R.Begin = addSlot(First, FromFile(First));
    R.End = addSlot(Last, FromFile(Last));
    Pos = Close + 1;
    Section.push_back(R);
  }
  return true;
}

// permute(SRC, K0, ..., Kd-1) or transpose(SRC): the Ks are integer
// literals, a permutation of 0 .. d-1 (Analysis checks it).
bool DirectiveParser::parsePermutation(Directive &D) {
  const bool Transpose = isWord(peek(), "transpose");
  D.PermuteLoc = next().getLocation();
  next(); // '('
  D.Src = parseVariable();
  if (D.Src < 0)
    return false;
  if (Transpose) {
    D.Transpose = true;
    D.Permutation = {1, 0};
    return expectPunct(tok::r_paren, "')' after the variable");
  }
  while (peek().is(tok::comma)) {
    next();
    const Token &Value = peek();
    int64_t K = 0;
    if (Value.isNot(tok::numeric_constant) ||
        llvm::StringRef(PP.getSpelling(Value)).getAsInteger(10, K) ||
        K > redist::MaxArrayRank) {
      Diags.report(Value.getLocation(), Diags.Expected)
          << "an axis number (an integer literal) in permute(...)";
      return false;
    }
    next();
    D.Permutation.push_back(static_cast<int>(K));
  }
  if (D.Permutation.empty()) {
    Diags.report(peek().getLocation(), Diags.Expected)
        << "',' and the source axis of each target axis in permute(...)";
    return false;
  }
  return expectPunct(tok::r_paren, "')' after the permutation");
}

// inquire VAR into NAME
bool DirectiveParser::parseInquire(Directive &D) {
  D.Var = parseVariable();
  if (D.Var < 0)
    return false;
  if (!isWord(peek(), "into")) {
    Diags.report(peek().getLocation(), Diags.Expected)
        << "'into' and a name after the variable";
    return false;
  }
  next();
  if (!parseName(D.Into, "a name for the inquiry after 'into'"))
    return false;
  if (!atEnd()) {
    Diags.report(peek().getLocation(), Diags.Expected)
        << "the end of the inquire directive";
    return false;
  }
  return true;
}

// rebalance VAR(COUNT) onto NAME [ring[(bidirectional | unidirectional)]]
//           [schedule(RING_ALG)] [costs(C)] [back_costs(C)]
bool DirectiveParser::parseRebalance(Directive &D) {
  D.Var = parseVariable();
  if (D.Var < 0)
    return false;
  D.Count = parseBracketed(
      tok::l_paren, "'(' and the number of items this process must hold");
  if (D.Count < 0 || !parseClauses(D, {ClauseKind::Onto, ClauseKind::Ring,
                                       ClauseKind::Schedule, ClauseKind::Costs,
                                       ClauseKind::BackCosts}))
    return false;
  if (!D.Onto.present()) {
    Diags.report(Eod.getLocation(), Diags.Expected)
        << "'onto NAME' naming a processors arrangement";
    return false;
  }
  return true;
}

bool DirectiveParser::parseName(NameRef &Name, const char *What) {
  const Token &Tok = peek();
  if (Tok.isNot(tok::identifier)) {
    Diags.report(Tok.getLocation(), Diags.Expected) << What;
    return false;
  }
  next();
  Name.Name = wordOf(Tok).str();
  Name.Loc = Tok.getLocation();
  return true;
}

// VAR: an id-expression such as x, ns::x, this->x or s.x.
int DirectiveParser::parseVariable() {
  size_t Begin = Pos;
  bool NeedName = true;
  if (peek().is(tok::coloncolon))
    next();
  else if (peek().is(tok::kw_this)) {
    next();
    if (!peek().is(tok::arrow)) {
      Diags.report(peek().getLocation(), Diags.Expected) << "'->' after 'this'";
      return -1;
    }
    next();
  }
  while (true) {
    if (NeedName) {
      if (peek().isNot(tok::identifier)) {
        Diags.report(peek().getLocation(), Diags.NotVariable);
        return -1;
      }
      next();
      NeedName = false;
      continue;
    }
    if (peek().isOneOf(tok::coloncolon, tok::period, tok::arrow)) {
      next();
      NeedName = true;
      continue;
    }
    break;
  }
  return addSlot(Toks.slice(Begin, Pos - Begin), /*DelimitedByFile=*/true);
}

// OPEN expression CLOSE, with (), [] and {} balanced inside.
int DirectiveParser::parseBracketed(tok::TokenKind Open, const char *OpenText) {
  if (peek().isNot(Open)) {
    Diags.report(peek().getLocation(), Diags.Expected) << OpenText;
    return -1;
  }
  const Token &OpenTok = next();
  size_t Begin = Pos;
  std::vector<const Token *> Stack{&OpenTok};
  auto closerOf = [](const Token &T) {
    switch (T.getKind()) {
    case tok::l_paren:
      return tok::r_paren;
    case tok::l_square:
      return tok::r_square;
    default:
      return tok::r_brace;
    }
  };
  auto spell = [](tok::TokenKind K) { return tok::getPunctuatorSpelling(K); };
  while (true) {
    if (atEnd()) {
      const Token &Innermost = *Stack.back();
      Diags.report(Eod.getLocation(), Diags.Expected)
          << (std::string("'") + spell(closerOf(Innermost)) + "'");
      Diags.report(Innermost.getLocation(), Diags.MatchingBracket)
          << spell(Innermost.getKind());
      return -1;
    }
    const Token &T = next();
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
      Stack.push_back(&T);
      continue;
    }
    if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
      if (T.getKind() != closerOf(*Stack.back())) {
        Diags.report(T.getLocation(), Diags.Unbalanced) << spell(T.getKind());
        Diags.report(Stack.back()->getLocation(), Diags.MatchingBracket)
            << spell(Stack.back()->getKind());
        return -1;
      }
      Stack.pop_back();
      if (Stack.empty())
        break;
    }
  }
  size_t End = Pos - 1; // the closing token
  if (End == Begin) {
    Diags.report(Toks[End].getLocation(), Diags.EmptyExpression);
    return -1;
  }
  bool DelimitedByFile =
      OpenTok.getLocation().isFileID() && Toks[End].getLocation().isFileID();
  return addSlot(Toks.slice(Begin, End - Begin), DelimitedByFile);
}

// processors NAME(P0, ..., Pg-1): the slot just parsed holds every extent;
// split it at its commas outside brackets into D.Extents (D.Extent the
// first).
bool DirectiveParser::splitDimensions(Directive &D) {
  const std::vector<Token> All = SlotTokens.back();
  std::vector<size_t> Commas;
  int Depth = 0;
  for (size_t I = 0; I < All.size(); ++I) {
    if (All[I].isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (All[I].isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
    else if (Depth == 0 && All[I].is(tok::comma))
      Commas.push_back(I);
  }
  if (Commas.empty()) {
    D.Extents.push_back(D.Extent);
    return true;
  }
  if (Commas.size() >= MaxRank) {
    Diags.report(All[Commas[MaxRank - 1]].getLocation(),
                 Diags.TooManyDimensions);
    return false;
  }
  D.SecondLoc = All[Commas.front()].getLocation();
  Commas.push_back(All.size());
  size_t From = 0;
  for (size_t C : Commas) {
    if (C == From) {
      Diags.report(C < All.size() ? All[C].getLocation() : D.SecondLoc,
                   Diags.EmptyExpression);
      return false;
    }
    From = C + 1;
  }
  SlotTokens.pop_back();
  Current->Slots.pop_back();
  llvm::ArrayRef<Token> Tokens(All);
  auto FromFile = [](llvm::ArrayRef<Token> T) {
    return T.front().getLocation().isFileID() &&
           T.back().getLocation().isFileID();
  };
  From = 0;
  for (size_t C : Commas) {
    llvm::ArrayRef<Token> Part = Tokens.slice(From, C - From);
    D.Extents.push_back(addSlot(Part, FromFile(Part)));
    From = C + 1;
  }
  D.Extent = D.Extents[0];
  D.ArrayForm = true;
  return true;
}

// '(' F0 ',' ... ',' Fd-1 ')', each a format or '*'. Format is the first
// when it is one; SecondLoc is the first comma.
bool DirectiveParser::parseFormats(Directive &D) {
  if (!expectPunct(tok::l_paren, "'(' and a distribution format"))
    return false;
  while (true) {
    if (D.Formats.size() == MaxRank) {
      Diags.report(peek().getLocation(), Diags.TooManyDimensions);
      return false;
    }
    D.FormatLocs.push_back(peek().getLocation());
    if (peek().is(tok::star)) {
      next();
      D.Formats.emplace_back();
    } else {
      FormatSpec F;
      if (!parseFormat(F))
        return false;
      D.Formats.push_back(F);
    }
    if (peek().isNot(tok::comma))
      break;
    const SourceLocation Comma = next().getLocation();
    if (D.Formats.size() == 1)
      D.SecondLoc = Comma;
  }
  if (D.Formats[0])
    D.Format = *D.Formats[0];
  else
    D.Format.Loc = D.FormatLocs[0];
  return expectPunct(tok::r_paren, "')'");
}

// block | block(E) | cyclic | cyclic(E) | gen_block(A)
bool DirectiveParser::parseFormat(FormatSpec &F) {
  const Token &Tok = peek();
  llvm::StringRef Word = wordOf(Tok);
  F.Loc = Tok.getLocation();
  bool Sized = false;
  if (Word.equals_insensitive("block"))
    F.Kind = FormatKind::Block;
  else if (Word.equals_insensitive("cyclic"))
    F.Kind = FormatKind::Cyclic;
  else if (Word.equals_insensitive("gen_block"))
    F.Kind = FormatKind::GenBlock;
  else {
    Diags.report(Tok.getLocation(), Diags.MalformedFormat);
    return false;
  }
  next();
  if (peek().is(tok::l_paren)) {
    F.Arg = parseBracketed(tok::l_paren, "'('");
    if (F.Arg < 0)
      return false;
    Sized = true;
  }
  if (F.Kind == FormatKind::GenBlock && !Sized) {
    Diags.report(peek().getLocation(), Diags.Expected)
        << "'(' and an array of sizes after gen_block";
    return false;
  }
  if (F.Kind == FormatKind::GenBlock && isBracedList(SlotTokens.back())) {
    F.BracedList = true;
    asArrayNew(SlotTokens.back(),
               {{tok::kw_long, "long"}, {tok::kw_long, "long"}});
  }
  if (Sized && F.Kind == FormatKind::Block)
    F.Kind = FormatKind::BlockSized;
  if (Sized && F.Kind == FormatKind::Cyclic)
    F.Kind = FormatKind::CyclicSized;
  return true;
}

// A braced list is no expression: let Clang parse it as the initializer of
// an array new-expression, `new TYPE[]{...}`, whose elements Analysis reads.
// Type lists the keywords of TYPE.
void DirectiveParser::asArrayNew(
    std::vector<Token> &Slot,
    llvm::ArrayRef<std::pair<tok::TokenKind, const char *>> Type) {
  SourceLocation Loc = Slot.front().getLocation();
  std::vector<Token> New{makeToken(PP, tok::kw_new, Loc, "new")};
  for (const auto &[Kind, Spelling] : Type)
    New.push_back(makeToken(PP, Kind, Loc, Spelling));
  New.push_back(makeToken(PP, tok::l_square, Loc));
  New.push_back(makeToken(PP, tok::r_square, Loc));
  Slot.insert(Slot.begin(), New.begin(), New.end());
}

bool DirectiveParser::parseSchedule(Directive &D) {
  if (D.Kind == DirectiveKind::Rebalance)
    return parseRingSchedule(D);
  if (!expectPunct(tok::l_paren, "'(' and an algorithm name"))
    return false;
  const Token &Name = peek();
  llvm::StringRef Word = wordOf(Name);
  if (Word.empty()) {
    Diags.report(Name.getLocation(), Diags.Expected)
        << ("an algorithm name: " + algorithmList());
    return false;
  }
  next();
  // product(ALG): ALG per dimension of an array (of a 1-D array, ALG).
  if (Word.equals_insensitive("product") && peek().is(tok::l_paren)) {
    next();
    D.ScheduleProduct = true;
    const Token &Inner = peek();
    Word = wordOf(Inner);
    if (Word.empty()) {
      Diags.report(Inner.getLocation(), Diags.Expected)
          << ("an algorithm name: " + algorithmList());
      return false;
    }
    next();
    if (!expectPunct(tok::r_paren, "')' after the algorithm name"))
      return false;
  }
  std::optional<redist::Algorithm> Algo = parseDirectiveAlgorithm(Word);
  for (redist::OverlapAlgorithm A : OverlapAlgorithms)
    if (Word.equals_insensitive(directiveSpelling(A)))
      D.Overlap = A;
  if (!Algo && !D.Overlap) {
    Diags.report(Name.getLocation(), Diags.UnknownAlgorithm)
        << Word << algorithmList();
    return false;
  }
  D.Schedule = Algo;
  D.ScheduleLoc = Name.getLocation();
  // schedule(overlap, effort(N)): a longer search.
  if (peek().is(tok::comma)) {
    next();
    const Token &Option = peek();
    if (!isWord(Option, "effort")) {
      Diags.report(Option.getLocation(), Diags.Expected)
          << "effort(N) after ',' in schedule(...)";
      return false;
    }
    next();
    if (!D.Overlap) {
      Diags.report(Option.getLocation(), Diags.EffortNeedsOverlap) << Word;
      return false;
    }
    if (!expectPunct(tok::l_paren, "'(' and the search effort"))
      return false;
    const Token &Value = peek();
    int64_t Effort = 0;
    if (Value.isNot(tok::numeric_constant) ||
        llvm::StringRef(PP.getSpelling(Value)).getAsInteger(10, Effort) ||
        Effort < 1 || Effort > redist::MaxOverlapEffort) {
      Diags.report(Value.getLocation(), Diags.BadEffort)
          << std::to_string(redist::MaxOverlapEffort)
          << (atEnd() ? std::string("end of directive")
                      : PP.getSpelling(Value));
      return false;
    }
    next();
    D.OverlapEffort = Effort;
    if (!expectPunct(tok::r_paren, "')' after the search effort"))
      return false;
  }
  // mincost-steps lexes as mincost, '-', steps: say how to spell it.
  return expectPunct(tok::r_paren,
                     peek().is(tok::minus)
                         ? "')' after the algorithm name (names of several "
                           "words join them with '_', as in mincost_steps)"
                         : "')' after the algorithm name");
}

// schedule(RING_ALG) of rebalance: a ring algorithm that moves items.
bool DirectiveParser::parseRingSchedule(Directive &D) {
  if (!expectPunct(tok::l_paren, "'(' and a ring algorithm name"))
    return false;
  const Token &Name = peek();
  llvm::StringRef Word = wordOf(Name);
  if (Word.empty()) {
    Diags.report(Name.getLocation(), Diags.Expected)
        << ("a ring algorithm name: " + ringAlgorithmList());
    return false;
  }
  next();
  for (redist::RingAlgorithm A : redist::allRingAlgorithms())
    if (Word.equals_insensitive(ringAlgorithmSpelling(A)))
      D.RingSchedule = A;
  if (D.RingSchedule == redist::RingAlgorithm::Exhaustive) {
    Diags.report(Name.getLocation(), Diags.RingExhaustive)
        << ringAlgorithmList();
    return false;
  }
  if (!D.RingSchedule) {
    Diags.report(Name.getLocation(), Diags.UnknownRingAlgorithm)
        << Word << ringAlgorithmList();
    return false;
  }
  D.ScheduleLoc = Name.getLocation();
  return expectPunct(tok::r_paren, "')' after the ring algorithm name");
}

// costs(C) or back_costs(C): C an expression or a braced list of costs.
bool DirectiveParser::parseCosts(CostsSpec &Costs) {
  Costs.Arg = parseBracketed(
      tok::l_paren, "'(' and the link costs: a number, an array or a braced "
                    "list of numbers");
  if (Costs.Arg < 0)
    return false;
  if (isBracedList(SlotTokens.back())) {
    Costs.BracedList = true;
    asArrayNew(SlotTokens.back(), {{tok::kw_double, "double"}});
  }
  return true;
}

// '(' FIRST | SECOND ')', either word in any case: whether it was FIRST, or
// nullopt after an error. Open, Words and Close say what was expected where
// the '(', a word or the ')' is missing; WordLoc gets the word's location.
std::optional<bool>
DirectiveParser::parseChoice(llvm::StringRef First, llvm::StringRef Second,
                             const char *Open, const char *Words,
                             const char *Close, SourceLocation *WordLoc) {
  if (!expectPunct(tok::l_paren, Open))
    return std::nullopt;
  const Token &Word = peek();
  bool IsFirst = isWord(Word, First);
  if (!IsFirst && !isWord(Word, Second)) {
    Diags.report(Word.getLocation(), Diags.Expected) << Words;
    return std::nullopt;
  }
  next();
  if (WordLoc)
    *WordLoc = Word.getLocation();
  if (!expectPunct(tok::r_paren, Close))
    return std::nullopt;
  return IsFirst;
}

// The Allowed clauses, in any order, each at most once: onto NAME,
// schedule(ALG), verify(on|off), ring[(bidirectional|unidirectional)],
// costs(C), back_costs(C).
bool DirectiveParser::parseClauses(Directive &D, ClauseSet Allowed) {
  bool Ring = false;
  while (!atEnd()) {
    const Token &Clause = next();
    if (Allowed.contains(ClauseKind::Onto) && isWord(Clause, "onto")) {
      if (D.Onto.present()) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "onto";
        return false;
      }
      if (!parseName(D.Onto, "an arrangement name after 'onto'"))
        return false;
      continue;
    }
    if (Allowed.contains(ClauseKind::Schedule) && isWord(Clause, "schedule")) {
      if (D.Schedule || D.Overlap || D.RingSchedule) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "schedule";
        return false;
      }
      if (!parseSchedule(D))
        return false;
      continue;
    }
    if (Allowed.contains(ClauseKind::Storage) && isWord(Clause, "storage")) {
      if (D.Storage) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "storage";
        return false;
      }
      std::optional<bool> RowMajor =
          parseChoice("row_major", "column_major", "'(' and the storage order",
                      "row_major or column_major in storage(...)",
                      "')' after the storage order", &D.StorageLoc);
      if (!RowMajor)
        return false;
      D.Storage = *RowMajor ? redist::StorageOrder::RowMajor
                            : redist::StorageOrder::ColumnMajor;
      continue;
    }
    if (Allowed.contains(ClauseKind::Verify) && isWord(Clause, "verify")) {
      if (D.Verify) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "verify";
        return false;
      }
      D.Verify = parseChoice("on", "off", "'(' and on or off",
                             "on or off in verify(...)", "')' after on or off",
                             &D.VerifyLoc);
      if (!D.Verify)
        return false;
      continue;
    }
    if (Allowed.contains(ClauseKind::Ring) && isWord(Clause, "ring")) {
      if (Ring) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause) << "ring";
        return false;
      }
      Ring = true;
      if (peek().isNot(tok::l_paren))
        continue; // one way round
      std::optional<bool> Bidirectional = parseChoice(
          "bidirectional", "unidirectional", "'(' and the ring's direction",
          "'bidirectional' or 'unidirectional'",
          "')' after the ring's direction");
      if (!Bidirectional)
        return false;
      D.Bidirectional = *Bidirectional;
      continue;
    }
    const bool Back = isWord(Clause, "back_costs");
    if ((Allowed.contains(ClauseKind::Costs) && isWord(Clause, "costs")) ||
        (Allowed.contains(ClauseKind::BackCosts) && Back)) {
      CostsSpec &Costs = Back ? D.BackCosts : D.Costs;
      if (Costs.present()) {
        Diags.report(Clause.getLocation(), Diags.DuplicateClause)
            << (Back ? "back_costs" : "costs");
        return false;
      }
      Costs.Loc = Clause.getLocation();
      if (!parseCosts(Costs))
        return false;
      continue;
    }
    Diags.report(Clause.getLocation(), Diags.UnknownClause)
        << PP.getSpelling(Clause) << directiveName(D.Kind) << Allowed.syntax();
    return false;
  }
  return true;
}

int DirectiveParser::addSlot(llvm::ArrayRef<Token> SlotToks,
                             bool DelimitedByFile) {
  const SourceManager &SM = PP.getSourceManager();
  ExprSlot Slot;
  SourceLocation Begin = SM.getExpansionLoc(SlotToks.front().getLocation());
  SourceLocation End =
      SM.getExpansionRange(SlotToks.back().getLocation()).getEnd();
  Slot.Range = SourceRange(Begin, End);
  if (DelimitedByFile) {
    // Every macro used in the slot expands within it: keep the user's text.
    Slot.Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End),
                                     SM, PP.getLangOpts())
                    .str();
    // Line continuations would break the one-line bindings of the output.
    size_t Splice;
    while ((Splice = Slot.Text.find("\\\n")) != std::string::npos)
      Slot.Text.replace(Splice, 2, " ");
  } else {
    // The directive's own punctuation came from a macro: re-spell the
    // expanded tokens instead.
    for (const Token &T : SlotToks) {
      if (!Slot.Text.empty())
        Slot.Text += ' ';
      Slot.Text += PP.getSpelling(T);
    }
  }
  Current->Slots.push_back(std::move(Slot));
  SlotTokens.emplace_back(SlotToks.begin(), SlotToks.end());
  return static_cast<int>(Current->Slots.size()) - 1;
}

/// static_assert(true || ((void)(S1), ..., (void)(Sn), true), "redistc");
/// then the tokens of More.
void injectSlots(Preprocessor &PP, SourceLocation Loc,
                 const std::vector<std::vector<Token>> &Slots,
                 const std::vector<Token> &More) {
  std::vector<Token> Out;
  Out.push_back(makeToken(PP, tok::kw_static_assert, Loc, "static_assert"));
  Out.push_back(makeToken(PP, tok::l_paren, Loc));
  Out.push_back(makeToken(PP, tok::kw_true, Loc, "true"));
  Out.push_back(makeToken(PP, tok::pipepipe, Loc));
  Out.push_back(makeToken(PP, tok::l_paren, Loc));
  for (const std::vector<Token> &Slot : Slots) {
    Out.push_back(makeToken(PP, tok::l_paren, Loc));
    Out.push_back(makeToken(PP, tok::kw_void, Loc, "void"));
    Out.push_back(makeToken(PP, tok::r_paren, Loc));
    Out.push_back(makeToken(PP, tok::l_paren, Loc));
    Out.insert(Out.end(), Slot.begin(), Slot.end());
    Out.push_back(makeToken(PP, tok::r_paren, Loc));
    Out.push_back(makeToken(PP, tok::comma, Loc));
  }
  Out.push_back(makeToken(PP, tok::kw_true, Loc, "true"));
  Out.push_back(makeToken(PP, tok::r_paren, Loc));
  Out.push_back(makeToken(PP, tok::comma, Loc));
  Token Message;
  Message.startToken();
  Message.setKind(tok::string_literal);
  PP.CreateString("\"redistc\"", Message, Loc, Loc);
  Out.push_back(Message);
  Out.push_back(makeToken(PP, tok::r_paren, Loc));
  Out.push_back(makeToken(PP, tok::semi, Loc));
  Out.insert(Out.end(), More.begin(), More.end());

  auto Stream = std::make_unique<Token[]>(Out.size());
  std::copy(Out.begin(), Out.end(), Stream.get());
  PP.EnterTokenStream(std::move(Stream), Out.size(),
                      /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
}

/// Whether the program has declared redist::Type (ArrayInfo or
/// DistributedArrayInfo), which inquire declares a variable of.
bool inquiryTypeDeclared(ASTContext &Ctx, llvm::StringRef Type) {
  for (const NamedDecl *ND :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("redist")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(ND))
      if (!NS->lookup(&Ctx.Idents.get(Type)).empty())
        return true;
  return false;
}

/// Whether inquire D names an array of the N-D form (else a 1-D array), as
/// the latest distribute of its variable seen so far, by its spelling,
/// tells. Analysis checks the guess against the distribute it binds
/// (Directive::ArrayForm).
bool inquiresArrayForm(const Directive &D,
                       const std::vector<Directive> &Before) {
  const std::string &Var = D.Slots[D.Var].Text;
  for (auto It = Before.rbegin(); It != Before.rend(); ++It)
    if (It->Kind == DirectiveKind::Distribute && It->Slots[It->Var].Text == Var)
      return It->ArrayForm;
  return false;
}

/// extern const ::redist::TYPE NAME; (for the parse only: the directive's
/// code defines NAME).
void injectInquiry(Preprocessor &PP, SourceLocation Loc, const NameRef &Name,
                   llvm::StringRef Type, std::vector<Token> &Out) {
  Out.push_back(makeToken(PP, tok::kw_extern, Loc, "extern"));
  Out.push_back(makeToken(PP, tok::kw_const, Loc, "const"));
  Out.push_back(makeToken(PP, tok::coloncolon, Loc));
  Out.push_back(makeToken(PP, tok::identifier, Loc, "redist"));
  Out.push_back(makeToken(PP, tok::coloncolon, Loc));
  Out.push_back(makeToken(PP, tok::identifier, Loc, Type));
  Out.push_back(makeToken(PP, tok::identifier, Name.Loc, Name.Name));
  Out.push_back(makeToken(PP, tok::semi, Loc));
}

/// Whether the text from the end of F's declarator to Directive shows F's
/// definition complete (or F declared only) before the directive: a ';', or
/// a body whose braces balance. False when unsure: a constructor's
/// initializers, a function-try-block, a declarator from a macro.
bool endsBefore(const FunctionDecl &F, SourceLocation Directive,
                const SourceManager &SM, const LangOptions &LangOpts) {
  SourceLocation From = F.getEndLoc();
  if (!From.isFileID() || SM.getFileID(From) != SM.getFileID(Directive))
    return false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(From));
  const unsigned End = SM.getFileOffset(Directive);
  Lexer Raw(SM.getLocForStartOfFile(SM.getFileID(From)), LangOpts,
            Buffer.begin(), Buffer.begin() + SM.getFileOffset(From),
            Buffer.end());
  Token T;
  Raw.LexFromRawLexer(T); // the declarator's last token
  int Parens = 0, Braces = 0;
  while (!Raw.LexFromRawLexer(T) && SM.getFileOffset(T.getLocation()) < End) {
    if (T.isOneOf(tok::l_paren, tok::l_square))
      ++Parens;
    else if (T.isOneOf(tok::r_paren, tok::r_square))
      --Parens;
    else if (Parens > 0)
      continue;
    else if (Braces == 0 && T.is(tok::semi))
      return true;
    else if (Braces == 0 &&
             (T.isOneOf(tok::colon, tok::equal) ||
              (T.is(tok::raw_identifier) && T.getRawIdentifier() == "try")))
      return false;
    else if (T.is(tok::l_brace))
      ++Braces;
    else if (T.is(tok::r_brace) && --Braces == 0)
      return true;
  }
  return false;
}

/// Whether directive Directive, read while Sema is in class Record, lies
/// directly in the class body rather than in a member function defined
/// there. Clang stores the tokens of such a function's body (this handler
/// runs as they are read) and parses them once the class is complete:
/// meanwhile the function is the class's last member, declared, with no
/// body and not yet marked as one that will have one. False when unsure:
/// the directive's declaration then lands in the class, where Analysis
/// refuses it.
bool directlyInClass(const DeclContext &Record, SourceLocation Directive,
                     const SourceManager &SM, const LangOptions &LangOpts) {
  const Decl *Last = nullptr;
  for (const Decl *D : Record.decls())
    Last = D;
  if (const auto *Friend = dyn_cast_or_null<FriendDecl>(Last))
    Last = Friend->getFriendDecl();
  const FunctionDecl *F = Last ? Last->getAsFunction() : nullptr;
  if (!F || F->hasBody() || F->willHaveBody() || F->isDeleted() ||
      F->isDefaulted())
    return true;
  return endsBefore(*F, Directive, SM, LangOpts);
}

} // namespace

std::string ringAlgorithmSpelling(redist::RingAlgorithm A) {
  std::string Name(redist::ringAlgorithmName(A));
  std::replace(Name.begin(), Name.end(), '-', '_');
  return Name;
}

const char *directiveName(DirectiveKind K) {
  switch (K) {
  case DirectiveKind::Processors:
    return "processors";
  case DirectiveKind::Distribute:
    return "distribute";
  case DirectiveKind::Redistribute:
    return "redistribute";
  case DirectiveKind::Assign:
    return "assign";
  case DirectiveKind::Rebalance:
    return "rebalance";
  case DirectiveKind::Inquire:
    return "inquire";
  }
  return "?";
}

void RedistPragmaHandler::HandlePragma(Preprocessor &PP,
                                       PragmaIntroducer Introducer,
                                       Token &FirstToken) {
  std::vector<Token> Toks;
  Token Tok;
  PP.Lex(Tok);
  while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) {
    Toks.push_back(Tok);
    PP.Lex(Tok);
  }
  const SourceManager &SM = PP.getSourceManager();
  if (Introducer.Kind != PIK_HashPragma || !Introducer.Loc.isFileID()) {
    Diags.report(FirstToken.getLocation(), Diags.FromMacro);
    return;
  }
  if (!SM.isWrittenInMainFile(Introducer.Loc)) {
    Diags.report(Introducer.Loc, Diags.NotMainFile);
    return;
  }
  if (!PP.getLangOpts().CPlusPlus11) {
    Diags.report(Introducer.Loc, Diags.NotCxx);
    return;
  }
  DirectiveParser Parser(PP, Diags, Toks, Tok);
  std::optional<Directive> D = Parser.parse(Introducer.Loc);
  if (!D)
    return;
  if (CI.hasSema() && CI.getSema().CurContext->isRecord() &&
      directlyInClass(*CI.getSema().CurContext, Introducer.Loc, SM,
                      PP.getLangOpts())) {
    Diags.report(D->KeywordLoc, Diags.BadScope) << directiveName(D->Kind);
    return;
  }
  // The code that uses an inquiry's name is parsed with the directive, so
  // the name must be declared in the parse too, with ArrayInfo's type.
  std::vector<Token> More;
  if (D->Kind == DirectiveKind::Inquire && CI.hasASTContext()) {
    D->ArrayForm = inquiresArrayForm(*D, Directives);
    const char *Type = D->ArrayForm ? "DistributedArrayInfo" : "ArrayInfo";
    if (!inquiryTypeDeclared(CI.getASTContext(), Type)) {
      Diags.report(D->KeywordLoc, Diags.InquireNeedsArrayInfo) << Type;
      return;
    }
    injectInquiry(PP, Introducer.Loc, D->Into, Type, More);
  }
  D->Id = static_cast<unsigned>(Directives.size()) + 1;
  Directives.push_back(std::move(*D));
  injectSlots(PP, Introducer.Loc, Parser.SlotTokens, More);
}

} // namespace redistc
