// The schema versions the docs state (results/README.md, README.md and the
// man pages' sources, src/man/*.md) are the
// ones the writers write (issue 29): bumping a writer's constant without its
// docs, or docs that drift from the code, fails here, naming the file, the
// doc and both numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "cache/mode_spec.h"
#include "orchestrate/restore_state.h"
#include "present/merged_runs.h"
#include "present/run_folder.h"
#include "report/comparison_csv_reporter.h"
#include "report/fault_reporter.h"
#include "report/fill_reporter.h"
#include "report/manifest_builder.h"
#include "report/power_cut_reporter.h"
#include "report/result_columns.h"
#include "report/runs_csv_reporter.h"
#include "trace/read_hit_curve.h"

namespace tierbench {
namespace {

std::string ReadDoc(const std::string& rel) {
  const std::string path = std::string(TIERBENCH_SOURCE_DIR) + "/" + rel;
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << "cannot read " << path;
  return ss.str();
}

// README.md and every man page's source (src/man/*.md), one after another:
// the user's documents that state versions besides results/README.md.
std::string ReadUserDocs() {
  std::string all = ReadDoc("README.md");
  std::set<std::string> pages;  // sorted: a stable order
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(TIERBENCH_SOURCE_DIR) + "/src/man")) {
    if (entry.path().extension() == ".md") pages.insert(entry.path().string());
  }
  EXPECT_GE(pages.size(), 10u);
  for (const std::string& page : pages) {
    all += "\n\n" +
           ReadDoc(page.substr(std::string(TIERBENCH_SOURCE_DIR).size() + 1));
  }
  return all;
}

// Every file of a run folder whose schema the docs state, with the version
// its writer writes.
const std::map<std::string, int>& WriterVersions() {
  static const std::map<std::string, int> kVersions = {
      {"runs.csv", kRunsCsvSchemaVersion},
      {"comparison.csv", kComparisonCsvSchemaVersion},
      {"series.csv", kSeriesCsvSchemaVersion},
      {"manifest.json", kManifestSchemaVersion},
      {"merged.csv", kMergedCsvSchemaVersion},
      {"power-cut.csv", kPowerCutCsvSchemaVersion},
      {"fault.csv", kFaultCsvSchemaVersion},
      {"fill.csv", kFillCsvSchemaVersion},
      {"fill-series.csv", kFillSeriesCsvSchemaVersion},
      {"log-replay.csv", kLogReplayCsvSchemaVersion},
      {"mrc.csv", kMrcCsvSchemaVersion},
  };
  return kVersions;
}

// The writer's version of `file`; a failure (and -1) for a file this test
// does not know yet.
int WriterVersion(const std::string& file) {
  const auto it = WriterVersions().find(file);
  if (it == WriterVersions().end()) {
    ADD_FAILURE() << "the docs state a schema_version of " << file
                  << ", which this test does not know: add its writer's "
                     "constant to WriterVersions()";
    return -1;
  }
  return it->second;
}

// "## runs.csv (schema_version 7)", and the `schema_version` row of the
// section's table where it has one.
TEST(SchemaDocsTest, ResultsReadmeHeadingsStateTheWritersVersions) {
  const std::string doc = ReadDoc("results/README.md");
  const std::regex heading(R"(\n## (\S+) \(schema_version (\d+)\))");
  const std::regex row(R"(\n\| `schema_version` \|[^|\n]*\| *(\d+))");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), heading);
       it != std::sregex_iterator(); ++it) {
    const std::string file = (*it)[1];
    SCOPED_TRACE("results/README.md: " + it->str().substr(1));
    seen.insert(file);
    const int writer = WriterVersion(file);
    EXPECT_EQ(std::stoi((*it)[2]), writer) << "the heading of " << file;
    const size_t start = static_cast<size_t>(it->position() + it->length());
    const std::string section =
        doc.substr(start, doc.find("\n## ", start) - start);
    std::smatch m;
    if (std::regex_search(section, m, row)) {
      EXPECT_EQ(std::stoi(m[1]), writer)
          << "the schema_version row of " << file;
    }
  }
  for (const auto& [file, version] : WriterVersions()) {
    EXPECT_EQ(seen.count(file), 1u)
        << "results/README.md has no heading '## " << file
        << " (schema_version " << version << ")'";
  }
}

// The table of a run folder's files at the top: "| `runs.csv` | ... | 7 |".
TEST(SchemaDocsTest, ResultsReadmeFileTableStatesTheWritersVersions) {
  const std::string doc = ReadDoc("results/README.md");
  const std::string top = doc.substr(0, doc.find("\n## "));
  const std::regex row(
      R"(\n\| `([a-z-]+\.(?:csv|json))`[^|\n]*\|[^|\n]*\| *(\d+) *\|)");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(top.begin(), top.end(), row);
       it != std::sregex_iterator(); ++it) {
    const std::string file = (*it)[1];
    seen.insert(file);
    EXPECT_EQ(std::stoi((*it)[2]), WriterVersion(file))
        << "results/README.md's table row of " << file;
  }
  for (const char* file : {"runs.csv", "comparison.csv", "series.csv",
                           "manifest.json", "merged.csv"}) {
    EXPECT_EQ(seen.count(file), 1u)
        << "results/README.md's table of a run folder lists no version of "
        << file;
  }
}

