// CellRunner: the measurement protocol of one compare cell (mode x workload x
// repetition), reference-notes §7(b).
//
// Raw cell (layer "raw"): sync + drop the page cache, run the workload on
// --hdd or --ssd. No bcache counters.
// bcache cell:
//   1. cache state: cold -> detach + re-attach (nothing of earlier cells is
//      served); warm -> a prefill pass that reads the workload's region in
//      writethrough mode with sequential_cutoff 0 (so it is inserted; DB
//      workloads cannot be prefilled: treated as as-is with a warning);
//      as-is -> nothing;
//   2. apply the mode: cache_mode, then every knob and cache-set knob of the
//      mode file, each read back (a mismatch is a SysError); the read-backs
//      are recorded in every row;
//   3. wait clean (drain dirty data, the drain time is drain_before_s);
//   4. sync + drop the page cache; counters "before";
//   5. run the workload on /dev/bcacheN;
//   6. wait --stats-lag seconds (bcache folds its counters every ~13.6 s),
//      counters "after"; the delta is the cell's;
//   7. wait clean again: drain_after_s is the "time to clean" (writeback's
//      deferred cost); dirty data left is recorded.
// Then Diagnose() turns the observation into warnings.
//
// Errors: a RunError/DbError of the workload itself is recorded in the
// record (the compare continues with the next cell); setup errors
// (ConfigError, SysError, SafetyError) and InterruptedError propagate.
// Not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_
#define TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_

#include <map>
#include <string>
#include <vector>

#include "cache/bcache_device.h"
#include "orchestrate/compare_options.h"
#include "orchestrate/compare_setup.h"
#include "orchestrate/run_plan.h"
#include "stats/job_result.h"

namespace tierbench {

// Everything recorded about one finished cell.
struct CellRecord {
  Cell cell;
  const ModeSpec* mode = nullptr;
  const PreparedWorkload* workload = nullptr;
  std::string target;       // the path the workload ran on
  std::string cache_state;  // cold|warm|as-is; "" for raw cells
  // bcache cells: what sysfs showed after the mode was applied.
  std::string cache_mode_readback;
  KnobSnapshot knobs_readback;
  CacheSetInfo cache_set;
  std::string state_before;  // `state` right before the run
  bool has_counters = false;
  CounterDelta delta;
  double drain_before_s = -1;
  double drain_after_s = -1;
  bool drain_before_timed_out = false;
  bool drain_after_timed_out = false;
  uint64_t dirty_left_after_drain = 0;
  RunResult result;
  DbCellInfo db_info;  // DB workloads
  std::vector<std::string> warnings;
  std::string error;  // the workload failed (RunError/DbError)
};

class CellRunner {
 public:
  // `device` and `original` (the knobs captured before the first change)
  // are null when no bcache mode is planned. Everything must outlive the
  // runner.
  CellRunner(const CompareOptions& options, const CompareSetup& setup,
             const CompareHooks& hooks, const Sysfs& sysfs,
             BcacheDevice* device, const KnobSnapshot* original);

  CellRecord Run(const Cell& cell);

 private:
  void PrepareCacheState(const PreparedWorkload& w, CellRecord* rec);
  void ApplyMode(const ModeSpec& mode, CellRecord* rec);
  // WaitClean with progress; records the time, flags a timeout, throws
  // InterruptedError when interrupted.
  double Drain(const std::string& what, bool* timed_out);
  void DropCaches();
  void RunWorkloadOn(const PreparedWorkload& w, const std::string& target,
                     const std::string& label, CellRecord* rec);
  void Prefill(const PreparedWorkload& w);
  void Sleep(double seconds);

  const CompareOptions& options_;
  const CompareSetup& setup_;
  const CompareHooks& hooks_;
  const Sysfs& sysfs_;
  BcacheDevice* device_;
  const KnobSnapshot* original_;
};

// Throws InterruptedError when SIGINT/SIGTERM arrived.
void ThrowIfInterrupted(const std::string& where);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_
