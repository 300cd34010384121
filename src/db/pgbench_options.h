// PgbenchOptions: the options of `tierbench pgbench`, declared once on a
// CLI11 app (help text, default, check) with pgbench's letters and long
// names, plus the checks that span several options and the connection
// string they add up to.
//
// Thread-safety: plain data; AddPgbenchOptions binds the struct's fields to
// the app, so the struct must outlive the app's parse().
#ifndef TIERBENCH_DB_PGBENCH_OPTIONS_H_
#define TIERBENCH_DB_PGBENCH_OPTIONS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"

namespace tierbench {

struct PgbenchOptions {
  // Initialisation (-i).
  bool initialize = false;
  int scale = 1;
  bool scale_set = false;  // -s given explicitly
  int fillfactor = 100;
  std::string init_steps = "dtgvp";
  bool unlogged_tables = false;
  // Run.
  std::vector<std::string> builtins;  // -b NAME[@WEIGHT], repeatable
  std::vector<std::string> files;     // -f FILE[@WEIGHT], repeatable
  std::vector<std::string> defines;   // -D NAME=VALUE, repeatable
  // -b ('b') and -f ('f') arguments in command-line order (filled by the
  // parser; when it does not match builtins + files, -b come first).
  std::vector<std::pair<char, std::string>> script_order;
  bool simple_update = false;  // -N
  bool select_only = false;    // -S
  int clients = 1;
  int threads = 1;
  std::string duration;       // -T, seconds (util/units durations allowed)
  int64_t transactions = -1;  // -t per client; -1: unset (default 10)
  std::string query_mode = "simple";
  int progress_sec = 0;
  std::string random_seed;  // "time" | "rand" | integer; "" = time
  bool no_vacuum = false;
  double stall_timeout_sec = 60;
  double rate_tps = 0;              // -R; 0: unset
  double latency_limit_ms = 0;      // -L; 0: unset
  bool report_per_command = false;  // -r
  // Connection.
  std::string host;
  std::string port;
  std::string user;
  std::string dbname;
  std::string pg_dsn;
  // Output.
  std::string output_format = "normal";
  std::string job_name = "pgbench";
};

// Declares every option on `cmd`, bound to `o`.
void AddPgbenchOptions(CLI::App* cmd, PgbenchOptions* o);

// The run configuration after cross-option checks: -T and -t exclusive,
// -N/-S/-b consistent, the -b/-f scripts (with -D) parsed into
// config.scripts (ConfigError "<file>:<line>: ..." for a bad script), -R and
// -L positive, 1 <= -j <= -c, duration and seed parse, query mode
// and output format known. Throws ConfigError naming the option and the fix.
// The returned config has conninfo set; scale is left for DetectScale.
TpcbDriverConfig ResolvePgbenchRun(const PgbenchOptions& o);

// The scripts of a run: every -b NAME[@W] (or -N / -S), then every -f
// FILE[@W], with the -D variables; tpcb-like when none is given. *first is
// the first built-in (tpcb-like when none). Throws ConfigError.
std::shared_ptr<const ScriptSet> ResolvePgbenchScripts(const PgbenchOptions& o,
                                                       Builtin* first);

// The -i options (throws ConfigError like ResolvePgbenchRun).
TpcbInitOptions ResolvePgbenchInit(const PgbenchOptions& o);

// libpq connection string: --pg-dsn when given, with -h/-p/-U/dbname added
// as keywords (values quoted); "" means libpq's defaults (PGHOST, ...).
std::string BuildConnInfo(const PgbenchOptions& o);

// "time" -> a time-based seed, "rand" -> a random one, "<n>" -> n. Throws
// ConfigError naming --random-seed.
uint64_t ResolveRandomSeed(const std::string& text);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PGBENCH_OPTIONS_H_
