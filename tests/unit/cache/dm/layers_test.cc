// The dm-cache and dm-writecache layers (cache/dm/dm_*_layer.h) against the
// kernel-emulating FakeDmControl and a fake sysfs tree of dm devices: mode
// switches read back from the live table, the passthrough refusal handled by
// a cleaner drain, cold by invalidate_cblocks, drain by the flush message,
// restore of the original table, counters and the layers' diagnosis rules;
// then a whole compare over both layers.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cache/dm/dm_cache_diagnosis.h"
#include "cache/dm/dm_cache_layer.h"
#include "cache/dm/dm_writecache_diagnosis.h"
#include "cache/dm/dm_writecache_layer.h"
#include "cache/mode_spec.h"
#include "cache/registry/layer_registry.h"
#include "orchestrate/compare_runner.h"
#include "orchestrate/restore_state.h"
#include "report/reporters.h"
#include "support/compare_scratch.h"
#include "support/fake_dm.h"
#include "support/fake_dm_tree.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

void LayersWrite(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string LayersReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ModeSpec Mode(const std::string& layer, const std::string& mode,
              std::vector<std::pair<std::string, std::string>> knobs = {}) {
  ModeSpec m;
  m.name = layer + "-" + mode;
  m.layer = layer;
  m.cache_mode = mode;
  m.knobs = std::move(knobs);
  return m;
}

TEST(DmLayersTest, DetectsEachLayerFromTheLiveTable) {
  FakeDmTree tree;
  const Host env = HostOn(tree.sysfs(), tree.dm());
  EXPECT_EQ(OpenCacheStack(env, tree.Dev("tb-dmcache"))->layer(), "dm-cache");
  EXPECT_EQ(OpenCacheStack(env, tree.Dev("tb-wc"))->layer(), "dm-writecache");
  // A linear device is no cache stack.
  tree.dm()->AddDevice("tb-lin", 252, 0, DmTarget{0, 2048, "linear", "8:0 0"},
                       "");
  LayersWrite(tree.root() + "/sys/devices/virtual/block/dm-0/dm/name",
              "tb-lin");
  try {
    OpenCacheStack(env, tree.Dev("tb-lin"));
    FAIL() << "linear accepted";
  } catch (const SysError& e) {
    EXPECT_NE(std::string(e.what()).find("first 'linear'"), std::string::npos)
        << e.what();
  }
  // An LVM cached volume is lvmcache (its table is LVM's to change).
  LayersWrite(tree.root() + "/sys/devices/virtual/block/dm-5/dm/uuid",
              "LVM-abc");
  EXPECT_EQ(OpenCacheStack(env, tree.Dev("tb-dmcache"))->layer(), "lvmcache");
}

TEST(DmLayersTest, DmCacheDescribesItsStack) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  const StackInfo info = layer.Describe();
  EXPECT_EQ(info.name, "dm-5");
  EXPECT_EQ(info.origin, "dm-2");
  EXPECT_EQ(info.metadata, "dm-0");
  ASSERT_EQ(info.caches.size(), 1u);
  EXPECT_EQ(info.caches[0], "dm-1");
  EXPECT_EQ(info.cache_block_bytes, 32 * 1024);
  EXPECT_EQ(info.cache_bytes, 8192LL * 32 * 1024);  // 256 MiB
  for (const char* m : {"dm-0", "dm-1", "dm-2", "dm-5"}) {
    EXPECT_NE(std::find(info.members.begin(), info.members.end(), m),
              info.members.end())
        << m;
  }
}

TEST(DmLayersTest, DmCacheModeSwitchReloadsAndReadsBack) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  layer.CaptureOriginal();
  std::vector<std::string> notes;
  const LayerReadback rb = layer.ApplyMode(
      Mode("dm-cache", "writethrough",
           {{"policy", "smq"}, {"migration_threshold", "4096"}}),
      &notes);
  EXPECT_EQ(rb.cache_mode, "writethrough");
  EXPECT_EQ(rb.settings.at("policy"), "smq");
  EXPECT_EQ(rb.settings.at("migration_threshold"), "4096");
  EXPECT_TRUE(notes.empty());
  EXPECT_NE(tree.LiveParams("tb-dmcache").find("writethrough"),
            std::string::npos);
  // The original table comes back, exactly.
  EXPECT_TRUE(layer.RestoreOriginal().ok());
  EXPECT_EQ(tree.LiveParams("tb-dmcache"), kFakeCacheTableParams);
}

