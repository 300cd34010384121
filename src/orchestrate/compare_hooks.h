// CompareHooks: the test seams of `tierbench compare`'s protocol. They
// stand in for the IO engines and the database (not for the machine, which
// is the Host, util/host.h) and let tests end or fail a compare mid-run.
#ifndef TIERBENCH_ORCHESTRATE_COMPARE_HOOKS_H_
#define TIERBENCH_ORCHESTRATE_COMPARE_HOOKS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "db/db_cell.h"
#include "workload/job_file.h"
#include "workload/job_result.h"
#include "workload/runner.h"

namespace tierbench {

// The engines' and the protocol's test seams. The machine itself (sysfs,
// device-mapper, lvm, the clock) is the Host handed to CompareRunner
// (util/host.h), not a hook. Defaults are the real ones.
struct CompareHooks {
  // Runs a fio workload of the compare: a cell's measured run, prefill pass
  // or warm-up chunk (every job's filename set to the cell's target), or a
  // --precondition pass. Default: RunPrepared on the cell's workload
  // prepared once per target (orchestrate/cell_runner.h); RunWorkload for
  // --precondition (workload/runner.h).
  std::function<RunResult(const Workload&, const RunOptions&)> run_workload;
  // Default: RunDbCell (db/db_cell.h).
  std::function<JobResult(const DbWorkload&, const std::string& device,
                          const DbCellOptions&, DbCellInfo*)>
      run_db;
  // Called after each finished cell with its index (tests use it to raise
  // an interrupt or fail mid-run). May be empty.
  std::function<void(size_t cell_index)> after_cell;
  // --verify: called after each step of a stack's data check (tests use it
  // to change a block behind the cache). May be empty.
  std::function<void(const std::string& device, const std::string& step)>
      after_verify_step;
  // --verify: the nonce mixed into every block's seed; default: random.
  std::optional<uint64_t> verify_nonce;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_COMPARE_HOOKS_H_
