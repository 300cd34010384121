// A whole compare of a workload that replays a trace, against the fake
// bcache sysfs (tests/unit/orchestrate/protocol_fixture.h; the IO runs for
// real on files): the setup computes the trace's read hit curves at the
// stack's cache size and block size (mrc.csv), and the report compare writes
// at its end puts the bcache cell's measured read hit ratio against them
// (the chart's curves and point, the verdict's line). The host has no
// bcache and no device-mapper, so the layer is the fake; the same on real
// stacks is the lab's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cache/bcache/bcache_counters.h"
#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "support/report_fixture.h"
#include "support/svg_check.h"
#include "trace/read_hit_curve.h"
#include "unit/orchestrate/protocol_fixture.h"
#include "util/csv_reader.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/job_stream.h"
#include "workload/runner.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

// 16 distinct 4 KiB blocks read ten times in a loop (160 reads, enough for
// a figure) and a write after each pass: from an empty cache that holds
// them all, 144 of the 160 reads hit (90 %) whatever the block size the
// blocks are split into.
std::string RhLoopWorkload(const std::string& dir) {
  std::string trace = "fio version 3 iolog\n0 /dev/tb-traced add\n";
  int t = 1;
  for (int pass = 0; pass < 10; ++pass) {
    for (int b = 0; b < 16; ++b) {
      trace += std::to_string(t++) + " /dev/tb-traced read " +
               std::to_string(b * 4096) + " 4096\n";
    }
    trace += std::to_string(t++) + " /dev/tb-traced write " +
             std::to_string(200 * 4096) + " 4096\n";
  }
  std::ofstream(dir + "/loop.iolog") << trace;
  std::ofstream(dir + "/loop.fio")
      << "[loop]\nread_iolog=" << dir << "/loop.iolog\nreplay_redirect=" << dir
      << "/hdd.img\nreplay_no_stall=1\nioengine=psync\ndirect=1\n";
  return dir + "/loop.fio";
}

TEST_F(ProtocolTest, ReplayedTraceGetsItsCurvesAndTheCellItsPoint) {
  CompareOptions o = Options("randread");  // cold protocol
  o.workload_paths = {RhLoopWorkload(dir_)};
  // No raw modes: the fixture's HDD and SSD are both files in RAM, which
  // the run rules would rightly call unable to tell caches apart.
  o.mode_paths = {
      Mode("writeback",
           "\"layer\": \"bcache\", \"cache_mode\": \"writeback\", "
           "\"knobs\": {\"sequential_cutoff\": \"0\"}, "
           "\"cache_set_knobs\": {\"congested_read_threshold_us\": 0}")};
  // The fake layer counts what a real one would report for the replay: 30
  // read hits and 10 misses per cell (75 %).
  BcacheStatsTotal stats;
  fake_.SetStatsTotal(stats);
  CompareHooks hooks;
  hooks.run_workload = [&](const Workload& w, const RunOptions& ro) {
    RunResult r = RunWorkload(w, ro);
    if (w.jobs.empty() || w.jobs[0].filename != bcache_target_) return r;
    stats.cache_hits += 30;
    stats.cache_misses += 10;
    fake_.SetStatsTotal(stats);
    return r;
  };
  std::ostringstream out;
  const CompareSummary s =
      CompareRunner(o, TestHost(), hooks).Run(MakeCompareReporters(out));
  ASSERT_EQ(s.failed_cells, 0u) << out.str();

  // runs.csv: the stack's size and block, and the measured 75 %.
  const CsvDocument runs =
      CsvDocument::Parse(ReadAll(RunDir() + "/runs.csv"), "runs.csv");
  std::string cache_bytes, block_bytes, hit_pct;
  for (size_t r = 0; r < runs.row_count(); ++r) {
    if (runs.Get(r, "mode") != "writeback") continue;
    cache_bytes = runs.Get(r, "cache_bytes");
    block_bytes = runs.Get(r, "cache_block_bytes");
    hit_pct = runs.Get(r, "read_hit_ratio_pct");
  }
  ASSERT_FALSE(cache_bytes.empty());
  ASSERT_FALSE(block_bytes.empty());
  EXPECT_EQ(hit_pct, "75.0");

  // mrc.csv: one cold curve in the stack's block size, its point at the
  // stack's size naming the mode.
  ASSERT_TRUE(fs::exists(RunDir() + "/mrc.csv"));
  const std::vector<ReadHitCurve> curves = ParseReadHitCurves(
      CsvDocument::Parse(ReadAll(RunDir() + "/mrc.csv"), "mrc.csv"));
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].workload, "loop");
  EXPECT_FALSE(curves[0].warm);
  EXPECT_EQ(std::to_string(curves[0].block_bytes), block_bytes);
  const ReadHitPoint* at = curves[0].At(std::stoull(cache_bytes));
  ASSERT_NE(at, nullptr);
  EXPECT_TRUE(at->at_stack);
  EXPECT_EQ(at->modes, std::vector<std::string>{"writeback"});
  EXPECT_NEAR(at->lru_read_hit_pct, 90.0, 1e-9);
  EXPECT_NEAR(at->opt_read_hit_pct, 90.0, 1e-9);
  EXPECT_GT(curves[0].points.size(), 2u);

  // The report compare wrote: the chart has both curves and the cell's
  // point, the verdict (summary.md) its line. Without raw modes no run rule
  // can judge the cell invalid (its validity is unknown: ranked, marked).
  const std::string chart = RunDir() + "/charts/read-hits-loop.svg";
  ASSERT_TRUE(fs::exists(chart)) << out.str();
  const XmlCheck svg = ParsedSvg(ReadText(chart));
  EXPECT_EQ(svg.WithClass("mrc-lru").size(), 1u);
  EXPECT_EQ(svg.WithClass("mrc-opt").size(), 1u);
  const CsvDocument cmp = CsvDocument::Parse(
      ReadAll(RunDir() + "/comparison.csv"), "comparison.csv");
  std::string valid;
  for (size_t r = 0; r < cmp.row_count(); ++r) {
    if (cmp.Get(r, "mode") == "writeback") valid = cmp.Get(r, "valid");
  }
  ASSERT_FALSE(valid.empty());
  ASSERT_NE(valid, "no") << cmp.Get(0, "invalid_reasons");
  EXPECT_EQ(svg.WithClass("mrc-cell").size(), 1u);
  EXPECT_TRUE(HasText(svg, "mrc-cell-label", "bcache writeback 75%"));
  const std::string summary = ReadText(RunDir() + "/summary.md");
  EXPECT_NE(
      summary.find("- **loop**: bcache writeback (" +
                   FormatBytes(std::stoull(cache_bytes)) +
                   " cache) reached 75% read hits; LRU at this size 90%, OPT "
                   "90% (cold, " +
                   FormatBytes(std::stoull(block_bytes)) + " blocks" +
                   (valid == "unknown" ? "; validity unknown" : "") + ")."),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("](charts/read-hits-loop.svg)"), std::string::npos);
}

