// ScenarioReport: report.html and summary.md of a run folder that a lab
// scenario wrote instead of a compare (`tierbench lab --fault`: fault.csv;
// `--scenario fill`: fill.csv, fill-series.csv and charts/fill.svg;
// `--power-cut`: power-cut.csv). The page puts the verdict first (what
// each layer did, in one sentence each, read from the CSV rows: never a
// figure the CSV lacks), then one table per file and the fill chart
// inline. summary.md holds the same verdict and tables in Markdown.
//
// `tierbench report RUN_DIR` writes it for such a folder (a folder with
// runs.csv is a compare's: present/pages/report_writer.h), and the
// scenarios' reporters write it at the end of their run.
//
// Errors: ConfigError (exit 2) naming the file for a CSV with another
// schema_version or without a column the page reads; SafetyError (exit 4)
// for an existing report.html or summary.md without `force`; SysError
// (exit 3) when a file cannot be written. Not thread-safe (writes files).
#ifndef TIERBENCH_PRESENT_PAGES_SCENARIO_REPORT_H_
#define TIERBENCH_PRESENT_PAGES_SCENARIO_REPORT_H_

#include <string>
#include <vector>

#include "present/pages/report_writer.h"

namespace tierbench {

// True when `run_dir` holds a scenario's CSV and no runs.csv.
bool IsScenarioFolder(const std::string& run_dir);

// The verdict sentences of the folder's CSVs, in file order (fault,
// fill, power cut), one per layer and a lead one per file.
std::vector<std::string> ScenarioVerdict(const std::string& run_dir);

// Writes report.html and summary.md of `run_dir` into `out_dir` (run_dir
// when empty).
ReportFiles WriteScenarioReport(const std::string& run_dir,
                                const std::string& out_dir, bool force);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_PAGES_SCENARIO_REPORT_H_