TEST(DmLayersTest, PassthroughWhileDirtyDrainsWithTheCleanerFirst) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  tree.EditCacheStatus([](DmCacheStatus* s) { s->dirty = 8; });
  // The kernel refuses passthrough while dirty...
  DmTarget t{0, 1048576, "cache", "252:0 252:1 252:2 64 1 passthrough smq 0"};
  EXPECT_FALSE(tree.dm()->Reload("tb-dmcache", {t}).ok());
  // ...so the layer drains with the cleaner policy (the sleep plays the
  // kernel writing the dirty blocks back) and then switches.
  layer.set_sleep([&tree](double) {
    tree.EditCacheStatus([](DmCacheStatus* s) { s->dirty = 0; });
  });
  tree.dm()->ClearCalls();
  std::vector<std::string> notes;
  const LayerReadback rb = layer.ApplyMode(
      Mode("dm-cache", "passthrough", {{"policy", "smq"}}), &notes);
  EXPECT_EQ(rb.cache_mode, "passthrough");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("passthrough needs a clean cache"),
            std::string::npos);
  EXPECT_NE(notes[0].find("8 dirty blocks"), std::string::npos);
  bool cleaner = false;
  for (const std::string& c : tree.dm()->calls()) {
    cleaner = cleaner || c.find("cleaner") != std::string::npos;
  }
  EXPECT_TRUE(cleaner);
}

TEST(DmLayersTest, ColdInvalidatesEveryBlockInPassthrough) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  // 8 dirty blocks: written back through the cleaner policy at once (the
  // sleep plays the kernel), before the switch to passthrough; smq's own
  // cleaning is not waited for (it stalled for 600 s in the lab).
  layer.set_sleep([&tree](double) {
    tree.EditCacheStatus([](DmCacheStatus* s) { s->dirty = 0; });
  });
  tree.dm()->ClearCalls();
  layer.MakeCold(10);
  bool invalidated = false;
  for (const std::string& c : tree.dm()->calls()) {
    invalidated = invalidated || c == "message tb-dmcache 0 invalidate_cblocks "
                                      "0-8192";
  }
  EXPECT_TRUE(invalidated);
  bool cleaner = false;
  for (const std::string& c : tree.dm()->calls()) {
    cleaner = cleaner || c.find("cleaner") != std::string::npos;
  }
  EXPECT_TRUE(cleaner);
  // Writethrough before anything else: a filesystem on the stack cannot
  // dirty blocks again between the drain and passthrough.
  std::vector<std::string> reloads;
  for (const std::string& c : tree.dm()->calls()) {
    if (c.rfind("reload tb-dmcache", 0) == 0) reloads.push_back(c);
  }
  ASSERT_FALSE(reloads.empty());
  EXPECT_NE(reloads.front().find(" writethrough "), std::string::npos)
      << reloads.front();
  EXPECT_NE(reloads.back().find(" passthrough "), std::string::npos)
      << reloads.back();
  EXPECT_NE(tree.LiveParams("tb-dmcache").find("passthrough"),
            std::string::npos);
  EXPECT_EQ(layer.TakeCounters().extra.at("cache_used_blocks"), 0);
}

TEST(DmLayersTest, DmCacheCountersMapOntoTheCommonSet) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  const LayerCounters c = layer.TakeCounters();
  EXPECT_EQ(c.common.read_hits, 314);
  EXPECT_EQ(c.common.read_misses, 471);
  EXPECT_EQ(c.common.write_hits, 1043);
  EXPECT_EQ(c.common.write_misses, 2718);
  EXPECT_EQ(c.common.promotions, 165);
  EXPECT_EQ(c.dirty_bytes, 8 * 32 * 1024);
  EXPECT_EQ(c.common.bypassed_bytes, -1);  // not reported by dm-cache
  EXPECT_EQ(c.origin.read_ios, 10u);
  EXPECT_EQ(layer.DirtyBytes(), 8 * 32 * 1024);
}

