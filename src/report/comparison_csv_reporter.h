// comparison.csv of a compare run: one row per mode x workload x job x
// direction (record/comparison.h), written at the end, also after an
// interruption (from the finished cells). Its columns are ONE table of
// {name, value} entries (comparison_csv_reporter.cc), so the header cannot
// drift from the values; results/README.md documents each.
// Errors: SysError naming the file when it cannot be written. Not
// thread-safe.
#ifndef TIERBENCH_REPORT_COMPARISON_CSV_REPORTER_H_
#define TIERBENCH_REPORT_COMPARISON_CSV_REPORTER_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "record/comparison.h"
#include "record/reporter.h"
#include "util/result_dir.h"

namespace tierbench {

// 2: a "layer" column after "mode". 3: the 95 % confidence intervals
// (*_ci_low_pct, *_ci_high_pct, iops_vs_*_ci_df) and significant_vs_hdd/ssd
// before "warnings".
// 4: iops_sustained_median, iops_sustained_vs_hdd_pct and
// iops_sustained_vs_ssd_pct after iops_spread_pct.
// 5: valid (yes, unknown, no) and invalid_reasons after "n": the row's
// validity (util/finding.h), the run-level rules included; finding_rules
// before warnings.
// 6: the SSD wear medians (record/ssd_wear.h) before finding_rules:
// ssd_write_per_app_write_median, ssd_write_per_app_byte_median,
// hdd_bytes_saved_median, ssd_life_days_median.
inline constexpr int kComparisonCsvSchemaVersion = 6;

// comparison.csv columns (after schema_version).
const std::vector<std::string>& ComparisonCsvColumns();

// The whole comparison.csv of `rows`.
void WriteComparisonCsv(const std::vector<ComparisonRow>& rows,
                        std::ostream& out);

class ComparisonCsvReporter : public Reporter {
 public:
  void OnCompareStart(const CompareStart& start) override;
  // Writes comparison.csv of end.comparison.
  void OnCompareEnd(const CompareEnd& end) override;

 private:
  std::optional<ResultDir> dir_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_COMPARISON_CSV_REPORTER_H_
