// The expressions of pgbench's `\set` meta-command: values, a variable
// table, a parser and an evaluator with pgbench 15's semantics.
//
// Grammar (pgbench's exprparse.y precedence, lowest first): OR, AND, NOT,
// IS [NOT] NULL / ISNULL / NOTNULL, comparisons (= <> != < <= > >=, not
// associative), bitwise (| # & << >>), + -, * / %, unary (- + ~). Operands:
// integer and double constants, true / false / null, :variables,
// parentheses and function calls. Functions: abs, double, int, greatest,
// least, pi, sqrt, ln, exp, pow / power, mod, random, random_exponential,
// random_gaussian, random_zipfian (db/pgbench/pgbench_random.h), hash /
// hash_murmur2 / hash_fnv1a (value[, seed]; the seed defaults to
// :default_seed).
//
// Evaluation follows pgbench: int op int is int (overflow is an error, "/"
// truncates, x / -1 and x % -1 are special-cased), a double operand makes
// the operation double (except %, always int), NULL operands give NULL,
// random ranges must be non-empty, gaussian parameter >= 2, zipfian
// parameter in [1.001, 1000], exponential parameter > 0.
//
// Thread-safety: parsed trees are immutable and may be shared; evaluation
// writes only the caller's variables and random stream.
#ifndef TIERBENCH_DB_PGBENCH_PGBENCH_EXPR_H_
#define TIERBENCH_DB_PGBENCH_PGBENCH_EXPR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/pgbench/pgbench_builtin.h"
#include "util/status.h"

namespace tierbench {

struct PgValue {
  // kNone: the variable was never set. kString: a -D value that is not a
  // number (used as text in SQL; an error inside an expression).
  enum Type { kNone, kNull, kBool, kInt, kDouble, kString };
  Type type = kNone;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;

  static PgValue Null();
  static PgValue Bool(bool v);
  static PgValue Int(int64_t v);
  static PgValue Double(double v);
  // A -D value: int, double or boolean when it reads as one, else text.
  static PgValue FromText(const std::string& text);
};

// The text a value is sent as: ints in decimal, doubles with 15 significant
// digits (%.15g), true/false, NULL.
std::string ValueText(const PgValue& v);

// Names of the variables of a script set, each with a fixed slot; a client
// keeps one PgValue per slot.
class VariableTable {
 public:
  // The slot of `name`, created when new.
  int Slot(const std::string& name);
  // The slot of `name`, or -1.
  int Find(const std::string& name) const;
  const std::string& Name(int slot) const { return names_[slot]; }
  size_t size() const { return names_.size(); }

 private:
  std::map<std::string, int> slots_;
  std::vector<std::string> names_;
};

// True when `name` is a valid pgbench variable name (letters, digits,
// underscore or non-ASCII; not starting with a digit).
bool IsVariableName(std::string_view name);

enum class ExprFunc {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kEq,
  kNe,
  kLt,
  kLe,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kBitAnd,
  kBitOr,
  kBitXor,
  kShl,
  kShr,
  kAbs,
  kDouble,
  kInt,
  kGreatest,
  kLeast,
  kPi,
  kSqrt,
  kLn,
  kExp,
  kPow,
  kRandom,
  kRandomExponential,
  kRandomGaussian,
  kRandomZipfian,
  kHashFnv1a,
  kHashMurmur2,
};

struct ExprNode {
  enum Kind { kConst, kVar, kCall };
  Kind kind = kConst;
  PgValue value;     // kConst
  int slot = -1;     // kVar
  std::string name;  // kVar, for messages
  ExprFunc func = ExprFunc::kAdd;
  std::vector<std::unique_ptr<ExprNode>> args;  // kCall
};

// Parses one expression. Variables are looked up / created in `vars`; the
// names used are appended to *used (for the caller's undefined-variable
// check). Errors: "syntax error at column N: ...", "unrecognized function
// \"f\"", "wrong number of arguments (N) for function \"f\"".
Status ParseExpression(std::string_view text, VariableTable* vars,
                       std::unique_ptr<ExprNode>* out,
                       std::vector<std::string>* used = nullptr);

// Evaluates `e` with the client's variables and random stream. Errors name
// the cause as pgbench does ("undefined variable \"x\"", "division by zero",
// "bigint add out of range", "empty range given to random", "zipfian
// parameter must be in range [1.001, 1000] (not 0.500000)", ...).
Status EvaluateExpression(const ExprNode& e, const std::vector<PgValue>& vars,
                          TxRandom& rng, PgValue* out);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_PGBENCH_EXPR_H_
