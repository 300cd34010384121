#include "db/db_cell.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "db/pg_connection.h"
#include "db/postgres_server.h"
#include "db/process_runner.h"
#include "db/tpcb_driver.h"
#include "db/tpcb_schema.h"
#include "io/device_guard.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/scope_guard.h"
#include "util/sysfs.h"
#include "util/units.h"

namespace tierbench {

namespace {

using nlohmann::json;

[[noreturn]] void BadKey(const std::string& path, const std::string& key,
                         const std::string& want) {
  throw ConfigError("invalid DB workload file. File: " + path +
                    "; Key: " + key + "; Fix: " + want);
}

int PositiveInt(const json& j, const std::string& path, const char* key) {
  if (!j.is_number_integer() || j.get<int64_t>() < 1 ||
      j.get<int64_t>() > 1000000) {
    BadKey(path, key, "an integer >= 1");
  }
  return j.get<int>();
}

std::string SettingValue(const json& v, const std::string& path,
                         const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  BadKey(path, "postgres." + key, "a string, integer or boolean value");
}

std::string FindTool(const std::vector<std::string>& candidates,
                     const std::string& package) {
  std::string tool = FindExecutable(candidates);
  if (tool.empty()) {
    throw SysError(candidates.front() + " not found. Fix: install " + package +
                   " (scripts/install-deps)");
  }
  return tool;
}

// Removes the filesystem signature RunDbCell made; wipefs when available,
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

void DropCaches(const Sysfs& os) {
  const Status s = DropPageCache(os);
  if (!s.ok()) {
    LogWarning("could not drop the page cache (" +
               os.Path("proc/sys/vm/drop_caches") + "): " + s.message());
  }
}

}  // namespace

IoDir DbTxDirection(const DbWorkload& w) {
  return DbWorkloadScripts(w)->AnyWrites() ? IoDir::kWrite : IoDir::kRead;
}

IoDir DbTxDirection(const std::string& builtin) {
  Builtin b;
  if (ParseBuiltin(builtin, &b).ok() && !BuiltinWrites(b)) return IoDir::kRead;
  return IoDir::kWrite;
}

bool IsDbWorkloadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return false;
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.contains("kind") && j["kind"] == "pgbench";
}

