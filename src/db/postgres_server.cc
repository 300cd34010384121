#include "db/postgres_server.h"

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "util/errors.h"
#include "util/log.h"

namespace tierbench {

RunAs LookupUser(const std::string& user) {
  passwd pw;
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (getpwnam_r(user.c_str(), &pw, buf.data(), buf.size(), &found) != 0 ||
      found == nullptr) {
    throw SysError("user '" + user +
                   "' does not exist (PostgreSQL refuses to run as root and "
                   "runs as that user). Fix: install the postgresql package "
                   "or add the user (useradd -r " +
                   user + ")");
  }
  RunAs r;
  r.enabled = true;
  r.uid = pw.pw_uid;
  r.gid = pw.pw_gid;
  r.name = user;
  return r;
}

RunAs PostgresRunAs() {
  if (geteuid() != 0) return RunAs();
  return LookupUser("postgres");
}

std::string ResolvePgBindir(const std::string& bindir) {
  if (!bindir.empty()) return bindir;
  const char* env = std::getenv("TIERBENCH_PG_BINDIR");
  if (env && *env) return env;
  return "/usr/lib/postgresql/15/bin";
}

std::map<std::string, std::string> PostgresServer::DefaultSettings() {
  return {{"shared_buffers", "128MB"},  {"fsync", "on"},
          {"synchronous_commit", "on"}, {"wal_level", "replica"},
          {"max_wal_size", "1GB"},      {"checkpoint_timeout", "5min"},
          {"max_connections", "200"}};
}

PostgresServer::PostgresServer(const PostgresServerOptions& options)
    : options_(options) {
  options_.bindir = ResolvePgBindir(options_.bindir);
  if (options_.log_file.empty()) {
    options_.log_file = options_.socket_dir + "/postgresql.log";
  }
  for (const char* tool : {"initdb", "pg_ctl", "postgres"}) {
    if (access(Tool(tool).c_str(), X_OK) != 0) {
      throw SysError("PostgreSQL's " + std::string(tool) +
                     " not found. Path: " + Tool(tool) +
                     "; Fix: install postgresql (scripts/install-deps) or "
                     "set TIERBENCH_PG_BINDIR");
    }
  }
  run_as_ = PostgresRunAs();
  if (run_as_.enabled) {
    superuser_ = run_as_.name;
  } else {
    passwd* pw = getpwuid(geteuid());
    superuser_ = pw ? pw->pw_name : "postgres";
  }
  MakeOwnedDir(options_.socket_dir);
  MakeOwnedDir(options_.data_dir);

  ProcessOutcome init =
      // --no-sync: initdb's own fsync of every file (about a thousand)
      // costs a throttled HDD minutes; the cell syncs everything itself
      // before it measures (db/db_cell.h), and a throwaway cluster has
      // nothing to lose in a crash.
      RunPgTool({Tool("initdb"), "--no-locale", "-E", "UTF8", "-A", "trust",
                 "--no-sync", "-U", superuser_, "-D", options_.data_dir});
  if (init.exit_code != 0) {
    throw DbError("initdb failed. Data directory: " + options_.data_dir +
                  "; Output: " + TailForMessage(init.output) +
                  "; Fix: the directory must be empty and writable by " +
                  (run_as_.enabled ? run_as_.name : superuser_));
  }

  settings_ = DefaultSettings();
  for (const auto& [k, v] : options_.settings) settings_[k] = v;
  settings_["listen_addresses"] = "''";
  settings_["unix_socket_directories"] = "'" + options_.socket_dir + "'";
  settings_["port"] = std::to_string(options_.port);
  {
    std::ofstream conf(options_.data_dir + "/postgresql.conf", std::ios::app);
    conf << "\n# Written by tierbench (PostgresServer)\n";
    for (const auto& [k, v] : settings_) conf << k << " = " << v << '\n';
    if (!conf) {
      throw DbError("cannot write postgresql.conf. Path: " + options_.data_dir +
                    "/postgresql.conf; Fix: check the disk is not full");
    }
  }

  Start();
}

void PostgresServer::Start() {
  if (running_) return;
  ProcessOutcome start = RunPgTool(
      {Tool("pg_ctl"), "-D", options_.data_dir, "-l", options_.log_file, "-w",
       "-t", std::to_string(options_.start_timeout_sec), "start"});
  running_ = true;  // pg_ctl may fail after the postmaster came up: stop it.
  if (start.exit_code != 0) {
    std::ifstream log(options_.log_file);
    std::string all((std::istreambuf_iterator<char>(log)),
                    std::istreambuf_iterator<char>());
    Stop();
    throw DbError("PostgreSQL did not start. Log: " + options_.log_file +
                  "; Server: " + TailForMessage(all, 240) +
                  "; Fix: see the log (a setting in the workload's "
                  "\"postgres\" block, or the disk)");
  }
}

PostgresServer::~PostgresServer() {
  try {
    Stop();
  } catch (const std::exception& e) {
    LogWarning(std::string("could not stop PostgreSQL: ") + e.what());
  }
}

std::string PostgresServer::Tool(const std::string& name) const {
  return options_.bindir + "/" + name;
}

ProcessOutcome PostgresServer::RunPgTool(
    const std::vector<std::string>& argv) const {
  return RunProcess(argv, run_as_);
}

void PostgresServer::MakeOwnedDir(const std::string& dir) const {
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw SysError("cannot create directory " + dir +
                   ". SysErr: " + std::strerror(errno));
  }
  if (run_as_.enabled && chown(dir.c_str(), run_as_.uid, run_as_.gid) != 0) {
    throw SysError("cannot hand directory " + dir + " to user " + run_as_.name +
                   ". SysErr: " + std::strerror(errno));
  }
}

pid_t PostgresServer::PostmasterPid() const {
  std::ifstream pidfile(options_.data_dir + "/postmaster.pid");
  long pid = 0;
  if (pidfile >> pid && pid > 0) return static_cast<pid_t>(pid);
  return 0;
}

bool PostgresServer::Stop() {
  if (!running_) return true;
  running_ = false;
  for (const char* mode : {"fast", "immediate"}) {
    ProcessOutcome out = RunPgTool({Tool("pg_ctl"), "-D", options_.data_dir,
                                    "-m", mode, "-w", "-t", "30", "stop"});
    if (out.exit_code == 0) return std::string(mode) == "fast";
    if (access((options_.data_dir + "/postmaster.pid").c_str(), F_OK) != 0) {
      return false;  // not running any more (it had died)
    }
  }
  pid_t pid = PostmasterPid();
  if (pid > 0) {
    LogWarning("PostgreSQL did not stop; killing postmaster " +
               std::to_string(pid));
    kill(pid, SIGKILL);
  }
  return false;
}

void PostgresServer::Crash() {
  if (!running_) return;
  RunPgTool({Tool("pg_ctl"), "-D", options_.data_dir, "-m", "immediate", "-w",
             "-t", "30", "stop"});
}

std::string PostgresServer::ConnInfo() const {
  return "host=" + options_.socket_dir +
         " port=" + std::to_string(options_.port) + " user=" + superuser_ +
         " dbname=postgres";
}

}  // namespace tierbench
