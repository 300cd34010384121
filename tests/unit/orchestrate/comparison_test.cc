// Comparison math and run plan: medians, spread, % vs baselines, position
// between HDD and SSD, noise flags, confidence intervals, the console
// table's "within noise", cell order; and comparison.csv as compare writes
// it from the committed fixture's runs.csv, byte for byte the fixture's
// comparison.csv (computed by make_fixture.py with SciPy).
#include "record/comparison.h"

#include <gtest/gtest.h>

#include <sstream>

#include "orchestrate/run_plan.h"
#include "present/run_folder.h"
#include "report/comparison_csv_reporter.h"
#include "report/console_table_reporter.h"
#include "support/report_fixture.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

MeasuredRow Row(const std::string& mode, const std::string& baseline, int rep,
                double iops, double p99, const std::string& dir = "read") {
  MeasuredRow r;
  r.mode = mode;
  r.baseline = baseline;
  r.workload = "randread-4k";
  r.job = "randread";
  r.direction = dir;
  r.unit = "io";
  r.repetition = rep;
  r.iops = iops;
  r.bw_mib_s = iops * 4096 / (1 << 20);
  r.lat_mean_us = p99 / 2;
  r.lat_p99_us = p99;
  return r;
}

TEST(ComparisonTest, SummarizeChangeAndPosition) {
  const Spread s = Summarize({300, 100, 200});
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.median, 200);
  EXPECT_DOUBLE_EQ(s.min, 100);
  EXPECT_DOUBLE_EQ(s.max, 300);
  EXPECT_DOUBLE_EQ(s.rel_spread_pct, 100);

  const struct {
    double x, base;
    std::optional<double> want;
  } changes[] = {{150, 100, 50.0}, {50, 100, -50.0}, {5, 0, std::nullopt}};
  for (const auto& c : changes) EXPECT_EQ(ChangePct(c.x, c.base), c.want);

  const struct {
    double x, hdd, ssd;
    std::optional<double> want;
  } positions[] = {{100, 100, 1100, 0.0},
                   {1100, 100, 1100, 1.0},
                   {600, 100, 1100, 0.5},
                   {2100, 100, 1100, 2.0},
                   {10, 10, 10, std::nullopt},
                   // Latency: lower is better, the formula still maps
                   // HDD -> 0 and SSD -> 1.
                   {5000, 9000, 1000, 0.5},
                   // A baseline that measured nothing gives no position.
                   {140, 140, 0, std::nullopt},
                   {50, 0, 100, std::nullopt}};
  for (const auto& p : positions) {
    EXPECT_EQ(Position(p.x, p.hdd, p.ssd), p.want) << p.x;
  }
}

TEST(ComparisonTest, WithinNoise) {
  Spread a{3, 100, 90, 110, 20};
  Spread b{3, 105, 100, 120, 19};
  Spread c{3, 200, 180, 220, 20};
  Spread one{1, 100, 100, 100, 0};
  EXPECT_EQ(WithinNoise(a, b), true);
  EXPECT_EQ(WithinNoise(a, c), false);
  EXPECT_EQ(WithinNoise(a, one), std::nullopt);
}

TEST(ComparisonTest, ModesAgainstBothBaselines) {
  std::vector<MeasuredRow> rows;
  for (int rep = 1; rep <= 3; ++rep) {
    rows.push_back(Row("hdd", "hdd", rep, 150 + rep, 9000));
    rows.push_back(Row("ssd", "ssd", rep, 10000 + rep * 10, 200));
    rows.push_back(Row("writeback", "", rep, 5000 + rep * 100, 4600));
    rows.push_back(Row("none", "", rep, 150 + rep * 2, 9000));
  }
  const Finding w1{"r1", Severity::kCaution, "w1"};
  const Finding w2{"r2", Severity::kInvalid, "w2"};
  rows[2].findings = {w1};
  rows[6].findings = {w1, w2};
  const std::vector<ComparisonRow> out = Compare(rows);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].mode, "hdd");
  EXPECT_EQ(out[2].mode, "writeback");

  const ComparisonRow& wb = out[2];
  EXPECT_EQ(wb.iops.n, 3);
  EXPECT_DOUBLE_EQ(wb.iops.median, 5200);
  ASSERT_TRUE(wb.vs_hdd.iops_pct.has_value());
  EXPECT_NEAR(*wb.vs_hdd.iops_pct, (5200.0 - 152) / 152 * 100, 1e-9);
  EXPECT_NEAR(*wb.vs_ssd.iops_pct, (5200.0 - 10020) / 10020 * 100, 1e-9);
  EXPECT_NEAR(*wb.iops_position, (5200.0 - 152) / (10020 - 152), 1e-9);
  EXPECT_NEAR(*wb.p99_position, (4600.0 - 9000) / (200 - 9000), 1e-9);
  EXPECT_EQ(wb.vs_hdd.noise, false);
  EXPECT_EQ(wb.findings, (std::vector<Finding>{w1, w2}));
  // One invalid repetition makes the row invalid: its median includes it.
  EXPECT_EQ(wb.validity(), Validity::kInvalid);
  EXPECT_EQ(out[3].validity(), Validity::kValid);

  const ComparisonRow& none = out[3];
  EXPECT_EQ(none.vs_hdd.noise, true);  // 152..156 overlaps 151..153
  EXPECT_NEAR(*none.iops_position, (154.0 - 152) / (10020 - 152), 1e-9);

  const ComparisonRow& hdd = out[0];
  EXPECT_DOUBLE_EQ(*hdd.vs_hdd.iops_pct, 0);
  EXPECT_DOUBLE_EQ(*hdd.iops_position, 0);
}

