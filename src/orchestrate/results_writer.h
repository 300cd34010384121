// ResultsWriter: the files of a compare run under <results>/<run-id>/.
//
//   runs.csv        one row per finished cell, job and direction: the
//                   compare columns (RunsCsvColumns()), the metric columns of
//                   report/result_columns.h, the layer's common counters,
//                   its settings and extra columns (cache/layer_registry.h),
//                   warnings. Rewritten (temp file + rename) after every cell,
//                   so an interrupted compare leaves a valid file with every
//                   finished cell.
//   series.csv      one row per cell and second (and per drain poll): the
//                   per-second IOPS, hit ratio and dirty data
//                   (orchestrate/cell_series.h), rewritten like runs.csv
//                   after every cell.
//   comparison.csv  one row per mode x workload x job x direction
//                   (orchestrate/comparison.h), written at the end (also
//                   after an interruption, from the finished cells).
//   manifest.json   see orchestrate/manifest.h; written at the start and at
//                   the end.
// Errors: SysError naming the file when it cannot be written.
// Not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_RESULTS_WRITER_H_
#define TIERBENCH_ORCHESTRATE_RESULTS_WRITER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "orchestrate/cell_runner.h"
#include "orchestrate/comparison.h"
#include "report/csv_writer.h"

namespace tierbench {

// 2: layer-neutral counter columns (read_hits, write_hits, promotions, ...),
// cache_bytes, settings and the layers' extra columns. 3: working_set and
// working_set_bytes after "workload"; warm_s, warm_hit_ratio_pct and
// warm_steady after warm_passes (--cache-state warm-until-steady).
// The result columns gained sched_lat_* and ss_attained/ss_criterion.
// 4: iops_sustained after iops; cell_wall_s and harness_overhead_pct
// after the metric columns; drain_after_s is timed from the IO stop.
inline constexpr int kRunsCsvSchemaVersion = 4;
// 2: a "layer" column after "mode". 3: the 95 % confidence intervals
// (*_ci_low_pct, *_ci_high_pct, iops_vs_*_ci_df) and significant_vs_hdd/ssd
// before "warnings".
// 4: iops_sustained_median, iops_sustained_vs_hdd_pct and
// iops_sustained_vs_ssd_pct after iops_spread_pct.
inline constexpr int kComparisonCsvSchemaVersion = 4;

// runs.csv: the columns before and after the metric columns.
const std::vector<std::string>& RunsCsvLeadingColumns();
const std::vector<std::string>& RunsCsvCounterColumns();
// The columns every cell has after the metric columns (cell_wall_s,
// harness_overhead_pct).
const std::vector<std::string>& RunsCsvTimingColumns();
// Every runs.csv column (after schema_version): leading, the metric
// columns with iops_sustained after iops, timing, counter columns.
const std::vector<std::string>& RunsCsvColumns();
// comparison.csv columns (after schema_version).
const std::vector<std::string>& ComparisonCsvColumns();

// The comparison inputs of a finished cell (empty for a failed one).
std::vector<MeasuredRow> MeasuredRowsOf(const CellRecord& rec);

class ResultsWriter {
 public:
  // Creates `run_dir` (and parents). Throws SysError.
  ResultsWriter(std::string run_dir, std::string run_id);

  const std::string& run_dir() const { return run_dir_; }
  std::string Path(const std::string& file) const;

  // Adds the rows of `rec` and rewrites runs.csv.
  void AddCell(const CellRecord& rec);
  void WriteComparison(const std::vector<ComparisonRow>& rows);
  void WriteManifest(const nlohmann::json& manifest);

 private:
  // Writes `content` to run_dir/file through a temporary file and rename.
  void WriteFileAtomically(const std::string& file, const std::string& content);

  std::string run_dir_;
  std::string run_id_;
  CsvTable runs_;
  CsvTable series_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_RESULTS_WRITER_H_
