// `tierbench compare` writes the report (report.html, charts/*.svg,
// summary.md) into the run folder when it finishes: a raw-only compare on
// temp files (no cache layer needed) with two repetitions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/compare_scratch.h"
#include "orchestrate/compare_runner.h"
#include "present/run_folder.h"
#include "report/comparison_csv_reporter.h"
#include "report/reporters.h"
#include "support/report_fixture.h"
#include "support/report_number_trace.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

TEST(CompareReportTest, CompareWritesTheReportIntoTheRunFolder) {
  ScratchDir tmp("compare");
  CompareScratch scratch(tmp.path());
  // compare drops the page cache through <sysfs root>/proc.
  std::filesystem::create_directories(tmp.path() + "/proc/sys/vm");
  std::ofstream(tmp.path() + "/proc/sys/vm/drop_caches").close();
  CompareOptions o = scratch.Options(
      {}, {scratch.Mode("ssd", "\"layer\": \"raw\", \"target\": \"ssd\"")},
      "r1");
  o.repeat = 2;
  std::ostringstream out;
  const CompareSummary s = CompareRunner(o).Run(MakeCompareReporters(out));
  ASSERT_EQ(s.failed_cells, 0u);
  const std::string dir = o.results_dir + "/r1";
  EXPECT_NE(out.str().find(dir + "/report.html"), std::string::npos)
      << out.str();
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.html"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/charts/latency-w.svg"));
  const std::string md = ReadText(dir + "/summary.md");
  EXPECT_NE(md.find("**w** (fio randwrite"), std::string::npos) << md;
  EXPECT_NE(md.find("each cell ran 2 times"), std::string::npos) << md;
  EXPECT_NE(md.find("No cache mode's IOPS range could be set against"),
            std::string::npos)
      << md;
  // Every number of the real run's summary is in its files.
  const RunFolder run = RunFolder::Read(dir);
  // Raw cells: nothing to drain, so sustained = burst; every cell has its
  // wall time and harness overhead.
  const CsvDocument& runs = run.runs();
  ASSERT_GT(runs.row_count(), 0u);
  for (size_t r = 0; r < runs.row_count(); ++r) {
    EXPECT_EQ(runs.Get(r, "iops_sustained"), runs.Get(r, "iops"));
    EXPECT_GT(*runs.Number(r, "cell_wall_s"), 0);
    const double pct = *runs.Number(r, "harness_overhead_pct");
    EXPECT_GE(pct, 0);
    EXPECT_LT(pct, 100);
  }
  const Sources sources(run);
  for (const Number& n : NumbersIn(md, true)) {
    EXPECT_TRUE(sources.Has(n)) << n.text << " is in no file of the run";
  }
}

// A size-bound job done within ramp_time measured nothing: the cell says
// so beside its 0 (seed 001's wiki job on the lab's raw SSD did this).
TEST(CompareReportTest, JobDoneWithinRampTimeIsFlagged) {
  ScratchDir tmp("compare-ramp");
  CompareScratch scratch(tmp.path());
  std::filesystem::create_directories(tmp.path() + "/proc/sys/vm");
  std::ofstream(tmp.path() + "/proc/sys/vm/drop_caches").close();
  CompareOptions o = scratch.Options(
      {}, {scratch.Mode("ssd", "\"layer\": \"raw\", \"target\": \"ssd\"")},
      "ramp");
  const std::string job = tmp.path() + "/seq.fio";
  std::ofstream(job) << "[seq]\nrw=read\nbs=4k\nsize=256k\nramp_time=1\n"
                        "ioengine=psync\n";
  o.workload_paths = {job};
  std::ostringstream out;
  const CompareSummary s = CompareRunner(o).Run(MakeCompareReporters(out));
  ASSERT_EQ(s.failed_cells, 0u);
  const RunFolder run = RunFolder::Read(o.results_dir + "/ramp");
  const CsvDocument& runs = run.runs();
  ASSERT_GT(runs.row_count(), 0u);
  for (size_t r = 0; r < runs.row_count(); ++r) {
    EXPECT_EQ(runs.Get(r, "ios"), "0");
    EXPECT_NE(runs.Get(r, "warnings")
                  .find("job seq did no IO in the measured window: it "
                        "finished its size within ramp_time"),
              std::string::npos)
        << runs.Get(r, "warnings");
  }
  // The summary gives no "0.00 IOPS" figure for it.
  const std::string md = ReadText(o.results_dir + "/ramp/summary.md");
  EXPECT_NE(md.find("the raw SSD measured no IO (see the caveats)"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("0.00 IOPS"), std::string::npos) << md;
}

TEST(CompareReportTest, ThreeRepetitionsGiveConfidenceIntervals) {
  ScratchDir tmp("compare3");
  CompareScratch scratch(tmp.path());
  std::filesystem::create_directories(tmp.path() + "/proc/sys/vm");
  std::ofstream(tmp.path() + "/proc/sys/vm/drop_caches").close();
  CompareOptions o = scratch.Options(
      {}, {scratch.Mode("ssd", "\"layer\": \"raw\", \"target\": \"ssd\"")},
      "r3");
  o.repeat = 3;
  std::ostringstream out;
  const CompareSummary s = CompareRunner(o).Run(MakeCompareReporters(out));
  ASSERT_EQ(s.failed_cells, 0u);
  // The console table explains its "within noise" once.
  EXPECT_NE(out.str().find("95% confidence interval (Welch's t on log IOPS"),
            std::string::npos)
      << out.str();
  const RunFolder run = RunFolder::Read(o.results_dir + "/r3");
  EXPECT_TRUE(run.notes().empty());
  const CsvDocument& cmp = run.comparison();
  int with_interval = 0;
  for (size_t r = 0; r < cmp.row_count(); ++r) {
    EXPECT_EQ(cmp.Get(r, "schema_version"),
              std::to_string(kComparisonCsvSchemaVersion));
    if (cmp.Get(r, "mode") != "ssd") continue;
    const auto lo = cmp.Number(r, "iops_vs_hdd_ci_low_pct");
    const auto hi = cmp.Number(r, "iops_vs_hdd_ci_high_pct");
    ASSERT_TRUE(lo && hi) << r;
    EXPECT_LE(*lo, *hi);
    const std::string sig = cmp.Get(r, "significant_vs_hdd");
    EXPECT_EQ(sig, (*lo > 0 || *hi < 0) ? "1" : "0");
    ++with_interval;
  }
  EXPECT_GT(with_interval, 0);
  const std::string md = ReadText(o.results_dir + "/r3/summary.md");
  // Raw modes only: no cache mode to set against a baseline in the text.
  EXPECT_NE(md.find("each cell ran 3 times"), std::string::npos) << md;
  const Sources sources(run);
  for (const Number& n : NumbersIn(md, true)) {
    EXPECT_TRUE(sources.Has(n)) << n.text << " is in no file of the run";
  }
}

}  // namespace
}  // namespace tierbench
