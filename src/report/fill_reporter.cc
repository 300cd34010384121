#include "report/fill_reporter.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "present/charts/series_chart.h"
#include "present/pages/scenario_report.h"
#include "present/series_file.h"
#include "report/column_table.h"
#include "util/csv_writer.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::string Opt(const std::optional<double>& v, int decimals) {
  return v ? CsvNumber(*v, decimals) : std::string();
}
std::string Opt(const std::optional<uint64_t>& v) {
  return v ? CsvNumber(*v) : std::string();
}

const ColumnTable<FillLayer>& FillTable() {
  using L = FillLayer;
  static const ColumnTable<L> table({
      {"layer", [](const L& l) { return l.layer; }},
      {"device", [](const L& l) { return l.device; }},
      {"cache_bytes", [](const L& l) { return CsvNumber(l.cache_bytes); }},
      {"limit", [](const L& l) { return l.limit; }},
      {"limit_bytes", [](const L& l) { return Opt(l.limit_bytes); }},
      {"rate_iops", [](const L& l) { return CsvNumber(l.rate_iops); }},
      {"cliff", [](const L& l) { return std::string(l.cliff ? "1" : "0"); }},
      {"time_to_cliff_s", [](const L& l) { return Opt(l.time_to_cliff_s, 2); }},
      {"predicted_time_to_cliff_s",
       [](const L& l) { return Opt(l.predicted_time_to_cliff_s, 2); }},
      {"iops_before", [](const L& l) { return Opt(l.iops_before, 0); }},
      {"iops_at_cliff", [](const L& l) { return Opt(l.iops_at_cliff, 0); }},
      {"iops_after", [](const L& l) { return Opt(l.iops_after, 0); }},
      {"p99_before_us", [](const L& l) { return Opt(l.p99_before_us, 0); }},
      {"p99_at_cliff_us", [](const L& l) { return Opt(l.p99_at_cliff_us, 0); }},
      {"dirty_at_cliff_bytes",
       [](const L& l) { return Opt(l.dirty_at_cliff_bytes); }},
      {"peak_dirty_bytes", [](const L& l) { return Opt(l.peak_dirty_bytes); }},
      {"time_to_recover_s",
       [](const L& l) { return Opt(l.time_to_recover_s, 1); }},
  });
  return table;
}

struct SecondRow {
  const FillLayer* layer;
  const FillSecond* second;
};

const ColumnTable<SecondRow>& SecondTable() {
  using R = SecondRow;
  static const ColumnTable<R> table({
      {"layer", [](const R& r) { return r.layer->layer; }},
      {"phase",
       [](const R& r) {
         return std::string(r.second->drain ? "drain" : "fill");
       }},
      {"t_s", [](const R& r) { return CsvNumber(r.second->t_s, 0); }},
      {"write_iops", [](const R& r) { return Opt(r.second->write_iops); }},
      {"write_p99_us", [](const R& r) { return Opt(r.second->p99_us, 0); }},
      {"dirty_bytes", [](const R& r) { return Opt(r.second->dirty_bytes); }},
  });
  return table;
}

std::string Mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MiB",
                static_cast<double>(bytes) / (1 << 20));
  return buf;
}

std::string FillFixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

std::string FillLatency(double us) {
  return us >= 1000 ? FillFixed(us / 1000, 1) + " ms" : FillFixed(us, 0) + " us";
}

// The per-second rows as series.csv text, for the report's series chart
// (present/charts/series_chart.h): one "mode" per layer.
std::string AsSeriesCsv(const FillRun& run) {
  CsvTable csv(
      {"run_id", "mode", "layer", "workload", "repetition", "phase", "t_s",
       "read_iops", "write_iops", "hit_ratio_pct", "dirty_bytes"},
      SeriesFile::kSchema);
  for (const FillLayer& l : run.layers) {
    for (const FillSecond& s : l.seconds) {
      csv.AddRow({"fill", l.layer, l.layer, "fill", "1",
                  s.drain ? "drain" : "measure", CsvNumber(s.t_s, 0),
                  s.drain ? "" : "0", s.drain ? "" : Opt(s.write_iops), "",
                  Opt(s.dirty_bytes)});
    }
  }
  std::ostringstream out;
  csv.Write(out);
  return out.str();
}

}  // namespace

std::vector<std::string> FillCsvColumns() { return FillTable().names(); }
std::vector<std::string> FillSeriesCsvColumns() {
  return SecondTable().names();
}

std::string FillConsoleLine(const FillLayer& l) {
  std::string line = "fill: " + l.layer + " (" + l.device + ", " +
                     Mib(l.cache_bytes) + " cache, limit " + l.limit + "): ";
  if (!l.cliff) {
    return line +
           "no cliff: the write IOPS never fell below half their "
           "first seconds' level" +
           (l.peak_dirty_bytes ? "; peak dirty " + Mib(*l.peak_dirty_bytes)
                               : "");
  }
  line += "cliff at " + FillFixed(*l.time_to_cliff_s, 1) + " s";
  if (l.predicted_time_to_cliff_s) {
    line += " (predicted " + FillFixed(*l.predicted_time_to_cliff_s, 1) +
            " s: " + Mib(*l.limit_bytes) + " at " + FillFixed(*l.iops_before, 0) +
            " IOPS)";
  }
  line += ": " + FillFixed(*l.iops_before, 0) + " -> " + FillFixed(*l.iops_after, 0) +
          " IOPS";
  if (l.p99_before_us && l.p99_at_cliff_us) {
    line += ", p99 " + FillLatency(*l.p99_before_us) + " -> " +
            FillLatency(*l.p99_at_cliff_us) + " at the cliff";
  }
  if (l.dirty_at_cliff_bytes) {
    line += "; " + Mib(*l.dirty_at_cliff_bytes) + " dirty";
  }
  line += l.time_to_recover_s
              ? "; back under half the limit " +
                    FillFixed(*l.time_to_recover_s, 1) + " s after the writes"
              : "; not back under half the limit within the watch";
  return line;
}

FillReporter::FillReporter(std::string run_dir, std::ostream& console)
    : run_dir_(std::move(run_dir)), console_(console) {}

void FillReporter::OnFill(const FillRun& run) {
  CsvTable csv(FillCsvColumns(), kFillCsvSchemaVersion);
  CsvTable seconds(FillSeriesCsvColumns(), kFillSeriesCsvSchemaVersion);
  for (const FillLayer& l : run.layers) {
    csv.AddRow(FillTable().Values(l));
    for (const FillSecond& s : l.seconds) {
      seconds.AddRow(SecondTable().Values({&l, &s}));
    }
  }
  csv.WriteFile(run_dir_ + "/fill.csv");
  seconds.WriteFile(run_dir_ + "/fill-series.csv");
  const SeriesChart chart(SeriesFile::Parse(AsSeriesCsv(run), "fill series"),
                          "fill");
  if (chart.HasData()) {
    std::filesystem::create_directories(run_dir_ + "/charts");
    const std::string path = run_dir_ + "/charts/fill.svg";
    std::ofstream svg(path);
    svg << chart.Svg();
    if (!svg.flush()) {
      throw SysError("Cannot write " + path +
                     ". Fix: check that the results directory is writable");
    }
  }
  WriteScenarioReport(run_dir_, "", /*force=*/true);  // report.html
  for (const FillLayer& l : run.layers) console_ << FillConsoleLine(l) << "\n";
  console_.flush();
}

}  // namespace tierbench
