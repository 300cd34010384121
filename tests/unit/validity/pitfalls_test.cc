// Every pitfall of PitfallTable() (validity/rule_table.h) of the cache
// layers and the measurement (rows 1 to 13 and X3) on kernel text that
// real lab runs recorded (tests/unit/data/lab-kernel/, README.md there): a
// valid case where the row's rules stay silent and an invalid one, a documented
// edit of the recorded text, where they fire (or, for a prevented row, where
// the protocol's guard refuses or corrects the input). The recorded text goes
// through tierbench's own readers (tests/unit/validity/pitfalls_replay.h:
// BcacheLayer, the dm layers, HostSampler). The other rows are in
// tests/unit/validity/pitfalls_protocol_test.cc (14 to 30 but 18, 20, 21 and
// 23; X1, X2), tests/unit/validity/pitfalls_db_test.cc (20, 21, X5),
// tests/unit/validity/pitfalls_latency_test.cc (18, X4) and
// tests/unit/validity/pitfalls_superblock_test.cc (23). The meta-test here
// fails when a row of the table has no case.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cache/bcache/bcache_values.h"
#include "cache/queue_settings.h"
#include "cache/registry/mode_file.h"
#include "orchestrate/prepare_compare.h"
#include "record/compare_options.h"
#include "record/sustained.h"
#include "unit/validity/pitfalls_replay.h"
#include "util/csv_reader.h"
#include "util/errors.h"
#include "validity/measurement_rules.h"
#include "validity/rule_table.h"
#include "validity/setup_rules.h"