// README.md and the man pages: the links into results/README.md name a
// heading by its anchor ("results/README.md#runscsv-schema_version-7"), and
// each file's paragraph ("**`runs.csv`** ... `schema_version` (7; ...")
// states it.
TEST(SchemaDocsTest, ReadmeAndManPagesStateTheWritersVersions) {
  const std::string doc = ReadUserDocs();
  std::map<std::string, std::string> by_anchor;  // "runscsv" -> "runs.csv"
  for (const auto& [file, version] : WriterVersions()) {
    std::string anchor;
    for (char c : file) {
      if (c != '.') anchor += c;
    }
    by_anchor[anchor] = file;
  }
  const std::regex link(R"(results/README\.md#([a-z-]+)-schema_version-(\d+))");
  int links = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), link);
       it != std::sregex_iterator(); ++it) {
    ++links;
    const auto file = by_anchor.find((*it)[1]);
    if (file == by_anchor.end()) {
      ADD_FAILURE() << "README.md links to " << it->str()
                    << ", a heading of no known file";
      continue;
    }
    EXPECT_EQ(std::stoi((*it)[2]), WriterVersion(file->second))
        << "README.md's link " << it->str();
  }
  EXPECT_GE(links, 3);

  const std::regex bold(R"(\*\*`([a-z-]+\.(?:csv|json))`\*\*)");
  const std::regex stated(R"(schema_version`?\s*\(?`?(\d+))");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), bold);
       it != std::sregex_iterator(); ++it) {
    const size_t start = static_cast<size_t>(it->position());
    const std::string paragraph =
        doc.substr(start, doc.find("\n\n", start) - start);
    std::smatch m;
    if (!std::regex_search(paragraph, m, stated)) continue;
    const std::string file = (*it)[1];
    seen.insert(file);
    EXPECT_EQ(std::stoi(m[1]), WriterVersion(file))
        << "README.md's paragraph on " << file << ": " << m.str();
  }
  for (const char* file :
       {"runs.csv", "comparison.csv", "series.csv", "manifest.json"}) {
    EXPECT_EQ(seen.count(file), 1u)
        << "README.md's paragraph on " << file << " states no schema_version";
  }
}

// `tierbench report` reads the versions the docs state as current: the
// reader's and the writers' numbers are the same.
TEST(SchemaDocsTest, TheReportReadsWhatTheWritersWrite) {
  EXPECT_EQ(RunFolder::kRunsSchema, kRunsCsvSchemaVersion);
  EXPECT_EQ(RunFolder::kComparisonSchema, kComparisonCsvSchemaVersion);
  EXPECT_EQ(RunFolder::kManifestSchema, kManifestSchemaVersion);
}

// The other versions the man pages state: --output-format csv's columns
// (tierbench-run(1)), compare's restore state file (tierbench-compare(1))
// and the mode files (tierbench-modes(5)).
TEST(SchemaDocsTest, ManPagesStateTheOtherFormatsVersions) {
  const std::string doc = ReadUserDocs();
  // Every statement of each, not only the first: two pages that disagree
  // fail here.
  const struct {
    const char* pattern;
    int version;
  } kStatements[] = {
      {R"(first column is always `schema_version` \(currently `(\d+)`)",
       kResultColumnsSchemaVersion},
      {R"(\| `schema_version` \| - \| version of this column layout \((\d+)\))",
       kResultColumnsSchemaVersion},
      {R"(state\.json` \(schema_version (\d+))", kRestoreStateSchemaVersion},
      {R"(\| `schema_version` \| must be `(\d+)` \|)", kModeSchemaVersion},
  };
  for (const auto& statement : kStatements) {
    const std::regex re(statement.pattern);
    int found = 0;
    for (std::sregex_iterator it(doc.begin(), doc.end(), re), end; it != end;
         ++it) {
      ++found;
      EXPECT_EQ(std::stoi((*it)[1]), statement.version) << it->str();
    }
    EXPECT_GE(found, 1) << "no page states " << statement.pattern;
  }
}

}  // namespace
}  // namespace tierbench

namespace tierbench {
namespace {

// Every column fault.csv, fill.csv, fill-series.csv and mrc.csv write has a row
// in results/README.md's table of the file (alone or in a group such as
// `stack_intact`, `stack_stale`, ...), and the table names no column the
// writer lacks.
// The columns results/README.md's table of `file` names.
std::set<std::string> DocumentedColumns(const std::string& file) {
  const std::string doc = ReadDoc("results/README.md");
  const size_t start = doc.find("## " + file + " (schema_version");
  EXPECT_NE(start, std::string::npos) << file;
  if (start == std::string::npos) return {};
  const size_t end = doc.find("\n## ", start + 1);
  const std::string table = doc.substr(start, end - start);
  std::set<std::string> documented;
  const std::regex cell("`([a-z0-9_]+)`");
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::string first = line.substr(0, line.find(" |", 2));
    for (std::sregex_iterator it(first.begin(), first.end(), cell), e; it != e;
         ++it) {
      documented.insert((*it)[1]);
    }
  }
  return documented;
}

std::set<std::string> Written(const std::vector<std::string>& columns) {
  std::set<std::string> out = {"schema_version"};
  out.insert(columns.begin(), columns.end());
  return out;
}

TEST(SchemaDocsTest, FaultAndFillColumnsAreTheDocumentedOnes) {
  EXPECT_EQ(DocumentedColumns("fault.csv"), Written(FaultCsvColumns()));
  EXPECT_EQ(DocumentedColumns("fill.csv"), Written(FillCsvColumns()));
  EXPECT_EQ(DocumentedColumns("fill-series.csv"),
            Written(FillSeriesCsvColumns()));
  EXPECT_EQ(DocumentedColumns("mrc.csv"), Written(MrcCsvColumns()));
}

}  // namespace
}  // namespace tierbench
