// The cache rules (validity/cache_rules.h around bcache's own,
// cache/bcache/bcache_diagnosis.h), table-driven: each case builds an
// observation and names a fragment every expected finding's text must contain
// (or none at all). The measurement's no-io rule is checked at the end.
#include "validity/cache_rules.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "cache/bcache/bcache_diagnosis.h"
#include "cache/block_stat.h"
#include "validity/measurement_rules.h"

namespace tierbench {
namespace {

constexpr uint64_t kCrMiB = 1 << 20;

JobSpec Job(RwPattern rw, uint64_t bs = 4096) {
  JobSpec j;
  j.name = "job";
  j.rw = rw;
  for (auto& b : j.bs) b.min = b.max = bs;
  return j;
}

// A clean bcache cell in `mode` that read and wrote 100 MiB each, with
// bcache's default knobs and a 4 KiB cache block.
CellObservation Base(const std::string& mode) {
  CellObservation o;
  o.layer = "bcache";
  o.cache_mode = mode;
  o.state_before = "clean";
  o.cache_state = "cold";
  o.settings["sequential_cutoff"] = std::to_string(4 * kCrMiB);
  o.settings["congested_read_threshold_us"] = std::to_string(0);
  o.settings["congested_write_threshold_us"] = std::to_string(0);
  o.delta.extra["cache_available_percent"] = 90;
  o.cache_block_bytes = 4096;
  o.read_bytes = 100 * kCrMiB;
  o.write_bytes = 100 * kCrMiB;
  o.delta.dirty_after_bytes = mode == "writeback" ? 100 * kCrMiB : 0;
  o.jobs = {Job(RwPattern::kRandReadWrite)};
  return o;
}

struct Case {
  const char* name;
  std::function<void(CellObservation*)> edit;
  std::string mode;
  std::vector<std::string> expect;  // fragments, one per expected warning
};

TEST(DiagnosisTest, Rules) {
  const std::vector<Case> cases = {
      {"clean writeback: silent", [](CellObservation*) {}, "writeback", {}},
      {"clean writethrough: silent",
       [](CellObservation*) {},
       "writethrough",
       {}},
      {"raw layer: no counter rules",
       [](CellObservation* o) {
         o->layer = "raw";
         o->delta.common.bypassed_bytes = 200 * kCrMiB;
         o->state_before = "no cache";
       },
       "",
       {}},
      {"no cache attached",
       [](CellObservation* o) {
         o->state_before = "no cache";
         o->delta.common.bypassed_bytes = 200 * kCrMiB;
       },
       "writeback",
       {"no cache attached"}},
      {"seed 001: sequential read bypassed by the cutoff",
       [](CellObservation* o) {
         o->jobs = {Job(RwPattern::kRead)};
         o->write_bytes = 0;
         o->delta.common.bypassed_bytes = 100 * kCrMiB;
       },
       "writethrough",
       {"100% of IO bypassed the cache (sequential_cutoff = 4.0M): this cell "
        "measured the HDD"}},
      {"small cutoff bypass: part measured the HDD",
       [](CellObservation* o) {
         o->jobs = {Job(RwPattern::kReadWrite)};
         o->delta.common.bypassed_bytes = 20 * kCrMiB;
       },
       "writethrough",
       {"10% of IO bypassed the cache (sequential_cutoff = 4.0M): that part"}},
      {"bypass below the threshold: silent",
       [](CellObservation* o) { o->delta.common.bypassed_bytes = 4 * kCrMiB; },
       "writethrough",
       {}},
      {"none bypasses by design: silent",
       [](CellObservation* o) {
         o->delta.common.bypassed_bytes = 200 * kCrMiB;
       },
       "none",
       {}},
      {"writearound bypasses writes by design: silent",
       [](CellObservation* o) {
         o->delta.common.bypassed_bytes = 100 * kCrMiB;
       },
       "writearound",
       {}},
      {"writearound reads bypassed too: cutoff",
       [](CellObservation* o) {
         o->jobs = {Job(RwPattern::kReadWrite)};
         o->delta.common.bypassed_bytes = 200 * kCrMiB;
       },
       "writearound",
       {"50% of IO bypassed the cache (sequential_cutoff"}},
      {"random IO bypassed with congestion thresholds: congestion",
       [](CellObservation* o) {
         o->settings["congested_read_threshold_us"] = std::to_string(2000);
         o->settings["congested_write_threshold_us"] = std::to_string(20000);
         o->delta.common.bypassed_bytes = 50 * kCrMiB;
       },
       "writethrough",
       {"by congestion (congested_read_threshold_us = 2000"}},
      {"cutoff 0 with congestion thresholds: congestion",
       [](CellObservation* o) {
         o->settings["sequential_cutoff"] = std::to_string(0);
         o->jobs = {Job(RwPattern::kRead)};
         o->settings["congested_read_threshold_us"] = std::to_string(2000);
         o->delta.common.bypassed_bytes = 50 * kCrMiB;
       },
       "writethrough",
       {"by congestion"}},
      {"cutoff 0, congestion off: other cause",
       [](CellObservation* o) {
         o->settings["sequential_cutoff"] = std::to_string(0);
         o->delta.common.bypassed_bytes = 50 * kCrMiB;
       },
       "writethrough",
       {"with sequential_cutoff and congestion bypass off"}},
      {"cache nearly full",
       [](CellObservation* o) {
         o->delta.extra["cache_available_percent"] = 3;
       },
       "writethrough",
       {"cache nearly full (cache_available_percent = 3)"}},
      {"none served by a warm cache (as-is)",
       [](CellObservation* o) {
         o->cache_state = "as-is";
         o->delta.extra["bypass_hits"] = 1000;
         o->delta.common.bypassed_bytes = 200 * kCrMiB;
       },
       "none",
       {"reads hit the cache left warm by earlier cells (1000 hits in mode "
        "none) (fix: --cache-state cold)"}},
      {"none with hits after a cold reset",
       [](CellObservation* o) { o->delta.common.read_hits = 5; },
       "none",
       {"right after a cold reset"}},
      {"writearound warm as-is",
       [](CellObservation* o) {
         o->cache_state = "as-is";
         o->delta.common.read_hits = 7;
       },
       "writearound",
       {"left warm by earlier cells (7 hits in mode writearound)"}},
      {"writearound cold: its own read caching is fine",
       [](CellObservation* o) { o->delta.common.read_hits = 7; },
       "writearound",
       {}},
      {"writethrough hits are the point: silent",
       [](CellObservation* o) { o->delta.common.read_hits = 7; },
       "writethrough",
       {}},
      {"writeback degraded to writethrough",
       [](CellObservation* o) {
         o->delta.dirty_after_bytes = 0;
         o->delta.extra["cache_available_percent"] = 30;
       },
       "writeback",
       {"writeback wrote 100.0M but dirty data grew by 0 "
        "(cache_available_percent = 30): writes were not cached dirty"}},
      {"writeback overwrote dirty data: silent",
       [](CellObservation* o) {
         o->delta.dirty_before_bytes = 100 * kCrMiB;
         o->delta.dirty_after_bytes = 100 * kCrMiB;
       },
       "writeback",
       {}},
      {"writeback without writes: silent",
       [](CellObservation* o) {
         o->write_bytes = 0;
         o->delta.dirty_after_bytes = 0;
       },
       "writeback",
       {}},
      {"unaligned block size",
       [](CellObservation* o) { o->jobs = {Job(RwPattern::kRandRead, 512)}; },
       "writethrough",
       {"job 'job': block size 512 is not a multiple of the cache block_size "
        "4.0k"}},
      {"unaligned bssplit entry",
       [](CellObservation* o) {
         JobSpec j = Job(RwPattern::kRandWrite);
         j.bs[1].split = {{4096, 50}, {6144, 50}};
         o->jobs = {j};
       },
       "writethrough",
       {"block size 6144"}},
      {"unaligned offset",
       [](CellObservation* o) {
         JobSpec j = Job(RwPattern::kRandRead);
         j.offset.set = true;
         j.offset.bytes = 1000;
         o->jobs = {j};
       },
       "writethrough",
       {"offset 1000"}},
      {"unaligned write size in a read-only job: silent",
       [](CellObservation* o) {
         JobSpec j = Job(RwPattern::kRandRead);
         j.bs[1].min = j.bs[1].max = 512;
         o->jobs = {j};
       },
       "writethrough",
       {}},
      {"dirty data left before and after",
       [](CellObservation* o) {
         o->drain_before_timed_out = true;
         o->delta.dirty_before_bytes = 8 * kCrMiB;
         o->drain_after_timed_out = true;
         o->dirty_left_after_drain = 2 * kCrMiB;
       },
       "writeback",
       {"dirty data left before the cell (8MiB when the drain timed out)",
        "2MiB still dirty when the post-cell drain timed out"}},
  };
  for (const Case& c : cases) {
    CellObservation o = Base(c.mode);
    c.edit(&o);
    const std::vector<std::string> got = FindingTexts(CacheFindings(
        o, o.layer == "raw" ? LayerRulesFn() : LayerRulesFn(DiagnoseBcache)));
    ASSERT_EQ(got.size(), c.expect.size())
        << c.name << ": first = " << (got.empty() ? "" : got[0]);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NE(got[i].find(c.expect[i]), std::string::npos)
          << c.name << ": got '" << got[i] << "'";
      EXPECT_EQ(got[i].find(';'), std::string::npos) << c.name;
    }
  }
}

// The IO-count rules alone (the host's rules have no evidence here).
std::vector<Finding> IoCountFindings(const RunResult& r) {
  std::vector<Finding> out;
  for (const Finding& f : MeasurementFindings(r, {}, HostEvidence{})) {
    if (f.rule == "no-io" || f.rule == "few-ios") out.push_back(f);
  }
  return out;
}

// cold-reads on the block counters of the stack (bcache0) and its origin
// (vda1). The demo's warmed bcache Zipf cell (tests/unit/data/lab-kernel/
// demo-evidence.jsonl) read 118704 sectors from bcache0 and 1792 from vda1
// (1.5%); its first cold warm-up chunk served 44% without the origin (the
// lab log), i.e. 56% from the HDD: an unsettled cell like that measured
// the warm-up ("filling up"), one that sent all of its reads to the HDD
// measured the origin; a mode that does not cache reads is not judged.
TEST(DiagnosisTest, ColdReadsFromTheBlockCounters) {
  auto cell = [](const char* mode, const std::string& state, bool settled,
                 uint64_t stack_sectors, uint64_t origin_sectors) {
    CellObservation o = Base(mode);
    o.cache_state = state;
    o.settled = settled;
    o.has_counters = true;
    o.mode_caches_reads = std::string(mode) != "none";
    BlockStat start, end;
    EXPECT_TRUE(ParseBlockStat("   11106        0    88848   610736        0 "
                               "       0        0        0        0    22560 "
                               "  610736        0        0        0        0 "
                               "       0        0",
                               &start)
                    .ok());
    EXPECT_TRUE(ParseBlockStat("   25944        0   207552   776296        0 "
                               "       0        0        0        0    28328 "
                               "  776296        0        0        0        0 "
                               "       0        0",
                               &end)
                    .ok());
    bool wrapped = false;
    o.delta.stack = DiffBlockStat(start, end, &wrapped);
    EXPECT_EQ(o.delta.stack.read_sectors, 118704u);
    o.delta.stack.read_sectors = stack_sectors;
    o.delta.origin.read_sectors = origin_sectors;
    return o;
  };
  auto rules = [](const CellObservation& o) {
    std::vector<std::string> out;
    for (const Finding& f : CacheFindings(o, nullptr)) {
      if (f.rule == "cold-reads") out.push_back(f.text);
    }
    return out;
  };
  // The warmed cell as recorded: valid, settled or not (1.5% from the HDD).
  EXPECT_TRUE(rules(cell("writeback", "warm-until-steady", true, 118704, 1792))
                  .empty());
  EXPECT_TRUE(rules(cell("writeback", "cold", false, 118704, 1792)).empty());
  // Cold, 56% from the HDD: the warm-up was measured.
  CellObservation o = cell("writeback", "cold", false, 118704, 66474);
  ASSERT_EQ(rules(o).size(), 1u);
  EXPECT_NE(rules(o)[0].find("the cold cache sent 56%"), std::string::npos)
      << rules(o)[0];
  EXPECT_NE(rules(o)[0].find("the cache filling up"), std::string::npos);
  EXPECT_EQ(ValidityOf(CacheFindings(o, nullptr)), Validity::kInvalid);
  // The same counters once settled are its steady state.
  EXPECT_TRUE(rules(cell("writeback", "warm-until-steady", true, 118704, 66474))
                  .empty());
  // Cold, every read from the HDD: the origin was measured.
  o = cell("writethrough", "cold", false, 118704, 118704);
  ASSERT_EQ(rules(o).size(), 1u);
  EXPECT_NE(rules(o)[0].find("measured the origin"), std::string::npos);
  // none does not cache reads: its reads go to the HDD by design.
  EXPECT_TRUE(rules(cell("none", "cold", false, 118704, 118704)).empty());
  // Under 1 MiB read: too little to judge.
  EXPECT_TRUE(rules(cell("writeback", "cold", false, 1000, 1000)).empty());
}

TEST(DiagnosisTest, MeasurementWithoutIoIsNoFigure) {
  RunResult r;
  r.jobs.resize(3);
  r.jobs[0].name = "seq";  // done within ramp_time: no IO measured
  r.jobs[1].name = "rand";
  r.jobs[1].dir[1].ios = 1000;
  r.jobs[2].name = "broken";  // failed: its error says why, not this rule
  r.jobs[2].error = "EIO";
  const std::vector<Finding> w = IoCountFindings(r);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].severity, Severity::kInvalid);
  EXPECT_EQ(w[0].text.rfind("job seq did no IO in the measured window", 0), 0u)
      << w[0].text;
  EXPECT_EQ(w[0].text.find(';'), std::string::npos);
  r.jobs[0].dir[0].ios = 99;  // too few for a figure
  ASSERT_EQ(IoCountFindings(r).size(), 1u);
  EXPECT_EQ(IoCountFindings(r)[0].rule, "few-ios");
  r.jobs[0].dir[0].ios = kMinMeasuredIos;
  EXPECT_TRUE(IoCountFindings(r).empty());
}

TEST(DiagnosisTest, FormatBcacheSizeLikeTheKernel) {
  const struct {
    uint64_t bytes;
    const char* text;
  } cases[] = {{0, "0"},
               {512, "512"},
               {1023, "1023"},
               {1024, "1.0k"},
               {1250, "1.2k"},
               {4 * kCrMiB, "4.0M"},
               {53896806, "51.3M"},
               {3ull << 30, "3.0G"}};
  for (const auto& c : cases) {
    EXPECT_EQ(FormatBcacheSize(c.bytes), c.text) << c.bytes;
  }
}

}  // namespace
}  // namespace tierbench
