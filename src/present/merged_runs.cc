#include "present/merged_runs.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "util/csv_writer.h"

namespace tierbench {
namespace {

using Key =
    std::tuple<std::string, std::string, std::string, std::string, std::string>;

Key KeyOf(const ReportFigure& f) {
  return {f.layer, f.mode, f.workload, f.job, f.direction};
}

std::string Hostname(const RunFolder& run) {
  const nlohmann::json& m = run.manifest();
  return m.contains("hostname") && m["hostname"].is_string()
             ? m["hostname"].get<std::string>()
             : std::string();
}

bool Failed(const RunFolder& run, const std::string& mode,
            const std::string& workload) {
  for (const FailedCell& c : run.failures()) {
    if (c.mode == mode && c.workload == workload) return true;
  }
  return false;
}

}  // namespace

std::string RunName(const std::string& dir) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  const std::string name = p.filename().string();
  return name.empty() || name == "." ? dir : name;
}

const std::vector<std::string>& MergedCsvColumns() {
  static const std::vector<std::string> cols = {"layer",
                                                "mode",
                                                "baseline",
                                                "workload",
                                                "job",
                                                "direction",
                                                "unit",
                                                "run",
                                                "host",
                                                "vs_run",
                                                "status",
                                                "n",
                                                "iops_median",
                                                "iops_min",
                                                "iops_max",
                                                "iops_spread_pct",
                                                "lat_p99_us_median",
                                                "iops_vs_hdd_pct",
                                                "iops_vs_ssd_pct",
                                                "iops_vs_first_pct",
                                                "iops_vs_first_ci_low_pct",
                                                "iops_vs_first_ci_high_pct",
                                                "iops_vs_first_ci_df",
                                                "significant_vs_first",
                                                "noise_vs_first"};
  return cols;
}

std::optional<bool> MergedCell::within_noise() const {
  std::optional<bool> significant;
  if (vs_first_ci) significant = vs_first_ci->significant();
  return DifferenceWithinNoise(significant, ranges_overlap);
}

MergedRuns::MergedRuns(std::vector<const RunFolder*> runs)
    : runs_(std::move(runs)) {
  // Names: folder name, then + host, then + position, until unique.
  for (size_t i = 0; i < runs_.size(); ++i) {
    names_.push_back(RunName(runs_[i]->dir()));
  }
  for (size_t i = 0; i < runs_.size(); ++i) {
    const auto same = [&](size_t j) { return names_[j] == names_[i]; };
    bool dup = false;
    for (size_t j = 0; j < runs_.size(); ++j) dup = dup || (j != i && same(j));
    if (!dup) continue;
    const std::string base = names_[i];
    for (size_t j = i; j < runs_.size(); ++j) {
      if (names_[j] != base) continue;
      const std::string host = Hostname(*runs_[j]);
      names_[j] = base + (host.empty() ? "" : " (" + host + ")");
    }
  }
  for (size_t i = 0; i < runs_.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (names_[j] == names_[i]) {
        names_[i] += " #" + std::to_string(i + 1);
        break;
      }
    }
  }

  // Rows: union of the runs' figures, first-seen order.
  std::vector<Key> keys;
  for (const RunFolder* run : runs_) {
    for (const std::string& w : run->workloads()) {
      if (std::find(workloads_.begin(), workloads_.end(), w) ==
          workloads_.end()) {
        workloads_.push_back(w);
      }
    }
    for (const ReportFigure& f : run->figures()) {
      const Key key = KeyOf(f);
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      keys.push_back(key);
      MergedRow row;
      row.layer = f.layer;
      row.mode = f.mode;
      row.baseline = f.baseline;
      row.workload = f.workload;
      row.job = f.job;
      row.direction = f.direction;
      row.unit = f.unit;
      row.series = f.series;
      rows_.push_back(row);
    }
  }
  // Rows grouped by workload (workload order), first-seen order within.
  std::stable_sort(rows_.begin(), rows_.end(),
                   [this](const MergedRow& a, const MergedRow& b) {
                     auto at = [this](const std::string& w) {
                       return std::find(workloads_.begin(), workloads_.end(),
                                        w) -
                              workloads_.begin();
                     };
                     return at(a.workload) < at(b.workload);
                   });
  for (MergedRow& row : rows_) {
    for (const RunFolder* run : runs_) {
      MergedCell cell;
      for (const ReportFigure& f : run->figures()) {
        if (f.layer == row.layer && f.mode == row.mode &&
            f.workload == row.workload && f.job == row.job &&
            f.direction == row.direction) {
          cell.figure = &f;
        }
      }
      cell.status = cell.figure != nullptr                 ? "measured"
                    : Failed(*run, row.mode, row.workload) ? "failed"
                                                           : "missing";
      if (row.series.empty() && cell.figure != nullptr)
        row.series = cell.figure->series;
      row.runs.push_back(cell);
    }
    const ReportFigure* first = row.runs[0].figure;
    for (size_t i = 1; i < row.runs.size() && first != nullptr; ++i) {
      MergedCell& c = row.runs[i];
      if (c.figure == nullptr) continue;
      if (first->iops_median != 0) {
        c.vs_first_pct = (c.figure->iops_median - first->iops_median) /
                         first->iops_median * 100;
      }
      c.vs_first_ci =
          LogChangeInterval95(c.figure->iops_values, first->iops_values);
      if (c.figure->n >= 2 && first->n >= 2) {
        c.ranges_overlap = c.figure->iops_min <= first->iops_max &&
                           first->iops_min <= c.figure->iops_max;
      }
    }
  }
}

