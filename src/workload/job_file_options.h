// Internals of the job-file parser (workload/job_file.h): the table of
// supported fio options and the per-section draft they are applied to.
// Not for use outside src/workload/job_file*.cc and their tests.
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_OPTIONS_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_OPTIONS_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/strings.h"
#include "workload/job_spec.h"

namespace tierbench {

// A job (or a [global] section) while it is being parsed: the JobSpec plus
// what the spec cannot hold until the job is complete.
struct JobDraft {
  JobSpec spec;
  std::string directory;        // directory=: target is <dir>/<name>.0.0
  std::string replay_redirect;  // replay_redirect=, resolved at the job's end
  // Where each option got its current value ("file.fio:12"), by canonical
  // option name; validation errors point there.
  std::map<std::string, std::string> where;
  // rwmixread / rwmixwrite given in the current section (value), to catch
  // the two contradicting each other within one section.
  std::optional<uint32_t> section_rwmixread;
  std::optional<uint32_t> section_rwmixwrite;
};

// One "name=value" (or bare "name") line. `where` is "file:line".
struct OptionLine {
  std::string_view name;
  std::optional<std::string_view> value;  // nullopt for a bare option
  std::string where;
  // Why the value may look wrong after ${VAR} expansion ("${SIZE} is
  // unset"), added to error messages; empty when nothing was unset.
  std::string expansion_note;
};

// Applies one option to *draft. Options that only shape fio's output are
// accepted and add a notice to *notices. Throws ConfigError
// "<where>: option '<name>': <why>. Fix: <fix>" for unknown options and
// invalid values.
void ApplyJobOption(const OptionLine& line, JobDraft* draft,
                    std::vector<std::string>* notices);

// Throws the ConfigError above for `option` at `where`.
[[noreturn]] void ThrowOptionError(const std::string& where,
                                   std::string_view option,
                                   const std::string& why,
                                   const std::string& fix);

// The option line an option group (job_file_rate.cc, job_file_verify.cc)
// is applying: its errors name file:line and the option, as above.
struct OptionCtx {
  const OptionLine& line;
  const char* name;  // the option's canonical name
  JobDraft* draft;

  [[noreturn]] void Fail(const std::string& why, const std::string& fix) const {
    ThrowOptionError(line.where, line.name, why, fix);
  }
  // The trimmed value; fails when the option has none.
  std::string Value() const {
    if (!line.value)
      Fail("needs a value", std::string("write ") + name + "=<value>");
    return TrimmedCopy(*line.value);
  }
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_OPTIONS_H_
