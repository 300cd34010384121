// Integration tests of the TPC-B driver against a REAL PostgreSQL 15 that
// each test starts itself in a temporary directory (db/postgres_server.h),
// as the postgres user when root, else as the current user.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <future>
#include <memory>
#include <string>
#include <thread>

#include "db/db_cell.h"
#include "db/pg_connection.h"
#include "db/postgres_server.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"
#include "pg_fixture.h"
#include "test_env.h"
#include "util/clock.h"
#include "util/errors.h"

namespace tierbench {
namespace {

using ::tierbench::testing::RunShell;

TEST_F(PgFixture, InitMatchesPgbenchSchemaAndCounts) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  PgConnection conn(server_->ConnInfo());
  TpcbInitOptions init;
  init.scale = 2;
  InitializeTpcb(conn, init, nullptr);
  struct Count {
    const char* table;
    const char* rows;
  } counts[] = {{"pgbench_branches", "2"},
                {"pgbench_tellers", "20"},
                {"pgbench_accounts", "200000"},
                {"pgbench_history", "0"}};
  for (const auto& c : counts) {
    EXPECT_EQ(conn.QueryValue(std::string("select count(*) from ") + c.table),
              c.rows)
        << c.table;
  }
  // Column types and nullability as pgbench 15 creates them.
  EXPECT_EQ(conn.QueryValue(
                "select string_agg(column_name || ':' || data_type || ':' || "
                "is_nullable, ',' order by ordinal_position) from "
                "information_schema.columns where table_name = "
                "'pgbench_accounts'"),
            "aid:integer:NO,bid:integer:YES,abalance:integer:YES,filler:"
            "character:YES");
  EXPECT_EQ(conn.QueryValue(
                "select string_agg(column_name || ':' || data_type, ',' order "
                "by ordinal_position) from information_schema.columns where "
                "table_name = 'pgbench_history'"),
            "tid:integer,bid:integer,aid:integer,delta:integer,mtime:"
            "timestamp without time zone,filler:character");
  EXPECT_EQ(conn.QueryValue("select reloptions::text from pg_class where "
                            "relname = 'pgbench_accounts'"),
            "{fillfactor=100}");
  EXPECT_EQ(conn.QueryValue("select count(*) from pg_constraint where contype "
                            "= 'p' and conrelid::regclass::text like "
                            "'pgbench_%'"),
            "3");
  EXPECT_EQ(conn.QueryValue("select count(*) from pgbench_accounts where bid "
                            "= 2 and abalance = 0 and filler = ''"),
            "100000");
  EXPECT_EQ(DetectScale(conn), 2);
}

// Every committed transaction's delta lands in all three balances and in
// history: sum(delta) == sum(abalance) == sum(tbalance) == sum(bbalance).
TEST_F(PgFixture, BalancesConsistentAfterRunInEveryMode) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  PgConnection conn(server_->ConnInfo());
  TpcbInitOptions init;
  InitializeTpcb(conn, init, nullptr);
  for (QueryMode mode :
       {QueryMode::kSimple, QueryMode::kExtended, QueryMode::kPrepared}) {
    TpcbDriverConfig cfg = Config(4, 2);
    cfg.query_mode = mode;
    cfg.transactions_per_client = 50;
    TpcbRunResult r = RunTpcb(cfg);
    EXPECT_EQ(r.transactions, 200u) << QueryModeName(mode);
    EXPECT_EQ(r.failed, 0u);
    EXPECT_EQ(r.job.unit, "tx");
    const DirectionStats& d = r.job.dir[static_cast<int>(IoDir::kWrite)];
    EXPECT_EQ(d.ios, 200u);
    EXPECT_EQ(d.lat_hist.count(), 200u);
    EXPECT_GT(d.lat.mean(), 0);
  }
  const std::string history =
      conn.QueryValue("select sum(delta) from pgbench_history");
  EXPECT_EQ(conn.QueryValue("select count(*) from pgbench_history"), "600");
  EXPECT_EQ(conn.QueryValue("select sum(abalance) from pgbench_accounts"),
            history);
  EXPECT_EQ(conn.QueryValue("select sum(tbalance) from pgbench_tellers"),
            history);
  EXPECT_EQ(conn.QueryValue("select sum(bbalance) from pgbench_branches"),
            history);
}

