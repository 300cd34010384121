#include "report/comparison_csv_reporter.h"

#include <sstream>

#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "report/column_table.h"
#include "util/csv_writer.h"

namespace tierbench {
namespace {

// The low, high (or df) value of an interval; "" without one.
std::string Low(const std::optional<ChangeInterval>& ci) {
  return ci ? CsvNumber(ci->low_pct, 2) : std::string();
}
std::string High(const std::optional<ChangeInterval>& ci) {
  return ci ? CsvNumber(ci->high_pct, 2) : std::string();
}
std::string Df(const std::optional<ChangeInterval>& ci) {
  return ci ? CsvNumber(ci->df, 2) : std::string();
}

// "noise": either baseline's change is within the min-max noise.
std::optional<bool> AnyNoise(const ComparisonRow& c) {
  if (!c.vs_hdd.noise && !c.vs_ssd.noise) return std::nullopt;
  return c.vs_hdd.noise.value_or(false) || c.vs_ssd.noise.value_or(false);
}

// THE column list, in file order.
const ColumnTable<ComparisonRow>& ComparisonColumns() {
  using R = const ComparisonRow&;
  static const ColumnTable<ComparisonRow> kColumns({
      {"mode", [](R c) { return c.mode; }},
      {"layer", [](R c) { return c.layer; }},
      {"baseline", [](R c) { return c.baseline; }},
      {"workload", [](R c) { return c.workload; }},
      {"job", [](R c) { return c.job; }},
      {"direction", [](R c) { return c.direction; }},
      {"unit", [](R c) { return c.unit; }},
      {"n", [](R c) { return std::to_string(c.iops.n); }},
      {"valid", [](R c) { return std::string(ValidityName(c.validity())); }},
      {"invalid_reasons", [](R c) { return ValidityReasons(c.findings); }},
      {"iops_median", [](R c) { return CsvNumber(c.iops.median, 3); }},
      {"iops_min", [](R c) { return CsvNumber(c.iops.min, 3); }},
      {"iops_max", [](R c) { return CsvNumber(c.iops.max, 3); }},
      {"iops_spread_pct",
       [](R c) { return CsvNumber(c.iops.rel_spread_pct, 2); }},
      {"iops_sustained_median",
       [](R c) { return CsvOptional(c.iops_sustained_median, 3); }},
      {"iops_sustained_vs_hdd_pct",
       [](R c) { return CsvOptional(c.vs_hdd.iops_sustained_pct, 2); }},
      {"iops_sustained_vs_ssd_pct",
       [](R c) { return CsvOptional(c.vs_ssd.iops_sustained_pct, 2); }},
      {"bw_mib_s_median", [](R c) { return CsvNumber(c.bw_mib_s_median, 3); }},
      {"lat_mean_us_median",
       [](R c) { return CsvNumber(c.lat_mean_us_median, 3); }},
      {"lat_p99_us_median", [](R c) { return CsvNumber(c.p99.median, 3); }},
      {"lat_p99_us_min", [](R c) { return CsvNumber(c.p99.min, 3); }},
      {"lat_p99_us_max", [](R c) { return CsvNumber(c.p99.max, 3); }},
      {"iops_vs_hdd_pct",
       [](R c) { return CsvOptional(c.vs_hdd.iops_pct, 2); }},
      {"iops_vs_ssd_pct",
       [](R c) { return CsvOptional(c.vs_ssd.iops_pct, 2); }},
      {"iops_position", [](R c) { return CsvOptional(c.iops_position, 4); }},
      {"p99_vs_hdd_pct", [](R c) { return CsvOptional(c.vs_hdd.p99_pct, 2); }},
      {"p99_vs_ssd_pct", [](R c) { return CsvOptional(c.vs_ssd.p99_pct, 2); }},
      {"p99_position", [](R c) { return CsvOptional(c.p99_position, 4); }},
      {"noise", [](R c) { return CsvFlag(AnyNoise(c)); }},
      {"noise_vs_hdd", [](R c) { return CsvFlag(c.vs_hdd.noise); }},
      {"noise_vs_ssd", [](R c) { return CsvFlag(c.vs_ssd.noise); }},
      {"iops_vs_hdd_ci_low_pct", [](R c) { return Low(c.vs_hdd.iops_ci); }},
      {"iops_vs_hdd_ci_high_pct", [](R c) { return High(c.vs_hdd.iops_ci); }},
      {"iops_vs_ssd_ci_low_pct", [](R c) { return Low(c.vs_ssd.iops_ci); }},
      {"iops_vs_ssd_ci_high_pct", [](R c) { return High(c.vs_ssd.iops_ci); }},
      {"iops_vs_hdd_ci_df", [](R c) { return Df(c.vs_hdd.iops_ci); }},
      {"iops_vs_ssd_ci_df", [](R c) { return Df(c.vs_ssd.iops_ci); }},
      {"p99_vs_hdd_ci_low_pct", [](R c) { return Low(c.vs_hdd.p99_ci); }},
      {"p99_vs_hdd_ci_high_pct", [](R c) { return High(c.vs_hdd.p99_ci); }},
      {"p99_vs_ssd_ci_low_pct", [](R c) { return Low(c.vs_ssd.p99_ci); }},
      {"p99_vs_ssd_ci_high_pct", [](R c) { return High(c.vs_ssd.p99_ci); }},
      {"significant_vs_hdd", [](R c) { return CsvFlag(c.vs_hdd.significant); }},
      {"significant_vs_ssd", [](R c) { return CsvFlag(c.vs_ssd.significant); }},
      {"ssd_write_per_app_write_median",
       [](R c) { return CsvOptional(c.wear.ssd_write_per_app_write, 6); }},
      {"ssd_write_per_app_byte_median",
       [](R c) { return CsvOptional(c.wear.ssd_write_per_app_byte, 6); }},
      {"hdd_bytes_saved_median",
       [](R c) {
         return c.wear.hdd_bytes_saved ? std::to_string(*c.wear.hdd_bytes_saved)
                                       : std::string();
       }},
      {"ssd_life_days_median",
       [](R c) { return CsvOptional(c.wear.ssd_life_days, 1); }},
      {"finding_rules",
       [](R c) {
         std::string out;
         for (const Finding& f : c.findings) {
           out += (out.empty() ? "" : ";") + f.rule + ":" +
                  SeverityName(f.severity);
         }
         return out;
       }},
      {"warnings", [](R c) { return JoinWarnings(FindingTexts(c.findings)); }},
  });
  return kColumns;
}

}  // namespace

const std::vector<std::string>& ComparisonCsvColumns() {
  return ComparisonColumns().names();
}

void WriteComparisonCsv(const std::vector<ComparisonRow>& rows,
                        std::ostream& out) {
  CsvTable table(ComparisonCsvColumns(), kComparisonCsvSchemaVersion);
  for (const ComparisonRow& row : rows)
    table.AddRow(ComparisonColumns().Values(row));
  table.Write(out);
}

void ComparisonCsvReporter::OnCompareStart(const CompareStart& start) {
  dir_.emplace(start.setup.run_dir);
}

void ComparisonCsvReporter::OnCompareEnd(const CompareEnd& end) {
  std::ostringstream out;
  WriteComparisonCsv(end.comparison, out);
  dir_->Write("comparison.csv", out.str());
}

}  // namespace tierbench
