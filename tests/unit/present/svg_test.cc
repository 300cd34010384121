// The report's SVG charts: each is well-formed XML (tests/support/xml_check.h),
// has the expected number of bars, reference lines, whiskers and markers
// for the fixture run, axis titles with units, and stays readable with 20
// modes and 15 workloads (rotated, cut labels with the full text in a
// <title>, spaced so that they cannot overlap).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "present/charts/drain_chart.h"
#include "present/charts/iops_chart.h"
#include "present/charts/latency_chart.h"
#include "present/charts/position_table.h"
#include "present/charts/svg_writer.h"
#include "present/pages/summary_writer.h"
#include "present/report_format.h"
#include "present/run_folder.h"
#include "support/report_fixture.h"
#include "support/svg_check.h"

namespace tierbench {
namespace {

TEST(ReportSvgTest, IopsChartHasBarsReferenceLinesAndWhiskers) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const XmlCheck one = ParsedSvg(IopsChart(run, "randwrite-4k").Svg());
  EXPECT_EQ(one.elements()[0].name, "svg");
  EXPECT_EQ(one.elements()[0].attrs.at("data-chart"), "iops");
  // writethrough, writeback, writearound, none, dm-cache-writeback.
  EXPECT_EQ(one.WithClass("bar").size(), 5u);
  EXPECT_EQ(one.WithClass("whisker").size(), 5u);  // all have n >= 2
  EXPECT_EQ(one.WithClass("ref-hdd").size(), 1u);
  EXPECT_EQ(one.WithClass("ref-ssd").size(), 1u);
  EXPECT_TRUE(HasText(one, "axis-title", "IOPS (IOs/s, log scale)"));
  EXPECT_TRUE(HasText(one, "axis-title", "mode"));
  EXPECT_EQ(one.WithClass("failed").size(), 1u);  // none's repetition 2
  EXPECT_TRUE(HasText(one, "ref-label", "HDD 149"));

  const XmlCheck mix = ParsedSvg(IopsChart(run, "anandtech-mix").Svg());
  EXPECT_EQ(mix.WithClass("bar").size(), 10u);  // 5 modes x read, write
  EXPECT_EQ(mix.WithClass("ref-hdd").size(), 2u);
  EXPECT_EQ(mix.WithClass("ref-ssd").size(), 2u);
  EXPECT_EQ(mix.WithClass("warn-mark").size(), 4u);  // writeback, writearound
  EXPECT_EQ(mix.WithClass("failed").size(), 0u);
}

TEST(ReportSvgTest, BarHeightsFollowTheMedians) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const XmlCheck x = ParsedSvg(IopsChart(run, "randwrite-4k").Svg());
  const auto bars = x.WithClass("bar");
  ASSERT_EQ(bars.size(), 5u);
  auto height = [](const XmlCheck::Element* e) {
    return std::atof(e->attrs.at("height").c_str());
  };
  // writeback (4,388) over dm-cache-writeback (3,120) over writethrough.
  EXPECT_GT(height(bars[1]), height(bars[4]));
  EXPECT_GT(height(bars[4]), height(bars[0]));
  // HDD (149) and SSD (11,961) lie 80x apart: a log axis.
  EXPECT_TRUE(HasText(x, "axis-title", "IOPS (IOs/s, log scale)"));
}

TEST(ReportSvgTest, LatencyChartIsLogScaleWithThreePercentiles) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const XmlCheck x = ParsedSvg(LatencyChart(run, "randread-4k").Svg());
  EXPECT_EQ(x.elements()[0].attrs.at("data-chart"), "latency");
  EXPECT_EQ(x.WithClass("lat-p50").size(), 7u);  // every mode, raw included
  EXPECT_EQ(x.WithClass("lat-p99").size(), 7u);
  EXPECT_EQ(x.WithClass("lat-p999").size(), 7u);
  EXPECT_TRUE(HasText(x, "axis-title", "latency (log scale)"));
  EXPECT_TRUE(HasText(x, "tick-label", "10 ms"));
  EXPECT_TRUE(HasText(x, "tick-label", "100 us"));
  EXPECT_FALSE(x.WithClass("minor-tick").empty());
}

TEST(ReportSvgTest, DrainChartShowsCacheModesOnly) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  DrainChart drain(run, "randwrite-4k");
  ASSERT_TRUE(drain.HasData());
  const XmlCheck x = ParsedSvg(drain.Svg());
  EXPECT_EQ(x.WithClass("bar").size(), 5u);  // none: 2 of 3 repetitions
  EXPECT_TRUE(HasText(x, "axis-title", "time to clean (s)"));
  EXPECT_TRUE(HasText(x, "x-label", "writeback"));
  EXPECT_FALSE(HasText(x, "x-label", "hdd"));
  EXPECT_TRUE(HasText(x, "bar-value", "51 s"));  // writeback's median
  // randread-4k left nothing dirty: no chart.
  EXPECT_FALSE(DrainChart(run, "randread-4k").HasData());
}

