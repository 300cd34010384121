// DB workloads for `tierbench compare`: a pgbench-style TPC-B run on a fresh
// PostgreSQL cluster on a block device (a raw HDD/SSD or /dev/bcacheN).
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
// tpcb-like builtin. The scripts are parsed when the file is loaded (a bad
// script is a ConfigError naming its file:line).
// Unknown keys are a ConfigError (typos must not silently change a run).
//
// Thread-safety: all functions may be called from any thread, but RunDbCell
// mounts filesystems and starts servers: run one cell at a time.
#ifndef TIERBENCH_DB_DB_CELL_H_
#define TIERBENCH_DB_DB_CELL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/pgbench_script.h"
#include "stats/job_result.h"
#include "util/sysfs.h"

namespace tierbench {

struct DbWorkload {
  std::string path;                   // file it was loaded from
  std::string name;                   // "name" or the file's stem
  int scale = 1;                      // pgbench -s
  int clients = 1;                    // pgbench -c
  int threads = 1;                    // pgbench -j (clients spread evenly)
  uint64_t duration_ns = 0;           // pgbench -T
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
};

// Loads and validates a DB workload file. Throws ConfigError naming the file
// and the key ("<path>: key 'scale' must be an integer >= 1 ...") when the
// file is unreadable, not JSON, not "kind": "pgbench", or a value is invalid.
DbWorkload LoadDbWorkload(const std::string& path);

// The scripts of `w` (builtin and/or files, defines), parsed. Throws
// ConfigError.
std::shared_ptr<const ScriptSet> DbWorkloadScripts(const DbWorkload& w);

// True when `path` is a readable JSON file whose "kind" is "pgbench" (lets
// compare tell DB workloads from fio job files). Never throws.
bool IsDbWorkloadFile(const std::string& path);

// The JobResult direction that carries the transactions: kRead for
// "select-only", kWrite for the builtins that write.
IoDir DbTxDirection(const std::string& builtin);
// The same for a whole workload: kWrite when any of its scripts writes.
IoDir DbTxDirection(const DbWorkload& w);

struct DbCellOptions {
  // Must be true: the cell makes a filesystem on the device (its contents
  // are destroyed). false -> SafetyError naming --destructive.
  bool destructive = false;
  // Parent for the cell's private directories (mount point, socket dir,
  // server log); a fresh subdirectory is created and removed. "" -> /tmp.
  std::string work_dir;
  // Directory holding initdb/pg_ctl/postgres; "" -> /usr/lib/postgresql/15/bin
  // (or $TIERBENCH_PG_BINDIR when set).
  std::string pg_bindir;
  // After -i: sync and drop the page cache (proc/sys/vm/drop_caches under
  // `os`, util/sysfs.h) so the run starts cold as far as the OS is concerned.
  bool drop_caches = true;
  Sysfs os;
  // Print pgbench-style progress every N seconds on stderr (0: none).
  int progress_sec = 0;
  // Called about once a second on the calling thread while the clients run
  // (TpcbDriverConfig::on_second). May be empty.
  std::function<void(uint64_t bench_start_ns)> on_second;
};

// What a cell measured and how the server was set up (for the manifest).
struct DbCellInfo {
  std::map<std::string, std::string> server_settings;  // as written
  std::string server_version;  // "PostgreSQL 15.x ..." (SELECT version())
  std::string filesystem = "ext4";
  uint64_t init_ns = 0;  // wall time of -i (load + vacuum + keys)
  double tps = 0;        // pgbench's tps (without connection time)
  uint64_t failed_transactions = 0;
};

// Runs one DB cell on `block_device`:
//   mkfs.ext4 -> mount privately in a temp dir -> CHECK the data directory's
//   filesystem is that device (st_dev == device's st_rdev; a silent mount
//   failure would measure RAM) -> initdb -> start the server -> -i -s scale
//   -> sync + drop caches -> run the TPC-B driver for duration_ns -> stop ->
//   unmount -> wipe the ext4 signature (wipefs -a) so later IO cells on the
//   same device are not refused. Every step is undone on error or signal.
// Returns the transactions as a JobResult: unit "tx", name = w.name,
// dir[DbTxDirection(w.builtin)].ios = transactions, .lat/.lat_hist =
// transaction latency (ns), .series = transactions per second; runtime_ns =
// the measured window. *info (optional) receives the server settings.
// Throws SafetyError (no destructive), SysError (mkfs/mount/tools, not a
// block device), DbError (server setup or run failed; a server that died
// mid-run), InterruptedError (SIGINT/SIGTERM).
JobResult RunDbCell(const DbWorkload& w, const std::string& block_device,
                    const DbCellOptions& opts, DbCellInfo* info = nullptr);

}  // namespace tierbench

#endif  // TIERBENCH_DB_DB_CELL_H_
