// The fio iolog of a captured trace (tracefile/capture_iolog.h).
#include "tracefile/capture_iolog.h"

#include <algorithm>

#include "util/errors.h"

namespace tierbench {

CaptureIoLog CaptureIoLogOf(const ParsedTrace& trace, uint32_t volume,
                            const std::string& file, uint64_t base_bytes) {
  CaptureIoLog out;
  CaptureIoLogCounts& c = out.counts;
  std::string& t = out.text;
  t = "fio version 3 iolog\n0 " + file + " add\n0 " + file + " open\n";
  bool have_first = false;
  uint64_t first_ns = 0;
  for (const TraceRecord& r : trace.records) {
    if (r.volume != volume) continue;
    if (!have_first) {
      first_ns = r.time_ns;
      have_first = true;
    }
    const uint64_t us = (r.time_ns - std::min(first_ns, r.time_ns)) / 1000;
    c.span_us = std::max(c.span_us, us);
    const std::string head = std::to_string(us) + " " + file + " ";
    const bool flush = (r.flags & kTraceFlush) != 0;
    if (flush) {
      t += head + "sync 0 0\n";
      ++c.syncs;
    }
    if (r.length_bytes == 0) {
      if (!flush) ++c.dropped;
      continue;
    }
    if (r.offset_bytes < base_bytes) {
      throw ConfigError(
          trace.path + ":" + std::to_string(r.line) + ": a request at byte " +
          std::to_string(r.offset_bytes) +
          " of the disk, before the partition's start (byte " +
          std::to_string(base_bytes) + "). Fix: capture the whole disk");
    }
    t += head + (r.is_write ? "write " : "read ") +
         std::to_string(r.offset_bytes - base_bytes) + " " +
         std::to_string(r.length_bytes) + "\n";
    if (r.is_write) {
      ++c.writes;
      c.write_bytes += r.length_bytes;
      if ((r.flags & kTraceFua) != 0) ++c.fua;
    } else {
      ++c.reads;
      c.read_bytes += r.length_bytes;
    }
  }
  t += std::to_string(c.span_us) + " " + file + " close\n";
  return out;
}

}  // namespace tierbench
