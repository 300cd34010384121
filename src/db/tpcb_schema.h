// The pgbench_* tables: initialisation as `pgbench -i` (PostgreSQL 15) does,
// the pre-run reset, and reading back the scale.
//
// Steps (pgbench -I letters, default "dtgvp"):
//   d  drop pgbench_accounts, _branches, _history, _tellers if they exist
//   t  create them (pgbench 15 DDL; bigint aid from scale 20000; fillfactor)
//   g  generate data client-side: COPY ... FROM STDIN (pqxx::stream_to) of
//      branches (s rows), tellers (10 s) and accounts (100000 s) in one
//      transaction with the TRUNCATE; history stays empty. pgbench 15 adds
//      FREEZE, which libpqxx 6.4's stream_to cannot pass: the rows are
//      identical, step v then sets their visibility instead
//   G  generate data server-side (INSERT ... SELECT generate_series)
//   v  VACUUM ANALYZE the four tables
//   p  primary keys on branches(bid), tellers(tid), accounts(aid)
//   f  foreign keys (as pgbench -I f)
//
// All SQL goes through PgConnection (libpqxx). Errors: DbError from the
// connection (server message, full disk named). Not thread-safe (uses one
// connection).
#ifndef TIERBENCH_DB_TPCB_SCHEMA_H_
#define TIERBENCH_DB_TPCB_SCHEMA_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "db/pg_connection.h"
#include "util/status.h"

namespace tierbench {

struct TpcbInitOptions {
  int scale = 1;
  int fillfactor = 100;  // 10..100
  std::string steps = "dtgvp";
  bool unlogged_tables = false;
};

// Checks the option values (scale >= 1, fillfactor 10..100, steps only of
// "dtgGvpf"). Returns InvalidArgument naming the option (-s, -F, -I).
Status ValidateInitOptions(const TpcbInitOptions& o);

// Runs the steps; writes pgbench's progress lines ("dropping old tables...",
// ..., "done in 1.23 s (drop tables 0.00 s, ...).") to *log when non-null.
// Returns the wall time in ns.
uint64_t InitializeTpcb(PgConnection& conn, const TpcbInitOptions& o,
                        std::ostream* log);

// The scale of the existing tables: count(*) of pgbench_branches. Throws
// DbError "pgbench_accounts does not exist ... Fix: run with -i" when a table
// is missing, and when pgbench_branches is empty.
int DetectScale(PgConnection& conn);

// pgbench's pre-run reset unless -n: VACUUM pgbench_branches and
// pgbench_tellers, TRUNCATE pgbench_history ("starting vacuum...end." on
// *log).
void PrepareTpcbRun(PgConnection& conn, std::ostream* log);

}  // namespace tierbench

#endif  // TIERBENCH_DB_TPCB_SCHEMA_H_
