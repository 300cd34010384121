// Console report: what a fio user reads at a glance, in the layout of fio
// 3.x "normal" output (stat.c show_thread_status_normal / show_run_stats):
// per job (or group_reporting group) the header ("err= 0: pid=TID: date"),
// then per direction with IOs the IOPS/BW line, slat/clat/lat
// min/max/avg/stdev, clat percentiles, per-second bw (with per=, the share
// of the group's bandwidth) and iops, then the latency distribution, CPU
// (with majf/minf page faults), IO depths, the submit/complete batch sizes,
// "issued rwts" and "latency"; finally one "Run status group" block per
// group.
//
// Units follow fio: latencies in nsec, usec or msec by fio's magnitude rules,
// bandwidth as "1138MiB/s (1194MB/s)", counts shortened to 4 significant
// digits ("4553", "12.3k"). Jobs with unit "tx" print "tps" and transaction
// counts instead of IOPS and bytes, and the latency lines describe whole
// transactions.
//
// Differences from fio: pid= is the job thread's id (tierbench runs jobs
// as threads, like fio's thread=1) and the date is when the job ended; no
// "zone resets", no disk stats; a failed job shows "err= 1: <message>"
// without pid and date; jobs of unit "tx" have no submit/complete, issued
// or latency lines. Thread-safe (no shared state).
#ifndef TIERBENCH_REPORT_CONSOLE_REPORTER_H_
#define TIERBENCH_REPORT_CONSOLE_REPORTER_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "workload/job_result.h"

namespace tierbench {

// Writes the report of `r` to `out`.
void WriteConsoleReport(const RunResult& r, std::ostream& out);

// fio's num2str(): `num` with at most `maxlen` digits, shortened with k/M/G
// (or Ki/Mi/Gi when `pow2`) and decimals where room is left, followed by
// `unit` ("", "B", "B/s"): 4553 -> "4553", 12345 -> "12.3k",
// 1193500000 (pow2, "B/s", maxlen 4) -> "1138MiB/s".
std::string FioNum2Str(uint64_t num, int maxlen, bool pow2,
                       const std::string& unit);

// fio's date after pid= (ctime without the newline), in local time:
// "Sat Feb  8 13:38:22 2025".
std::string FioCtime(int64_t unix_seconds);

// fio's per= of a bw line: a job's mean bandwidth (KiB/s, truncated to an
// integer as fio does) as a percentage of its group's aggregate bandwidth
// (bytes/s), at most 100; 100 when the group moved at most 1 KiB/s.
double FioPercentOfGroup(double mean_kib_per_sec, uint64_t group_bytes_per_sec);

// fio's "     submit    : 0=0.0%, 4=100.0%, ..., >=64=0.0%" line (without
// newline) for `name` "submit" or "complete" from the seven batch-size
// counts (io/io_batch_counts.h); an empty bucket prints 0.0%, a non-empty
// one at least 0.1%.
std::string FioBatchLine(const std::string& name, const uint64_t hist[7]);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_CONSOLE_REPORTER_H_
