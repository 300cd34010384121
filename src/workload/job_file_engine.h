// The job-file options of fio's io_uring engine (HOWTO.rst, "I/O engine
// specific parameters"), parsed into JobSpec::uring (io/engine_options.h)
// with fio's semantics (engines/io_uring.c, parse.c):
//
//   fixedbufs, registerfiles, sqthread_poll, hipri
//                         set by the bare name or a number (non-zero = set),
//                         also true/false, yes/no, on/off;
//   sqthread_poll_cpu=int the SQ thread's CPU (>= 0); only with
//                         sqthread_poll, as fio;
//   nonvectored=int       -1 (default): probe the kernel; 0: READV/WRITEV;
//                         any other value: READ/WRITE.
//
// Rules once the job is complete (FinalizeEngineOptions): the options need
// ioengine=io_uring (with another engine they would silently do nothing);
// hipri needs direct=1 (polled completions exist only for O_DIRECT IO).
// Errors are ConfigErrors "<file:line>: option '<name>': <why>. Fix: <fix>".
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_ENGINE_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_ENGINE_H_

#include <string>
#include <vector>

#include "workload/job_file_options.h"

namespace tierbench {

// Applies `line` when it is one of the options above and returns true;
// returns false for any other option (the caller goes on looking).
bool ApplyEngineOption(const OptionLine& line, JobDraft* draft,
                       std::vector<std::string>* notices);

// The cross-option rules above, once the job is complete.
void FinalizeEngineOptions(JobDraft* draft, std::vector<std::string>* notices);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_ENGINE_H_
