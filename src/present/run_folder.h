// RunFolder: a `tierbench compare` run folder read back for reporting:
// runs.csv (schema_version 3 to 8), comparison.csv (schema 2 to 6: 2 has no
// confidence intervals, 4 and older no validity, 5 and older no SSD wear) and
// manifest.json (schema 2 to 4), see README "Results in <results>/<run-id>/"
// and results/README.md.
//
// Read() checks, in order: the folder exists; each file exists and is not
// empty; each file's schema_version is one this tierbench reads (an older
// readable one adds one line to notes()); each
// CSV has the columns the report uses; runs.csv has at least one row. Any
// failure throws ConfigError (exit 2) with one line naming the file and the
// fix. Optional columns (clat_p99_9_us) are used when present. mrc.csv
// (the LRU and OPT read hit curves, trace/read_hit_curve.h) is optional:
// read when present, refused like the others when bad.
//
// The figures are the comparison.csv rows, completed from runs.csv with the
// medians of the p50 and p99.9 latency over the repetitions; per mode x
// workload the time to clean (drain_after_s) over the repetitions; and the
// failed cells (runs.csv rows with an `error`). Orders follow first
// appearance in runs.csv. Immutable after Read(); const methods are
// thread-safe.
#ifndef TIERBENCH_PRESENT_RUN_FOLDER_H_
#define TIERBENCH_PRESENT_RUN_FOLDER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "trace/read_hit_curve.h"
#include "util/csv_reader.h"
#include "util/finding.h"

namespace tierbench {

// One comparison.csv row with the latency percentiles runs.csv adds.
struct ReportFigure {
  std::string mode, layer, baseline, workload, job, direction, unit;
  int n = 0;
  double iops_median = 0, iops_min = 0, iops_max = 0, iops_spread_pct = 0;
  double p99_us = 0, p99_min_us = 0, p99_max_us = 0;
  std::optional<double> p50_us, p999_us;  // medians over the repetitions
  std::optional<double> iops_vs_hdd_pct, iops_vs_ssd_pct, iops_position;
  std::optional<bool> noise_vs_hdd, noise_vs_ssd;  // empty: unknown
  // 95 % intervals of iops_vs_*_pct and whether they exclude 0; empty below
  // 3 repetitions and in comparison.csv schema 2.
  std::optional<double> iops_vs_hdd_ci_low, iops_vs_hdd_ci_high;
  std::optional<double> iops_vs_ssd_ci_low, iops_vs_ssd_ci_high;
  std::optional<bool> significant_vs_hdd, significant_vs_ssd;
  std::vector<double> iops_values;  // per repetition (runs.csv), run order
  std::vector<std::string> warnings;
  // comparison.csv's valid ("yes", "unknown", "no"; "" for schema 4 and
  // older, whose cells were never judged) and invalid_reasons.
  std::string valid;
  std::string invalid_reasons;
  // comparison.csv's finding_rules as "rule:severity" items (empty before
  // schema 5).
  std::vector<std::string> finding_rules;
  // comparison.csv's SSD wear medians (record/ssd_wear.h); empty for raw
  // rows, cells without counters and schema 5 and older.
  std::optional<double> ssd_write_per_app_write, ssd_write_per_app_byte;
  bool HasFinding(const std::string& rule_severity) const;
  // Its rate drifted within the run (a drift caution): the report ranks it
  // nowhere (present/verdict.h, the heat map's hatching).
  bool Drifted() const { return HasFinding("drift:caution"); }
  // The drift caution's warnings ("job x went from 46 to 32 IO/s between
  // ...", validity/measurement_rules.cc), one per job that drifted.
  std::vector<std::string> DriftWarnings() const;
  // The cache state the cells were measured in (runs.csv cache_state:
  // cold, warm, as-is, warm-until-steady); "" for raw cells.
  std::string cache_state;
  bool Invalid() const { return valid == "no"; }
  // "Within noise" of the HDD / SSD: the interval where there is one, else
  // the min-max overlap (stats/confidence.h DifferenceWithinNoise).
  std::optional<bool> within_noise_vs_hdd() const;
  std::optional<bool> within_noise_vs_ssd() const;
  bool is_raw() const { return !baseline.empty(); }
  // The series' label when the workload has several series, else "": the
  // direction ("read") when all of them are the same job, else
  // "job/direction".
  std::string series;
};

// drain_after_s of one mode x workload over its repetitions.
struct DrainFigure {
  std::string mode, workload;
  std::vector<double> seconds;  // one per repetition that reported it
};

// A runs.csv row whose workload failed.
struct FailedCell {
  std::string mode, workload, repetition, error;
};

class RunFolder {
 public:
  static constexpr int kRunsSchema = 8;
  // Read as current: 7 lacks only the SSD wear columns (no wear chart or
  // line then), 5 lacks only counters_after_s and 4 also
  // verify_blocks/verify_errors, which the report does not use (a run
  // without --verify leaves them empty anyway).
  static constexpr int kRunsSchemaNoVerify = 4;
  // read, time to clean timed after the stats lag, no iops_sustained
  static constexpr int kOldestRunsSchema = 3;
  static constexpr int kComparisonSchema = 6;
  // The first comparison.csv schema with valid / invalid_reasons.
  static constexpr int kComparisonSchemaValidity = 5;
  static constexpr int kOldestComparisonSchema = 2;  // read, no intervals
  static constexpr int kManifestSchema = 4;
  static constexpr int kOldestManifestSchema = 2;  // read, no "labels"

