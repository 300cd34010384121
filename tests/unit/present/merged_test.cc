// The fleet report (`tierbench report runA runB --out DIR`): golden
// merged.csv and summary.md of the two committed fixture runs, which differ
// only in writeback's IOPS on randwrite-4k (run B: 20% fewer; written by
// tests/golden/report-run/make_fixture.py b); every number of the summary
// traced back to merged.csv and the runs' files; the structure of the merged
// HTML and SVG with a missing cell; --out required; no overwrite.
//
// To regenerate tests/golden/merged/ after an intended change:
//   TIERBENCH_UPDATE_GOLDEN=1 build/tests/tierbench_tests
//       --gtest_filter='ReportMergedTest.*'   (one command line)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/golden_file.h"
#include "present/merged_runs.h"
#include "present/pages/merged_report.h"
#include "present/report_format.h"
#include "present/run_differences.h"
#include "present/run_folder.h"
#include "support/report_fixture.h"
#include "support/report_number_trace.h"
#include "util/csv_reader.h"
#include "util/errors.h"
#include "support/xml_check.h"

namespace tierbench {
namespace {

std::string FixtureRunBDir() {
  return std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/report-run-b";
}

class ReportMergedTest : public ::testing::Test {
 protected:
  ReportMergedTest()
      : a_(RunFolder::Read(FixtureRunDir())),
        b_(RunFolder::Read(FixtureRunBDir())),
        merged_({&a_, &b_}) {}
  RunFolder a_, b_;
  MergedRuns merged_;
};

TEST_F(ReportMergedTest, MergedCsvMatchesGolden) {
  ExpectGolden("merged/merged.csv", merged_.Csv());
}

TEST_F(ReportMergedTest, SummaryMatchesGolden) {
  ExpectGolden("merged/summary.md", MergedReport(merged_).SummaryMarkdown());
}

TEST_F(ReportMergedTest, OnlyTheChangedModeDiffers) {
  EXPECT_EQ(merged_.names(),
            (std::vector<std::string>{"report-run", "report-run-b"}));
  EXPECT_EQ(merged_.rows().size(), 28u);  // as in each run
  int significant = 0;
  for (const MergedRow& r : merged_.rows()) {
    ASSERT_EQ(r.runs.size(), 2u);
    EXPECT_FALSE(r.runs[0].vs_first_pct.has_value());
    const MergedCell& b = r.runs[1];
    ASSERT_TRUE(b.within_noise().has_value()) << r.mode << " " << r.workload;
    if (r.mode == "writeback" && r.workload == "randwrite-4k") {
      EXPECT_NEAR(*b.vs_first_pct, -20, 0.01);
      ASSERT_TRUE(b.vs_first_ci.has_value());
      // SciPy 1.10.1, Welch on the logs of B {3510.7, 3404.1, 3545.4}
      // against A {4388.4, 4255.1, 4431.7}: [-23.76, -16.06] %, df 4.00.
      EXPECT_NEAR(b.vs_first_ci->low_pct, -23.76, 0.005);
      EXPECT_NEAR(b.vs_first_ci->high_pct, -16.06, 0.005);
      EXPECT_NEAR(b.vs_first_ci->df, 4.00, 0.005);
      EXPECT_TRUE(b.vs_first_ci->significant());
      EXPECT_EQ(b.within_noise(), false);
      ++significant;
    } else {
      EXPECT_EQ(b.within_noise(), true) << r.mode << " " << r.workload;
    }
  }
  EXPECT_EQ(significant, 1);
  const std::string para =
      MergedReport(merged_).WorkloadParagraph("randwrite-4k");
  EXPECT_NE(para.find("report-run-b -20% against report-run (95% CI"),
            std::string::npos)
      << para;
  EXPECT_NE(para.find("Within noise of report-run in report-run-b: hdd 149 "
                      "IOPS, ssd 11,961 IOPS"),
            std::string::npos)
      << para;
}

TEST_F(ReportMergedTest, EveryNumberOfTheSummaryIsInTheFiles) {
  const std::string md = MergedReport(merged_).SummaryMarkdown();
  Sources sources(a_);
  sources.Add(CsvDocument::Parse(merged_.Csv(), "merged.csv"));
  Sources b(b_);
  const std::vector<Number> numbers = NumbersIn(md, true);
  EXPECT_GT(numbers.size(), 30u);
  for (const Number& n : numbers) {
    EXPECT_TRUE(sources.Has(n) || b.Has(n)) << n.text << " is in no file";
  }
}

TEST(ReportMergedHtmlTest, SideBySideWithAMissingCell) {
  ScratchDir tmp("merged");
  // Run A: 3 cache modes, SSD 12000 IOPS; run B: 2 cache modes (the third
  // is missing), SSD 9000 IOPS (a lab run with another --ssd-iops).
  WriteSyntheticRun(tmp.path() + "/host-a", 3, 2, 12000);
  WriteSyntheticRun(tmp.path() + "/host-b", 2, 2, 9000);
  const ReportFiles files =
      WriteMergedReport({tmp.path() + "/host-a", tmp.path() + "/host-b"},
                        tmp.path() + "/fleet", false);
  // both synthetic runs: runs.csv schema 3, comparison.csv schema 2, and
  // neither judged valid (comparison.csv before schema 5)
  EXPECT_EQ(files.notes.size(), 6u);
  ASSERT_EQ(files.charts.size(), 2u);  // one per workload
  for (const std::string& c : files.charts) {
    XmlCheck x;
    ASSERT_EQ(x.Parse(ReadText(c)), "") << c;
    // 5 rows (hdd, ssd, 3 modes) x 2 runs, one of them missing.
    EXPECT_EQ(x.WithClass("bar").size(), 9u) << c;
    EXPECT_EQ(x.WithClass("missing").size(), 1u) << c;
    EXPECT_EQ(x.WithClass("legend").size(), 2u) << c;  // one per run
    EXPECT_EQ(x.WithClass("x-label").size(), 5u) << c;
  }
  const std::string html = ReadText(files.html);
  for (const char* banned :
       {"<script", "<link", "src=", "@import", "url(", "https://"}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  }
  size_t tables = 0, svgs = 0;
  for (size_t p = html.find("<table class=\"merged\">"); p != std::string::npos;
       p = html.find("<table class=\"merged\">", p + 1)) {
    ++tables;
  }
  for (size_t p = html.find("<svg"); p != std::string::npos;
       p = html.find("<svg", p + 1)) {
    ++svgs;
  }
  EXPECT_EQ(tables, 2u);
  EXPECT_EQ(svgs, 2u);
  EXPECT_NE(html.find("<th>host-b vs host-a</th>"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"missing\""), std::string::npos);
  EXPECT_NE(html.find("host-b: bcache-writeback-with-a-long-name-2 on "
                      "workload-number-0-qd32 (missing)"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"missing\" title=\"missing\">\xe2\x80\x94"),
            std::string::npos);
  // The SSD's change shows (-25%), one run each: no noise verdict.
  EXPECT_NE(html.find("-25%"), std::string::npos);
  const std::string md = ReadText(files.summary);
  EXPECT_NE(md.find("ssd: host-a 12,000 IOPS (1 run) and host-b 9,000 IOPS "
                    "(1 run); host-b -25% against host-a"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("no confidence interval can be given"), std::string::npos);
  const CsvDocument csv =
      CsvDocument::Parse(ReadText(files.merged_csv), "merged.csv");
  EXPECT_EQ(csv.row_count(), 20u);  // 2 workloads x 5 rows x 2 runs
  EXPECT_EQ(csv.Get(0, "schema_version"),
            std::to_string(kMergedCsvSchemaVersion));

  try {
    WriteMergedReport({tmp.path() + "/host-a", tmp.path() + "/host-b"},
                      tmp.path() + "/fleet", false);
    ADD_FAILURE() << "overwrote without --force";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos);
  }
}

TEST(RunDifferencesTest, ListsOnlyWhatDiffersInReportOrder) {
  const nlohmann::json a = {{"hostname", "h1"},
                            {"run_id", "r1"},
                            {"kernel", {{"release", "6.1"}, {"machine", "x"}}},
                            {"options", {{"runtime_ns", 3}, {"repeat", 1}}},
                            {"labels", {{"lab.ssd_iops", "20000"}}}};
  nlohmann::json b = a;
  b["run_id"] = "r2";  // differs by design: not compared
  b["labels"]["lab.ssd_iops"] = "2000";
  b["options"]["repeat"] = 3;
  b["kernel"]["release"] = "6.12";
  const std::vector<RunDifference> d = DiffManifests({&a, &b});
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].key, "kernel.release");
  EXPECT_EQ(d[1].key, "labels.lab.ssd_iops");
  EXPECT_EQ(d[1].values, (std::vector<std::string>{"20000", "2000"}));
  EXPECT_EQ(d[2].key, "options.repeat");
  EXPECT_EQ(DifferenceLabel(d[0].key), "kernel release");
  EXPECT_EQ(DifferenceLabel(d[1].key), "lab.ssd_iops");
  EXPECT_EQ(DifferenceLabel(d[2].key), "option repeat");
  nlohmann::json old = a;  // schema 2: no labels at all
  old.erase("labels");
  const std::vector<RunDifference> o = DiffManifests({&old, &a});
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].values[0], "\xe2\x80\x94");
  EXPECT_TRUE(DiffManifests({&a, &a}).empty());
}