TEST(ReportSvgTest, PositionTableIsModesByWorkloadSeries) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  PositionTable table(run);
  ASSERT_TRUE(table.HasData());
  EXPECT_EQ(table.rows(), 5u);
  EXPECT_EQ(table.columns(), 4u);
  const XmlCheck x = ParsedSvg(table.Svg());
  EXPECT_EQ(x.WithClass("heat-cell").size(), 20u);
  EXPECT_TRUE(HasText(x, "heat-value", "0.36"));  // writeback randwrite
  EXPECT_TRUE(HasText(x, "col-label", "anandtech-mix read"));
  EXPECT_EQ(PositionColor(-3), PositionColor(0));
  EXPECT_EQ(PositionColor(1), "#1a9850");
}

size_t Chars(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Horizontal labels fit their slot; rotated ones (-40 degrees) are spaced
// at least a line height apart perpendicular to the text.
void ExpectLabelsDoNotOverlap(const XmlCheck& x, const std::string& cls) {
  const auto labels = x.WithClass(cls);
  ASSERT_GE(labels.size(), 2u);
  for (size_t i = 1; i < labels.size(); ++i) {
    const double dx = std::atof(labels[i]->attrs.at("x").c_str()) -
                      std::atof(labels[i - 1]->attrs.at("x").c_str());
    if (labels[i]->attrs.count("transform")) {
      // Nothing runs off the left edge (7 px per glyph, as laid out).
      const double x = std::atof(labels[i - 1]->attrs.at("x").c_str());
      EXPECT_GE(
          x - Chars(labels[i - 1]->text) * 7.0 * std::cos(40 * M_PI / 180), 0.0)
          << labels[i - 1]->text;
      EXPECT_GE(dx * std::sin(40 * M_PI / 180), 12.0) << cls;
    } else {
      EXPECT_GE(dx, labels[i]->text.size() * 6.4) << labels[i]->text;  // glyphs
    }
  }
}

TEST(ReportSvgTest, TwentyModesAndFifteenWorkloadsStayReadable) {
  ScratchDir tmp("many");
  WriteSyntheticRun(tmp.path() + "/run", 20, 15);
  const RunFolder run = RunFolder::Read(tmp.path() + "/run");
  const XmlCheck iops = ParsedSvg(IopsChart(run, run.workloads()[3]).Svg());
  EXPECT_EQ(iops.WithClass("bar").size(), 20u);
  ExpectLabelsDoNotOverlap(iops, "x-label");
  // Long names are cut, the full name is the label's <title>.
  const auto labels = iops.WithClass("x-label");
  EXPECT_NE(labels[0]->text.find("\u2026"), std::string::npos);
  bool full = false;
  for (const auto& e : iops.elements()) {
    full = full || (e.name == "title" &&
                    e.text == "bcache-writeback-with-a-long-name-0");
  }
  EXPECT_TRUE(full);
  const XmlCheck lat = ParsedSvg(LatencyChart(run, run.workloads()[0]).Svg());
  ExpectLabelsDoNotOverlap(lat, "x-label");
  PositionTable table(run);
  EXPECT_EQ(table.rows(), 20u);
  EXPECT_EQ(table.columns(), 15u);
  const XmlCheck heat = ParsedSvg(table.Svg());
  EXPECT_EQ(heat.WithClass("heat-cell").size(), 300u);
  ExpectLabelsDoNotOverlap(heat, "col-label");
}

// Cache modes whose rate drifted within the run are hatched "not steady",
// as the verdict does not rank them (run pg1, pgbench-drift-*: every cache
// mode drifted).
TEST(ReportSvgTest, PositionTableHatchesCellsThatWereNotSteady) {
  const RecordedLabRun recorded("pgbench-drift");
  const RunFolder run = RunFolder::Read(recorded.path());
  PositionTable table(run);
  ASSERT_TRUE(table.HasData());
  const std::string svg = table.Svg();
  const XmlCheck heat = ParsedSvg(svg);
  EXPECT_EQ(heat.WithClass("heat-invalid").size(), 4u) << svg;
  EXPECT_NE(svg.find("writeback on pgbench-tpcb: not steady, not ranked: job "
                     "pgbench-tpcb went from 59 to 23 IO/s"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("Hatched: invalid or not steady, not ranked."),
            std::string::npos);
}

TEST(ReportSvgTest, FewModesGetWideSlotsAndALinearAxis) {
  ScratchDir tmp("one");
  WriteSyntheticRun(tmp.path() + "/run", 1, 1);
  const RunFolder run = RunFolder::Read(tmp.path() + "/run");
  const XmlCheck x = ParsedSvg(IopsChart(run, run.workloads()[0]).Svg());
  EXPECT_EQ(x.WithClass("bar").size(), 1u);
  EXPECT_EQ(x.WithClass("whisker").size(), 0u);  // n = 1
  // One mode: the bar (at most 30 px) centred in its slot, under its label
  // (anchored 3 px right of the slot's centre).
  const auto* bar = x.WithClass("bar")[0];
  const double bw = std::atof(bar->attrs.at("width").c_str());
  EXPECT_LE(bw, 30.0);
  const double label_x =
      std::atof(x.WithClass("x-label")[0]->attrs.at("x").c_str());
  EXPECT_NEAR(std::atof(bar->attrs.at("x").c_str()) + bw / 2, label_x - 3.1,
              1.0);
  EXPECT_GE(std::atof(x.elements()[0].attrs.at("width").c_str()), 380.0);

  ScratchDir tmp2("linear");
  WriteSyntheticRun(tmp2.path() + "/run", 3, 1, /*ssd_iops=*/1200);
  const RunFolder lin = RunFolder::Read(tmp2.path() + "/run");
  const XmlCheck y = ParsedSvg(IopsChart(lin, lin.workloads()[0]).Svg());
  EXPECT_TRUE(HasText(y, "axis-title", "IOPS (IOs/s)"));
  EXPECT_FALSE(HasText(y, "axis-title", "log scale"));
  const auto bars = y.WithClass("bar");
  ASSERT_EQ(bars.size(), 3u);  // IOPS 200, 700, 1200: heights in proportion
  const double h0 = std::atof(bars[0]->attrs.at("height").c_str());
  const double h2 = std::atof(bars[2]->attrs.at("height").c_str());
  EXPECT_NEAR(h2 / h0, 1200.0 / 200.0, 0.1);
}

TEST(ReportSvgTest, EscapesTextAndCutsLabels) {
  EXPECT_EQ(SvgWriter::Escape("a<b & \"c\"'"),
            "a&lt;b &amp; &quot;c&quot;&apos;");
  EXPECT_EQ(Truncate("abcdef", 4), "abc\u2026");
  EXPECT_EQ(Truncate("abcd", 4), "abcd");
  EXPECT_EQ(Abbreviate("bcache-writeback-variant-3-long", 12),
            "bcac\u2026-3-long");
  EXPECT_EQ(Abbreviate("short", 12), "short");
  EXPECT_EQ(Slug("randread-zipf@25%"), "randread-zipf-25");
  EXPECT_EQ(GroupedNumber(1234567.891, 1), "1,234,567.9");
  EXPECT_EQ(GroupedNumber(-0.04, 1), "0.0");
  EXPECT_EQ(FormatTimes(2843.26), "29x");
  EXPECT_EQ(FormatLatencyUs(9371.6), "9.4 ms");
}

}  // namespace
}  // namespace tierbench

