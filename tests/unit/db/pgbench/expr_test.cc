// Unit tests of pgbench's script language: the \set expression parser and
// evaluator (db/pgbench/pgbench_expr.h), the random functions
// (db/pgbench/pgbench_random.h) and script files (db/pgbench/pgbench_script.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "db/pgbench/pgbench_expr.h"
#include "db/pgbench/pgbench_random.h"
#include "db/pgbench/pgbench_script.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// Parses and evaluates `text` with x = 7, y = 2.5, n = NULL; the value's
// text, or "ERROR: <message>".
std::string Eval(const std::string& text, uint64_t seed = 1) {
  VariableTable vars;
  std::vector<PgValue> values(3);
  values[static_cast<size_t>(vars.Slot("x"))] = PgValue::Int(7);
  values[static_cast<size_t>(vars.Slot("y"))] = PgValue::Double(2.5);
  values[static_cast<size_t>(vars.Slot("n"))] = PgValue::Null();
  std::unique_ptr<ExprNode> e;
  Status st = ParseExpression(text, &vars, &e);
  if (!st.ok()) return "ERROR: " + st.message();
  values.resize(vars.size());
  TxRandom rng(seed);
  PgValue v;
  st = EvaluateExpression(*e, values, rng, &v);
  if (!st.ok()) return "ERROR: " + st.message();
  return ValueText(v);
}

TEST(DbExprTest, ArithmeticAndPrecedence) {
  EXPECT_EQ(Eval("1 + 2 * 3"), "7");
  EXPECT_EQ(Eval("(1 + 2) * 3"), "9");
  EXPECT_EQ(Eval("10 - 4 - 3"), "3");  // left associative
  EXPECT_EQ(Eval("7 / 2"), "3");       // integer division truncates
  EXPECT_EQ(Eval("-7 / 2"), "-3");
  EXPECT_EQ(Eval("-7 % 3"), "-1");
  EXPECT_EQ(Eval(":x * 100000 + 1"), "700001");
  EXPECT_EQ(Eval("-:x"), "-7");
  EXPECT_EQ(Eval(":x / 2.0"), "3.5");  // a double operand makes it double
  EXPECT_EQ(Eval(":y * 2"), "5");
  EXPECT_EQ(Eval("7.5 % 2"), "0");  // % is integer (7.5 rounds to 8)
  EXPECT_EQ(Eval("1e3 + 1"), "1001");
  EXPECT_EQ(Eval("5 & 3 | 8"), "9");
  EXPECT_EQ(Eval("1 << 4 >> 2"), "4");
  EXPECT_EQ(Eval("~0"), "-1");
  EXPECT_EQ(Eval("5 # 1"), "4");
  EXPECT_EQ(Eval("1 + 1 = 2 and not 3 < 2"), "true");
  EXPECT_EQ(Eval("2 >= 3 or 2 <> 2"), "false");
  EXPECT_EQ(Eval(":n + 1"), "NULL");
  EXPECT_EQ(Eval(":n is null"), "true");
  EXPECT_EQ(Eval(":x notnull"), "true");
  EXPECT_EQ(Eval("false and 1 / 0 = 1"), "false");  // lazy AND
}

TEST(DbExprTest, Functions) {
  EXPECT_EQ(Eval("abs(-5)"), "5");
  EXPECT_EQ(Eval("abs(-2.5)"), "2.5");
  EXPECT_EQ(Eval("least(5, 3, 9)"), "3");
  EXPECT_EQ(Eval("greatest(5, 3.5, 1)"), "5");
  EXPECT_EQ(Eval("greatest(:x, 10)"), "10");
  EXPECT_EQ(Eval("int(2.5)"), "2");  // rint: to even
  EXPECT_EQ(Eval("int(3.5)"), "4");
  EXPECT_EQ(Eval("double(3)"), "3");
  EXPECT_EQ(Eval("sqrt(16)"), "4");
  EXPECT_EQ(Eval("pow(2, 10)"), "1024");
  EXPECT_EQ(Eval("power(2, 0.5) * power(2, 0.5)"), "2");
  EXPECT_EQ(Eval("mod(17, 5)"), "2");
  EXPECT_EQ(Eval("pi()"), "3.14159265358979");
  EXPECT_EQ(Eval("ln(exp(2))"), "2");
  EXPECT_EQ(Eval("RANDOM(3, 3)"), "3");  // names are case-insensitive
  // The values pgbench 15 prints for \set x debug(...) of the same calls.
  EXPECT_EQ(Eval("hash_fnv1a(10, 5)"), "4876795174170569834");
  EXPECT_EQ(Eval("hash_murmur2(10, 5)"), "5862924560876750601");
  EXPECT_EQ(Eval("hash(-1234567, 42)"), "-1634358288568769501");
  EXPECT_EQ(Eval("hash_fnv1a(-1, 0)"), "-8289690350564177859");
  EXPECT_EQ(Eval("hash_murmur2(9223372036854775807, -3)"),
            "-3096203769572452470");
  // One argument: the seed is :default_seed (undefined in this table).
  EXPECT_EQ(Eval("hash(1)"), "ERROR: undefined variable \"default_seed\"");
  EXPECT_EQ(Eval("hash(1, 2, 3)"),
            "ERROR: wrong number of arguments (3) for function \"hash\"");
}

