// compare --precondition[=PASSES]: before the first cell, the raw SSD
// baseline (--ssd) is written sequentially, PASSES times over [0, range)
// where range is the compare's region (CompareSetup::region_bytes: every
// cell's IO lies inside it), in 128 KiB direct writes at queue depth 32 on
// libaio: SNIA PTS's workload-independent preconditioning (twice the
// capacity by default) over the active range, so the SSD's cells measure a
// drive in steady state rather than fresh out of the box or just trimmed.
// Each pass is timed on its own (PreconditionOutcome::pass_mib_s): a drive
// that slows from pass to pass was not in steady state before.
//
// The cache device is not written: it belongs to the cache layer (writing
// it would destroy the cache set); the caches' SSD space is brought to its
// settled state by the cells' own warm-up (--cache-state
// warm-until-steady).
//
// Errors: RunError from the engine (a write that failed), ConfigError for
// a bad target; InterruptedError between passes.
#ifndef TIERBENCH_ORCHESTRATE_PRECONDITION_H_
#define TIERBENCH_ORCHESTRATE_PRECONDITION_H_

#include <cstdint>
#include <functional>
#include <string>

#include "record/reporter.h"
#include "util/sysfs.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {

inline constexpr int kMaxPreconditionPasses = 10;

using RunWorkloadFn =
    std::function<RunResult(const Workload&, const RunOptions&)>;

// The job of one pass over [0, range_bytes) of `device`, as fio job text.
std::string PreconditionJobText(const std::string& device,
                                uint64_t range_bytes);

// Runs `passes` passes (1..kMaxPreconditionPasses) with `run` (RunWorkload
// when empty), the device checked through `sysfs` (the Host's); `on_pass` (may
// be empty) gets each finished pass's index (1-based) and MiB/s.
PreconditionOutcome Precondition(
    const std::string& device, uint64_t range_bytes, int passes,
    const Sysfs& sysfs, const RunWorkloadFn& run,
    const std::function<void(int pass, double mib_s)>& on_pass);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_PRECONDITION_H_