namespace tierbench {
namespace {

using pitfalls::BcacheReplay;
using pitfalls::DmReplay;
using pitfalls::EditRecord;
using pitfalls::EditText;
using pitfalls::Fires;
using pitfalls::JobOfRow;
using pitfalls::LabCell;
using pitfalls::LabCsv;
using pitfalls::LabSysfs;
using pitfalls::LabText;
using pitfalls::ManifestRegionBytes;
using pitfalls::ReplayHost;
using pitfalls::RowOf;
using pitfalls::RuleIds;
using pitfalls::ShippedJobs;
using pitfalls::TextOf;

constexpr char kDemo[] = "demo-evidence.jsonl";
constexpr char kFleet[] = "fleet-20000-evidence.jsonl";

// Each row's case: the test that holds it and the rule ids it makes fire
// (the row's `rules`, so a row whose rules change fails here too).
struct RowCase {
  std::string test;
  std::vector<std::string> rules;
};

const std::map<std::string, RowCase>& RowCases() {
  static const std::map<std::string, RowCase> kCases = {
      {"1", {"Row01SequentialCutoff", {"bcache.cutoff"}}},
      {"2", {"Row02CongestionBypass", {"bcache.congestion", "bcache.bypass"}}},
      {"3", {"Row03WarmAcrossModeSwitches", {"bcache.warm"}}},
      {"4", {"Row04NoneAndWritearoundServeCachedReads", {"bcache.warm"}}},
      {"5", {"Row05DirtyDataOfEarlierCells", {"dirty-before", "dirty-after"}}},
      {"6", {"Row06DeferredWriteback", {}}},
      {"7",
       {"Row07OccupancyThresholds",
        {"bcache.full", "bcache.degraded", "dm-writecache.watermark",
         "working-set"}}},
      {"8", {"Row08CounterLag", {"counters-lag"}}},
      {"9", {"Row09HitCountersCountReadsOnly", {"bcache.degraded"}}},
      {"10", {"Row10UnalignedIo", {"bcache.unaligned"}}},
      {"11", {"Row11BufferedIo", {"buffered-io"}}},
      {"12", {"Row12KnobsResetOnReRegister", {}}},
      {"13", {"Row13OtherIoOnTheDisks", {"in-flight", "other-io"}}},
      {"14", {"Row14WriteCacheOfTheBaselines", {"baseline-write-cache"}}},
      {"15", {"Row15SameLbaRangeOnEveryTarget", {}}},
      {"16", {"Row16SsdState", {"drift"}}},
      {"17", {"Row17QueueSettingsOfTheBaselines", {"baseline-queue"}}},
      {"18", {"Row18CoordinatedOmission", {}}},
      {"19", {"Row19ShortRunsAndNoWarmUp", {"few-ios", "no-io", "not-steady"}}},
      {"20", {"Row20PgbenchContentionAndRestart", {"db-scale", "db-restart"}}},
      {"21", {"Row21DerivedPgbenchLatency", {}}},
      {"22", {"Row22WrongOrMountedDevice", {}}},
      {"23", {"Row23MakeBcacheMinimumsAndLeftoverSuperblocks", {}}},
      {"24", {"Row24AsynchronousRegistration", {"bcache.no-cache"}}},
      {"25", {"Row25DetachBlocksOnDirtyData", {}}},
      {"26", {"Row26KernelWithoutTheLayer", {}}},
      {"27", {"Row27LoopAndLabPageCache", {"loop-buffered", "lab-page-cache"}}},
      {"28",
       {"Row28DmCachePromotesGradually",
        {"dm-cache.cold", "dm-cache.throttled", "dm-cache.block",
         "dm-cache.split", "warm-promoting"}}},
      {"29", {"Row29OpenCasIsNoLayer", {}}},
      {"30", {"Row30HumanReadableSysfsValues", {}}},
      {"X1",
       {"RowX1CpuBoundOrUndiscriminating",
        {"cpu-bound", "cpu-steal", "cpu", "no-discrimination"}}},
      {"X2", {"RowX2ColdCache", {"cold-reads", "dm-cache.cold"}}},
      {"X3", {"RowX3RegionLargerThanTheCache", {"working-set"}}},
      {"X4", {"RowX4ClosedLoopP99AsClientLatency", {}}},
      {"X5", {"RowX5DatabaseInBuffersOrRam", {"db-buffers", "db-in-memory"}}},
  };
  return kCases;
}

// Rows no recorded kernel text can exercise yet (reported; not skipped).
// Empty: every row has a case. A row added to PitfallTable() without one
// goes here with the reason until the lab records what it needs.
const std::set<std::string>& NotYetTestable() {
  static const std::set<std::string> kNotYetTestable = {};
  return kNotYetTestable;
}

TEST(ValidityPitfallsTest, EveryRowOfThePitfallTableHasACase) {
  std::set<std::string> tests;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    if (std::string(suite.name()) != "ValidityPitfallsTest") continue;
    for (int j = 0; j < suite.total_test_count(); ++j) {
      tests.insert(suite.GetTestInfo(j)->name());
    }
  }
  std::set<std::string> rows;
  for (const PitfallEntry& e : PitfallTable()) {
    rows.insert(e.pitfall);
    const bool untestable = NotYetTestable().count(e.pitfall) > 0;
    auto it = RowCases().find(e.pitfall);
    if (it == RowCases().end()) {
      EXPECT_TRUE(untestable)
          << "pitfall " << e.pitfall << " (" << e.title << ") has no case";
      continue;
    }
    EXPECT_FALSE(untestable)
        << "pitfall " << e.pitfall << " has a case and is listed not testable";
    EXPECT_EQ(tests.count(it->second.test), 1u)
        << "pitfall " << e.pitfall << ": no test " << it->second.test;
    EXPECT_EQ(it->second.rules, e.rules)
        << "pitfall " << e.pitfall << ": the case fires other rules than "
        << "the table lists";
  }
  for (const auto& [row, c] : RowCases()) {
    EXPECT_EQ(rows.count(row), 1u) << "case of no row: " << row;
  }
  for (const std::string& row : NotYetTestable()) {
    EXPECT_EQ(rows.count(row), 1u) << "not testable, no row: " << row;
  }
  EXPECT_EQ(RowCases().size() + NotYetTestable().size(), rows.size());
}

// Pitfall 1. Valid: the demo's writeback/randwrite-4k cell under
// modes/writeback.json (sequential_cutoff 4.0M as read back): bcache
// bypassed nothing ("bypassed=0.0k" before and after). Invalid: the
// fleet's none/randread-4k counters (bypassed 2.2M -> 6.7M, every read)
// replayed as a writethrough cell of a sequential job
// (workloads/seq-read-256k.fio): the bypass is the cutoff's.
TEST(ValidityPitfallsTest, Row01SequentialCutoff) {
  BcacheReplay valid;
  const LayerReadback rb = valid.Apply("writeback.json");
  EXPECT_EQ(rb.settings.at("sequential_cutoff"), "4.0M");
  const CellObservation o =
      valid.Observe(LabCell(kDemo, "writeback", "randwrite-4k"), rb,
                    ShippedJobs("randwrite-4k.fio"));
  EXPECT_EQ(o.delta.common.bypassed_bytes, 0);
  EXPECT_GT(o.write_bytes, 90u << 20);
  EXPECT_FALSE(Fires(valid.Findings(o), "bcache.cutoff"));

  BcacheReplay invalid;
  const LayerReadback wt = invalid.Apply("writethrough.json");
  const CellObservation seq =
      invalid.Observe(LabCell(kFleet, "none", "randread-4k"), wt,
                      ShippedJobs("seq-read-256k.fio"));
  EXPECT_GT(seq.delta.common.bypassed_bytes, 4 << 20);
  const std::vector<Finding> f = invalid.Findings(seq);
  ASSERT_TRUE(Fires(f, "bcache.cutoff")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "bcache.cutoff")
                .find("(sequential_cutoff = 4.0M): this cell measured the HDD"),
            std::string::npos)
      << TextOf(f, "bcache.cutoff");
}

