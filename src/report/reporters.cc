#include "report/reporters.h"

#include <functional>
#include <utility>

#include "report/column_table.h"
#include "report/comparison_csv_reporter.h"
#include "report/console_reporter.h"
#include "report/console_table_reporter.h"
#include "report/evidence_reporter.h"
#include "report/html_report_reporter.h"
#include "report/json_reporter.h"
#include "report/manifest_reporter.h"
#include "report/mrc_csv_reporter.h"
#include "report/result_columns.h"
#include "report/runs_csv_reporter.h"
#include "util/csv_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// A --output-format: the function that writes a finished run in it.
struct RunFormat {
  std::string name;
  std::function<void(const RunResult&, std::ostream&)> write;
};

// The formats in help order (OutputFormats()).
const std::vector<RunFormat>& RunFormats() {
  static const std::vector<RunFormat> kFormats = {
      {"normal", WriteConsoleReport},
      {"json", WriteJsonReport},
      {"csv", WriteCsvReport}};
  return kFormats;
}

// Writes each run it is told of in one format.
class RunFormatReporter : public Reporter {
 public:
  RunFormatReporter(const RunFormat& format, std::ostream& out)
      : format_(format), out_(out) {}
  void OnRun(const RunResult& run) override { format_.write(run, out_); }

 private:
  const RunFormat& format_;
  std::ostream& out_;
};

}  // namespace

const std::vector<std::string>& OutputFormats() {
  static const std::vector<std::string> kNames = NamesOf(RunFormats());
  return kNames;
}

void WriteCsvReport(const RunResult& r, std::ostream& out) {
  CsvTable table(ResultColumnNames(), kResultColumnsSchemaVersion);
  for (const JobResult& job : r.jobs) {
    for (IoDir d : ReportedDirections(job)) {
      table.AddRow(ResultColumnValues(job, d));
    }
  }
  table.Write(out);
}

std::unique_ptr<Reporter> MakeRunReporter(const std::string& format,
                                          std::ostream& out) {
  std::string choices;
  for (const RunFormat& f : RunFormats()) {
    if (f.name == format) return std::make_unique<RunFormatReporter>(f, out);
    choices += (choices.empty() ? "" : ", ") + f.name;
  }
  throw ConfigError("Unknown report format. Option: --output-format; Value: '" +
                    format + "'; Fix: use one of " + choices);
}

void WriteRunReport(const RunResult& r, const std::string& format,
                    std::ostream& out) {
  MakeRunReporter(format, out)->OnRun(r);
}

std::vector<std::unique_ptr<Reporter>> MakeCompareReporters(std::ostream& out) {
  std::vector<std::unique_ptr<Reporter>> reporters;
  reporters.push_back(std::make_unique<RunsCsvReporter>());
  reporters.push_back(std::make_unique<ComparisonCsvReporter>());
  reporters.push_back(std::make_unique<MrcCsvReporter>());
  reporters.push_back(std::make_unique<EvidenceReporter>());
  reporters.push_back(std::make_unique<ManifestReporter>());
  reporters.push_back(std::make_unique<ConsoleTableReporter>(out));
  reporters.push_back(std::make_unique<HtmlReportReporter>(out));
  return reporters;
}

}  // namespace tierbench
