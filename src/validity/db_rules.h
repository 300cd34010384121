// The validity rules of a DB cell (a pgbench-style TPC-B run on a
// PostgreSQL the cell starts on the device, db/db_cell.h). Rule ids:
//   db-restart    (invalid) the server was not restarted (and the page
//                 cache dropped) between the load and the run: the run
//                 started with the whole database in memory; (unknown)
//                 when the cell did not say;
//   db-scale      (invalid) scale < clients: TPC-B updates one branches
//                 row per scale unit, so more clients than branches wait on
//                 each other's row locks, not on the disk;
//   db-buffers    (invalid) the database is no larger than shared_buffers:
//                 once read, every page is a buffer hit and only WAL and
//                 checkpoints reach the disk; (unknown) when a size is
//                 missing;
//   db-in-memory  (caution) the device read less than kDbMinReadPct of the
//                 database: after the first touches the database lived in
//                 the page cache, so the figure is the write path (WAL
//                 commits, checkpoints), not reads.
// Thread-safety: pure functions.
#ifndef TIERBENCH_VALIDITY_DB_RULES_H_
#define TIERBENCH_VALIDITY_DB_RULES_H_

#include <vector>

#include "util/finding.h"
#include "validity/cell_evidence.h"

namespace tierbench {

inline constexpr double kDbMinReadPct = 10.0;

// Empty for a cell that is not a DB cell (db.is_db false).
std::vector<Finding> DbFindings(const DbEvidence& db);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_DB_RULES_H_
