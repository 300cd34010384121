// Parsing a job file's text in unit tests: the job-file option tests share
// these two helpers. The file name in errors is "t.fio".
#ifndef TIERBENCH_TESTS_SUPPORT_JOB_TEXT_H_
#define TIERBENCH_TESTS_SUPPORT_JOB_TEXT_H_

#include <string>

#include "util/errors.h"
#include "workload/job_file.h"

namespace tierbench {

// `text` parsed as the job file "t.fio" with no overrides; throws what
// ParseJobText throws.
inline Workload ParseJobTextForTest(const std::string& text) {
  return ParseJobText(text, "t.fio", JobOverrides{});
}

// The ConfigError message parsing `text` throws, or "" when it parses.
inline std::string JobTextError(const std::string& text) {
  try {
    ParseJobTextForTest(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_JOB_TEXT_H_