namespace tierbench {
namespace {

void ReplaceAll(const std::string& path, const std::string& from,
                const std::string& to) {
  std::string text = ReadText(path);
  for (size_t p = text.find(from); p != std::string::npos;
       p = text.find(from, p + to.size())) {
    text.replace(p, from.size(), to);
  }
  std::ofstream(path, std::ios::trunc) << text;
}

TEST(ReportSvgTest, TransactionsAreDrawnAsTps) {
  ScratchDir tmp("tx");
  const std::string dir = tmp.path() + "/run";
  WriteSyntheticRun(dir, 2, 1);
  ReplaceAll(dir + "/runs.csv", ",read,io,", ",read,tx,");
  ReplaceAll(dir + "/comparison.csv", ",read,io,", ",read,tx,");
  const RunFolder run = RunFolder::Read(dir);
  const XmlCheck iops = ParsedSvg(IopsChart(run, run.workloads()[0]).Svg());
  EXPECT_TRUE(HasText(iops, "axis-title", "tps (transactions/s"));
  EXPECT_TRUE(HasText(iops, "chart-title", "tps per mode"));
  const XmlCheck lat = ParsedSvg(LatencyChart(run, run.workloads()[0]).Svg());
  EXPECT_EQ(lat.WithClass("lat-p50").size(), 4u);   // lat_p50_us for tx
  EXPECT_EQ(lat.WithClass("lat-p999").size(), 0u);  // no p99.9 for tx
  EXPECT_NE(SummaryWriter(run).Markdown().find(" tps ("), std::string::npos);
}

TEST(ReportSvgTest, AModeWhoseCellsAllFailedIsMarked) {
  ScratchDir tmp("failed");
  const std::string dir = tmp.path() + "/run";
  WriteSyntheticRun(dir, 2, 1);
  const RunFolder probe = RunFolder::Read(dir);
  const std::string wl = probe.workloads()[0];
  std::ofstream(dir + "/runs.csv", std::ios::app)
      << "3,broken,bcache," << wl << ",1," << wl
      << ",read,io,0,,,,,,open failed: No such device,\n";
  const RunFolder run = RunFolder::Read(dir);
  ASSERT_EQ(run.failures().size(), 1u);
  const XmlCheck x = ParsedSvg(IopsChart(run, wl).Svg());
  EXPECT_EQ(x.WithClass("bar").size(), 2u);
  ASSERT_EQ(x.WithClass("failed").size(), 1u);
  EXPECT_EQ(x.WithClass("failed")[0]->text, "failed");
  const std::string md = SummaryWriter(run).Markdown();
  EXPECT_NE(md.find("broken: failed (see the caveats)."), std::string::npos);
  EXPECT_NE(md.find("Failed cell broken on " + wl +
                    ", repetition 1: open failed: No such device"),
            std::string::npos)
      << md;
}

}  // namespace
}  // namespace tierbench
