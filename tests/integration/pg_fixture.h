// PgFixture: a fresh PostgreSQL 15 cluster per test, started in a temporary
// directory (db/postgres_server.h; as the postgres user when root), plus
// helpers to run the tierbench CLI against it. Shared by the db_* tests.
#ifndef TIERBENCH_TESTS_INTEGRATION_PG_FIXTURE_H_
#define TIERBENCH_TESTS_INTEGRATION_PG_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "db/pg_connection.h"
#include "db/postgres_server.h"
#include "db/tpcb_driver.h"
#include "test_env.h"

namespace tierbench {

// Skips when PostgreSQL's server binaries are missing, except with CI=true
// (a skip in CI is a failure: scripts/install-deps installs them).
#define TIERBENCH_REQUIRE_POSTGRES()                                         \
  do {                                                                       \
    if (access((ResolvePgBindir("") + "/initdb").c_str(), X_OK) != 0) {      \
      const char* ci = getenv("CI");                                         \
      if (ci != nullptr && std::string(ci) == "true")                        \
        FAIL() << "PostgreSQL 15 server binaries not found in "              \
               << ResolvePgBindir("")                                        \
               << " (CI=true: install them with scripts/install-deps)";      \
      GTEST_SKIP() << "SKIPPED: PostgreSQL 15 server binaries not found in " \
                   << ResolvePgBindir("")                                    \
                   << " (install postgresql or set TIERBENCH_PG_BINDIR)";    \
    }                                                                        \
  } while (0)

// A fresh cluster in a temp dir; `base` may be a mount point (disk full test).
class PgFixture : public ::testing::Test {
 protected:
  void StartServer(const std::string& base = "") {
    const std::string root = base.empty() ? tmp_.path() : base;
    chmod(tmp_.path().c_str(), 0711);
    chmod(root.c_str(), 0711);
    PostgresServerOptions o;
    o.data_dir = root + "/data";
    o.socket_dir = tmp_.path() + "/sock";
    server_ = std::make_unique<PostgresServer>(o);
  }
  TpcbDriverConfig Config(int clients, int threads) {
    TpcbDriverConfig c;
    c.conninfo = server_->ConnInfo();
    c.scale = 1;
    c.clients = clients;
    c.threads = threads;
    c.random_seed = 7;
    return c;
  }
  // Runs the tierbench binary; returns its exit status, output in *out.
  int Cli(const std::string& args, std::string* out) {
    return ::tierbench::testing::RunShell(
        std::string(TIERBENCH_BINARY) + " pgbench " + args + " 2>&1", out);
  }
  std::string SocketArgs() {
    return "-h " + tmp_.path() + "/sock -U " + User() + " postgres";
  }
  std::string User() {
    PgConnection c(server_->ConnInfo());
    return c.QueryValue("select current_user");
  }

  ::tierbench::testing::TempDir tmp_;
  std::unique_ptr<PostgresServer> server_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_INTEGRATION_PG_FIXTURE_H_
