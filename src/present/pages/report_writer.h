// ReportWriter: `tierbench report` for one run folder. Reads the folder
// (present/run_folder.h), builds the charts (iops, latency, drain per
// workload; the position heat table over all) and writes into `out_dir`:
//   report.html      self-contained page (present/pages/html_report.h)
//   summary.md       present/pages/summary_writer.h
//   charts/*.svg     every chart as its own file:
//                    position.svg, iops-<workload>.svg,
//                    latency-<workload>.svg, drain-<workload>.svg,
//                    percentiles-<workload>.svg
//                    (present/charts/percentile_chart.h),
//                    series-<workload>.svg (present/charts/series_chart.h;
//                    from series.csv, absent in older runs: one line says so),
//                    read-hits-<workload>.svg (present/charts/
//                    read_hit_chart.h; from mrc.csv, for the workloads
//                    that replay a trace; summary.md links them)
// Files are written through a temporary file and a rename. It never
// overwrites an existing report.html or summary.md unless `force`: then it
// throws SafetyError (exit 4) naming the file and --force. Bad input throws
// ConfigError (exit 2, from RunFolder::Read); an unwritable out_dir
// SysError (exit 3). Not thread-safe (writes files).
#ifndef TIERBENCH_PRESENT_PAGES_REPORT_WRITER_H_
#define TIERBENCH_PRESENT_PAGES_REPORT_WRITER_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "present/pages/html_report.h"
#include "present/run_folder.h"
#include "present/series_file.h"
#include "present/verdict.h"

namespace tierbench {

struct ReportFiles {
  std::string html, summary;
  std::vector<std::string> charts;  // paths
  // One line each about what the report could not show (e.g. the
  // per-second charts of a run folder without series.csv), and
  // RunFolder::notes() of the input (e.g. an older schema_version).
  std::vector<std::string> notes;
  std::string merged_csv;  // merged reports only
};

// Throws SafetyError naming the first of `files`.html and .summary that
// exists, unless `force` (a report is never overwritten silently).
void RefuseExistingReport(const ReportFiles& files, bool force);

// Writes `content` to `path` through `path`.tmp and a rename; SysError
// naming the file when it cannot.
void WriteAtomically(const std::filesystem::path& path,
                     const std::string& content);

class ReportWriter {
 public:
  explicit ReportWriter(const RunFolder& run);

  // The charts of the run, in page order.
  const std::vector<ChartFile>& charts() const { return charts_; }
  // What the report could not show, one line each (ReportFiles::notes).
  const std::vector<std::string>& notes() const { return notes_; }
  std::string SummaryMarkdown() const;
  const Verdict& verdict() const { return verdict_; }
  std::string Html() const;
  // Writes everything into `out_dir` (created). See above for errors.
  ReportFiles Write(const std::string& out_dir, bool force) const;

 private:
  const RunFolder& run_;
  std::optional<SeriesFile> series_;
  Verdict verdict_;
  std::vector<ChartFile> charts_;
  std::vector<std::string> notes_;
};

// Reads `run_dir` and writes its report into `out_dir` ("" = run_dir).
ReportFiles WriteReport(const std::string& run_dir, const std::string& out_dir,
                        bool force);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_PAGES_REPORT_WRITER_H_