DbWorkload LoadDbWorkload(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError("cannot read DB workload file. File: " + path +
                      "; SysErr: " + std::strerror(errno));
  }
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw ConfigError("DB workload file is not a JSON object. File: " + path +
                      "; Fix: see workloads/pgbench-tpcb.json");
  }
  DbWorkload w;
  w.path = path;
  w.name = std::filesystem::path(path).stem().string();
  if (!j.contains("kind") || j["kind"] != "pgbench") {
    BadKey(path, "kind", "\"kind\": \"pgbench\"");
  }
  bool have_duration = false;
  for (const auto& [key, v] : j.items()) {
    if (key == "kind" || key == "description") {
      continue;
    } else if (key == "schema_version") {
      if (v != 1) BadKey(path, key, "1 (the only version)");
    } else if (key == "name") {
      if (!v.is_string() || v.get<std::string>().empty()) {
        BadKey(path, key, "a non-empty string");
      }
      w.name = v.get<std::string>();
    } else if (key == "scale") {
      w.scale = PositiveInt(v, path, "scale");
    } else if (key == "clients") {
      w.clients = PositiveInt(v, path, "clients");
    } else if (key == "threads") {
      w.threads = PositiveInt(v, path, "threads");
    } else if (key == "duration") {
      std::string text = v.is_number()   ? std::to_string(v.get<int64_t>())
                         : v.is_string() ? v.get<std::string>()
                                         : "";
      if (!ParseDuration(text, kNsPerSec, &w.duration_ns).ok() ||
          w.duration_ns < kNsPerSec) {
        BadKey(path, key, "a duration of at least 1 s (\"10s\", 60)");
      }
      have_duration = true;
    } else if (key == "query_mode") {
      QueryMode m;
      if (!v.is_string() || !ParseQueryMode(v.get<std::string>(), &m).ok()) {
        BadKey(path, key, "simple, extended or prepared");
      }
      w.query_mode = v.get<std::string>();
    } else if (key == "builtin") {
      Builtin b;
      std::string name;
      if (v.is_string()) {
        try {
          SplitScriptWeight(v.get<std::string>(), "builtin", &name,
                            &w.builtin_weight);
        } catch (const ConfigError&) {
          name.clear();
        }
      }
      if (name.empty() || !ParseBuiltin(name, &b).ok()) {
        BadKey(path, key,
               "tpcb-like, simple-update or select-only, optionally @WEIGHT");
      }
      w.builtin = BuiltinName(b);
      w.builtin_set = true;
    } else if (key == "scripts") {
      if (!v.is_array() || v.empty()) {
        BadKey(path, key, "a list of \"FILE[@WEIGHT]\" strings");
      }
      const auto dir = std::filesystem::path(path).parent_path();
      for (const auto& e : v) {
        if (!e.is_string() || e.get<std::string>().empty()) {
          BadKey(path, key, "a list of \"FILE[@WEIGHT]\" strings");
        }
        std::string s = e.get<std::string>();
        std::filesystem::path p(s);
        w.scripts.push_back(p.is_absolute() ? s : (dir / p).string());
      }
    } else if (key == "defines") {
      if (!v.is_object()) BadKey(path, key, "an object of variables");
      for (const auto& [name, value] : v.items()) {
        w.defines[name] = SettingValue(value, path, "defines." + name);
      }
    } else if (key == "rate") {
      if (!v.is_number() || v.get<double>() <= 0) {
        BadKey(path, key, "a rate in transactions per second > 0 (-R)");
      }
      w.rate_tps = v.get<double>();
    } else if (key == "latency_limit") {
      if (!v.is_number() || v.get<double>() <= 0) {
        BadKey(path, key, "a latency limit in ms > 0 (-L)");
      }
      w.latency_limit_ms = v.get<double>();
    } else if (key == "random_seed") {
      if (!v.is_number_unsigned()) BadKey(path, key, "a non-negative integer");
      w.random_seed_set = true;
      w.random_seed = v.get<uint64_t>();
    } else if (key == "postgres") {
      if (!v.is_object()) BadKey(path, key, "an object of settings");
      for (const auto& [name, value] : v.items()) {
        w.postgres_settings[name] = SettingValue(value, path, name);
      }
    } else {
      BadKey(path, key,
             "remove it (known keys: schema_version, kind, name, description, "
             "scale, clients, threads, duration, query_mode, builtin, "
             "scripts, defines, rate, latency_limit, random_seed, postgres)");
    }
  }
  if (!have_duration) BadKey(path, "duration", "set a duration (\"10s\")");
  if (w.threads > w.clients) BadKey(path, "threads", "1 <= threads <= clients");
  try {
    DbWorkloadScripts(w);
  } catch (const ConfigError& e) {
    throw ConfigError("invalid DB workload file. File: " + path +
                      "; Key: scripts; " + e.what());
  }
  return w;
}

std::shared_ptr<const ScriptSet> DbWorkloadScripts(const DbWorkload& w) {
  auto set = std::make_shared<ScriptSet>();
  for (const auto& [name, value] : w.defines) set->Define(name + "=" + value);
  if (w.builtin_set || w.scripts.empty()) {
    Builtin b = Builtin::kTpcbLike;
    ParseBuiltin(w.builtin, &b);
    set->AddBuiltin(b, w.builtin_weight);
  }
  for (const auto& arg : w.scripts) {
    std::string file;
    int weight = 1;
    SplitScriptWeight(arg, "scripts", &file, &weight);
    set->AddFile(file, weight);
  }
  set->Finish();
  return set;
}

