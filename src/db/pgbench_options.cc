#include "db/pgbench_options.h"

#include <random>

#include "util/clock.h"
#include "util/errors.h"
#include "util/units.h"

namespace tierbench {

namespace {

// Quotes a libpq keyword value: single quotes, backslash before ' and \.
std::string QuoteConnValue(const std::string& v) {
  std::string out = "'";
  for (char c : v) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

void AddPgbenchOptions(CLI::App* cmd, PgbenchOptions* o) {
  // pgbench uses -h for the host, so help is --help only.
  cmd->set_help_flag("--help", "Print this help and exit");
  auto* init = cmd->add_option_group("Initialization");
  init->add_flag("-i,--initialize", o->initialize,
                 "Create and load the pgbench_* tables (drops existing ones)");
  init->add_option("-s,--scale", o->scale,
                   "Scale factor for -i: branches s, tellers 10s, accounts "
                   "100000s (about 15 MB per unit)")
      ->check(CLI::PositiveNumber)
      ->each([o](const std::string&) { o->scale_set = true; });
  init->add_option("-F,--fillfactor", o->fillfactor,
                   "Fill factor of the tables for -i")
      ->check(CLI::Range(10, 100));
  init->add_option("-I,--init-steps", o->init_steps,
                   "Steps of -i: d drop, t create, g client-side generate "
                   "(COPY), G server-side generate, v vacuum, p primary keys, "
                   "f foreign keys");
  init->add_flag("--unlogged-tables", o->unlogged_tables,
                 "Create the tables UNLOGGED for -i");

  auto* run = cmd->add_option_group("Benchmarking");
  CLI::Option* builtin_opt =
      run->add_option(
             "-b,--builtin", o->builtins,
             "Add a built-in script NAME[@WEIGHT]: tpcb-like (default), "
             "simple-update or select-only; repeatable")
          ->allow_extra_args(false);
  CLI::Option* file_opt =
      run->add_option("-f,--file", o->files,
                      "Add a script file FILE[@WEIGHT] in pgbench's script "
                      "language (SQL, \\set, \\sleep); repeatable")
          ->allow_extra_args(false);
  run->add_option("-D,--define", o->defines,
                  "Define a script variable NAME=VALUE; repeatable")
      ->allow_extra_args(false);
  run->add_option("-R,--rate", o->rate_tps,
                  "Target rate in transactions per second (all clients); "
                  "latency then counts from the scheduled start")
      ->check(CLI::PositiveNumber);
  run->add_option("-L,--latency-limit", o->latency_limit_ms,
                  "Count transactions over this many ms as late; with -R, "
                  "skip those already that late before they start")
      ->check(CLI::PositiveNumber);
  run->add_flag("-r,--report-per-command", o->report_per_command,
                "Report the average latency of each command");
  run->add_flag("-N,--skip-some-updates", o->simple_update,
                "Same as -b simple-update");
  run->add_flag("-S,--select-only", o->select_only, "Same as -b select-only");
  run->add_option("-c,--client", o->clients,
                  "Number of concurrent clients (connections)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  run->add_option("-j,--jobs", o->threads,
                  "Number of threads; clients are spread evenly over them")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  run->add_option("-T,--time", o->duration,
                  "Run for this long (seconds, or with a unit: 30s, 2m)");
  run->add_option("-t,--transactions", o->transactions,
                  "Transactions per client (default 10 unless -T)")
      ->check(CLI::PositiveNumber);
  run->add_option("-M,--protocol", o->query_mode,
                  "Query mode: simple, extended or prepared")
      ->check(CLI::IsMember({"simple", "extended", "prepared"}))
      ->capture_default_str();
  run->add_option("-P,--progress", o->progress_sec,
                  "Print a progress line on stderr every N seconds")
      ->check(CLI::PositiveNumber);
  run->add_option("--random-seed", o->random_seed,
                  "Seed of the random values: time (default), rand or an "
                  "integer (repeatable runs)");
  run->add_flag("-n,--no-vacuum", o->no_vacuum,
                "Do not vacuum tellers/branches and truncate history first");
  run->add_option("--stall-timeout", o->stall_timeout_sec,
                  "Abort a client whose command got no answer for this many "
                  "seconds (a hung or dead server)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();

  // pgbench numbers -b and -f scripts in command-line order: record it.
  cmd->parse_complete_callback([run, builtin_opt, file_opt, o]() {
    o->script_order.clear();
    size_t b = 0, f = 0;
    for (const CLI::Option* opt : run->parse_order()) {
      if (opt == builtin_opt && b < o->builtins.size()) {
        o->script_order.emplace_back('b', o->builtins[b++]);
      } else if (opt == file_opt && f < o->files.size()) {
        o->script_order.emplace_back('f', o->files[f++]);
      }
    }
  });

  auto* conn = cmd->add_option_group("Connection");
  conn->add_option("-h,--host", o->host, "Server host or socket directory");
  conn->add_option("-p,--port", o->port, "Server port");
  conn->add_option("-U,--username", o->user, "Database user");
  conn->add_option("--pg-dsn", o->pg_dsn,
                   "libpq connection string or postgresql:// URI (a server "
                   "you run); -h/-p/-U/dbname override its parts");
  cmd->add_option("dbname", o->dbname, "Database name (libpq default)");

  auto* out = cmd->add_option_group("Output");
  out->add_option("--output-format", o->output_format,
                  "normal (pgbench's lines + percentiles), json or csv")
      ->check(CLI::IsMember({"normal", "json", "csv"}))
      ->capture_default_str();
  out->add_option("--name", o->job_name, "Job name in json/csv output")
      ->capture_default_str();
}

uint64_t ResolveRandomSeed(const std::string& text) {
  if (text.empty() || text == "time") return NowNs();
  if (text == "rand") return std::random_device{}();
  try {
    size_t used = 0;
    unsigned long long v = std::stoull(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw ConfigError("invalid --random-seed '" + text +
                    "'. Fix: use time, rand or a non-negative integer");
}

std::string BuildConnInfo(const PgbenchOptions& o) {
  std::string ci = o.pg_dsn;
  auto add = [&ci](const char* key, const std::string& v) {
    if (v.empty()) return;
    if (ci.rfind("postgres", 0) == 0 && ci.find("://") != std::string::npos) {
      // URIs take extra keywords as query parameters.
      ci += (ci.find('?') == std::string::npos ? "?" : "&");
      ci += std::string(key) + "=" + v;
      return;
    }
    if (!ci.empty()) ci += ' ';
    ci += std::string(key) + "=" + QuoteConnValue(v);
  };
  add("host", o.host);
  add("port", o.port);
  add("user", o.user);
  add("dbname", o.dbname);
  return ci;
}

TpcbInitOptions ResolvePgbenchInit(const PgbenchOptions& o) {
  TpcbInitOptions init;
  init.scale = o.scale;
  init.fillfactor = o.fillfactor;
  init.steps = o.init_steps;
  init.unlogged_tables = o.unlogged_tables;
  Status st = ValidateInitOptions(init);
  if (!st.ok()) throw ConfigError("invalid option: " + st.message());
  return init;
}

std::shared_ptr<const ScriptSet> ResolvePgbenchScripts(const PgbenchOptions& o,
                                                       Builtin* first) {
  // -N / -S are shortcuts for one -b; they must not contradict -b.
  const int shortcuts = (o.simple_update ? 1 : 0) + (o.select_only ? 1 : 0);
  const char* shortcut = o.simple_update ? "simple-update"
                         : o.select_only ? "select-only"
                                         : nullptr;
  std::vector<std::pair<Builtin, int>> builtins;
  for (const auto& arg : o.builtins) {
    std::string name;
    int weight = 1;
    SplitScriptWeight(arg, "-b/--builtin", &name, &weight);
    Builtin b;
    Status st = ParseBuiltin(name, &b);
    if (!st.ok()) throw ConfigError("invalid -b/--builtin: " + st.message());
    if (shortcut != nullptr && std::string(BuiltinName(b)) != shortcut) {
      throw ConfigError(
          "conflicting scripts: -N, -S and -b name different scripts. Fix: "
          "give one of them");
    }
    builtins.emplace_back(b, weight);
  }
  if (shortcuts > 1) {
    throw ConfigError(
        "conflicting scripts: -N, -S and -b name different scripts. Fix: "
        "give one of them");
  }
  if (shortcut != nullptr && builtins.empty()) {
    Builtin b;
    ParseBuiltin(shortcut, &b);
    builtins.emplace_back(b, 1);
  }
  auto set = std::make_shared<ScriptSet>();
  for (const auto& d : o.defines) set->Define(d);
  // Command-line order when known (AddPgbenchOptions records it), else
  // the -b scripts, then the -f scripts.
  std::vector<std::pair<char, std::string>> order = o.script_order;
  if (order.size() != o.builtins.size() + o.files.size()) {
    order.clear();
    for (const auto& b : o.builtins) order.emplace_back('b', b);
    for (const auto& f : o.files) order.emplace_back('f', f);
  }
  size_t next_builtin = 0;
  for (const auto& [kind, arg] : order) {
    if (kind == 'b') {
      const auto& [b, weight] = builtins[next_builtin++];
      set->AddBuiltin(b, weight);
      continue;
    }
    std::string path;
    int weight = 1;
    SplitScriptWeight(arg, "-f/--file", &path, &weight);
    set->AddFile(path, weight);
  }
  // -N / -S alone: their script.
  if (o.builtins.empty() && !builtins.empty()) {
    set->AddBuiltin(builtins[0].first, builtins[0].second);
  }
  set->Finish();
  *first = builtins.empty() ? Builtin::kTpcbLike : builtins.front().first;
  return set;
}

TpcbDriverConfig ResolvePgbenchRun(const PgbenchOptions& o) {
  TpcbDriverConfig c;
  c.scripts = ResolvePgbenchScripts(o, &c.builtin);
  Status st = ParseQueryMode(o.query_mode, &c.query_mode);
  if (!st.ok()) throw ConfigError("invalid -M/--protocol: " + st.message());
  if (o.clients < 1) {
    throw ConfigError("invalid -c/--client " + std::to_string(o.clients) +
                      ". Fix: use at least 1 client");
  }
  if (o.threads < 1 || o.threads > o.clients) {
    throw ConfigError("invalid -j/--jobs " + std::to_string(o.threads) +
                      " for " + std::to_string(o.clients) +
                      " clients. Fix: use 1 <= -j <= -c");
  }
  c.clients = o.clients;
  c.threads = o.threads;
  if (!o.duration.empty() && o.transactions >= 0) {
    throw ConfigError(
        "-T/--time and -t/--transactions are mutually exclusive. Fix: give "
        "one of them");
  }
  if (!o.duration.empty()) {
    st = ParseDuration(o.duration, kNsPerSec, &c.duration_ns);
    if (!st.ok() || c.duration_ns < kNsPerSec) {
      throw ConfigError("invalid -T/--time '" + o.duration +
                        "'. Fix: a duration of at least 1 s (10, 30s, 2m)");
    }
  } else {
    c.transactions_per_client =
        o.transactions >= 0 ? static_cast<uint64_t>(o.transactions) : 10;
  }
  if (o.output_format != "normal" && o.output_format != "json" &&
      o.output_format != "csv") {
    throw ConfigError("invalid --output-format '" + o.output_format +
                      "'. Fix: use normal, json or csv");
  }
  c.random_seed = ResolveRandomSeed(o.random_seed);
  c.progress_sec = o.progress_sec;
  c.stall_timeout_ns = static_cast<uint64_t>(o.stall_timeout_sec * 1e9);
  if (o.rate_tps < 0 || o.latency_limit_ms < 0) {
    throw ConfigError(
        "invalid -R/--rate or -L/--latency-limit. Fix: a positive number");
  }
  c.rate_tps = o.rate_tps;
  c.latency_limit_ns = static_cast<uint64_t>(o.latency_limit_ms * 1e6);
  c.report_per_command = o.report_per_command;
  c.name = o.job_name;
  c.conninfo = BuildConnInfo(o);
  return c;
}

}  // namespace tierbench