// results/sample-fleet: two real lab runs that differ only in the emulated
// SSD's IOPS limit (tierbench lab --ssd-iops 20000, then 2000; commands in
// each run's lab/command.txt). The committed merged report must be what
// this tierbench makes of the committed runs, and it must show the cause
// (lab.ssd_iops) and its effect (the raw SSD's IOPS fall).
TEST(ReportMergedSampleTest, CommittedFleetSampleShowsTheSsdLimit) {
  const std::string dir =
      std::string(TIERBENCH_SOURCE_DIR) + "/results/sample-fleet";
  const RunFolder a = RunFolder::Read(dir + "/ssd-20000-iops");
  const RunFolder b = RunFolder::Read(dir + "/ssd-2000-iops");
  EXPECT_TRUE(a.notes().empty() && b.notes().empty()) << "stale sample";
  const MergedRuns merged({&a, &b});
  const MergedReport report(merged);
  EXPECT_EQ(merged.Csv(), ReadText(dir + "/merged.csv"))
      << "results/sample-fleet/merged.csv is stale: re-run tierbench report";
  const std::string md = report.SummaryMarkdown();
  EXPECT_EQ(md, ReadText(dir + "/summary.md"));
  // The page names each folder as given: here relative to the source tree.
  std::string html = report.Html();
  const std::string root = std::string(TIERBENCH_SOURCE_DIR) + "/";
  for (size_t p = html.find(root); p != std::string::npos;
       p = html.find(root, p)) {
    html.erase(p, root.size());
  }
  EXPECT_EQ(html, ReadText(dir + "/report.html"));

  const std::vector<RunDifference> diffs = report.Differences();
  // The setting that differs, its real-disk twin (undilated, the same),
  // and the guest's CPU slowdown, measured at each boot (noise).
  const RunDifference* ssd_iops = nullptr;
  for (const RunDifference& d : diffs) {
    EXPECT_TRUE(d.key == "labels.lab.ssd_iops" ||
                d.key == "labels.lab.ssd_iops_real" ||
                d.key == "labels.lab.cpu_slowdown")
        << d.key;
    if (d.key == "labels.lab.ssd_iops") ssd_iops = &d;
  }
  ASSERT_TRUE(ssd_iops != nullptr);
  EXPECT_EQ(ssd_iops->values, (std::vector<std::string>{"20000", "2000"}));
  EXPECT_NE(md.find("lab.ssd_iops (ssd-20000-iops 20000, "
                    "ssd-2000-iops 2000)"),
            std::string::npos)
      << md;
  EXPECT_NE(html.find("<td>lab.ssd_iops</td><td>20000</td><td>2000"),
            std::string::npos);
  // The effect: the raw SSD at a tenth of the IOPS limit loses more than
  // half of its random-read IOPS; the HDD (same limit in both) does not.
  int checked = 0;
  for (const MergedRow& r : merged.rows()) {
    if (r.workload != "randread-4k" || r.direction != "read") continue;
    ASSERT_TRUE(r.runs[1].vs_first_pct.has_value()) << r.mode;
    if (r.mode == "ssd") {
      EXPECT_LT(*r.runs[1].vs_first_pct, -50) << "ssd randread";
      EXPECT_NE(md.find("ssd-2000-iops " + FormatPct(*r.runs[1].vs_first_pct) +
                        " against"),
                std::string::npos)
          << md;
      ++checked;
    } else if (r.mode == "hdd") {
      EXPECT_GT(*r.runs[1].vs_first_pct, -25) << "hdd randread";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}

TEST(ReportMergedHtmlTest, SeveralRunsNeedOut) {
  try {
    WriteMergedReport({FixtureRunDir(), FixtureRunBDir()}, "", false);
    ADD_FAILURE() << "no error without --out";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exit_code(), kExitConfig);
    EXPECT_NE(what.find("Fix: add --out DIR"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(ReportMergedHtmlTest, RunNamesAreFolderNamesMadeUnique) {
  EXPECT_EQ(RunName("results/run-a/"), "run-a");
  EXPECT_EQ(RunName("/x/y/run-b"), "run-b");
  ScratchDir tmp("names");
  WriteSyntheticRun(tmp.path() + "/a/run", 1, 1);
  WriteSyntheticRun(tmp.path() + "/b/run", 1, 1);
  const RunFolder a = RunFolder::Read(tmp.path() + "/a/run");
  const RunFolder b = RunFolder::Read(tmp.path() + "/b/run");
  const MergedRuns merged({&a, &b});
  ASSERT_EQ(merged.names().size(), 2u);
  EXPECT_NE(merged.names()[0], merged.names()[1]);
}

}  // namespace
}  // namespace tierbench
