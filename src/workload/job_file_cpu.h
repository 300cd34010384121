// fio's CPU affinity options, parsed into a JobDraft (workload/
// job_file_options.h) and applied to a clone's thread as fio applies them
// (backend.c, thread_main):
//
//   cpus_allowed=str          CPUs the job may run on, from 0: "0,5,8-15"
//   cpumask=int               the same as a bit mask (bit n = CPU n), e.g. 34
//                             for CPUs 1 and 5; the later of the two counts
//   cpus_allowed_policy=str   shared (default): every clone gets the whole
//                             set; split: clone n of the run (fio's
//                             thread_number - 1, counted over all jobs) gets
//                             the set's (n mod size)-th CPU alone
//
// As in fio (options.c set_cpus_allowed), a CPU at or above the number of
// configured CPUs is refused ("CPU 9 too large (max=1)"), as is a bad list;
// errors are ConfigErrors "<file:line>: option '<name>': <why>. Fix: <fix>".
// Why a user sets them: a pinned QD1 job keeps its wake-ups on one CPU
// (README "CPU idle and QD1 latency").
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_CPU_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_CPU_H_

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"
#include "workload/job_file_options.h"
#include "workload/job_spec.h"

namespace tierbench {

// Applies `line` when it is one of the options above and returns true;
// returns false for any other option. `configured_cpus` is the machine's
// CPU count; tests pass their own.
bool ApplyCpuOption(const OptionLine& line, JobDraft* draft,
                    long configured_cpus);
// The same on this machine (sysconf(_SC_NPROCESSORS_CONF), asked only for
// the options above: it scans /sys).
bool ApplyCpuOption(const OptionLine& line, JobDraft* draft);

// The CPUs clone `thread_number` (0-based over the whole run) may use:
// `spec.cpus` (shared), one CPU of it (split), or empty (no affinity set).
std::vector<int> CloneCpus(const JobSpec& spec, uint32_t thread_number);

// Throws ConfigError (naming the job's section, the job, and the CPUs this
// process may use) when a clone of `spec` would get no CPU this
// process may run on: shared, none of the set; split, any CPU of the set.
void CheckCpusAvailable(const JobSpec& spec);

// Pins the calling thread to `cpus` (sched_setaffinity); Ok for an empty
// set. The Status names the CPUs and the errno (EINVAL: none of them is
// online or allowed to this process).
Status PinCurrentThread(const std::vector<int>& cpus);

// "0,5,8-15": `cpus` (sorted, unique) in fio's list syntax.
std::string CpuListText(const std::vector<int>& cpus);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_CPU_H_
