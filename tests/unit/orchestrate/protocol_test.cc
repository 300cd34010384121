// The whole compare protocol against the fake bcache sysfs
// (tests/unit/orchestrate/protocol_fixture.h): the IO runs for real (psync on
// temp files), bcache is emulated. Covers the cells: mode applied and read back
// in every row (a mismatch stops before measuring), original knobs restored
// at the end, the drain, fold and counter timing, the diagnosis reaching
// runs.csv, the warm and cold cache states and DB workloads through the DB
// cell. The setup's refusals and the restore after a failure, an interrupt
// or a kill are in tests/unit/orchestrate/setup_restore_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cache/bcache/bcache_device.h"
#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "unit/orchestrate/protocol_fixture.h"
#include "util/csv_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

TEST_F(ProtocolTest, RunsEveryCellAppliesModesAndRestores) {
  const std::string cutoff_before = Backing("sequential_cutoff");
  CompareOptions o = Options("randrw");
  o.repeat = 2;
  std::ostringstream out;
  const CompareSummary s =
      CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
  EXPECT_EQ(s.planned_cells, 8u);
  EXPECT_EQ(s.finished_cells, 8u);
  EXPECT_EQ(s.failed_cells, 0u);
  EXPECT_TRUE(s.restore_attempted);
  EXPECT_TRUE(s.restore_ok);

  // Original mode and knobs are back.
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  EXPECT_EQ(Backing("sequential_cutoff"), cutoff_before);
  // Cold cache: one detach per bcache cell; the stats lag was waited (the
  // rest of it after the IO stop; the drain found nothing dirty).
  EXPECT_EQ(fake_.WriteCount("sys/block/bcache0/bcache/detach"), 4);
  EXPECT_GE(slept_, 4 * 14.5);

  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  ASSERT_EQ(rows.size(), 1u + 8 * 2);  // header + cells x (read, write)
  const auto& h = rows[0];
  EXPECT_EQ(h[0], "schema_version");
  EXPECT_EQ(h[1], "run_id");
  EXPECT_EQ(h.back(), "warnings");
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r.size(), h.size()) << i;
    const std::string mode = r[Col(h, "mode")];
    if (mode == "writeback" || mode == "none") {
      EXPECT_EQ(r[Col(h, "cache_mode_readback")], mode);
      EXPECT_EQ(r[Col(h, "layer")], "bcache");
      EXPECT_EQ(r[Col(h, "target")], bcache_target_);
      EXPECT_EQ(r[Col(h, "cache_state")], "cold");
      EXPECT_FALSE(r[Col(h, "drain_after_s")].empty());
    } else {
      EXPECT_EQ(r[Col(h, "layer")], "raw");
      EXPECT_EQ(r[Col(h, "target")], dir_ + "/" + mode + ".img");
      EXPECT_TRUE(r[Col(h, "read_hits")].empty());
    }
    if (mode == "writeback") {
      EXPECT_EQ(r[Col(h, "bcache_sequential_cutoff")], "0.0k");
      EXPECT_EQ(r[Col(h, "bcache_congested_read_threshold_us")], "0");
    }
    EXPECT_NE(r[Col(h, "ios")], "0");
  }

  const auto cmp = ParseCsv(ReadAll(RunDir() + "/comparison.csv"));
  ASSERT_EQ(cmp.size(), 1u + 4 * 2);
  EXPECT_EQ(cmp[1][Col(cmp[0], "n")], "2");
  EXPECT_EQ(cmp[1][Col(cmp[0], "iops_vs_hdd_pct")], "0.00");
  EXPECT_EQ(cmp[1][Col(cmp[0], "iops_position")].empty(), false);

  const auto m = nlohmann::json::parse(ReadAll(RunDir() + "/manifest.json"));
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["restore"]["ok"], true);
  EXPECT_EQ(m["original_settings"][bcache_target_]["cache_mode"],
            "writethrough");
  EXPECT_EQ(m["modes"][2]["readback"]["cache_mode"], "writeback");
  EXPECT_EQ(m["cells"]["finished"], 8);
  EXPECT_EQ(m["workloads"][0]["jobs"][0]["size_bytes"], 256 * 1024);
  EXPECT_NE(out.str().find("writeback"), std::string::npos);
  EXPECT_NE(out.str().find("comparison.csv"), std::string::npos);
}

