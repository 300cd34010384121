// Console report: what a fio user reads at a glance, in the layout of fio
// 3.x "normal" output (stat.c show_thread_status_normal / show_run_stats):
// per job (or group_reporting group) the header, then per direction with
// IOs the IOPS/BW line, slat/clat/lat min/max/avg/stdev, clat percentiles,
// per-second bw and iops, then the latency distribution, CPU and IO depths;
// finally one "Run status group" block per group.
//
// Units follow fio: latencies in nsec, usec or msec by fio's magnitude rules,
// bandwidth as "1138MiB/s (1194MB/s)", counts shortened to 4 significant
// digits ("4553", "12.3k"). Jobs with unit "tx" print "tps" and transaction
// counts instead of IOPS and bytes, and the latency lines describe whole
// transactions.
//
// Differences from fio: no pid/date, no "per=" in the bw line, no
// majf/minf, no submit/complete histograms, "issued rwts" or "latency"
// (latency_target) lines, no "zone resets", no disk stats; a failed job shows
// "err= 1: <message>". Thread-safe (no shared state).
#ifndef TIERBENCH_REPORT_CONSOLE_REPORTER_H_
#define TIERBENCH_REPORT_CONSOLE_REPORTER_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "stats/job_result.h"

namespace tierbench {

// Writes the report of `r` to `out`.
void WriteConsoleReport(const RunResult& r, std::ostream& out);

// fio's num2str(): `num` with at most `maxlen` digits, shortened with k/M/G
// (or Ki/Mi/Gi when `pow2`) and decimals where room is left, followed by
// `unit` ("", "B", "B/s"): 4553 -> "4553", 12345 -> "12.3k",
// 1193500000 (pow2, "B/s", maxlen 4) -> "1138MiB/s".
std::string FioNum2Str(uint64_t num, int maxlen, bool pow2,
                       const std::string& unit);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_CONSOLE_REPORTER_H_