TEST(DmLayersTest, WritecacheKnobsDrainAndCounters) {
  FakeDmTree tree;
  DmWritecacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-wc"));
  layer.CaptureOriginal();
  const LayerReadback rb =
      layer.ApplyMode(Mode("dm-writecache", "writeback",
                           {{"high_watermark", "60"}, {"low_watermark", "40"}}),
                      nullptr);
  EXPECT_EQ(rb.settings.at("high_watermark"), "60");
  EXPECT_EQ(rb.settings.at("low_watermark"), "40");
  EXPECT_THROW(layer.ApplyMode(Mode("dm-writecache", "writethrough"), nullptr),
               ConfigError);
  const LayerCounters c = layer.TakeCounters();
  EXPECT_EQ(c.common.read_hits, 34696);
  EXPECT_EQ(c.common.read_misses, 34729 - 34696);
  EXPECT_EQ(c.common.write_hits, 0);
  EXPECT_EQ(c.common.write_misses, 4096);
  EXPECT_EQ(c.dirty_bytes, (65280LL - 61184) * 4096);
  // Drain: the flush message writes everything back.
  tree.dm()->ClearCalls();
  double drained = -1;
  EXPECT_TRUE(layer.WaitClean(10, {}, &drained).ok());
  EXPECT_GE(drained, 0);
  bool flushed = false;
  for (const std::string& call : tree.dm()->calls()) {
    flushed = flushed || call == "message tb-wc 0 flush";
  }
  EXPECT_TRUE(flushed);
  EXPECT_EQ(layer.DirtyBytes(), 0);
  std::string why;
  EXPECT_FALSE(layer.BeginWarm(&why));
  EXPECT_NE(why.find("caches only writes"), std::string::npos);
  EXPECT_TRUE(layer.RestoreOriginal().ok());
  EXPECT_EQ(tree.LiveParams("tb-wc"), kFakeWritecacheTableParams);
}

// dm-writecache's mode is read back from the live table, not assumed: the
// table's `cleaner` argument (the kernel then caches no new writes) reads
// back as "cleaner" until ApplyMode reloads the table without it, and a
// live table that is no writecache target reads back nothing but an error.
TEST(DmLayersTest, WritecacheModeIsReadBackFromTheLiveTable) {
  FakeDmTree tree;
  DmWritecacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-wc"));
  EXPECT_EQ(layer.ReadBack().cache_mode, "writeback");
  FakeDmControl::Device* wc = tree.dm()->device("tb-wc");
  ASSERT_NE(wc, nullptr);
  wc->table[0].params = "s 252:3 252:4 4096 1 cleaner";
  EXPECT_EQ(layer.ReadBack().cache_mode, "cleaner");
  const LayerReadback rb =
      layer.ApplyMode(Mode("dm-writecache", "writeback"), nullptr);
  EXPECT_EQ(rb.cache_mode, "writeback");
  EXPECT_EQ(tree.LiveParams("tb-wc"), kFakeWritecacheTableParams);
  EXPECT_EQ(layer.ReadBack().cache_mode, "writeback");
  wc->table[0].type = "linear";
  wc->table[0].params = "252:3 0";
  EXPECT_THROW(layer.ReadBack(), SysError);

  DmWritecacheTable t;
  ASSERT_TRUE(ParseDmWritecacheTable(
                  "s 252:3 252:4 4096 3 cleaner writeback_jobs 8", &t)
                  .ok());
  EXPECT_EQ(DmWritecacheMode(t), "cleaner");
  ASSERT_TRUE(ParseDmWritecacheTable(kFakeWritecacheTableParams, &t).ok());
  EXPECT_EQ(DmWritecacheMode(t), "writeback");
}

CellObservation Observed(const std::string& layer, const std::string& mode) {
  CellObservation o;
  o.layer = layer;
  o.cache_mode = mode;
  o.cache_state = "cold";
  o.has_counters = true;
  o.cache_block_bytes = layer == "dm-cache" ? 32768 : 4096;
  JobSpec j;
  j.name = "randwrite";
  j.rw = RwPattern::kRandWrite;
  for (auto& b : j.bs) b.min = b.max = 4096;
  o.jobs = {j};
  return o;
}

