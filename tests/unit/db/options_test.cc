// Unit tests of `tierbench pgbench` option parsing (db/pgbench_options.h).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "db/pgbench_options.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// Parses `args` (without the program name) into a PgbenchOptions.
PgbenchOptions Parse(std::vector<std::string> args) {
  CLI::App app{"test"};
  PgbenchOptions o;
  AddPgbenchOptions(&app, &o);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  app.parse(reversed);
  return o;
}

TEST(DbOptionsTest, PgbenchLettersMapToFields) {
  PgbenchOptions o =
      Parse({"-h", "/tmp/sock", "-p", "5433", "-U", "bob",
             "-c", "8",         "-j", "2",    "-T", "30",
             "-M", "prepared",  "-P", "5",    "-n", "--random-seed",
             "7",  "bench"});
  EXPECT_EQ(o.host, "/tmp/sock");
  EXPECT_EQ(o.port, "5433");
  EXPECT_EQ(o.user, "bob");
  EXPECT_EQ(o.clients, 8);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.duration, "30");
  EXPECT_EQ(o.query_mode, "prepared");
  EXPECT_EQ(o.progress_sec, 5);
  EXPECT_TRUE(o.no_vacuum);
  EXPECT_EQ(o.dbname, "bench");
  TpcbDriverConfig c = ResolvePgbenchRun(o);
  EXPECT_EQ(c.duration_ns, 30ull * 1000000000ull);
  EXPECT_EQ(c.query_mode, QueryMode::kPrepared);
  EXPECT_EQ(c.random_seed, 7u);
  EXPECT_EQ(c.conninfo,
            "host='/tmp/sock' port='5433' user='bob' dbname='bench'");
}

TEST(DbOptionsTest, InitOptions) {
  PgbenchOptions o = Parse({"-i", "-s", "12", "-F", "90", "-I", "dtGvp"});
  EXPECT_TRUE(o.initialize);
  EXPECT_TRUE(o.scale_set);
  TpcbInitOptions init = ResolvePgbenchInit(o);
  EXPECT_EQ(init.scale, 12);
  EXPECT_EQ(init.fillfactor, 90);
  EXPECT_EQ(init.steps, "dtGvp");
}

TEST(DbOptionsTest, DefaultsAreTenTransactionsTpcbSimple) {
  TpcbDriverConfig c = ResolvePgbenchRun(Parse({}));
  EXPECT_EQ(c.duration_ns, 0u);
  EXPECT_EQ(c.transactions_per_client, 10u);
  EXPECT_EQ(c.builtin, Builtin::kTpcbLike);
  EXPECT_EQ(c.query_mode, QueryMode::kSimple);
  EXPECT_EQ(c.clients, 1);
  EXPECT_EQ(c.threads, 1);
  EXPECT_EQ(c.conninfo, "");
}

TEST(DbOptionsTest, ScriptShortcuts) {
  struct Case {
    std::vector<std::string> args;
    Builtin want;
  } cases[] = {
      {{"-N"}, Builtin::kSimpleUpdate},
      {{"-S"}, Builtin::kSelectOnly},
      {{"-b", "select-only"}, Builtin::kSelectOnly},
      {{"-b", "simple"}, Builtin::kSimpleUpdate},
      {{"-S", "-b", "select-only"}, Builtin::kSelectOnly},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ResolvePgbenchRun(Parse(c.args)).builtin, c.want)
        << c.args.front();
  }
}

