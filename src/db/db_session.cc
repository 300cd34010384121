#include "db/db_session.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "db/pg_connection.h"
#include "db/postgres_server.h"
#include "db/process_cpu.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"
#include "io/device_guard.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/scope_guard.h"
#include "util/subprocess.h"
#include "util/sysfs.h"

namespace tierbench {

namespace {

std::string FindTool(const std::vector<std::string>& candidates,
                     const std::string& package) {
  std::string tool = FindExecutable(candidates);
  if (tool.empty()) {
    throw SysError(candidates.front() + " not found. Fix: install " + package +
                   " (scripts/install-deps)");
  }
  return tool;
}

// Removes the filesystem signature Create made; wipefs when available,
// else zeroes the first MiB (where ext4's primary superblock lives).
void WipeSignature(const std::string& device) {
  std::string wipefs = FindExecutable(
      {"/sbin/wipefs", "/usr/sbin/wipefs", "/usr/bin/wipefs", "/bin/wipefs"});
  if (!wipefs.empty() &&
      RunProcess({wipefs, "-a", "-q", device}).exit_code == 0) {
    return;
  }
  int fd = open(device.c_str(), O_WRONLY);
  if (fd < 0) return;
  std::vector<char> zeros(1 << 20, 0);
  if (pwrite(fd, zeros.data(), zeros.size(), 0) < 0) {
    LogWarning("could not wipe the ext4 signature on " + device);
  }
  fsync(fd);
  close(fd);
}

// True when the page cache was dropped; else warns.
bool DropCaches(const Sysfs& os) {
  const Status s = DropPageCache(os);
  if (!s.ok()) {
    LogWarning("could not drop the page cache (" +
               os.Path("proc/sys/vm/drop_caches") + "): " + s.message());
  }
  return s.ok();
}

// The wall clock in Unix epoch seconds (CLOCK_REALTIME, as PostgreSQL's
// timestamps).
double UnixNowS() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

// A query's integer answer; -1 when it is not a whole number.
int64_t IntOrUnknown(const std::string& text) {
  int64_t v = -1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  return ec == std::errc() && ptr == end && !text.empty() ? v : -1;
}

// A query's number; -1 when it is not one.
double NumberOrUnknown(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() ? v : -1;
}

// The CPU ticks of the server's processes so far (proc_stat.h); -1 with a
// warning when they cannot be read.
int64_t ServerCpuTicks(const Sysfs& os, pid_t postmaster) {
  if (postmaster <= 0) {
    LogWarning("cannot sample the server's CPU time: no postmaster.pid");
    return -1;
  }
  uint64_t ticks = 0;
  const Status s = ReadProcessFamilyCpuTicks(os, postmaster, &ticks);
  if (!s.ok()) {
    LogWarning("cannot sample the server's CPU time: " + s.message());
    return -1;
  }
  return static_cast<int64_t>(ticks);
}

// Reads every file under `dir` through the page cache (buffered reads), so
// the server's later reads of them come from RAM. Returns the bytes read.
// Throws DbError naming the file on a read error.
int64_t ReadIntoPageCache(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<char> buf(1 << 20);
  int64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string path = e.path().string();
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw DbError("cannot read " + path +
                    " into the page cache: " + std::strerror(errno));
    }
    ScopeGuard close_fd([fd] { close(fd); });
    for (;;) {
      const ssize_t n = read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        throw DbError("cannot read " + path +
                      " into the page cache: " + std::strerror(errno));
      }
      if (n == 0) break;
      total += n;
    }
  }
  return total;
}

void ThrowIfSignalled() {
  if (Interrupted()) throw InterruptedError("interrupted", InterruptSignal());
}

}  // namespace

DbSession::DbSession(const DbWorkload& w, std::string device)
    : workload_(w), device_(std::move(device)) {}

std::unique_ptr<DbSession> DbSession::Create(const DbWorkload& w,
                                             const std::string& block_device,
                                             const DbCellOptions& opts) {
  if (!opts.destructive) {
    throw SafetyError("a DB cell makes a new filesystem on " + block_device +
                      " (its data is destroyed). Fix: pass --destructive");
  }
  struct stat dev_st {};
  if (stat(block_device.c_str(), &dev_st) != 0 || !S_ISBLK(dev_st.st_mode)) {
    throw SysError(
        "DB cell target is not a block device. Device: " + block_device +
        "; Fix: give a block device (/dev/sdX, "
        "/dev/bcacheN, /dev/loopN)");
  }
  if (geteuid() != 0) {
    throw SysError("a DB cell needs root (mkfs and mount). Device: " +
                   block_device + "; Fix: run as root");
  }
  // mkfs goes through the same guard as IO writes: not mounted, held or
  // carrying a signature (the session wipes its own ext4 when it ends).
  Status writable = CheckDeviceWritable(block_device, opts.os);
  if (!writable.ok()) {
    throw SafetyError("refusing to make a filesystem for a DB cell on " +
                      block_device + ". Reason: " + writable.message());
  }
  std::unique_ptr<DbSession> s(new DbSession(w, block_device));
  s->Load(opts);
  return s;
}