TEST(ComparisonTest, MissingBaselineLeavesColumnsEmpty) {
  std::vector<MeasuredRow> rows = {Row("writeback", "", 1, 5000, 10),
                                   Row("hdd", "hdd", 1, 150, 9000, "write")};
  const std::vector<ComparisonRow> out = Compare(rows);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FALSE(out[0].vs_hdd.iops_pct.has_value());  // other direction
  EXPECT_FALSE(out[0].iops_position.has_value());
  EXPECT_FALSE(out[0].vs_hdd.noise.has_value());
}

TEST(ComparisonTest, IntervalsWithThreeRepetitions) {
  std::vector<MeasuredRow> rows;
  const double hdd[] = {149.1, 147.3, 150.6};
  const double wb[] = {4388.4, 4255.1, 4431.7};
  const double none[] = {149.9, 152.3, 147.5};
  for (int rep = 0; rep < 3; ++rep) {
    rows.push_back(Row("hdd", "hdd", rep + 1, hdd[rep], 9000 + rep));
    rows.push_back(Row("writeback", "", rep + 1, wb[rep], 700 + rep));
    rows.push_back(Row("none", "", rep + 1, none[rep], 9100 + rep));
  }
  const std::vector<ComparisonRow> out = Compare(rows);
  ASSERT_EQ(out.size(), 3u);
  // The baseline gets no interval against itself.
  EXPECT_FALSE(out[0].vs_hdd.iops_ci.has_value());
  EXPECT_FALSE(out[0].vs_hdd.significant.has_value());
  // SciPy (see tests/unit/stats/confidence_test.cc): [2699.30, 2955.89] %,
  // df 3.0176.
  ASSERT_TRUE(out[1].vs_hdd.iops_ci.has_value());
  EXPECT_NEAR(out[1].vs_hdd.iops_ci->low_pct, 2699.2978685967, 1e-7);
  EXPECT_NEAR(out[1].vs_hdd.iops_ci->high_pct, 2955.8933896718, 1e-7);
  EXPECT_EQ(out[1].vs_hdd.significant, true);
  EXPECT_TRUE(out[1].vs_hdd.p99_ci.has_value());
  EXPECT_FALSE(out[1].vs_ssd.iops_ci.has_value());  // no SSD baseline
  // none: 147.5..152.3 against 147.3..150.6: the interval includes 0.
  EXPECT_EQ(out[2].vs_hdd.significant, false);

  std::ostringstream table;
  PrintComparisonTable(out, table);
  const std::string t = table.str();
  EXPECT_NE(t.find("+2843%"), std::string::npos) << t;  // writeback vs HDD
  EXPECT_NE(t.find("+0%"), std::string::npos) << t;     // the HDD itself
  EXPECT_TRUE(out[0].vs_hdd.is_base);
  EXPECT_FALSE(out[1].vs_hdd.is_base);
  EXPECT_NE(t.find("within noise"), std::string::npos) << t;
  EXPECT_NE(t.find("95% confidence interval"), std::string::npos) << t;
}

TEST(ComparisonTest, ConsoleTableSaysOnceThatOneRunGivesNoInterval) {
  std::vector<MeasuredRow> rows = {Row("hdd", "hdd", 1, 150, 9000),
                                   Row("writeback", "", 1, 5000, 700),
                                   Row("none", "", 1, 151, 9000)};
  std::ostringstream table;
  PrintComparisonTable(Compare(rows), table);
  const std::string t = table.str();
  EXPECT_EQ(t.find("within noise"), std::string::npos) << t;
  const std::string line = "the table's columns have no interval across runs";
  const size_t at = t.find(line);
  ASSERT_NE(at, std::string::npos) << t;
  EXPECT_EQ(t.find(line, at + 1), std::string::npos) << t;  // one line
}

