// DB workload files for `tierbench compare`: parsing and validation only
// (no server, no device), so it links into the fuzz targets too.
//
// A DB workload file (workloads/*.json, documented in README.md):
//   {
//     "schema_version": 1,
//     "kind": "pgbench",              // required: marks a DB workload
//     "name": "pgbench-tpcb",         // default: the file's stem
//     "scale": 2,                     // -s, >= 1
//     "clients": 4,                   // -c, >= 1
//     "threads": 1,                   // -j, 1..clients
//     "duration": "10s",              // -T (util/units ParseDuration, s)
//     "warmup": "20s",                // optional: the clients run this
//                                     // long first, unmeasured (the
//                                     // database's pages come into memory,
//                                     // the cache under it settles)
//     "query_mode": "simple",         // simple | extended | prepared
//     "builtin": "tpcb-like",         // tpcb-like | simple-update |
//                                     // select-only, optionally "@WEIGHT"
//     "scripts": ["x.sql@10"],        // -f FILE[@WEIGHT], relative to the
//                                     // workload file's directory
//     "defines": {"n": 5},            // -D NAME=VALUE
//     "rate": 500,                    // -R tps (optional)
//     "latency_limit": 20,            // -L ms (optional)
//     "random_seed": 42,              // optional; default: time based
//     "postgres": {"shared_buffers": "128MB", ...}  // optional settings
//   }
// With "scripts" and no "builtin" only the scripts run; with neither, the
// tpcb-like builtin. The scripts are parsed once, when the file is loaded
// (a bad script is a ConfigError naming its file:line), and the workload
// carries them (DbWorkload::parsed_scripts): a run reads no script file.
//
// Errors: a ConfigError, one line naming the file and the key.
// Thread-safety: all functions may be called from any thread; copies of a
// DbWorkload share its parsed scripts, which are never modified.
#ifndef TIERBENCH_DB_DB_WORKLOAD_H_
#define TIERBENCH_DB_DB_WORKLOAD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/pgbench/pgbench_script.h"

namespace tierbench {

struct DbWorkload {
  std::string path;          // file it was loaded from
  std::string name;          // "name" or the file's stem
  int scale = 1;             // pgbench -s
  int clients = 1;           // pgbench -c
  int threads = 1;           // pgbench -j (clients spread evenly)
  uint64_t duration_ns = 0;  // pgbench -T
  uint64_t warmup_ns = 0;    // "warmup": unmeasured run first
  // "page_cache": "cold" (default): after the load the server restarts on
  // an empty page cache, so reads the buffers miss reach the device (a
  // database larger than the host's memory). "warm": the database's files
  // are then read into the page cache, so reads come from RAM and the
  // device sees the write path: WAL commits, checkpoints, evictions (a
  // database that fits in memory, as in seed 001: 150 MB on 8 GB).
  bool page_cache_warm = false;
  std::string query_mode = "simple";  // simple | extended | prepared
  std::string builtin = "tpcb-like";  // tpcb-like | simple-update | select-only
  int builtin_weight = 1;
  bool builtin_set = false;                    // "builtin" given
  std::vector<std::string> scripts;            // FILE@WEIGHT, paths resolved
  std::map<std::string, std::string> defines;  // -D
  double rate_tps = 0;                         // -R; 0: none
  double latency_limit_ms = 0;                 // -L; 0: none
  bool random_seed_set = false;
  uint64_t random_seed = 0;  // --random-seed when random_seed_set
  // PostgreSQL settings that override PostgresServer's defaults
  // (postgresql.conf names -> values, e.g. "shared_buffers" -> "256MB").
  std::map<std::string, std::string> postgres_settings;
  // The scripts parsed at load time: the builtin (when "builtin" is given
  // or there are no "scripts") first, then the files, with their weights
  // and the defines. What a run executes (the files are not read again).
  // Never null in a workload from LoadDbWorkload / ParseDbWorkloadJson;
  // null in one built field by field, which runs `builtin` alone.
  std::shared_ptr<const ScriptSet> parsed_scripts;
};

// Loads and validates a DB workload file and parses its scripts
// (ParseDbWorkloadJson on the file's text). Throws ConfigError naming the
// file and the key ("<path>: key 'scale' must be an integer >= 1 ...") when
// the file is unreadable, not JSON, not "kind": "pgbench", or a value is
// invalid.
DbWorkload LoadDbWorkload(const std::string& path);

// Validates already-read text and parses its scripts into
// DbWorkload::parsed_scripts, reading the files named in "scripts" now.
// `path` names the file in messages and is the base of relative scripts.
// Throws ConfigError; a script that cannot be read or parsed gives
// "invalid DB workload file. File: <path>; Key: scripts; <script>:<line>:
// ..." (ScriptSet's message after the key).
DbWorkload ParseDbWorkloadJson(std::string_view text, const std::string& path);

// True when `path` is a readable JSON file whose "kind" is "pgbench" (lets
// compare tell DB workloads from fio job files). Never throws.
bool IsDbWorkloadFile(const std::string& path);

}  // namespace tierbench

#endif  // TIERBENCH_DB_DB_WORKLOAD_H_