// Pitfall 2. Prevented: the lab kernel's defaults (knobs-before.txt:
// congested 2000/20000 us) become 0 and 0 when a shipped mode is applied
// and read back; every shipped bcache mode sets both. Flagged: the fleet's
// none/randread-4k bypass (random reads) replayed as writethrough under the
// kernel's defaults is congestion's; under modes/writeback-nocutoff.json
// (cutoff and congestion off) it is the unexplained bcache.bypass. Valid:
// the demo's writeback/randwrite-4k cell bypassed nothing.
TEST(ValidityPitfallsTest, Row02CongestionBypass) {
  BcacheReplay guard;
  const LayerReadback before = guard.layer().ReadBack();
  EXPECT_EQ(before.settings.at("congested_read_threshold_us"), "2000");
  EXPECT_EQ(before.settings.at("congested_write_threshold_us"), "20000");
  const LayerReadback after = guard.Apply("writethrough.json");
  EXPECT_EQ(after.settings.at("congested_read_threshold_us"), "0");
  EXPECT_EQ(after.settings.at("congested_write_threshold_us"), "0");
  for (const char* file :
       {"writethrough.json", "writeback.json", "writearound.json", "none.json",
        "writeback-nocutoff.json"}) {
    const ModeSpec m = LoadModeFile(pitfalls::RepoPath("modes/") + file);
    std::map<std::string, std::string> set(m.cache_set_knobs.begin(),
                                           m.cache_set_knobs.end());
    EXPECT_EQ(set["congested_read_threshold_us"], "0") << file;
    EXPECT_EQ(set["congested_write_threshold_us"], "0") << file;
  }
  const std::vector<JobSpec> random = ShippedJobs("randread-4k.fio");
  const nlohmann::json bypassed = LabCell(kFleet, "none", "randread-4k");

  BcacheReplay defaults;  // no mode applied: the kernel's thresholds
  const LayerReadback rb = defaults.layer().ReadBack();
  ASSERT_EQ(rb.cache_mode, "writethrough");
  std::vector<Finding> f =
      defaults.Findings(defaults.Observe(bypassed, rb, random));
  EXPECT_TRUE(Fires(f, "bcache.congestion")) << ValidityReasons(f);
  EXPECT_FALSE(Fires(f, "bcache.cutoff"));

  BcacheReplay off;
  f = off.Findings(
      off.Observe(bypassed, off.Apply("writeback-nocutoff.json"), random));
  EXPECT_TRUE(Fires(f, "bcache.bypass")) << ValidityReasons(f);
  EXPECT_FALSE(Fires(f, "bcache.congestion"));

  BcacheReplay valid;
  f = valid.Findings(valid.Observe(LabCell(kDemo, "writeback", "randwrite-4k"),
                                   valid.Apply("writeback.json"),
                                   ShippedJobs("randwrite-4k.fio")));
  for (const char* rule : {"bcache.congestion", "bcache.bypass"}) {
    EXPECT_FALSE(Fires(f, rule)) << rule;
  }
}

// The fleet's none/randread-4k cell in mode `mode_file` and cache state
// `state`; `hits`: its after reading edited so that its reads hit.
std::vector<Finding> NoneCell(const std::string& mode_file,
                              const std::string& state, bool hits) {
  BcacheReplay r;
  const LayerReadback rb = r.Apply(mode_file);
  nlohmann::json rec = LabCell(kFleet, "none", "randread-4k");
  rec["cache_state"] = state;
  if (hits) {
    // The cell's 769 reads found their blocks cached (65158 -> 65927).
    EditRecord(&rec, "counters", 1, "cache_hits=65158", "cache_hits=65927");
  }
  return r.Findings(r.Observe(rec, rb, ShippedJobs("randread-4k.fio")));
}

