#include "report/reporter.h"

#include "report/console_reporter.h"
#include "report/csv_writer.h"
#include "report/json_reporter.h"
#include "report/result_columns.h"
#include "util/errors.h"

namespace tierbench {

const std::vector<std::string>& OutputFormats() {
  static const std::vector<std::string> kFormats = {"normal", "json", "csv"};
  return kFormats;
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

void WriteRunReport(const RunResult& r, const std::string& format,
                    std::ostream& out) {
  if (format == "normal") {
    WriteConsoleReport(r, out);
  } else if (format == "json") {
    WriteJsonReport(r, out);
  } else if (format == "csv") {
    WriteCsvReport(r, out);
  } else {
    throw ConfigError(
        "Unknown report format. Option: --output-format; Value: '" + format +
        "'; Fix: use one of normal, json, csv");
  }
}

}  // namespace tierbench
