// The IO stream of a generated job (workload/job_stream.h).
#include "workload/job_stream.h"

#include <algorithm>
#include <utility>

#include "workload/io_pattern.h"

namespace tierbench {

std::string JobStreamUnknownWhy(const JobSpec& spec) {
  if (!spec.read_iolog.empty()) return "it replays a trace";
  if (spec.numjobs != 1)
    return "it runs " + std::to_string(spec.numjobs) + " clones (numjobs=)";
  if (spec.nrfiles != 1) return "it spreads its IO over several files";
  if (spec.time_based) {
    return "it is time_based: the device's speed sets how much of the "
           "stream it issues";
  }
  if (spec.runtime_ns > 0) {
    return "its runtime= may end it before its size does: the device's "
           "speed sets how much of the stream it issues";
  }
  if (spec.io_size > 0) return "its io_size= runs it past its region";
  if (spec.ramp_time_ns > 0) {
    return "its ramp_time= IO reaches the cache outside the measured window";
  }
  if (!spec.randrepeat && !spec.randseed_set) {
    return "its random draws are seeded from the clock (randrepeat=0 "
           "without randseed=)";
  }
  if (spec.draw_stream != 0) return "it draws a warm-up chunk's stream";
  if (spec.verify.enabled()) return "its verify= phase reads back its writes";
  return "";
}

std::shared_ptr<const IoLog> JobStream(const JobSpec& spec,
                                       uint64_t target_bytes,
                                       const std::string& path,
                                       std::string* why_not, uint64_t max_ios) {
  *why_not = JobStreamUnknownWhy(spec);
  if (!why_not->empty()) return nullptr;
  auto log = std::make_shared<IoLog>();
  log->path = path;
  log->version = 2;
  log->files = {"job"};
  IoPattern pattern(spec, target_bytes, /*clone_index=*/0);
  const uint32_t loops = std::max<uint32_t>(1, spec.loops);
  for (uint32_t pass = 0; pass < loops; ++pass) {
    if (pass > 0) pattern.Rewind();
    // JobThread::PassDone: the pattern's budget (the region's bytes) or
    // number_ios= ends a pass.
    uint64_t pass_ios = 0;
    IoDir dir = IoDir::kRead;
    uint64_t offset = 0;
    uint32_t length = 0;
    while ((spec.number_ios == 0 || pass_ios < spec.number_ios) &&
           pattern.Next(&dir, &offset, &length)) {
      if (log->entries.size() >= max_ios) {
        *why_not = "it issues more than " + std::to_string(max_ios) + " IOs";
        return nullptr;
      }
      IoLogEntry e;
      e.action = dir == IoDir::kRead ? IoLogAction::kRead : IoLogAction::kWrite;
      e.offset = offset;
      e.length = length;
      e.line = static_cast<uint32_t>(
          std::min<uint64_t>(log->entries.size() + 2, UINT32_MAX));
      log->entries.push_back(e);
      ++pass_ios;
    }
  }
  SummarizeIoLog(log.get());
  return log;
}

}  // namespace tierbench