// Pitfall 3. Prevented: the cold reset of every bcache cell is a detach
// and an attach (MakeCold), and the lab kernel logged one pair per bcache
// cell of the demo (demo-dmesg-bcache.txt: 3 cells, 3 detaches).
// Flagged: the fleet's none/randread-4k counters as recorded (no hit, no
// bypass hit) are valid; the same cell whose reads hit (cache_hits edited
// +769) in a cache used as-is is served by a cache left warm.
TEST(ValidityPitfallsTest, Row03WarmAcrossModeSwitches) {
  BcacheReplay r;
  r.layer().MakeCold(1);
  EXPECT_EQ(r.fake().WriteCount("sys/block/bcache0/bcache/detach"), 1);
  EXPECT_EQ(r.layer().State(), "clean");
  const std::string dmesg = LabText("demo-dmesg-bcache.txt");
  auto count = [&dmesg](const std::string& what) {
    size_t n = 0;
    for (size_t at = dmesg.find(what); at != std::string::npos;
         at = dmesg.find(what, at + 1)) {
      ++n;
    }
    return n;
  };
  size_t bcache_cells = 0;
  for (const nlohmann::json& rec : pitfalls::LabRecords(kDemo)) {
    if (rec["layer"] == "bcache") ++bcache_cells;
  }
  EXPECT_EQ(bcache_cells, 3u);
  EXPECT_EQ(count("cached_dev_detach_finish() Caching disabled for vda1"),
            bcache_cells);
  EXPECT_EQ(count("bch_cached_dev_attach() Caching vda1 as bcache0"),
            bcache_cells + 1);  // and the first attach

  EXPECT_FALSE(Fires(NoneCell("none.json", "as-is", false), "bcache.warm"));
  const std::vector<Finding> f = NoneCell("none.json", "as-is", true);
  ASSERT_TRUE(Fires(f, "bcache.warm")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "bcache.warm").find("left warm by earlier cells (769"),
            std::string::npos)
      << TextOf(f, "bcache.warm");
}

// Pitfall 4. Prevented: the default --cache-state is warm-until-steady,
// which starts every cell from a cold reset. Flagged: the same recorded
// hits in writearound used as-is are the earlier cells' cache; in the
// default state (reset cold) writearound's own read caching is fine, and
// none reset cold that still hits says the reset failed.
TEST(ValidityPitfallsTest, Row04NoneAndWritearoundServeCachedReads) {
  EXPECT_EQ(CompareOptions{}.cache_state, CacheState::kWarmUntilSteady);
  EXPECT_FALSE(
      Fires(NoneCell("writearound.json", "as-is", false), "bcache.warm"));
  EXPECT_FALSE(Fires(NoneCell("writearound.json", "warm-until-steady", true),
                     "bcache.warm"));
  std::vector<Finding> f = NoneCell("writearound.json", "as-is", true);
  EXPECT_TRUE(Fires(f, "bcache.warm")) << ValidityReasons(f);
  f = NoneCell("none.json", "cold", true);
  ASSERT_TRUE(Fires(f, "bcache.warm")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "bcache.warm").find("right after a cold reset"),
            std::string::npos);
}

// The demo's `mode`/randwrite-4k cell with the drains the protocol runs
// around it: WaitClean on its first reading (before) and its last (after).
std::vector<Finding> DrainedCell(const std::string& mode) {
  BcacheReplay r;
  const nlohmann::json rec = LabCell(kDemo, mode, "randwrite-4k");
  CellObservation o =
      r.Observe(rec, r.Apply(mode + ".json"), ShippedJobs("randwrite-4k.fio"));
  r.WriteReading(rec, 0);
  o.drain_before_timed_out = !r.layer().WaitClean(0.3, nullptr, nullptr).ok();
  r.WriteReading(rec, 1);
  const Status after = r.layer().WaitClean(0.3, nullptr, nullptr);
  o.drain_after_timed_out = !after.ok();
  if (!after.ok()) {
    EXPECT_EQ(after.code(), Status::Code::kTimedOut) << after.message();
    o.dirty_left_after_drain = static_cast<uint64_t>(r.layer().DirtyBytes());
  }
  return r.Findings(o);
}

