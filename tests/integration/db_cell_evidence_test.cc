// A DB cell must measure storage: the server is restarted after the load
// (shared_buffers and the page cache do not keep what the load wrote) and
// the cell records the evidence the validity rules judge (DbCellInfo: the
// database's size against shared_buffers and RAM, the server's CPU). Real
// PostgreSQL 15 on real loop devices, as root; under CI=true a missing
// PostgreSQL or root fails instead of skipping (tests/support/ci_skip.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <iomanip>
#include <memory>
#include <string>

#include "db/db_cell.h"
#include "db/db_session.h"
#include "db/pg_connection.h"
#include "db/postgres_server.h"
#include "db/tpcb_schema.h"
#include "io/device_guard.h"
#include "pg_fixture.h"
#include "test_env.h"
#include "util/errors.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

constexpr int64_t kMiB = 1 << 20;

// Stop() then Start() is a real restart on the same data: a new postmaster,
// started later, with the data kept; the destructor still stops it.
TEST_F(PgFixture, StopAndStartAgainKeepsTheData) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  const pid_t first_pid = server_->PostmasterPid();
  ASSERT_GT(first_pid, 0);
  std::string first_start;
  {
    PgConnection conn(server_->ConnInfo());
    conn.Exec("create table kept(v int); insert into kept values (42)");
    first_start = conn.QueryValue(
        "select extract(epoch from pg_postmaster_start_time())");
  }
  EXPECT_TRUE(server_->Stop());  // fast shutdown: clean
  EXPECT_FALSE(server_->running());
  EXPECT_EQ(server_->PostmasterPid(), 0);
  EXPECT_THROW(PgConnection c(server_->ConnInfo()), DbError);
  EXPECT_TRUE(server_->Stop());  // idempotent
  server_->Start();
  EXPECT_TRUE(server_->running());
  const pid_t second_pid = server_->PostmasterPid();
  EXPECT_GT(second_pid, 0);
  EXPECT_NE(second_pid, first_pid);
  PgConnection conn(server_->ConnInfo());
  EXPECT_EQ(conn.QueryValue("select v from kept"), "42");
  EXPECT_GT(std::stod(conn.QueryValue(
                "select extract(epoch from pg_postmaster_start_time())")),
            std::stod(first_start));
  server_->Start();  // no-op while running
  EXPECT_EQ(server_->PostmasterPid(), second_pid);
}

// A server that died is not stopped cleanly: Stop() says so.
TEST_F(PgFixture, StopAfterACrashIsNotClean) {
  TIERBENCH_REQUIRE_POSTGRES();
  StartServer();
  server_->Crash();
  EXPECT_FALSE(server_->Stop());
  EXPECT_FALSE(server_->running());
}

DbWorkload EvidenceWorkload(int scale, uint64_t warmup_ns) {
  DbWorkload w;
  w.name = "evidence-s" + std::to_string(scale);
  w.scale = scale;
  w.clients = 2;
  w.threads = 1;
  w.duration_ns = 2ull * 1000000000ull;
  w.warmup_ns = warmup_ns;
  w.postgres_settings = {{"shared_buffers", "16MB"}};
  return w;
}

// Runs one cell; checks everything that does not depend on the scale.
DbCellInfo RunEvidenceCell(int scale, uint64_t warmup_ns = 0) {
  DbCellInfo info;
  ::tierbench::testing::LoopDevice loop(512ull << 20);
  EXPECT_TRUE(loop.ok()) << loop.error();
  if (!loop.ok()) return info;
  DbCellOptions opts;
  opts.destructive = true;
  const DbWorkload w = EvidenceWorkload(scale, warmup_ns);
  SCOPED_TRACE("scale " + std::to_string(scale));
  JobResult r = RunDbCell(w, loop.device(), opts, &info);

  // Restarted after the load: the measured server started after it ended.
  EXPECT_TRUE(info.restarted_after_load);
  EXPECT_GT(info.load_end_unix_s, 1.6e9);
  EXPECT_GT(info.server_start_unix_s, info.load_end_unix_s)
      << std::fixed << std::setprecision(3) << "server started at "
      << info.server_start_unix_s << ", the load ended at "
      << info.load_end_unix_s;
  EXPECT_LT(info.server_start_unix_s - info.load_end_unix_s, 120);
  EXPECT_GT(info.restart_ns, 0u);
  EXPECT_LT(info.restart_ns, 120ull * 1000000000ull);
  EXPECT_TRUE(info.page_cache_dropped);

  // shared_buffers as the workload set it, read back from the server.
  EXPECT_EQ(info.server_settings.at("shared_buffers"), "16MB");
  EXPECT_EQ(info.shared_buffers_bytes, 16 * kMiB);
  // The host's RAM: what the kernel reports (MemTotal == totalram pages).
  EXPECT_EQ(
      info.mem_total_bytes,
      static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE));

  // CPU over the clients' run: the server worked, within what the
  // machine's cores could give in the sampled window.
  EXPECT_GT(info.server_cpu_s, 0);
  // The sampler wakes at the window's start, a few ms late at most.
  EXPECT_GE(info.cpu_window_s + 0.05, info.measured_s);
  EXPECT_LE(
      info.server_cpu_s,
      info.cpu_window_s * static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)) +
          0.05);
  EXPECT_GT(info.client_cpu_s, 0);
  EXPECT_GT(info.measured_s, 1.5);
  EXPECT_LT(info.measured_s, 10);
  EXPECT_NEAR(info.measured_s, static_cast<double>(r.runtime_ns) * 1e-9, 1e-9);
  EXPECT_GT(info.tps, 0);
  EXPECT_EQ(info.failed_transactions, 0u);
  return info;
}

