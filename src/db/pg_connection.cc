#include "db/pg_connection.h"

#include <pqxx/except>
#include <pqxx/nontransaction>

#include "util/errors.h"

namespace tierbench {

std::string OneLine(const char* libpq_message) {
  std::string s = libpq_message ? libpq_message : "";
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

PgConnection::PgConnection(const std::string& conninfo) {
  try {
    conn_ = std::make_unique<pqxx::connection>(conninfo);
  } catch (const std::exception& e) {
    throw DbError(
        "cannot connect to PostgreSQL. Connection: '" + conninfo +
        "'; Server: " + OneLine(e.what()) +
        "; Fix: start the server, or check -h/-p/-U/dbname or --pg-dsn");
  }
  // Keep NOTICE chatter ("table does not exist, skipping") off stderr.
  quiet_ = std::make_unique<pqxx::quiet_errorhandler>(*conn_);
}

PgConnection::~PgConnection() = default;

void PgConnection::Rethrow(const std::string& what, const std::string& sql) {
  std::string server;
  std::string statement = sql;
  try {
    throw;
  } catch (const HarnessError&) {
    throw;
  } catch (const pqxx::sql_error& e) {
    server = OneLine(e.what());
    if (!e.query().empty()) statement = e.query();
  } catch (const std::exception& e) {
    server = OneLine(e.what());
  }
  std::string fix;
  if (!conn_->is_open()) {
    fix =
        "; Fix: the server closed the connection (did it stop or crash?); "
        "see its log";
  } else if (server.find("No space left") != std::string::npos) {
    fix =
        "; Fix: the database's filesystem is full: use a smaller scale or "
        "a bigger device";
  }
  statement = OneLine(statement.c_str()).substr(0, 120);
  throw DbError(what + " failed. " +
                (statement.empty() ? "" : "Statement: " + statement + "; ") +
                "Server: " + server + fix);
}

void PgConnection::Exec(const std::string& sql) {
  try {
    pqxx::nontransaction tx(*conn_);
    tx.exec(sql);
  } catch (...) {
    Rethrow("SQL", sql);
  }
}

bool PgConnection::TryQueryValue(const std::string& sql, std::string* value) {
  pqxx::result res;
  try {
    pqxx::nontransaction tx(*conn_);
    res = tx.exec(sql);
  } catch (...) {
    Rethrow("query", sql);
  }
  if (res.empty() || res.columns() < 1) return false;
  *value = res[0][0].is_null() ? "" : res[0][0].c_str();
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
  return QueryValue("SELECT to_regclass(" + conn_->quote(table) +
                    ") IS NOT NULL") == "t";
}

void PgConnection::InTransaction(const std::string& what,
                                 const std::function<void(pqxx::work&)>& body) {
  try {
    pqxx::work tx(*conn_);
    body(tx);
    tx.commit();
  } catch (...) {
    Rethrow(what, "");
  }
}

std::string PgConnection::ServerVersion() {
  return QueryValue("SELECT version()");
}

std::string PgConnection::DbName() { return conn_->dbname(); }

}  // namespace tierbench
