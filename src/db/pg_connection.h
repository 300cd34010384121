// PgConnection: one blocking libpq connection for setup work (initialising
// the TPC-B tables, vacuum, checks), with errors turned into DbError.
//
// The measured transaction loop does not use this class: it drives libpq's
// asynchronous API directly (db/tpcb_driver.h), as pgbench does.
//
// Errors: every method throws DbError with one line naming what failed, the
// server's message and, where there is one, the fix. Not thread-safe: one
// connection per thread.
#ifndef TIERBENCH_DB_PG_CONNECTION_H_
#define TIERBENCH_DB_PG_CONNECTION_H_

#include <libpq-fe.h>

#include <functional>
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

  // Runs one statement (or several separated by ';') that returns no rows or
  // rows that are ignored.
  void Exec(const std::string& sql);
  // Runs a query that returns one row with one column; returns its text
  // ("" for NULL). Throws DbError when the result has no rows.
  std::string QueryValue(const std::string& sql);
  // Like QueryValue, for the empty-result-is-fine case: returns false when
  // no row came back.
  bool TryQueryValue(const std::string& sql, std::string* value);
  // True when a table of that name is visible on the search path.
  bool TableExists(const std::string& table);

  // Runs "COPY ... FROM STDIN" (`copy_sql`) and feeds it the text that
  // `produce` appends to its buffer; `produce` returns false when it has no
  // more data. Data is sent in chunks of about 1 MiB.
  void CopyIn(const std::string& copy_sql,
              const std::function<bool(std::string*)>& produce);

  PGconn* raw() { return conn_; }
  // The server's "PostgreSQL 15.x ..." version string.
  std::string ServerVersion();

 private:
  // Throws DbError "<what> failed. Statement: <sql>; Server: <message>".
  [[noreturn]] void Fail(const std::string& what, const std::string& sql,
                         PGresult* res);

  PGconn* conn_ = nullptr;
};

// Connection error text from libpq, on one line, without trailing newline.
std::string OneLine(const char* libpq_message);

}  // namespace tierbench

#endif  // TIERBENCH_DB_PG_CONNECTION_H_
