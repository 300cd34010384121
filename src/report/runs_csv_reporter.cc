#include "report/runs_csv_reporter.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "cache/registry/layer_kinds.h"
#include "record/cell_record.h"
#include "record/compare_options.h"
#include "record/ssd_wear.h"
#include "record/sustained.h"
#include "report/column_table.h"
#include "report/result_columns.h"

namespace tierbench {
namespace {

// What a column's value function sees: one row of one cell.
struct RunsRow {
  const std::string& run_id;
  const CellRecord& rec;
  const JobResult& job;
  IoDir dir;
  const std::vector<std::string>& metrics;  // ResultColumnValues(job, dir)
  const VerifyOutcome* verify;  // the cell's stack's --verify check, or null
  const SsdWear& wear;          // the cell's (record/ssd_wear.h)
};

using Column = CsvColumn<RunsRow>;

std::string Count(int64_t v) { return v < 0 ? std::string() : CsvNumber(v); }

// -1 (unknown) as an empty cell, else `v` with `decimals`.
std::string Known(double v, int decimals) {
  return v < 0 ? std::string() : CsvNumber(v, decimals);
}

// A column of the layer's counters: empty for cells without them (raw).
Column CounterColumn(std::string name,
                     std::function<std::string(const CellRecord&)> value) {
  return {std::move(name), [value = std::move(value)](const RunsRow& r) {
            return r.rec.has_counters ? value(r.rec) : std::string();
          }};
}

// A layer's extra column: its counter or setting `key`, empty for cells of
// other layers.
Column LayerExtraColumn(const LayerKind& kind, const ExtraColumn& c) {
  const std::string layer = kind.name, key = c.key;
  return CounterColumn(c.column, [layer, key](const CellRecord& rec) {
    if (layer != rec.mode->layer) return std::string();
    auto e = rec.delta.extra.find(key);
    if (e != rec.delta.extra.end()) return Count(e->second);
    auto st = rec.readback.settings.find(key);
    return st == rec.readback.settings.end() ? std::string() : st->second;
  });
}

// A common counter of the layer (CacheLayer's CommonCounters).
Column CommonColumn(std::string name, int64_t CommonCounters::*counter) {
  return CounterColumn(std::move(name), [counter](const CellRecord& rec) {
    return Count(rec.delta.common.*counter);
  });
}

// Bytes read or written on one device of the stack (BlockStat).
Column BytesColumn(std::string name, BlockStat LayerDelta::*device,
                   uint64_t (BlockStat::*bytes)() const) {
  return CounterColumn(std::move(name), [device, bytes](const CellRecord& rec) {
    return CsvNumber((rec.delta.*device.*bytes)());
  });
}

std::string Settings(const CellRecord& rec) {
  std::string settings;
  for (const auto& [k, val] : rec.readback.settings) {
    settings += (settings.empty() ? "" : " ") + k + "=" + val;
  }
  return settings;
}

void AddLeadingColumns(std::vector<Column>* cols) {
  using R = const RunsRow&;
  *cols = {
      {"run_id", [](R r) { return r.run_id; }},
      {"mode", [](R r) { return r.rec.mode->name; }},
      {"layer", [](R r) { return r.rec.mode->layer; }},
      {"cache_mode_readback", [](R r) { return r.rec.readback.cache_mode; }},
      {"workload", [](R r) { return r.rec.workload->name; }},
      {"working_set", [](R r) { return r.rec.workload->working_set; }},
      {"working_set_bytes",
       [](R r) {
         const uint64_t b = r.rec.workload->working_set_bytes;
         return b == 0 ? std::string() : std::to_string(b);
       }},
      {"repetition", [](R r) { return std::to_string(r.rec.cell.repetition); }},
      {"target", [](R r) { return r.rec.target; }},
      {"cache_state", [](R r) { return r.rec.cache_state; }},
      {"valid",
       [](R r) { return std::string(ValidityName(r.rec.validity())); }},
      {"invalid_reasons", [](R r) { return ValidityReasons(r.rec.findings); }},
  };
}

// The metric columns of report/result_columns.h, iops_sustained after iops.
void AddMetricColumns(std::vector<Column>* cols) {
  const std::vector<std::string> names = ResultColumnNames();
  for (size_t i = 0; i < names.size(); ++i) {
    cols->push_back({names[i], [i](const RunsRow& r) { return r.metrics[i]; }});
    if (names[i] != "iops") continue;
    cols->push_back({"iops_sustained", [](const RunsRow& r) {
                       const std::optional<double> sustained =
                           CellSustainedIops(r.rec, r.job, r.dir);
                       return sustained ? CsvNumber(*sustained, 3)
                                        : std::string();
                     }});
  }
}

void AddTimingColumns(std::vector<Column>* cols) {
  cols->push_back({"cell_wall_s", [](const RunsRow& r) {
                     return Known(r.rec.cell_wall_s, 3);
                   }});
  cols->push_back({"harness_overhead_pct", [](const RunsRow& r) {
                     return Known(r.rec.HarnessOverheadPct(), 1);
                   }});
}

// The validity rules' evidence (validity/cell_evidence.h); unknown values
// are empty cells.
void AddEvidenceColumns(std::vector<Column>* cols) {
  using R = const RunsRow&;
  auto i64 = [](int64_t v) { return Count(v); };
  const std::vector<Column> evidence = {
      {"settled",
       [](R r) {
         const ModeSpec& m = *r.rec.mode;
         if (m.is_raw() && m.target == RawTarget::kHdd) return std::string();
         return std::string(r.rec.settled ? "1" : "0");
       }},
      {"window_s", [](R r) { return Known(r.rec.host.window_s, 3); }},
      {"cpus",
       [](R r) {
         return r.rec.host.cpus > 0 ? std::to_string(r.rec.host.cpus)
                                    : std::string();
       }},
      {"cpu_busy_pct", [](R r) { return Known(r.rec.host.cpu_busy_pct, 1); }},
      {"cpu_steal_pct", [](R r) { return Known(r.rec.host.cpu_steal_pct, 1); }},
      {"cpu_iowait_pct",
       [](R r) { return Known(r.rec.host.cpu_iowait_pct, 1); }},
      {"target_device", [](R r) { return r.rec.host.target; }},
      {"target_busy_pct",
       [](R r) { return Known(r.rec.host.target_busy_pct, 1); }},
      {"target_in_flight_before",
       [i64](R r) { return i64(r.rec.host.target_in_flight_before); }},
      {"target_flush_ios",
       [i64](R r) { return i64(r.rec.host.target_flush_ios); }},
      {"target_read_bytes",
       [i64](R r) { return i64(r.rec.host.target_read_bytes); }},
      {"other_disk_ios",
       [](R r) {
         if (!r.rec.host.disks_unknown_why.empty()) return std::string();
         uint64_t other = 0;
         for (const DiskActivity& d : r.rec.host.disks) other += d.OtherIos();
         return std::to_string(other);
       }},
      {"db_size_bytes",
       [i64](R r) {
         return r.rec.workload->is_db ? i64(r.rec.db_info.db_size_bytes)
                                      : std::string();
       }},
      {"shared_buffers_bytes",
       [i64](R r) {
         return r.rec.workload->is_db ? i64(r.rec.db_info.shared_buffers_bytes)
                                      : std::string();
       }},
      {"mem_total_bytes",
       [i64](R r) {
         return r.rec.workload->is_db ? i64(r.rec.db_info.mem_total_bytes)
                                      : std::string();
       }},
      {"db_restarted",
       [](R r) {
         if (!r.rec.workload->is_db || !r.rec.error.empty())
           return std::string();
         return std::string(r.rec.db_info.restarted_after_load ? "1" : "0");
       }},
      {"db_reused",
       [](R r) {
         if (!r.rec.workload->is_db || !r.rec.error.empty())
           return std::string();
         return std::string(r.rec.db_info.database_reused ? "1" : "0");
       }},
      {"db_server_cpu_s",
       [](R r) {
         return r.rec.workload->is_db ? Known(r.rec.db_info.server_cpu_s, 3)
                                      : std::string();
       }},
  };
  cols->insert(cols->end(), evidence.begin(), evidence.end());
}

// "rule:severity" of every finding, in order.
std::string FindingRules(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += (out.empty() ? "" : ";") + f.rule + ":" + SeverityName(f.severity);
  }
  return out;
}

// What the cell cost the SSD (record/ssd_wear.h); empty where unknown.
void AddWearColumns(std::vector<Column>* cols) {
  using R = const RunsRow&;
  const std::vector<Column> wear = {
      {"ssd_write_per_app_write",
       [](R r) { return CsvOptional(r.wear.ssd_write_per_app_write, 6); }},
      {"ssd_write_per_app_byte",
       [](R r) { return CsvOptional(r.wear.ssd_write_per_app_byte, 6); }},
      {"hdd_bytes_saved",
       [](R r) {
         return r.wear.hdd_bytes_saved ? std::to_string(*r.wear.hdd_bytes_saved)
                                       : std::string();
       }},
      {"ssd_life_days",
       [](R r) { return CsvOptional(r.wear.ssd_life_days, 1); }},
  };
  cols->insert(cols->end(), wear.begin(), wear.end());
}

void AddCounterColumns(std::vector<Column>* cols) {
  using R = const CellRecord&;
  const std::vector<Column> counters = {
      CommonColumn("read_hits", &CommonCounters::read_hits),
      CommonColumn("read_misses", &CommonCounters::read_misses),
      CounterColumn("read_hit_ratio_pct",
                    [](R c) { return Known(c.delta.read_hit_ratio_pct(), 1); }),
      CommonColumn("write_hits", &CommonCounters::write_hits),
      CommonColumn("write_misses", &CommonCounters::write_misses),
      CommonColumn("bypassed_ios", &CommonCounters::bypassed_ios),
      CommonColumn("bypassed_bytes", &CommonCounters::bypassed_bytes),
      CommonColumn("promotions", &CommonCounters::promotions),
      CommonColumn("demotions", &CommonCounters::demotions),
      CounterColumn("dirty_before_bytes",
                    [](R c) { return Count(c.delta.dirty_before_bytes); }),
      CounterColumn("dirty_after_bytes",
                    [](R c) { return Count(c.delta.dirty_after_bytes); }),
      CounterColumn("dirty_growth_bytes",
                    [](R c) {
                      const LayerDelta& d = c.delta;
                      const bool known =
                          d.dirty_before_bytes >= 0 && d.dirty_after_bytes >= 0;
                      return known ? std::to_string(d.dirty_growth_bytes())
                                   : std::string();
                    }),
      CounterColumn("drain_before_s",
                    [](R c) { return CsvNumber(c.drain_before_s, 1); }),
      CounterColumn("drain_after_s",
                    [](R c) { return CsvNumber(c.drain_after_s, 1); }),
      CounterColumn("counters_after_s",
                    [](R c) { return CsvNumber(c.counters_after_s, 1); }),
      BytesColumn("stack_read_bytes", &LayerDelta::stack,
                  &BlockStat::read_bytes),
      BytesColumn("stack_write_bytes", &LayerDelta::stack,
                  &BlockStat::write_bytes),
      BytesColumn("hdd_read_bytes", &LayerDelta::origin,
                  &BlockStat::read_bytes),
      BytesColumn("hdd_write_bytes", &LayerDelta::origin,
                  &BlockStat::write_bytes),
      BytesColumn("ssd_read_bytes", &LayerDelta::cache, &BlockStat::read_bytes),
      BytesColumn("ssd_write_bytes", &LayerDelta::cache,
                  &BlockStat::write_bytes),
  };
  cols->insert(cols->end(), counters.begin(), counters.end());
  AddWearColumns(cols);
  const std::vector<Column> rest = {
      CounterColumn("cache_bytes",
                    [](R c) { return Count(c.stack.cache_bytes); }),
      CounterColumn("cache_block_bytes",
                    [](R c) { return Count(c.stack.cache_block_bytes); }),
      CounterColumn("warm_passes",
                    [](R c) { return std::to_string(c.warm_passes); }),
      CounterColumn("warm_s", [](R c) { return Known(c.warm_s, 1); }),
      CounterColumn("warm_hit_ratio_pct",
                    [](R c) { return Known(c.warm_hit_pct, 1); }),
      CounterColumn("warm_steady",
                    [](R c) {
                      return c.warm_steady < 0 ? std::string()
                                               : std::to_string(c.warm_steady);
                    }),
      CounterColumn("settings", Settings),
  };
  cols->insert(cols->end(), rest.begin(), rest.end());
  for (const LayerKind& kind : AllLayerKinds()) {
    for (const ExtraColumn& c : kind.extra_columns) {
      cols->push_back(LayerExtraColumn(kind, c));
    }
  }
  cols->push_back({"verify_blocks", [](const RunsRow& r) {
                     return r.verify == nullptr
                                ? std::string()
                                : std::to_string(r.verify->blocks);
                   }});
  cols->push_back({"verify_errors", [](const RunsRow& r) {
                     return r.verify == nullptr
                                ? std::string()
                                : std::to_string(r.verify->errors);
                   }});
  cols->push_back({"finding_rules", [](const RunsRow& r) {
                     return FindingRules(r.rec.findings);
                   }});
  cols->push_back({"warnings", [](const RunsRow& r) {
                     return JoinWarnings(r.rec.Warnings());
                   }});
}

// THE column list, in file order.
const ColumnTable<RunsRow>& Columns() {
  static const ColumnTable<RunsRow> kColumns([] {
    std::vector<Column> cols;
    AddLeadingColumns(&cols);
    AddMetricColumns(&cols);
    AddTimingColumns(&cols);
    AddEvidenceColumns(&cols);
    AddCounterColumns(&cols);
    return cols;
  }());
  return kColumns;
}

// One series.csv row: a second (or drain poll) of a cell.
struct SeriesLine {
  const std::string& run_id;
  const CellRecord& rec;
  const SeriesRow& row;
};

const ColumnTable<SeriesLine>& SeriesColumns() {
  using L = const SeriesLine&;
  static const ColumnTable<SeriesLine> kColumns({
      {"run_id", [](L l) { return l.run_id; }},
      {"mode", [](L l) { return l.rec.mode->name; }},
      {"layer", [](L l) { return l.rec.mode->layer; }},
      {"workload", [](L l) { return l.rec.workload->name; }},
      {"repetition", [](L l) { return std::to_string(l.rec.cell.repetition); }},
      {"phase", [](L l) { return std::string(SeriesPhaseName(l.row.phase)); }},
      {"t_s", [](L l) { return CsvNumber(l.row.t_s, 1); }},
      {"read_iops", [](L l) { return CsvCount(l.row.read_iops); }},
      {"write_iops", [](L l) { return CsvCount(l.row.write_iops); }},
      {"hit_ratio_pct",
       [](L l) { return CsvOptional(l.row.hit_ratio_pct, 1); }},
      {"dirty_bytes", [](L l) { return CsvCount(l.row.dirty_bytes); }},
  });
  return kColumns;
}

}  // namespace

