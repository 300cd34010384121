#include "validity/db_rules.h"

#include <cstdio>
#include <string>

#include "util/units.h"

namespace tierbench {
namespace {

std::string DbBytes(int64_t b) { return FormatBytes(static_cast<uint64_t>(b)); }

}  // namespace

std::vector<Finding> DbFindings(const DbEvidence& db) {
  std::vector<Finding> out;
  if (!db.is_db) return out;
  if (db.restarted_after_load == 0) {
    out.push_back({"db-restart", Severity::kInvalid,
                   "the server was not restarted after the load: the run "
                   "started with the database in shared_buffers and the "
                   "page cache"});
  } else if (db.restarted_after_load < 0) {
    out.push_back({"db-restart", Severity::kUnknown,
                   "whether the server was restarted after the load is not "
                   "recorded"});
  }
  if (db.scale > 0 && db.clients > db.scale) {
    out.push_back({"db-scale", Severity::kInvalid,
                   std::to_string(db.clients) + " clients on scale " +
                       std::to_string(db.scale) +
                       ": TPC-B updates one branches row per scale unit, so "
                       "the clients waited on each other's row locks, not "
                       "on the disk (fix: scale >= clients)"});
  }
  if (db.db_size_bytes < 0 || db.shared_buffers_bytes < 0) {
    out.push_back({"db-buffers", Severity::kUnknown,
                   "the database size or shared_buffers is not recorded: "
                   "whether the database fit in the server's buffers is "
                   "unknown"});
  } else if (db.db_size_bytes <= db.shared_buffers_bytes) {
    out.push_back({"db-buffers", Severity::kInvalid,
                   "the database (" + DbBytes(db.db_size_bytes) +
                       ") fits in shared_buffers (" +
                       DbBytes(db.shared_buffers_bytes) +
                       "): once read, every page is a buffer hit and only WAL "
                       "and checkpoints reach the disk (fix: a larger scale "
                       "or smaller shared_buffers in the workload)"});
  } else if (db.device_read_bytes >= 0 &&
             100.0 * static_cast<double>(db.device_read_bytes) <
                 kDbMinReadPct * static_cast<double>(db.db_size_bytes)) {
    out.push_back({"db-in-memory", Severity::kCaution,
                   "the device read " + DbBytes(db.device_read_bytes) +
                       " of a " + DbBytes(db.db_size_bytes) +
                       " database: it lived in the page cache, so the figure "
                       "is the write path (WAL commits, checkpoints), not "
                       "reads"});
  }
  return out;
}

}  // namespace tierbench
