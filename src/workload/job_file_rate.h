// The job-file options of fio's rate and steady-state groups, parsed into a
// JobDraft (workload/job_file_options.h) and checked as fio checks them:
//
//   rate=int[,int][,int]          bandwidth cap per direction, bytes/s with
//                                 fio's size units (rate=1m,500k)
//   rate_min= (ratemin)           least bandwidth per direction; failing it
//                                 fails the job
//   rate_iops_min=                least IOPS per direction
//   rate_process=linear|poisson   spacing of rated IOs
//   rate_cycle= (ratecycle)       window of the minimum check, ms (1000)
//   rate_ignore_thinktime=bool    do not catch up the rate after thinktime
//   steadystate= (ss)             iops|iops_slope|bw|bw_slope:<limit>[%]
//   steadystate_duration= (ss_dur)      window; 0 (default) disables
//   steadystate_ramp_time= (ss_ramp)    delay before sampling
//
// Rules (fio's fixup_options and str_steadystate_cb): rate= and rate_iops=
// (and rate_min= and rate_iops_min=) exclude each other; a minimum above
// its cap is refused; poisson needs at least one IO per second; a slope
// needs a window of at least 2 s. Errors are ConfigErrors of the
// ThrowOptionError form "<file:line>: option '<name>': <why>. Fix: <fix>".
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_RATE_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_RATE_H_

#include <string>
#include <vector>

#include "workload/job_file_options.h"
#include "workload/job_spec.h"

namespace tierbench {

// Applies `line` when it is one of the options above and returns true;
// returns false for any other option (the caller goes on looking).
bool ApplyRateOption(const OptionLine& line, JobDraft* draft,
                     std::vector<std::string>* notices);

// The cross-option rules above, once the job is complete.
void FinalizeRateOptions(JobDraft* draft, std::vector<std::string>* notices);

// fio's td_steadystate_init() rule: the jobs of one reporting group must all
// have the same steady-state settings (or none). Throws ConfigError naming
// the job and the fix otherwise.
void CheckSteadyStateGroups(const std::vector<JobSpec>& jobs);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_RATE_H_
