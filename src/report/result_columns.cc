#include "report/result_columns.h"

#include <cstdio>
#include <functional>

#include "util/csv_writer.h"
#include "util/units.h"

namespace tierbench {
namespace {

// What a column's fill function sees.
struct RowContext {
  const JobResult& job;
  IoDir dir;
  const DirectionStats& stats;
  RunningStat iops_per_sec;  // over the complete seconds of the run
};

using Fill = std::function<std::string(const RowContext&)>;

struct Column {
  ResultColumn doc;
  Fill fill;
};

constexpr int kDecimals = 3;

std::string Us(double ns) { return CsvNumber(ns / kNsPerUs, kDecimals); }

// min/mean/max/stddev of a latency RunningStat in us; empty when unmeasured.
void AddLatencyStat(std::vector<Column>* cols, const std::string& prefix,
                    const std::string& what,
                    const RunningStat DirectionStats::*field) {
  struct Part {
    const char* suffix;
    const char* word;
    double (RunningStat::*get)() const;
  };
  static const Part kParts[] = {
      {"min", "minimum", &RunningStat::min},
      {"mean", "mean", &RunningStat::mean},
      {"max", "maximum", &RunningStat::max},
      {"stddev", "sample standard deviation of", &RunningStat::stddev},
  };
  for (const Part& p : kParts) {
    auto get = p.get;
    cols->push_back({{prefix + "_" + p.suffix + "_us", "us",
                      std::string(p.word) + " " + what},
                     [field, get](const RowContext& c) -> std::string {
                       const RunningStat& s = c.stats.*field;
                       if (s.count() == 0) return "";
                       return Us((s.*get)());
                     }});
  }
}

std::vector<Column> BuildColumns() {
  std::vector<Column> cols = {
      {{"job", "", "job name (for a group_reporting group: its first job)"},
       [](const RowContext& c) { return c.job.name; }},
      {{"group", "", "reporting group id (counted by stonewall)"},
       [](const RowContext& c) { return std::to_string(c.job.group_id); }},
      {{"jobs", "", "job threads merged into this row"},
       [](const RowContext& c) { return std::to_string(c.job.jobs); }},
      {{"direction", "", "read or write"},
       [](const RowContext& c) { return std::string(IoDirName(c.dir)); }},
      {{"unit", "", "io (block IOs) or tx (database transactions)"},
       [](const RowContext& c) { return c.job.unit; }},
      {{"ios", "", "completed IOs (or transactions) in the measured window"},
       [](const RowContext& c) { return CsvNumber(c.stats.ios); }},
      {{"bytes", "B", "bytes transferred in the measured window (0 for tx)"},
       [](const RowContext& c) { return CsvNumber(c.stats.bytes); }},
      {{"runtime_ms", "ms", "measured window after ramp_time"},
       [](const RowContext& c) {
         return CsvNumber(static_cast<double>(c.job.runtime_ns) / kNsPerMs,
                          kDecimals);
       }},
      {{"iops", "1/s", "IOs (or transactions) per second: ios / runtime"},
       [](const RowContext& c) {
         return CsvNumber(c.job.Iops(c.dir), kDecimals);
       }},
      {{"bw_mib_s", "MiB/s", "bandwidth: bytes / runtime / 2^20"},
       [](const RowContext& c) {
         return CsvNumber(c.job.BytesPerSec(c.dir) / (1 << 20), kDecimals);
       }},
  };
  AddLatencyStat(&cols, "slat",
                 "submission latency (issue - start); empty for tx",
                 &DirectionStats::slat);
  AddLatencyStat(&cols, "clat",
                 "completion latency (completion - issue); empty for tx",
                 &DirectionStats::clat);
  AddLatencyStat(&cols, "lat",
                 "total latency (completion - start; for tx the transaction)",
                 &DirectionStats::lat);
  for (double p : LatencyHistogram::DefaultPercentiles()) {
    char meaning[96];
    std::snprintf(
        meaning, sizeof meaning,
        "clat at percentile %g (histogram bucket midpoint, error <= 0.8 %%)",
        p);
    cols.push_back({{"clat_p" + PercentileLabel(p) + "_us", "us", meaning},
                    [p](const RowContext& c) -> std::string {
                      const LatencyHistogram& h = c.stats.clat_hist;
                      if (h.count() == 0) return "";
                      return Us(static_cast<double>(h.Percentile(p)));
                    }});
  }
  for (double p : {50.0, 99.0}) {
    cols.push_back({{"lat_p" + PercentileLabel(p) + "_us", "us",
                     "lat at percentile " + PercentileLabel(p) +
                         " (for tx: the transaction latency)"},
                    [p](const RowContext& c) -> std::string {
                      const LatencyHistogram& h = c.stats.lat_hist;
                      if (h.count() == 0) return "";
                      return Us(static_cast<double>(h.Percentile(p)));
                    }});
  }
  AddLatencyStat(&cols, "sched_lat",
                 "scheduled latency (completion - scheduled issue time of a "
                 "rated job or a timed replay); empty without rate=/rate_iops= "
                 "or read_iolog= timing",
                 &DirectionStats::sched_lat);
  for (double p : {50.0, 99.0, 99.9}) {
    cols.push_back({{"sched_lat_p" + PercentileLabel(p) + "_us", "us",
                     "sched_lat at percentile " + PercentileLabel(p) +
                         "; empty without rate=/rate_iops= or read_iolog= "
                         "timing"},
                    [p](const RowContext& c) -> std::string {
                      const LatencyHistogram& h = c.stats.sched_lat_hist;
                      if (h.count() == 0) return "";
                      return Us(static_cast<double>(h.Percentile(p)));
                    }});
  }
  struct IopsPart {
    const char* name;
    const char* meaning;
    double (RunningStat::*get)() const;
  };
  static const IopsPart kIops[] = {
      {"iops_min", "lowest IOPS of a complete second", &RunningStat::min},
      {"iops_mean", "mean of the per-second IOPS", &RunningStat::mean},
      {"iops_max", "highest IOPS of a complete second", &RunningStat::max},
      {"iops_stddev", "sample standard deviation of the per-second IOPS",
       &RunningStat::stddev},
  };
  for (const IopsPart& part : kIops) {
    auto get = part.get;
    cols.push_back({{part.name, "1/s", part.meaning},
                    [get](const RowContext& c) -> std::string {
                      if (c.iops_per_sec.count() == 0) return "";
                      return CsvNumber((c.iops_per_sec.*get)(), kDecimals);
                    }});
  }
  cols.push_back(
      {{"iops_samples", "", "complete seconds behind iops_min..stddev"},
       [](const RowContext& c) { return CsvNumber(c.iops_per_sec.count()); }});
  cols.push_back(
      {{"ss_attained", "",
        "1 when steady state (steadystate=, ss_dur=) was attained and ended "
        "the job, 0 when not; empty without ss_dur="},
       [](const RowContext& c) -> std::string {
         if (!c.job.steadystate.enabled) return "";
         return c.job.steadystate.attained ? "1" : "0";
       }});
  cols.push_back(
      {{"ss_criterion", "",
        "last steady-state criterion value (in % of the window mean for a % "
        "limit); empty until the ss_dur window first filled"},
       [](const RowContext& c) -> std::string {
         if (!c.job.steadystate.evaluated) return "";
         return CsvNumber(c.job.steadystate.criterion, 6);
       }});
  cols.push_back({{"usr_cpu_s", "s", "user CPU time of the job threads"},
                  [](const RowContext& c) {
                    return CsvNumber(c.job.usr_cpu_sec, kDecimals);
                  }});
  cols.push_back({{"sys_cpu_s", "s", "system CPU time of the job threads"},
                  [](const RowContext& c) {
                    return CsvNumber(c.job.sys_cpu_sec, kDecimals);
                  }});
  cols.push_back(
      {{"errors", "",
        "failed or short IOs (failed transactions) in this direction"},
       [](const RowContext& c) { return CsvNumber(c.stats.errors); }});
  cols.push_back({{"error", "", "the job's error message; empty on success"},
                  [](const RowContext& c) { return c.job.error; }});
  return cols;
}

const std::vector<Column>& Columns() {
  static const std::vector<Column> kColumns = BuildColumns();
  return kColumns;
}

}  // namespace

std::string PercentileLabel(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  std::string s = buf;
  for (char& ch : s) {
    if (ch == '.') ch = '_';
  }
  return s;
}

const std::vector<ResultColumn>& ResultColumns() {
  static const std::vector<ResultColumn> kDocs = [] {
    std::vector<ResultColumn> docs;
    for (const Column& c : Columns()) docs.push_back(c.doc);
    return docs;
  }();
  return kDocs;
}

std::vector<std::string> ResultColumnNames() {
  std::vector<std::string> names;
  for (const Column& c : Columns()) names.push_back(c.doc.name);
  return names;
}

std::vector<std::string> ResultColumnValues(const JobResult& r, IoDir d) {
  const DirectionStats& s = r.dir[static_cast<int>(d)];
  const RowContext ctx{r, d, s, s.series.IopsStat(r.runtime_ns)};
  std::vector<std::string> values;
  for (const Column& c : Columns()) values.push_back(c.fill(ctx));
  return values;
}

}  // namespace tierbench
