// summary.md and the written report of the committed fake run folder:
// golden text, every number traced back to the run folder's files, no
// ratio where the noise flag says "within noise", and the report files
// (self-contained HTML, one SVG per chart, no overwrite without --force).
//
// To regenerate tests/golden/report-summary.md after an intended change:
//   TIERBENCH_UPDATE_GOLDEN=1 build/tests/tierbench_tests
//       --gtest_filter='ReportSummaryTest.*'   (one command line)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "support/golden_file.h"
#include "present/pages/report_writer.h"
#include "present/pages/summary_writer.h"
#include "present/run_folder.h"
#include "support/report_fixture.h"
#include "support/report_number_trace.h"
#include "util/csv_reader.h"
#include "util/errors.h"
#include "support/xml_check.h"

namespace tierbench {
namespace {

TEST(ReportSummaryTest, MatchesGolden) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  ExpectGolden("report-summary.md", SummaryWriter(run).Markdown());
}

TEST(ReportSummaryTest, EveryNumberComesFromTheRunFolder) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const std::string md = SummaryWriter(run).Markdown();
  const Sources sources(run);
  const std::vector<Number> numbers = NumbersIn(md, true);
  EXPECT_GT(numbers.size(), 100u);  // the text does carry the figures
  for (const Number& n : numbers) {
    EXPECT_TRUE(sources.Has(n)) << n.text << " is in no file of the run";
  }
}

TEST(ReportSummaryTest, TheCheckerCatchesAnInventedNumber) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const Sources sources(run);
  EXPECT_TRUE(sources.Has({"4388", 0}));   // iops_median 4388.400
  EXPECT_TRUE(sources.Has({"29", 0}));     // 1 + 2843.26 / 100
  EXPECT_TRUE(sources.Has({"37", 0}));     // 100 - 63.31
  EXPECT_FALSE(sources.Has({"4391", 0}));  // no such figure
  EXPECT_FALSE(sources.Has({"12.345", 3}));
  // The confidence level is the method's constant, a share is a figure.
  EXPECT_EQ(NumbersIn("29x (95% CI 28x to 31x)", true).size(), 3u);
  EXPECT_EQ(NumbersIn("95% of the SSD", true).size(), 1u);
}

TEST(ReportSummaryTest, NoRatioWhereTheDifferenceIsWithinNoise) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const SummaryWriter summary(run);
  int checked = 0;
  for (const ReportFigure& f : run.figures()) {
    if (f.is_raw() || !f.series.empty()) continue;
    const std::string para = summary.WorkloadParagraph(f.workload);
    const size_t at = para.find(" " + f.mode + ": ");
    ASSERT_NE(at, std::string::npos) << f.mode << " in " << para;
    const std::string sentence = para.substr(at, para.find(". ", at + 1) - at);
    if (f.Invalid()) {
      // An invalid cell: its figure and why, never a ratio.
      EXPECT_NE(sentence.find("invalid ("), std::string::npos) << sentence;
      EXPECT_EQ(sentence.find("x the HDD"), std::string::npos) << sentence;
      EXPECT_EQ(sentence.find("of the SSD"), std::string::npos) << sentence;
      ++checked;
    } else if (f.within_noise_vs_hdd().value_or(false)) {
      EXPECT_NE(sentence.find("within noise of the HDD"), std::string::npos)
          << sentence;
      EXPECT_EQ(sentence.find("x the HDD"), std::string::npos) << sentence;
      ++checked;
    } else {
      EXPECT_NE(sentence.find("x the HDD"), std::string::npos) << sentence;
    }
  }
  EXPECT_GE(checked, 3);  // the fixture has modes within the HDD's noise
}

TEST(ReportSummaryTest, OneRepetitionSaysNoNoiseEstimate) {
  ScratchDir tmp("single");
  WriteSyntheticRun(tmp.path() + "/run", 2, 1);
  const RunFolder run = RunFolder::Read(tmp.path() + "/run");
  const std::string noise = SummaryWriter(run).NoiseStatement();
  EXPECT_NE(noise.find("every cell ran once"), std::string::npos) << noise;
}

// Manifest schema 4's `cpu`: the setup paragraph says whether QD1
// latencies include waking CPUs from idle; older manifests say nothing.
TEST(ReportSummaryTest, SetupSaysWhetherCpusIdled) {
  ScratchDir tmp("cpu");
  const std::string dir = tmp.CopyFixture();
  auto with_cpu = [&dir](const nlohmann::json& cpu) {
    nlohmann::json m =
        nlohmann::json::parse(std::ifstream(dir + "/manifest.json"));
    m["schema_version"] = 4;
    m["cpu"] = cpu;
    std::ofstream(dir + "/manifest.json") << m.dump(2);
    return SummaryWriter(RunFolder::Read(dir)).SetupParagraph();
  };
  const std::string old = SummaryWriter(RunFolder::Read(dir)).SetupParagraph();
  EXPECT_EQ(old.find("cpuidle"), std::string::npos) << old;
  const std::string held =
      with_cpu({{"cpuidle_driver", "haltpoll"}, {"latency_limit_us", 0}});
  EXPECT_NE(held.find("The CPUs idled through cpuidle haltpoll, with their "
                      "wake-up latency held at 0 us (no idle states: "
                      "latencies exclude wake-ups)."),
            std::string::npos)
      << held;
  const std::string idle = with_cpu(
      {{"cpuidle_driver", "intel_idle"}, {"latency_limit_us", 2000000000}});
  EXPECT_NE(idle.find("cpuidle intel_idle, with their idle states allowed "
                      "(QD1 latencies include waking a CPU from idle)."),
            std::string::npos)
      << idle;
}

TEST(ReportSummaryTest, WritesSelfContainedReportAndRefusesToOverwrite) {
  ScratchDir tmp("write");
  const std::string dir = tmp.CopyFixture();
  const ReportFiles files = WriteReport(dir, "", false);
  EXPECT_EQ(files.html, dir + "/report.html");
  // position + 3 x (iops, latency, percentiles) + drain of randwrite-4k
  // and anandtech-mix (randread-4k left nothing dirty: no drain chart);
  // no series.csv in this copy: no per-second charts
  EXPECT_EQ(files.charts.size(), 12u);
  for (const std::string& c : files.charts) {
    XmlCheck x;
    EXPECT_EQ(x.Parse(ReadText(c)), "") << c;
  }
  const std::string html = ReadText(files.html);
  for (const char* banned :
       {"<script", "<link", "src=", "@import", "url(", "https://", "<iframe"}) {
    EXPECT_EQ(html.find(banned), std::string::npos) << banned;
  }
  EXPECT_NE(html.find("@media print"), std::string::npos);
  EXPECT_NE(html.find("FAILED"), std::string::npos);
  EXPECT_NE(html.find("42% of IO bypassed"), std::string::npos);
  size_t svgs = 0;
  for (size_t p = html.find("<svg"); p != std::string::npos;
       p = html.find("<svg", p + 1)) {
    ++svgs;
  }
  EXPECT_EQ(svgs, files.charts.size());
  EXPECT_EQ(ReadText(files.summary),
            SummaryWriter(RunFolder::Read(dir)).Markdown());

  try {
    WriteReport(dir, "", false);
    ADD_FAILURE() << "overwrote without --force";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos);
  }
  EXPECT_NO_THROW(WriteReport(dir, "", true));
  const std::string other = tmp.path() + "/elsewhere";
  EXPECT_NO_THROW(WriteReport(dir, other, false));
  EXPECT_TRUE(std::filesystem::exists(other + "/charts/position.svg"));
}

}  // namespace
}  // namespace tierbench
