// MergedReport: the fleet report of `tierbench report runA runB ... --out
// DIR`, from MergedRuns (present/merged_runs.h). It writes into `out_dir`:
//   merged.csv            the aligned runs (results/README.md)
//   summary.md            a paragraph on the runs (host, kernel, run id,
//                         repetitions, from each manifest), one on the
//                         settings their manifests record differently
//                         (labels such as the lab's lab.ssd_iops, options,
//                         kernel, tool versions), per workload a
//                         paragraph with each mode's IOPS per run and each
//                         later run's change against the first ("+12%
//                         against A (95% CI 8% to 16%)", or "within noise of
//                         A" where the interval includes 0 or, without one,
//                         the min-max ranges overlap; modes every later run
//                         matches within noise are listed together), the
//                         missing cells and the noise statement. Every number
//                         is a value of merged.csv or of the runs' files.
//   report.html           one self-contained page (inline CSS and SVG): the
//                         runs, the settings that differ, the summary, the
//                         missing cells, and per workload a table (IOPS per run
//                         side by side, "B vs A" changes; a missing cell is
//                         "—") and grouped bars (one bar per run, min-max
//                         whiskers)
//   charts/merged-iops-<workload>.svg   each chart as its own file
// It never overwrites report.html, summary.md or merged.csv unless `force`
// (SafetyError, exit 4); an unwritable out_dir throws SysError (exit 3).
// Not thread-safe (writes files).
#ifndef TIERBENCH_PRESENT_PAGES_MERGED_REPORT_H_
#define TIERBENCH_PRESENT_PAGES_MERGED_REPORT_H_

#include <string>
#include <vector>

#include "present/merged_runs.h"
#include "present/pages/report_writer.h"
#include "present/run_differences.h"

namespace tierbench {

class MergedReport {
 public:
  explicit MergedReport(const MergedRuns& merged) : merged_(merged) {}

  std::string SummaryMarkdown() const;
  std::string WorkloadParagraph(const std::string& workload) const;
  std::string NoiseStatement() const;
  // What the manifests record differently (present/run_differences.h).
  std::vector<RunDifference> Differences() const;
  // "The runs differ in lab.ssd_iops (A 20000, B 2000); ..." or that they
  // record the same settings.
  std::string DifferencesParagraph() const;
  // The HTML table of Differences(); "" when there are none.
  std::string DifferencesTable() const;
  // The grouped-bar chart of `workload` (one SVG document).
  std::string ChartSvg(const std::string& workload) const;
  std::string Html() const;
  // Writes everything into `out_dir` (created). See above for errors.
  ReportFiles Write(const std::string& out_dir, bool force) const;

 private:
  std::string RowLabel(const MergedRow& row) const;
  std::string ChangeText(const MergedRow& row, size_t run) const;
  std::string WorkloadSection(const std::string& workload) const;

  const MergedRuns& merged_;
};

// Reads every folder of `run_dirs` (RunFolder::Read, exit 2 on bad input)
// and writes the merged report into `out_dir`; "" throws ConfigError (exit
// 2): several runs need --out.
ReportFiles WriteMergedReport(const std::vector<std::string>& run_dirs,
                              const std::string& out_dir, bool force);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_PAGES_MERGED_REPORT_H_