TEST(ComparisonTest, FixtureComparisonIsWhatCompareWrites) {
  const std::string dir = FixtureRunDir();
  const CsvDocument runs =
      CsvDocument::Parse(ReadText(dir + "/runs.csv"), "runs.csv");
  std::vector<MeasuredRow> measured;
  for (size_t r = 0; r < runs.row_count(); ++r) {
    if (!runs.Get(r, "error").empty()) continue;
    MeasuredRow m;
    m.mode = runs.Get(r, "mode");
    m.layer = runs.Get(r, "layer");
    m.baseline = m.layer == "raw" ? m.mode : "";
    m.workload = runs.Get(r, "workload");
    m.job = runs.Get(r, "job");
    m.direction = runs.Get(r, "direction");
    m.unit = runs.Get(r, "unit");
    m.repetition = static_cast<int>(*runs.Number(r, "repetition"));
    m.iops = *runs.Number(r, "iops");
    m.iops_sustained = runs.Number(r, "iops_sustained");
    m.bw_mib_s = *runs.Number(r, "bw_mib_s");
    m.lat_mean_us = *runs.Number(r, "clat_mean_us");
    m.lat_p99_us = *runs.Number(r, "clat_p99_us");
    m.findings = FindingsOfRow(runs, r);
    measured.push_back(m);
  }
  std::ostringstream written;
  WriteComparisonCsv(Compare(measured), written);
  EXPECT_EQ(written.str(), ReadText(dir + "/comparison.csv"));
}

TEST(RunPlanTest, RepetitionsOuterModesThenWorkloads) {
  const std::vector<Cell> cells = BuildRunPlan(2, 2, 2);
  ASSERT_EQ(cells.size(), 8u);
  const int want[8][3] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1},
                          {0, 0, 2}, {0, 1, 2}, {1, 0, 2}, {1, 1, 2}};
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].mode, static_cast<size_t>(want[i][0])) << i;
    EXPECT_EQ(cells[i].workload, static_cast<size_t>(want[i][1])) << i;
    EXPECT_EQ(cells[i].repetition, want[i][2]) << i;
  }
  EXPECT_TRUE(BuildRunPlan(0, 3, 2).empty());
  // --workload-modes: workload 1 only in mode 0; the order is kept.
  const std::vector<Cell> limited =
      BuildRunPlan(2, 2, 1, {{true, true}, {true, false}});
  ASSERT_EQ(limited.size(), 3u);
  EXPECT_EQ(limited[2].mode, 1u);
  EXPECT_EQ(limited[2].workload, 0u);
  EXPECT_TRUE(BuildRunPlan(3, 3, 0).empty());
}

TEST(RunPlanTest, DbWorkloadsRunModeAfterModeAtTheEndOfEachRepetition) {
  // Workloads 0 and 2 are DB workloads; 1 is IO. Three modes, two
  // repetitions; workload 2 limited to modes 0 and 2.
  const std::vector<Cell> cells = BuildRunPlan(
      3, 3, 2, {{true, true, true}, {true, true, false}, {true, true, true}},
      {true, false, true});
  const int want[][3] = {
      {0, 1, 1}, {1, 1, 1}, {2, 1, 1},  // IO, mode-major
      {0, 0, 1}, {1, 0, 1}, {2, 0, 1},  // DB 0, mode after mode
      {0, 2, 1}, {2, 2, 1},             // DB 2
      {0, 1, 2}, {1, 1, 2}, {2, 1, 2}, {0, 0, 2},
      {1, 0, 2}, {2, 0, 2}, {0, 2, 2}, {2, 2, 2}};
  ASSERT_EQ(cells.size(), std::size(want));
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(cells[i].mode, static_cast<size_t>(want[i][0])) << i;
    EXPECT_EQ(cells[i].workload, static_cast<size_t>(want[i][1])) << i;
    EXPECT_EQ(cells[i].repetition, want[i][2]) << i;
  }
  // Modes of one target together: modes 0 and 2 share a stack, mode 1 is
  // a raw device between them in mode order (the lab's sorted mode files:
  // none.json, ssd.json, writeback.json).
  const std::vector<Cell> grouped =
      BuildRunPlan(3, 1, 1, {}, {true}, {0, -1, 0});
  ASSERT_EQ(grouped.size(), 3u);
  EXPECT_EQ(grouped[0].mode, 0u);
  EXPECT_EQ(grouped[1].mode, 2u);
  EXPECT_EQ(grouped[2].mode, 1u);
  // No DB workload: the plain order.
  const std::vector<Cell> plain = BuildRunPlan(2, 2, 1, {}, {false, false});
  ASSERT_EQ(plain.size(), 4u);
  EXPECT_EQ(plain[1].mode, 0u);
  EXPECT_EQ(plain[1].workload, 1u);
}

TEST(RunPlanTest, CacheStateNames) {
  for (const char* name : {"cold", "warm", "as-is"}) {
    CacheState s;
    ASSERT_TRUE(ParseCacheState(name, &s)) << name;
    EXPECT_STREQ(CacheStateName(s), name);
  }
  CacheState s;
  EXPECT_FALSE(ParseCacheState("hot", &s));
}

}  // namespace
}  // namespace tierbench
