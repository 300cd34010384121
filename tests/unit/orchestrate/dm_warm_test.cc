// dm-cache's warm-up (--cache-state warm; issue 29): the layer's rule for
// another prefill pass (DmCacheLayer::WarmNeedsAnotherPass: a pass whose
// reads hit at least 90% is warm; a pass that promoted nothing and gained
// less than a point over the last one has stalled), and the compare's loop
// around it (CellRunner: at most kMaxWarmPasses passes, then the
// "warm-promoting" finding), on the kernel-emulating fake device-mapper.
// Each prefill pass makes the emulated kernel count the hits, misses and
// promotions the test scripted for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cache/dm/dm_cache_layer.h"
#include "orchestrate/cell_runner.h"
#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "support/compare_scratch.h"
#include "support/fake_dm_tree.h"
#include "util/csv_reader.h"
#include "util/interrupt.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

constexpr uint64_t kRegion = 256 * 1024;

std::string DmWarmReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

LayerDelta Pass(int64_t hits, int64_t misses, int64_t promotions) {
  LayerDelta d;
  d.common.read_hits = hits;
  d.common.read_misses = misses;
  d.common.promotions = promotions;
  return d;
}

TEST(DmCacheWarmTest, APassWhoseReadsHitNinetyPercentIsWarm) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  std::string why;
  ASSERT_TRUE(layer.BeginWarm(&why)) << why;
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(300, 700, 100), kRegion));
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(899, 101, 100), kRegion));
  EXPECT_FALSE(layer.WarmNeedsAnotherPass(Pass(900, 100, 100), kRegion));
  // Warm whatever it promoted, and on the first pass too.
  ASSERT_TRUE(layer.BeginWarm(&why));
  EXPECT_FALSE(layer.WarmNeedsAnotherPass(Pass(1000, 0, 0), kRegion));
}

TEST(DmCacheWarmTest, APassThatPromotedNothingAndGainedUnderAPointStops) {
  FakeDmTree tree;
  DmCacheLayer layer(tree.sysfs(), tree.dm(), tree.Dev("tb-dmcache"));
  std::string why;
  ASSERT_TRUE(layer.BeginWarm(&why));
  // The first pass has nothing to compare with: another, even without
  // promotions.
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(400, 600, 0), kRegion));
  // Half a point gained, but smq promoted: another.
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(405, 595, 20), kRegion));
  // Half a point gained and nothing promoted: stalled, stop.
  EXPECT_FALSE(layer.WarmNeedsAnotherPass(Pass(410, 590, 0), kRegion));
  // BeginWarm forgets the last pass; two points gained without promotions
  // is still a gain.
  ASSERT_TRUE(layer.BeginWarm(&why));
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(410, 590, 0), kRegion));
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(430, 570, 0), kRegion));
  // A pass that read nothing (or a layer without hit counters) tells
  // nothing: another, up to the compare's cap.
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(0, 0, 0), kRegion));
  EXPECT_TRUE(layer.WarmNeedsAnotherPass(Pass(-1, -1, -1), kRegion));
}

// What the emulated kernel counts during one prefill pass.
struct PassCounts {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t promotions = 0;
};

// What a warm compare of one dm-cache writeback mode recorded.
struct WarmOutcome {
  int prefills = 0;  // prefill passes run on the stack
  std::string warm_passes, settled, finding_rules, warnings;
};

