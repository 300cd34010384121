#include "db/tpcb_schema.h"

#include <cstdio>
#include <pqxx/stream_to>
#include <tuple>
#include <vector>

#include "util/clock.h"
#include "util/errors.h"

namespace tierbench {

namespace {

constexpr int kBranches = 1;
constexpr int kTellers = 10;
constexpr int kAccounts = 100000;
constexpr int kBigintScale = 20000;  // pgbench: aid becomes bigint from here
constexpr const char* kTruncateAll =
    "truncate table pgbench_accounts, pgbench_branches, pgbench_history, "
    "pgbench_tellers";

struct TableDdl {
  const char* table;
  const char* cols;
  const char* bigcols;
  bool fillfactor;
};

// pgbench 15's DDLs[] (initCreateTables).
constexpr TableDdl kDdls[] = {
    {"pgbench_history",
     "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
     "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)",
     false},
    {"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)",
     "tid int not null,bid int,tbalance int,filler char(84)", true},
    {"pgbench_accounts",
     "aid    int not null,bid int,abalance int,filler char(84)",
     "aid bigint not null,bid int,abalance int,filler char(84)", true},
    {"pgbench_branches", "bid int not null,bbalance int,filler char(88)",
     "bid int not null,bbalance int,filler char(88)", true},
};

std::string Secs(uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f s", static_cast<double>(ns) / 1e9);
  return buf;
}

// Loads ids 1..n into `table` with COPY (pqxx::stream_to). Row i is
// (i, 0) for pgbench_branches (per_branch 0), else (i, branch, 0) with
// branch = (i - 1) / per_branch + 1, plus an empty filler when `filler`.
// Columns left out stay NULL, as pgbench leaves the branch and teller
// fillers.
void LoadRows(pqxx::work& tx, const std::string& table,
              const std::vector<std::string>& columns, int64_t n,
              int64_t per_branch, bool filler) {
  pqxx::stream_to copy(tx, table, columns);
  const std::string empty;
  for (int64_t id = 1; id <= n; ++id) {
    if (per_branch == 0) {
      copy << std::make_tuple(id, 0);
    } else if (!filler) {
      copy << std::make_tuple(id, (id - 1) / per_branch + 1, 0);
    } else {
      copy << std::make_tuple(id, (id - 1) / per_branch + 1, 0, empty);
    }
  }
  copy.complete();
}

}  // namespace

Status ValidateInitOptions(const TpcbInitOptions& o) {
  if (o.scale < 1) {
    return Status::InvalidArgument("-s/--scale must be >= 1, got " +
                                   std::to_string(o.scale));
  }
  if (o.fillfactor < 10 || o.fillfactor > 100) {
    return Status::InvalidArgument("-F/--fillfactor must be 10..100, got " +
                                   std::to_string(o.fillfactor));
  }
  if (o.steps.empty() ||
      o.steps.find_first_not_of("dtgGvpf ") != std::string::npos) {
    return Status::InvalidArgument(
        "-I/--init-steps '" + o.steps +
        "' has an unknown step (allowed: d t g G v p f)");
  }
  return Status::Ok();
}

uint64_t InitializeTpcb(PgConnection& conn, const TpcbInitOptions& o,
                        std::ostream* log) {
  Status st = ValidateInitOptions(o);
  if (!st.ok()) throw ConfigError(st.message());
  auto say = [log](const std::string& s) {
    if (log) *log << s << '\n' << std::flush;
  };
  const int64_t s = o.scale;
  const uint64_t start = NowNs();
  std::string summary;
  for (char step : o.steps) {
    const uint64_t t0 = NowNs();
    std::string label;
    switch (step) {
      case 'd':
        say("dropping old tables...");
        conn.Exec(
            "drop table if exists pgbench_accounts, pgbench_branches, "
            "pgbench_history, pgbench_tellers");
        label = "drop tables";
        break;
      case 't':
        say("creating tables...");
        for (const auto& ddl : kDdls) {
          std::string sql = std::string("create") +
                            (o.unlogged_tables ? " unlogged" : "") + " table " +
                            ddl.table + "(" +
                            (s >= kBigintScale ? ddl.bigcols : ddl.cols) + ")";
          if (ddl.fillfactor) {
            sql += " with (fillfactor=" + std::to_string(o.fillfactor) + ")";
          }
          conn.Exec(sql);
        }
        label = "create tables";
        break;
      case 'g':
        say("generating data (client-side)...");
        conn.InTransaction("client-side generate", [s](pqxx::work& tx) {
          tx.exec(kTruncateAll);
          LoadRows(tx, "pgbench_branches", {"bid", "bbalance"}, kBranches * s,
                   0, false);
          LoadRows(tx, "pgbench_tellers", {"tid", "bid", "tbalance"},
                   kTellers * s, kTellers, false);
          LoadRows(tx, "pgbench_accounts", {"aid", "bid", "abalance", "filler"},
                   kAccounts * s, kAccounts, true);
        });
        label = "client-side generate";
        break;
      case 'G':
        say("generating data (server-side)...");
        conn.InTransaction("server-side generate", [s](pqxx::work& tx) {
          tx.exec(kTruncateAll);
          tx.exec(
              "insert into pgbench_branches(bid,bbalance) select bid, 0 "
              "from generate_series(1, " +
              std::to_string(kBranches * s) + ") as bid");
          tx.exec(
              "insert into pgbench_tellers(tid,bid,tbalance) select tid, "
              "(tid - 1) / " +
              std::to_string(kTellers) + " + 1, 0 from generate_series(1, " +
              std::to_string(kTellers * s) + ") as tid");
          tx.exec(
              "insert into pgbench_accounts(aid,bid,abalance,filler) "
              "select aid, (aid - 1) / " +
              std::to_string(kAccounts) +
              " + 1, 0, '' from generate_series(1, " +
              std::to_string(kAccounts * s) + ") as aid");
        });
        label = "server-side generate";
        break;
      case 'v':
        say("vacuuming...");
        conn.Exec("vacuum analyze pgbench_branches");
        conn.Exec("vacuum analyze pgbench_tellers");
        conn.Exec("vacuum analyze pgbench_accounts");
        conn.Exec("vacuum analyze pgbench_history");
        label = "vacuum";
        break;
      case 'p':
        say("creating primary keys...");
        conn.Exec("alter table pgbench_branches add primary key (bid)");
        conn.Exec("alter table pgbench_tellers add primary key (tid)");
        conn.Exec("alter table pgbench_accounts add primary key (aid)");
        label = "primary keys";
        break;
      case 'f':
        say("creating foreign keys...");
        conn.Exec(
            "alter table pgbench_tellers add constraint "
            "pgbench_tellers_bid_fkey foreign key (bid) references "
            "pgbench_branches");
        conn.Exec(
            "alter table pgbench_accounts add constraint "
            "pgbench_accounts_bid_fkey foreign key (bid) references "
            "pgbench_branches");
        conn.Exec(
            "alter table pgbench_history add constraint "
            "pgbench_history_bid_fkey foreign key (bid) references "
            "pgbench_branches");
        conn.Exec(
            "alter table pgbench_history add constraint "
            "pgbench_history_tid_fkey foreign key (tid) references "
            "pgbench_tellers");
        conn.Exec(
            "alter table pgbench_history add constraint "
            "pgbench_history_aid_fkey foreign key (aid) references "
            "pgbench_accounts");
        label = "foreign keys";
        break;
      default:
        continue;  // ' ' is allowed by pgbench and ignored
    }
    summary += (summary.empty() ? "" : ", ") + label + " " + Secs(NowNs() - t0);
  }
  const uint64_t total = NowNs() - start;
  say("done in " + Secs(total) + " (" + summary + ").");
  return total;
}

int DetectScale(PgConnection& conn) {
  for (const char* t : {"pgbench_accounts", "pgbench_branches",
                        "pgbench_tellers", "pgbench_history"}) {
    if (!conn.TableExists(t)) {
      throw DbError(std::string(t) + " does not exist. Database: " +
                    conn.DbName() + "; Fix: run with -i");
    }
  }
  int scale =
      std::stoi(conn.QueryValue("select count(*) from pgbench_branches"));
  if (scale < 1) {
    throw DbError(std::string("pgbench_branches is empty. Database: ") +
                  conn.DbName() + "; Fix: run with -i");
  }
  return scale;
}

void PrepareTpcbRun(PgConnection& conn, std::ostream* log) {
  if (log) *log << "starting vacuum..." << std::flush;
  conn.Exec("vacuum pgbench_branches");
  conn.Exec("vacuum pgbench_tellers");
  conn.Exec("truncate pgbench_history");
  if (log) *log << "end.\n" << std::flush;
}

}  // namespace tierbench
