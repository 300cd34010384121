#include "util/host.h"

#include <unistd.h>

#include <utility>

#include "util/clock.h"
#include "util/interrupt.h"

namespace tierbench {

void Host::Sleep(double seconds) const {
  if (seconds <= 0) return;
  if (sleep) {
    sleep(seconds);
    return;
  }
  const int steps = static_cast<int>(seconds * 10 + 0.5);
  for (int i = 0; i < steps && !Interrupted(); ++i) ::usleep(100 * 1000);
}

uint64_t Host::Now() const { return now_ns ? now_ns() : NowNs(); }

Host HostOn(Sysfs sysfs, std::shared_ptr<DmControl> dm, LvmRunner lvm) {
  Host host;
  host.sysfs = std::move(sysfs);
  host.dm = std::move(dm);
  host.lvm = std::move(lvm);
  return host;
}

Host RealHost(const std::string& sysfs_root) {
  return HostOn(Sysfs(sysfs_root));
}

}  // namespace tierbench