// Pitfall 5. The demo's writeback/randwrite-4k readings hold 4.0M of dirty
// data (dirty_data=4194304, state=dirty) that nothing writes back on the
// fake: the protocol's drains time out and both rules fire. Its
// writethrough cell is clean (dirty_data=0): the drains pass at once.
TEST(ValidityPitfallsTest, Row05DirtyDataOfEarlierCells) {
  const std::vector<Finding> clean = DrainedCell("writethrough");
  EXPECT_FALSE(Fires(clean, "dirty-before"));
  EXPECT_FALSE(Fires(clean, "dirty-after"));
  const std::vector<Finding> dirty = DrainedCell("writeback");
  ASSERT_TRUE(Fires(dirty, "dirty-before")) << ValidityReasons(dirty);
  EXPECT_NE(TextOf(dirty, "dirty-before").find("(4MiB when the drain timed"),
            std::string::npos)
      << TextOf(dirty, "dirty-before");
  ASSERT_TRUE(Fires(dirty, "dirty-after"));
  EXPECT_NE(TextOf(dirty, "dirty-after").find("4MiB still dirty"),
            std::string::npos)
      << TextOf(dirty, "dirty-after");
}

// Pitfall 6 (prevented, no rule). The protocol times the drain after the
// IO stop and reports iops_sustained = ios / (runtime + time to clean):
// recomputed from the demo's runs.csv, writeback/randwrite-4k's 4820 IOPS
// are 285 sustained (79.5 s to clean 4.0M through the HDD), while
// writethrough, clean at once, sustains its burst.
TEST(ValidityPitfallsTest, Row06DeferredWriteback) {
  const CsvDocument runs = LabCsv("demo-runs.csv");
  const size_t wt = RowOf(runs, "writethrough", "randwrite-4k");
  const size_t wb = RowOf(runs, "writeback", "randwrite-4k");
  ASSERT_LT(wb, runs.row_count());
  ASSERT_LT(wt, runs.row_count());
  const std::optional<double> burst_wt =
      SustainedIops(JobOfRow(runs, wt), IoDir::kWrite,
                    runs.Number(wt, "drain_after_s").value_or(-1));
  ASSERT_TRUE(burst_wt.has_value());
  EXPECT_NEAR(*burst_wt, runs.Number(wt, "iops").value_or(-1), 0.01);
  const std::optional<double> wb_sustained =
      SustainedIops(JobOfRow(runs, wb), IoDir::kWrite,
                    runs.Number(wb, "drain_after_s").value_or(-1));
  ASSERT_TRUE(wb_sustained.has_value());
  // drain_after_s is recorded to 0.1 s: within 0.2% of the recorded figure.
  EXPECT_NEAR(*wb_sustained, runs.Number(wb, "iops_sustained").value_or(-1),
              0.002 * *wb_sustained);
  EXPECT_LT(*wb_sustained, runs.Number(wb, "iops").value_or(-1) / 10);
}

// The demo's writeback/randwrite-4k cell with `edit` applied to the record.
std::vector<Finding> WritebackCell(
    const std::function<void(nlohmann::json*)>& edit,
    const std::function<void(BcacheReplay*)>& setup = nullptr) {
  BcacheReplay r;
  if (setup) setup(&r);
  nlohmann::json rec = LabCell(kDemo, "writeback", "randwrite-4k");
  if (edit) edit(&rec);
  return r.Findings(r.Observe(rec, r.Apply("writeback.json"),
                              ShippedJobs("randwrite-4k.fio")));
}

// Writes that left no dirty data: the after reading edited from the
// recorded 4.0M dirty to clean.
void NoDirtyAfter(nlohmann::json* rec) {
  EditRecord(rec, "counters", 1, "dirty_data=4194304\nstate=dirty",
             "dirty_data=0\nstate=clean");
}

// The demo's dm-writecache/randwrite-4k cell (region `region` when > 0).
std::vector<Finding> WritecacheCell(
    const std::function<void(nlohmann::json*)>& edit, uint64_t region = 0) {
  DmReplay r;
  nlohmann::json rec = LabCell(kDemo, "dm-writecache", "randwrite-4k");
  if (edit) edit(&rec);
  if (region > 0) rec["region_bytes"] = region;
  const LayerReadback rb = r.Apply(r.writecache(), "dm-writecache.json");
  EXPECT_EQ(rb.settings.at("high_watermark"), "50");
  return r.Findings(r.Observe(rec, rb, ShippedJobs("randwrite-4k.fio")));
}

