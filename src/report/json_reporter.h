// JSON report, modelled on fio's --output-format=json (stat.c
// show_thread_status_json) with tierbench's additions (unit, series,
// latency_buckets, error_message). Field by field in README ("JSON output").
//
// Top level: {"schema_version": 3, "tool": "tierbench", "version",
// "timestamp" (Unix seconds), "wall_ms", "notices": [...], "jobs": [...]}.
// Each job: jobname, groupid, jobs, unit, error (0/1 as fio's error field),
// error_message, job_runtime (ms), "job options" {...}, read {...},
// write {...}, usr_cpu / sys_cpu (% of the job threads' wall time),
// usr_cpu_sec, sys_cpu_sec, ctx, majf, minf, iodepth_level {"1": %, ...,
// ">=64": %}; for IO jobs also iodepth_submit / iodepth_complete {"0": %,
// "4": %, ..., "64": %, ">=64": %} and latency_depth, latency_target,
// latency_percentile, latency_window (fio's defaults: no latency target).
// Per direction: io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops,
// runtime (ms), total_ios (issued after ramp; transactions for "tx"),
// short_ios, drop_ios (always 0), errors, slat_ns / clat_ns / lat_ns {min, max,
// mean, stddev, N [, percentile {"99.000000": ns}]}, iops_* and bw_*
// (per complete second; bw in KiB/s), latency_buckets [{upper_ns, fraction}]
// and series [{t, ios, bytes}].
//
// Thread-safe (no shared state).
#ifndef TIERBENCH_REPORT_JSON_REPORTER_H_
#define TIERBENCH_REPORT_JSON_REPORTER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>

#include "workload/job_result.h"

namespace tierbench {

// One job as described above; reused by compare for its per-cell JSON.
nlohmann::json JobResultToJson(const JobResult& job);

// The whole document; `timestamp` in Unix seconds (a parameter so tests are
// deterministic).
nlohmann::json RunResultToJson(const RunResult& r, int64_t timestamp);

// Writes RunResultToJson(r, now) pretty-printed (2-space indent) and a
// newline.
void WriteJsonReport(const RunResult& r, std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_JSON_REPORTER_H_
