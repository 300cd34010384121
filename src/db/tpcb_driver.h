// TpcbDriver: runs pgbench scripts (db/pgbench/pgbench_script.h: a built-in one
// or -f files, chosen per transaction by weight) against PostgreSQL with
// `clients` connections spread over `threads` worker threads, as pgbench
// does: each thread drives its clients as non-blocking libpq state machines
// (PQsendQuery / PQsendQueryParams / PQsendQueryPrepared + poll), all
// threads connect first and start together (a barrier), thread results are
// merged at the end.
//
// Measurement: a transaction's latency runs from its scheduled start to the
// last command's final result; it goes into a LatencyHistogram (fio's
// log-linear scheme) and a RunningStat. Without -R the scheduled start is
// the moment the transaction starts. With -R (rate_tps) each thread draws
// its schedule as pgbench does: the next start is the previous one plus a
// Poisson-distributed delay of mean threads/rate, so a client that is late
// (the server cannot keep up) starts at once and its latency includes the
// schedule lag (actual start - scheduled start), reported separately like
// pgbench's "rate limit schedule lag". With -L (latency_limit_ns) and -R,
// a transaction whose scheduled start is already more than the limit in
// the past is skipped (counted, not run); with or without -R, completed
// transactions over the limit are counted as late. Per-command latencies
// (-r) run from a command's start to its end (SQL: last result; set:
// evaluated; sleep: woken). tps counts transactions over the benchmark
// window (after all connections are made), as pgbench's "tps = ...
// (without initial connection time)".
//
// Stopping: after duration_ns (in-flight transactions complete and count,
// as in pgbench) or after transactions_per_client; on SIGINT/SIGTERM
// (util/interrupt.h: no new transactions, result marked interrupted); when
// a connection breaks or a command fails the client is aborted and its
// open transaction counts as failed; a command without any answer for
// stall_timeout_ns aborts its client. The run never hangs on a dead server.
//
// Thread-safety: Run() is called from one thread; it starts and joins its
// own workers. Progress lines are written to `progress_out` from the calling
// thread only.
#ifndef TIERBENCH_DB_TPCB_DRIVER_H_
#define TIERBENCH_DB_TPCB_DRIVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "db/pgbench/pgbench_builtin.h"
#include "db/pgbench/pgbench_script.h"
#include "workload/job_result.h"

namespace tierbench {

struct TpcbDriverConfig {
  std::string conninfo;                  // libpq connection string
  std::string name = "pgbench";          // JobResult name
  Builtin builtin = Builtin::kTpcbLike;  // used when `scripts` is null
  // The scripts to run (-b/-f with weights, -D); null: `builtin` alone.
  std::shared_ptr<const ScriptSet> scripts;
  QueryMode query_mode = QueryMode::kSimple;
  int scale = 1;  // of the existing tables (DetectScale)
  int clients = 1;
  int threads = 1;           // 1..clients
  uint64_t duration_ns = 0;  // -T; 0: use transactions_per_client
  // With duration_ns: the clients run ramp_ns first, unmeasured (fio's
  // ramp_time): transactions that end before it are not counted, the
  // measured window and the per-second series start when it ends, and
  // on_second is called from then on only. 0: none (pgbench has none).
  uint64_t ramp_ns = 0;
  uint64_t transactions_per_client = 10;  // -t (pgbench's default 10)
  uint64_t random_seed = 0;
  int progress_sec = 0;  // -P; 0: none
  std::ostream* progress_out = nullptr;
  uint64_t stall_timeout_ns = 60ull * 1000000000ull;
  double rate_tps = 0;              // -R, all clients together; 0: no limit
  uint64_t latency_limit_ns = 0;    // -L; 0: none
  bool report_per_command = false;  // -r (for the summary; always measured)
  // Called about once a second on the calling thread (never on a client
  // thread) while the clients run, with the CLOCK_MONOTONIC ns at which the
  // benchmark started (e.g. to sample a cache layer). Must be cheap and must
  // not throw. May be empty.
  std::function<void(uint64_t bench_start_ns)> on_second;
  // Called once on the calling thread when the measured window starts (the
  // ramp's end; the start itself without one), before any on_second: e.g.
  // to take the "before" of counters that must cover the window exactly.
  // Must be cheap and must not throw. May be empty.
  std::function<void()> on_measure_start;
};

// Per-script figures (pgbench's "SQL script N" block) and per-command
// latencies (-r), indexed like ScriptSet::scripts / commands.
struct ScriptRunStats {
  uint64_t transactions = 0;  // completed
  uint64_t skipped = 0;
  uint64_t failed = 0;
  RunningStat lat;  // ns, from the scheduled start
  struct Command {
    double sum_ns = 0;
    uint64_t count = 0;
    uint64_t failures = 0;
  };
  std::vector<Command> commands;
  void Merge(const ScriptRunStats& o);
};

struct TpcbRunResult {
  JobResult job;              // unit "tx": ios, lat, lat_hist, series
  uint64_t transactions = 0;  // completed
  uint64_t failed = 0;        // ended by an error (their client aborted)
  uint64_t bench_ns = 0;      // benchmark window (barrier to last end)
  uint64_t connect_ns = 0;    // initial connection phase (wall)
  uint64_t aborted_clients = 0;
  bool interrupted = false;  // stopped by SIGINT/SIGTERM
  std::string first_error;   // the first client error (one line)
  uint64_t skipped = 0;      // -R with -L: start already past the limit
  uint64_t late = 0;         // -L: completed above the limit
  RunningStat lag;           // ns, actual - scheduled start (-R)
  std::shared_ptr<const ScriptSet> scripts;  // what ran
  std::vector<ScriptRunStats> per_script;
  double Tps() const;  // transactions / bench window
};

// Runs the benchmark. Throws DbError when no connection can be made (the
// server's reason, the fix) or a statement cannot be prepared; errors after
// the start do not throw: they are reported in the result (aborted_clients,
// first_error, job.error) with the finished part measured.
TpcbRunResult RunTpcb(const TpcbDriverConfig& config);

// pgbench's progress line: "progress: 5.0 s, 812.3 tps, lat 1.231 ms stddev
// 0.402, 0 failed", with -R ", lag 0.123 ms" and with -R and -L
// ", 3 skipped" appended (lag_ms < 0: no -R; skipped < 0: no -L).
std::string FormatProgressLine(double elapsed_sec, double tps, double lat_ms,
                               double stddev_ms, uint64_t failed,
                               double lag_ms = -1, int64_t skipped = -1);

}  // namespace tierbench

#endif  // TIERBENCH_DB_TPCB_DRIVER_H_