// One real cell per scale: every evidence field is read (a missing one is
// -1 and fails), and the database grows with the scale.
TEST(DbCellEvidenceTest, RestartsAfterTheLoadAndRecordsTheEvidence) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  const DbCellInfo s1 = RunEvidenceCell(1);
  // Scale 1: pgbench's tables and indexes (~15 MB) and the catalogs of an
  // empty database (~7.5 MB).
  EXPECT_GE(s1.db_size_bytes, 10 * kMiB);
  EXPECT_LE(s1.db_size_bytes, 40 * kMiB);

  const DbCellInfo s4 = RunEvidenceCell(4);
  // Three more scale units: ~15 MB each.
  EXPECT_GE(s4.db_size_bytes - s1.db_size_bytes, 30 * kMiB);
  EXPECT_LE(s4.db_size_bytes - s1.db_size_bytes, 70 * kMiB);
}

// "page_cache": "warm": the database's files are read into the page cache
// after the restart (all of them: about the database's size).
TEST(DbCellEvidenceTest, WarmPageCacheReadsTheDatabaseIn) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  ::tierbench::testing::LoopDevice loop(512ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  DbCellOptions opts;
  opts.destructive = true;
  DbWorkload w = EvidenceWorkload(2, 0);
  w.page_cache_warm = true;
  DbCellInfo info;
  RunDbCell(w, loop.device(), opts, &info);
  // Its files are read back at once: the restart keeps the page cache.
  EXPECT_FALSE(info.page_cache_dropped);
  ASSERT_GT(info.db_size_bytes, 0);
  EXPECT_GE(info.page_cache_warmed_bytes, info.db_size_bytes * 9 / 10);
  EXPECT_LE(info.page_cache_warmed_bytes, info.db_size_bytes * 11 / 10);
  EXPECT_GE(info.page_cache_warm_s, 0);
  // Not asked: not done.
  const DbCellInfo cold = RunEvidenceCell(1);
  EXPECT_EQ(cold.page_cache_warmed_bytes, -1);
}

// "warmup" is the run's ramp: the clients run it unmeasured, the measured
// window (its seconds, its transactions, the server's CPU) starts after it.
TEST(DbCellEvidenceTest, WarmupRunsBeforeTheMeasuredWindow) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  const DbCellInfo info = RunEvidenceCell(1, 3ull * 1000000000ull);
  EXPECT_GE(info.warmup_s, 2.9);
  EXPECT_LT(info.warmup_s, 6);
  // The window measured 2 s, not the 5 s the clients ran.
  EXPECT_LT(info.measured_s, 2.8);
  // The server's CPU was sampled from the window's start, not the ramp's.
  EXPECT_LT(info.cpu_window_s, info.measured_s + 1.5);
}

// A session runs one load several times (a compare's stack modes): the
// second run reuses the database (no second load: the load's facts are
// the first's), restarts the server on a dropped page cache, starts with
// pgbench_history emptied (pgbench's pre-run step), and ends with the
// server down; closing it unmounts the device and wipes its signature.
TEST(DbCellEvidenceTest, SessionRunsOneLoadTwiceThenLeavesTheDeviceBare) {
  TIERBENCH_REQUIRE_POSTGRES();
  TIERBENCH_REQUIRE_ROOT();
  ::tierbench::testing::LoopDevice loop(512ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  DbCellOptions opts;
  opts.destructive = true;
  int after_load_calls = 0;
  opts.after_load = [&after_load_calls] { ++after_load_calls; };
  const DbWorkload w = EvidenceWorkload(1, 0);
  std::unique_ptr<DbSession> session =
      DbSession::Create(w, loop.device(), opts);
  DbCellInfo first;
  const JobResult r1 = session->Run(opts, &first);
  EXPECT_FALSE(first.database_reused);
  EXPECT_TRUE(session->healthy());
  DbCellInfo second;
  const JobResult r2 = session->Run(opts, &second);
  EXPECT_TRUE(second.database_reused);
  EXPECT_EQ(session->runs(), 2);
  EXPECT_EQ(after_load_calls, 1);  // the load drained once
  // One load: its facts are carried, not measured again.
  EXPECT_EQ(second.init_ns, first.init_ns);
  EXPECT_DOUBLE_EQ(second.load_end_unix_s, first.load_end_unix_s);
  // The size is the run's own: the first run's updates left dead tuples
  // (23.50 -> 23.72 MB measured at scale 1).
  EXPECT_GE(second.db_size_bytes, first.db_size_bytes);
  EXPECT_LE(second.db_size_bytes, first.db_size_bytes * 11 / 10);
  // A new server for the second run, on a dropped page cache.
  EXPECT_GT(second.server_start_unix_s, first.server_start_unix_s);
  EXPECT_TRUE(second.restarted_after_load);
  EXPECT_TRUE(second.page_cache_dropped);
  EXPECT_GT(second.tps, 0);
  const uint64_t tx1 = r1.dir[static_cast<int>(IoDir::kWrite)].ios;
  const uint64_t tx2 = r2.dir[static_cast<int>(IoDir::kWrite)].ios;
  EXPECT_GT(tx1, 0u);
  EXPECT_GT(tx2, 0u);
  session.reset();
  // Bare again: an IO cell may write it (not mounted, no ext4 signature).
  const Status writable = CheckDeviceWritable(loop.device(), Sysfs());
  EXPECT_TRUE(writable.ok()) << writable.message();
}

}  // namespace
}  // namespace tierbench