// Pitfall 7. Valid: the demo's writeback/randwrite-4k cell (the cache set
// 100% available, dirty data kept) and dm-writecache/randwrite-4k (1024 of
// 65280 blocks in use), 4 MiB regions. Invalid: cache_available_percent
// edited to 4; the writeback cell's writes leaving no dirty data; the
// writecache's free blocks edited from 64256 to 30000 (54% in use); the
// writecache cell over the run's whole region (268435456 bytes, the
// manifest's) against its 267386880-byte cache.
TEST(ValidityPitfallsTest, Row07OccupancyThresholds) {
  std::vector<Finding> f = WritebackCell(nullptr);
  for (const char* rule : {"bcache.full", "bcache.degraded", "working-set"}) {
    EXPECT_FALSE(Fires(f, rule)) << rule;
  }
  f = WritecacheCell(nullptr);
  EXPECT_FALSE(Fires(f, "dm-writecache.watermark"));
  EXPECT_FALSE(Fires(f, "working-set"));

  f = WritebackCell(nullptr, [](BcacheReplay* r) {
    r->fake().Set(r->fake().CacheSetDir() + "/cache_available_percent", "4");
  });
  EXPECT_TRUE(Fires(f, "bcache.full")) << ValidityReasons(f);
  f = WritebackCell(NoDirtyAfter);
  EXPECT_TRUE(Fires(f, "bcache.degraded")) << ValidityReasons(f);
  f = WritecacheCell([](nlohmann::json* rec) {
    EditRecord(rec, "counters", 1, "writecache 0 65280 64256 0",
               "writecache 0 65280 30000 0");
  });
  EXPECT_TRUE(Fires(f, "dm-writecache.watermark")) << ValidityReasons(f);
  f = WritecacheCell(nullptr, ManifestRegionBytes());
  EXPECT_TRUE(Fires(f, "working-set")) << ValidityReasons(f);
}

// Pitfall 8. Prevented: the protocol reads bcache's counters at the first
// fold after the IO stop: two readings of the same recorded text show no
// fold, the cell's two readings do (LayerOwnCountersMoved), and the demo's
// bcache cells were read 11.5 to 12.7 s after the stop, within --stats-lag
// 14. Flagged: a reading at the limit (counters_after_s edited to 14.0).
TEST(ValidityPitfallsTest, Row08CounterLag) {
  const nlohmann::json rec = LabCell(kDemo, "writeback", "randread-zipf");
  BcacheReplay r;
  const LayerReadback rb = r.Apply("writeback.json");
  r.WriteReading(rec, 0);
  const LayerCounters a = r.layer().TakeCounters();
  const LayerCounters b = r.layer().TakeCounters();
  EXPECT_FALSE(LayerOwnCountersMoved(a, b, r.layer().GaugeKeys()));
  r.WriteReading(rec, 1);
  EXPECT_TRUE(LayerOwnCountersMoved(a, r.layer().TakeCounters(),
                                    r.layer().GaugeKeys()));

  const nlohmann::json manifest =
      nlohmann::json::parse(LabText("demo-manifest.json"));
  const double lag = manifest["options"]["stats_lag_s"].get<double>();
  EXPECT_EQ(lag, 14.0);
  const CsvDocument runs = LabCsv("demo-runs.csv");
  const size_t row = RowOf(runs, "writeback", "randread-zipf");
  CellObservation o = r.Observe(rec, rb, ShippedJobs("randread-zipf.fio"));
  o.counter_lag_limit_s = lag;
  o.counters_after_s = runs.Number(row, "counters_after_s").value_or(lag);
  EXPECT_LT(o.counters_after_s, lag);
  EXPECT_FALSE(Fires(r.Findings(o), "counters-lag"));
  o.counters_after_s = lag;
  const std::vector<Finding> f = r.Findings(o);
  ASSERT_TRUE(Fires(f, "counters-lag")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "counters-lag").find("within 14.0 s of the IO stop"),
            std::string::npos);
}

