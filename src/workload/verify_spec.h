// VerifySpec: a job's fio verify options (verify=, do_verify, verify_only,
// verify_fatal, verify_backlog[_batch], verify_interval, verify_offset,
// verify_pattern, continue_on_error=verify) after parsing
// (workload/job_file_verify.h). The block format they drive is in
// workload/verify_block.h; the runtime behaviour in workload/verifier.h.
// A plain value type, part of JobSpec.
#ifndef TIERBENCH_WORKLOAD_VERIFY_SPEC_H_
#define TIERBENCH_WORKLOAD_VERIFY_SPEC_H_

#include <cstdint>
#include <vector>

namespace tierbench {

// fio's VERIFY_* values (verify.h of fio 2.x-3.40) that tierbench supports;
// they are written into each block's header (verify_type).
enum class VerifyType : uint16_t {
  kNone = 0,           // verify=0
  kMeta = 1,           // verify=meta (fio's VERIFY_HDR_ONLY)
  kMd5 = 2,            // verify=md5
  kCrc32c = 5,         // verify=crc32c, crc32c-intel
  kPattern = 17,       // verify_pattern= without verify=: header + pattern
  kPatternNoHdr = 18,  // verify=pattern: the pattern only, no header
  kNull = 19,          // verify=null: pretend
};

struct VerifySpec {
  VerifyType type = VerifyType::kNone;
  bool do_verify = true;     // verify phase after each write pass
  bool verify_only = false;  // do not write; verify what the job would write
  bool fatal = false;        // verify_fatal: stop at the first bad interval
  // continue_on_error=verify: count failures and go on (fio clears them).
  bool continue_on_error = false;
  uint64_t backlog = 0;        // verify_backlog: verify every N writes
  uint64_t backlog_batch = 0;  // verify_backlog_batch; 0: backlog
  uint32_t interval = 0;       // bytes per header; resolved by the parser
  uint32_t offset = 0;         // verify_offset: header swapped to here
  // verify_pattern= bytes (fio's parse_and_fill_pattern) and the positions
  // of its %o fields (8 bytes each: the IO's offset, little-endian).
  std::vector<uint8_t> pattern;
  std::vector<uint32_t> pattern_offsets;

  bool enabled() const { return type != VerifyType::kNone; }
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_VERIFY_SPEC_H_
