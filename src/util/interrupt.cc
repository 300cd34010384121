#include "util/interrupt.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "util/clock.h"
#include "util/errors.h"
#include "util/units.h"

namespace tierbench {
namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};

void Handler(int signo) {
  int n = g_count.fetch_add(1) + 1;
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signo);
  if (n >= 2) {
    static const char kMsg[] =
        "\ntierbench: second signal: aborting now without cleanup; if a "
        "compare changed a cache layer, 'tierbench restore' puts it back\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
    (void)ignored;
    ::_exit(128 + signo);
  }
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = Handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // No SA_RESTART: blocking calls return EINTR.
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool Interrupted() { return g_signal.load(std::memory_order_relaxed) != 0; }

void SleepUntilOrInterrupted(uint64_t deadline_ns) {
  constexpr uint64_t kSliceNs = 50 * kNsPerMs;
  for (uint64_t now = NowNs(); now < deadline_ns && !Interrupted();
       now = NowNs()) {
    const uint64_t slice = std::min(deadline_ns - now, kSliceNs);
    timespec ts{static_cast<time_t>(slice / kNsPerSec),
                static_cast<long>(slice % kNsPerSec)};
    nanosleep(&ts, nullptr);
  }
}
int InterruptSignal() { return g_signal.load(); }

void ThrowIfInterrupted(const std::string& where) {
  if (!Interrupted()) return;
  const int sig = InterruptSignal();
  throw InterruptedError(std::string("interrupted by ") +
                             (sig == SIGTERM ? "SIGTERM" : "SIGINT") + " " +
                             where + ". Key: finished cells are in runs.csv",
                         sig == 0 ? SIGINT : sig);
}

void ResetInterruptForTest() {
  g_signal.store(0);
  g_count.store(0);
}

void RaiseInterruptForTest(int signo) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signo);
  g_count.fetch_add(1);
}

}  // namespace tierbench
