// The verdict's rules (present/verdict.h), on the golden fixture (three
// cold bcache cells invalid on randread-4k) and on the committed demo run
// (results/sample-lab): no sentence states a ratio, position or difference
// of an invalid cell; each invalid cell is named, not ranked.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "present/run_folder.h"
#include "present/series_file.h"
#include "present/verdict.h"
#include "support/report_fixture.h"

namespace tierbench {
namespace {

// `mode` as a word of `text` (not a part of "dm-cache-writeback").
bool NamesMode(const std::string& text, const std::string& mode) {
  for (size_t p = text.find(mode); p != std::string::npos;
       p = text.find(mode, p + 1)) {
    auto part = [&](size_t i) {
      const char c = text[i];
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
             c == '_';
    };
    const bool left = p == 0 || !part(p - 1);
    const size_t end = p + mode.size();
    const bool right = end >= text.size() || !part(end);
    if (left && right) return true;
  }
  return false;
}

std::vector<std::string> Sentences(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t p = text.find(". "); p != std::string::npos;
       p = text.find(". ", start)) {
    out.push_back(text.substr(start, p + 1 - start));
    start = p + 2;
  }
  if (start < text.size()) out.push_back(text.substr(start));
  return out;
}

// Checks every line of the run's verdict against its invalid cells;
// returns how many invalid cells it saw.
int CheckVerdict(const std::string& dir) {
  const RunFolder run = RunFolder::Read(dir);
  std::string note;
  const std::optional<SeriesFile> series = SeriesFile::Read(dir, &note);
  const Verdict v = BuildVerdict(run, series ? &*series : nullptr);
  EXPECT_FALSE(v.lines.empty());
  // The cells no sentence may quote: the invalid ones, and the cache
  // modes whose rate drifted within the run (not steady).
  std::set<std::pair<std::string, std::string>> invalid;  // workload, mode
  std::set<std::pair<std::string, std::string>> not_valid;
  const CsvDocument& c = run.comparison();
  for (size_t r = 0; r < c.row_count(); ++r) {
    const std::pair<std::string, std::string> cell = {c.Get(r, "workload"),
                                                      c.Get(r, "mode")};
    const bool drift =
        c.Get(r, "baseline").empty() &&
        c.Get(r, "finding_rules").find("drift:caution") != std::string::npos;
    if (c.Get(r, "valid") == "no") not_valid.insert(cell);
    if (c.Get(r, "valid") == "no" || drift) invalid.insert(cell);
  }
  for (const VerdictLine& line : v.lines) {
    SCOPED_TRACE(line.text);
    for (const auto& [workload, mode] : invalid) {
      if (line.workload != workload) continue;
      // Not quoted, and named among the not ranked.
      for (const std::string& q : line.quoted_modes) EXPECT_NE(q, mode);
      bool named = false;
      for (const std::string& n : line.not_ranked) named = named || n == mode;
      EXPECT_TRUE(named) << mode << " is invalid on " << workload;
      // No sentence that names it states a figure of it.
      for (const std::string& s : Sentences(line.text)) {
        if (!NamesMode(s, mode)) continue;
        EXPECT_NE(s.find("Not ranked"), std::string::npos)
            << "a sentence names invalid " << mode << ": " << s;
        for (const char* figure :
             {"x the HDD", "of the SSD", "against the best", "IOPS", "tps"}) {
          EXPECT_EQ(s.find(figure), std::string::npos)
              << "invalid " << mode << " with a figure: " << s;
        }
      }
    }
  }
  return static_cast<int>(not_valid.size());
}

// The verdict text of the recorded lab run `prefix` (RecordedLabRun).
std::string RecordedVerdict(const std::string& prefix) {
  const RecordedLabRun recorded(prefix);
  const RunFolder run = RunFolder::Read(recorded.path());
  std::string note;
  const std::optional<SeriesFile> series =
      SeriesFile::Read(recorded.path(), &note);
  EXPECT_TRUE(series) << note;
  return VerdictText(BuildVerdict(run, series ? &*series : nullptr));
}

TEST(VerdictTest, NoSentenceStatesAFigureOfAnInvalidCell) {
  // The fixture: writethrough, writeback and writearound cold on
  // randread-4k, every read from the HDD.
  EXPECT_EQ(CheckVerdict(FixtureRunDir()), 3);
  // The committed demo run (it may have none: then only the text is read).
  CheckVerdict(std::string(TIERBENCH_SOURCE_DIR) + "/results/sample-lab");
  // A run with a mode that drifted (none, run pg5), not quoted either.
  EXPECT_EQ(CheckVerdict(RecordedLabRun("pgbench").path()), 0);
}

TEST(VerdictTest, TheFixturesInvalidCellsAreNamedWithTheirReason) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  std::string note;
  const std::optional<SeriesFile> series =
      SeriesFile::Read(FixtureRunDir(), &note);
  const std::string text =
      VerdictText(BuildVerdict(run, series ? &*series : nullptr));
  EXPECT_NE(text.find("Not ranked: "), std::string::npos) << text;
  EXPECT_NE(text.find("writeback (cold cache: its reads went to the HDD)"),
            std::string::npos)
      << text;
}

