// RunFolder: the committed fake run folder reads back with the expected
// figures, its headers are exactly the columns compare writes today, and
// every kind of bad run folder gets ONE line naming the file and the fix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "present/merged_runs.h"
#include "present/run_folder.h"
#include "report/comparison_csv_reporter.h"
#include "report/result_columns.h"
#include "report/runs_csv_reporter.h"
#include "support/report_fixture.h"
#include "util/csv_reader.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::vector<std::string> HeaderOf(const std::string& file) {
  const std::string text = ReadText(FixtureRunDir() + "/" + file);
  return CsvDocument::Parse(text, file).header();
}

TEST(ReportRunFolderTest, FixtureHeadersAreTheColumnsCompareWrites) {
  std::vector<std::string> runs = {"schema_version"};
  for (const auto& c : RunsCsvColumns()) runs.push_back(c);
  EXPECT_EQ(HeaderOf("runs.csv"), runs)
      << "runs.csv changed: update tests/golden/report-run/make_fixture.py";
  std::vector<std::string> cmp = {"schema_version"};
  for (const auto& c : ComparisonCsvColumns()) cmp.push_back(c);
  EXPECT_EQ(HeaderOf("comparison.csv"), cmp);
  EXPECT_EQ(RunFolder::kRunsSchema, kRunsCsvSchemaVersion);
  EXPECT_EQ(RunFolder::kComparisonSchema, kComparisonCsvSchemaVersion);
}

TEST(ReportRunFolderTest, ReadsTheFixture) {
  const RunFolder run = RunFolder::Read(FixtureRunDir());
  EXPECT_EQ(run.modes(), (std::vector<std::string>{
                             "hdd", "ssd", "writethrough", "writeback",
                             "writearound", "none", "dm-cache-writeback"}));
  EXPECT_EQ(run.workloads(),
            (std::vector<std::string>{"randread-4k", "randwrite-4k",
                                      "anandtech-mix"}));
  EXPECT_EQ(run.figures().size(), 28u);  // 7 modes x (1 + 1 + 2 series)
  ASSERT_EQ(run.failures().size(), 1u);
  EXPECT_EQ(run.failures()[0].mode, "none");
  EXPECT_EQ(run.failures()[0].repetition, "2");
  EXPECT_EQ(run.SeriesOf("anandtech-mix"),
            (std::vector<std::string>{"mix-16k/read", "mix-16k/write"}));
  const auto figs = run.FiguresOf("randwrite-4k");
  const ReportFigure* wb = nullptr;
  for (const ReportFigure* f : figs) {
    if (f->mode == "writeback") wb = f;
  }
  ASSERT_NE(wb, nullptr);
  EXPECT_EQ(wb->n, 3);
  EXPECT_DOUBLE_EQ(wb->iops_median, 4388.4);
  ASSERT_TRUE(wb->p50_us && wb->p999_us);
  EXPECT_LT(*wb->p50_us, wb->p99_us);
  EXPECT_LT(wb->p99_us, *wb->p999_us);
  EXPECT_EQ(run.Baseline(*wb, "hdd")->mode, "hdd");
  bool drain = false;
  for (const DrainFigure& d : run.drains()) {
    if (d.mode == "writeback" && d.workload == "randwrite-4k") {
      EXPECT_EQ(d.seconds, (std::vector<double>{51.2, 49.8, 53.4}));
      drain = true;
    }
  }
  EXPECT_TRUE(drain);
}

struct BadCase {
  const char* name;
  std::function<void(const std::string& dir)> damage;
  const char* file;     // named in the message
  const char* snippet;  // also in the message
};

void Rewrite(const std::string& path,
             const std::function<std::string(std::string)>& edit) {
  const std::string text = ReadText(path);
  std::ofstream(path, std::ios::trunc) << edit(text);
}