// Issue 12: the time to clean is timed from the IO stop and the counter lag
// overlaps it. On a fake clock (the sleep hook advances it) the workload
// takes 30 s and leaves dirty data that is written back `drain_s` after the
// IO stop; --stats-lag is 15 s.
TEST_F(ProtocolTest, TimeToCleanStartsAtTheIoStopAndOverlapsTheLag) {
  for (const double drain_s : {3.0, 20.0}) {
    SCOPED_TRACE(drain_s);
    CompareOptions o = Options("randwrite");
    o.run_id = "drain" + std::to_string(static_cast<int>(drain_s));
    o.mode_paths = {Mode("writeback",
                         "\"layer\": \"bcache\", \"cache_mode\": "
                         "\"writeback\"")};
    o.drain_timeout_s = 600;
    uint64_t now_ns = 1000000000000ull;
    uint64_t stop_ns = 0;
    double slept_before_io = -1;
    double slept_at_stop = 0;
    double slept_at_end = 0;
    slept_ = 0;
    Host host = TestHost();
    CompareHooks hooks;
    host.now_ns = [&now_ns] { return now_ns; };
    host.sleep = [&](double s) {
      slept_ += s;
      now_ns += static_cast<uint64_t>(s * 1e9);
      if (stop_ns != 0 && now_ns - stop_ns >= drain_s * 1e9) {
        fake_.SetDirtyBytes(0);
        fake_.SetState("clean");
      }
    };
    hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
      slept_before_io = slept_;
      RunResult r = RunWorkload(w, ro);
      now_ns += 30000000000ull;
      stop_ns = now_ns;
      slept_at_stop = slept_;
      fake_.SetDirtyBytes(64 << 20);
      fake_.SetState("dirty");
      return r;
    };
    const auto rows = RunOneCell(o, host, hooks, &slept_at_end);
    ASSERT_EQ(rows.size(), 2u);
    const auto& h = rows[0];
    const auto& r = rows[1];
    // The drain, not lag + drain.
    EXPECT_EQ(r[Col(h, "drain_after_s")], CsvNumber(drain_s, 1));
    // The counters were read 15 s after the IO stop, as before the drain
    // overlapped the lag: still dirty during a 20 s drain, clean after 3 s.
    EXPECT_EQ(r[Col(h, "dirty_after_bytes")],
              drain_s > 15 ? std::to_string(64 << 20) : "0");
    // After the IO stop the cell waited max(lag, drain), not lag + drain.
    // (0.2 s sleeps once the drain is over: their sum is off by ulps.)
    EXPECT_NEAR(slept_at_end - slept_at_stop, std::max(15.0, drain_s), 1e-6);
    ASSERT_GE(slept_before_io, 0);
    const double wall = slept_before_io + 30 + std::max(15.0, drain_s);
    EXPECT_EQ(r[Col(h, "cell_wall_s")], CsvNumber(wall, 3));
    // Harness time: the rest of the lag and the sleeps before the IO.
    const double overhead = wall - 30 - drain_s;
    EXPECT_NEAR(std::stod(r[Col(h, "harness_overhead_pct")]),
                100 * overhead / wall, 0.1);
    // Sustained: the IOs over the measured runtime plus the time to clean.
    const double ios = std::stod(r[Col(h, "ios")]);
    const double runtime_s = std::stod(r[Col(h, "runtime_ms")]) / 1000;
    ASSERT_GT(ios, 0);
    EXPECT_NEAR(std::stod(r[Col(h, "iops_sustained")]),
                ios / (runtime_s + drain_s), 0.01);
    EXPECT_LT(std::stod(r[Col(h, "iops_sustained")]),
              std::stod(r[Col(h, "iops")]));
  }
}

