// present/hit_bound.h and the read-hits chart on a fake run folder: the
// golden fixture (tests/golden/report-run/, cold cells; writethrough,
// writeback and writearound invalid on randread-4k) with measured read hit
// ratios filled into runs.csv and an mrc.csv beside it. Invalid cells get
// no line and no point; valid ones get "<name> (<size> cache) reached X%
// read hits; LRU at this size Y%, OPT Z% (<state>, <block> blocks)."
#include "present/hit_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "present/pages/report_writer.h"
#include "present/run_folder.h"
#include "present/verdict.h"
#include "support/report_fixture.h"
#include "support/svg_check.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// Sets `column` of the rows of `mode` on `workload` in `file` (a CSV of the
// run folder) to values[repetition - 1] (comparison.csv: values[0]).
void HbtSet(const std::string& file, const std::string& mode,
            const std::string& workload, const std::string& column,
            const std::vector<std::string>& values) {
  const CsvDocument doc = CsvDocument::Parse(ReadText(file), file);
  std::vector<std::vector<std::string>> rows = {doc.header()};
  rows.insert(rows.end(), doc.rows().begin(), doc.rows().end());
  const auto col = [&](const std::string& name) {
    for (size_t i = 0; i < rows[0].size(); ++i) {
      if (rows[0][i] == name) return i;
    }
    ADD_FAILURE() << file << " has no column " << name;
    return size_t{0};
  };
  const size_t c = col(column), m = col("mode"), w = col("workload");
  const bool runs = doc.Has("repetition");
  const size_t rep = runs ? col("repetition") : 0;
  int changed = 0;
  for (size_t r = 1; r < rows.size(); ++r) {
    if (rows[r][m] != mode || rows[r][w] != workload) continue;
    const size_t i = runs ? std::stoul(rows[r][rep]) - 1 : 0;
    ASSERT_LT(i, values.size());
    rows[r][c] = values[i];
    ++changed;
  }
  ASSERT_GT(changed, 0) << mode << " on " << workload;
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (const std::string& v : row) {
      line += (line.empty() ? "" : ",") + CsvTable::Escape(v);
    }
    text += line + "\n";
  }
  std::ofstream(file) << text;
}

const char kHbtMrc[] =
    "schema_version,workload,state,block_bytes,cache_bytes,lru_read_hit_pct,"
    "opt_read_hit_pct,at_stack,modes,sample_rate\n"
    "1,randread-4k,cold,4096,1048576,5.000,9.000,0,,1\n"
    "1,randread-4k,cold,4096,1073741824,72.000,84.000,1,"
    "writeback;none;dm-cache-writeback,1\n"
    "1,randread-4k,cold,4096,4294967296,90.000,95.000,0,,1\n"
    // A warm curve: no cell of this cold run may be put against it.
    "1,randread-4k,warm,4096,1073741824,80.000,90.000,1,none,1\n";

class HitBoundTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_.CopyFixture();
    HbtSet(dir_ + "/runs.csv", "dm-cache-writeback", "randread-4k",
           "read_hit_ratio_pct", {"58.0", "70.0", "61.0"});
    HbtSet(dir_ + "/runs.csv", "writeback", "randread-4k", "read_hit_ratio_pct",
           {"1.0", "1.0", "1.0"});
    HbtSet(dir_ + "/comparison.csv", "none", "randread-4k", "finding_rules",
           {"bcache.cutoff:caution"});
    // Invalid for a reason besides its cold cache (the golden run's
    // writeback is invalid by cold-reads alone).
    HbtSet(dir_ + "/comparison.csv", "writeback", "randread-4k",
           "finding_rules", {"cold-reads:invalid;cpu-bound:invalid"});
    std::ofstream(dir_ + "/mrc.csv") << kHbtMrc;
  }
  ScratchDir scratch_{"hit-bound"};
  std::string dir_;
};