// The ramp (the DB cell's "warmup"): transactions that end before it are
// not counted, and none that is counted carries the ramp in its latency.
// A lab run showed every pgbench cell with a maximum of ~10.0 s, its
// warm-up, one such transaction per client, inflating the mean 1.7x: the
// driver's clients spun at their script's end through the ramp and ran no
// transaction in it.
TEST_F(PgFixture, RampIsNotInAnyTransactionsLatency) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  PgConnection conn(server_->ConnInfo());
  TpcbInitOptions init;
  InitializeTpcb(conn, init, nullptr);
  TpcbDriverConfig cfg = Config(4, 1);
  cfg.duration_ns = 2'000'000'000;
  cfg.ramp_ns = 3'000'000'000;
  TpcbRunResult r = RunTpcb(cfg);
  const DirectionStats& d = r.job.dir[static_cast<int>(IoDir::kWrite)];
  ASSERT_GT(d.ios, 0u);
  // A local TPC-B transaction takes milliseconds; the ramp is 3 s.
  EXPECT_LT(d.lat.max(), 1e9) << "max " << d.lat.max() / 1e9 << " s, mean "
                              << d.lat.mean() / 1e6 << " ms over " << d.ios;
  EXPECT_LT(d.lat_hist.Percentile(100), 1'000'000'000u);
  // The ramp ran transactions (3 s of them against the window's 2 s);
  // pgbench_history has a row for each, counted or not.
  const uint64_t history =
      std::stoull(conn.QueryValue("select count(*) from pgbench_history"));
  EXPECT_GT(history, d.ios + d.ios / 2)
      << history << " rows, " << d.ios << " measured";
}

TEST_F(PgFixture, CliRunPrintsPgbenchLinesAndSelectOnlyReads) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  std::string out;
  ASSERT_EQ(Cli("-i -s 1 " + SocketArgs(), &out), 0) << out;
  ASSERT_EQ(Cli("-c 3 -j 2 -T 2 -P 1 -M extended " + SocketArgs(), &out), 0)
      << out;
  for (const char* line :
       {"transaction type: <builtin: TPC-B (sort of)>", "scaling factor: 1",
        "query mode: extended", "number of clients: 3", "number of threads: 2",
        "maximum number of tries: 1", "duration: 2 s",
        "number of transactions actually processed: ",
        "number of failed transactions: 0 (0.000%)",
        "latency average = ", "latency stddev = ", "initial connection time = ",
        "tps = ", "(without initial connection time)",
        "p99.9 = ", "progress: 1.0 s, ", "starting vacuum...end."}) {
    EXPECT_NE(out.find(line), std::string::npos) << line << "\n" << out;
  }
  ASSERT_EQ(Cli("-S -t 20 -n --output-format csv " + SocketArgs(), &out), 0)
      << out;
  EXPECT_NE(out.find(",read,tx,20,"), std::string::npos) << out;
}

TEST_F(PgFixture, UnreachableServerIsDbError) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  TpcbDriverConfig cfg = Config(2, 1);
  cfg.conninfo = "host=" + tmp_.path() + "/sock port=1 dbname=postgres";
  EXPECT_THROW(PgConnection c(cfg.conninfo), DbError);
  EXPECT_THROW(RunTpcb(cfg), DbError);
  std::string out;
  EXPECT_EQ(Cli("-p 1 -h " + tmp_.path() + "/sock -T 1 postgres", &out), 5)
      << out;
  EXPECT_NE(out.find("cannot connect to PostgreSQL"), std::string::npos) << out;
}

TEST_F(PgFixture, MissingTablesSayRunWithInit) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  PgConnection conn(server_->ConnInfo());
  try {
    DetectScale(conn);
    ADD_FAILURE() << "no error without tables";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("run with -i"), std::string::npos);
  }
  std::string out;
  EXPECT_EQ(Cli("-T 1 " + SocketArgs(), &out), 5) << out;
  EXPECT_NE(out.find("pgbench_accounts does not exist"), std::string::npos)
      << out;
}

TEST_F(PgFixture, InvalidScaleOrClientsIsUsageError) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  for (const char* args :
       {"-i -s 0", "-c 0 -T 1", "-c 2 -j 4 -T 1", "-c -1 -T 1", "-T 1 -t 5"}) {
    std::string out;
    EXPECT_EQ(Cli(std::string(args) + " " + SocketArgs(), &out), 2)
        << args << "\n"
        << out;
  }
}

