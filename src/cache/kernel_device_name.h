// KernelDeviceName: the kernel block device name ("bcache0", "dm-3") behind
// a device path as given (/dev/bcache0, /dev/mapper/NAME), the name its
// sys/block/<name> folder has. For the real root the device node is stat'ed
// and looked up in sys/dev/block; for a test root (and when that fails) it
// is the path's basename. Never fails; thread-safe (reads only).
#ifndef TIERBENCH_CACHE_KERNEL_DEVICE_NAME_H_
#define TIERBENCH_CACHE_KERNEL_DEVICE_NAME_H_

#include <string>

#include "util/sysfs.h"

namespace tierbench {

std::string KernelDeviceName(const Sysfs& sysfs, const std::string& device);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_KERNEL_DEVICE_NAME_H_
