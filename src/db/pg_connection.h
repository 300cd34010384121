// PgConnection: one blocking libpqxx connection (pqxx::connection) for the
// setup work around a TPC-B run: creating and dropping the pgbench tables,
// the -i data load (COPY through pqxx::stream_to), vacuum, keys, the check
// that the tables exist, and the read-back queries (scale, balances) the
// tests use. Every libpqxx exception becomes a one-line DbError.
//
// The measured transaction loop does not use this class nor libpqxx: it
// drives libpq's asynchronous API directly (db/tpcb_driver.h), as pgbench
// does. libpqxx 6.4 cannot do that: every exec() blocks until its result,
// and pqxx::pipeline only queues plain SQL text (no parameters, no prepared
// statements for -M extended/prepared) and blocks in retrieve(), so one
// thread cannot poll() many connections and time each transaction from its
// first send to its last result.
//
// Errors: every method throws DbError with one line naming what failed, the
// statement, the server's message and, where there is one, the fix. Not
// thread-safe: one connection per thread.
#ifndef TIERBENCH_DB_PG_CONNECTION_H_
#define TIERBENCH_DB_PG_CONNECTION_H_

#include <functional>
#include <memory>
#include <pqxx/connection>
#include <pqxx/errorhandler>
#include <pqxx/transaction>
#include <string>

namespace tierbench {

class PgConnection {
 public:
  // Connects with a libpq connection string ("host=/tmp port=5432 ...", or a
  // postgresql:// URI). Throws DbError "cannot connect to PostgreSQL" with the
  // server's reason and a fix when the server is unreachable or refuses.
  explicit PgConnection(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one statement (or several separated by ';') outside any
  // transaction block (so VACUUM and CHECKPOINT work); rows are ignored.
  void Exec(const std::string& sql);
  // Runs a query that returns one row with one column; returns its text
  // ("" for NULL). Throws DbError when the result has no rows.
  std::string QueryValue(const std::string& sql);
  // Like QueryValue, for the empty-result-is-fine case: returns false when
  // no row came back.
  bool TryQueryValue(const std::string& sql, std::string* value);
  // True when a table of that name is visible on the search path.
  bool TableExists(const std::string& table);
  // Runs `body` inside one transaction and commits it when `body` returns;
  // rolls back when it throws. `what` names the work in the DbError.
  void InTransaction(const std::string& what,
                     const std::function<void(pqxx::work&)>& body);

  // The server's "PostgreSQL 15.x ..." version string.
  std::string ServerVersion();
  // The name of the connected database.
  std::string DbName();

 private:
  // Called inside a catch block: rethrows the exception in flight as
  // DbError "<what> failed. Statement: <sql>; Server: <message>[; Fix: ...]"
  // (the statement libpqxx reports, else `sql`; left out when empty).
  [[noreturn]] void Rethrow(const std::string& what, const std::string& sql);

  std::unique_ptr<pqxx::connection> conn_;
  // Declared after conn_: unregisters itself before the connection closes.
  std::unique_ptr<pqxx::quiet_errorhandler> quiet_;
};

// Error text from libpq or libpqxx on one line, without trailing blanks.
std::string OneLine(const char* libpq_message);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PG_CONNECTION_H_
