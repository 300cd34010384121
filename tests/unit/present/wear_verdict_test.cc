// What each mode cost the SSD, as the report states it
// (present/wear_verdict.h, charts/wear_chart.h), on a copy of the fixture
// run given wear medians: the verdict's wear line quotes only valid, steady
// modes with the state they measured and names the rest as not ranked; a
// mode that wrote nothing reads "nothing", a read-only figure says so; the
// chart is readable without the CSV. The fixture itself (no wear figures)
// gets neither line nor chart.
#include "present/wear_verdict.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "present/charts/wear_chart.h"
#include "present/run_folder.h"
#include "present/verdict.h"
#include "support/report_fixture.h"
#include "support/svg_check.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"

namespace tierbench {
namespace {

// Sets comparison.csv's wear medians of `dir`: per mode, the SSD bytes per
// application byte and per application write ("" leaves it empty) on every
// row of `workload`.
void SetWear(
    const std::string& dir, const std::string& workload,
    const std::map<std::string, std::pair<std::string, std::string>>& by_mode) {
  const std::string path = dir + "/comparison.csv";
  const CsvDocument doc = CsvDocument::Parse(ReadText(path), path);
  std::vector<std::string> names(doc.header().begin() + 1, doc.header().end());
  CsvTable table(names, 6);
  for (size_t r = 0; r < doc.row_count(); ++r) {
    std::vector<std::string> row;
    for (const std::string& c : names) row.push_back(doc.Get(r, c));
    auto it = by_mode.find(doc.Get(r, "mode"));
    if (doc.Get(r, "workload") == workload && it != by_mode.end()) {
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "ssd_write_per_app_byte_median")
          row[i] = it->second.first;
        if (names[i] == "ssd_write_per_app_write_median")
          row[i] = it->second.second;
      }
    }
    table.AddRow(std::move(row));
  }
  std::ostringstream out;
  table.Write(out);
  std::ofstream(path, std::ios::trunc) << out.str();
}

const VerdictLine* WearLine(const Verdict& v, const std::string& workload) {
  for (const VerdictLine& l : v.lines) {
    if (l.workload == workload &&
        l.text.rfind(workload + ": SSD wear", 0) == 0) {
      return &l;
    }
  }
  return nullptr;
}

// A warmed mode that wrote nothing in its window says so with the
// qualifier: its warm-up, which filled the cache, is not counted ("nothing"
// must not read as "never").
TEST(WearVerdictTest, NothingOnceWarmSaysTheWarmUpIsNotCounted) {
  ScratchDir tmp("wear-warm");
  const std::string dir = tmp.CopyFixture();
  SetWear(dir, "randwrite-4k",
          {{"writeback", {"1.020000", "1.020000"}},
           {"none", {"0.000000", "0.000000"}}});
  const std::string runs = dir + "/runs.csv";
  const CsvDocument doc = CsvDocument::Parse(ReadText(runs), runs);
  std::vector<std::string> names(doc.header().begin() + 1, doc.header().end());
  CsvTable table(names, std::stoi(doc.Get(0, "schema_version")));
  for (size_t r = 0; r < doc.row_count(); ++r) {
    std::vector<std::string> row;
    for (const std::string& c : names) {
      row.push_back(c == "cache_state" ? "warm-until-steady" : doc.Get(r, c));
    }
    table.AddRow(std::move(row));
  }
  std::ostringstream out;
  table.Write(out);
  std::ofstream(runs, std::ios::trunc) << out.str();

  const Verdict v = BuildVerdict(RunFolder::Read(dir), nullptr);
  const VerdictLine* line = WearLine(v, "randwrite-4k");
  ASSERT_NE(line, nullptr) << VerdictText(v);
  EXPECT_EQ(line->text,
            "randwrite-4k: SSD wear (steady state): writeback writes 1.0 B to "
            "the SSD per byte the application read or wrote; none writes "
            "nothing to the SSD once warm (the warm-up that filled the cache, "
            "and what it wrote to the SSD, is outside the measured window).");
}

