// Integration tests of pgbench's -R/-L/-r/-f on the TPC-B driver against a
// REAL PostgreSQL 15 that each test starts itself (pg_fixture.h).
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "db/pg_connection.h"
#include "db/pgbench/pgbench_script.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"
#include "pg_fixture.h"
#include "test_env.h"

namespace tierbench {
namespace {

constexpr uint64_t kSec = 1000000000ull;

class PgScriptTest : public PgFixture {
 protected:
  void Init() {
    StartServer();
    PgConnection conn(server_->ConnInfo());
    InitializeTpcb(conn, TpcbInitOptions(), nullptr);
  }
  // Service time of one transaction of script `s`: the sum of its measured
  // per-command averages (ns).
  static double ServiceNs(const TpcbRunResult& r, size_t s) {
    double sum = 0;
    for (const auto& c : r.per_script[s].commands) {
      if (c.count) sum += c.sum_ns / static_cast<double>(c.count);
    }
    return sum;
  }
  static const DirectionStats& Tx(const TpcbRunResult& r) {
    return r.job.dir[static_cast<int>(r.scripts->AnyWrites() ? IoDir::kWrite
                                                             : IoDir::kRead)];
  }
  std::string WriteScript(const std::string& name, const std::string& text) {
    std::string path = tmp_.path() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
};

// Below the server's capacity, -R holds the rate and the lag stays small:
// latency ~ service time.
TEST_F(PgScriptTest, RateLimitHoldsTheRate) {
  TIERBENCH_REQUIRE_POSTGRES();
  Init();
  TpcbDriverConfig cfg = Config(2, 2);
  cfg.builtin = Builtin::kSelectOnly;
  cfg.rate_tps = 100;
  cfg.duration_ns = 3 * kSec;
  TpcbRunResult r = RunTpcb(cfg);
  EXPECT_EQ(r.failed, 0u);
  // Poisson arrivals: 300 expected, standard deviation ~17.
  EXPECT_GT(r.transactions, 230u);
  EXPECT_LT(r.transactions, 370u);
  EXPECT_EQ(r.lag.count(), r.transactions);
  const double lat = Tx(r).lat.mean();
  // Latency from the scheduled start = lag + the transaction's own time.
  EXPECT_NEAR(lat, r.lag.mean() + ServiceNs(r, 0), 0.1 * lat + 200000);
  EXPECT_LT(r.lag.mean(), 20e6);  // an idle server starts them on time
}

// Far above the server's capacity, the clients fall behind the schedule:
// the latency a client of that rate sees (from the scheduled start) is
// dominated by the schedule lag, not by the server's service time.
TEST_F(PgScriptTest, SaturatedRateLatencyIncludesScheduleLag) {
  TIERBENCH_REQUIRE_POSTGRES();
  Init();
  TpcbDriverConfig cfg = Config(2, 1);
  cfg.builtin = Builtin::kSelectOnly;
  cfg.rate_tps = 1e6;
  cfg.duration_ns = 2 * kSec;
  TpcbRunResult r = RunTpcb(cfg);
  ASSERT_GT(r.transactions, 100u);
  EXPECT_EQ(r.failed, 0u);
  const double service = ServiceNs(r, 0);
  const double lat = Tx(r).lat.mean();
  ASSERT_GT(service, 0);
  EXPECT_LT(r.Tps(), cfg.rate_tps / 10);  // the schedule was not met
  EXPECT_GT(lat, 100 * service) << "lat " << lat << " service " << service;
  EXPECT_GT(r.lag.mean(), 100 * service);
  EXPECT_NEAR(lat, r.lag.mean() + service, 0.05 * lat);
  // The lag grows through the run: the last ones are the latest, by about
  // the run's length (the schedule asks ~1 us per transaction). Not
  // max > 1.5 x mean: on a loaded machine (CI, beside the lab guests) the
  // lag was already high at the start (CI, 2026-12-04), and with that
  // offset max/mean was 1.40 (1.98 s against 1.41 s). Under that load the
  // lag did not start near 0; it still grew by the run.
  EXPECT_GT(r.lag.max() - r.lag.min(),
            0.5 * static_cast<double>(cfg.duration_ns))
      << "lag min " << r.lag.min() << " max " << r.lag.max();
}

// -L with -R: transactions already later than the limit are skipped, the
// ones run are counted late when over it; -L alone only counts.
TEST_F(PgScriptTest, LatencyLimitSkipsAndCountsLate) {
  TIERBENCH_REQUIRE_POSTGRES();
  Init();
  TpcbDriverConfig cfg = Config(2, 1);
  cfg.builtin = Builtin::kSelectOnly;
  cfg.rate_tps = 1e6;
  cfg.latency_limit_ns = 2000000;  // 2 ms
  cfg.duration_ns = 2 * kSec;
  TpcbRunResult r = RunTpcb(cfg);
  EXPECT_GT(r.transactions, 0u);
  EXPECT_GT(r.skipped, 10 * r.transactions);
  EXPECT_LE(r.late, r.transactions);
  // What ran was started within the limit of its schedule.
  EXPECT_LT(r.lag.max(), 2e6 + 50e6);
  EXPECT_LT(r.lag.mean(), 2e6 + 5e6);

  auto set = std::make_shared<ScriptSet>();
  set->AddText("\\sleep 5 ms\nSELECT 1;\n", "slow.sql", "slow.sql", 1);
  set->Finish();
  TpcbDriverConfig slow = Config(1, 1);
  slow.scripts = set;
  slow.transactions_per_client = 5;
  slow.latency_limit_ns = 2000000;
  TpcbRunResult s = RunTpcb(slow);
  EXPECT_EQ(s.transactions, 5u);
  EXPECT_EQ(s.late, 5u);
  EXPECT_EQ(s.skipped, 0u);
  // \sleep 5 ms measured as a command of its own.
  const auto& sleep = s.per_script[0].commands[0];
  EXPECT_EQ(sleep.count, 5u);
  EXPECT_GE(sleep.sum_ns / 5, 5e6);
  EXPECT_LT(sleep.sum_ns / 5, 30e6);
}

// -f with weights next to -b, -r, and the summary lines of -R / -L.
TEST_F(PgScriptTest, CliScriptsWeightsAndReports) {
  TIERBENCH_REQUIRE_POSTGRES();
  Init();
  const std::string tpcb =
      std::string(TIERBENCH_SOURCE_DIR) + "/workloads/tpcb-like.sql";
  std::string out;
  ASSERT_EQ(Cli("-n -c 2 -t 200 --random-seed 3 -r -f " + tpcb +
                    "@1 -b select-only@3 " + SocketArgs(),
                &out),
            0)
      << out;
  const std::string script1 = "SQL script 1: " + tpcb;
  for (const char* line :
       {"transaction type: multiple scripts",
        "number of transactions actually processed: 400/400",
        // Numbered in command-line order, as pgbench does.
        script1.c_str(), " - weight: 1 (targets 25.0% of total)",
        "SQL script 2: <builtin: select only>",
        " - weight: 3 (targets 75.0% of total)", " - latency average = ",
        " - statement latencies in milliseconds and failures:",
        "           0  \\set aid random(1, 100000 * :scale)",
        "           0  UPDATE pgbench_tellers SET tbalance = tbalance + :delta "
        "WHERE tid = :tid;"}) {
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
  }
  // The tpcb-like file kept the balances consistent.
  PgConnection conn(server_->ConnInfo());
  const std::string history =
      conn.QueryValue("select sum(delta) from pgbench_history");
  EXPECT_EQ(conn.QueryValue("select sum(abalance) from pgbench_accounts"),
            history);
  EXPECT_EQ(conn.QueryValue("select sum(bbalance) from pgbench_branches"),
            history);
  const int updates =
      std::stoi(conn.QueryValue("select count(*) from pgbench_history"));
  EXPECT_GT(updates, 60);  // ~100 of 400 expected (weight 1 of 4)
  EXPECT_LT(updates, 140);

  ASSERT_EQ(Cli("-n -S -c 2 -T 2 -P 1 -R 50 -L 100 " + SocketArgs(), &out), 0)
      << out;
  for (const char* line :
       {"number of transactions skipped: ",
        "number of transactions above the 100.0 ms latency limit: ",
        "rate limit schedule lag: avg ", ", lag ", " skipped"}) {
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
  }
}

// \if / \elif / \else pick one branch per transaction.
TEST_F(PgScriptTest, ConditionalBranchesRun) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  PgConnection conn(server_->ConnInfo());
  conn.Exec("create table picks (v int)");
  auto set = std::make_shared<ScriptSet>();
  set->AddText(
      "\\set r random(1, 4)\n"
      "\\if :r = 1\n  \\set v 10\n"
      "\\elif :r = 2\n  \\set v 20\n"
      "\\else\n  \\if :r = 3\n \\set v 30\n \\else\n \\set v 40\n"
      "  \\endif\n"
      "\\endif\n"
      "INSERT INTO picks VALUES (:v);\n",
      "picks.sql", "picks.sql", 1);
  set->Finish();
  TpcbDriverConfig cfg = Config(2, 1);
  cfg.scripts = set;
  cfg.transactions_per_client = 200;
  cfg.query_mode = QueryMode::kPrepared;
  TpcbRunResult r = RunTpcb(cfg);
  EXPECT_EQ(r.transactions, 400u);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(conn.QueryValue("select string_agg(distinct v::text, ',' order "
                            "by v::text) from picks"),
            "10,20,30,40");
  for (const char* v : {"10", "20", "30", "40"}) {
    const int n = std::stoi(conn.QueryValue(
        std::string("select count(*) from picks where v = ") + v));
    EXPECT_GT(n, 60) << v;  // 100 expected each
    EXPECT_LT(n, 140) << v;
  }
}

TEST_F(PgScriptTest, CliBadScriptIsUsageErrorNamingFileAndLine) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  const std::string bad =
      WriteScript("bad.sql", "\\set a random(1, 10)\nSELECT :a, :b;\n");
  std::string out;
  EXPECT_EQ(Cli("-t 1 -f " + bad + " " + SocketArgs(), &out), 2) << out;
  EXPECT_NE(out.find(bad + ":2: undefined variable \"b\""), std::string::npos)
      << out;
  EXPECT_EQ(Cli("-t 1 -R 0 " + SocketArgs(), &out), 2) << out;
  EXPECT_EQ(Cli("-t 1 -f " + bad + "@x " + SocketArgs(), &out), 2) << out;
}

}  // namespace
}  // namespace tierbench
