// The per-second chart (series.csv) and the latency percentile curves:
// well-formed SVG (tests/support/xml_check.h), one line per mode, axis titles
// with units, a legend that does not overlap with 20 long mode names, the
// warm-up shading, and a run folder without series.csv still reporting
// with one line that says why the per-second chart is missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "present/charts/percentile_chart.h"
#include "present/charts/series_chart.h"
#include "present/pages/report_writer.h"
#include "present/run_folder.h"
#include "present/series_file.h"
#include "report/runs_csv_reporter.h"
#include "support/report_fixture.h"
#include "support/svg_check.h"
#include "util/errors.h"

namespace tierbench {
namespace {

SeriesFile FixtureSeries() {
  std::string note;
  auto file = SeriesFile::Read(FixtureRunDir(), &note);
  EXPECT_TRUE(file.has_value()) << note;
  EXPECT_EQ(note, "");
  return *file;
}

TEST(ReportSeriesChartTest, FixtureHeaderIsTheColumnsCompareWrites) {
  const std::string text = ReadText(FixtureRunDir() + "/series.csv");
  std::vector<std::string> header = {"schema_version"};
  for (const std::string& c : SeriesCsvColumns()) header.push_back(c);
  EXPECT_EQ(CsvDocument::Parse(text, "series.csv").header(), header)
      << "series.csv changed: update tests/golden/report-run/make_fixture.py";
  EXPECT_EQ(SeriesFile::kSchema, kSeriesCsvSchemaVersion);
}

TEST(ReportSeriesChartTest, OneLinePerModeInEachPanelWithUnits) {
  const SeriesFile file = FixtureSeries();
  const XmlCheck x = ParsedSvg(SeriesChart(file, "randread-4k").Svg());
  EXPECT_EQ(x.elements()[0].attrs.at("data-chart"), "series");
  // hdd, ssd, 4 bcache modes, dm-cache-writeback.
  EXPECT_EQ(x.WithClass("series-iops").size(), 7u);
  // Reads hit only where the mode caches them: writethrough, writeback,
  // dm-cache-writeback (none and writearound count no hits, raw has none).
  EXPECT_EQ(x.WithClass("series-hit").size(), 3u);
  // Every cache mode reports its dirty data (0 is known); raw does not.
  EXPECT_EQ(x.WithClass("series-dirty").size(), 5u);
  EXPECT_EQ(x.WithClass("legend").size(), 7u);
  // HDD ~150 and SSD ~13,000 IOPS: a log axis, as the IOPS chart's.
  EXPECT_TRUE(HasText(x, "axis-title", "IOPS, read + write (1/s, log scale)"));
  EXPECT_TRUE(HasText(x, "axis-title", "read hit ratio (%)"));
  EXPECT_TRUE(HasText(x, "axis-title", "dirty data ("));
  EXPECT_TRUE(
      HasText(x, "axis-title", "time since the measured window started (s)"));
  EXPECT_EQ(x.WithClass("warm-region").size(), 0u);  // a cold run
  // randwrite-4k: writeback modes drain after the run.
  const XmlCheck w = ParsedSvg(SeriesChart(file, "randwrite-4k").Svg());
  EXPECT_EQ(w.WithClass("series-iops").size(), 7u);   // none's rep 1 ran
  EXPECT_EQ(w.WithClass("series-hit").size(), 0u);    // no reads
  EXPECT_EQ(w.WithClass("drain-region").size(), 2u);  // IOPS + dirty panels
  EXPECT_TRUE(HasText(w, "axis-title", "dirty data (MiB)"));
}

TEST(ReportSeriesChartTest, IopsLineFollowsTheWarmUp) {
  const SeriesFile file = FixtureSeries();
  const XmlCheck x = ParsedSvg(SeriesChart(file, "randwrite-4k").Svg());
  // writeback's line (the 4th mode) rises: its last point is higher (a
  // smaller y) than its first.
  const auto lines = x.WithClass("series-iops");
  ASSERT_GE(lines.size(), 4u);
  const std::string pts = lines[3]->attrs.at("points");
  const double first_y = std::atof(pts.substr(pts.find(',') + 1).c_str());
  const double last_y = std::atof(pts.substr(pts.rfind(',') + 1).c_str());
  EXPECT_LT(last_y, first_y);
}

std::string SyntheticSeries(int modes, bool warm) {
  std::string text =
      "schema_version,run_id,mode,layer,workload,repetition,phase,t_s,"
      "read_iops,write_iops,hit_ratio_pct,dirty_bytes\n";
  for (int m = 0; m < modes; ++m) {
    const std::string mode =
        "bcache-writeback-with-a-long-name-" + std::to_string(m);
    auto row = [&](const std::string& phase, int t, const std::string& iops,
                   const std::string& hit, const std::string& dirty) {
      text += "1,s," + mode + ",bcache,w,1," + phase + "," + std::to_string(t) +
              ".0," + iops + "," + (iops.empty() ? "" : "0") + "," + hit + "," +
              dirty + "\n";
    };
    if (warm) {
      for (int t = -6; t < 0; ++t) row("warm", t, "100", "20.0", "0");
    }
    for (int t = 0; t < 10; ++t)
      row("measure", t, std::to_string(200 + 30 * m + t), "50.0", "4096");
    row("drain", 11, "", "", "0");
  }
  return text;
}

TEST(ReportSeriesChartTest, TwentyModesKeepTheLegendApart) {
  const SeriesFile file = SeriesFile::Parse(SyntheticSeries(20, false), "t");
  const XmlCheck x = ParsedSvg(SeriesChart(file, "w").Svg());
  EXPECT_EQ(x.WithClass("series-iops").size(), 20u);
  EXPECT_EQ(x.WithClass("series-hit").size(), 20u);
  // 200 .. 779 IOPS lie less than 30x apart: a linear axis.
  EXPECT_TRUE(HasText(x, "axis-title", "IOPS, read + write (1/s)"));
  const auto legend = x.WithClass("legend");
  ASSERT_EQ(legend.size(), 20u);
  // Items on one row stand at least their text's width apart (7 px per
  // character, generous for font-size 11), the full name in a <title>.
  std::map<std::string, std::vector<std::pair<double, size_t>>> rows;
  for (const auto* e : legend) {
    rows[e->attrs.at("y")].push_back(
        {std::atof(e->attrs.at("x").c_str()), e->text.size()});
  }
  EXPECT_GT(rows.size(), 1u);  // wrapped
  for (auto& [y, items] : rows) {
    std::sort(items.begin(), items.end());
    for (size_t i = 1; i < items.size(); ++i) {
      EXPECT_GE(items[i].first - items[i - 1].first,
                7.0 * static_cast<double>(items[i - 1].second))
          << "legend row y=" << y;
    }
  }
  const double width = std::atof(x.elements()[0].attrs.at("width").c_str());
  for (const auto* e : legend) {
    EXPECT_LT(std::atof(e->attrs.at("x").c_str()) + 7.0 * e->text.size(),
              width + 1);
  }
}

TEST(ReportSeriesChartTest, WarmUpChunksAreShaded) {
  const SeriesFile file = SeriesFile::Parse(SyntheticSeries(6, true), "t");
  const XmlCheck x = ParsedSvg(SeriesChart(file, "w").Svg());
  EXPECT_EQ(x.WithClass("warm-region").size(), 3u);  // one per panel
  EXPECT_TRUE(HasText(x, "region-label", "warm-up"));
  EXPECT_EQ(x.WithClass("series-iops").size(), 6u);
  // Negative seconds on the time axis.
  EXPECT_TRUE(HasText(x, "tick-label", "-"));
}

TEST(ReportSeriesChartTest, PercentileCurvesOnANinesAxis) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const XmlCheck x = ParsedSvg(PercentileChart(run, "randread-4k").Svg());
  EXPECT_EQ(x.elements()[0].attrs.at("data-chart"), "percentiles");
  EXPECT_EQ(x.WithClass("pct-curve").size(), run.modes().size());
  // p50 .. p99.99: 11 histogram percentiles per mode.
  EXPECT_EQ(x.WithClass("pct-point").size(), 11 * run.modes().size());
  EXPECT_TRUE(HasText(x, "axis-title", "completion latency (log scale)"));
  EXPECT_TRUE(HasText(x, "axis-title", "percentile (%, nines scale"));
  for (const char* tick : {"50", "90", "99", "99.9", "99.99"}) {
    bool found = false;
    for (const auto* e : x.WithClass("tick-label")) found |= e->text == tick;
    EXPECT_TRUE(found) << tick;
  }
  // The nines are equally spaced.
  std::map<std::string, double> tick_x;
  for (const auto* e : x.WithClass("tick-label")) {
    if (e->attrs.at("text-anchor") == "middle")
      tick_x[e->text] = std::atof(e->attrs.at("x").c_str());
  }
  EXPECT_NEAR(tick_x["99.9"] - tick_x["99"], tick_x["99.99"] - tick_x["99.9"],
              0.2);
  // Two series (read, write) per mode on the mixed workload.
  const PercentileChart mix(run, "anandtech-mix");
  EXPECT_EQ(mix.CurveCount(), 2 * run.modes().size());
  EXPECT_EQ(ParsedSvg(mix.Svg()).WithClass("pct-curve").size(),
            2 * run.modes().size());
}

TEST(ReportSeriesChartTest, ReportEmbedsBothAndOlderRunsSayWhy) {
  ScratchDir tmp("series");
  // A run folder from before series.csv: still a report, one line saying so.
  const std::string old_dir = tmp.CopyFixture("old");
  const RunFolder old_run = RunFolder::Read(old_dir);
  const ReportWriter old_report(old_run);
  ASSERT_EQ(old_report.notes().size(), 1u);
  EXPECT_NE(old_report.notes()[0].find("needs a newer run"), std::string::npos);
  EXPECT_EQ(old_report.notes()[0].find('\n'), std::string::npos);
  size_t series = 0, percentiles = 0;
  for (const ChartFile& c : old_report.charts()) {
    series += c.kind == "series";
    percentiles += c.kind == "percentiles";
  }
  EXPECT_EQ(series, 0u);
  EXPECT_EQ(percentiles, old_run.workloads().size());
  EXPECT_NE(old_report.Html().find("needs a newer run"), std::string::npos);

  const std::string dir = tmp.CopyFixture("new");
  std::filesystem::copy_file(FixtureRunDir() + "/series.csv",
                             dir + "/series.csv");
  const RunFolder run = RunFolder::Read(dir);
  const ReportWriter report(run);
  EXPECT_TRUE(report.notes().empty());
  const ReportFiles files = report.Write(dir, false);
  for (const std::string& w : run.workloads()) {
    for (const std::string kind : {"series-", "percentiles-"}) {
      const std::string path = dir + "/charts/" + kind + w + ".svg";
      ASSERT_TRUE(std::filesystem::exists(path)) << path;
      ParsedSvg(ReadText(path));
    }
  }
  const std::string html = ReadText(files.html);
  EXPECT_NE(html.find("data-chart=\"series\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"percentiles\""), std::string::npos);
  EXPECT_EQ(html.find("needs a newer run"), std::string::npos);
}

TEST(ReportSeriesChartTest, BrokenSeriesCsvIsOneLineAndOtherVersionsANote) {
  try {
    SeriesFile::Parse("schema_version,mode\n1,a\n", "x/series.csv");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("x/series.csv: missing column"), std::string::npos);
    EXPECT_NE(what.find("Fix: "), std::string::npos);
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  ScratchDir tmp("series-v2");
  const std::string dir = tmp.CopyFixture();
  std::ofstream(dir + "/series.csv") << "schema_version,other\n2,x\n";
  std::string note;
  EXPECT_FALSE(SeriesFile::Read(dir, &note).has_value());
  EXPECT_NE(note.find("schema_version 2"), std::string::npos);
}

}  // namespace
}  // namespace tierbench
