// Device guard: may tierbench write to a block device?
//
// Shared by `tierbench run` (write jobs on block devices) and `tierbench
// compare` (its HDD/SSD devices). A device is refused when
//  - it or one of its partitions is mounted (<proc>/self/mountinfo, by
//    major:minor and by source path) or is an active swap (<proc>/swaps);
//  - it or one of its partitions has holders (sys/class/block/X/holders is
//    non-empty: a registered bcache backing/cache device, a device-mapper
//    table (dm-cache, dm-writecache, linear...) or an LVM volume, MD); the
//    message names the holder (a dm holder by its dm name, an LVM volume as
//    such);
//  - it carries any signature libblkid knows (what wipefs(8) lists):
//    filesystems (ext4, XFS, btrfs, vfat, NTFS...), RAID members (MD, ZFS,
//    LVM2 PV), crypto (LUKS), swap, bcache, and partition tables (GPT, MBR
//    "dos" -- also one with an empty table but a boot signature).
// Even with allow_mounted (fio's allow_mounted_write=1) a device that holds
// "/", "/boot" or "/boot/..." is refused: the system disk is never written.
// All OS paths go through the Sysfs seam (util/sysfs.h: sys/ and proc/
// under one root), so unit tests use a fake tree.
//
// The functions return Status (OK, or kBusy / kNotFound / kIoError with a
// message naming the device and the fix); callers turn failures into
// SafetyError/SysError. Thread-safe (no shared state).
#ifndef TIERBENCH_IO_DEVICE_GUARD_H_
#define TIERBENCH_IO_DEVICE_GUARD_H_

#include <string>

#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

// A block device as the kernel names it in /sys/class/block.
struct BlockDeviceId {
  unsigned major = 0;
  unsigned minor = 0;
  std::string name;  // "loop0", "sdb"
};

// Resolves a device node ("/dev/loop0") to its id through stat(2) and
// sys/dev/block/M:m. kNotFound when missing, kInvalidArgument when it is
// not a block device.
Status ResolveBlockDevice(const std::string& dev_path, const Sysfs& os,
                          BlockDeviceId* id);

// OK when neither the device nor any of its partitions is mounted, used as
// swap or held; otherwise kBusy with the reason.
Status CheckDeviceNotInUse(const BlockDeviceId& id, const Sysfs& os);
Status CheckDeviceNotInUse(const std::string& dev_path, const Sysfs& os);
// With allow_mounted (fio's allow_mounted_write=1) mounts are not refused;
// swap and holders still are.
Status CheckDeviceNotInUse(const BlockDeviceId& id, const Sysfs& os,
                           bool allow_mounted);

// Probes `path` (a device or an image file) with libblkid. Sets *signature
// to "" when none is found, else to short names joined by " and a " ("ext4
// filesystem", "GPT partition table", "LUKS encrypted volume (crypto_LUKS)",
// "bcache superblock", ...). kNotFound when `path` is missing.
Status DetectSignature(const std::string& path, std::string* signature);

// CheckDeviceNotInUse + no signature: OK when `dev_path` may be overwritten.
Status CheckDeviceWritable(const std::string& dev_path, const Sysfs& os);

// fio's allow_mounted_write=1: a mounted device, and the filesystem
// signature it carries, may be written; the system disk ("/", "/boot"), an
// active swap and holders (bcache, device-mapper, LVM, MD) are still refused.
Status CheckDeviceWritableAllowMounted(const std::string& dev_path,
                                       const Sysfs& os);

}  // namespace tierbench

#endif  // TIERBENCH_IO_DEVICE_GUARD_H_