// Pitfall 9. Prevented: bcache's counters never claim write hits: the
// demo's writeback/randwrite-4k cell counted 181 read hits and no write
// hit or miss at all (-1, an empty column, never a 0). Writes are judged by
// dirty growth: valid as recorded (4.0M dirty kept), bcache.degraded when
// the writes left nothing dirty (the after reading edited to clean).
TEST(ValidityPitfallsTest, Row09HitCountersCountReadsOnly) {
  BcacheReplay r;
  const CellObservation o =
      r.Observe(LabCell(kDemo, "writeback", "randwrite-4k"),
                r.Apply("writeback.json"), ShippedJobs("randwrite-4k.fio"));
  EXPECT_EQ(o.delta.common.read_hits, 181);
  EXPECT_EQ(o.delta.common.write_hits, -1);
  EXPECT_EQ(o.delta.common.write_misses, -1);
  EXPECT_EQ(o.delta.dirty_after_bytes, 4 << 20);
  EXPECT_FALSE(Fires(r.Findings(o), "bcache.degraded"));
  const std::vector<Finding> f = WritebackCell(NoDirtyAfter);
  ASSERT_TRUE(Fires(f, "bcache.degraded")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "bcache.degraded").find("but dirty data grew by 0"),
            std::string::npos)
      << TextOf(f, "bcache.degraded");
}

// Pitfall 10. A job at offset 1536 (a multiple of 512, as direct=1
// needs) is aligned to the lab's cache block (stack.txt's block_size 1
// sector: 512 bytes, read as "0.5k"); with the cache set's block_size
// edited to 4.0k (make-bcache --block 4k, a 4Kn SSD) it is not.
TEST(ValidityPitfallsTest, Row10UnalignedIo) {
  const std::vector<JobSpec> jobs = pitfalls::JobsOfText(
      "[randwrite-4k]\nrw=randwrite\nbs=4k\ndirect=1\noffset=1536\n");
  const nlohmann::json rec = LabCell(kDemo, "writeback", "randwrite-4k");
  BcacheReplay lab;
  EXPECT_EQ(lab.layer().Describe().cache_block_bytes, 512);
  EXPECT_FALSE(
      Fires(lab.Findings(lab.Observe(rec, lab.Apply("writeback.json"), jobs)),
            "bcache.unaligned"));
  BcacheReplay four_k;
  std::string block =
      four_k.fake().Get(four_k.fake().CacheSetDir() + "/block_size");
  EditText(&block, "0.5k", "4.0k");
  four_k.fake().Set(four_k.fake().CacheSetDir() + "/block_size", block);
  EXPECT_EQ(four_k.layer().Describe().cache_block_bytes, 4096);
  const std::vector<Finding> f = four_k.Findings(
      four_k.Observe(rec, four_k.Apply("writeback.json"), jobs));
  ASSERT_TRUE(Fires(f, "bcache.unaligned")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "bcache.unaligned").find("offset 1536"),
            std::string::npos)
      << TextOf(f, "bcache.unaligned");
}

// The demo's raw `mode`/`workload` cell through the measurement rules:
// its runs.csv row as the job result, its kernel text through HostSampler.
std::vector<Finding> MeasuredCell(const std::string& mode,
                                  const std::string& workload,
                                  const std::vector<JobSpec>& jobs,
                                  nlohmann::json rec = nullptr) {
  const CsvDocument runs = LabCsv("demo-runs.csv");
  RunResult r;
  r.jobs.push_back(JobOfRow(runs, RowOf(runs, mode, workload)));
  if (rec.is_null()) rec = LabCell(kDemo, mode, workload);
  return MeasurementFindings(
      r, jobs, ReplayHost(rec),
      mode == "hdd" ? CellRole::kRawHdd : CellRole::kRawSsd);
}

