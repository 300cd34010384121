// Monotonic time in nanoseconds (CLOCK_MONOTONIC) and wall-clock stamps.
// Thread-safe.
#ifndef TIERBENCH_UTIL_CLOCK_H_
#define TIERBENCH_UTIL_CLOCK_H_

#include <time.h>

#include <cstdint>
#include <ctime>
#include <string>

namespace tierbench {

// The current wall-clock time in UTC, formatted with strftime(3) `format`
// (at most 63 characters of output). Thread-safe (gmtime_r).
inline std::string FormatUtcNow(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  const size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

// The current UTC time as "2024-01-31T12:00:00Z" (ISO 8601).
inline std::string UtcNow() { return FormatUtcNow("%Y-%m-%dT%H:%M:%SZ"); }

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CLOCK_H_