// The counters "after" of a lagging layer (bcache) are read at its first
// fold after the IO stop, not --stats-lag (15 s) after it: on a fake clock
// the fake kernel folds 100 more read hits 4 s after the stop, or never.
TEST_F(ProtocolTest, CountersAreReadAtTheFirstFoldAfterTheIoStop) {
  // kCounted: the fold 4 s after the stop brings the cell's last 100 hits.
  // kWitnessed: the cell counted nothing after its last fold (writethrough's
  // writes), but the fold 4 s after the stop decays stats_five_minute.
  // kUnseen: no fold shows (nothing counted, five-minute averages all 0).
  enum Fold { kCounted, kWitnessed, kUnseen };
  for (const Fold fold : {kCounted, kWitnessed, kUnseen}) {
    SCOPED_TRACE(fold);
    CompareOptions o = Options("randread");
    o.run_id = "fold" + std::to_string(fold);
    o.mode_paths = {Mode("writeback",
                         "\"layer\": \"bcache\", \"cache_mode\": "
                         "\"writeback\"")};
    uint64_t now_ns = 1000000000000ull;
    uint64_t stop_ns = 0;
    double slept_at_stop = 0;
    double slept_at_end = 0;
    slept_ = 0;
    BcacheStatsTotal stats;
    fake_.SetStatsTotal(stats);  // the previous iteration's folds gone
    BcacheStatsTotal five;
    if (fold == kWitnessed) five.cache_misses = 320;
    fake_.SetStatsFiveMinute(five);
    bool folded = false;
    Host host = TestHost();
    CompareHooks hooks;
    host.now_ns = [&now_ns] { return now_ns; };
    host.sleep = [&](double s) {
      slept_ += s;
      now_ns += static_cast<uint64_t>(s * 1e9);
      if (fold != kUnseen && stop_ns != 0 &&
          now_ns - stop_ns >= 4000000000ull && !folded) {
        folded = true;
        if (fold == kCounted) stats.cache_hits += 100;
        fake_.SetStatsTotal(stats);
        five.cache_misses -= five.cache_misses / 32;
        fake_.SetStatsFiveMinute(five);
      }
    };
    hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
      RunResult r = RunWorkload(w, ro);
      now_ns += 10000000000ull;
      // A fold during the IO: 50 hits counted so far.
      stats.cache_hits = 50;
      fake_.SetStatsTotal(stats);
      stop_ns = now_ns;
      slept_at_stop = slept_;
      return r;
    };
    const auto rows = RunOneCell(o, host, hooks, &slept_at_end);
    ASSERT_EQ(rows.size(), 2u);
    const auto& h = rows[0];
    const auto& r = rows[1];
    const double after_s = std::stod(r[Col(h, "counters_after_s")]);
    if (fold != kUnseen) {
      // Seen at the first 0.2 s poll past the fold, with all the hits.
      EXPECT_GE(after_s, 4.0);
      EXPECT_LE(after_s, 4.2);
      EXPECT_EQ(r[Col(h, "read_hits")], fold == kCounted ? "150" : "50");
      EXPECT_LT(slept_at_end - slept_at_stop, 4.5);
    } else {
      EXPECT_EQ(r[Col(h, "counters_after_s")], "15.0");
      EXPECT_EQ(r[Col(h, "read_hits")], "50");
      EXPECT_NEAR(slept_at_end - slept_at_stop, 15.0, 1e-6);
    }
  }
}

