// Parsing of fio job files into a Workload (workload/job_spec.h).
//
// Syntax as fio: INI sections; [global] sets defaults for the jobs below it
// (several [global] sections allowed, each applying from where it stands);
// any other [name] starts a job; lines starting with ';' or '#' are comments,
// as is the rest of a line after ' #' or ' ;'; "option=value" or a bare
// "option" (a boolean set to 1). Option names and values follow fio's HOWTO
// for the supported set (tierbench-jobfile(5) lists it). Options that only
// shape fio's own output (gtod_reduce, ...) are accepted and ignored with a
// notice in Workload::notices. Anything else is an error.
//
// Errors: a ConfigError whose message is
//   "<file>:<line>: option '<name>': <why>. Fix: <what to do>"
// (or without the option part for syntax errors). Parsing reads only the job
// files; it never opens a target. The whole input is validated before a
// Workload is returned.
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workload/job_spec.h"

namespace tierbench {

// Command-line values that replace the files' own, as fio's command-line
// options do: applied to every job after parsing, then validated again.
struct JobOverrides {
  std::optional<uint64_t> runtime_ns;
  std::optional<uint64_t> ramp_time_ns;
  std::optional<SizeSpec> size;
  std::optional<SizeSpec> offset;
  std::optional<std::string> filename;
  std::optional<uint64_t> randseed;
  // --time-based: every job runs for its runtime, looping over its region
  // (fio's time_based), however much its size= covers.
  std::optional<bool> time_based;
};

// Parses the files in order and concatenates their jobs (group ids keep
// counting across files; each file starts a new group). Throws ConfigError.
Workload ParseJobFiles(const std::vector<std::string>& paths,
                       const JobOverrides& overrides);

// Parses job-file text; `origin` names it in messages (a path or "<string>").
Workload ParseJobText(std::string_view text, const std::string& origin,
                      const JobOverrides& overrides);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_H_
