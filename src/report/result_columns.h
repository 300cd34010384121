// The metric columns of one (JobResult, direction) row: THE single list of
// names, units and meanings, and the function that fills them. Reused by
// `tierbench run --output-format csv` (report/reporters.h) and by the runs.csv
// of `tierbench compare`, which prefixes its own columns (mode, workload,
// repetition) to these.
//
// Values are formatted strings: latencies in microseconds with 3 decimals
// (nanosecond resolution), rates with 3 decimals, counts as integers. A
// statistic that was not measured (no samples: slat/clat of a transaction
// job, per-second IOPS of a run shorter than one second) is an EMPTY cell,
// never 0. Thread-safe (the list is built once, immutable afterwards).
#ifndef TIERBENCH_REPORT_RESULT_COLUMNS_H_
#define TIERBENCH_REPORT_RESULT_COLUMNS_H_

#include <string>
#include <vector>

#include "workload/job_result.h"

namespace tierbench {

inline constexpr int kResultColumnsSchemaVersion = 2;

struct ResultColumn {
  std::string name;     // CSV header, e.g. "clat_p99_us"
  std::string unit;     // "us", "MiB/s", ... ; "" when dimensionless
  std::string meaning;  // one line for the README and --help texts
};

// The columns in output order: job, group, jobs, direction, unit, ios,
// bytes, runtime_ms, iops, bw_mib_s, {slat,clat,lat}_{min,mean,max,stddev}_us,
// clat_p<P>_us for fio's default percentiles (99.5 -> "99_5"), lat_p50_us,
// lat_p99_us, sched_lat_{min,mean,max,stddev}_us, sched_lat_p{50,99,99_9}_us
// (rated jobs), iops_{min,mean,max,stddev,samples} (per second),
// ss_attained, ss_criterion (steady state), usr_cpu_s, sys_cpu_s, errors,
// error.
//
// kResultColumnsSchemaVersion is the schema_version of `tierbench run
// --output-format csv`: 2 since the sched_lat and ss_ columns were added.
const std::vector<ResultColumn>& ResultColumns();

// The names of ResultColumns(), in order.
std::vector<std::string> ResultColumnNames();

// The values of ResultColumns() for direction `d` of `r`, in order.
std::vector<std::string> ResultColumnValues(const JobResult& r, IoDir d);

// "1" for 1, "99_5" for 99.5, "99_99" for 99.99: percentile labels usable in
// column and JSON-friendly names.
std::string PercentileLabel(double p);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_RESULT_COLUMNS_H_