  // Reads and checks `dir` (see above). Throws ConfigError.
  static RunFolder Read(const std::string& dir);

  const std::string& dir() const { return dir_; }
  const nlohmann::json& manifest() const { return manifest_; }
  // The manifest's label `key` (compare --label key=value), or "" when it
  // has none or it is not a string.
  std::string Label(const std::string& key) const;
  const CsvDocument& runs() const { return runs_; }
  const CsvDocument& comparison() const { return comparison_; }

  const std::vector<std::string>& modes() const { return modes_; }
  const std::vector<std::string>& workloads() const { return workloads_; }
  const std::vector<ReportFigure>& figures() const { return figures_; }
  const std::vector<DrainFigure>& drains() const { return drains_; }
  const std::vector<FailedCell>& failures() const { return failures_; }
  // One line per older schema read ("comparison.csv: schema_version 2 is
  // older than 3: ..."), for the user; empty for a current folder.
  const std::vector<std::string>& notes() const { return notes_; }

  // mrc.csv's curves; empty without the file.
  const std::vector<ReadHitCurve>& read_hit_curves() const {
    return read_hit_curves_;
  }
  // The median over the repetitions of the cell's measured
  // read_hit_ratio_pct (runs.csv; failed repetitions left out); empty when
  // no repetition reported one.
  std::optional<double> ReadHitPct(const std::string& mode,
                                   const std::string& workload) const;
  // The layer of `mode` ("raw", "bcache", ...).
  std::string LayerOf(const std::string& mode) const;
  // Figures of `workload`, in file order.
  std::vector<const ReportFigure*> FiguresOf(const std::string& workload) const;
  // The series ("job/direction") of `workload` in first-seen order.
  std::vector<std::string> SeriesOf(const std::string& workload) const;
  // Labels of SeriesOf(workload), as ReportFigure::series.
  std::vector<std::string> SeriesLabels(const std::string& workload) const;
  // The baseline figure ("hdd" or "ssd") for `f`'s workload and series.
  const ReportFigure* Baseline(const ReportFigure& f,
                               const std::string& kind) const;

 private:
  RunFolder(std::string dir, CsvDocument runs, CsvDocument comparison,
            nlohmann::json manifest);
  void Build();

  std::string dir_;
  CsvDocument runs_;
  CsvDocument comparison_;
  nlohmann::json manifest_;
  std::vector<std::string> modes_, workloads_;
  std::vector<std::pair<std::string, std::string>> mode_layers_;
  std::vector<ReportFigure> figures_;
  std::vector<DrainFigure> drains_;
  std::vector<FailedCell> failures_;
  std::vector<std::string> notes_;
  std::vector<ReadHitCurve> read_hit_curves_;
};

// Splits a `warnings` cell (joined with ';') into its warnings.
std::vector<std::string> SplitWarnings(const std::string& cell);

// The findings of row `row` of runs.csv: its finding_rules ("rule:severity"
// items, ';'-joined) zipped with its warnings, in order. Rows of schema 6
// and older (no finding_rules) give each warning as a caution with an
// empty rule.
std::vector<Finding> FindingsOfRow(const CsvDocument& runs, size_t row);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_RUN_FOLDER_H_