TEST_F(HitBoundTest, ValidCellsGetTheirLineInvalidOnesNone) {
  const RunFolder run = RunFolder::Read(dir_);
  ASSERT_EQ(run.read_hit_curves().size(), 2u);
  const std::vector<HitBoundCell> cells = HitBoundCells(run, "randread-4k");
  ASSERT_EQ(cells.size(), 2u);  // writeback is invalid; the warm curve unused
  EXPECT_EQ(cells[0].mode, "none");
  EXPECT_FALSE(cells[0].measured_pct.has_value());
  EXPECT_EQ(cells[0].bypass_rules, std::vector<std::string>{"bcache.cutoff"});
  EXPECT_EQ(cells[1].mode, "dm-cache-writeback");
  ASSERT_TRUE(cells[1].measured_pct.has_value());
  EXPECT_DOUBLE_EQ(*cells[1].measured_pct, 61.0);  // median of 58, 70, 61

  const std::vector<VerdictLine> lines = HitBoundLines(run, "randread-4k");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].text,
            "randread-4k: dm-cache-writeback (1GiB cache) reached 61% read "
            "hits; LRU at this size 72%, OPT 84% (cold, 4KiB blocks).");
  EXPECT_EQ(lines[1].quoted_modes,
            std::vector<std::string>{"dm-cache-writeback"});
  EXPECT_EQ(lines[0].text,
            "randread-4k: bcache none (1GiB cache) has no read-hit figure; LRU "
            "at this size 72%, OPT 84% (cold, 4KiB blocks). Part of its IO "
            "bypassed the cache (bcache.cutoff): those reads were never the "
            "policy's to hit.");
  EXPECT_TRUE(HitBoundLines(run, "randwrite-4k").empty());

  // The verdict carries them; no line quotes the invalid writeback cell.
  const Verdict v = BuildVerdict(run, nullptr);
  int found = 0;
  for (const VerdictLine& l : v.lines) {
    found += l.text == lines[1].text;
    if (l.workload != "randread-4k") continue;
    for (const std::string& m : l.quoted_modes) EXPECT_NE(m, "writeback");
    EXPECT_EQ(l.text.find("bcache writeback ("), std::string::npos) << l.text;
  }
  EXPECT_EQ(found, 1);
}

// A cell invalid only because its cache was cold (its throughput is the
// origin's) still has a cold cache's read hits, what the cold curve
// models: it gets its point and line; against a warm curve it would not.
TEST_F(HitBoundTest, ACellInvalidOnlyForItsColdCacheIsPutAgainstTheColdCurve) {
  HbtSet(dir_ + "/comparison.csv", "writeback", "randread-4k", "finding_rules",
         {"cold-reads:invalid"});
  const RunFolder run = RunFolder::Read(dir_);
  const std::vector<HitBoundCell> cells = HitBoundCells(run, "randread-4k");
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].mode, "writeback");
  EXPECT_FALSE(cells[0].warm);
  ASSERT_TRUE(cells[0].measured_pct.has_value());
  EXPECT_DOUBLE_EQ(*cells[0].measured_pct, 1.0);
  const std::vector<VerdictLine> lines = HitBoundLines(run, "randread-4k");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].text,
            "randread-4k: bcache writeback (1GiB cache) reached 1% read hits; "
            "LRU at this size 72%, OPT 84% (cold, 4KiB blocks).");
  // A layer's own cold rule counts the same; any other invalid rule beside
  // it keeps the cell out.
  HbtSet(dir_ + "/comparison.csv", "writeback", "randread-4k", "finding_rules",
         {"dm-cache.cold:invalid;bcache.cutoff:caution"});
  EXPECT_EQ(HitBoundCells(RunFolder::Read(dir_), "randread-4k").size(), 3u);
  HbtSet(dir_ + "/comparison.csv", "writeback", "randread-4k", "finding_rules",
         {"dm-cache.cold:invalid;drift:invalid"});
  EXPECT_EQ(HitBoundCells(RunFolder::Read(dir_), "randread-4k").size(), 2u);
  // A cold cell's rate rises as its cache fills: its drift caution keeps
  // it against the cold curve (the lab's cold Zipf cell, 2026-12-05).
  HbtSet(dir_ + "/comparison.csv", "writeback", "randread-4k", "finding_rules",
         {"cold-reads:invalid;drift:caution"});
  EXPECT_EQ(HitBoundCells(RunFolder::Read(dir_), "randread-4k").size(), 3u);
}

