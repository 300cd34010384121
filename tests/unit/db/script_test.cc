// Unit tests of the built-in scripts, random values and DB workload files.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "db/db_cell.h"
#include "db/db_session.h"
#include "db/pgbench/pgbench_builtin.h"
#include "db/pgbench/pgbench_script.h"
#include "db/pgbench_report.h"
#include "db/tpcb_driver.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// Runs the \set commands of `script` for one transaction with `rng`.
std::vector<PgValue> DrawVars(const ScriptSet& set, const PgScript& script,
                              TxRandom& rng, int scale) {
  std::vector<PgValue> vars(set.vars.size());
  vars[static_cast<size_t>(set.scale_slot)] = PgValue::Int(scale);
  for (const auto& cmd : script.commands) {
    if (cmd.type != ScriptCommandType::kSet) continue;
    PgValue v;
    EXPECT_TRUE(EvaluateExpression(*cmd.expr, vars, rng, &v).ok());
    vars[static_cast<size_t>(cmd.set_slot)] = v;
  }
  return vars;
}

TEST(DbScriptTest, TpcbLikeIsPgbenchsScript) {
  ScriptSet set;
  set.AddBuiltin(Builtin::kTpcbLike, 1);
  const PgScript& s = set.scripts[0];
  EXPECT_EQ(s.desc, "<builtin: TPC-B (sort of)>");
  EXPECT_TRUE(s.writes);
  ASSERT_EQ(s.commands.size(), 11u);
  std::vector<PgValue> vars(set.vars.size());
  vars[static_cast<size_t>(set.vars.Find("aid"))] = PgValue::Int(123);
  vars[static_cast<size_t>(set.vars.Find("bid"))] = PgValue::Int(2);
  vars[static_cast<size_t>(set.vars.Find("tid"))] = PgValue::Int(17);
  vars[static_cast<size_t>(set.vars.Find("delta"))] = PgValue::Int(-42);
  const char* want[] = {
      "BEGIN",
      "UPDATE pgbench_accounts SET abalance = abalance + -42 WHERE aid = 123",
      "SELECT abalance FROM pgbench_accounts WHERE aid = 123",
      "UPDATE pgbench_tellers SET tbalance = tbalance + -42 WHERE tid = 17",
      "UPDATE pgbench_branches SET bbalance = bbalance + -42 WHERE bid = 2",
      ("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (17, "
       "2, 123, -42, CURRENT_TIMESTAMP)"),
      "END"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(s.commands[i].type, ScriptCommandType::kSet) << i;
  }
  EXPECT_EQ(s.commands[0].first_line, "\\set aid random(1, 100000 * :scale)");
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(RenderSql(s.commands[4 + i], vars), want[i]) << i;
  }
  // Extended / prepared text: one $n per variable occurrence, as pgbench.
  EXPECT_EQ(s.commands[5].sql,
            "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = "
            "$2");
  EXPECT_EQ(s.commands[9].first_line,
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES "
            "(:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);");
  ScriptSet other;
  other.AddBuiltin(Builtin::kSimpleUpdate, 1);
  other.AddBuiltin(Builtin::kSelectOnly, 1);
  EXPECT_EQ(other.scripts[0].commands.size(), 9u);
  EXPECT_EQ(other.scripts[1].commands.size(), 2u);
  EXPECT_FALSE(other.scripts[1].writes);
}

// The shipped workloads/tpcb-like.sql is the built-in script: the same
// commands and, from one seed, the same random values.
TEST(DbScriptTest, ShippedTpcbFileEqualsBuiltin) {
  ScriptSet set;
  set.AddBuiltin(Builtin::kTpcbLike, 1);
  set.AddFile(std::string(TIERBENCH_SOURCE_DIR) + "/workloads/tpcb-like.sql",
              1);
  const PgScript& b = set.scripts[0];
  const PgScript& f = set.scripts[1];
  EXPECT_EQ(f.desc,
            std::string(TIERBENCH_SOURCE_DIR) + "/workloads/tpcb-like.sql");
  ASSERT_EQ(b.commands.size(), f.commands.size());
  for (size_t i = 0; i < b.commands.size(); ++i) {
    EXPECT_EQ(b.commands[i].first_line, f.commands[i].first_line) << i;
    EXPECT_EQ(b.commands[i].sql, f.commands[i].sql) << i;
    EXPECT_EQ(b.commands[i].params, f.commands[i].params) << i;
  }
  TxRandom r1(5), r2(5);
  for (int i = 0; i < 100; ++i) {
    auto v1 = DrawVars(set, b, r1, 4);
    auto v2 = DrawVars(set, f, r2, 4);
    for (size_t k = 0; k < v1.size(); ++k) {
      ASSERT_EQ(ValueText(v1[k]), ValueText(v2[k]));
    }
  }
}

