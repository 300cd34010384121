// PrepareCompare: everything `tierbench compare` checks before it touches a
// device or a sysfs knob, and what those checks load (the CompareSetup,
// record/compare_setup.h).
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
// Then the read hit curves of the workloads that replay a trace are
// computed (orchestrate/stream_curves.h).
//
// Errors: ConfigError / SysError / SafetyError with one-line messages.
#ifndef TIERBENCH_ORCHESTRATE_PREPARE_COMPARE_H_
#define TIERBENCH_ORCHESTRATE_PREPARE_COMPARE_H_

#include <cstdint>
#include <string>

#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "util/host.h"

namespace tierbench {

// `host.sysfs` is the tree behind --sysfs-root.
CompareSetup PrepareCompare(const CompareOptions& opts, const Host& host);

// A trace file as a compare workload, as --workloads takes one: one replay
// job named `name` (direct, libaio, iodepth 32, open loop) aimed at
// `placeholder` (each cell places it on its target), --runtime and the
// other overrides applied, its sizes resolved against `region_bytes`, and
// prepared (the trace read and checked against the region). Throws
// ConfigError naming the file for a trace it cannot replay.
PreparedWorkload PrepareTraceWorkload(const CompareOptions& opts,
                                      const std::string& placeholder,
                                      uint64_t region_bytes,
                                      const std::string& path,
                                      const std::string& name);

// Default run id: UTC time and the short host name, "20240131T120000Z-host".
std::string DefaultRunId();

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_PREPARE_COMPARE_H_
