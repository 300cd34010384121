// MergedRuns: several run folders (one per host, kernel or SSD: a fleet)
// aligned by layer, mode, workload, job and direction, for
// `tierbench report runA runB ... --out DIR`.
//
// Runs are named by their folder's name (the last path component); when two
// folders share a name, the manifest's hostname is added ("run (host-b)"),
// and then a position ("#2"). Every later run is compared against the
// first: the change of the median IOPS in percent and, with >= 3
// repetitions on both sides, its 95 % interval (Welch's t on log IOPS,
// stats/confidence.h) from the runs.csv repetitions. A cell one run lacks
// is "missing" (or "failed" when that run's cells of the mode and workload
// failed) and is listed by MissingCells().
//
// merged.csv (schema_version kMergedCsvSchemaVersion, results/README.md):
// one row per aligned row and run, in the order of first appearance (first
// run first). Immutable after construction; const methods are thread-safe.
// The RunFolders must outlive this object.
#ifndef TIERBENCH_PRESENT_MERGED_RUNS_H_
#define TIERBENCH_PRESENT_MERGED_RUNS_H_

#include <optional>
#include <string>
#include <vector>

#include "present/run_folder.h"
#include "stats/confidence.h"
#include "util/csv_writer.h"

namespace tierbench {

inline constexpr int kMergedCsvSchemaVersion = 1;

// merged.csv columns (after schema_version).
const std::vector<std::string>& MergedCsvColumns();

// One run's side of an aligned row.
struct MergedCell {
  std::string status;                    // "measured", "failed", "missing"
  const ReportFigure* figure = nullptr;  // null unless measured
  // Against the first run (empty for the first run and missing sides).
  std::optional<double> vs_first_pct;
  std::optional<ChangeInterval> vs_first_ci;
  std::optional<bool> ranges_overlap;  // min-max overlap, n >= 2 both
  // Within noise of the first run: the interval, else the overlap.
  std::optional<bool> within_noise() const;
};

struct MergedRow {
  std::string layer, mode, baseline, workload, job, direction, unit;
  std::string series;            // "" or the label within the workload
  std::vector<MergedCell> runs;  // one per run, run order
};

class MergedRuns {
 public:
  // `runs` in the order given on the command line (at least one).
  explicit MergedRuns(std::vector<const RunFolder*> runs);

  const std::vector<const RunFolder*>& runs() const { return runs_; }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<MergedRow>& rows() const { return rows_; }
  // Workloads in first-seen order over the runs.
  const std::vector<std::string>& workloads() const { return workloads_; }
  std::vector<const MergedRow*> RowsOf(const std::string& workload) const;
  // "run: mode on workload series (failed|missing)" per absent cell.
  std::vector<std::string> MissingCells() const;

  // merged.csv as text.
  std::string Csv() const;

 private:
  std::vector<const RunFolder*> runs_;
  std::vector<std::string> names_;
  std::vector<MergedRow> rows_;
  std::vector<std::string> workloads_;
};

// The name of a run folder: its last path component ("results/run-a/" ->
// "run-a").
std::string RunName(const std::string& dir);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_MERGED_RUNS_H_
