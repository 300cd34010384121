#include "db/pgbench/pgbench_expr.h"

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "db/pgbench/pgbench_random.h"

namespace tierbench {

PgValue PgValue::Null() {
  PgValue v;
  v.type = kNull;
  return v;
}
PgValue PgValue::Bool(bool b) {
  PgValue v;
  v.type = kBool;
  v.b = b;
  return v;
}
PgValue PgValue::Int(int64_t i) {
  PgValue v;
  v.type = kInt;
  v.i = i;
  return v;
}
PgValue PgValue::Double(double d) {
  PgValue v;
  v.type = kDouble;
  v.d = d;
  return v;
}

PgValue PgValue::FromText(const std::string& text) {
  if (strcasecmp(text.c_str(), "null") == 0) return Null();
  if (!text.empty() && (strncasecmp(text.c_str(), "true", text.size()) == 0 ||
                        strcasecmp(text.c_str(), "on") == 0)) {
    return Bool(true);
  }
  if (!text.empty() && (strncasecmp(text.c_str(), "false", text.size()) == 0 ||
                        strcasecmp(text.c_str(), "off") == 0)) {
    return Bool(false);
  }
  errno = 0;
  char* end = nullptr;
  long long i = std::strtoll(text.c_str(), &end, 10);
  if (!text.empty() && *end == '\0' && errno == 0) return Int(i);
  errno = 0;
  double d = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0' && errno == 0) return Double(d);
  PgValue v;
  v.type = kString;
  v.s = text;
  return v;
}

std::string ValueText(const PgValue& v) {
  char buf[64];
  switch (v.type) {
    case PgValue::kNull:
      return "NULL";
    case PgValue::kBool:
      return v.b ? "true" : "false";
    case PgValue::kInt:
      return std::to_string(v.i);
    case PgValue::kDouble:
      std::snprintf(buf, sizeof(buf), "%.*g", DBL_DIG, v.d);
      return buf;
    case PgValue::kString:
      return v.s;
    case PgValue::kNone:
      break;
  }
  return "";
}

int VariableTable::Slot(const std::string& name) {
  auto it = slots_.find(name);
  if (it != slots_.end()) return it->second;
  const int slot = static_cast<int>(names_.size());
  slots_.emplace(name, slot);
  names_.push_back(name);
  return slot;
}

int VariableTable::Find(const std::string& name) const {
  auto it = slots_.find(name);
  return it == slots_.end() ? -1 : it->second;
}

namespace {

bool IsNameStart(char c) {
  return (static_cast<unsigned char>(c) & 0x80) != 0 ||
         std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsNameChar(char c) {
  return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

struct FuncInfo {
  const char* name;
  int nargs;  // -1: one or more; -2: one or two (seed :default_seed)
  ExprFunc func;
};
constexpr FuncInfo kFuncs[] = {
    {"abs", 1, ExprFunc::kAbs},
    {"double", 1, ExprFunc::kDouble},
    {"int", 1, ExprFunc::kInt},
    {"greatest", -1, ExprFunc::kGreatest},
    {"least", -1, ExprFunc::kLeast},
    {"pi", 0, ExprFunc::kPi},
    {"sqrt", 1, ExprFunc::kSqrt},
    {"ln", 1, ExprFunc::kLn},
    {"exp", 1, ExprFunc::kExp},
    {"pow", 2, ExprFunc::kPow},
    {"power", 2, ExprFunc::kPow},
    {"mod", 2, ExprFunc::kMod},
    {"random", 2, ExprFunc::kRandom},
    {"random_exponential", 3, ExprFunc::kRandomExponential},
    {"random_gaussian", 3, ExprFunc::kRandomGaussian},
    {"random_zipfian", 3, ExprFunc::kRandomZipfian},
    {"hash", -2, ExprFunc::kHashMurmur2},
    {"hash_murmur2", -2, ExprFunc::kHashMurmur2},
    {"hash_fnv1a", -2, ExprFunc::kHashFnv1a},
};

using Node = std::unique_ptr<ExprNode>;

Node Call(ExprFunc f, Node a, Node b = nullptr) {
  auto n = std::make_unique<ExprNode>();
  n->kind = ExprNode::kCall;
  n->func = f;
  n->args.push_back(std::move(a));
  if (b) n->args.push_back(std::move(b));
  return n;
}

Node Const(PgValue v) {
  auto n = std::make_unique<ExprNode>();
  n->kind = ExprNode::kConst;
  n->value = std::move(v);
  return n;
}

// Recursive-descent parser, one method per precedence level.
class Parser {
 public:
  Parser(std::string_view text, VariableTable* vars,
         std::vector<std::string>* used)
      : s_(text), vars_(vars), used_(used) {}

  Status Parse(Node* out) {
    Node n = Or();
    if (error_.empty()) {
      Skip();
      if (pos_ < s_.size())
        Fail("unexpected \"" + std::string(1, s_[pos_]) + "\"");
    }
    if (!error_.empty()) return Status::InvalidArgument(error_);
    *out = std::move(n);
    return Status::Ok();
  }

 private:
  void Fail(const std::string& what) {
    if (error_.empty()) {
      error_ =
          "syntax error at column " + std::to_string(pos_ + 1) + ": " + what;
    }
  }
  void Skip() {
    while (pos_ < s_.size() &&
           std::isspace(static_cast<unsigned char>(s_[pos_]))) {
      ++pos_;
    }
  }
  bool Eat(std::string_view op) {
    Skip();
    if (s_.substr(pos_, op.size()) != op) return false;
    pos_ += op.size();
    return true;
  }
  // A keyword (case-insensitive) not followed by a name character.
  bool EatWord(std::string_view w) {
    Skip();
    if (pos_ + w.size() > s_.size()) return false;
    if (strncasecmp(s_.data() + pos_, w.data(), w.size()) != 0) return false;
    if (pos_ + w.size() < s_.size() && IsNameChar(s_[pos_ + w.size()])) {
      return false;
    }
    pos_ += w.size();
    return true;
  }

  Node Or() {
    Node l = And();
    while (error_.empty() && EatWord("or"))
      l = Call(ExprFunc::kOr, std::move(l), And());
    return l;
  }
  Node And() {
    Node l = Not();
    while (error_.empty() && EatWord("and"))
      l = Call(ExprFunc::kAnd, std::move(l), Not());
    return l;
  }
  Node Not() {
    if (EatWord("not")) return Call(ExprFunc::kNot, Not());
    return Is();
  }
  Node Is() {
    Node l = Compare();
    if (!error_.empty()) return l;
    if (EatWord("isnull")) return Call(ExprFunc::kIsNull, std::move(l));
    if (EatWord("notnull")) {
      return Call(ExprFunc::kNot, Call(ExprFunc::kIsNull, std::move(l)));
    }
    if (EatWord("is")) {
      bool negate = EatWord("not");
      if (!EatWord("null")) {
        Fail("expected NULL after IS");
        return l;
      }
      Node n = Call(ExprFunc::kIsNull, std::move(l));
      return negate ? Call(ExprFunc::kNot, std::move(n)) : std::move(n);
    }
    return l;
  }
  Node Compare() {
    Node l = Bitwise();
    if (!error_.empty()) return l;
    if (Eat("<=")) return Call(ExprFunc::kLe, std::move(l), Bitwise());
    if (Eat(">=")) return Call(ExprFunc::kLe, Bitwise(), std::move(l));
    if (Eat("<>") || Eat("!="))
      return Call(ExprFunc::kNe, std::move(l), Bitwise());
    Skip();
    // "<<" and ">>" are shifts, handled one level down.
    if (s_.substr(pos_, 2) != "<<" && Eat("<")) {
      return Call(ExprFunc::kLt, std::move(l), Bitwise());
    }
    if (s_.substr(pos_, 2) != ">>" && Eat(">")) {
      return Call(ExprFunc::kLt, Bitwise(), std::move(l));
    }
    if (Eat("=")) return Call(ExprFunc::kEq, std::move(l), Bitwise());
    return l;
  }
  Node Bitwise() {
    Node l = Additive();
    while (error_.empty()) {
      if (Eat("<<")) {
        l = Call(ExprFunc::kShl, std::move(l), Additive());
      } else if (Eat(">>")) {
        l = Call(ExprFunc::kShr, std::move(l), Additive());
      } else if (Eat("&")) {
        l = Call(ExprFunc::kBitAnd, std::move(l), Additive());
      } else if (Eat("|")) {
        l = Call(ExprFunc::kBitOr, std::move(l), Additive());
      } else if (Eat("#")) {
        l = Call(ExprFunc::kBitXor, std::move(l), Additive());
      } else {
        break;
      }
    }
    return l;
  }
  Node Additive() {
    Node l = Term();
    while (error_.empty()) {
      if (Eat("+")) {
        l = Call(ExprFunc::kAdd, std::move(l), Term());
      } else if (Eat("-")) {
        l = Call(ExprFunc::kSub, std::move(l), Term());
      } else {
        break;
      }
    }
    return l;
  }
  Node Term() {
    Node l = Unary();
    while (error_.empty()) {
      if (Eat("*")) {
        l = Call(ExprFunc::kMul, std::move(l), Unary());
      } else if (Eat("/")) {
        l = Call(ExprFunc::kDiv, std::move(l), Unary());
      } else if (Eat("%")) {
        l = Call(ExprFunc::kMod, std::move(l), Unary());
      } else {
        break;
      }
    }
    return l;
  }
  // Every nesting (parentheses, call arguments, unary operators) passes
  // through Unary: bounding its depth bounds the parser's recursion and the
  // tree's depth (evaluation and destruction recurse too), so a hostile
  // script gets an error, not a stack overflow (found by fuzzing).
  static constexpr int kMaxDepth = 200;
  Node Unary() {
    if (depth_ >= kMaxDepth) {
      Fail("expression nests deeper than " + std::to_string(kMaxDepth) +
           " levels (parentheses, calls, unary operators)");
      return Const(PgValue::Null());
    }
    ++depth_;
    Node n = UnaryOperand();
    --depth_;
    return n;
  }
  Node UnaryOperand() {
    // As pgbench: -x is 0 - x, ~x is -1 # x.
    if (Eat("-")) return Call(ExprFunc::kSub, Const(PgValue::Int(0)), Unary());
    if (Eat("+")) return Unary();
    if (Eat("~"))
      return Call(ExprFunc::kBitXor, Const(PgValue::Int(-1)), Unary());
    return Primary();
  }
  Node Primary() {
    Skip();
    if (pos_ >= s_.size()) {
      Fail("unexpected end of expression");
      return Const(PgValue::Null());
    }
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      Node n = Or();
      if (error_.empty() && !Eat(")")) Fail("missing \")\"");
      return n;
    }
    if (c == ':') {
      size_t start = ++pos_;
      while (pos_ < s_.size() && IsNameChar(s_[pos_])) ++pos_;
      std::string name(s_.substr(start, pos_ - start));
      if (!IsVariableName(name)) {
        Fail("invalid variable name after \":\"");
        return Const(PgValue::Null());
      }
      auto n = std::make_unique<ExprNode>();
      n->kind = ExprNode::kVar;
      n->slot = vars_->Slot(name);
      n->name = name;
      if (used_) used_->push_back(name);
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
      return Number();
    if (IsNameStart(c)) {
      size_t start = pos_;
      while (pos_ < s_.size() && IsNameChar(s_[pos_])) ++pos_;
      std::string word(s_.substr(start, pos_ - start));
      if (strcasecmp(word.c_str(), "true") == 0)
        return Const(PgValue::Bool(true));
      if (strcasecmp(word.c_str(), "false") == 0)
        return Const(PgValue::Bool(false));
      if (strcasecmp(word.c_str(), "null") == 0) return Const(PgValue::Null());
      return Function(word);
    }
    Fail("unexpected \"" + std::string(1, c) + "\"");
    return Const(PgValue::Null());
  }
  Node Number() {
    size_t start = pos_;
    bool is_double = false;
    while (pos_ < s_.size() &&
           std::isdigit(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      is_double = true;
      ++pos_;
      while (pos_ < s_.size() &&
             std::isdigit(static_cast<unsigned char>(s_[pos_])))
        ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      is_double = true;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      while (pos_ < s_.size() &&
             std::isdigit(static_cast<unsigned char>(s_[pos_])))
        ++pos_;
    }
    const std::string text(s_.substr(start, pos_ - start));
    errno = 0;
    char* end = nullptr;
    if (!is_double) {
      long long v = std::strtoll(text.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') return Const(PgValue::Int(v));
      Fail("bigint constant out of range \"" + text + "\"");
      return Const(PgValue::Null());
    }
    double d = std::strtod(text.c_str(), &end);
    if (errno != 0 || *end != '\0') Fail("invalid number \"" + text + "\"");
    return Const(PgValue::Double(d));
  }
  Node Function(const std::string& name) {
    const FuncInfo* info = nullptr;
    for (const auto& f : kFuncs) {
      if (strcasecmp(f.name, name.c_str()) == 0) info = &f;
    }
    if (!Eat("(")) {
      Fail("unexpected word \"" + name + "\"");
      return Const(PgValue::Null());
    }
    if (info == nullptr) {
      if (error_.empty()) error_ = "unrecognized function \"" + name + "\"";
      return Const(PgValue::Null());
    }
    auto n = std::make_unique<ExprNode>();
    n->kind = ExprNode::kCall;
    n->func = info->func;
    if (!Eat(")")) {
      do {
        n->args.push_back(Or());
      } while (error_.empty() && Eat(","));
      if (error_.empty() && !Eat(")")) Fail("missing \")\" after arguments");
    }
    const int got = static_cast<int>(n->args.size());
    if (info->nargs == -2 && got == 1) {
      // hash(v) is hash(v, :default_seed), as pgbench.
      auto seed = std::make_unique<ExprNode>();
      seed->kind = ExprNode::kVar;
      seed->name = "default_seed";
      seed->slot = vars_->Slot(seed->name);
      if (used_) used_->push_back(seed->name);
      n->args.push_back(std::move(seed));
    }
    if (error_.empty() && ((info->nargs >= 0 && got != info->nargs) ||
                           (info->nargs == -1 && got < 1) ||
                           (info->nargs == -2 && (got < 1 || got > 2)))) {
      error_ = "wrong number of arguments (" + std::to_string(got) +
               ") for function \"" + info->name + "\"";
    }
    return n;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;  // Unary nesting
  VariableTable* vars_;
  std::vector<std::string>* used_;
  std::string error_;
};

}  // namespace

bool IsVariableName(std::string_view name) {
  if (name.empty() || !IsNameStart(name[0])) return false;
  for (char c : name) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

Status ParseExpression(std::string_view text, VariableTable* vars,
                       std::unique_ptr<ExprNode>* out,
                       std::vector<std::string>* used) {
  return Parser(text, vars, used).Parse(out);
}

}  // namespace tierbench