// A lagging layer's counters "before" are read at its first fold after
// the prefill: the fake kernel folds the prefill's 70 hits 3 s after the
// prefill's IO stopped, and the run's 50 hits 4 s after its own. Read at
// once, "before" would miss the 70 and the cell would claim 120.
TEST_F(ProtocolTest, CountersBeforeAreReadAtTheFoldAfterThePrefill) {
  CompareOptions o = Options("randread");
  o.cache_state = CacheState::kWarm;
  o.mode_paths = {Mode("writeback",
                       "\"layer\": \"bcache\", \"cache_mode\": "
                       "\"writeback\"")};
  uint64_t now_ns = 1000000000000ull;
  uint64_t prefill_stop_ns = 0, run_stop_ns = 0;
  bool prefill_folded = false, run_folded = false;
  BcacheStatsTotal stats;
  fake_.SetStatsTotal(stats);
  Host host = TestHost();
  CompareHooks hooks;
  host.now_ns = [&now_ns] { return now_ns; };
  host.sleep = [&](double s) {
    now_ns += static_cast<uint64_t>(s * 1e9);
    if (prefill_stop_ns != 0 && !prefill_folded &&
        now_ns - prefill_stop_ns >= 3000000000ull) {
      prefill_folded = true;
      stats.cache_hits += 70;
      fake_.SetStatsTotal(stats);
    }
    if (run_stop_ns != 0 && !run_folded &&
        now_ns - run_stop_ns >= 4000000000ull) {
      run_folded = true;
      stats.cache_hits += 50;
      fake_.SetStatsTotal(stats);
    }
  };
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    RunResult r = RunWorkload(w, ro);
    now_ns += 10000000000ull;
    (prefill_stop_ns == 0 ? prefill_stop_ns : run_stop_ns) = now_ns;
    return r;
  };
  double slept_at_end = 0;
  const auto rows = RunOneCell(o, host, hooks, &slept_at_end);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(prefill_folded);
  EXPECT_EQ(rows[1][Col(rows[0], "read_hits")], "50");
}

TEST_F(ProtocolTest, DiagnosisReachesRunsCsv) {
  // Seed 001: a sequential read on writeback with the default cutoff; the
  // emulated kernel bypasses all of it.
  CompareOptions o = Options("read");
  o.mode_paths = {Mode("wt",
                       "\"layer\": \"bcache\", \"cache_mode\": "
                       "\"writethrough\", \"knobs\": "
                       "{\"sequential_cutoff\": \"4M\"}")};
  Host host = TestHost();
  CompareHooks hooks;
  hooks.run_workload = [this](const Workload& w, const RunOptions& ro) {
    RunResult r = RunWorkload(w, ro);
    const CounterSnapshot now =
        BcacheDevice(fake_.sysfs(), "bcache0").TakeCounters();
    BcacheStatsTotal st = now.stats;
    st.cache_bypass_misses += 64;
    st.bypassed_bytes += 256 * 1024;
    fake_.SetStatsTotal(st);
    BlockStat b = now.bcache;
    b.read_ios += 64;
    b.read_sectors += 512;
    fake_.SetBlockStat("bcache0", b);
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  ASSERT_EQ(rows.size(), 2u);
  const std::string w = rows[1][Col(rows[0], "warnings")];
  EXPECT_NE(w.find("100% of IO bypassed the cache (sequential_cutoff = 4.0M): "
                   "this cell measured the HDD"),
            std::string::npos)
      << w;
  EXPECT_EQ(rows[1][Col(rows[0], "bypassed_bytes")], "262144");
  EXPECT_NE(out.str().find("[1] 100% of IO bypassed"), std::string::npos);
}

// Bug 2 (6.1 kernel, --cache-state cold): `state` reads "no cache" before
// the kernel's detach has finished, so the old protocol "re-attached" a
// device that was still attached, set the knobs and then lost the cache:
// writeback_running read back 0 and the final restore failed with "no cache
// set attached". The fake finishes the detach one kernel tick late.
TEST_F(ProtocolTest, ColdCacheDetachFinishingLateLeavesKnobsAndEndStateIntact) {
  fake_.set_detach_lag(1);
  CompareOptions o = Options("randwrite");
  o.mode_paths = {Mode("wb",
                       "\"layer\": \"bcache\", \"cache_mode\": "
                       "\"writeback\", \"knobs\": "
                       "{\"writeback_running\": 1}, "
                       "\"cache_set_knobs\": "
                       "{\"congested_read_threshold_us\": 0}")};
  Host host = TestHost();
  CompareHooks hooks;
  const std::string link =
      fake_.root() + "/" + fake_.BackingBcacheDir() + "/cache";
  int attached_after_cell = 0;
  host.sleep = [this](double s) {
    slept_ += s;
    fake_.Tick();
  };
  hooks.after_cell = [&](size_t) {
    attached_after_cell += fs::exists(link) && !fake_.detach_pending() ? 1 : 0;
  };
  std::ostringstream out;
  const CompareSummary summary =
      CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_TRUE(summary.restore_ok);
  EXPECT_EQ(attached_after_cell, 1);
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][Col(rows[0], "cache_mode_readback")], "writeback");
  // End state == start state: attached, original mode and knobs.
  EXPECT_EQ(Backing("state"), "clean");
  EXPECT_FALSE(fake_.detach_pending());
  EXPECT_TRUE(fs::exists(link));
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  EXPECT_EQ(Backing("writeback_running"), "1");
  EXPECT_EQ(fake_.Get(fake_.CacheSetDir() + "/congested_read_threshold_us"),
            "2000");
}