// Seed 001's finding as the lab recorded it (pgbench-demo-*:
// pgbench-tpcb-demo on bcache, run e1): writeback ahead, and the modes
// that commit on the HDD said to be alike in one sentence.
TEST(VerdictTest, ModesBelowTheBestThatAreAlikeAreSaidToBe) {
  const std::string text = RecordedVerdict("pgbench-demo");
  EXPECT_NE(text.find("pgbench-tpcb-demo (steady state): writeback is best"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("writearound, none and writethrough were within "
                      "noise of each other."),
            std::string::npos)
      << text;
}

// A mode whose rate drifted within its run is not ranked (pgbench-*: run
// pg5, none went from 46 to 32 tps between the first and the last third):
// the spread of a drifting cell's per-second rates is the drift, and taken
// for noise it had put a pgbench cell that fell from 52 to 2 tps "within
// noise" of writeback's 134 (CI, 2026-12-04).
TEST(VerdictTest, AModeThatDriftedIsNotSteadyAndNotRanked) {
  const std::string text = RecordedVerdict("pgbench");
  EXPECT_NE(text.find("Not ranked: none (not steady: 46/s in the first third "
                      "of the run, 32/s in the last)."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("none:"), std::string::npos) << text;
  EXPECT_EQ(text.find("none are best"), std::string::npos) << text;
  EXPECT_EQ(text.find("and none"), std::string::npos) << text;
}

// Every cell of run pg1 drifted but the SSD's (pgbench-drift-*): no cache
// mode is ranked, and none gets a ratio against the HDD, which drifted too.
TEST(VerdictTest, ABaselineThatDriftedGivesNoRatio) {
  const std::string text = RecordedVerdict("pgbench-drift");
  EXPECT_NE(text.find("pgbench-tpcb: no cache mode ran at a steady rate. Not "
                      "ranked: writethrough (not steady: 33/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("writeback (not steady: 59/s in the first third of the "
                      "run, 23/s in the last)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("x the HDD"), std::string::npos) << text;
  EXPECT_EQ(CheckVerdict(RecordedLabRun("pgbench-drift").path()), 0);
}

// `./scripts/demo --full` as the lab recorded it (full-demo-*, run full1):
// anandtech-mix's warmed bcache and dm-cache cells still sent reads to the
// HDD: not ranked, and not called cold; dm-cache-writeback's random writes
// (48 IOPS against the HDD's 39) are like the HDD, with its figure.
TEST(VerdictTest, AWarmedCellStillFillingIsNotCalledCold) {
  const std::string text = RecordedVerdict("full-demo");
  EXPECT_NE(text.find("Not ranked: writeback (cache still filling: its reads "
                      "went to the HDD) and dm-cache-writeback (cache still "
                      "filling: its reads went to the HDD)."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("cold cache"), std::string::npos) << text;
  EXPECT_NE(text.find("dm-cache-writeback and writethrough were like the HDD "
                      "(38.8 IOPS)."),
            std::string::npos)
      << text;
  CheckVerdict(std::string(TIERBENCH_SOURCE_DIR) + "/results/sample-lab");
}

}  // namespace
}  // namespace tierbench