const std::vector<std::string>& SeriesCsvColumns() {
  return SeriesColumns().names();
}

const std::vector<std::string>& RunsCsvColumns() { return Columns().names(); }

std::vector<std::vector<std::string>> RunsCsvRows(
    const std::string& run_id, const CellRecord& rec,
    const VerifyOutcome* verify, std::optional<double> ssd_tbw_bytes) {
  const SsdWear wear = CellSsdWear(rec, ssd_tbw_bytes);
  std::vector<JobResult> jobs = rec.result.jobs;
  if (!rec.error.empty()) {
    // The workload failed before producing results: one row keeps the error.
    JobResult failed;
    failed.name = rec.workload->name;
    failed.error = rec.error;
    jobs = {failed};
  }
  std::vector<std::vector<std::string>> rows;
  for (const JobResult& job : jobs) {
    for (IoDir d : ReportedDirections(job)) {
      const std::vector<std::string> metrics = ResultColumnValues(job, d);
      rows.push_back(
          Columns().Values({run_id, rec, job, d, metrics, verify, wear}));
    }
  }
  return rows;
}

RunsCsvReporter::RunsCsvReporter()
    : runs_(RunsCsvColumns(), kRunsCsvSchemaVersion),
      series_(SeriesCsvColumns(), kSeriesCsvSchemaVersion) {}

