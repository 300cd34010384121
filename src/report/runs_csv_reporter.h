// runs.csv and series.csv of a compare run (<results>/<run-id>/):
//   runs.csv    one row per finished cell, job and direction: the compare
//               columns (mode, workload, repetition, ...), the metric
//               columns of report/result_columns.h with iops_sustained
//               after iops, the cell's timing, the layer's common counters,
//               its settings and extra columns (cache/layer_kind.h, of
//               every layer in cache/registry/layer_kinds.h), warnings. A
//               cell whose workload failed keeps one row with the error.
//               The columns are ONE table of {name, value} entries
//               (runs_csv_reporter.cc), so the header cannot drift from
//               the values; results/README.md documents each.
//   series.csv  one row per cell and second (and per drain poll): the
//               per-second IOPS, hit ratio and dirty data
//               (record/cell_series.h SeriesRows), columns from one
//               {name, value} table as well.
// Both are written with their header at the start and rewritten whole
// (temporary file + rename) after every cell, so an interrupted compare
// leaves valid files with every finished cell.
// Errors: SysError naming the folder or file. Not thread-safe.
#ifndef TIERBENCH_REPORT_RUNS_CSV_REPORTER_H_
#define TIERBENCH_REPORT_RUNS_CSV_REPORTER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record/reporter.h"
#include "util/csv_writer.h"
#include "util/result_dir.h"

namespace tierbench {

// 2: layer-neutral counter columns (read_hits, write_hits, promotions, ...),
// cache_bytes, settings and the layers' extra columns. 3: working_set and
// working_set_bytes after "workload"; warm_s, warm_hit_ratio_pct and
// warm_steady after warm_passes (--cache-state warm-until-steady).
// The result columns gained sched_lat_* and ss_attained/ss_criterion.
// 4: iops_sustained after iops; cell_wall_s and harness_overhead_pct
// after the metric columns; drain_after_s is timed from the IO stop.
// 5: verify_blocks and verify_errors before warnings (compare --verify).
// 6: counters_after_s after drain_after_s (the counters of a lagging layer
// are read at its first fold after the IO stop, not always --stats-lag).
// 7: valid and invalid_reasons after cache_state (the cell's validity,
// util/finding.h; the run-level rules are added when the compare ends);
// the evidence columns of the validity rules (validity/cell_evidence.h)
// after harness_overhead_pct: settled, window_s, cpus, cpu_busy_pct,
// cpu_steal_pct, cpu_iowait_pct, target_device, target_busy_pct,
// target_in_flight_before, target_flush_ios, target_read_bytes,
// other_disk_ios, db_size_bytes, shared_buffers_bytes, mem_total_bytes,
// db_restarted, db_server_cpu_s; finding_rules ("rule:severity" of every
// finding, ';'-joined) before warnings. Later, without a new version (a
// column added, none changed): db_reused after db_restarted.
// 8: the SSD wear columns (record/ssd_wear.h) after ssd_write_bytes:
// ssd_write_per_app_write, ssd_write_per_app_byte, hdd_bytes_saved,
// ssd_life_days (compare --ssd-tbw).
inline constexpr int kRunsCsvSchemaVersion = 8;

// Every runs.csv column (after schema_version), in file order: run_id,
// mode, layer, cache_mode_readback, workload, working_set,
// working_set_bytes, repetition, target, cache_state, valid,
// invalid_reasons; the metric columns with iops_sustained after iops;
// cell_wall_s, harness_overhead_pct; the evidence columns; the counter,
// setting and layer columns (the SSD wear columns of record/ssd_wear.h
// after ssd_write_bytes); verify_blocks, verify_errors (the --verify
// check of the cell's stack: blocks checked per step and blocks that
// differed; empty for raw cells and without --verify); finding_rules,
// warnings.
const std::vector<std::string>& RunsCsvColumns();

// The runs.csv rows of a finished cell of run `run_id`, in column order;
// `verify`: the --verify check of the cell's stack (may be null);
// `ssd_tbw_bytes`: the SSD's TBW rating in bytes for ssd_life_days (empty:
// the column stays empty).
std::vector<std::vector<std::string>> RunsCsvRows(
    const std::string& run_id, const CellRecord& rec,
    const VerifyOutcome* verify = nullptr,
    std::optional<double> ssd_tbw_bytes = {});

inline constexpr int kSeriesCsvSchemaVersion = 1;

// series.csv columns after schema_version: run_id, mode, layer, workload,
// repetition, then phase, t_s, read_iops, write_iops, hit_ratio_pct,
// dirty_bytes.
const std::vector<std::string>& SeriesCsvColumns();

class RunsCsvReporter : public Reporter {
 public:
  RunsCsvReporter();

  // Creates the run folder and writes both headers.
  void OnCompareStart(const CompareStart& start) override;
  // --verify: the stacks' checks, for the verify_* columns.
  void OnVerifyStart(const VerifyStart& start) override;
  void OnVerifyStep(const VerifyStep& step) override;
  // Adds the cell's rows and rewrites both files.
  void OnCell(const CellRecord& rec) override;
  // Adds the run-level findings (CompareEnd::workload_findings) to the rows
  // of their workloads and rewrites runs.csv.
  void OnCompareEnd(const CompareEnd& end) override;

 private:
  std::optional<ResultDir> dir_;
  std::string run_id_;
  std::optional<double> ssd_tbw_bytes_;          // --ssd-tbw in bytes
  std::map<std::string, VerifyOutcome> verify_;  // by stack device
  CsvTable runs_;
  // Per runs.csv row: its cell's workload and findings.
  std::vector<std::pair<std::string, std::vector<Finding>>> row_findings_;
  CsvTable series_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_RUNS_CSV_REPORTER_H_
