// PostgresServer: a private, throwaway PostgreSQL cluster (RAII).
//
// The constructor runs initdb on a fresh data directory (--no-locale -E UTF8
// --no-sync -A trust), appends tierbench's settings to postgresql.conf, starts
// the server with pg_ctl on a private Unix socket directory (no TCP:
// listen_addresses = '') and waits until it accepts connections.
//
// Lifecycle: the server may be stopped (Stop) and started again (Start) on
// the same data directory and settings any number of times, e.g. to empty
// shared_buffers between a data load and a measured run. The destructor
// stops it whenever it is running (pg_ctl stop -m fast, then -m immediate,
// then SIGKILL of the postmaster), on every path: after a Start() that
// threw, while unwinding from an error or an interrupt, or after a Crash().
// The data directory is left in place (its owner removes it).
//
// As root, initdb and postgres refuse to run: the tools run as the
// `postgres` user (PostgresRunAs below), and the data and socket directories
// are handed to that user. Their parent directories must be traversable by
// it. As another user, everything runs as that user.
//
// Errors: DbError with the tool's last output lines and the server log path
// (initdb failed, server did not start); SysError when a binary is missing.
// Thread-safety: not thread-safe; one owner.
#ifndef TIERBENCH_DB_POSTGRES_SERVER_H_
#define TIERBENCH_DB_POSTGRES_SERVER_H_

#include <sys/types.h>

#include <map>
#include <string>

#include "util/subprocess.h"

namespace tierbench {

// Looks up `user` in the passwd database. Throws SysError naming the user
// and the fix when it does not exist.
RunAs LookupUser(const std::string& user);

// The identity PostgreSQL tools must run as: the `postgres` user when the
// process is root, otherwise the current user (enabled = false).
RunAs PostgresRunAs();

struct PostgresServerOptions {
  std::string data_dir;    // created; must not exist or be empty
  std::string socket_dir;  // created when missing
  std::string log_file;    // server log; "" -> <socket_dir>/postgresql.log
  std::string
      bindir;       // "" -> $TIERBENCH_PG_BINDIR or /usr/lib/postgresql/15/bin
  int port = 5432;  // names the socket file .s.PGSQL.<port>
  // Overrides of DefaultSettings() (postgresql.conf names).
  std::map<std::string, std::string> settings;
  int start_timeout_sec = 120;
};

class PostgresServer {
 public:
  explicit PostgresServer(const PostgresServerOptions& options);
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // tierbench's defaults, recorded in manifests: shared_buffers 128MB, fsync
  // on, synchronous_commit on, wal_level replica, max_wal_size 1GB,
  // checkpoint_timeout 5min (PostgreSQL 15's defaults, written explicitly so
  // a changed distribution default cannot change a run).
  static std::map<std::string, std::string> DefaultSettings();

  // Starts the stopped server again on its data directory and settings
  // (pg_ctl start -w) and waits until it accepts connections. No-op while
  // it runs. Throws DbError with the log's tail when it does not come up
  // (whatever came up is stopped again).
  void Start();
  // Stops the server: fast shutdown (clean: a shutdown checkpoint, nothing
  // to recover at the next start), then immediate, then SIGKILL. Returns
  // true when it was stopped cleanly by the fast shutdown or was not
  // running; false when the fallbacks had to stop it or it had died (the
  // next Start() runs crash recovery). Idempotent; Start() may follow.
  bool Stop();
  // Stops the server abruptly (pg_ctl stop -m immediate): for tests that
  // need a server dying under a running benchmark.
  void Crash();

  // "host=<socket_dir> port=<port> user=<superuser> dbname=postgres".
  std::string ConnInfo() const;
  // Every setting as written to postgresql.conf (including the socket).
  const std::map<std::string, std::string>& settings() const {
    return settings_;
  }
  const std::string& data_dir() const { return options_.data_dir; }
  const std::string& log_file() const { return options_.log_file; }
  bool running() const { return running_; }
  // The running postmaster's pid (postmaster.pid's first line); 0 when the
  // file is missing or unreadable (the server is not running).
  pid_t PostmasterPid() const;

 private:
  std::string Tool(const std::string& name) const;
  // Runs a PostgreSQL tool as the server's user.
  ProcessOutcome RunPgTool(const std::vector<std::string>& argv) const;
  void MakeOwnedDir(const std::string& dir) const;

  PostgresServerOptions options_;
  RunAs run_as_;
  std::string superuser_;
  std::map<std::string, std::string> settings_;
  bool running_ = false;
};

// The PostgreSQL bin directory: `bindir` when set, else
// $TIERBENCH_PG_BINDIR, else /usr/lib/postgresql/15/bin.
std::string ResolvePgBindir(const std::string& bindir);

}  // namespace tierbench

#endif  // TIERBENCH_DB_POSTGRES_SERVER_H_
