// RateLimiter: simple token pacing for rate_iops= (one per direction).
//
// An IO may start when the clock reaches NextAllowedNs(); Consume() books it
// and moves the next slot one period on. A limiter that fell behind (e.g.
// while the device stalled) grants at most one period of catch-up, so it
// never bursts. Rate 0 means unlimited. Not thread-safe (one per job thread).
#ifndef TIERBENCH_WORKLOAD_RATE_LIMITER_H_
#define TIERBENCH_WORKLOAD_RATE_LIMITER_H_

#include <algorithm>
#include <cstdint>

namespace tierbench {

class RateLimiter {
 public:
  RateLimiter() = default;
  explicit RateLimiter(uint64_t iops)
      : period_ns_(iops > 0 ? 1000000000ull / iops : 0) {}

  bool limited() const { return period_ns_ > 0; }
  // True when an IO may start at `now_ns`.
  bool Ready(uint64_t now_ns) const {
    return period_ns_ == 0 || now_ns >= next_ns_;
  }
  uint64_t NextAllowedNs() const { return next_ns_; }
  // Books one IO started at `now_ns`.
  void Consume(uint64_t now_ns) {
    if (period_ns_ == 0) return;
    // The first IO starts the clock; later ones may catch up one period.
    uint64_t floor =
        next_ns_ == 0 ? now_ns : now_ns - std::min(now_ns, period_ns_);
    next_ns_ = std::max(next_ns_, floor) + period_ns_;
  }

 private:
  uint64_t period_ns_ = 0;
  uint64_t next_ns_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_RATE_LIMITER_H_
