// The job-file options of fio's verify group, parsed into a JobDraft
// (workload/job_file_options.h) and checked as fio 3.x checks them:
//
//   verify=0|md5|crc32c|crc32c-intel|meta|pattern|null
//                              checksum/header written into each block
//   do_verify=bool             verify phase after each write pass (1)
//   verify_only                do not write; verify what the job would write
//   verify_fatal=bool          stop at the first bad interval (0)
//   verify_backlog=N           verify after every N written blocks
//   verify_backlog_batch=N     blocks per backlog verify (default N above)
//   verify_interval=bytes      header every N bytes (default: the smallest
//                              write block size; fio's fixup_options rules)
//   verify_offset=bytes        header swapped to this offset in the interval
//   verify_pattern=str         fill pattern: numbers, "strings", %o (offset)
//   continue_on_error=none|verify  count verify failures and go on
//
// verify_dump, verify_async, verify_async_cpus, verify_state_save,
// verify_state_load, experimental_verify, verifysort[_nr] are accepted with a
// notice. Other verify types (crc64, crc32, sha*, xxhash, ...) are refused
// with a fix. Errors are ConfigErrors of the ThrowOptionError form
// "<file:line>: option '<name>': <why>. Fix: <fix>".
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_VERIFY_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_VERIFY_H_

#include <string>
#include <string_view>
#include <vector>

#include "workload/job_file_options.h"
#include "workload/job_spec.h"

namespace tierbench {

// Applies `line` when it is one of the options above and returns true;
// returns false for any other option (the caller goes on looking).
bool ApplyVerifyOption(const OptionLine& line, JobDraft* draft,
                       std::vector<std::string>* notices);

// Resolves verify_interval and checks the cross-option rules once the job
// is complete (block sizes resolved).
void FinalizeVerifyOptions(JobDraft* draft, std::vector<std::string>* notices);

// fio's parse_and_fill_pattern() for verify_pattern=: fills *bytes and the
// positions of %o fields; false with *why on a malformed pattern.
bool ParseVerifyPattern(std::string_view text, std::vector<uint8_t>* bytes,
                        std::vector<uint32_t>* offsets, std::string* why);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_VERIFY_H_