TEST(ReportRunFolderTest, BadRunFoldersGetOneLineNamingFileAndFix) {
  const BadCase cases[] = {
      {"missing folder",
       [](const std::string& d) { std::filesystem::remove_all(d); }, "run",
       "no such run folder"},
      {"missing comparison",
       [](const std::string& d) {
         std::filesystem::remove(d + "/comparison.csv");
       },
       "comparison.csv", "missing"},
      {"empty runs",
       [](const std::string& d) { std::ofstream(d + "/runs.csv").close(); },
       "runs.csv", "empty file"},
      {"header only",
       [](const std::string& d) {
         Rewrite(d + "/runs.csv",
                 [](std::string t) { return t.substr(0, t.find('\n') + 1); });
       },
       "runs.csv", "no rows"},
      {"missing column",
       [](const std::string& d) {
         Rewrite(d + "/comparison.csv", [](std::string t) {
           return t.replace(t.find("iops_median"), 11, "iops_mediam");
         });
       },
       "comparison.csv", "missing column 'iops_median'"},
      {"unknown schema",
       [](const std::string& d) {
         Rewrite(d + "/runs.csv", [](std::string t) {
           const size_t row = t.find('\n') + 1;
           return t.replace(row, 1, "9");
         });
       },
       "runs.csv", "schema_version 9"},
      {"older schema",
       [](const std::string& d) {
         Rewrite(d + "/comparison.csv", [](std::string t) {
           return t.replace(t.find('\n') + 1, 1, "1");
         });
       },
       "comparison.csv", "older than"},
      {"truncated row",
       [](const std::string& d) {
         Rewrite(d + "/runs.csv",
                 [](std::string t) { return t.substr(0, t.size() - 40); });
       },
       "runs.csv:", "fields, the header has"},
      {"manifest schema",
       [](const std::string& d) {
         Rewrite(d + "/manifest.json", [](std::string t) {
           return t.replace(t.find("\"schema_version\": 2"), 19,
                            "\"schema_version\": 7");
         });
       },
       "manifest.json", "schema_version 7"},
      {"manifest not json",
       [](const std::string& d) {
         Rewrite(d + "/manifest.json",
                 [](std::string t) { return t.substr(0, 50); });
       },
       "manifest.json", "not valid JSON"},
  };
  for (const BadCase& c : cases) {
    ScratchDir tmp("bad");
    const std::string dir = tmp.CopyFixture();
    c.damage(dir);
    try {
      RunFolder::Read(dir);
      ADD_FAILURE() << c.name << ": no error";
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.exit_code(), kExitConfig) << c.name;
      EXPECT_NE(what.find(c.file), std::string::npos) << c.name << ": " << what;
      EXPECT_NE(what.find(c.snippet), std::string::npos)
          << c.name << ": " << what;
      EXPECT_NE(what.find("Fix: "), std::string::npos)
          << c.name << ": " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << c.name << ": " << what;
    }
  }
}

TEST(ReportRunFolderTest, ResultsReadmeDocumentsEveryColumn) {
  const std::string doc =
      ReadText(std::string(TIERBENCH_SOURCE_DIR) + "/results/README.md");
  std::vector<std::string> cols = RunsCsvColumns();
  for (const auto& c : ComparisonCsvColumns()) cols.push_back(c);
  for (const auto& c : MergedCsvColumns()) cols.push_back(c);
  for (const auto& c : SeriesCsvColumns()) cols.push_back(c);
  for (const std::string& c : cols) {
    EXPECT_NE(doc.find("| `" + c + "` |"), std::string::npos)
        << "results/README.md lacks a row for column " << c;
  }
  EXPECT_NE(doc.find("## runs.csv (schema_version " +
                     std::to_string(kRunsCsvSchemaVersion) + ")"),
            std::string::npos);
  EXPECT_NE(doc.find("## series.csv (schema_version " +
                     std::to_string(kSeriesCsvSchemaVersion) + ")"),
            std::string::npos);
  EXPECT_NE(doc.find("## comparison.csv (schema_version " +
                     std::to_string(kComparisonCsvSchemaVersion) + ")"),
            std::string::npos);
  EXPECT_NE(doc.find("## merged.csv (schema_version " +
                     std::to_string(kMergedCsvSchemaVersion) + ")"),
            std::string::npos);
  // Every top-level manifest key of the fixture (the keys ManifestBuilder
  // writes) has its row.
  const auto manifest =
      nlohmann::json::parse(ReadText(FixtureRunDir() + "/manifest.json"));
  for (const auto& [key, value] : manifest.items()) {
    EXPECT_NE(doc.find("`" + key), std::string::npos) << key;
  }
}