TEST(DmLayersTest, DmCacheDiagnosisFlagsAColdCellAndWholeBlockCopies) {
  CellObservation o = Observed("dm-cache", "writeback");
  // lab.md: cold writeback, 105 IOPS vs 155 bare, 165 promotions in 3 s.
  o.delta.common = {0, 0, 8, 307, -1, -1, 165, 0};
  const std::vector<std::string> w = FindingTexts(DiagnoseDmCache(o));
  ASSERT_EQ(w.size(), 2u) << (w.empty() ? "" : w[0]);
  EXPECT_NE(w[0].find("97% of IO missed the cache"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("measured the origin"), std::string::npos);
  EXPECT_NE(w[0].find("fix: --cache-state warm"), std::string::npos);
  o.cache_state = "warm";
  EXPECT_NE(DiagnoseDmCache(o)[0].text.find("the warm-up did not promote"),
            std::string::npos);
  o.cache_state = "cold";
  EXPECT_NE(w[1].find("8x the IO"), std::string::npos) << w[1];
  // Warm: mostly hits, silent.
  o.delta.common = {0, 0, 4000, 10, -1, -1, 0, 0};
  EXPECT_TRUE(DiagnoseDmCache(o).empty());
  // Misses without promotions: throttled.
  o.delta.common = {0, 500, 0, 500, -1, -1, 0, 0};
  o.settings["migration_threshold"] = "2048";
  const std::vector<std::string> t = FindingTexts(DiagnoseDmCache(o));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_NE(t[1].find("migration_threshold (2048"), std::string::npos) << t[1];
  // Passthrough measures the origin by design: silent...
  o.cache_mode = "passthrough";
  EXPECT_TRUE(DiagnoseDmCache(o).empty());
  // ...but IO larger than a block is split per block in every mode.
  o.jobs[0].bs[1].min = o.jobs[0].bs[1].max = 128 * 1024;
  const std::vector<std::string> s = FindingTexts(DiagnoseDmCache(o));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NE(s[0].find("IO of up to 128KiB is split at the 32KiB cache block"),
            std::string::npos)
      << s[0];
  EXPECT_NE(s[0].find("up to 4x the IOs"), std::string::npos);
}

TEST(DmLayersTest, WritecacheDiagnosisFlagsUncachedReadsAndTheWatermark) {
  CellObservation o = Observed("dm-writecache", "writeback");
  o.delta.common = {10, 990, 0, 1000, 0, -1, -1, -1};
  o.delta.extra = {{"total_blocks", 1000}, {"free_blocks", 900}};
  // A write job's few stray reads say nothing...
  o.read_bytes = 33 * 4096;
  EXPECT_TRUE(DiagnoseDmWritecache(o).empty());
  // ...a workload that reads does.
  o.read_bytes = 1000 * 4096;
  std::vector<std::string> w = FindingTexts(DiagnoseDmWritecache(o));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("99% of reads missed"), std::string::npos) << w[0];
  o.delta.common = {0, 0, 0, 1000, 0, -1, -1, -1};
  o.delta.extra = {{"total_blocks", 1000},
                   {"free_blocks", 500},
                   {"writes_blocked_on_freelist", 12}};
  w = FindingTexts(DiagnoseDmWritecache(o));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("high watermark (50%"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("12 writes waited"), std::string::npos);
}