TEST(DbExprTest, ErrorsAsPgbench) {
  EXPECT_EQ(Eval("1 / 0"), "ERROR: division by zero");
  EXPECT_EQ(Eval("9223372036854775807 + 1"), "ERROR: bigint add out of range");
  EXPECT_EQ(Eval("-9223372036854775807 - 2"), "ERROR: bigint sub out of range");
  EXPECT_EQ(Eval("random(5, 1)"), "ERROR: empty range given to random");
  EXPECT_EQ(Eval("random(-9223372036854775807, 9223372036854775807)"),
            "ERROR: random range is too large");
  EXPECT_EQ(Eval("random_zipfian(1, 10, 0.5)"),
            "ERROR: zipfian parameter must be in range [1.001, 1000] (not "
            "0.500000)");
  EXPECT_EQ(Eval("random_zipfian(1, 10, 1000.5)"),
            "ERROR: zipfian parameter must be in range [1.001, 1000] (not "
            "1000.500000)");
  EXPECT_EQ(Eval("random_zipfian(1, 10, 1)"),
            "ERROR: zipfian parameter must be in range [1.001, 1000] (not "
            "1.000000)");
  EXPECT_EQ(Eval("random_gaussian(1, 10, 1.5)"),
            "ERROR: gaussian parameter must be at least 2.000000 (not "
            "1.500000)");
  EXPECT_EQ(Eval("random_exponential(1, 10, 0)"),
            "ERROR: exponential parameter must be greater than zero (not "
            "0.000000)");
  EXPECT_EQ(Eval(":missing + 1"), "ERROR: undefined variable \"missing\"");
  EXPECT_EQ(Eval("not 1"), "ERROR: cannot coerce int to boolean");
  EXPECT_EQ(Eval("nosuch(1)"), "ERROR: unrecognized function \"nosuch\"");
  EXPECT_EQ(Eval("random(1)"),
            "ERROR: wrong number of arguments (1) for function \"random\"");
  EXPECT_EQ(Eval("abs(1, 2)"),
            "ERROR: wrong number of arguments (2) for function \"abs\"");
  EXPECT_EQ(Eval("1 +"),
            "ERROR: syntax error at column 4: unexpected end of expression");
  EXPECT_EQ(Eval("(1 + 2"), "ERROR: syntax error at column 7: missing \")\"");
  EXPECT_EQ(Eval("1 2"), "ERROR: syntax error at column 3: unexpected \"2\"");
  EXPECT_EQ(Eval("99999999999999999999"),
            "ERROR: syntax error at column 21: bigint constant out of range "
            "\"99999999999999999999\"");
}

// Draws `n` values of `f` from a stream seeded with `seed`.
template <typename F>
std::vector<int64_t> Draw(uint64_t seed, int n, F f) {
  TxRandom rng(seed);
  std::vector<int64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(f(rng));
  return out;
}

// The exact values one seed gives (any change to the generators or their
// use of the stream changes them: runs would no longer repeat).
TEST(DbRandomTest, SequencesAreFixedBySeed) {
  EXPECT_EQ(Draw(42, 8, [](TxRandom& r) { return RandomUniform(r, 1, 100); }),
            (std::vector<int64_t>{9, 38, 69, 93, 100, 77, 72, 86}));
  EXPECT_EQ(Draw(42, 8,
                 [](TxRandom& r) { return RandomExponential(r, 1, 100, 5.0); }),
            (std::vector<int64_t>{2, 10, 23, 51, 85, 29, 26, 38}));
  EXPECT_EQ(
      Draw(42, 8, [](TxRandom& r) { return RandomGaussian(r, 1, 100, 2.5); }),
      (std::vector<int64_t>{56, 37, 25, 34, 80, 83, 29, 28}));
  EXPECT_EQ(
      Draw(42, 8, [](TxRandom& r) { return RandomZipfian(r, 1, 100, 1.5); }),
      (std::vector<int64_t>{1, 1, 1, 2, 1, 1, 1, 5}));
  EXPECT_EQ(
      Draw(42, 8, [](TxRandom& r) { return PoissonDelay(r, 1000.0); }),
      (std::vector<int64_t>{88, 476, 1140, 2586, 4804, 1469, 1270, 1897}));
  // Through the expression language: the same stream, the same numbers.
  EXPECT_EQ(Eval("random(1, 100)", 42), "9");
}