TEST_F(HitBoundTest, ReportDrawsCurvesAndPoints) {
  ScratchDir out("hit-bound-out");
  const ReportFiles files = WriteReport(dir_, out.path(), false);
  const std::string chart = out.path() + "/charts/read-hits-randread-4k.svg";
  ASSERT_TRUE(std::filesystem::exists(chart));
  EXPECT_FALSE(std::filesystem::exists(out.path() +
                                       "/charts/read-hits-randwrite-4k.svg"));
  const XmlCheck svg = ParsedSvg(ReadText(chart));
  // Both curves, each labelled with its state: the cold one first, an LRU
  // and an OPT line through its 3 points.
  ASSERT_EQ(svg.WithClass("mrc-lru").size(), 2u);
  ASSERT_EQ(svg.WithClass("mrc-opt").size(), 2u);
  EXPECT_NE(ReadText(chart).find("LRU (cold, 4KiB blocks)"), std::string::npos);
  EXPECT_NE(ReadText(chart).find("OPT (Belady MIN, warm, 4KiB blocks)"),
            std::string::npos);
  const std::string lru = svg.WithClass("mrc-lru")[0]->attrs.at("points");
  EXPECT_EQ(std::count(lru.begin(), lru.end(), ','), 3);
  // One point: dm-cache-writeback (none measured nothing, writeback is
  // invalid).
  ASSERT_EQ(svg.WithClass("mrc-cell").size(), 1u);
  EXPECT_TRUE(HasText(svg, "mrc-cell-label", "dm-cache-writeback 61%"));
  EXPECT_FALSE(HasText(svg, "mrc-cell-label", "writeback 1%"));
  // The point sits on the 1 GiB x of the curve's middle point, the OPT line
  // above the LRU line there.
  const auto xy = [](const std::string& pts, int k) {
    size_t p = 0;
    for (int i = 0; i < k; ++i) p = pts.find(' ', p) + 1;
    const size_t comma = pts.find(',', p);
    return std::make_pair(std::stod(pts.substr(p, comma - p)),
                          std::stod(pts.substr(comma + 1)));
  };
  const std::string opt = svg.WithClass("mrc-opt")[0]->attrs.at("points");
  EXPECT_DOUBLE_EQ(std::stod(svg.WithClass("mrc-cell")[0]->attrs.at("cx")),
                   xy(lru, 1).first);
  EXPECT_LT(xy(opt, 1).second, xy(lru, 1).second);  // SVG y grows down
  const double y61 = std::stod(svg.WithClass("mrc-cell")[0]->attrs.at("cy"));
  EXPECT_GT(y61, xy(lru, 1).second);  // 61% below LRU's 72%

  const std::string summary = ReadText(files.summary);
  EXPECT_NE(summary.find("dm-cache-writeback (1GiB cache) reached 61% read "
                         "hits; LRU at this size 72%, OPT 84%"),
            std::string::npos);
  EXPECT_NE(summary.find("](charts/read-hits-randread-4k.svg)"),
            std::string::npos);
  const std::string html = ReadText(files.html);
  EXPECT_NE(html.find("data-chart=\"read-hits\""), std::string::npos);
}

TEST_F(HitBoundTest, BadMrcCsvIsRefused) {
  std::ofstream(dir_ + "/mrc.csv")
      << "schema_version,workload,state,block_bytes,cache_bytes,"
         "lru_read_hit_pct,opt_read_hit_pct,at_stack,modes,sample_rate\n"
         "1,randread-4k,lukewarm,4096,1,2,3,0,,1\n";
  EXPECT_THROW(RunFolder::Read(dir_), ConfigError);
}

}  // namespace
}  // namespace tierbench
