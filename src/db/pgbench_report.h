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
// Unlike pgbench (which derives "latency average" from the duration when
// neither -P, -R nor -L is given), both latency lines are always measured.
// Thread-safety: pure function of its arguments.
#ifndef TIERBENCH_DB_PGBENCH_REPORT_H_
#define TIERBENCH_DB_PGBENCH_REPORT_H_

#include <ostream>

#include "db/tpcb_driver.h"

namespace tierbench {

void WritePgbenchSummary(const TpcbDriverConfig& cfg, const TpcbRunResult& r,
                         std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_REPORT_H_
