// Lab test of `tierbench lab --scenario fill` (issue 29 part 2): the
// writeback cliff on real bcache and dm-writecache, 64 MiB caches written
// at 1000 4k IOPS past their dirty limits, the HDD at 150 IOPS. Plus the
// input it refuses, which needs no guest.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

TEST(LabFill, WritebackCliffOnBcacheAndDmWritecache) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  // The recovery takes minutes at 150 IOPS (measured: bcache waits its 30 s
  // writeback_delay first); a short watch keeps the suite's time.
  // The rate is half the scenario's default 2000: the guest issues the
  // writes on an emulated CPU, and beside the suite's two other guests
  // bcache's writes reached only 1554 (ci61) and 1184 IOPS (the official
  // CI of 7f0a0cb; dm-writecache's 2000 both times), so the bound on the
  // rate measured how much CPU the host left, not the scenario. 22 s of
  // writes: dm-writecache's 63.8 MiB fill in 16.3 s at 1000 IOPS, and the
  // fall must last 4 s.
  std::vector<std::string> args = {
      "--scenario",   "fill",    "--layers",       "bcache,dm-writecache",
      "--fill-rate",  "1000",    "--fill-runtime", "22",
      "--fill-drain", "3",       "--results",      dir.path(),
      "--run-id",     "lab-fill"};
  TIERBENCH_RUN_LAB(args, 0);
  const std::string run = dir.path() + "/lab-fill/";
  std::vector<CsvRow> rows = ReadCsv(run + "fill.csv");
  ASSERT_EQ(rows.size(), 2u) << output;
  const char* layers[] = {"bcache", "dm-writecache"};
  for (size_t i = 0; i < rows.size(); ++i) {
    const CsvRow& r = rows[i];
    SCOPED_TRACE(layers[i]);
    EXPECT_EQ(Get(r, "schema_version"), "1");
    EXPECT_EQ(Get(r, "layer"), layers[i]);
    EXPECT_GE(Num(r, "cache_bytes"), 63.0 * (1 << 20));
    EXPECT_EQ(Get(r, "cliff"), "1") << output;
    // The cliff: the writes fell from the rate to the HDD's pace.
    const double before = Num(r, "iops_before");
    const double after = Num(r, "iops_after");
    EXPECT_GT(before, 800);  // the job's 1000, less what TCG loses
    EXPECT_LT(after, before / 2);
    // It came when the layer's limit was full at the rate before it:
    // within 25 % of the limit over the write rate.
    const double t = Num(r, "time_to_cliff_s");
    const double predicted = Num(r, "predicted_time_to_cliff_s");
    EXPECT_GT(predicted, 2);
    EXPECT_LE(std::fabs(t - predicted), 0.25 * predicted)
        << "cliff at " << t << " s, predicted " << predicted << " s";
    // Writes waited at the cliff: its p99 is at least the HDD's queue, the
    // job's 32 IOs in flight at the IOPS after the cliff (less the 19 % a
    // bucket edge may add). Not "above the p99 before": beside the suite's
    // background build bcache's p99 before the cliff reached the same
    // 225.7 ms bucket (CI 2026-12-04; 12-20 ms on a quiet host).
    EXPECT_GE(Num(r, "p99_at_cliff_us"), 0.8 * 32 / after * 1e6);
    EXPECT_GT(Num(r, "dirty_at_cliff_bytes"), 0.5 * Num(r, "limit_bytes"));
    EXPECT_NE(output.find("fill: " + std::string(layers[i]) + " ("),
              std::string::npos)
        << output;
  }
  // Per second, both layers: IOPS and p99 while writing, dirty bytes
  // throughout; the chart of IOPS and dirty data over time.
  std::vector<CsvRow> seconds = ReadCsv(run + "fill-series.csv");
  size_t fill_rows = 0, drain_rows = 0;
  for (const CsvRow& s : seconds) {
    SCOPED_TRACE(Get(s, "layer") + " " + Get(s, "t_s"));
    EXPECT_TRUE(Has(s, "dirty_bytes"));
    if (Get(s, "phase") == "fill") {
      ++fill_rows;
      EXPECT_GE(Num(s, "write_iops"), 0);
      EXPECT_GT(Num(s, "write_p99_us"), 0);
    } else {
      ++drain_rows;
      EXPECT_EQ(Get(s, "write_iops"), "");
    }
  }
  EXPECT_GE(fill_rows, 2u * 21);
  EXPECT_GE(drain_rows, 2u);
  const std::string svg = ReadText(run + "charts/fill.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("series-dirty"), std::string::npos);
  EXPECT_NE(svg.find("dm-writecache"), std::string::npos);
  // The report leads with each layer's cliff and shows the chart.
  const std::string html = ReadText(run + "report.html");
  EXPECT_NE(html.find("bcache: the writes fell from "), std::string::npos)
      << html.substr(0, 2000);
  EXPECT_NE(html.find("dm-writecache: the writes fell from "),
            std::string::npos);
  EXPECT_NE(html.find("series-dirty"), std::string::npos);
}

// Refused before any guest boots: one line naming the option and the fix.
TEST(LabFill, RefusesSmallCachesAndCompareOptions) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  struct Case {
    std::vector<std::string> args;
    std::string named;
  } cases[] = {
      {{"--ssd-size", "200M"}, "under the fill scenario's 64 MiB"},
      {{"--layers", "lvmcache"}, "'lvmcache' has no fill scenario"},
      {{"--modes", Mode("writeback")}, "--scenario fill does not take --modes"},
      {{"--fault", "cache-fail"}, "scenarios of their own"},
      {{"--fill-rate", "10"}, "--fill-rate"},
      // 64 MiB at 5000 IOPS: 70 % of it in 2.3 s, inside the first seconds.
      {{"--fill-rate", "5000"}, "a rate of at most 2867 IOPS gives 4 s"},
      {{"--fill-runtime", "8"}, "ends before 4 s past the 8.2 s"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"--scenario", "fill", "--results",
                                     dir.path()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string output;
    const int rc = RunLab(args, &output);
    SCOPED_TRACE(c.args[0]);
    EXPECT_EQ(rc, 2) << output;
    EXPECT_NE(output.find(c.named), std::string::npos) << output;
    EXPECT_EQ(output.find("booting"), std::string::npos) << output;
  }
}

}  // namespace
}  // namespace tierbench::labtest
