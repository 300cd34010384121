// Monotonic time in nanoseconds (CLOCK_MONOTONIC). Thread-safe.
#ifndef TIERBENCH_UTIL_CLOCK_H_
#define TIERBENCH_UTIL_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace tierbench {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CLOCK_H_