TEST(ReportRunFolderTest, ReadsThePreviousComparisonSchemaWithOneNote) {
  const RunFolder current = RunFolder::Read(FixtureRunDir());
  EXPECT_TRUE(current.notes().empty());
  ScratchDir tmp("schema2");
  // runs.csv schema 3, comparison.csv schema 2: one note each, and one
  // that its cells were never judged (no validity before schema 5).
  WriteSyntheticRun(tmp.path() + "/run", 2, 1);
  const RunFolder old = RunFolder::Read(tmp.path() + "/run");
  ASSERT_EQ(old.notes().size(), 3u);
  EXPECT_NE(old.notes()[2].find("were not judged valid or invalid"),
            std::string::npos)
      << old.notes()[2];
  EXPECT_NE(old.notes()[0].find("runs.csv: schema_version 3 is older than 4: "
                                "its time to clean (drain_after_s) was timed "
                                "after the stats lag"),
            std::string::npos)
      << old.notes()[0];
  const std::string& note = old.notes()[1];
  EXPECT_NE(note.find("comparison.csv: schema_version 2 is older than 3"),
            std::string::npos)
      << note;
  for (const std::string& n : old.notes()) {
    EXPECT_EQ(n.find('\n'), std::string::npos) << n;
  }
  for (const ReportFigure& f : old.figures()) {
    EXPECT_FALSE(f.significant_vs_hdd.has_value()) << f.mode;
  }
  // The fixture's intervals read back.
  bool seen = false;
  for (const ReportFigure& f : current.figures()) {
    if (f.mode != "writeback" || f.workload != "randwrite-4k") continue;
    EXPECT_EQ(f.iops_vs_hdd_ci_low, 2699.30);
    EXPECT_EQ(f.iops_vs_hdd_ci_high, 2955.89);
    EXPECT_EQ(f.significant_vs_hdd, true);
    EXPECT_EQ(f.iops_values, (std::vector<double>{4388.4, 4255.1, 4431.7}));
    seen = true;
  }
  EXPECT_TRUE(seen);
}

TEST(ReportRunFolderTest, CsvReaderUndoesCsvTableQuoting) {
  const CsvDocument doc = CsvDocument::Parse(
      "a,b,c\n1,\"x, \"\"y\"\"\",\n2,\"multi\nline\",z\n", "t.csv");
  ASSERT_EQ(doc.row_count(), 2u);
  EXPECT_EQ(doc.Get(0, "b"), "x, \"y\"");
  EXPECT_EQ(doc.Get(0, "c"), "");
  EXPECT_EQ(doc.Get(1, "b"), "multi\nline");
  EXPECT_EQ(doc.Number(1, "a"), 2.0);
  EXPECT_FALSE(doc.Number(1, "c").has_value());
  EXPECT_EQ(doc.Get(0, "nope"), "");
}

TEST(ReportRunFolderTest, SplitsWarnings) {
  EXPECT_EQ(SplitWarnings("a; b;a;"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(SplitWarnings("").empty());
}

// The committed sample (README) is read at the current schema versions:
// a schema bump must re-make it (or this test names what is stale).
TEST(ReportRunFolderTest, CommittedSampleIsCurrent) {
  const RunFolder run = RunFolder::Read(std::string(TIERBENCH_SOURCE_DIR) +
                                        "/results/sample-lab");
  EXPECT_TRUE(run.notes().empty())
      << "results/sample-lab is stale: " << run.notes().front();
  // It is the demo's run (scripts/demo: lab --quick --full --guests 4, 20
  // cells, anandtech-mix's with a read and a write row each).
  EXPECT_GE(run.runs().row_count(), 20u);
}

}  // namespace
}  // namespace tierbench