void DbSession::Load(const DbCellOptions& opts) {
  const std::string mkfs = FindTool({"/sbin/mkfs.ext4", "/usr/sbin/mkfs.ext4",
                                     "/sbin/mke2fs", "/usr/sbin/mke2fs"},
                                    "e2fsprogs");
  // Private work directory: mount point and socket directory.
  std::string parent = opts.work_dir.empty() ? "/tmp" : opts.work_dir;
  std::string tmpl = parent + "/tierbench-db.XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) {
    throw SysError("cannot create a work directory in " + parent +
                   ". SysErr: " + std::strerror(errno));
  }
  work_dir_ = tmpl;
  chmod(work_dir_.c_str(), 0711);  // the server's user must traverse it
  mount_point_ = work_dir_ + "/mnt";
  mkdir(mount_point_.c_str(), 0711);

  const uint64_t start = NowNs();
  signed_ = true;
  std::vector<std::string> mkfs_argv = {mkfs};
  if (mkfs.find("mke2fs") != std::string::npos) {
    mkfs_argv.insert(mkfs_argv.end(), {"-t", "ext4"});
  }
  // No lazy inode-table init: it would write in the background during the
  // measured run. A database needs few inodes (a cluster has about two
  // thousand files) and a small journal: zeroing the default ones cost a
  // throttled HDD seconds per cell. 4 KiB blocks, as on any real database
  // volume: mke2fs gives a filesystem under 512 MiB (the lab's regions)
  // 1 KiB blocks, whose 1 KiB-aligned IO a capture then held and a 4 KiB
  // device (dm-writecache's) refused to replay with O_DIRECT.
  mkfs_argv.insert(mkfs_argv.end(),
                   {"-F", "-q", "-b", "4096", "-N", "16384", "-J", "size=16",
                    "-E", "lazy_itable_init=0,lazy_journal_init=0", device_});
  if (opts.fs_bytes >= 1024) {
    mkfs_argv.push_back(std::to_string(opts.fs_bytes / 1024) + "k");
  }
  ProcessOutcome made = RunProcess(mkfs_argv);
  if (made.exit_code != 0) {
    throw SysError("mkfs.ext4 failed. Device: " + device_ +
                   "; Output: " + TailForMessage(made.output));
  }
  if (mount(device_.c_str(), mount_point_.c_str(), "ext4", MS_NOATIME, "") !=
      0) {
    throw SysError("cannot mount the new ext4. Device: " + device_ +
                   "; Mount point: " + mount_point_ +
                   "; SysErr: " + std::strerror(errno) +
                   "; Fix: is ext4 available (lab: "
                   "load ext4.ko)?");
  }
  mounted_ = true;
  chmod(mount_point_.c_str(), 0711);

  // The data directory must really be on the device (not on the parent
  // filesystem because a mount silently failed): compare st_dev with rdev.
  struct stat dev_st {};
  struct stat mnt_st {};
  if (stat(device_.c_str(), &dev_st) != 0 ||
      stat(mount_point_.c_str(), &mnt_st) != 0 ||
      mnt_st.st_dev != dev_st.st_rdev) {
    throw SysError(
        "the database directory is not on the device under test. "
        "Device: " +
        device_ + "; Directory: " + mount_point_ +
        "; Fix: check that the mount worked (dmesg)");
  }
  ThrowIfSignalled();

  PostgresServerOptions so;
  so.data_dir = mount_point_ + "/pgdata";
  so.socket_dir = work_dir_ + "/sock";
  so.log_file = work_dir_ + "/sock/postgresql.log";
  so.bindir = opts.pg_bindir;
  so.settings = workload_.postgres_settings;
  const uint64_t initdb_start = NowNs();
  server_ = std::make_unique<PostgresServer>(so);
  const uint64_t server_up = NowNs();
  {
    PgConnection conn(server_->ConnInfo());
    load_.server_version = conn.ServerVersion();
    TpcbInitOptions init;
    init.scale = workload_.scale;
    load_.init_ns = InitializeTpcb(conn, init, nullptr);
    conn.Exec("checkpoint");
    load_.db_size_bytes = IntOrUnknown(
        conn.QueryValue("select pg_database_size(current_database())"));
  }
  load_.load_end_unix_s = UnixNowS();
  // Down until the first run: whatever the owner changes under the device
  // before it (a cache mode, a cold cache) happens with no server writing.
  if (!server_->Stop()) {
    throw DbError("PostgreSQL did not shut down cleanly after the load. Log: " +
                  server_->log_file() +
                  "; Fix: see the log (the disk, or a killed server)");
  }
  sync();
  // Where a DB cell's time goes (a DB cell is the lab's slowest).
  char line[200];
  std::snprintf(line, sizeof line,
                "%s: mkfs %.1f s, initdb and start %.1f s, load %.1f s",
                workload_.name.c_str(), 1e-9 * (initdb_start - start),
                1e-9 * (server_up - initdb_start), 1e-9 * load_.init_ns);
  LogNotice(line);
}

