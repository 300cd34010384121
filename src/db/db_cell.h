// DB workloads for `tierbench compare`: a pgbench-style TPC-B run on a fresh
// PostgreSQL cluster on a block device (a raw HDD/SSD or /dev/bcacheN).
//
// The workload file format and its parser: db/db_workload.h.
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

#include "db/db_workload.h"
#include "db/pgbench/pgbench_script.h"
#include "util/sysfs.h"
#include "workload/job_result.h"

namespace tierbench {

// The JobResult direction that carries the transactions: kRead for
// "select-only", kWrite for the builtins that write.
IoDir DbTxDirection(const std::string& builtin);
// The same for a whole workload: kWrite when any of its parsed scripts
// writes (`builtin` alone when it has none, as a run would).
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
  // Before each run, while the server is stopped (after the load, or after
  // an earlier run on the same database): drop the page cache
  // (proc/sys/vm/drop_caches under `os`, util/sysfs.h) so the run starts
  // cold as far as the OS is concerned.
  bool drop_caches = true;
  // The filesystem's size in bytes (whole KiB), 0: the whole device.
  // compare --capture-replay makes every cell's the size of its smallest
  // target, so the capture of the raw HDD's fits every target it is
  // replayed on.
  uint64_t fs_bytes = 0;
  // The host's sys/ and proc/ (Host::sysfs, util/host.h): the device
  // guard before mkfs, drop_caches, proc/meminfo (MemTotal) and
  // proc/<pid>/stat (the server's CPU). Tests may point it at a fake tree.
  Sysfs os;
  // Print pgbench-style progress every N seconds on stderr (0: none).
  int progress_sec = 0;
  // Called about once a second on the calling thread while the clients run
  // (TpcbDriverConfig::on_second). May be empty.
  std::function<void(uint64_t bench_start_ns)> on_second;
  // Called once the load is on the device and the server is stopped, before
  // the page cache is dropped and the server starts again (e.g. to drain a
  // cache layer's dirty data, so the load's writeback does not compete with
  // the measured run). May be empty; may throw (the cell fails).
  std::function<void()> after_load;
  // Called right before the measured run starts (after the warm-up): the
  // moment a caller's counters "before" belong to (e.g. a cache layer's,
  // so the load and the warm-up stay out of the cell's counters). May be
  // empty; may throw (the cell fails).
  std::function<void()> before_run;
  // Called once the server is up and its page cache warm-up is done, right
  // before the clients start (their warm-up, "warmup", follows): the moment
  // a layer whose counters lag (bcache folds them every 13.6 s) takes its
  // counters "before", at a fold, so the restart's and the page cache
  // warm-up's reads stay out of the cell's counters. May be empty; may
  // throw (the cell fails).
  std::function<void()> before_clients;
  // Called once the clients have ended (the run over, before its
  // checkpoint and the server's stop), also when they were interrupted;
  // not when the run throws (a failed connect): the caller then cleans up
  // on its own. May be empty; must not throw.
  std::function<void()> after_clients;
};

// What a cell measured and how the server was set up (for the manifest),
// with the evidence that it measured storage and not RAM or CPU. A value
// that could not be read is -1 (never a made-up 0).
struct DbCellInfo {
  std::map<std::string, std::string> server_settings;  // as written
  std::string server_version;  // "PostgreSQL 15.x ..." (SELECT version())
  std::string filesystem = "ext4";
  uint64_t init_ns = 0;  // wall time of -i (load + vacuum + keys)
  double tps = 0;        // pgbench's tps (without connection time)
  uint64_t failed_transactions = 0;
  // Evidence for the validity rules (validity/db_rules.h); -1 / false
  // when not measured.

  // The server was stopped cleanly (fast shutdown) after the load and its
  // checkpoint, and the clients ran against a server started again
  // afterwards (for this run: a reused database's runs each start it
  // anew): true only when that server's pg_postmaster_start_time() is
  // later than load_end_unix_s.
  bool restarted_after_load = false;
  // Wall time of the restart: clean stop + sync + drop caches + start, until
  // the server accepts connections again. 0 when there was none.
  uint64_t restart_ns = 0;
  // The page cache was dropped while the server was stopped (false when
  // DbCellOptions::drop_caches is off or the write to drop_caches failed).
  bool page_cache_dropped = false;
  // "page_cache": "warm": the bytes of the database's files read into the
  // page cache after the restart, and the seconds it took; -1: not asked.
  int64_t page_cache_warmed_bytes = -1;
  double page_cache_warm_s = -1;
  // Wall clock (Unix epoch seconds) when the load and its checkpoint ended,
  // and the measured server's pg_postmaster_start_time(); -1 when unknown.
  double load_end_unix_s = -1;
  double server_start_unix_s = -1;
  // pg_database_size(current_database()) right after the load: the database
  // the clients use (tables, indexes, free space map, catalogs).
  int64_t db_size_bytes = -1;
  // The measured server's shared_buffers in bytes (pg_settings: setting *
  // unit, so "16MB" and "2048" (8kB pages) both come out right).
  int64_t shared_buffers_bytes = -1;
  // MemTotal of the host (proc/meminfo under DbCellOptions::os).
  int64_t mem_total_bytes = -1;
  // CPU seconds (user + system) of the server's processes (the postmaster,
  // its live children and the children it reaped: backends, checkpointer,
  // walwriter, autovacuum...) between two samples of proc/<pid>/stat taken
  // when the measured window starts (after the warm-up) and right after the
  // last client ended.
  double server_cpu_s = -1;
  // The wall time between those two samples (server_cpu_s / cpu_window_s
  // is the server's mean number of busy CPUs).
  double cpu_window_s = -1;
  // CPU seconds (user + system) of the driver's client threads over their
  // life (connect + run), as pgbench counts them (getrusage per thread).
  double client_cpu_s = -1;
  // The window tps is computed over (all clients connected to the last
  // transaction's end), in seconds; JobResult::runtime_ns in ns.
  double measured_s = -1;
  // Seconds of the run before its measured window ("warmup": the ramp,
  // with the clients' connection); 0 when none.
  double warmup_s = 0;
  // The database was made and loaded for an earlier cell (DbSession) and
  // run again after a restart; the load's facts above are that load's.
  bool database_reused = false;
};

// Runs one DB cell on `block_device` on a database of its own: a
// DbSession (db/db_session.h) made, run once and closed: mkfs, mount, CHECK
// the data directory is on the device, initdb, load, a restart on a dropped
// page cache, the warm-up and the measured run, then the server stopped,
// the filesystem unmounted and its signature wiped (wipefs -a) so later IO
// cells on the same device are not refused. Every step is undone on error
// or signal. A compare keeps the session between the cells of a stack's
// modes instead (orchestrate/cell_runner.h).
// Returns the transactions as a JobResult: unit "tx", name = w.name,
// dir[DbTxDirection(w.builtin)].ios = transactions, .lat/.lat_hist =
// transaction latency (ns), .series = transactions per second; runtime_ns =
// the measured window. *info (optional) receives the server settings and
// the evidence (DbCellInfo), also when the run ends with DbError or
// InterruptedError after the clients ran.
// Throws SafetyError (no destructive), SysError (mkfs/mount/tools, not a
// block device), DbError (server setup or run failed; the server did not
// shut down cleanly after the load or did not start again; a server that
// died mid-run), InterruptedError (SIGINT/SIGTERM).
JobResult RunDbCell(const DbWorkload& w, const std::string& block_device,
                    const DbCellOptions& opts, DbCellInfo* info = nullptr);

}  // namespace tierbench

#endif  // TIERBENCH_DB_DB_CELL_H_
