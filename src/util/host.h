// Host: the one seam between tierbench and the machine it drives (leveldb's
// Env). Everything a command reads from or does to the operating system
// beyond its own block IO goes through the Host it is handed:
//   - sysfs: the kernel's views under sys/ and proc/ (util/sysfs.h);
//   - dm: the device-mapper ioctls (cache/dm/dm_control.h);
//   - lvm: the lvm tools, run to completion;
//   - sleep and now_ns: the clock the protocol waits on and times itself by
//     (counter folds, drains, the time to clean).
// cli/ makes the real one (RealHost: sysfs at --sysfs-root, libdevmapper,
// `lvm`, the monotonic clock) and hands it to compare and restore, which pass
// its sysfs on to the workload and database runs (RunOptions::sysfs,
// DbCellOptions::os); unit tests hand in one fake (a sysfs tree in a
// temporary directory with a kernel-emulating write hook, a fake DmControl,
// a scripted lvm, a fake clock). An empty member means the real thing, so a
// fake replaces only what its test needs.
//
// Thread-safety: copies share the fakes' state; the real members are
// thread-safe; Sleep and Now may be called from any thread when the hooks
// given are.
#ifndef TIERBENCH_UTIL_HOST_H_
#define TIERBENCH_UTIL_HOST_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "util/sysfs.h"

namespace tierbench {

class DmControl;  // cache/dm/dm_control.h

// The outcome of one lvm tool run.
struct LvmToolResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr combined
};

// Runs the lvm tool argv[0] ("lvchange", "lvs") with argv[1..]. Throws
// SysError only when the tool cannot be started at all.
using LvmRunner =
    std::function<LvmToolResult(const std::vector<std::string>& argv)>;

struct Host {
  Sysfs sysfs;
  // Device-mapper access; null: the real libdevmapper one, made when a dm
  // device is opened.
  std::shared_ptr<DmControl> dm;
  // Runs the lvm tools for lvmcache stacks; null: DefaultLvmRunner()
  // (cache/dm/lvmcache_layer.h).
  LvmRunner lvm;
  // Waits `seconds`; must return early when Interrupted(). Empty: sleeps in
  // 100 ms steps.
  std::function<void(double seconds)> sleep;
  // CLOCK_MONOTONIC in ns; empty: NowNs() (util/clock.h).
  std::function<uint64_t()> now_ns;

  void Sleep(double seconds) const;
  uint64_t Now() const;
};

// A Host that sees the kernel through `sysfs` (and `dm`, `lvm` when given),
// with the real clock: what `tierbench restore` and tests of the layers use.
Host HostOn(Sysfs sysfs, std::shared_ptr<DmControl> dm = nullptr,
            LvmRunner lvm = nullptr);

// The machine itself, its sysfs and procfs under `sysfs_root` ("/" but for
// tests of the command line).
Host RealHost(const std::string& sysfs_root = "/");

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_HOST_H_