TEST(DbScriptTest, NamesAndModes) {
  struct Case {
    const char* text;
    bool ok;
    Builtin want;
  } cases[] = {{"tpcb-like", true, Builtin::kTpcbLike},
               {"tpcb", true, Builtin::kTpcbLike},
               {"select-only", true, Builtin::kSelectOnly},
               {"s", false, Builtin::kTpcbLike},  // ambiguous prefix
               {"tpcc", false, Builtin::kTpcbLike}};
  for (const auto& c : cases) {
    Builtin b = Builtin::kTpcbLike;
    EXPECT_EQ(ParseBuiltin(c.text, &b).ok(), c.ok) << c.text;
    if (c.ok) {
      EXPECT_EQ(b, c.want) << c.text;
    }
  }
  QueryMode m;
  EXPECT_TRUE(ParseQueryMode("extended", &m).ok());
  EXPECT_EQ(m, QueryMode::kExtended);
  EXPECT_FALSE(ParseQueryMode("Simple", &m).ok());
  EXPECT_STREQ(BuiltinDescription(Builtin::kTpcbLike), "TPC-B (sort of)");
}

TEST(DbScriptTest, ValuesStayInPgbenchRanges) {
  ScriptSet set;
  set.AddBuiltin(Builtin::kTpcbLike, 1);
  const size_t aid = static_cast<size_t>(set.vars.Find("aid"));
  const size_t bid = static_cast<size_t>(set.vars.Find("bid"));
  const size_t tid = static_cast<size_t>(set.vars.Find("tid"));
  const size_t delta = static_cast<size_t>(set.vars.Find("delta"));
  TxRandom rng(1);
  int64_t min_aid = INT64_MAX, max_aid = 0, min_delta = 0, max_delta = 0;
  for (int i = 0; i < 200000; ++i) {
    auto v = DrawVars(set, set.scripts[0], rng, 3);
    ASSERT_GE(v[bid].i, 1);
    ASSERT_LE(v[bid].i, 3);
    ASSERT_GE(v[tid].i, 1);
    ASSERT_LE(v[tid].i, 30);
    min_aid = std::min(min_aid, v[aid].i);
    max_aid = std::max(max_aid, v[aid].i);
    min_delta = std::min(min_delta, v[delta].i);
    max_delta = std::max(max_delta, v[delta].i);
  }
  EXPECT_GE(min_aid, 1);
  EXPECT_LE(max_aid, 300000);
  EXPECT_GT(max_aid, 290000);  // the whole range is reached
  EXPECT_EQ(min_delta, -5000);
  EXPECT_EQ(max_delta, 5000);
}

