// What the binary trace parsers (trace_blktrace.cc, trace_vscsi.cc,
// trace_oracle.cc) share (tracefile/trace_parse.h): fixed-width loads in
// either byte order, the "record N (byte OFFSET)" error line, the checks a
// record passes before TraceBuilder::Add, sorting by time, a trace file's
// volume name and zstd decompression (libzstd's streaming API, so a frame
// without a content size inflates too).
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"

namespace tierbench {

uint16_t TraceLoad16(const char* p, bool big_endian) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return big_endian ? static_cast<uint16_t>(b[0] << 8 | b[1])
                    : static_cast<uint16_t>(b[1] << 8 | b[0]);
}

uint32_t TraceLoad32(const char* p, bool big_endian) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    v = v << 8 | b[big_endian ? i : 3 - i];
  }
  return v;
}

uint64_t TraceLoad64(const char* p, bool big_endian) {
  const uint64_t hi = TraceLoad32(big_endian ? p : p + 4, big_endian);
  const uint64_t lo = TraceLoad32(big_endian ? p + 4 : p, big_endian);
  return hi << 32 | lo;
}

void TraceRecordFail(const std::string& path, uint64_t record, uint64_t byte,
                     const std::string& what, const std::string& fix) {
  throw ConfigError(path + ": record " + std::to_string(record) + " (byte " +
                    std::to_string(byte) + "): " + what + ". Fix: " + fix);
}

void TraceCheckRecord(const std::string& path, uint64_t record, uint64_t byte,
                      uint64_t offset, uint64_t length,
                      const std::string& fix) {
  if (length > kTraceMaxLength) {
    TraceRecordFail(path, record, byte,
                    "a request of " + std::to_string(length) +
                        " bytes, over the 256 MiB trace-stats takes",
                    fix);
  }
  if (offset > UINT64_MAX - length) {
    TraceRecordFail(path, record, byte,
                    "offset " + std::to_string(offset) + " + length " +
                        std::to_string(length) + " does not fit in 64 bits",
                    fix);
  }
}

bool TraceSortByTime(std::vector<TraceRecord>* records, size_t begin,
                     size_t end) {
  const auto by_time = [](const TraceRecord& a, const TraceRecord& b) {
    return a.time_ns < b.time_ns;
  };
  const auto first = records->begin() + static_cast<ptrdiff_t>(begin);
  const auto last = records->begin() + static_cast<ptrdiff_t>(end);
  if (std::is_sorted(first, last, by_time)) return false;
  std::stable_sort(first, last, by_time);
  return true;
}

std::string TraceFileVolume(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string base =
      slash == std::string::npos ? path : path.substr(slash + 1);
  return base.empty() ? path : base;
}

bool TraceLooksBinary(std::string_view head) {
  return std::any_of(head.begin(), head.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
  });
}

bool TraceIsZstd(std::string_view data) {
  return data.size() >= 4 && TraceLoad32(data.data(), false) == kTraceZstdMagic;
}

std::string TraceInflateZstd(std::string_view data, const std::string& path,
                             uint64_t max_bytes) {
  const std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(
      ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!ctx) {
    throw ConfigError(path +
                      ": cannot allocate a zstd decompression context. Fix: "
                      "free memory, or decompress the trace first (zstd -d)");
  }
  std::string out;
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  const size_t chunk = ZSTD_DStreamOutSize();
  const std::string fix = "download the trace again, or check it with zstd -t";
  while (true) {
    // Room for one byte past the cap tells a stream that is too large.
    const size_t used = out.size();
    out.resize(used + std::min<uint64_t>(chunk, max_bytes + 1 - used));
    ZSTD_outBuffer o{out.data() + used, out.size() - used, 0};
    const size_t left = ZSTD_decompressStream(ctx.get(), &o, &in);
    const bool room_left = o.pos < o.size;
    out.resize(used + o.pos);
    if (ZSTD_isError(left)) {
      throw ConfigError(path + ": a corrupt zstd stream at byte " +
                        std::to_string(in.pos) + " (" +
                        ZSTD_getErrorName(left) + "). Fix: " + fix);
    }
    if (out.size() > max_bytes) {
      throw ConfigError(
          path + ": the zstd stream inflates past " +
          (max_bytes >= (1 << 20) ? std::to_string(max_bytes >> 20) + " MiB"
                                  : std::to_string(max_bytes) + " bytes") +
          ", more than trace-stats reads at once. Fix: profile a part "
          "of the trace (zstd -dc TRACE | head -c BYTES > part, keeping "
          "whole records)");
    }
    if (in.pos == in.size && room_left) {
      if (left == 0) break;  // the last frame ended with the input
      throw ConfigError(path +
                        ": the zstd stream is cut short (its last frame "
                        "does not end). Fix: " +
                        fix);
    }
  }
  return out;
}

}  // namespace tierbench