DbSession::~DbSession() {
  // Each step on its own: a failed one must not stop the others, and
  // nothing may leave (the owner may be unwinding).
  try {
    server_.reset();  // stops it when running (fast, immediate, SIGKILL)
  } catch (...) {
  }
  if (mounted_) {
    sync();
    if (umount2(mount_point_.c_str(), 0) != 0) {
      umount2(mount_point_.c_str(), MNT_DETACH);
    }
  }
  try {
    if (signed_) WipeSignature(device_);
  } catch (...) {
  }
  if (!work_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(work_dir_, ec);
  }
}

void DbSession::Restart(const DbCellOptions& opts, DbCellInfo* got) {
  ThrowIfSignalled();
  const uint64_t start = NowNs();
  if (server_->running() && !server_->Stop()) {
    throw DbError(std::string("PostgreSQL did not shut down cleanly ") +
                  (runs_ == 0 ? "after the load" : "after the last run") +
                  ". Log: " + server_->log_file() +
                  "; Fix: see the log (the disk, or a killed server)");
  }
  sync();
  // The server is down and the load is on the device: a cache layer under
  // it writes the load's dirty data back now, not during the measured run.
  if (runs_ == 0 && opts.after_load) opts.after_load();
  // A "page_cache": "warm" workload reads every file of its database back
  // right after the start: dropping them first would only cost that read at
  // the device's speed (8.5 s a cell for 67 MB on the lab's dilated HDD).
  // The stop's checkpoint and the sync above left no page dirty.
  if (opts.drop_caches && !workload_.page_cache_warm) {
    got->page_cache_dropped = DropCaches(opts.os);
  }
  ThrowIfSignalled();
  server_->Start();
  got->restart_ns = NowNs() - start;
  PgConnection conn(server_->ConnInfo());
  got->shared_buffers_bytes = IntOrUnknown(
      conn.QueryValue("select setting::bigint * pg_size_bytes(unit) from "
                      "pg_settings where name = 'shared_buffers'"));
  got->server_start_unix_s = NumberOrUnknown(
      conn.QueryValue("select extract(epoch from pg_postmaster_start_time())"));
  got->restarted_after_load = got->load_end_unix_s > 0 &&
                              got->server_start_unix_s > got->load_end_unix_s;
  if (!got->restarted_after_load) {
    LogWarning("the restarted server's start time (" +
               std::to_string(got->server_start_unix_s) +
               ") is not after the load's end (" +
               std::to_string(got->load_end_unix_s) + "); did the clock jump?");
  }
  // What pgbench does before every run (unless -n): the small tables
  // vacuumed, the history emptied, so each run starts alike.
  PrepareTpcbRun(conn, nullptr);
  // The database as this run finds it (earlier runs left dead tuples in
  // pgbench_accounts): the evidence the in-memory rule weighs.
  got->db_size_bytes = IntOrUnknown(
      conn.QueryValue("select pg_database_size(current_database())"));
}

TpcbDriverConfig DbDriverConfig(const DbWorkload& w) {
  TpcbDriverConfig cfg;
  cfg.name = w.name;
  Status st = ParseBuiltin(w.builtin, &cfg.builtin);
  if (st.ok()) st = ParseQueryMode(w.query_mode, &cfg.query_mode);
  if (!st.ok()) throw ConfigError(w.path + ": " + st.message());
  cfg.scale = w.scale;
  cfg.clients = w.clients;
  cfg.threads = w.threads;
  cfg.duration_ns = w.duration_ns;
  cfg.ramp_ns = w.warmup_ns;
  cfg.random_seed = w.random_seed_set ? w.random_seed : NowNs();
  cfg.scripts = w.parsed_scripts;
  cfg.rate_tps = w.rate_tps;
  cfg.latency_limit_ns = static_cast<uint64_t>(w.latency_limit_ms * 1e6);
  return cfg;
}

