// The whole compare protocol against the fake bcache sysfs (cache module's
// fixture): the IO runs for real (psync on temp files), bcache is emulated.
// Covers: mode applied and read back in every row, original knobs restored
// at the end, after a failure and after an interrupt, rows of finished cells
// kept, validation refusing before anything is touched, and the diagnosis
// reaching runs.csv.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cache/bcache/bcache_device.h"
#include "cache_fake_sysfs.h"
#include "orchestrate/compare_runner.h"
#include "orchestrate/compare_setup.h"
#include "orchestrate/restore_state.h"
#include "report/csv_writer.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream(path) << content;
}

// Splits CSV text into rows of fields (no quoted commas in these tests'
// key columns; quoted fields are unquoted).
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields.push_back(field);
        field.clear();
      } else {
        field += c;
      }
    }
    fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

size_t Col(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

class ProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetInterruptForTest();
    char tmpl[] = "/tmp/tierbench-compare-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    fs::create_directories(fake_.root() + "/dev");
    bcache_target_ = fake_.root() + "/dev/bcache0";
    for (const std::string& f :
         {bcache_target_, dir_ + "/hdd.img", dir_ + "/ssd.img"}) {
      WriteFile(f, "");
      fs::resize_file(f, 1 << 20);
    }
  }
  void TearDown() override {
    ResetInterruptForTest();
    fs::remove_all(dir_);
  }

  std::string Mode(const std::string& name, const std::string& body) {
    const std::string path = dir_ + "/" + name + ".json";
    WriteFile(path, "{\"schema_version\": 1, \"name\": \"" + name +
                        "\", \"description\": \"test\", " + body + "}");
    return path;
  }

  CompareOptions Options(const std::string& rw) {
    const std::string job = dir_ + "/" + rw + ".fio";
    WriteFile(job, "[" + rw + "]\nrw=" + rw +
                       "\nbs=4k\nsize=256k\nioengine=psync\ndirect=0\n");
    CompareOptions o;
    // The cold protocol (the default warms until steady, which these
    // fake runs would loop through; its own tests set it).
    o.cache_state = CacheState::kCold;
    o.stacks = {bcache_target_};
    o.hdd = dir_ + "/hdd.img";
    o.ssd = dir_ + "/ssd.img";
    o.mode_paths = {
        Mode("hdd", "\"layer\": \"raw\", \"target\": \"hdd\""),
        Mode("ssd", "\"layer\": \"raw\", \"target\": \"ssd\""),
        Mode("writeback",
             "\"layer\": \"bcache\", \"cache_mode\": \"writeback\", "
             "\"knobs\": {\"sequential_cutoff\": \"0\"}, "
             "\"cache_set_knobs\": {\"congested_read_threshold_us\": 0}"),
        Mode("none", "\"layer\": \"bcache\", \"cache_mode\": \"none\"")};
    o.workload_paths = {job};
    o.results_dir = dir_ + "/results";
    o.run_id = "t1";
    o.destructive = true;
    o.stats_lag_s = 15;
    o.drain_timeout_s = 5;
    o.sysfs_root = fake_.root();
    o.quiet = true;
    return o;
  }

  CompareHooks Hooks() {
    CompareHooks h;
    h.sysfs = fake_.sysfs();
    h.sleep = [this](double s) { slept_ += s; };
    return h;
  }

  std::string RunDir() const { return dir_ + "/results/t1"; }

  // Runs the compare of one cell `o` with `hooks`, whose after_cell hook
  // is set to store slept_ at the cell's end in *slept_at_end; returns
  // runs.csv's rows (the header and the cell's).
  std::vector<std::vector<std::string>> RunOneCell(const CompareOptions& o,
                                                   CompareHooks hooks,
                                                   double* slept_at_end) {
    hooks.after_cell = [this, slept_at_end](size_t) { *slept_at_end = slept_; };
    std::ostringstream out;
    CompareRunner(o, hooks).Run(out);
    return ParseCsv(ReadAll(dir_ + "/results/" + o.run_id + "/runs.csv"));
  }
  std::string Backing(const std::string& f) { return fake_.GetBacking(f); }

  FakeBcacheSysfs fake_;
  std::string dir_;
  std::string bcache_target_;
  double slept_ = 0;
};