std::vector<const MergedRow*> MergedRuns::RowsOf(
    const std::string& workload) const {
  std::vector<const MergedRow*> out;
  for (const MergedRow& r : rows_) {
    if (r.workload == workload) out.push_back(&r);
  }
  return out;
}

std::vector<std::string> MergedRuns::MissingCells() const {
  std::vector<std::string> out;
  for (const MergedRow& r : rows_) {
    for (size_t i = 0; i < r.runs.size(); ++i) {
      if (r.runs[i].figure != nullptr) continue;
      out.push_back(names_[i] + ": " + r.mode + " on " + r.workload +
                    (r.series.empty() ? "" : " " + r.series) + " (" +
                    r.runs[i].status + ")");
    }
  }
  return out;
}

std::string MergedRuns::Csv() const {
  CsvTable table(MergedCsvColumns(), kMergedCsvSchemaVersion);
  for (const MergedRow& r : rows_) {
    for (size_t i = 0; i < r.runs.size(); ++i) {
      const MergedCell& c = r.runs[i];
      const ReportFigure* f = c.figure;
      std::vector<std::string> v = {r.layer,
                                    r.mode,
                                    r.baseline,
                                    r.workload,
                                    r.job,
                                    r.direction,
                                    r.unit,
                                    names_[i],
                                    Hostname(*runs_[i]),
                                    i == 0 ? std::string() : names_[0],
                                    c.status};
      if (f == nullptr) {
        v.resize(MergedCsvColumns().size());
      } else {
        const std::optional<ChangeInterval>& ci = c.vs_first_ci;
        std::vector<std::string> more = {std::to_string(f->n),
                                         CsvNumber(f->iops_median, 3),
                                         CsvNumber(f->iops_min, 3),
                                         CsvNumber(f->iops_max, 3),
                                         CsvNumber(f->iops_spread_pct, 2),
                                         CsvNumber(f->p99_us, 3),
                                         CsvOptional(f->iops_vs_hdd_pct, 2),
                                         CsvOptional(f->iops_vs_ssd_pct, 2),
                                         CsvOptional(c.vs_first_pct, 2),
                                         ci ? CsvNumber(ci->low_pct, 2) : "",
                                         ci ? CsvNumber(ci->high_pct, 2) : "",
                                         ci ? CsvNumber(ci->df, 2) : "",
                                         ci ? CsvFlag(ci->significant()) : "",
                                         CsvFlag(c.ranges_overlap)};
        v.insert(v.end(), more.begin(), more.end());
      }
      table.AddRow(std::move(v));
    }
  }
  std::ostringstream out;
  table.Write(out);
  return out.str();
}

}  // namespace tierbench