TEST(WearVerdictTest, OnlyValidModesAreQuotedWithTheirState) {
  ScratchDir tmp("wear");
  const std::string dir = tmp.CopyFixture();
  // randread-4k: writethrough, writeback and writearound are invalid (cold
  // reads); none wrote nothing; dm-cache promoted reads.
  SetWear(dir, "randread-4k",
          {{"writethrough", {"1.000000", ""}},
           {"writeback", {"1.000000", ""}},
           {"writearound", {"1.000000", ""}},
           {"none", {"0.000000", ""}},
           {"dm-cache-writeback", {"1.912000", ""}}});
  SetWear(dir, "randwrite-4k",
          {{"writeback", {"1.020000", "1.020000"}},
           {"none", {"0.004000", "0.004000"}}});
  const RunFolder run = RunFolder::Read(dir);
  const Verdict v = BuildVerdict(run, nullptr);

  const VerdictLine* read = WearLine(v, "randread-4k");
  ASSERT_NE(read, nullptr) << VerdictText(v);
  EXPECT_EQ(read->text,
            "randread-4k: SSD wear (cold cache): dm-cache-writeback writes "
            "1.9 B (all of it for reads: the application wrote nothing) to "
            "the SSD per byte the application read or wrote; none writes "
            "nothing to the SSD.");
  EXPECT_EQ(read->quoted_modes,
            (std::vector<std::string>{"none", "dm-cache-writeback"}));
  for (const char* invalid : {"writethrough", "writeback", "writearound"}) {
    // Never named (" writeback", not the tail of "dm-cache-writeback").
    EXPECT_EQ(read->text.find(std::string(" ") + invalid), std::string::npos)
        << invalid;
    EXPECT_NE(
        std::find(read->not_ranked.begin(), read->not_ranked.end(), invalid),
        read->not_ranked.end())
        << invalid;
  }
  const VerdictLine* write = WearLine(v, "randwrite-4k");
  ASSERT_NE(write, nullptr) << VerdictText(v);
  EXPECT_NE(write->text.find("writeback writes 1.0 B and none writes under "
                             "0.01 B to the SSD"),
            std::string::npos)
      << write->text;
  // No figure, no line: anandtech-mix has none.
  EXPECT_EQ(WearLine(v, "anandtech-mix"), nullptr);
}

TEST(WearVerdictTest, NoFiguresNoLineAndNoChart) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  const Verdict v = BuildVerdict(run, nullptr);
  for (const std::string& w : run.workloads()) {
    EXPECT_EQ(WearLine(v, w), nullptr) << w;
    EXPECT_FALSE(WearChart(run, w).HasData()) << w;
  }
}

TEST(WearVerdictTest, TheChartIsReadableWithoutTheCsv) {
  ScratchDir tmp("wear-chart");
  const std::string dir = tmp.CopyFixture();
  SetWear(dir, "randread-4k",
          {{"writeback", {"1.000000", ""}},
           {"none", {"0.000000", ""}},
           {"dm-cache-writeback", {"1.912000", ""}}});
  const RunFolder run = RunFolder::Read(dir);
  WearChart chart(run, "randread-4k");
  ASSERT_TRUE(chart.HasData());
  const XmlCheck x = ParsedSvg(chart.Svg());
  EXPECT_EQ(x.WithClass("bar").size(), 3u);
  EXPECT_TRUE(HasText(x, "axis-title", "(B/B)"));
  EXPECT_TRUE(HasText(x, "axis-title", "cache mode"));
  EXPECT_TRUE(HasText(x, "x-label", "writeback (invalid)"));
  EXPECT_TRUE(HasText(x, "x-label", "dm-cache-writeback"));
  EXPECT_TRUE(HasText(x, "bar-value", "1.9 B"));
  EXPECT_TRUE(HasText(x, "bar-value", "none"));
  EXPECT_NE(chart.Svg().find("randread-4k: SSD wear (cold cache)"),
            std::string::npos);
  EXPECT_EQ(FormatBytesPerByte(0.004), "under 0.01 B");
  EXPECT_EQ(FormatBytesPerByte(0.05), "0.05 B");
  EXPECT_EQ(FormatBytesPerByte(12.3), "12 B");
}

}  // namespace
}  // namespace tierbench
