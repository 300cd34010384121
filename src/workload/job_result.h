// The measured outcome of a job (or of a group of jobs merged by
// group_reporting), shared by the IO runner, the transaction driver and the
// reporters.
//
// Latencies are nanoseconds, as fio measures them (io/io_engine.h):
//   slat = issue - start, clat = completion - issue, lat = completion - start.
// Rated jobs (rate= / rate_iops=) also measure the open-loop latency
//   sched_lat = completion - scheduled issue time,
// where the scheduled time comes from the rate's schedule (RatePacer), not
// from when the previous IO finished: what a client issuing at that rate
// would see, free of coordinated omission. sched_lat >= lat; it grows when
// the target cannot keep up while clat stays flat. A timed read_iolog
// replay measures it from each IO's time in the trace
// (workload/replay_source.h). Empty for other jobs.
// For the transaction driver an "IO" is a transaction: ios counts
// transactions, lat is the transaction latency, slat/clat stay empty, and
// `unit` is "tx".
#ifndef TIERBENCH_WORKLOAD_JOB_RESULT_H_
#define TIERBENCH_WORKLOAD_JOB_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "stats/latency_histogram.h"
#include "stats/running_stat.h"
#include "stats/steady_state.h"
#include "stats/thread_cpu.h"
#include "stats/time_series.h"
#include "util/io_dir.h"
#include "workload/job_spec.h"  // JobResult records the JobSpec it ran

namespace tierbench {

struct DirectionStats {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;  // completions with result < 0 or short
  // IOs handed to the engine after ramp_time (fio's total_io_u, the
  // "issued rwts: total=" count), and completions that moved fewer bytes
  // than asked (fio's short_io_u; tierbench fails the job on them).
  uint64_t issued = 0;
  uint64_t short_ios = 0;
  RunningStat slat;  // ns
  RunningStat clat;  // ns
  RunningStat lat;   // ns
  LatencyHistogram clat_hist;
  LatencyHistogram lat_hist;
  RunningStat sched_lat;  // ns; rated jobs and timed replays only
  LatencyHistogram sched_lat_hist;
  TimeSeries series;  // per-second IOs and bytes

  void Merge(const DirectionStats& other);
};

struct JobResult {
  std::string name;         // job name (for a merged group: the first job's)
  std::string unit = "io";  // "io" or "tx" (transactions)
  int group_id = 0;
  uint32_t jobs = 1;  // job threads merged into this result
  JobSpec spec;       // the job as run (first job of a merged group)
  DirectionStats dir[kNumDirs];
  uint64_t runtime_ns = 0;  // measured window (after ramp), max over merged
  double usr_cpu_sec = 0;   // CPU time of the job threads
  double sys_cpu_sec = 0;
  uint64_t ctx_switches = 0;
  uint64_t majf = 0;  // major / minor page faults of the job threads
  uint64_t minf = 0;  // (getrusage(RUSAGE_THREAD) deltas, as fio)
  // Thread id of the (first) job thread, fio's "pid=" (0: not an IO job
  // thread), and the Unix time (s) its job ended, fio's report date.
  int pid = 0;
  int64_t end_time = 0;
  // IO depth when each IO was submitted: counts for depths 1,2,4,8,16,32,>=64
  // (fio's "IO depths" line).
  uint64_t depth_hist[7] = {0, 0, 0, 0, 0, 0, 0};
  // IOs per submit call and per reap, fio's "submit" / "complete" lines:
  // counts for batches of 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 IOs
  // (io/io_batch_counts.h).
  uint64_t submit_hist[7] = {0, 0, 0, 0, 0, 0, 0};
  uint64_t complete_hist[7] = {0, 0, 0, 0, 0, 0, 0};
  std::string error;      // empty when the job succeeded
  std::string error_fix;  // how to fix `error`, when the job knows better
  SteadyStateResult steadystate;  // enabled when ss_dur was set
  uint64_t syncs = 0;             // fsync=/fdatasync= syncs (fio's sync count)
  uint64_t issued_syncs = 0;      // of them after ramp_time ("issued rwts")
  uint64_t end_fsyncs = 0;        // files synced by end_fsync=1
  uint64_t verify_errors = 0;     // verify=: bad block intervals found
  uint64_t verify_blocks = 0;     // verify=: blocks read back and checked

  // IOPS and bytes/s of a direction over runtime_ns (0 when runtime is 0).
  double Iops(IoDir d) const;
  double BytesPerSec(IoDir d) const;

  // Merges `other` into this (group_reporting): directions merged, jobs
  // summed, runtime the max, CPU, faults and histograms summed, pid the
  // first job's (as fio), end_time the latest, errors joined with "; ".
  void Merge(const JobResult& other);

  // Adds a job thread's CPU time, context switches and page faults over its
  // measured window to usr_cpu_sec, sys_cpu_sec, ctx_switches, majf, minf.
  void AddCpu(const ThreadCpu& cpu);
};

// The directions of `r` worth a row of a report: those with IOs or IO
// errors, in read, write order. A job without any (it failed before its
// first IO) still gets one, the first direction its pattern does, so that
// its error is reported.
std::vector<IoDir> ReportedDirections(const JobResult& r);

// All results of one `tierbench run` (or one compare cell).
struct RunResult {
  std::vector<JobResult> jobs;  // after group_reporting merges, file order
  uint64_t wall_ns = 0;         // whole run including ramp and setup
  std::vector<std::string> notices;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_RESULT_H_
