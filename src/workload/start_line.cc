#include "workload/start_line.h"

#include <time.h>

#include "util/clock.h"
#include "util/units.h"

namespace tierbench {

StartLine::StartLine(size_t runners, uint64_t settle_ns)
    : runners_(runners), opens_at_ns_(NowNs() + settle_ns) {}

void StartLine::ArriveAndWait() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (++arrived_ >= runners_) {
      all_arrived_.notify_all();
    } else {
      all_arrived_.wait(lock, [this] { return arrived_ >= runners_; });
    }
  }
  // Asleep, not spinning: the pause is what lets the CPUs settle. A signal
  // cuts a nanosleep short; the loop sleeps the rest (at most settle_ns).
  for (uint64_t now = NowNs(); now < opens_at_ns_; now = NowNs()) {
    const uint64_t left = opens_at_ns_ - now;
    timespec ts{static_cast<time_t>(left / kNsPerSec),
                static_cast<long>(left % kNsPerSec)};
    nanosleep(&ts, nullptr);
  }
}

}  // namespace tierbench