TEST(DbOptionsTest, RateLatencyLimitAndScripts) {
  const std::string tpcb =
      std::string(TIERBENCH_SOURCE_DIR) + "/workloads/tpcb-like.sql";
  // -f takes one value: the database name after it stays positional.
  PgbenchOptions o =
      Parse({"-R", "250.5", "-L", "12.5", "-r", "-b", "select-only@3", "-D",
             "x=4", "-f", tpcb + "@2", "bench"});
  EXPECT_EQ(o.dbname, "bench");
  TpcbDriverConfig c = ResolvePgbenchRun(o);
  EXPECT_EQ(c.rate_tps, 250.5);
  EXPECT_EQ(c.latency_limit_ns, 12500000u);
  EXPECT_TRUE(c.report_per_command);
  EXPECT_EQ(c.builtin, Builtin::kSelectOnly);
  ASSERT_EQ(c.scripts->scripts.size(), 2u);
  EXPECT_EQ(c.scripts->scripts[0].weight, 3);
  EXPECT_EQ(c.scripts->scripts[1].desc, tpcb);
  EXPECT_EQ(c.scripts->scripts[1].weight, 2);
  EXPECT_EQ(c.scripts->total_weight, 5);
  ASSERT_EQ(c.scripts->defines.size(), 1u);
  EXPECT_EQ(c.scripts->defines[0].second.i, 4);
  // Scripts are numbered in command-line order, as pgbench does.
  c = ResolvePgbenchRun(Parse({"-f", tpcb, "-b", "select-only@2"}));
  ASSERT_EQ(c.scripts->scripts.size(), 2u);
  EXPECT_EQ(c.scripts->scripts[0].desc, tpcb);
  EXPECT_EQ(c.scripts->scripts[1].desc, "<builtin: select only>");
  // Several -b, no -f.
  c = ResolvePgbenchRun(Parse({"-b", "tpcb@1", "-b", "simple-update@2"}));
  EXPECT_EQ(c.scripts->scripts.size(), 2u);
  EXPECT_EQ(c.scripts->scripts[1].desc, "<builtin: simple update>");
  // Defaults: one tpcb-like script, no rate, no limit.
  c = ResolvePgbenchRun(Parse({}));
  EXPECT_EQ(c.scripts->scripts.size(), 1u);
  EXPECT_EQ(c.rate_tps, 0);
  EXPECT_EQ(c.latency_limit_ns, 0u);
  EXPECT_THROW(Parse({"-R", "0"}), CLI::ParseError);
  EXPECT_THROW(Parse({"-L", "-1"}), CLI::ParseError);
  EXPECT_THROW(ResolvePgbenchRun(Parse({"-f", "/no/such/file.sql"})),
               ConfigError);
  EXPECT_THROW(ResolvePgbenchRun(Parse({"-b", "select-only@0"})),
               ConfigError);  // total weight 0
  EXPECT_THROW(ResolvePgbenchRun(Parse({"-D", "=1"})), ConfigError);
}

TEST(DbOptionsTest, DsnWithOverrides) {
  PgbenchOptions o = Parse({"--pg-dsn", "host=/run/pg port=5432", "-U", "x"});
  EXPECT_EQ(BuildConnInfo(o), "host=/run/pg port=5432 user='x'");
  o = Parse({"--pg-dsn", "postgresql:///db", "-p", "6000"});
  EXPECT_EQ(BuildConnInfo(o), "postgresql:///db?port=6000");
}

// Values CLI11 itself rejects (exit 2 through main's ParseError path).
TEST(DbOptionsTest, ParserRejectsBadValues) {
  const std::vector<std::vector<std::string>> bad = {
      {"-c", "0"},
      {"-c", "-3"},
      {"-s", "0"},
      {"-j", "0"},
      {"-M", "x"},
      {"-F", "5"},
      {"--output-format", "xml"},
  };
  for (const auto& args : bad) {
    EXPECT_THROW(Parse(args), CLI::ParseError) << args[0] << " " << args[1];
  }
}

// Combinations only the cross-option checks catch (ConfigError, exit 2).
TEST(DbOptionsTest, ResolveRejectsInconsistentOptions) {
  const std::vector<std::vector<std::string>> bad = {
      {"-c", "2", "-j", "3"},
      {"-T", "10", "-t", "5"},
      {"-N", "-S"},
      {"-S", "-b", "tpcb-like", "-N"},
      {"-T", "0"},
      {"-T", "soon"},
      {"--random-seed", "abc"},
  };
  for (const auto& args : bad) {
    EXPECT_THROW(ResolvePgbenchRun(Parse(args)), ConfigError) << args[0];
  }
  EXPECT_THROW(ResolvePgbenchInit(Parse({"-I", "dtxq"})), ConfigError);
}

}  // namespace
}  // namespace tierbench
