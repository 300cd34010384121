// DmDevice: what the device-mapper layers (dm-cache, dm-writecache,
// lvmcache) share about ONE dm device: its names, its single-target table
// and status through DmControl (libdevmapper), the kernel names of the
// devices its table refers to ("252:1" -> "dm-1"), every block device under
// it (sysfs slaves, recursively) and block-layer counters.
//
// Naming: `device` is the path the user gave (/dev/mapper/NAME, /dev/dm-N,
// /dev/VG/LV); the kernel name is "dm-N" (sys/block/dm-N), the dm name is
// sys/block/dm-N/dm/name ("tb-dmcache", "vg-main").
//
// Errors: SysError naming the dm device, the ioctl and the kernel's refusal
// (the Status of DmControl). Thread-safety: none (one object, one thread).
#ifndef TIERBENCH_CACHE_DM_DM_DEVICE_H_
#define TIERBENCH_CACHE_DM_DM_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "cache/block_stat.h"
#include "cache/dm/dm_control.h"
#include "util/sysfs.h"

namespace tierbench {

class DmDevice {
 public:
  // Resolves `device` to a dm device. Throws SysError when it is none.
  DmDevice(Sysfs sysfs, std::shared_ptr<DmControl> dm, std::string device);

  // When `device` is a dm device, stores its kernel name ("dm-3") and dm
  // name and returns true. Never throws.
  static bool Resolve(const Sysfs& sysfs, const std::string& device,
                      std::string* kernel_name, std::string* dm_name);

  const std::string& device() const { return device_; }
  const std::string& kernel_name() const { return kernel_name_; }
  const std::string& dm_name() const { return dm_name_; }
  // sys/block/<kernel>/dm/uuid ("" when unset): "LVM-..." for LVM volumes.
  std::string Uuid() const;
  const Sysfs& sysfs() const { return sysfs_; }
  DmControl& dm() const { return *dm_; }

  // The live table: exactly one target of type `type` (SysError otherwise).
  DmTarget Target(const std::string& type) const;
  // The status line of that target.
  DmTarget StatusOf(const std::string& type) const;
  // The live table as one text line per target ("start length type
  // params"), for records and comparisons.
  std::string TableText() const;
  // Makes `target` the live table (load, suspend, resume). SysError with
  // the kernel's refusal and `why` (what tierbench was doing).
  void Reload(const DmTarget& target, const std::string& why);
  // Sends a target message. SysError naming the message.
  void Message(const std::string& message);

  // Kernel name of a device token of a table ("252:1", "/dev/vda2").
  std::string KernelNameOf(const std::string& token) const;
  // Every block device under this one (slaves, recursively), then itself.
  std::vector<std::string> Members() const;
  // Block-layer counters of kernel device `name`. SysError.
  BlockStat Stat(const std::string& name) const;

 private:
  Sysfs sysfs_;
  std::shared_ptr<DmControl> dm_;
  std::string device_;
  std::string kernel_name_;
  std::string dm_name_;
};

// The shared DmControl of a process: the real libdevmapper one unless a
// test injected another (null -> made on first use).
std::shared_ptr<DmControl> DmControlOrDefault(std::shared_ptr<DmControl> dm);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_DEVICE_H_
