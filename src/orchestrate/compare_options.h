// The inputs of `tierbench compare` (its command-line options, one field
// each) and the seams tests use to run the whole protocol without a real
// cache layer, root or PostgreSQL.
#ifndef TIERBENCH_ORCHESTRATE_COMPARE_OPTIONS_H_
#define TIERBENCH_ORCHESTRATE_COMPARE_OPTIONS_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/registry/layer_registry.h"
#include "db/db_cell.h"
#include "orchestrate/run_plan.h"
#include "util/sysfs.h"
#include "workload/job_file.h"
#include "workload/job_result.h"
#include "workload/runner.h"

namespace tierbench {

struct CompareOptions {
  // --stack DEV (repeatable; --bcache is a synonym): the cache stacks whose
  // modes are compared, one per layer (bcache, dm-cache, dm-writecache).
  std::vector<std::string> stacks;
  std::string hdd;  // --hdd: raw HDD baseline device or file
  std::string ssd;  // --ssd: raw SSD baseline device or file
  std::vector<std::string> mode_paths;  // --modes
  // mode_paths is the default list (no --modes): the cache modes of layers
  // without a --stack are left out instead of refused.
  bool modes_are_default = false;
  std::vector<std::string> workload_paths;  // --workloads (.fio / .json)
  int repeat = 1;                           // --repeat
  CacheState cache_state = CacheState::kWarmUntilSteady;  // --cache-state
  // --working-set: "" or e.g. "25%,100%,400%" (orchestrate/working_set.h).
  std::string working_sets;
  // --cache-state warm-until-steady: the workload runs in chunks of
  // --warm-chunk seconds until steady, for at most --warm-max seconds
  // (orchestrate/steady_state.h).
  double warm_chunk_s = 5;
  double warm_max_s = 300;
  std::string results_dir = "results";  // --results
  std::string run_id;                   // --run-id ("": generated)
  // --runtime, --ramp-time, --size, --randseed (filename is set per cell).
  JobOverrides overrides;
  bool destructive = false;      // --destructive
  double stats_lag_s = 15;       // --stats-lag
  double drain_timeout_s = 600;  // --drain-timeout
  // --drain-after policy|flush: after each cell's IO the layer drains at
  // its own writeback policy's pace (policy: drain_after_s is the time to
  // clean a user waits) or flushed (CacheLayer::Flush: a quicker compare;
  // drain_after_s is then the time the origin took to absorb the dirty
  // data). The drains that prepare a cell (before it, after a database
  // load) always flush.
  bool drain_after_flush = false;
  // --precondition[=PASSES]: before the first cell, the raw SSD (--ssd) is
  // written sequentially PASSES times over the compare's region
  // (orchestrate/precondition.h); 0: not preconditioned.
  int precondition_passes = 0;
  // --sysfs-root: the directory that plays "/" for sys/, proc/ and the
  // device checks. "/" is the real system; anything else is a test tree: no
  // root check, device paths are used as given and named by their basename.
  // The sysfs the compare reads is its Host's: CompareRunner(options) makes
  // it here (RealHost(sysfs_root)); a Host handed in must agree with it.
  std::string sysfs_root = "/";
  bool quiet = false;  // --quiet
  // --label KEY=VALUE (repeatable): free-form facts about the run that the
  // manifest records under "labels" and `tierbench report` sets side by side
  // when it merges runs (the SSD model, a kernel patch, the lab's disk
  // limits). Keys: letters, digits, '.', '_' and '-'.
  std::map<std::string, std::string> labels;
  // --workload-modes WORKLOAD=MODE,MODE...: that workload runs only in
  // those modes (the others still run every workload); checked against the
  // loaded names by PrepareCompare.
  std::map<std::string, std::vector<std::string>> workload_modes;
  // --verify[=SIZE]: before the cells, write SIZE bytes of checkable data
  // to every stack and read it back across its modes
  // (orchestrate/verify_runner.h); 0: no check.
  uint64_t verify_bytes = 0;
  // --cpu-latency US: while the compare runs, no CPU enters an idle state
  // that takes longer than US microseconds to leave (util/cpu_latency.h);
  // nullopt: the machine's idle states as they are.
  std::optional<int64_t> cpu_latency_us;
  std::string command_line;  // for the manifest
};

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

#endif  // TIERBENCH_ORCHESTRATE_COMPARE_OPTIONS_H_