// The server dies under a running benchmark: the run stops (no hang), the
// finished transactions are reported, and every client is aborted.
TEST_F(PgFixture, ServerKilledMidRunStopsWithPartialResults) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  {
    PgConnection conn(server_->ConnInfo());
    InitializeTpcb(conn, TpcbInitOptions(), nullptr);
  }
  TpcbDriverConfig cfg = Config(4, 2);
  cfg.duration_ns = 60ull * 1000000000ull;
  const uint64_t start = NowNs();
  auto run = std::async(std::launch::async, [&cfg]() { return RunTpcb(cfg); });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  server_->Crash();
  ASSERT_EQ(run.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "driver hangs on a dead server";
  TpcbRunResult r = run.get();
  EXPECT_LT(NowNs() - start, 40ull * 1000000000ull);
  EXPECT_GT(r.transactions, 0u);
  EXPECT_EQ(r.aborted_clients, 4u);
  EXPECT_FALSE(r.job.error.empty());
  EXPECT_NE(r.first_error.find("aborted"), std::string::npos) << r.first_error;
}

TEST_F(PgFixture, CliReportsServerDeathAsDbErrorAfterPartialSummary) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  std::string out;
  ASSERT_EQ(Cli("-i -s 1 " + SocketArgs(), &out), 0) << out;
  auto run = std::async(std::launch::async, [&]() {
    std::string o;
    int rc = Cli("-c 2 -T 60 " + SocketArgs(), &o);
    return std::make_pair(rc, o);
  });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  server_->Crash();
  ASSERT_EQ(run.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  auto [rc, text] = run.get();
  EXPECT_EQ(rc, 5) << text;
  EXPECT_NE(text.find("number of transactions actually processed"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("run was aborted"), std::string::npos) << text;
}

// A filesystem that fills up during -i: a DbError (exit 5), not a hang.
TEST_F(PgFixture, DiskFullIsDbError) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  const std::string small = tmp_.path() + "/small";
  mkdir(small.c_str(), 0711);
  ASSERT_EQ(mount("tmpfs", small.c_str(), "tmpfs", 0, "size=80m,mode=0711"), 0);
  struct Unmount {
    std::string dir;
    ~Unmount() { umount2(dir.c_str(), MNT_DETACH); }
  } unmount{small};
  StartServer(small);
  PgConnection conn(server_->ConnInfo());
  TpcbInitOptions init;
  init.scale = 10;  // ~150 MB: does not fit
  try {
    InitializeTpcb(conn, init, nullptr);
    ADD_FAILURE() << "scale 10 fitted in 80 MB";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("No space left"), std::string::npos)
        << e.what();
  }
  server_.reset();
}

TEST(DbCellTest, RunsOnLoopDeviceAndLeavesNoTrace) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  ::tierbench::testing::LoopDevice loop(512ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  DbWorkload w;
  w.name = "cell";
  w.scale = 1;
  w.clients = 2;
  w.threads = 1;
  w.duration_ns = 3ull * 1000000000ull;
  DbCellOptions opts;
  EXPECT_THROW(RunDbCell(w, loop.device(), opts), SafetyError);
  opts.destructive = true;
  // The once-a-second callback (the compare samples its layer there): on
  // the calling thread, with the benchmark's start, about once a second.
  int seconds = 0;
  uint64_t bench_start = 0;
  const std::thread::id caller = std::this_thread::get_id();
  opts.on_second = [&](uint64_t start) {
    ++seconds;
    bench_start = start;
    EXPECT_EQ(std::this_thread::get_id(), caller);
  };
  DbCellInfo info;
  JobResult r = RunDbCell(w, loop.device(), opts, &info);
  EXPECT_GE(seconds, 2);
  EXPECT_LE(seconds, 4);
  EXPECT_GT(bench_start, 0u);
  EXPECT_EQ(r.unit, "tx");
  EXPECT_EQ(r.name, "cell");
  EXPECT_GT(r.dir[static_cast<int>(IoDir::kWrite)].ios, 0u);
  EXPECT_GT(info.tps, 0);
  EXPECT_EQ(info.server_settings.at("fsync"), "on");
  EXPECT_NE(info.server_version.find("PostgreSQL"), std::string::npos);
  // Unmounted and no filesystem signature left behind.
  std::string out;
  RunShell("grep -c '^" + loop.device() + " ' /proc/mounts", &out);
  EXPECT_EQ(out.substr(0, 1), "0");
  EXPECT_NE(RunShell("blkid -p " + loop.device()), 0);
  // Not a block device: refused before anything is made.
  EXPECT_THROW(RunDbCell(w, "/dev/null", opts), SysError);
}

}  // namespace
}  // namespace tierbench