void RunsCsvReporter::OnCompareStart(const CompareStart& start) {
  dir_.emplace(start.setup.run_dir);
  run_id_ = start.setup.run_id;
  ssd_tbw_bytes_ = TbwBytes(start.options.ssd_tbw_tb);
  std::ostringstream header;
  runs_.Write(header);
  dir_->Write("runs.csv", header.str());
  std::ostringstream series_header;
  series_.Write(series_header);
  dir_->Write("series.csv", series_header.str());
}

void RunsCsvReporter::OnVerifyStart(const VerifyStart& start) {
  VerifyOutcome& v = verify_[start.device];
  v.device = start.device;
  v.layer = start.layer;
  v.bytes = start.bytes;
  v.blocks = start.blocks;
}

void RunsCsvReporter::OnVerifyStep(const VerifyStep& step) {
  verify_[step.device].errors += step.errors;
}

void RunsCsvReporter::OnCell(const CellRecord& rec) {
  const VerifyOutcome* verify = nullptr;
  if (!rec.mode->is_raw()) {
    auto it = verify_.find(rec.target);
    if (it != verify_.end()) verify = &it->second;
  }
  for (std::vector<std::string>& row :
       RunsCsvRows(run_id_, rec, verify, ssd_tbw_bytes_)) {
    runs_.AddRow(std::move(row));
    row_findings_.emplace_back(rec.workload->name, rec.findings);
  }
  std::ostringstream out;
  runs_.Write(out);
  dir_->Write("runs.csv", out.str());
  for (const SeriesRow& r : SeriesRows(rec.series, rec.result)) {
    series_.AddRow(SeriesColumns().Values({run_id_, rec, r}));
  }
  std::ostringstream series_out;
  series_.Write(series_out);
  dir_->Write("series.csv", series_out.str());
}

void RunsCsvReporter::OnCompareEnd(const CompareEnd& end) {
  if (end.workload_findings.empty() || !dir_) return;
  const std::vector<std::string>& names = runs_.columns();
  auto at = [&names](const char* name) {
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) -
                               names.begin());
  };
  const size_t valid = at("valid"), reasons = at("invalid_reasons"),
               rules = at("finding_rules"), warnings = at("warnings");
  CsvTable patched(names, runs_.schema_version());
  for (size_t i = 0; i < runs_.rows().size(); ++i) {
    std::vector<std::string> row = runs_.rows()[i];
    auto [workload, findings] = row_findings_[i];
    auto it = end.workload_findings.find(workload);
    if (it != end.workload_findings.end()) {
      AddFindings(it->second, &findings);
      row[valid] = ValidityName(ValidityOf(findings));
      row[reasons] = ValidityReasons(findings);
      row[rules] = FindingRules(findings);
      row[warnings] = JoinWarnings(FindingTexts(findings));
    }
    patched.AddRow(std::move(row));
  }
  runs_ = std::move(patched);
  std::ostringstream out;
  runs_.Write(out);
  dir_->Write("runs.csv", out.str());
}

}  // namespace tierbench