// A generated job whose options fix its stream (size-bound, seeded: here
// zipf over 64 blocks, four passes) gets its curves like a trace; a
// time_based one does not (its device's speed sets how much it issues),
// nor does the as-is state.
TEST_F(ProtocolTest, ASizeBoundGeneratedStreamGetsCurvesATimeBasedOneNone) {
  CompareOptions o = Options("randread");
  const std::string zipf = dir_ + "/zipf.fio";
  std::ofstream(zipf) << "[zipf]\nrw=randread\nbs=4k\nsize=256k\nloops=4\n"
                         "random_distribution=zipf:1.2\nioengine=psync\n"
                         "direct=0\n";
  o.workload_paths = {zipf};
  std::ostringstream out;
  CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
  ASSERT_TRUE(fs::exists(RunDir() + "/mrc.csv")) << out.str();
  const std::vector<ReadHitCurve> curves = ParseReadHitCurves(
      CsvDocument::Parse(ReadAll(RunDir() + "/mrc.csv"), "mrc.csv"));
  ASSERT_EQ(curves.size(), 1u);
  EXPECT_EQ(curves[0].workload, "zipf");
  // The job's own stream, computed apart: 4 passes of 64 reads of 4 KiB,
  // each read all of one 4 KiB block, so with a cache that holds the region
  // every read after its block's first hits, in any block size up to 4 KiB.
  std::string why;
  const std::shared_ptr<const IoLog> stream = JobStream(
      ParseJobText(ReadAll(zipf), zipf, {}).jobs.at(0), 256 * 1024, "z", &why);
  ASSERT_NE(stream, nullptr) << why;
  std::set<uint64_t> blocks;
  for (const IoLogEntry& e : stream->entries) blocks.insert(e.offset / 4096);
  ASSERT_EQ(stream->ios[0], 256u);
  const double hits = 100.0 * static_cast<double>(256 - blocks.size()) / 256;
  ASSERT_LE(curves[0].block_bytes, 4096u);
  bool at_stack = false;
  for (const ReadHitPoint& p : curves[0].points) {
    EXPECT_GE(p.opt_read_hit_pct + 1e-9, p.lru_read_hit_pct);
    if (p.at_stack) {
      at_stack = true;
      EXPECT_EQ(p.modes, (std::vector<std::string>{"writeback", "none"}));
      ASSERT_GE(p.cache_bytes, 256u * 1024);
      EXPECT_NEAR(p.lru_read_hit_pct, hits, 1e-3);
      EXPECT_NEAR(p.opt_read_hit_pct, hits, 1e-3);
      EXPECT_GT(p.lru_read_hit_pct, 50.0) << "zipf repeats its hot blocks";
    }
  }
  EXPECT_TRUE(at_stack);

  std::ofstream(zipf) << "[zipf]\nrw=randread\nbs=4k\nsize=256k\n"
                         "time_based\nruntime=1\nrandom_distribution=zipf:1.2\n"
                         "ioengine=psync\ndirect=0\n";
  o.run_id = "t2";
  o.mode_paths = {o.mode_paths[2]};  // writeback alone: a second is enough
  CompareRunner(o, TestHost()).Run(MakeCompareReporters(out));
  EXPECT_TRUE(fs::exists(dir_ + "/results/t2/runs.csv"));
  EXPECT_FALSE(fs::exists(dir_ + "/results/t2/mrc.csv"));

  CompareOptions replay = Options("randread");
  replay.workload_paths = {RhLoopWorkload(dir_)};
  replay.cache_state = CacheState::kAsIs;
  replay.run_id = "t3";
  CompareRunner(replay, TestHost()).Run(MakeCompareReporters(out));
  EXPECT_TRUE(fs::exists(dir_ + "/results/t3/runs.csv"));
  EXPECT_FALSE(fs::exists(dir_ + "/results/t3/mrc.csv"));
}

}  // namespace
}  // namespace tierbench
