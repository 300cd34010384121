#include "cache/kernel_device_name.h"

#include "io/device_guard.h"

namespace tierbench {
namespace {

std::string DevicePathBaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string KernelDeviceName(const Sysfs& sysfs, const std::string& device) {
  BlockDeviceId id;
  if (sysfs.IsRealRoot() && ResolveBlockDevice(device, sysfs, &id).ok()) {
    return id.name;
  }
  return DevicePathBaseName(device);
}

}  // namespace tierbench
