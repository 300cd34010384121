#include "orchestrate/results_writer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache/layer_registry.h"
#include "orchestrate/sustained.h"
#include "report/result_columns.h"
#include "util/errors.h"

namespace tierbench {
namespace fs = std::filesystem;
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ";") + p;
  return out;
}

std::string Opt(const std::optional<double>& v, int decimals) {
  return v ? CsvNumber(*v, decimals) : std::string();
}

std::string Flag(const std::optional<bool>& v) {
  return v ? (*v ? "1" : "0") : "";
}

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

// The metric columns of a row with iops_sustained after iops.
std::vector<std::string> MetricValues(const CellRecord& rec,
                                      const JobResult& job, IoDir d) {
  static const std::vector<std::string> names = ResultColumnNames();
  std::vector<std::string> v = ResultColumnValues(job, d);
  const auto at = std::find(names.begin(), names.end(), "iops");
  const std::optional<double> sustained = CellSustainedIops(rec, job, d);
  v.insert(v.begin() + (at - names.begin()) + 1,
           sustained ? CsvNumber(*sustained, 3) : std::string());
  return v;
}

std::vector<std::string> TimingValues(const CellRecord& rec) {
  const double pct = rec.HarnessOverheadPct();
  return {rec.cell_wall_s < 0 ? std::string() : CsvNumber(rec.cell_wall_s, 3),
          pct < 0 ? std::string() : CsvNumber(pct, 1)};
}

std::string Count(int64_t v) { return v < 0 ? std::string() : CsvNumber(v); }

// The counter, setting and extra columns of a cell (empty for raw ones).
std::vector<std::string> CounterValues(const CellRecord& rec) {
  std::vector<std::string> v;
  if (!rec.has_counters) {
    v.assign(RunsCsvCounterColumns().size() - 1, "");
    v.push_back(Join(rec.warnings));
    return v;
  }
  const LayerDelta& d = rec.delta;
  const double ratio = d.read_hit_ratio_pct();
  std::string settings;
  for (const auto& [k, val] : rec.readback.settings) {
    settings += (settings.empty() ? "" : " ") + k + "=" + val;
  }
  const bool dirty_known =
      d.dirty_before_bytes >= 0 && d.dirty_after_bytes >= 0;
  v = {Count(d.common.read_hits),
       Count(d.common.read_misses),
       ratio < 0 ? std::string() : CsvNumber(ratio, 1),
       Count(d.common.write_hits),
       Count(d.common.write_misses),
       Count(d.common.bypassed_ios),
       Count(d.common.bypassed_bytes),
       Count(d.common.promotions),
       Count(d.common.demotions),
       Count(d.dirty_before_bytes),
       Count(d.dirty_after_bytes),
       dirty_known ? std::to_string(d.dirty_growth_bytes()) : std::string(),
       CsvNumber(rec.drain_before_s, 1),
       CsvNumber(rec.drain_after_s, 1),
       CsvNumber(d.stack.read_bytes()),
       CsvNumber(d.stack.write_bytes()),
       CsvNumber(d.origin.read_bytes()),
       CsvNumber(d.origin.write_bytes()),
       CsvNumber(d.cache.read_bytes()),
       CsvNumber(d.cache.write_bytes()),
       Count(rec.stack.cache_bytes),
       Count(rec.stack.cache_block_bytes),
       std::to_string(rec.warm_passes),
       rec.warm_s < 0 ? std::string() : CsvNumber(rec.warm_s, 1),
       rec.warm_hit_pct < 0 ? std::string() : CsvNumber(rec.warm_hit_pct, 1),
       rec.warm_steady < 0 ? std::string() : std::to_string(rec.warm_steady),
       settings};
  for (const LayerKind& kind : AllLayerKinds()) {
    for (const ExtraColumn& c : kind.extra_columns) {
      if (kind.name != rec.mode->layer) {
        v.emplace_back();
        continue;
      }
      auto e = d.extra.find(c.key);
      if (e != d.extra.end()) {
        v.push_back(Count(e->second));
        continue;
      }
      auto st = rec.readback.settings.find(c.key);
      v.push_back(st == rec.readback.settings.end() ? std::string()
                                                    : st->second);
    }
  }
  v.push_back(Join(rec.warnings));
  return v;
}

}  // namespace

const std::vector<std::string>& RunsCsvLeadingColumns() {
  static const std::vector<std::string> cols = {"run_id",
                                                "mode",
                                                "layer",
                                                "cache_mode_readback",
                                                "workload",
                                                "working_set",
                                                "working_set_bytes",
                                                "repetition",
                                                "target",
                                                "cache_state"};
  return cols;
}

const std::vector<std::string>& RunsCsvCounterColumns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = {
        "read_hits",          "read_misses",       "read_hit_ratio_pct",
        "write_hits",         "write_misses",      "bypassed_ios",
        "bypassed_bytes",     "promotions",        "demotions",
        "dirty_before_bytes", "dirty_after_bytes", "dirty_growth_bytes",
        "drain_before_s",     "drain_after_s",     "stack_read_bytes",
        "stack_write_bytes",  "hdd_read_bytes",    "hdd_write_bytes",
        "ssd_read_bytes",     "ssd_write_bytes",   "cache_bytes",
        "cache_block_bytes",  "warm_passes",       "warm_s",
        "warm_hit_ratio_pct", "warm_steady",       "settings"};
    for (const LayerKind& kind : AllLayerKinds()) {
      for (const ExtraColumn& e : kind.extra_columns) c.push_back(e.column);
    }
    c.push_back("warnings");
    return c;
  }();
  return cols;
}

