// The inputs of `tierbench compare`: its command-line options, one field
// each. The protocol reads them (orchestrate/), the reporters record them
// (the manifest, the console's notes). The test seams of the protocol are
// orchestrate/compare_hooks.h.
#ifndef TIERBENCH_RECORD_COMPARE_OPTIONS_H_
#define TIERBENCH_RECORD_COMPARE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "record/cell.h"
#include "workload/job_file.h"

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
  // --capture-replay (issue 30 item 5): each DB workload's cell on the raw
  // HDD (mode hdd) is traced with blktrace from its clients' start to the
  // end of its run, and the capture is replayed under every mode as one
  // more workload, NAME-replay (orchestrate/capture_replay.h).
  bool capture_replay = false;
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
  // --ssd-tbw TB: the SSD's endurance rating in terabytes written (10^12
  // bytes, > 0), for each cache cell's projected SSD life
  // (record/ssd_wear.h); nullopt: no projection.
  std::optional<double> ssd_tbw_tb;
  std::string command_line;  // for the manifest
};

// Adds one --workload-modes value ("WORKLOAD=MODE,MODE...") to `out`.
// ConfigError (one line with the fix) for a value without a workload or
// modes, and for a workload given twice. Shared by compare's and the lab's
// option parsing.
void AddWorkloadModes(const std::string& value,
                      std::map<std::string, std::vector<std::string>>* out);

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_COMPARE_OPTIONS_H_