JobResult RunDbCell(const DbWorkload& w, const std::string& block_device,
                    const DbCellOptions& opts, DbCellInfo* info) {
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
  // carrying a signature (the DB cell wipes its own ext4 when it ends).
  Status writable = CheckDeviceWritable(block_device, Sysfs());
  if (!writable.ok()) {
    throw SafetyError("refusing to make a filesystem for a DB cell on " +
                      block_device + ". Reason: " + writable.message());
  }
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
  const std::string work = tmpl;
  chmod(work.c_str(), 0711);  // the server's user must traverse it
  ScopeGuard remove_work([work]() { std::filesystem::remove_all(work); });
  const std::string mnt = work + "/mnt";
  mkdir(mnt.c_str(), 0711);

  ScopeGuard wipe([block_device]() { WipeSignature(block_device); });
  std::vector<std::string> mkfs_argv = {mkfs};
  if (mkfs.find("mke2fs") != std::string::npos) {
    mkfs_argv.insert(mkfs_argv.end(), {"-t", "ext4"});
  }
  // No lazy inode-table init: it would write in the background during the
  // measured run.
  mkfs_argv.insert(mkfs_argv.end(),
                   {"-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0",
                    block_device});
  ProcessOutcome made = RunProcess(mkfs_argv);
  if (made.exit_code != 0) {
    throw SysError("mkfs.ext4 failed. Device: " + block_device +
                   "; Output: " + TailForMessage(made.output));
  }
  if (mount(block_device.c_str(), mnt.c_str(), "ext4", MS_NOATIME, "") != 0) {
    throw SysError("cannot mount the new ext4. Device: " + block_device +
                   "; Mount point: " + mnt +
                   "; SysErr: " + std::strerror(errno) +
                   "; Fix: is ext4 available (lab: "
                   "load ext4.ko)?");
  }
  ScopeGuard unmount([mnt]() {
    sync();
    if (umount2(mnt.c_str(), 0) != 0) umount2(mnt.c_str(), MNT_DETACH);
  });
  chmod(mnt.c_str(), 0711);

  // The data directory must really be on the device (not on the parent
  // filesystem because a mount silently failed): compare st_dev with rdev.
  struct stat mnt_st {};
  if (stat(mnt.c_str(), &mnt_st) != 0 || mnt_st.st_dev != dev_st.st_rdev) {
    throw SysError(
        "the database directory is not on the device under test. "
        "Device: " +
        block_device + "; Directory: " + mnt +
        "; Fix: check that the mount worked (dmesg)");
  }
  if (Interrupted()) throw InterruptedError("interrupted", InterruptSignal());

  PostgresServerOptions so;
  so.data_dir = mnt + "/pgdata";
  so.socket_dir = work + "/sock";
  so.log_file = work + "/sock/postgresql.log";
  so.bindir = opts.pg_bindir;
  so.settings = w.postgres_settings;
  auto server = std::make_unique<PostgresServer>(so);
  ScopeGuard stop_server([&server]() { server.reset(); });

  TpcbDriverConfig cfg;
  cfg.conninfo = server->ConnInfo();
  cfg.name = w.name;
  Status st = ParseBuiltin(w.builtin, &cfg.builtin);
  if (st.ok()) st = ParseQueryMode(w.query_mode, &cfg.query_mode);
  if (!st.ok()) throw ConfigError(w.path + ": " + st.message());
  cfg.scale = w.scale;
  cfg.clients = w.clients;
  cfg.threads = w.threads;
  cfg.duration_ns = w.duration_ns;
  cfg.random_seed = w.random_seed_set ? w.random_seed : NowNs();
  cfg.scripts = DbWorkloadScripts(w);
  cfg.rate_tps = w.rate_tps;
  cfg.latency_limit_ns = static_cast<uint64_t>(w.latency_limit_ms * 1e6);
  cfg.progress_sec = opts.progress_sec;
  cfg.progress_out = opts.progress_sec > 0 ? &std::cerr : nullptr;
  cfg.on_second = opts.on_second;

  uint64_t init_ns = 0;
  std::string version;
  {
    PgConnection conn(cfg.conninfo);
    version = conn.ServerVersion();
    TpcbInitOptions init;
    init.scale = w.scale;
    init_ns = InitializeTpcb(conn, init, nullptr);
    conn.Exec("checkpoint");
  }
  if (opts.drop_caches) DropCaches(opts.os);
  if (Interrupted()) throw InterruptedError("interrupted", InterruptSignal());

  TpcbRunResult r = RunTpcb(cfg);
  if (info) {
    info->server_settings = server->settings();
    info->server_version = version;
    info->init_ns = init_ns;
    info->tps = r.Tps();
    info->failed_transactions = r.failed;
  }
  if (r.interrupted) {
    throw InterruptedError("DB cell interrupted. Workload: " + w.name,
                           InterruptSignal());
  }
  if (r.aborted_clients > 0) {
    throw DbError("DB cell failed mid-run. Workload: " + w.name +
                  "; Device: " + block_device + "; " + r.job.error +
                  "; Server log: " + so.log_file);
  }
  return r.job;
}

}  // namespace tierbench