// The distributions have the shapes pgbench documents.
TEST(DbRandomTest, DistributionShapes) {
  const int n = 200000;
  TxRandom rng(7);
  // Exponential, parameter p over [1, 10]: P(value == 1) =
  // (1 - exp(-p/10)) / (1 - exp(-p)).
  int ones = 0;
  for (int i = 0; i < n; ++i) ones += RandomExponential(rng, 1, 10, 5.0) == 1;
  const double want_ones = (1 - std::exp(-0.5)) / (1 - std::exp(-5.0));
  EXPECT_NEAR(static_cast<double>(ones) / n, want_ones, 0.01);
  // Gaussian, parameter 2.5 over [1, 1000]: 68 % lie within one standard
  // deviation (200 values) of the middle, once the tails cut at 2.5 sigma
  // are renormalised: 0.6827 / 0.9876.
  int inside = 0;
  for (int i = 0; i < n; ++i) {
    int64_t v = RandomGaussian(rng, 1, 1000, 2.5);
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 1000);
    inside += v > 300 && v <= 700;
  }
  EXPECT_NEAR(static_cast<double>(inside) / n, 0.6827 / 0.9876, 0.01);
  // Zipfian, s = 2 over [1, 100]: P(k) = k^-2 / H(100, 2).
  double h = 0;
  for (int k = 1; k <= 100; ++k) h += 1.0 / (k * k);
  int count1 = 0, count2 = 0;
  for (int i = 0; i < n; ++i) {
    int64_t v = RandomZipfian(rng, 1, 100, 2.0);
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 100);
    count1 += v == 1;
    count2 += v == 2;
  }
  EXPECT_NEAR(static_cast<double>(count1) / n, 1.0 / h, 0.01);
  EXPECT_NEAR(static_cast<double>(count2) / n, 0.25 / h, 0.01);
  // Poisson delays: mean `center`, and P(delay > center) = exp(-1).
  double sum = 0;
  int above = 0;
  for (int i = 0; i < n; ++i) {
    int64_t d = PoissonDelay(rng, 1000.0);
    sum += static_cast<double>(d);
    above += d > 1000;
  }
  EXPECT_NEAR(sum / n, 1000.0, 10.0);
  EXPECT_NEAR(static_cast<double>(above) / n, std::exp(-1.0), 0.01);
}

class DbScriptFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("db_script_test_" + std::to_string(::getpid()) + ".sql");
    std::ofstream(path_) << text;
    return path_.string();
  }
  // The ConfigError message of adding `text` as a file ("" if accepted).
  std::string Error(const std::string& text) {
    ScriptSet set;
    try {
      set.AddFile(Write(text), 1);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_F(DbScriptFileTest, ParsesSqlSetAndSleep) {
  ScriptSet set;
  set.Define("limit=50");
  set.AddFile(Write("-- a comment\n"
                    "\\set id random(1, :limit) + :client_id\n"
                    "\\sleep 2 ms\n"
                    "SELECT 'a;b' || 'c',\n"
                    "  :id::text -- trailing comment\n"
                    "  ;\n"
                    "\\sleep :id us\n"
                    "select 1"),
              3);
  const PgScript& s = set.scripts[0];
  EXPECT_EQ(s.weight, 3);
  EXPECT_FALSE(s.writes);
  ASSERT_EQ(s.commands.size(), 5u);
  EXPECT_EQ(s.commands[0].type, ScriptCommandType::kSet);
  EXPECT_EQ(s.commands[0].line, 2);
  EXPECT_EQ(s.commands[1].type, ScriptCommandType::kSleep);
  EXPECT_EQ(s.commands[1].sleep_value, 2);
  EXPECT_EQ(s.commands[1].sleep_unit_us, 1000);
  const ScriptCommand& sql = s.commands[2];
  EXPECT_EQ(sql.line, 4);
  EXPECT_EQ(sql.first_line, "SELECT 'a;b' || 'c',");
  // The ';' inside quotes does not end the command; the comment is dropped
  // and "::text" stays a cast.
  EXPECT_EQ(sql.sql, "SELECT 'a;b' || 'c',\n  $1::text");
  EXPECT_EQ(sql.params, std::vector<int>{set.vars.Find("id")});
  std::vector<PgValue> vars(set.vars.size());
  vars[static_cast<size_t>(set.vars.Find("id"))] = PgValue::Int(12);
  EXPECT_EQ(RenderSql(sql, vars), "SELECT 'a;b' || 'c',\n  12::text");
  EXPECT_EQ(s.commands[3].sleep_slot, set.vars.Find("id"));
  EXPECT_EQ(s.commands[3].sleep_unit_us, 1);
  EXPECT_EQ(s.commands[4].first_line, "select 1");
}

TEST_F(DbScriptFileTest, ErrorsNameFileAndLine) {
  std::string e = Error("\\set a 1\nSELECT :a;\nSELECT :b;\n");
  EXPECT_NE(e.find(path_.string() + ":3: undefined variable \"b\""),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("Fix:"), std::string::npos) << e;
  e = Error("\\set a :a + 1\n");
  EXPECT_NE(e.find(":1: undefined variable \"a\""), std::string::npos) << e;
  e = Error("SELECT 1;\n\\set a random(1)\n");
  EXPECT_NE(e.find(":2: \\set a: wrong number of arguments"), std::string::npos)
      << e;
  e = Error("\\sleep 3 hours\n");
  EXPECT_NE(e.find(":1: unrecognized time unit \"hours\""), std::string::npos)
      << e;
  e = Error("\n\n\\gset\n");
  EXPECT_NE(e.find(":3: unsupported meta-command \"\\gset\""),
            std::string::npos)
      << e;
  e = Error("SELECT 'open;\n");
  EXPECT_NE(e.find(":1: unterminated quoted string"), std::string::npos) << e;
  e = Error("-- nothing\n");
  EXPECT_NE(e.find("no command"), std::string::npos) << e;
  EXPECT_EQ(Error("\\set a 1\nSELECT :a::int, :scale, :random_seed;"), "");
}

TEST_F(DbScriptFileTest, ConditionalsAreLinked) {
  ScriptSet set;
  set.AddFile(Write("\\set r random(1, 4)\n"  // 0
                    "\\if :r = 1\n"           // 1
                    "\\if :r > 0\n"           // 2
                    "SELECT 1;\n"             // 3
                    "\\endif\n"               // 4
                    "\\elif :r = 2\n"         // 5
                    "SELECT 2;\n"             // 6
                    "\\else\n"                // 7
                    "SELECT 3;\n"             // 8
                    "\\endif\n"),             // 9
              1);
  const auto& c = set.scripts[0].commands;
  ASSERT_EQ(c.size(), 10u);
  EXPECT_EQ(c[1].type, ScriptCommandType::kIf);
  EXPECT_EQ(c[1].next_branch, 5);
  EXPECT_EQ(c[1].endif, 9);
  EXPECT_EQ(c[2].next_branch, 4);
  EXPECT_EQ(c[2].endif, 4);
  EXPECT_EQ(c[5].type, ScriptCommandType::kElif);
  EXPECT_EQ(c[5].next_branch, 7);
  EXPECT_EQ(c[7].type, ScriptCommandType::kElse);
  EXPECT_EQ(c[7].next_branch, 9);
  EXPECT_EQ(c[7].endif, 9);
  EXPECT_EQ(c[9].type, ScriptCommandType::kEndif);
  std::string e = Error("\\if 1\nSELECT 1;\n");
  EXPECT_NE(e.find(":1: \\if without matching \\endif"), std::string::npos)
      << e;
  e = Error("SELECT 1;\n\\endif\n");
  EXPECT_NE(e.find(":2: \\endif without matching \\if"), std::string::npos)
      << e;
  e = Error("\\if 1\n\\else\n\\elif 2\n\\endif\n");
  EXPECT_NE(e.find(":3: \\elif after \\else"), std::string::npos) << e;
  e = Error("\\if\n\\endif\n");
  EXPECT_NE(e.find(":1: missing expression after \\if"), std::string::npos)
      << e;
}

TEST(DbScriptTest, WeightsAndDefines) {
  std::string name;
  int weight = 0;
  SplitScriptWeight("x.sql@10", "-f", &name, &weight);
  EXPECT_EQ(name, "x.sql");
  EXPECT_EQ(weight, 10);
  SplitScriptWeight("tpcb-like", "-b", &name, &weight);
  EXPECT_EQ(name, "tpcb-like");
  EXPECT_EQ(weight, 1);
  EXPECT_THROW(SplitScriptWeight("x@-1", "-f", &name, &weight), ConfigError);
  EXPECT_THROW(SplitScriptWeight("x@ten", "-f", &name, &weight), ConfigError);
  ScriptSet set;
  set.AddBuiltin(Builtin::kSelectOnly, 0);
  EXPECT_THROW(set.Finish(), ConfigError);  // total weight 0
  EXPECT_THROW(set.Define("1abc=3"), ConfigError);
  EXPECT_THROW(set.Define("novalue"), ConfigError);
  set.Define("s=hello");
  set.Define("d=2.5");
  EXPECT_EQ(set.defines[0].second.type, PgValue::kString);
  EXPECT_EQ(set.defines[1].second.type, PgValue::kDouble);
}

}  // namespace
}  // namespace tierbench