const std::vector<std::string>& RunsCsvTimingColumns() {
  static const std::vector<std::string> cols = {"cell_wall_s",
                                                "harness_overhead_pct"};
  return cols;
}

const std::vector<std::string>& RunsCsvColumns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = RunsCsvLeadingColumns();
    for (const std::string& m : ResultColumnNames()) {
      c.push_back(m);
      if (m == "iops") c.push_back("iops_sustained");
    }
    for (const std::string& t : RunsCsvTimingColumns()) c.push_back(t);
    for (const std::string& k : RunsCsvCounterColumns()) c.push_back(k);
    return c;
  }();
  return cols;
}

const std::vector<std::string>& ComparisonCsvColumns() {
  static const std::vector<std::string> cols = {"mode",
                                                "layer",
                                                "baseline",
                                                "workload",
                                                "job",
                                                "direction",
                                                "unit",
                                                "n",
                                                "iops_median",
                                                "iops_min",
                                                "iops_max",
                                                "iops_spread_pct",
                                                "iops_sustained_median",
                                                "iops_sustained_vs_hdd_pct",
                                                "iops_sustained_vs_ssd_pct",
                                                "bw_mib_s_median",
                                                "lat_mean_us_median",
                                                "lat_p99_us_median",
                                                "lat_p99_us_min",
                                                "lat_p99_us_max",
                                                "iops_vs_hdd_pct",
                                                "iops_vs_ssd_pct",
                                                "iops_position",
                                                "p99_vs_hdd_pct",
                                                "p99_vs_ssd_pct",
                                                "p99_position",
                                                "noise",
                                                "noise_vs_hdd",
                                                "noise_vs_ssd",
                                                "iops_vs_hdd_ci_low_pct",
                                                "iops_vs_hdd_ci_high_pct",
                                                "iops_vs_ssd_ci_low_pct",
                                                "iops_vs_ssd_ci_high_pct",
                                                "iops_vs_hdd_ci_df",
                                                "iops_vs_ssd_ci_df",
                                                "p99_vs_hdd_ci_low_pct",
                                                "p99_vs_hdd_ci_high_pct",
                                                "p99_vs_ssd_ci_low_pct",
                                                "p99_vs_ssd_ci_high_pct",
                                                "significant_vs_hdd",
                                                "significant_vs_ssd",
                                                "warnings"};
  return cols;
}

std::vector<MeasuredRow> MeasuredRowsOf(const CellRecord& rec) {
  std::vector<MeasuredRow> out;
  if (!rec.error.empty()) return out;
  for (const JobResult& job : rec.result.jobs) {
    if (!job.error.empty()) continue;
    for (IoDir d : ReportedDirections(job)) {
      const DirectionStats& s = job.dir[static_cast<int>(d)];
      const bool tx = job.unit == "tx";
      const RunningStat& lat = tx ? s.lat : s.clat;
      const LatencyHistogram& hist = tx ? s.lat_hist : s.clat_hist;
      MeasuredRow r;
      r.mode = rec.mode->name;
      r.layer = rec.mode->layer;
      r.baseline =
          rec.mode->is_raw() ? std::string(rec.mode->target_name()) : "";
      r.workload = rec.workload->name;
      r.job = job.name;
      r.direction = IoDirName(d);
      r.unit = job.unit;
      r.repetition = rec.cell.repetition;
      r.iops = job.Iops(d);
      r.iops_sustained = CellSustainedIops(rec, job, d);
      r.bw_mib_s = tx ? 0 : job.BytesPerSec(d) / (1 << 20);
      r.lat_mean_us = lat.mean() / 1000.0;
      r.lat_p99_us = static_cast<double>(hist.Percentile(99)) / 1000.0;
      r.warnings = rec.warnings;
      out.push_back(std::move(r));
    }
  }
  return out;
}

ResultsWriter::ResultsWriter(std::string run_dir, std::string run_id)
    : run_dir_(std::move(run_dir)),
      run_id_(std::move(run_id)),
      runs_(RunsCsvColumns(), kRunsCsvSchemaVersion),
      series_(SeriesCsvColumns(), kSeriesCsvSchemaVersion) {
  std::error_code ec;
  fs::create_directories(run_dir_, ec);
  if (ec) {
    throw SysError(
        "cannot create the results directory. Key: path: " + run_dir_ +
        "; SysErr: " + ec.message() + "; Fix: choose a writable --results");
  }
  std::ostringstream header;
  runs_.Write(header);
  WriteFileAtomically("runs.csv", header.str());
  std::ostringstream series_header;
  series_.Write(series_header);
  WriteFileAtomically("series.csv", series_header.str());
}

