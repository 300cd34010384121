// DbSession: one DB workload's database on a block device, made once and
// run by one or more DB cells, as pgbench users compare cache modes: load
// once (`pgbench -i`), then switch the mode and run again. A compare keeps
// a session from one cell to the next while they run the same DB workload
// on the same device (each cache mode of a stack in turn), so a stack's
// modes share one load instead of paying mkfs, initdb and the load (and
// the load's writeback) per mode.
//
// Lifecycle:
//   Create: CHECK the device (block device, root, --destructive, not
//     mounted, held or signed) -> mkfs.ext4 -> mount privately in a temp
//     dir -> CHECK the data directory is on that device (st_dev ==
//     st_rdev: a silent mount failure would measure RAM) -> initdb -> start
//     -> -i -s scale -> checkpoint -> record the database's size and the
//     load's end time -> stop the server cleanly -> sync. The server stays
//     down until the first run.
//   Run (any number of times): on the first run only,
//     DbCellOptions::after_load (the load's dirty data drains) -> drop
//     caches -> start the server (so neither shared_buffers nor the page
//     cache holds what the load or an earlier run wrote) -> vacuum
//     pgbench_branches and pgbench_tellers, truncate pgbench_history (what
//     pgbench does before every run unless -n) -> record the database's
//     size as the run finds it -> with "page_cache": "warm", read the
//     database's files into the page cache -> the TPC-B driver for
//     warmup_ns (its ramp: unmeasured) and duration_ns (measured) ->
//     CHECKPOINT (it waits as long as the disk needs) -> stop the server
//     cleanly -> sync. The device and mount stay.
//   Destructor: stop the server if it runs, unmount, wipe the ext4
//     signature (wipefs -a) so later IO cells on the device are not
//     refused, remove the work directory. Never throws.
// Between two runs the device stays mounted with the server stopped:
// whatever the caller changes under it (a cache mode switch, a cold cache)
// must keep the block device's contents, as every cache layer's mode
// switch does.
//
// Errors: Create throws SafetyError (no --destructive; a mounted, held or
// signed device), SysError (mkfs, mount, tools, not a block device, not
// root), DbError (initdb, server start, the load), InterruptedError. Run
// throws DbError (the server did not stop or start; a client aborted) and
// InterruptedError; after any throw the session is not healthy() and its
// owner should destroy it.
// Thread-safety: one owner; runs one cell at a time.
#ifndef TIERBENCH_DB_DB_SESSION_H_
#define TIERBENCH_DB_DB_SESSION_H_

#include <memory>
#include <string>

#include "db/db_cell.h"
#include "db/db_workload.h"
#include "db/tpcb_driver.h"
#include "workload/job_result.h"

namespace tierbench {

class PostgresServer;

// The driver's configuration for one run of `w` (what DbSession::Run hands
// RunTpcb, less the connection and the cell's callbacks): name, builtin,
// query mode, scale, clients, threads, duration, warm-up as the ramp,
// rate, latency limit, the seed (w's, else the clock now) and the scripts
// w carries (w.parsed_scripts, shared: no script file is read). Throws
// ConfigError naming w.path for an unknown builtin or query mode.
TpcbDriverConfig DbDriverConfig(const DbWorkload& w);

class DbSession {
 public:
  // Makes and loads w's database on `block_device` (see the lifecycle
  // above). Uses opts.destructive, work_dir and pg_bindir.
  static std::unique_ptr<DbSession> Create(const DbWorkload& w,
                                           const std::string& block_device,
                                           const DbCellOptions& opts);
  ~DbSession();
  DbSession(const DbSession&) = delete;
  DbSession& operator=(const DbSession&) = delete;

  // One measured run (see the lifecycle above) with the cell's options
  // (after_load, drop_caches, os, on_second, before_run, progress_sec).
  // Returns the transactions as RunDbCell does; *info (optional) receives
  // the load's facts (init_ns, load_end_unix_s, server_version), this
  // run's evidence (db_size_bytes as the run found the database) and
  // database_reused (false on the first run), also when the run ends with
  // DbError or InterruptedError after the clients ran.
  JobResult Run(const DbCellOptions& opts, DbCellInfo* info = nullptr);

  // False once a Run or a stop failed: the database's state is unknown.
  bool healthy() const { return healthy_; }
  // The device the database lives on, as given to Create.
  const std::string& device() const { return device_; }
  // Runs so far.
  int runs() const { return runs_; }

 private:
  DbSession(const DbWorkload& w, std::string device);
  void Load(const DbCellOptions& opts);
  // Stop (when running) + sync + after_load on the first run + drop caches
  // (not for a "page_cache": "warm" workload, which reads its files back
  // anyway) + start; fills the restart fields of *got.
  void Restart(const DbCellOptions& opts, DbCellInfo* got);

  DbWorkload workload_;
  std::string device_;
  std::string work_dir_;  // "" until made
  std::string mount_point_;
  bool mounted_ = false;
  bool signed_ = false;  // mkfs ran: the destructor wipes the signature
  std::unique_ptr<PostgresServer> server_;
  // What the load gave (server_version, init_ns, load_end_unix_s,
  // db_size_bytes, filesystem); copied into every run's DbCellInfo.
  DbCellInfo load_;
  int runs_ = 0;
  bool healthy_ = true;
};

}  // namespace tierbench

#endif  // TIERBENCH_DB_DB_SESSION_H_
