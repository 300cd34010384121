// The end-of-run summary of `tierbench pgbench` in pgbench 15's format
// (printResults), plus lines pgbench does not print: measured percentiles.
//
//   transaction type: <builtin: TPC-B (sort of)>
//   scaling factor: 2
//   query mode: simple
//   number of clients: 4
//   number of threads: 1
//   maximum number of tries: 1
//   duration: 10 s                 | number of transactions per client: 10
//   number of transactions actually processed: 5205[/40]
//   number of failed transactions: 0 (0.000%)
//   latency average = 3.836 ms
//   latency stddev = 5.031 ms
//   initial connection time = 9.587 ms
//   tps = 1039.613987 (without initial connection time)
//   latency percentiles: p50 = 3.1 ms, p90 = ..., p99 = ..., p99.9 = ...
//
// With -L: "number of transactions above the X ms latency limit: n/N (p%)",
// with -R and -L also "number of transactions skipped: n (p%)" (after the
// failed line), with -R "rate limit schedule lag: avg X (max Y) ms" (after
// the latency lines). With several scripts, pgbench's "SQL script N: ..."
// block per script; with -r the per-command latency table.
//
// Unlike pgbench (which derives "latency average" from the duration when
// neither -P, -R nor -L is given), both latency lines are always measured.
// Thread-safety: pure function of its arguments.
#ifndef TIERBENCH_DB_PGBENCH_REPORT_H_
#define TIERBENCH_DB_PGBENCH_REPORT_H_

#include <ostream>
#include <string>

#include "db/tpcb_driver.h"

namespace tierbench {

void WritePgbenchSummary(const TpcbDriverConfig& cfg, const TpcbRunResult& r,
                         std::ostream& out);

// One line of -r's table, as pgbench 15 prints it:
// "   %11.3f  %10lld  <first line of the command>".
std::string StatementLine(double avg_ms, uint64_t failures,
                          const std::string& text);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_REPORT_H_
