// ThreadCpu: the calling thread's CPU time, context switches and page faults
// (getrusage(RUSAGE_THREAD)), as fio reports them per job (usr/sys CPU,
// ctx, majf/minf). Take one at the start and one at the end of a measured
// window and add the difference to the job's result (JobResult::AddCpu,
// workload/job_result.h).
// Thread-safety: Now() reads the calling thread only; values are plain data.
#ifndef TIERBENCH_STATS_THREAD_CPU_H_
#define TIERBENCH_STATS_THREAD_CPU_H_

#include <cstdint>

namespace tierbench {

struct ThreadCpu {
  double usr_sec = 0;
  double sys_sec = 0;
  uint64_t ctx = 0;   // voluntary + involuntary context switches
  uint64_t majf = 0;  // major page faults
  uint64_t minf = 0;  // minor page faults

  // The calling thread's totals so far (zeros if getrusage fails).
  static ThreadCpu Now();
  // `end` minus `start`, field by field.
  static ThreadCpu Between(const ThreadCpu& start, const ThreadCpu& end);
};

}  // namespace tierbench

#endif  // TIERBENCH_STATS_THREAD_CPU_H_