TEST_F(ProtocolTest, RunsEveryCellAppliesModesAndRestores) {
  const std::string cutoff_before = Backing("sequential_cutoff");
  CompareOptions o = Options("randrw");
  o.repeat = 2;
  std::ostringstream out;
  const CompareSummary s = CompareRunner(o, Hooks()).Run(out);
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
    CompareHooks hooks = Hooks();
    hooks.now_ns = [&now_ns] { return now_ns; };
    hooks.sleep = [&](double s) {
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
    const auto rows = RunOneCell(o, hooks, &slept_at_end);
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
    CompareHooks hooks = Hooks();
    hooks.now_ns = [&now_ns] { return now_ns; };
    hooks.sleep = [&](double s) {
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
    const auto rows = RunOneCell(o, hooks, &slept_at_end);
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

TEST_F(ProtocolTest, DiagnosisReachesRunsCsv) {
  // Seed 001: a sequential read on writeback with the default cutoff; the
  // emulated kernel bypasses all of it.
  CompareOptions o = Options("read");
  o.mode_paths = {Mode("wt",
                       "\"layer\": \"bcache\", \"cache_mode\": "
                       "\"writethrough\", \"knobs\": "
                       "{\"sequential_cutoff\": \"4M\"}")};
  CompareHooks hooks = Hooks();
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
  CompareRunner(o, hooks).Run(out);
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

TEST_F(ProtocolTest, RestoresAfterAFailureAndKeepsFinishedCells) {
  CompareOptions o = Options("randread");
  CompareHooks hooks = Hooks();
  hooks.after_cell = [](size_t i) {
    if (i == 2) throw SysError("simulated failure");
  };
  std::ostringstream out;
  EXPECT_THROW(CompareRunner(o, hooks).Run(out), SysError);
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  EXPECT_EQ(rows.size(), 1u + 3);  // hdd, ssd, writeback
  const auto m = nlohmann::json::parse(ReadAll(RunDir() + "/manifest.json"));
  EXPECT_EQ(m["status"], "failed: simulated failure");
  EXPECT_EQ(m["restore"]["ok"], true);
  EXPECT_TRUE(fs::exists(RunDir() + "/comparison.csv"));
}

TEST_F(ProtocolTest, RestoresAfterAnInterrupt) {
  CompareOptions o = Options("randread");
  CompareHooks hooks = Hooks();
  hooks.after_cell = [](size_t i) {
    if (i == 2) RaiseInterruptForTest(SIGINT);
  };
  std::ostringstream out;
  try {
    CompareRunner(o, hooks).Run(out);
    FAIL() << "no InterruptedError";
  } catch (const InterruptedError& e) {
    EXPECT_EQ(e.exit_code(), 130);
  }
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  const auto rows = ParseCsv(ReadAll(RunDir() + "/runs.csv"));
  EXPECT_EQ(rows.size(), 1u + 3);
  const auto cmp = ParseCsv(ReadAll(RunDir() + "/comparison.csv"));
  EXPECT_EQ(cmp.size(), 1u + 3);
  const auto m = nlohmann::json::parse(ReadAll(RunDir() + "/manifest.json"));
  EXPECT_EQ(m["status"], "interrupted");
}

// A compare killed before it restored (SIGKILL, crash): the state file it
// wrote before its first change lets `tierbench restore` put the mode back,
// and until then a new compare refuses to start.
TEST_F(ProtocolTest, KilledCompareIsUndoneByRestoreFromTheStateFile) {
  CompareOptions o = Options("randread");
  CompareHooks hooks = Hooks();
  const std::string state_path = StateFilePath(fake_.sysfs());
  std::string state_mid_run, mode_mid_run;
  hooks.after_cell = [&](size_t i) {
    if (i != 2) return;  // the writeback cell
    state_mid_run = ReadAll(state_path);
    mode_mid_run = Backing("cache_mode");
  };
  std::ostringstream out;
  CompareRunner(o, hooks).Run(out);
  // A compare that restored removes its state and keeps a copy.
  EXPECT_FALSE(fs::exists(state_path));
  EXPECT_EQ(ReadAll(RunDir() + "/restore-state.json"), state_mid_run);
  ASSERT_FALSE(state_mid_run.empty());
  const auto state = nlohmann::json::parse(state_mid_run);
  EXPECT_EQ(state["stacks"][0]["layer"], "bcache");
  EXPECT_EQ(state["stacks"][0]["original"]["cache_mode"], "writethrough");
  EXPECT_EQ(mode_mid_run, "writethrough [writeback] writearound none");

  // Now as if the process had died in that cell.
  ASSERT_TRUE(fake_.sysfs()
                  .Write(fake_.BackingBcacheDir() + "/cache_mode", "writeback")
                  .ok());
  ASSERT_TRUE(fake_.sysfs()
                  .Write(fake_.BackingBcacheDir() + "/sequential_cutoff", "0")
                  .ok());
  WriteFile(state_path, state_mid_run);
  CompareOptions again = Options("randread");
  again.run_id = "t2";
  try {
    PrepareCompare(again, LayerEnv{fake_.sysfs(), nullptr, nullptr});
    FAIL() << "a stale state was not refused";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("Fix: tierbench restore"),
              std::string::npos)
        << e.what();
  }
  std::ostringstream restore_out;
  EXPECT_TRUE(
      RestoreFromState(LayerEnv{fake_.sysfs(), nullptr, nullptr}, restore_out));
  EXPECT_EQ(Backing("cache_mode"), "[writethrough] writeback writearound none");
  EXPECT_EQ(Backing("sequential_cutoff"), "4.0M");
  EXPECT_FALSE(fs::exists(state_path));
  EXPECT_NE(restore_out.str().find("restored " + bcache_target_),
            std::string::npos)
      << restore_out.str();
  // Nothing left: restore says so and succeeds.
  std::ostringstream nothing;
  EXPECT_TRUE(
      RestoreFromState(LayerEnv{fake_.sysfs(), nullptr, nullptr}, nothing));
  EXPECT_NE(nothing.str().find("nothing to restore"), std::string::npos);
}

TEST_F(ProtocolTest, StateOfALiveCompareIsNotRestoredAndMalformedIsRefused) {
  const std::string state_path = StateFilePath(fake_.sysfs());
  fs::create_directories(fs::path(state_path).parent_path());
  WriteFile(state_path,
            "{\"schema_version\": 1, \"pid\": 4242, \"run_dir\": \"r\", "
            "\"started\": \"s\", \"stacks\": []}");
  fs::create_directories(fake_.root() + "/proc/4242");
  WriteFile(fake_.root() + "/proc/4242/comm", "tierbench\n");
  std::ostringstream out;
  try {
    RestoreFromState(LayerEnv{fake_.sysfs(), nullptr, nullptr}, out);
    FAIL() << "restored under a live compare";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("still running (pid 4242)"),
              std::string::npos)
        << e.what();
  }
  try {
    PrepareCompare(Options("randread"),
                   LayerEnv{fake_.sysfs(), nullptr, nullptr});
    FAIL() << "started beside a live compare";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("another tierbench compare is "
                                         "running"),
              std::string::npos)
        << e.what();
  }
  WriteFile(state_path, "{\"schema_version\": 1, \"pid\": \"x\"}");
  EXPECT_THROW(RestoreFromState(LayerEnv{fake_.sysfs(), nullptr, nullptr}, out),
               ConfigError);
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
  CompareHooks hooks = Hooks();
  const std::string link =
      fake_.root() + "/" + fake_.BackingBcacheDir() + "/cache";
  int attached_after_cell = 0;
  hooks.sleep = [this](double s) {
    slept_ += s;
    fake_.Tick();
  };
  hooks.after_cell = [&](size_t) {
    attached_after_cell += fs::exists(link) && !fake_.detach_pending() ? 1 : 0;
  };
  std::ostringstream out;
  const CompareSummary summary = CompareRunner(o, hooks).Run(out);
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

// The default mode list names every layer's modes: those of layers without
// a --stack are left out; an explicit list with such a mode is refused.
TEST_F(ProtocolTest, DefaultModesKeepOnlyTheLayersGiven) {
  CompareOptions o = Options("read");
  o.mode_paths.push_back(
      Mode("dmc", "\"layer\": \"dm-cache\", \"cache_mode\": \"writeback\""));
  try {
    PrepareCompare(o, LayerEnv{fake_.sysfs(), nullptr, nullptr});
    FAIL() << "a dm-cache mode without a dm-cache stack was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("need a dm-cache stack"),
              std::string::npos)
        << e.what();
  }
  o.modes_are_default = true;
  const CompareSetup setup =
      PrepareCompare(o, LayerEnv{fake_.sysfs(), nullptr, nullptr});
  ASSERT_EQ(setup.modes.size(), 4u);
  for (const ModeSpec& m : setup.modes) EXPECT_NE(m.layer, "dm-cache");
  ASSERT_EQ(setup.stacks.size(), 1u);
  EXPECT_EQ(setup.stacks[0].layer->layer(), "bcache");
}

// The lab's --quick failed on anandtech-mix: offset=10% of a 1 GiB
// partition is not a multiple of 512, and direct IO refused it. fio rounds
// a percentage offset down to blockalign (else the minimum block size).
TEST_F(ProtocolTest, PercentOffsetsAreRoundedDownToTheJobAlignment) {
  CompareOptions o = Options("read");
  const std::string job = dir_ + "/pct.fio";
  WriteFile(job,
            "[a]\nrw=read\nbs=4k\nsize=64k\noffset=10%\n"
            "[b]\nrw=read\nbs=16k\nblockalign=8k\nsize=64k\noffset=30%\n");
  o.workload_paths = {job};
  const CompareSetup setup =
      PrepareCompare(o, LayerEnv{fake_.sysfs(), nullptr, nullptr});
  ASSERT_EQ(setup.workloads.size(), 1u);
  const std::vector<JobSpec>& jobs = setup.workloads[0].io.jobs;
  ASSERT_EQ(jobs.size(), 2u);
  // Targets are 1 MiB: 10% = 104857 -> 102400; 30% = 314572 -> 311296.
  EXPECT_EQ(jobs[0].offset.bytes, 102400u);
  EXPECT_EQ(jobs[1].offset.bytes, 311296u);
}

TEST_F(ProtocolTest, ReadbackMismatchStopsBeforeMeasuring) {
  CompareOptions o = Options("randread");
  fake_.set_readback_override(fake_.BackingBcacheDir() + "/cache_mode",
                              "writethrough [writeback] writearound none");
  std::ostringstream out;
  // Asking for none reads back writeback: the cell must not be measured.
  o.mode_paths = {o.mode_paths[3]};
  EXPECT_THROW(CompareRunner(o, Hooks()).Run(out), SysError);
  EXPECT_EQ(ParseCsv(ReadAll(RunDir() + "/runs.csv")).size(), 1u);  // header
}

TEST_F(ProtocolTest, WarmStatePrefillsWithoutCutoffThenAppliesTheMode) {
  CompareOptions o = Options("randread");
  o.cache_state = CacheState::kWarm;
  o.mode_paths = {o.mode_paths[3]};  // none, keeps the original cutoff
  const std::string cutoff_before = Backing("sequential_cutoff");
  CompareHooks hooks = Hooks();
  std::vector<std::string> seen;  // cutoff and mode when each run starts
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    seen.push_back(Backing("sequential_cutoff") + " " + Backing("cache_mode") +
                   " " + RwPatternName(w.jobs[0].rw));
    return RunWorkload(w, ro);
  };
  std::ostringstream out;
  CompareRunner(o, hooks).Run(out);
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
  CompareHooks hooks = Hooks();
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
  CompareRunner(o, hooks).Run(out);
  EXPECT_EQ(targets,
            (std::vector<std::string>{dir_ + "/hdd.img", dir_ + "/ssd.img",
                                      bcache_target_, bcache_target_}));
  const auto cmp = ParseCsv(ReadAll(RunDir() + "/comparison.csv"));
  ASSERT_EQ(cmp.size(), 1u + 4);
  EXPECT_EQ(cmp[1][Col(cmp[0], "unit")], "tx");
  EXPECT_EQ(cmp[1][Col(cmp[0], "iops_median")], "100.000");
  EXPECT_NE(out.str().find("100 tps"), std::string::npos) << out.str();
}