TEST(DbScriptTest, SeedMakesStreamsRepeatable) {
  TxRandom a(99), b(99), c(100);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(DbScriptTest, ProgressLineFormat) {
  EXPECT_EQ(FormatProgressLine(5.0, 812.34, 1.2314, 0.4021, 0),
            "progress: 5.0 s, 812.3 tps, lat 1.231 ms stddev 0.402, 0 failed");
  // With -R: the lag; with -R and -L: the skipped count.
  EXPECT_EQ(FormatProgressLine(2.0, 100.0, 3.5, 1.25, 1, 0.1234),
            "progress: 2.0 s, 100.0 tps, lat 3.500 ms stddev 1.250, 1 failed, "
            "lag 0.123 ms");
  EXPECT_EQ(FormatProgressLine(2.0, 100.0, 3.5, 1.25, 0, 2.5, 7),
            "progress: 2.0 s, 100.0 tps, lat 3.500 ms stddev 1.250, 0 failed, "
            "lag 2.500 ms, 7 skipped");
}

// The summary lines of -R, -L and -r, as pgbench 15 prints them.
TEST(DbScriptTest, SummaryWithRateLimitAndPerCommand) {
  auto set = std::make_shared<ScriptSet>();
  set->AddBuiltin(Builtin::kSelectOnly, 1);
  set->Finish();
  TpcbDriverConfig cfg;
  cfg.scale = 1;
  cfg.duration_ns = 2000000000ull;
  cfg.rate_tps = 100;
  cfg.latency_limit_ns = 5000000;
  cfg.report_per_command = true;
  TpcbRunResult r;
  r.scripts = set;
  r.transactions = 3;
  r.skipped = 1;
  r.late = 1;
  r.bench_ns = 2000000000ull;
  DirectionStats& d = r.job.dir[static_cast<int>(IoDir::kRead)];
  for (double ms : {2.0, 4.0, 9.0}) d.lat.Add(ms * 1e6);
  for (double ms : {1.0, 2.0, 3.0}) r.lag.Add(ms * 1e6);
  r.per_script.resize(1);
  r.per_script[0].commands = {{6000.0, 3, 0}, {12345678.0, 3, 0}};
  std::ostringstream out;
  WritePgbenchSummary(cfg, r, out);
  const std::string text = out.str();
  for (const char* line : {
           "transaction type: <builtin: select only>\n",
           "number of transactions actually processed: 3\n",
           "number of failed transactions: 0 (0.000%)\n"
           "number of transactions skipped: 1 (25.000%)\n"
           "number of transactions above the 5.0 ms latency limit: 1/3 "
           "(33.333%)\n"
           "latency average = 5.000 ms\n",
           "rate limit schedule lag: avg 2.000 (max 3.000) ms\n"
           "initial connection time = ",
           "statement latencies in milliseconds and failures:\n"
           "         0.002           0  \\set aid random(1, 100000 * :scale)\n"
           "         4.115           0  SELECT abalance FROM pgbench_accounts "
           "WHERE aid = :aid;\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
  EXPECT_EQ(text.find("SQL script"), std::string::npos);  // one script
}

class DbWorkloadFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("db_workload_test_" + std::to_string(::getpid()) + ".json");
    std::ofstream(path_) << text;
    return path_.string();
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_F(DbWorkloadFileTest, ShippedWorkloadsLoad) {
  DbWorkload w = LoadDbWorkload(std::string(TIERBENCH_SOURCE_DIR) +
                                "/workloads/pgbench-tpcb.json");
  EXPECT_EQ(w.name, "pgbench-tpcb");
  EXPECT_EQ(w.scale, 4);  // >= clients, the database above shared_buffers
  EXPECT_EQ(w.clients, 4);
  EXPECT_EQ(w.threads, 1);
  EXPECT_EQ(w.warmup_ns, 10ull * 1000000000ull);
  EXPECT_EQ(w.duration_ns, 15ull * 1000000000ull);
  EXPECT_EQ(w.postgres_settings.at("shared_buffers"), "16MB");
  EXPECT_EQ(w.builtin, "tpcb-like");
  EXPECT_TRUE(w.random_seed_set);
  EXPECT_FALSE(w.page_cache_warm);
  DbWorkload in_ram = LoadDbWorkload(std::string(TIERBENCH_SOURCE_DIR) +
                                     "/workloads/pgbench-tpcb-in-ram.json");
  EXPECT_TRUE(in_ram.page_cache_warm);
  EXPECT_EQ(in_ram.scale, w.scale);
  DbWorkload seed = LoadDbWorkload(std::string(TIERBENCH_SOURCE_DIR) +
                                   "/workloads/pgbench-tpcb-s10-c10.json");
  EXPECT_EQ(seed.scale, 10);
  EXPECT_EQ(seed.clients, 10);
  EXPECT_EQ(seed.postgres_settings.at("shared_buffers"), "128MB");
  EXPECT_TRUE(IsDbWorkloadFile(std::string(TIERBENCH_SOURCE_DIR) +
                               "/workloads/pgbench-tpcb.json"));
  EXPECT_FALSE(IsDbWorkloadFile(std::string(TIERBENCH_SOURCE_DIR) +
                                "/workloads/randread-4k.fio"));
}

TEST_F(DbWorkloadFileTest, FullFile) {
  DbWorkload w = LoadDbWorkload(Write(R"({"kind": "pgbench", "scale": 3,
      "clients": 6, "threads": 2, "duration": "2m", "query_mode": "prepared",
      "builtin": "select", "postgres": {"fsync": false, "max_wal_size": 512}})"));
  EXPECT_EQ(w.scale, 3);
  EXPECT_EQ(w.duration_ns, 120ull * 1000000000ull);
  EXPECT_EQ(w.query_mode, "prepared");
  EXPECT_EQ(w.builtin, "select-only");
  EXPECT_EQ(w.postgres_settings.at("fsync"), "off");
  EXPECT_EQ(w.postgres_settings.at("max_wal_size"), "512");
  EXPECT_FALSE(w.random_seed_set);
  EXPECT_EQ(DbTxDirection(w.builtin), IoDir::kRead);
  EXPECT_EQ(DbTxDirection("tpcb-like"), IoDir::kWrite);
}

// "scripts" (relative to the workload file), weights, -D, -R and -L.
TEST_F(DbWorkloadFileTest, ScriptsRateAndLatencyLimit) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string script =
      "db_workload_script_" + std::to_string(::getpid()) + ".sql";
  std::ofstream(dir / script) << "\\set n random(1, :max)\nSELECT :n;\n";
  DbWorkload w = LoadDbWorkload(Write(R"({"kind": "pgbench", "duration": 3,
      "scripts": [")" + script + R"(@3"], "builtin": "tpcb-like@1",
      "defines": {"max": 9}, "rate": 250.5, "latency_limit": 20})"));
  ASSERT_EQ(w.scripts.size(), 1u);
  EXPECT_EQ(w.scripts[0], (dir / script).string() + "@3");
  EXPECT_EQ(w.rate_tps, 250.5);
  EXPECT_EQ(w.latency_limit_ms, 20.0);
  auto set = w.parsed_scripts;
  ASSERT_NE(set, nullptr);
  ASSERT_EQ(set->scripts.size(), 2u);
  EXPECT_EQ(set->scripts[0].desc, "<builtin: TPC-B (sort of)>");
  EXPECT_EQ(set->scripts[1].weight, 3);
  EXPECT_EQ(set->total_weight, 4);
  EXPECT_EQ(DbTxDirection(w), IoDir::kWrite);
  // Only the read-only script: the transactions are reads.
  DbWorkload r = LoadDbWorkload(Write(R"({"kind": "pgbench", "duration": 3,
      "scripts": [")" + script + R"("], "defines": {"max": 9}})"));
  ASSERT_NE(r.parsed_scripts, nullptr);
  EXPECT_EQ(r.parsed_scripts->scripts.size(), 1u);
  EXPECT_EQ(DbTxDirection(r), IoDir::kRead);
  // Without "max" the script uses an undefined variable: file:line named.
  try {
    LoadDbWorkload(Write(R"({"kind": "pgbench", "duration": 3,
        "scripts": [")" + script +
                         R"("]})"));
    ADD_FAILURE() << "undefined variable accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(script + ":1: undefined variable "
                                                  "\"max\""),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(dir / script);
}

// The scripts are parsed once, when the workload is loaded: a bad script
// fails LoadDbWorkload naming its file and line, and a loaded workload runs
// from the scripts it carries, its files no longer read.
TEST_F(DbWorkloadFileTest, ScriptsAreParsedOnceAtLoad) {
  const std::filesystem::path script =
      std::filesystem::temp_directory_path() /
      ("db_workload_parse_once_" + std::to_string(::getpid()) + ".sql");
  const std::string json = R"({"kind": "pgbench", "duration": 3,
      "scripts": [")" + script.string() +
                           R"(@2"]})";
  std::ofstream(script) << "\\set n random(1, 10)\nSELECT :n;\n"
                           "\\set m (1 +\n";
  try {
    LoadDbWorkload(Write(json));
    ADD_FAILURE() << "a script with a syntax error was loaded";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("File: " + path_.string() + "; Key: scripts; " +
                        script.string() + ":3: \\set m: syntax error"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }

  std::ofstream(script) << "\\set n random(1, 10)\n"
                           "UPDATE t SET v = :n;\n";
  const DbWorkload w = LoadDbWorkload(Write(json));
  std::filesystem::remove(script);
  ASSERT_NE(w.parsed_scripts, nullptr);
  ASSERT_EQ(w.parsed_scripts->scripts.size(), 1u);
  const PgScript& s = w.parsed_scripts->scripts[0];
  EXPECT_EQ(s.desc, script.string());
  EXPECT_EQ(s.weight, 2);
  ASSERT_EQ(s.commands.size(), 2u);
  // A copy shares the parsed scripts; the run's driver gets them as they
  // are, and a client draws and renders them without the file.
  const DbWorkload copy = w;
  EXPECT_EQ(copy.parsed_scripts, w.parsed_scripts);
  EXPECT_EQ(DbTxDirection(copy), IoDir::kWrite);
  const TpcbDriverConfig cfg = DbDriverConfig(copy);
  EXPECT_EQ(cfg.scripts, w.parsed_scripts);
  EXPECT_EQ(cfg.duration_ns, 3ull * 1000000000ull);
  TxRandom rng(7);
  std::vector<PgValue> vars = DrawVars(*cfg.scripts, s, rng, 1);
  const int64_t n = vars[static_cast<size_t>(s.commands[0].set_slot)].i;
  EXPECT_GE(n, 1);
  EXPECT_LE(n, 10);
  EXPECT_EQ(RenderSql(s.commands[1], vars),
            "UPDATE t SET v = " + std::to_string(n));

  // Without "scripts", the parsed text alone carries the builtin.
  const DbWorkload b = ParseDbWorkloadJson(
      R"({"kind": "pgbench", "duration": 3, "builtin": "select-only"})",
      path_.string());
  ASSERT_NE(b.parsed_scripts, nullptr);
  ASSERT_EQ(b.parsed_scripts->scripts.size(), 1u);
  EXPECT_EQ(b.parsed_scripts->scripts[0].desc, "<builtin: select only>");
}

TEST_F(DbWorkloadFileTest, ErrorsNameTheKey) {
  struct Case {
    const char* json;
    const char* key;
  } cases[] = {
      {R"({"scale": 1, "duration": 5})", "kind"},
      {R"({"kind": "fio", "duration": 5})", "kind"},
      {R"({"kind": "pgbench", "scale": 0, "duration": 5})", "scale"},
      {R"({"kind": "pgbench", "clients": "4", "duration": 5})", "clients"},
      {R"({"kind": "pgbench", "page_cache": "hot", "duration": 5})",
       "page_cache"},
      {R"({"kind": "pgbench", "clients": 2, "threads": 3, "duration": 5})",
       "threads"},
      {R"({"kind": "pgbench", "duration": "fast"})", "duration"},
      {R"({"kind": "pgbench"})", "duration"},
      {R"({"kind": "pgbench", "duration": 5, "query_mode": "x"})",
       "query_mode"},
      {R"({"kind": "pgbench", "duration": 5, "scael": 2})", "scael"},
      {R"({"kind": "pgbench", "duration": 5, "postgres": {"a": [1]}})",
       "postgres.a"},
      {R"({"kind": "pgbench", "duration": 5, "schema_version": 2})",
       "schema_version"},
      {R"({"kind": "pgbench", "duration": 5, "rate": 0})", "rate"},
      {R"({"kind": "pgbench", "duration": 5, "latency_limit": "x"})",
       "latency_limit"},
      {R"({"kind": "pgbench", "duration": 5, "scripts": []})", "scripts"},
      {R"({"kind": "pgbench", "duration": 5, "scripts": ["/no/such.sql"]})",
       "/no/such.sql"},
      {R"({"kind": "pgbench", "duration": 5, "builtin": "select@x"})",
       "builtin"},
      {R"(not json)", "JSON"},
  };
  for (const auto& c : cases) {
    std::string path = Write(c.json);
    try {
      LoadDbWorkload(path);
      ADD_FAILURE() << "accepted: " << c.json;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(c.key), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace tierbench
