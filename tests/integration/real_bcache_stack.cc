#include "real_bcache_stack.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cache/bcache/bcache_device.h"

namespace tierbench::testing {
namespace {

void WriteSys(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
}

}  // namespace

std::string DeviceBase(const std::string& dev) {
  return dev.substr(dev.rfind('/') + 1);
}

RealBcacheStack::RealBcacheStack(uint64_t backing_bytes, uint64_t cache_bytes)
    : hdd_(backing_bytes, "/tmp"), ssd_(cache_bytes, "/tmp") {}

RealBcacheStack::~RealBcacheStack() {
  if (!bcache_.empty()) {
    WriteSys("/sys/block/" + bcache_ + "/bcache/stop", "1");
  }
  if (!cset_.empty()) WriteSys("/sys/fs/bcache/" + cset_ + "/stop", "1");
  // Let the kernel release the loop devices before losetup -d.
  auto busy = [this] {
    return (!cset_.empty() &&
            std::filesystem::exists("/sys/fs/bcache/" + cset_)) ||
           (!bcache_.empty() &&
            std::filesystem::exists("/sys/block/" + bcache_));
  };
  for (int i = 0; i < 50 && busy(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string RealBcacheStack::Build() {
  if (!hdd_.ok()) return hdd_.error();
  if (!ssd_.ok()) return ssd_.error();
  std::string out;
  if (RunShell("make-bcache --bucket 64k --wipe-bcache -B " + hdd_.device() +
                   " -C " + ssd_.device() + " 2>&1",
               &out) != 0) {
    return "make-bcache failed: " + out;
  }
  WriteSys("/sys/fs/bcache/register", ssd_.device());
  WriteSys("/sys/fs/bcache/register", hdd_.device());
  for (int i = 0; i < 100 && bcache_.empty(); ++i) {
    for (const std::string& name : BcacheDevice::List(Sysfs())) {
      std::string backing;
      Sysfs().Read("sys/block/" + name + "/bcache/backing_dev_name", &backing);
      if (backing == DeviceBase(hdd_.device())) bcache_ = name;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (bcache_.empty())
    return "no /sys/block/bcacheN appeared for " + hdd_.device();
  cset_ = BcacheDevice(Sysfs(), bcache_).Topology().cset_uuid;
  return cset_.empty() ? "backing device registered without its cache" : "";
}

}  // namespace tierbench::testing
