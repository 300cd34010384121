// The one entry point of the reporters: `tierbench run --output-format`.
//
// Formats:
//   "normal"  fio-style text (report/console_reporter.h)
//   "json"    fio-style JSON (report/json_reporter.h)
//   "csv"     one row per job and reported direction, columns of
//             report/result_columns.h behind a schema_version column
// Throws ConfigError naming --output-format and the choices for any other
// format, before writing anything. Thread-safe (no shared state).
#ifndef TIERBENCH_REPORT_REPORTER_H_
#define TIERBENCH_REPORT_REPORTER_H_

#include <ostream>
#include <string>
#include <vector>

#include "stats/job_result.h"

namespace tierbench {

// The accepted --output-format values, in help order.
const std::vector<std::string>& OutputFormats();

void WriteRunReport(const RunResult& r, const std::string& format,
                    std::ostream& out);

// Writes the CSV form of `r` (the "csv" format above).
void WriteCsvReport(const RunResult& r, std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_REPORTER_H_