JobResult DbSession::Run(const DbCellOptions& opts, DbCellInfo* info) {
  healthy_ = false;  // until this run ends well
  const DbWorkload& w = workload_;
  DbCellInfo got = load_;
  got.database_reused = runs_ > 0;
  TpcbDriverConfig cfg = DbDriverConfig(w);
  cfg.conninfo = server_->ConnInfo();
  cfg.progress_sec = opts.progress_sec;
  cfg.progress_out = opts.progress_sec > 0 ? &std::cerr : nullptr;
  cfg.on_second = opts.on_second;

  // Neither shared_buffers nor the page cache may keep what the load (or
  // an earlier run) wrote.
  Restart(opts, &got);
  ++runs_;
  got.mem_total_bytes = ReadMemTotalBytes(opts.os);
  if (w.page_cache_warm) {
    const uint64_t warm_start = NowNs();
    // The database's own directory (base/<oid>), not the templates'.
    const std::string oid =
        PgConnection(cfg.conninfo)
            .QueryValue(
                "select oid from pg_database where datname = "
                "current_database()");
    got.page_cache_warmed_bytes =
        ReadIntoPageCache(server_->data_dir() + "/base/" + oid);
    got.page_cache_warm_s = 1e-9 * static_cast<double>(NowNs() - warm_start);
  }
  ThrowIfSignalled();
  if (opts.before_clients) opts.before_clients();
  ThrowIfSignalled();

  // The warm-up ("warmup") is the run's ramp (DbDriverConfig): the same
  // clients, on the same connections, unmeasured, so the measured window
  // starts in the steady state (the pages in memory, the cache under them
  // settled, the page cache's writeback in its rhythm) without a reconnect
  // in between. The caller's "before" (before_run) and the server's CPU are
  // taken when the window starts (the driver's on_measure_start, at the
  // ramp's end).
  const pid_t postmaster = server_->PostmasterPid();
  int64_t cpu_before = -1;
  uint64_t window_start = 0;
  auto start_window = [&] {
    if (window_start != 0) return;
    if (opts.before_run) opts.before_run();
    cpu_before = ServerCpuTicks(opts.os, postmaster);
    window_start = NowNs();
  };
  // The driver calls it once, before any on_second (tpcb_driver.h).
  cfg.on_measure_start = start_window;
  if (w.warmup_ns == 0) start_window();
  const uint64_t run_start = NowNs();
  TpcbRunResult r = RunTpcb(cfg);
  if (opts.after_clients) opts.after_clients();
  if (window_start == 0) start_window();  // ended before its window began
  const int64_t cpu_after = ServerCpuTicks(opts.os, postmaster);
  got.cpu_window_s = static_cast<double>(NowNs() - window_start) * 1e-9;
  if (cpu_before >= 0 && cpu_after >= cpu_before) {
    got.server_cpu_s = static_cast<double>(cpu_after - cpu_before) /
                       static_cast<double>(ClockTicksPerSecond());
  }
  got.warmup_s = w.warmup_ns > 0
                     ? static_cast<double>(NowNs() - run_start) * 1e-9 -
                           static_cast<double>(r.bench_ns) * 1e-9
                     : 0;
  got.client_cpu_s = r.job.usr_cpu_sec + r.job.sys_cpu_sec;
  got.measured_s = static_cast<double>(r.bench_ns) * 1e-9;
  {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: %srestart %.1f s, page cache warm-up %.1f s, warm-up "
                  "%.1f s, run %.1f s",
                  w.name.c_str(),
                  got.database_reused ? "database of an earlier cell, " : "",
                  1e-9 * got.restart_ns, std::max(0.0, got.page_cache_warm_s),
                  got.warmup_s, got.measured_s);
    LogNotice(line);
  }
  got.server_settings = server_->settings();
  got.tps = r.Tps();
  got.failed_transactions = r.failed;
  if (info) *info = got;
  if (r.interrupted) {
    throw InterruptedError("DB cell interrupted. Workload: " + w.name,
                           InterruptSignal());
  }
  if (r.aborted_clients > 0) {
    throw DbError("DB cell failed mid-run. Workload: " + w.name +
                  "; Device: " + device_ + "; " + r.job.error +
                  "; Server log: " + server_->log_file());
  }
  // The run ends with the server down, as a cell that made its own database
  // ended: the caller's drain after the IO then holds everything the run
  // wrote. An explicit checkpoint first, which waits as long as the disk
  // needs: the shutdown's own checkpoint must finish within pg_ctl's 30 s,
  // and 16 MB of dirty buffers on the lab's HDD (38 IOPS) take up to 54 s.
  PgConnection(cfg.conninfo).Exec("checkpoint");
  if (!server_->Stop()) {
    throw DbError("PostgreSQL did not shut down cleanly after the run. Log: " +
                  server_->log_file() +
                  "; Fix: see the log (the disk, or a killed server)");
  }
  sync();
  healthy_ = true;
  return r.job;
}

}  // namespace tierbench