// Pitfall 11. Flagged: workloads/randread-zipf.fio runs with direct=1;
// the same file edited to direct=0 is buffered. Prevented: the protocol
// drops the page cache before every cell.
TEST(ValidityPitfallsTest, Row11BufferedIo) {
  const std::string path = pitfalls::RepoPath("workloads/randread-zipf.fio");
  std::string text;
  {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  EXPECT_FALSE(
      Fires(MeasuredCell("hdd", "randread-zipf", pitfalls::JobsOfText(text)),
            "buffered-io"));
  EditText(&text, "direct=1", "direct=0");
  const std::vector<Finding> f =
      MeasuredCell("hdd", "randread-zipf", pitfalls::JobsOfText(text));
  ASSERT_TRUE(Fires(f, "buffered-io")) << ValidityReasons(f);
  EXPECT_EQ(ValidityOf(f), Validity::kInvalid);
  // The guard: one bcache cell of the lab's warm-up replayed through the
  // protocol drops the page cache before it measures (and resets the
  // cache cold once, pitfall 3).
  const pitfalls::ReplayedCompare run = pitfalls::ReplayWarmUntilSteady(
      "writeback.json", "randwrite-4k.fio",
      pitfalls::LoggedWarmChunks("writeback/randwrite-4k"), 24102);
  EXPECT_GE(run.drop_caches_writes, 1);
  EXPECT_EQ(run.detach_writes, 1);
}

// Pitfall 12 (prevented). Every knob a mode sets is written and read back:
// modes/writeback.json reads back what the demo's manifest recorded for
// it; a kernel that resets a knob (sequential_cutoff reading back 4.0M
// after 0 was written, as after a re-register) stops the run; the
// original knobs (knobs-before.txt) come back at the end.
TEST(ValidityPitfallsTest, Row12KnobsResetOnReRegister) {
  const nlohmann::json manifest =
      nlohmann::json::parse(LabText("demo-manifest.json"));
  nlohmann::json recorded;
  for (const nlohmann::json& m : manifest["modes"]) {
    if (m["file"]["name"] == "writeback") recorded = m["readback"]["settings"];
  }
  ASSERT_TRUE(recorded.is_object());
  BcacheReplay r;
  r.layer().CaptureOriginal();
  const LayerReadback rb = r.Apply("writeback.json");
  for (const char* knob :
       {"sequential_cutoff", "writeback_percent", "writeback_delay",
        "writeback_running", "congested_read_threshold_us",
        "congested_write_threshold_us"}) {
    EXPECT_EQ(rb.settings.at(knob), recorded[knob].get<std::string>()) << knob;
  }
  r.fake().set_readback_override(
      r.fake().BackingBcacheDir() + "/sequential_cutoff", "4.0M");
  EXPECT_THROW(r.Apply("writeback-nocutoff.json"), SysError);
  EXPECT_TRUE(r.layer().RestoreOriginal().ok());
  const auto before = pitfalls::KeyValueLines(LabText("demo-knobs-before.txt"));
  const LayerReadback restored = r.layer().ReadBack();
  EXPECT_EQ(restored.cache_mode, "writethrough");
  for (const char* knob :
       {"sequential_cutoff", "writeback_percent", "writeback_delay",
        "congested_read_threshold_us", "congested_write_threshold_us"}) {
    EXPECT_EQ(restored.settings.at(knob), before.at(knob)) << knob;
  }
}

// Pitfall 13. The demo's hdd/randread-zipf window as recorded: nothing in
// flight on vda4, vda's IO all vda4's. Invalid: 500 reads added to vda's
// end line that no partition did (288 -> 788), and vda4's start line with
// 3 IOs in flight (its 9th field).
TEST(ValidityPitfallsTest, Row13OtherIoOnTheDisks) {
  const std::vector<JobSpec> jobs = ShippedJobs("randread-zipf.fio");
  std::vector<Finding> f = MeasuredCell("hdd", "randread-zipf", jobs);
  EXPECT_FALSE(Fires(f, "other-io"));
  EXPECT_FALSE(Fires(f, "in-flight"));
  nlohmann::json rec = LabCell(kDemo, "hdd", "randread-zipf");
  EditRecord(&rec, "stat:vda", 1, "     288        0     6016",
             "     788        0     6016");
  f = MeasuredCell("hdd", "randread-zipf", jobs, rec);
  ASSERT_TRUE(Fires(f, "other-io")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "other-io").find("vda did 500 IOs"), std::string::npos);
  rec = LabCell(kDemo, "hdd", "randread-zipf");
  EditRecord(&rec, "stat:vda4", 0, "        0      588", "        3      588");
  f = MeasuredCell("hdd", "randread-zipf", jobs, rec);
  ASSERT_TRUE(Fires(f, "in-flight")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "in-flight").find("3 IOs were in flight on vda4"),
            std::string::npos);
}

// Pitfall X3. The demo's dm-writecache cell over its 4 MiB region is
// silent; over the run's whole region (268435456 bytes, the manifest's
// region_bytes) it is larger than the writecache (65280 blocks of 4 KiB,
// from its status line).
TEST(ValidityPitfallsTest, RowX3RegionLargerThanTheCache) {
  EXPECT_FALSE(Fires(WritecacheCell(nullptr), "working-set"));
  const std::vector<Finding> f = WritecacheCell(nullptr, ManifestRegionBytes());
  ASSERT_TRUE(Fires(f, "working-set")) << ValidityReasons(f);
  EXPECT_NE(TextOf(f, "working-set").find("is larger than the cache"),
            std::string::npos)
      << TextOf(f, "working-set");
}

}  // namespace
}  // namespace tierbench
