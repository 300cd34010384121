// The reporters a command picks (cli/): the registries of report/.
//
// Registries:
//   MakeRunReporter(format, out): --output-format of `run` and `pgbench`:
//     "normal"  fio-style text (report/console_reporter.h)
//     "json"    fio-style JSON (report/json_reporter.h)
//     "csv"     one row per job and reported direction, columns of
//               report/result_columns.h behind a schema_version column
//     Throws ConfigError naming --output-format and the choices for any
//     other format, before writing anything.
//   MakeCompareReporters(out): the files of a compare run folder, in this
//     order: runs.csv and series.csv (report/runs_csv_reporter.h),
//     comparison.csv (report/comparison_csv_reporter.h), evidence.jsonl
//     (report/evidence_reporter.h), manifest.json
//     (report/manifest_reporter.h), the console lines and table
//     (report/console_table_reporter.h), report.html, charts/*.svg and
//     summary.md (report/html_report_reporter.h).
// Errors: a reporter throws SysError naming a file it cannot
// write. Not thread-safe (one reporter per command, driven by one thread).
#ifndef TIERBENCH_REPORT_REPORTERS_H_
#define TIERBENCH_REPORT_REPORTERS_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "record/reporter.h"
#include "workload/job_result.h"

namespace tierbench {

// The accepted --output-format values, in help order.
const std::vector<std::string>& OutputFormats();

// The reporter of --output-format `format` writing to `out` (see above).
std::unique_ptr<Reporter> MakeRunReporter(const std::string& format,
                                          std::ostream& out);

// MakeRunReporter(format, out)->OnRun(r).
void WriteRunReport(const RunResult& r, const std::string& format,
                    std::ostream& out);

// Writes the CSV form of `r` (the "csv" format above).
void WriteCsvReport(const RunResult& r, std::ostream& out);

// The reporters of a compare run folder, in event order (see above); the
// console ones write to `out`.
std::vector<std::unique_ptr<Reporter>> MakeCompareReporters(std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_REPORTERS_H_
