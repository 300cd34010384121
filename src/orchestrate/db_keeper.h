// DbKeeper: the database a compare keeps between its DB cells
// (db/db_session.h), so the cells of one DB workload on one target (each
// mode of a stack, run one after another: orchestrate/run_plan.h) share one
// load, as pgbench users compare modes (`pgbench -i` once, a run per mode).
//
// Contract:
//   - Prepare(workload, w, target, opts) makes and loads the database
//     unless the kept one holds that workload on that target and is
//     healthy (any other kept database is closed first). A stack's cell
//     calls it BEFORE it prepares the cache state and applies its mode, so
//     the load never runs under the cell's mode: every mode, the first
//     included, then starts from the same point (a cold cache under the
//     default protocols, the load drained).
//   - Run(...) prepares (when the caller did not) and runs the measured
//     run; on any throw the database is closed (its state is unknown) and
//     the exception propagates.
//   - KeepOnlyFor(workload, target, is_db) closes the kept database unless
//     the next cell runs that DB workload on that target: a cell that does
//     IO of its own never finds the device mounted.
//   - Close() closes it (server stopped, unmounted, signature wiped); the
//     compare calls it before it restores the stacks; the destructor too.
//     Never throws.
// Not thread-safe; one compare.
#ifndef TIERBENCH_ORCHESTRATE_DB_KEEPER_H_
#define TIERBENCH_ORCHESTRATE_DB_KEEPER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "db/db_cell.h"
#include "db/db_session.h"
#include "workload/job_result.h"

namespace tierbench {

class DbKeeper {
 public:
  DbKeeper() = default;
  ~DbKeeper();
  DbKeeper(const DbKeeper&) = delete;
  DbKeeper& operator=(const DbKeeper&) = delete;

  // `workload` identifies the DB workload (its index in the compare).
  void Prepare(size_t workload, const DbWorkload& w, const std::string& target,
               const DbCellOptions& opts);
  JobResult Run(size_t workload, const DbWorkload& w, const std::string& target,
                const DbCellOptions& opts, DbCellInfo* info);
  void KeepOnlyFor(size_t workload, const std::string& target, bool is_db);
  void Close() noexcept;

 private:
  bool Holds(size_t workload, const std::string& target) const;

  std::unique_ptr<DbSession> session_;
  size_t workload_ = 0;  // the workload the kept session holds
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_DB_KEEPER_H_
