// `tierbench pgbench`: pgbench's TPC-B-like benchmark on tierbench's own
// driver (db/tpcb_driver.h), against a PostgreSQL server the user runs.
#include <iostream>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "db/pg_connection.h"
#include "db/pgbench_options.h"
#include "db/pgbench_report.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"
#include "report/reporters.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"

namespace tierbench {

namespace {

int RunPgbench(const PgbenchOptions& o) {
  TpcbInitOptions init = ResolvePgbenchInit(o);
  TpcbDriverConfig cfg = ResolvePgbenchRun(o);
  PgConnection conn(cfg.conninfo);
  if (o.initialize) {
    InitializeTpcb(conn, init, &std::cerr);
    return kExitOk;
  }
  cfg.scale = DetectScale(conn);
  if (o.scale_set && o.scale != cfg.scale) {
    LogWarning(
        "scale option ignored, using count from pgbench_branches "
        "table (" +
        std::to_string(cfg.scale) + ")");
  }
  if (!o.no_vacuum) PrepareTpcbRun(conn, &std::cerr);
  cfg.progress_out = &std::cerr;
  TpcbRunResult r = RunTpcb(cfg);
  if (o.output_format == "normal") {
    WritePgbenchSummary(cfg, r, std::cout);
  } else {
    RunResult run;
    run.jobs.push_back(r.job);
    run.wall_ns = r.connect_ns + r.bench_ns;
    WriteRunReport(run, o.output_format, std::cout);
  }
  std::cout << std::flush;
  if (r.interrupted) {
    throw InterruptedError("pgbench interrupted; the results above are partial",
                           InterruptSignal());
  }
  if (r.aborted_clients > 0) {
    throw DbError("run was aborted; the results above are incomplete. " +
                  r.job.error +
                  "; Fix: check that the server is running (its log) and "
                  "that its disk is not full");
  }
  return kExitOk;
}

}  // namespace

void RegisterPgbenchCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "pgbench",
      CommandDescription(
          "pgbench-style TPC-B driver: -i initialises the pgbench_* tables, "
          "otherwise runs the built-in script and prints pgbench's summary "
          "plus latency percentiles",
          "tierbench pgbench -h /tmp -c 10 -j 2 -T 60 postgres"));
  auto opts = std::make_shared<PgbenchOptions>();
  AddPgbenchOptions(cmd, opts.get());
  cmd->footer(
      "EXAMPLES\n"
      "  tierbench pgbench -h /tmp -i -s 10 postgres\n"
      "  tierbench pgbench -h /tmp -c 10 -j 2 -T 60 -P 5 postgres\n"
      "  tierbench pgbench --pg-dsn 'host=/tmp port=5433' -S -M prepared -T "
      "30\n"
      "  tierbench pgbench -h /tmp -T 30 --output-format json postgres\n"
      "\n"
      "EXIT STATUS\n"
      "  0 success; 2 bad option; 5 database error (server unreachable,\n"
      "  tables missing: run with -i, server died mid-run: the finished part\n"
      "  is printed first); 130/143 interrupted (partial results printed).");
  cmd->callback([opts, exit_code]() { *exit_code = RunPgbench(*opts); });
}

}  // namespace tierbench