// A whole compare over both dm layers (IO for real on the fake devices'
// files, the kernel emulated): rows carry the layer, the tables are
// restored at the end.
// `tierbench restore` after a killed compare: each dm layer loads the
// original table from the state file and reloads it.
TEST(DmLayersTest, RestoreFromTheStateFilePutsBackBothTables) {
  FakeDmTree tree;
  const Host env = HostOn(tree.sysfs(), tree.dm());
  RestoreState state;
  state.pid = 0;
  state.run_dir = "r";
  state.started = "s";
  for (const char* name : {"tb-dmcache", "tb-wc"}) {
    std::unique_ptr<CacheLayer> layer = OpenCacheStack(env, tree.Dev(name));
    layer->CaptureOriginal();
    state.stacks.push_back(
        {tree.Dev(name), layer->layer(), layer->OriginalJson()});
  }
  std::vector<std::string> notes;
  DmCacheLayer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"))
      .ApplyMode(Mode("dm-cache", "writethrough"), &notes);
  DmWritecacheLayer(tree.sysfs(), tree.dm(), tree.Dev("tb-wc"))
      .ApplyMode(Mode("dm-writecache", "writeback", {{"high_watermark", "60"}}),
                 &notes);
  ASSERT_NE(tree.LiveParams("tb-dmcache"), kFakeCacheTableParams);
  ASSERT_NE(tree.LiveParams("tb-wc"), kFakeWritecacheTableParams);
  WriteStateFile(StateFilePath(tree.sysfs()), state);
  std::ostringstream out;
  EXPECT_TRUE(RestoreFromState(env, out)) << out.str();
  EXPECT_EQ(tree.LiveParams("tb-dmcache"), kFakeCacheTableParams);
  EXPECT_EQ(tree.LiveParams("tb-wc"), kFakeWritecacheTableParams);
  EXPECT_FALSE(fs::exists(StateFilePath(tree.sysfs())));
  // An original of another target type is not loaded.
  DmCacheLayer other(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  EXPECT_THROW(other.LoadOriginal({{"table", "0 2048 writecache s 252:3"}}),
               ConfigError);
  EXPECT_THROW(other.LoadOriginal(nullptr), ConfigError);
}

TEST(DmLayersTest, CompareRunsBothLayersAndRestoresTheirTables) {
  ResetInterruptForTest();
  FakeDmTree tree;
  const CompareScratch scratch(tree.root());
  const std::string dir = scratch.dir();
  CompareOptions o = scratch.Options(
      {tree.Dev("tb-dmcache"), tree.Dev("tb-wc")},
      {scratch.Mode("dmc-wb",
                    "\"layer\": \"dm-cache\", \"cache_mode\": "
                    "\"writeback\", \"knobs\": {\"policy\": \"smq\"}"),
       scratch.Mode("dmc-pt",
                    "\"layer\": \"dm-cache\", \"cache_mode\": "
                    "\"passthrough\""),
       scratch.Mode("wc",
                    "\"layer\": \"dm-writecache\", \"cache_mode\": "
                    "\"writeback\", \"knobs\": {\"high_watermark\": 60}")},
      "dm");
  Host host;
  CompareHooks hooks;
  host.sysfs = tree.sysfs();
  host.dm = tree.dm();
  // Each wait lets the emulated kernel write the dirty blocks back.
  host.sleep = [&tree](double) {
    tree.EditCacheStatus([](DmCacheStatus* s) { s->dirty = 0; });
  };
  std::ostringstream out;
  CompareRunner runner(o, host, hooks);
  const CompareSummary summary = runner.Run(MakeCompareReporters(out));
  EXPECT_EQ(summary.finished_cells, 4u);
  EXPECT_EQ(summary.failed_cells, 0u);
  EXPECT_TRUE(summary.restore_ok);
  EXPECT_EQ(tree.LiveParams("tb-dmcache"), kFakeCacheTableParams);
  EXPECT_EQ(tree.LiveParams("tb-wc"), kFakeWritecacheTableParams);
  const std::string runs = LayersReadAll(dir + "/results/dm/runs.csv");
  EXPECT_NE(runs.find(",dmc-wb,dm-cache,writeback,"), std::string::npos)
      << runs;
  EXPECT_NE(runs.find(",dmc-pt,dm-cache,passthrough,"), std::string::npos);
  EXPECT_NE(runs.find(",wc,dm-writecache,writeback,"), std::string::npos);
  // Both stacks report 256 MiB / 255 MiB of cache: within 5%, no warning.
  EXPECT_EQ(runs.find("cache capacities differ"), std::string::npos);
  const auto m =
      nlohmann::json::parse(LayersReadAll(dir + "/results/dm/manifest.json"));
  EXPECT_EQ(m["devices"]["stacks"].size(), 2u);
  EXPECT_EQ(m["restore"]["ok"], true);
  // The console table groups rows by layer.
  const std::string table = out.str();
  EXPECT_LT(table.find("dm-cache"), table.find("dm-writecache")) << table;
}

// Issue 12 on a layer whose counters do not lag (dm-cache): the counters
// "after" are read at the IO stop (the dirty blocks the run left are in
// dirty_after_bytes), the time to clean is timed from the IO stop, and
// --stats-lag is not waited. Fake clock: the sleep hook advances it; the
// emulated kernel writes the 100 dirty blocks back 4 s after the IO stop.
TEST(DmLayersTest, TimeToCleanFromTheIoStopWithoutWaitingTheLag) {
  ResetInterruptForTest();
  FakeDmTree tree;
  const CompareScratch scratch(tree.root());
  CompareOptions o =
      scratch.Options({tree.Dev("tb-dmcache")},
                      {scratch.Mode("dmc-wb",
                                    "\"layer\": \"dm-cache\", \"cache_mode\": "
                                    "\"writeback\"")},
                      "dmdrain");
  o.stats_lag_s = 15;
  uint64_t now_ns = 5000000000000ull;
  uint64_t stop_ns = 0;
  double slept = 0, slept_at_stop = 0, slept_at_end = 0;
  double slept_before_io = 0, slept_before_cell = 0;
  Host host;
  CompareHooks hooks;
  host.sysfs = tree.sysfs();
  host.dm = tree.dm();
  host.now_ns = [&now_ns] { return now_ns; };
  host.sleep = [&](double s) {
    slept += s;
    now_ns += static_cast<uint64_t>(s * 1e9);
    if (stop_ns == 0 || now_ns - stop_ns >= 4000000000ull) {
      tree.EditCacheStatus([](DmCacheStatus* st) { st->dirty = 0; });
    }
  };
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    RunResult r = RunWorkload(w, ro);
    if (w.jobs[0].filename != tree.Dev("tb-dmcache")) return r;
    slept_before_io = slept;
    now_ns += 10000000000ull;  // 10 s of IO
    stop_ns = now_ns;
    slept_at_stop = slept;
    tree.EditCacheStatus([](DmCacheStatus* st) { st->dirty = 100; });
    return r;
  };
  hooks.after_cell = [&](size_t i) {
    if (i == 0) slept_before_cell = slept;  // the raw hdd cell
    slept_at_end = slept;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  const CsvDocument runs = CsvDocument::Parse(
      LayersReadAll(scratch.dir() + "/results/dmdrain/runs.csv"), "runs.csv");
  // The cell: its waits before the IO, 10 s of IO, the 4 s drain.
  const double wall = slept_before_io - slept_before_cell + 10 + 4;
  bool seen = false;
  for (size_t r = 0; r < runs.row_count(); ++r) {
    if (runs.Get(r, "mode") != "dmc-wb") continue;
    seen = true;
    EXPECT_EQ(runs.Get(r, "drain_after_s"), "4.0");
    EXPECT_EQ(runs.Get(r, "dirty_after_bytes"), std::to_string(100 * 32768));
    EXPECT_EQ(runs.Get(r, "cell_wall_s"), CsvNumber(wall, 3));
  }
  EXPECT_TRUE(seen);
  ASSERT_NE(stop_ns, 0u);
  EXPECT_DOUBLE_EQ(slept_at_end - slept_at_stop, 4.0);  // no lag waited
}

// The once-a-second reading of the per-second series (series.csv): the
// status line's counters and dirty data, the same figures as TakeCounters;
// a dm-writecache without statistics (4-number status) has no hit counters.
TEST(DmLayersTest, SampleReadsHitsAndDirtyFromTheStatusLine) {
  FakeDmTree tree;
  DmCacheLayer cache(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  LayerSample s = cache.Sample();
  EXPECT_EQ(s.read_hits, 314);
  EXPECT_EQ(s.read_misses, 471);
  EXPECT_EQ(s.dirty_bytes, 8 * 32 * 1024);
  EXPECT_GT(s.taken_ns, 0u);
  tree.EditCacheStatus([](DmCacheStatus* st) {
    st->read_hits += 90;
    st->read_misses += 10;
    st->dirty = 3;
  });
  s = cache.Sample();
  EXPECT_EQ(s.read_hits, 404);
  EXPECT_EQ(s.read_misses, 481);
  EXPECT_EQ(s.dirty_bytes, 3 * 32 * 1024);

  DmWritecacheLayer wc(tree.sysfs(), tree.dm(), tree.Dev("tb-wc"));
  s = wc.Sample();
  EXPECT_EQ(s.read_hits, 34696);
  EXPECT_EQ(s.read_misses, 34729 - 34696);
  EXPECT_EQ(s.dirty_bytes, (65280LL - 61184) * 4096);
  tree.EditWritecacheStatus(
      [](DmWritecacheStatus* st) { st->has_counters = false; });
  s = wc.Sample();
  EXPECT_EQ(s.read_hits, -1);
  EXPECT_EQ(s.read_misses, -1);
  EXPECT_EQ(s.dirty_bytes, (65280LL - 61184) * 4096);
}

}  // namespace
}  // namespace tierbench
