// DmControl: the one seam through which tierbench talks to device-mapper
// (the dm ioctls behind dmsetup), so that the dm-cache / dm-writecache layers
// can be unit-tested against a fake (tests/support/fake_dm.h).
//
// Devices are addressed by their dm name ("tb-dmcache"), never by a
// /dev/mapper path: the lab guest has no udev, and nothing here creates or
// needs device nodes. Tables and status lines are lists of DmTarget, one per
// target, as "dmsetup table" / "dmsetup status" print them.
//
// Low-level: every method returns a Status, never throws. A failed kernel
// call gives a one-line message naming the operation and the device, with
// libdevmapper's own error text when there is one, e.g.
//   "reload tb-dmcache: device-mapper: reload ioctl on tb-dmcache  failed:
//    Invalid argument"
// (the kernel's reason for a refused table goes to the kernel log, not to
// the caller: dm-cache's "Cannot enter passthrough mode unless all blocks
// are clean" comes back only as EINVAL). Codes: no such device -> NotFound,
// EINVAL -> InvalidArgument, EBUSY -> Busy, EPERM/EACCES -> PermissionDenied,
// anything else -> IoError.
//
// Thread-safety: the real implementation serialises its calls with a
// process-wide mutex (libdevmapper's logging hook is global); implementations
// may be shared between threads.
#ifndef TIERBENCH_CACHE_DM_DM_CONTROL_H_
#define TIERBENCH_CACHE_DM_DM_CONTROL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace tierbench {

// One table or status line: "start length type params" (sectors of 512 B).
// For a status line, params is the target's status text.
struct DmTarget {
  uint64_t start = 0;
  uint64_t length = 0;
  std::string type;
  std::string params;
};

// "start length type params" (as dmsetup prints a line).
std::string FormatDmTarget(const DmTarget& target);
// Parses one such line; InvalidArgument quoting it when malformed.
Status ParseDmTarget(std::string_view line, DmTarget* out);

struct DmDeviceInfo {
  std::string name;
  std::string uuid;
  unsigned major = 0, minor = 0;
  bool suspended = false;
  int open_count = 0;
  int target_count = 0;  // Of the live table.
};

class DmControl {
 public:
  virtual ~DmControl() = default;

  // Facts about device `name`. NotFound when no such device.
  virtual Status Info(const std::string& name, DmDeviceInfo* out) const = 0;

  // The LIVE table (DM_DEVICE_TABLE), devices shown as major:minor.
  virtual Status GetTable(const std::string& name,
                          std::vector<DmTarget>* out) const = 0;

  // DM_DEVICE_STATUS; each DmTarget's params is that target's status text.
  // The kernel commits dm-cache metadata before reporting (no noflush).
  virtual Status GetStatus(const std::string& name,
                           std::vector<DmTarget>* out) const = 0;

  // Makes `table` live: loads it into the inactive slot, suspends the device
  // (which flushes in-flight IO; dm-cache and dm-writecache commit their
  // metadata) and resumes it with the new table.
  //   - If the load fails (the kernel refuses the table) the device is
  //     unchanged, still live with its old table.
  //   - If suspend or resume fails, it drops the inactive table and tries to
  //     resume whatever is live, so the device is not left suspended, and
  //     returns the first error. When what is live cannot resume (the
  //     resume swapped the new table in and its target refused to resume),
  //     it loads the table that was live before back in and resumes that.
  //     Re-read the table to know which one is live.
  // The message names the device and the kernel's refusal.
  virtual Status Reload(const std::string& name,
                        const std::vector<DmTarget>& table) = 0;

  // DM_DEVICE_TARGET_MSG: sends `message` ("flush", "migration_threshold
  // 4096", "invalidate_cblocks 0-16") to the target covering `sector`.
  virtual Status Message(const std::string& name, uint64_t sector,
                         const std::string& message) = 0;

  // The dm name of device major:minor. NotFound when it is no dm device.
  virtual Status NameOf(unsigned major, unsigned minor,
                        std::string* name) const = 0;
};

// The real one, on libdevmapper's ioctl interface. Disables libdevmapper's
// udev synchronisation and its stderr logging (errors are captured into the
// returned Status instead). Needs root and the dm-mod module.
std::unique_ptr<DmControl> NewLibDevmapperControl();

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_CONTROL_H_
