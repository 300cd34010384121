// ComparisonRow: one line of comparison.csv as the cells' records give it
// (record/comparison.h) and the reporters write it: a mode x workload x
// job x direction summarised over its repetitions and set against each raw
// baseline, the HDD and the SSD, in one VsBaseline each. Numbers only,
// std::optional where a figure is unknown; no text.
#ifndef TIERBENCH_RECORD_COMPARISON_ROW_H_
#define TIERBENCH_RECORD_COMPARISON_ROW_H_

#include <optional>
#include <string>
#include <vector>

#include "record/ssd_wear.h"
#include "stats/confidence.h"
#include "util/finding.h"

namespace tierbench {

// Summary of a metric over repetitions.
struct Spread {
  int n = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double rel_spread_pct = 0;  // (max - min) / median * 100; 0 for n < 2
};

// A row against one raw baseline (the HDD or the SSD) of the same workload,
// job and direction. Every field is empty when the run has no such baseline.
struct VsBaseline {
  // (x - base) / base * 100 of the IOPS (or tps) median, of the median
  // iops_sustained against the base's IOPS median (empty when no repetition
  // has one) and of the p99 median; empty when the base's figure is zero.
  std::optional<double> iops_pct, iops_sustained_pct, p99_pct;
  // true: within the repetitions' spread; empty: unknown (n < 2).
  std::optional<bool> noise;
  // 95 % intervals of iops_pct and p99_pct; empty below 3 repetitions and
  // for the base itself.
  std::optional<ChangeInterval> iops_ci, p99_ci;
  // The IOPS interval excludes 0; empty without an interval.
  std::optional<bool> significant;
  // This row is the baseline itself (its change is 0 by definition, not a
  // measured agreement).
  bool is_base = false;
};

struct ComparisonRow {
  std::string mode, layer, baseline, workload, job, direction, unit;
  Spread iops;
  Spread p99;
  double bw_mib_s_median = 0;
  double lat_mean_us_median = 0;
  // Median of the repetitions' iops_sustained; empty when none has one.
  std::optional<double> iops_sustained_median;
  // Medians over the repetitions that have each figure
  // (record/ssd_wear.h); empty when none has.
  SsdWear wear;
  VsBaseline vs_hdd, vs_ssd;
  // (x - hdd) / (ssd - hdd) of the IOPS and the p99 medians; empty without
  // both baselines or when they are equal.
  std::optional<double> iops_position, p99_position;
  std::vector<Finding> findings;  // distinct, first-seen order
  Validity validity() const { return ValidityOf(findings); }
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_COMPARISON_ROW_H_
