// RunWorkload: runs the jobs of a Workload on their targets and measures them.
//
// Order: all targets are checked first (exist, open with the job's flags,
// O_DIRECT accepted, size known, region inside the target, block sizes and
// alignment compatible with the logical block size, and for writes to block
// devices: --destructive given, not mounted, no holders, no filesystem or
// partition signature; allow_mounted_write=1 lets mounted devices and their
// filesystem signature through, as fio). Nothing is written before every
// check passes. Regular files that do not exist or are too small, including
// fio's default per-clone files <name>.<clone>.<n> (workload/job_files.h),
// are created and laid out first (written in full, as fio's "Laying out IO
// file").
// Then jobs run: each job's numjobs clones are threads with their own engine
// and queue; jobs up to a stonewall run concurrently, a stonewall job waits
// for all before it. ramp_time runs before measurement starts and is not
// counted. Results are merged per group when group_reporting is set.
//
// The preparation is a PreparedJobs (traces, engines, CPUs:
// workload/prepared_jobs.h) and a PreparedRun on the jobs' files (plans,
// target inspection and checks: workload/prepared_run.h), both made once;
// RunPrepared runs a PreparedRun, as often as wanted (compare's cells of one
// workload on one target); RunWorkload makes both and runs them once.
//
// Errors: ConfigError / SysError / SafetyError before any IO; RunError if IO
// fails during the run; InterruptedError when SIGINT/SIGTERM arrived (the
// jobs stop at once, files are closed, nothing is left behind).
#ifndef TIERBENCH_WORKLOAD_RUNNER_H_
#define TIERBENCH_WORKLOAD_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "util/sysfs.h"
#include "workload/job_result.h"
#include "workload/job_spec.h"
#include "workload/prepared_run.h"

namespace tierbench {

struct RunOptions {
  bool destructive = false;    // permit writes to block devices
  bool progress = true;        // live progress line when stderr is a tty
  std::string progress_label;  // shown before the progress fields
  // A job that failed only by verify= mismatches does not stop the run:
  // its result carries the error and verify_errors, and the caller reports
  // it (tierbench run prints the report, then exits 1, as fio does).
  bool report_verify_failures = false;
  // Called about once a second on the calling thread (never on an IO
  // thread) while a set of jobs runs, with the CLOCK_MONOTONIC ns at which
  // the set's IO started; e.g. to sample a cache layer for the per-second
  // series. Must be cheap and must not throw. May be empty.
  std::function<void(uint64_t set_start_ns)> on_second;
  // The kernel's views the device guard (holders, mounts) and, in
  // RunWorkload, the target inspection read: the Host's (util/host.h);
  // default: the machine's.
  Sysfs sysfs;
};

// Prepares `workload` (PreparedJobs, then PreparedRun on its own files) and
// runs it. RunResult::wall_ns includes the preparation.
RunResult RunWorkload(const Workload& workload, const RunOptions& options);

// Runs `run`: per run, the checks that may change between runs (writes to
// block devices: --destructive and the device guard), then lay-out of the
// files that still need it, opening every target, and the jobs. `run` is
// not changed and must outlive the call. RunResult::wall_ns is the run's.
RunResult RunPrepared(const PreparedRun& run, const RunOptions& options);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_RUNNER_H_