TEST_F(ProtocolTest, ReadbackMismatchStopsBeforeMeasuring) {
  CompareOptions o = Options("randread");
  fake_.set_readback_override(fake_.BackingBcacheDir() + "/cache_mode",
                              "writethrough [writeback] writearound none");
  std::ostringstream out;
  // Asking for none reads back writeback: the cell must not be measured.
  o.mode_paths = {o.mode_paths[3]};
  EXPECT_THROW(CompareRunner(o, TestHost()).Run(MakeCompareReporters(out)),
               SysError);
  EXPECT_EQ(ParseCsv(ReadAll(RunDir() + "/runs.csv")).size(), 1u);  // header
}

TEST_F(ProtocolTest, WarmStatePrefillsWithoutCutoffThenAppliesTheMode) {
  CompareOptions o = Options("randread");
  o.cache_state = CacheState::kWarm;
  o.mode_paths = {o.mode_paths[3]};  // none, keeps the original cutoff
  const std::string cutoff_before = Backing("sequential_cutoff");
  Host host = TestHost();
  CompareHooks hooks;
  std::vector<std::string> seen;  // cutoff and mode when each run starts
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    seen.push_back(Backing("sequential_cutoff") + " " + Backing("cache_mode") +
                   " " + RwPatternName(w.jobs[0].rw));
    return RunWorkload(w, ro);
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], "0.0k [writethrough] writeback writearound none read");
  EXPECT_EQ(seen[1], cutoff_before +
                         " writethrough writeback writearound [none] randread");
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  EXPECT_EQ(rows[1][Col(rows[0], "cache_state")], "warm");
}

TEST_F(ProtocolTest, DbWorkloadsRunThroughTheDbCell) {
  CompareOptions o = Options("randread");
  const std::string db = dir_ + "/tpcb.json";
  WriteFile(db,
            R"({"schema_version": 1, "kind": "pgbench", "name": "tpcb",
                "scale": 1, "clients": 2, "threads": 1, "duration": "1s"})");
  o.workload_paths = {db};
  Host host = TestHost();
  CompareHooks hooks;
  std::vector<std::string> targets;
  hooks.run_db = [&](const DbWorkload& w, const std::string& device,
                     const DbCellOptions& opts, DbCellInfo*) {
    EXPECT_TRUE(opts.destructive);
    targets.push_back(device);
    JobResult r;
    r.name = w.name;
    r.unit = "tx";
    r.runtime_ns = 1000000000;
    DirectionStats& d = r.dir[static_cast<int>(DbTxDirection(w.builtin))];
    for (int i = 0; i < 100; ++i) {
      d.ios++;
      d.lat.Add(2e6);
      d.lat_hist.Add(2000000);
    }
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(targets,
            (std::vector<std::string>{dir_ + "/hdd.img", dir_ + "/ssd.img",
                                      bcache_target_, bcache_target_}));
  const auto cmp = ParseCsv(ReadAll(RunDir() + "/comparison.csv"));
  ASSERT_EQ(cmp.size(), 1u + 4);
  EXPECT_EQ(cmp[1][Col(cmp[0], "unit")], "tx");
  EXPECT_EQ(cmp[1][Col(cmp[0], "iops_median")], "100.000");
  EXPECT_NE(out.str().find("100 tps"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace tierbench
