// PrepareCompare: everything `tierbench compare` checks before it touches a
// device or a sysfs knob, and what those checks load.
//
// Order of the checks (the first failure throws, nothing has been changed):
//  1. root (skipped for a test --sysfs-root);
//  2. options: counts, --repeat >= 1, --stats-lag >= 0, --drain-timeout > 0,
//     --hdd / --ssd given when a raw mode needs them;
//  3. mode files (cache/registry/mode_file.h), distinct names;
//  4. workloads: .json with "kind": "pgbench" -> DB workload (db/db_cell.h),
//     anything else -> fio job file (workload/job_file.h), distinct names;
//  5. --destructive when any workload writes (every DB workload does);
//  6. stacks (--stack, repeatable): each device's layer is detected
//     (cache/registry/layer_registry.h; SysError when it is no known stack
//     or the kernel lacks the layer), at most one stack per layer, every
//     cache mode has the stack of its layer (ConfigError otherwise), each
//     stack is usable for its modes (CacheLayer::CheckUsable, e.g. a bcache
//     cache is attached); stacks without modes are dropped with a notice;
//  7. raw targets: no member of any stack (writing there bypasses the
//     cache and corrupts it), and for block devices not mounted, held or
//     carrying a signature (io/device_guard.h);
//  7b. --verify: a positive multiple of 4 KiB (checked with the options),
//     a stack to check, --destructive, no bigger than any stack;
//  7c. --precondition: 1 to 10 passes (checked with the options), an ssd
//     mode and --ssd, --destructive, and the SSD writable (as in 7);
//  8. the results directory <results>/<run-id> does not exist yet;
//  9. with stacks: no restore state file of an earlier compare
//     (orchestrate/restore_state.h; SafetyError naming `tierbench restore`).
// Job sizes are then made absolute so every target sees the same LBA range:
// an unset size becomes (smallest target - offset), percentages are resolved
// against the smallest target, and sizes are rounded down to a whole number
// of the job's largest block size. With --working-set, every fio workload is
// then expanded into one copy per working set (orchestrate/working_set.h).
// Last, every fio workload's jobs are prepared once (workload/
// prepared_jobs.h: traces loaded and checked, engines looked up, CPUs
// checked), so a bad trace is refused here, before anything is written.
//
// Errors: ConfigError / SysError / SafetyError with one-line messages.
#ifndef TIERBENCH_ORCHESTRATE_COMPARE_SETUP_H_
#define TIERBENCH_ORCHESTRATE_COMPARE_SETUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "cache/mode_spec.h"
#include "cache/registry/layer_registry.h"
#include "db/db_cell.h"
#include "io/device_guard.h"
#include "orchestrate/compare_options.h"
#include "util/finding.h"
#include "util/host.h"
#include "util/sysfs.h"
#include "workload/job_spec.h"
#include "workload/prepared_jobs.h"

namespace tierbench {

struct PreparedWorkload {
  std::string path;
  std::string name;  // DB: its "name"; fio: the file's stem
  bool is_db = false;
  Workload io;  // fio: jobs with absolute sizes; filename set per cell
  // fio: `io` prepared once, for every cell (PrepareCompare makes it after
  // the sizes are final); the cells place it on their targets.
  std::shared_ptr<const PreparedJobs> prepared;
  DbWorkload db;  // DB workloads
  // --working-set: its label ("25%", "1G") and the bytes each job's region
  // was sized to; "" and 0 without --working-set (orchestrate/working_set.h).
  std::string working_set;
  uint64_t working_set_bytes = 0;
  bool Writes() const;
};

// One cache stack of the compare and the layer object that controls it.
struct CompareStack {
  std::string device;  // where its cells do IO (--stack as given)
  std::shared_ptr<CacheLayer> layer;
  StackInfo info;  // as read during validation
  // What the setup found for every cell of this stack
  // (orchestrate/setup_findings.h).
  std::vector<Finding> findings;
};

// Cache capacities of the stacks differ by more than this (percent of the
// largest): a cross-layer comparison is not at equal capacity.
inline constexpr double kCacheCapacityTolerancePct = 5.0;

struct CompareSetup {
  std::vector<ModeSpec> modes;
  std::vector<PreparedWorkload> workloads;
  std::vector<CompareStack> stacks;  // one per layer that has modes
  // Findings that concern every cache cell (e.g. unequal cache capacity);
  // also in each stack's `findings`.
  std::vector<Finding> stack_findings;
  // What the setup found for every cell on the raw HDD, the raw SSD, and
  // every cell of the run (orchestrate/setup_findings.h).
  std::vector<Finding> hdd_findings, ssd_findings, run_findings;
  std::string host_root;      // --sysfs-root
  Sysfs os;                   // the Host's sys/ and proc/ (--sysfs-root)
  uint64_t region_bytes = 0;  // smallest target size; 0 when unknown
  // The capacity --working-set percentages refer to: the smallest cache
  // among the stacks; -1 when no stack reports one.
  int64_t reference_cache_bytes = -1;
  // runs[mode][workload]: the cell runs (--workload-modes); all true
  // without the option.
  std::vector<std::vector<bool>> runs;
  std::string run_id;
  std::string run_dir;  // <results>/<run-id>

  // The stack of `mode`'s layer; null for raw modes.
  const CompareStack* StackFor(const ModeSpec& mode) const;
};

// `host.sysfs` is the tree behind --sysfs-root.
CompareSetup PrepareCompare(const CompareOptions& opts, const Host& host);

// Default run id: UTC time and the short host name, "20240131T120000Z-host".
std::string DefaultRunId();

// Size in bytes of a block device or regular file; 0 when it cannot be
// opened (a file the runner will create).
uint64_t TargetSizeBytes(const std::string& path);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_COMPARE_SETUP_H_
