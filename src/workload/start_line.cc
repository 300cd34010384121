#include "workload/start_line.h"

#include "util/clock.h"
#include "util/interrupt.h"

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
  // Asleep, not spinning: the pause is what lets the CPUs settle.
  SleepUntilOrInterrupted(opens_at_ns_);
}

}  // namespace tierbench