std::string ResultsWriter::Path(const std::string& file) const {
  return (fs::path(run_dir_) / file).string();
}

void ResultsWriter::WriteFileAtomically(const std::string& file,
                                        const std::string& content) {
  const std::string path = Path(file);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      throw SysError("cannot write " + tmp +
                     ". Fix: check free space and permissions of --results");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    throw SysError("cannot rename " + tmp + " to " + path +
                   ". SysErr: " + ec.message());
  }
}

void ResultsWriter::AddCell(const CellRecord& rec) {
  std::vector<std::string> lead = {
      run_id_,
      rec.mode->name,
      rec.mode->layer,
      rec.readback.cache_mode,
      rec.workload->name,
      rec.workload->working_set,
      rec.workload->working_set_bytes == 0
          ? std::string()
          : std::to_string(rec.workload->working_set_bytes),
      std::to_string(rec.cell.repetition),
      rec.target,
      rec.cache_state};
  const std::vector<std::string> counters = CounterValues(rec);
  const std::vector<std::string> timing = TimingValues(rec);
  std::vector<JobResult> jobs = rec.result.jobs;
  if (!rec.error.empty()) {
    // The workload failed before producing results: one row keeps the error.
    JobResult failed;
    failed.name = rec.workload->name;
    failed.error = rec.error;
    jobs = {failed};
  }
  for (const JobResult& job : jobs) {
    for (IoDir d : ReportedDirections(job)) {
      std::vector<std::string> row = lead;
      for (std::string& v : MetricValues(rec, job, d))
        row.push_back(std::move(v));
      row.insert(row.end(), timing.begin(), timing.end());
      row.insert(row.end(), counters.begin(), counters.end());
      runs_.AddRow(std::move(row));
    }
  }
  std::ostringstream out;
  runs_.Write(out);
  WriteFileAtomically("runs.csv", out.str());
  for (SeriesRow& r : SeriesRows(rec.series, rec.result)) {
    series_.AddRow({run_id_, rec.mode->name, rec.mode->layer,
                    rec.workload->name, std::to_string(rec.cell.repetition),
                    std::move(r.phase), std::move(r.t_s),
                    std::move(r.read_iops), std::move(r.write_iops),
                    std::move(r.hit_ratio_pct), std::move(r.dirty_bytes)});
  }
  std::ostringstream series_out;
  series_.Write(series_out);
  WriteFileAtomically("series.csv", series_out.str());
}

void ResultsWriter::WriteComparison(const std::vector<ComparisonRow>& rows) {
  CsvTable table(ComparisonCsvColumns(), kComparisonCsvSchemaVersion);
  for (const ComparisonRow& c : rows) {
    std::optional<bool> noise;
    if (c.noise_vs_hdd || c.noise_vs_ssd) {
      noise = c.noise_vs_hdd.value_or(false) || c.noise_vs_ssd.value_or(false);
    }
    table.AddRow({c.mode,
                  c.layer,
                  c.baseline,
                  c.workload,
                  c.job,
                  c.direction,
                  c.unit,
                  std::to_string(c.iops.n),
                  CsvNumber(c.iops.median, 3),
                  CsvNumber(c.iops.min, 3),
                  CsvNumber(c.iops.max, 3),
                  CsvNumber(c.iops.rel_spread_pct, 2),
                  Opt(c.iops_sustained_median, 3),
                  Opt(c.iops_sustained_vs_hdd_pct, 2),
                  Opt(c.iops_sustained_vs_ssd_pct, 2),
                  CsvNumber(c.bw_mib_s_median, 3),
                  CsvNumber(c.lat_mean_us_median, 3),
                  CsvNumber(c.p99.median, 3),
                  CsvNumber(c.p99.min, 3),
                  CsvNumber(c.p99.max, 3),
                  Opt(c.iops_vs_hdd_pct, 2),
                  Opt(c.iops_vs_ssd_pct, 2),
                  Opt(c.iops_position, 4),
                  Opt(c.p99_vs_hdd_pct, 2),
                  Opt(c.p99_vs_ssd_pct, 2),
                  Opt(c.p99_position, 4),
                  Flag(noise),
                  Flag(c.noise_vs_hdd),
                  Flag(c.noise_vs_ssd),
                  Low(c.iops_vs_hdd_ci),
                  High(c.iops_vs_hdd_ci),
                  Low(c.iops_vs_ssd_ci),
                  High(c.iops_vs_ssd_ci),
                  Df(c.iops_vs_hdd_ci),
                  Df(c.iops_vs_ssd_ci),
                  Low(c.p99_vs_hdd_ci),
                  High(c.p99_vs_hdd_ci),
                  Low(c.p99_vs_ssd_ci),
                  High(c.p99_vs_ssd_ci),
                  Flag(c.significant_vs_hdd),
                  Flag(c.significant_vs_ssd),
                  Join(c.warnings)});
  }
  std::ostringstream out;
  table.Write(out);
  WriteFileAtomically("comparison.csv", out.str());
}

void ResultsWriter::WriteManifest(const nlohmann::json& manifest) {
  WriteFileAtomically("manifest.json", manifest.dump(2) + "\n");
}

}  // namespace tierbench