TEST_F(ProtocolTest, ValidationRefusesBeforeTouchingAnything) {
  const std::string mode_file = "sys/block/bcache0/bcache/cache_mode";
  struct Case {
    const char* name;
    std::function<void(CompareOptions*)> edit;
    int exit_code;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"writes need --destructive",
       [](CompareOptions* o) { o->destructive = false; }, kExitSafety,
       "--destructive"},
      {"raw HDD is the backing device",
       [this](CompareOptions* o) {
         o->hdd = fake_.root() + "/dev/vda";
         WriteFile(o->hdd, "");
       },
       kExitSafety, "part of the bcache stack"},
      {"no cache attached", [this](CompareOptions*) { fake_.Detach(); },
       kExitSystem, "has no cache attached"},
      {"not a bcache device",
       [this](CompareOptions* o) {
         o->stacks = {fake_.root() + "/dev/bcache7"};
       },
       kExitSystem, "bcache7"},
      {"bad repeat", [](CompareOptions* o) { o->repeat = 0; }, kExitConfig,
       "--repeat"},
      {"missing mode file",
       [this](CompareOptions* o) { o->mode_paths.push_back(dir_ + "/x.json"); },
       kExitConfig, "x.json"},
      {"raw mode without --ssd", [](CompareOptions* o) { o->ssd.clear(); },
       kExitConfig, "--ssd"},
      {"no bcache module",
       [this](CompareOptions*) {
         fs::remove_all(fake_.root() + "/sys/fs/bcache");
       },
       kExitSystem, "no bcache in this kernel"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    CompareOptions o = Options("randwrite");
    c.edit(&o);
    std::ostringstream out;
    try {
      CompareRunner(o, Hooks()).Run(out);
      ADD_FAILURE() << "accepted";
    } catch (const HarnessError& e) {
      EXPECT_EQ(e.exit_code(), c.exit_code) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(fake_.WriteCount(mode_file), 0);
    EXPECT_FALSE(fs::exists(RunDir()));
    if (std::string(c.name) == "no cache attached") fake_.Attach();
  }
}

}  // namespace
}  // namespace tierbench