// Runs compare --cache-state warm (the raw hdd mode and dm-cache
// writeback, one fio job) on a fresh fake tree; prefill pass i counts
// passes[i] (the last entry repeats).
WarmOutcome RunWarm(const std::vector<PassCounts>& passes) {
  ResetInterruptForTest();
  FakeDmTree tree;
  const CompareScratch scratch(tree.root());
  CompareOptions o =
      scratch.Options({tree.Dev("tb-dmcache")},
                      {scratch.Mode("dmc-wb",
                                    "\"layer\": \"dm-cache\", \"cache_mode\": "
                                    "\"writeback\"")},
                      "warm");
  o.cache_state = CacheState::kWarm;
  WarmOutcome out;
  Host host;
  CompareHooks hooks;
  host.sysfs = tree.sysfs();
  host.dm = tree.dm();
  // Each wait lets the emulated kernel write the dirty blocks back.
  host.sleep = [&tree](double) {
    tree.EditCacheStatus([](DmCacheStatus* s) { s->dirty = 0; });
  };
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    RunResult r = RunWorkload(w, ro);
    if (w.jobs[0].filename == tree.Dev("tb-dmcache") &&
        w.jobs[0].rw == RwPattern::kRead) {
      const PassCounts& p =
          passes[std::min<size_t>(out.prefills, passes.size() - 1)];
      ++out.prefills;
      tree.EditCacheStatus([&p](DmCacheStatus* st) {
        st->read_hits += p.hits;
        st->read_misses += p.misses;
        st->promotions += p.promotions;
      });
    }
    return r;
  };
  std::ostringstream console;
  const CompareSummary summary =
      CompareRunner(o, host, hooks).Run(MakeCompareReporters(console));
  EXPECT_EQ(summary.failed_cells, 0u) << console.str();
  const CsvDocument runs = CsvDocument::Parse(
      DmWarmReadAll(scratch.dir() + "/results/warm/runs.csv"), "runs.csv");
  size_t rows = 0;
  for (size_t r = 0; r < runs.row_count(); ++r) {
    if (runs.Get(r, "mode") != "dmc-wb") continue;
    ++rows;
    out.warm_passes = runs.Get(r, "warm_passes");
    out.settled = runs.Get(r, "settled");
    out.finding_rules = runs.Get(r, "finding_rules");
    out.warnings = runs.Get(r, "warnings");
  }
  EXPECT_EQ(rows, 1u);
  return out;
}

// The hit threshold: the second pass hits 95%, and the cell starts warm.
TEST(DmCacheWarmTest, CompareStopsPrefillingOnceAPassHitsNinetyPercent) {
  const WarmOutcome w = RunWarm({{300, 700, 100}, {950, 50, 30}});
  EXPECT_EQ(w.prefills, 2);
  EXPECT_EQ(w.warm_passes, "2");
  EXPECT_EQ(w.settled, "1");
  EXPECT_EQ(w.finding_rules.find("warm-promoting"), std::string::npos)
      << w.finding_rules;
}

// The cap: smq keeps promoting but no pass gets to 90%; after
// kMaxWarmPasses the cell runs anyway, flagged as only partly warm.
TEST(DmCacheWarmTest, CompareGivesUpAfterTheMaxPassesStillPromoting) {
  const WarmOutcome w = RunWarm({{100, 900, 50}});
  EXPECT_EQ(w.prefills, kMaxWarmPasses);
  EXPECT_EQ(w.warm_passes, std::to_string(kMaxWarmPasses));
  EXPECT_EQ(w.settled, "0");
  EXPECT_NE(w.finding_rules.find("warm-promoting:caution"), std::string::npos)
      << w.finding_rules;
  EXPECT_NE(w.warnings.find("the cache was still promoting after " +
                            std::to_string(kMaxWarmPasses) +
                            " prefill passes (10% of the last pass's reads "
                            "hit): the cell started only partly warm"),
            std::string::npos)
      << w.warnings;
}

// The stop rule: the second pass promoted nothing and gained half a point;
// another pass would not change the cache, so the cell starts settled.
TEST(DmCacheWarmTest, CompareStopsPrefillingOncePromotionStalls) {
  const WarmOutcome w = RunWarm({{400, 600, 20}, {405, 595, 0}});
  EXPECT_EQ(w.prefills, 2);
  EXPECT_EQ(w.warm_passes, "2");
  EXPECT_EQ(w.settled, "1");
  EXPECT_EQ(w.finding_rules.find("warm-promoting"), std::string::npos)
      << w.finding_rules;
}

}  // namespace
}  // namespace tierbench
