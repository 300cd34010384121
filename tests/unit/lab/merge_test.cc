// MergeLabParts (lab/lab_merge.h) on two parts recorded side by side in the
// lab (tests/golden/lab-parts/README.md): the merged folder holds every
// row once under one run id, in the run's mode order, its comparison is each
// part's own comparison again, and `tierbench report` reads it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lab/lab_merge.h"
#include "present/run_folder.h"
#include "present/series_file.h"
#include "present/verdict.h"
#include "support/report_fixture.h"
#include "util/csv_reader.h"
#include "util/errors.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kModeOrder = {"hdd",
                                             "ssd",
                                             "none",
                                             "writeback",
                                             "writethrough",
                                             "writearound",
                                             "dm-cache-writeback",
                                             "dm-writecache"};

const LabRunOrder kOrder = {
    kModeOrder, {"randread-zipf", "randwrite-4k", "pgbench-tpcb-demo"}};

std::string Golden(const std::string& part) {
  return std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/lab-parts/" + part;
}

std::vector<LabPartRun> Parts() {
  return {{"p1-bcache-db", Golden("db")}, {"p2-fio", Golden("fio")}};
}

CsvDocument ReadCsvFile(const std::string& path) {
  return CsvDocument::Parse(ReadText(path), path);
}

TEST(LabMergeTest, EveryRowOnceUnderOneRunIdInTheRunsModeOrder) {
  ScratchDir dir("lab-merge-rows");
  const std::string out = dir.path() + "/merged";
  MergeLabParts(Parts(), out, "merged", kOrder);
  const CsvDocument fio = ReadCsvFile(Golden("fio") + "/runs.csv");
  const CsvDocument db = ReadCsvFile(Golden("db") + "/runs.csv");
  const CsvDocument runs = ReadCsvFile(out + "/runs.csv");
  ASSERT_GT(fio.row_count(), 0u);
  ASSERT_GT(db.row_count(), 0u);
  EXPECT_EQ(runs.row_count(), fio.row_count() + db.row_count());
  EXPECT_EQ(runs.header(), fio.header());
  std::vector<std::string> modes;
  for (size_t i = 0; i < runs.row_count(); ++i) {
    EXPECT_EQ(runs.Get(i, "run_id"), "merged") << i;
    if (modes.empty() || modes.back() != runs.Get(i, "mode"))
      modes.push_back(runs.Get(i, "mode"));
  }
  // Grouped by mode in the run's order: the DB part's "none" between the
  // raw baselines and writeback, each mode once.
  EXPECT_EQ(modes, kModeOrder);
  const CsvDocument series = ReadCsvFile(out + "/series.csv");
  EXPECT_EQ(series.row_count(),
            ReadCsvFile(Golden("fio") + "/series.csv").row_count() +
                ReadCsvFile(Golden("db") + "/series.csv").row_count());
  for (size_t i = 0; i < series.row_count(); ++i)
    ASSERT_EQ(series.Get(i, "run_id"), "merged") << i;
  std::ifstream evidence(out + "/evidence.jsonl");
  size_t lines = 0;
  std::vector<std::string> evidence_modes;
  for (std::string line; std::getline(evidence, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    const std::string mode = j.value("mode", "");
    if (evidence_modes.empty() || evidence_modes.back() != mode)
      evidence_modes.push_back(mode);
    ++lines;
  }
  // The cells' lines in the rows' order, grouped by mode.
  EXPECT_EQ(evidence_modes, kModeOrder);
  // One line per cell: the fio part's 11 and the DB part's 4.
  EXPECT_EQ(lines, 15u);
}

// The merged comparison is computed again from the merged runs.csv; for
// the cells of one part it must give what that part's compare computed
// from its records (the numbers to the CSV's rounding).
TEST(LabMergeTest, ComparisonIsEachPartsOwn) {
  ScratchDir dir("lab-merge-comparison");
  const std::string out = dir.path() + "/merged";
  const MergedLabRun merged = MergeLabParts(Parts(), out, "merged", kOrder);
  const CsvDocument got = ReadCsvFile(out + "/comparison.csv");
  EXPECT_EQ(merged.comparison.size(), got.row_count());
  std::map<std::string, size_t> at;
  const auto key = [](const CsvDocument& d, size_t i) {
    return d.Get(i, "mode") + "|" + d.Get(i, "workload") + "|" +
           d.Get(i, "job") + "|" + d.Get(i, "direction");
  };
  for (size_t i = 0; i < got.row_count(); ++i) at[key(got, i)] = i;
  size_t compared = 0;
  for (const char* part : {"fio", "db"}) {
    const CsvDocument want = ReadCsvFile(Golden(part) + "/comparison.csv");
    ASSERT_GT(want.row_count(), 0u);
    for (size_t i = 0; i < want.row_count(); ++i) {
      SCOPED_TRACE(key(want, i));
      auto it = at.find(key(want, i));
      ASSERT_NE(it, at.end());
      const size_t g = it->second;
      for (const char* col :
           {"valid", "baseline", "unit", "n", "finding_rules", "warnings"}) {
        EXPECT_EQ(got.Get(g, col), want.Get(i, col)) << col;
      }
      for (const char* col :
           {"iops_median", "iops_vs_hdd_pct", "iops_vs_ssd_pct",
            "iops_position", "lat_p99_us_median", "iops_sustained_median"}) {
        const std::optional<double> w = want.Number(i, col);
        const std::optional<double> v = got.Number(g, col);
        ASSERT_EQ(w.has_value(), v.has_value()) << col;
        if (!w) continue;
        EXPECT_NEAR(*v, *w, 0.01 + 1e-4 * std::fabs(*w)) << col;
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, got.row_count());
}

TEST(LabMergeTest, ManifestNamesEveryPartAndAddsTheirCells) {
  ScratchDir dir("lab-merge-manifest");
  const std::string out = dir.path() + "/merged";
  MergeLabParts(Parts(), out, "merged", kOrder);
  const nlohmann::json m =
      nlohmann::json::parse(ReadText(out + "/manifest.json"));
  const nlohmann::json fio =
      nlohmann::json::parse(ReadText(Golden("fio") + "/manifest.json"));
  const nlohmann::json db =
      nlohmann::json::parse(ReadText(Golden("db") + "/manifest.json"));
  EXPECT_EQ(m["run_id"], "merged");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(
      m["cells"]["planned"].get<int>(),
      fio["cells"]["planned"].get<int>() + db["cells"]["planned"].get<int>());
  std::vector<std::string> modes;
  for (const auto& mode : m["modes"]) modes.push_back(mode["file"]["name"]);
  EXPECT_EQ(modes, kModeOrder);
  ASSERT_EQ(m["lab_parts"].size(), 2u);
  EXPECT_EQ(m["lab_parts"][0]["name"], "p1-bcache-db");
  EXPECT_EQ(m["lab_parts"][0]["command_line"], db["command_line"]);
  EXPECT_EQ(m["lab_parts"][1]["labels"], fio["labels"]);
  EXPECT_EQ(m["restore"]["ok"], true);
  // bcache0 in both guests: one entry per stack device.
  std::vector<std::string> stacks;
  for (const auto& st : m["devices"]["stacks"]) stacks.push_back(st["device"]);
  std::sort(stacks.begin(), stacks.end());
  EXPECT_EQ(stacks,
            (std::vector<std::string>{"/dev/bcache0", "/dev/mapper/tb-dmcache",
                                      "/dev/mapper/tb-writecache"}));
  EXPECT_EQ(m["start_time"], std::min(fio["start_time"].get<std::string>(),
                                      db["start_time"].get<std::string>()));
}

// The merged folder is a run folder like any: the report reads it, and
// the verdict covers the workloads of both parts.
TEST(LabMergeTest, TheReportReadsTheMergedFolder) {
  ScratchDir dir("lab-merge-report");
  const std::string out = dir.path() + "/merged";
  MergeLabParts(Parts(), out, "merged", kOrder);
  const RunFolder run = RunFolder::Read(out);
  std::string note;
  const std::optional<SeriesFile> series = SeriesFile::Read(out, &note);
  ASSERT_TRUE(series.has_value()) << note;
  const std::string text = VerdictText(BuildVerdict(run, &*series));
  for (const char* w : {"randread-zipf", "randwrite-4k", "pgbench-tpcb-demo"})
    EXPECT_NE(text.find(w), std::string::npos) << w << "\n" << text;
}

TEST(LabMergeTest, PartsWithOtherHeadersAreRefusedBeforeAnythingIsWritten) {
  ScratchDir dir("lab-merge-headers");
  const std::string other = dir.path() + "/other";
  fs::copy(Golden("db"), other, fs::copy_options::recursive);
  // A column the merge does not read itself, so only the headers differ.
  std::string runs = ReadText(other + "/runs.csv");
  runs.replace(runs.find(",bytes,"), 7, ",bytez,");
  std::ofstream(other + "/runs.csv") << runs;
  const std::string out = dir.path() + "/merged";
  try {
    MergeLabParts({{"p1-bcache-db", other}, {"p2-fio", Golden("fio")}}, out,
                  "merged", kOrder);
    FAIL() << "merged parts with different headers";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("runs.csv headers differ"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(out + "/runs.csv"));
}

TEST(LabMergeTest, AMissingFileNamesThePart) {
  ScratchDir dir("lab-merge-missing");
  const std::string other = dir.path() + "/other";
  fs::copy(Golden("db"), other, fs::copy_options::recursive);
  fs::remove(other + "/series.csv");
  try {
    MergeLabParts({{"p1-bcache-db", other}, {"p2-fio", Golden("fio")}},
                  dir.path() + "/merged", "merged", kOrder);
    FAIL() << "merged a part without series.csv";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("series.csv"), std::string::npos) << what;
    EXPECT_NE(what.find("p1-bcache-db"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(dir.path() + "/merged/runs.csv"));
}

}  // namespace
}  // namespace tierbench
