#include "db/pg_connection.h"

#include <memory>

#include "util/errors.h"

namespace tierbench {

namespace {

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

bool IsOk(PGresult* res) {
  ExecStatusType s = PQresultStatus(res);
  return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

}  // namespace

std::string OneLine(const char* libpq_message) {
  std::string s = libpq_message ? libpq_message : "";
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

PgConnection::PgConnection(const std::string& conninfo) {
  conn_ = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string reason = OneLine(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw DbError(
        "cannot connect to PostgreSQL. Connection: '" + conninfo +
        "'; Server: " + reason +
        "; Fix: start the server, or check -h/-p/-U/dbname or --pg-dsn");
  }
  // Keep NOTICE chatter ("table does not exist, skipping") off stderr.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
}

PgConnection::~PgConnection() {
  if (conn_) PQfinish(conn_);
}

void PgConnection::Fail(const std::string& what, const std::string& sql,
                        PGresult* res) {
  std::string server = res ? OneLine(PQresultErrorMessage(res)) : "";
  if (server.empty()) server = OneLine(PQerrorMessage(conn_));
  if (res) PQclear(res);
  std::string fix;
  if (PQstatus(conn_) == CONNECTION_BAD) {
    fix =
        "; Fix: the server closed the connection (did it stop or crash?); "
        "see its log";
  } else if (server.find("No space left") != std::string::npos) {
    fix =
        "; Fix: the database's filesystem is full: use a smaller scale or "
        "a bigger device";
  }
  throw DbError(what + " failed. Statement: " + sql.substr(0, 120) +
                "; Server: " + server + fix);
}

void PgConnection::Exec(const std::string& sql) {
  PGresult* res = PQexec(conn_, sql.c_str());
  if (!IsOk(res)) Fail("SQL", sql, res);
  PQclear(res);
}

bool PgConnection::TryQueryValue(const std::string& sql, std::string* value) {
  PGresult* res = PQexec(conn_, sql.c_str());
  if (!IsOk(res)) Fail("query", sql, res);
  ResultPtr guard(res, &PQclear);
  if (PQntuples(res) < 1 || PQnfields(res) < 1) return false;
  *value = PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0);
  return true;
}

std::string PgConnection::QueryValue(const std::string& sql) {
  std::string value;
  if (!TryQueryValue(sql, &value)) {
    throw DbError("query returned no rows. Statement: " + sql);
  }
  return value;
}

bool PgConnection::TableExists(const std::string& table) {
  return QueryValue("SELECT to_regclass('" + table + "') IS NOT NULL") == "t";
}

std::string PgConnection::ServerVersion() {
  return QueryValue("SELECT version()");
}

void PgConnection::CopyIn(const std::string& copy_sql,
                          const std::function<bool(std::string*)>& produce) {
  PGresult* res = PQexec(conn_, copy_sql.c_str());
  if (PQresultStatus(res) != PGRES_COPY_IN) Fail("COPY", copy_sql, res);
  PQclear(res);
  constexpr size_t kChunk = 1 << 20;
  std::string buf;
  buf.reserve(kChunk + 4096);
  bool more = true;
  while (more) {
    while (more && buf.size() < kChunk) more = produce(&buf);
    if (!buf.empty() &&
        PQputCopyData(conn_, buf.data(), static_cast<int>(buf.size())) != 1) {
      Fail("COPY data", copy_sql, nullptr);
    }
    buf.clear();
  }
  if (PQputCopyEnd(conn_, nullptr) != 1) Fail("COPY end", copy_sql, nullptr);
  res = PQgetResult(conn_);
  if (!IsOk(res)) Fail("COPY", copy_sql, res);
  PQclear(res);
  while ((res = PQgetResult(conn_)) != nullptr) PQclear(res);
}

}  // namespace tierbench
