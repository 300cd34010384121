#include "cache/registry/layer_registry.h"

#include "cache/bcache/bcache_layer.h"
#include "cache/dm/dm_cache_layer.h"
#include "cache/dm/dm_device.h"
#include "cache/dm/dm_writecache_layer.h"
#include "cache/dm/lvmcache_layer.h"
#include "cache/kernel_device_name.h"
#include "cache/registry/layer_kinds.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::unique_ptr<CacheLayer> Open(const Host& host, const std::string& device) {
  const Sysfs& sysfs = host.sysfs;
  const std::string name = KernelDeviceName(sysfs, device);
  if (BcacheLayer::Detect(sysfs, name)) {
    return std::make_unique<BcacheLayer>(sysfs, device);
  }
  std::string kernel, dm_name;
  if (DmDevice::Resolve(sysfs, device, &kernel, &dm_name)) {
    std::shared_ptr<DmControl> dm = DmControlOrDefault(host.dm);
    std::vector<DmTarget> table;
    Status s = dm->GetTable(dm_name, &table);
    if (!s.ok()) {
      throw SysError::From(
          "cannot read the table of dm device " + dm_name + " (" + device + ")",
          s);
    }
    const std::string type = table.size() == 1 ? table[0].type : "";
    std::string uuid;
    sysfs.Read("sys/block/" + kernel + "/dm/uuid", &uuid).ok();
    if (type == kDmCacheTargetType && uuid.rfind("LVM-", 0) == 0) {
      // LVM owns this table: the lvm tools change it, never a reload.
      return std::make_unique<LvmcacheLayer>(sysfs, dm, device, host.lvm);
    }
    if (type == kDmWritecacheTargetType && uuid.rfind("LVM-", 0) == 0) {
      throw SysError(
          "an LVM writecache volume. Device: " + device +
          "; tierbench does not reload LVM's tables behind its back. Fix: "
          "compare a plain dm-writecache device (dmsetup create), or "
          "`lvconvert --splitcache` and build one");
    }
    if (type == kDmCacheTargetType) {
      return std::make_unique<DmCacheLayer>(sysfs, dm, device);
    }
    if (type == kDmWritecacheTargetType) {
      return std::make_unique<DmWritecacheLayer>(sysfs, dm, device);
    }
    throw SysError("dm device " + dm_name + " (" + device +
                   ") is no cache stack: its table is " +
                   (table.empty()
                        ? std::string("empty")
                        : std::to_string(table.size()) + " target(s), first '" +
                              table[0].type + "'") +
                   ". Fix: give a dm `cache` or `writecache` device");
  }
  const bool bcache_loaded = BcacheDevice::ModulePresent(sysfs);
  const bool dm_loaded = sysfs.Exists("sys/module/dm_mod") ||
                         sysfs.Exists("sys/class/misc/device-mapper");
  if (!bcache_loaded && !dm_loaded) {
    throw SysError("no bcache and no device-mapper in this kernel. Device: " +
                   device + "; Path: " + sysfs.Path("sys/fs/bcache") +
                   " is missing; Fix: use `tierbench lab`, or `modprobe "
                   "bcache` / `modprobe dm-cache`");
  }
  throw SysError("not a cache stack tierbench knows. Device: " + device +
                 "; Kernel name: " + name +
                 "; Fix: give --stack a registered bcache device "
                 "(/dev/bcacheN) or a dm cache/writecache device "
                 "(/dev/mapper/NAME); known layers: " +
                 LayerKindNames());
}

}  // namespace

std::unique_ptr<CacheLayer> OpenCacheStack(const Host& host,
                                           const std::string& device) {
  std::unique_ptr<CacheLayer> layer = Open(host, device);
  // The layer waits (counter folds, drains) on the host's clock.
  if (host.sleep) layer->set_sleep(host.sleep);
  return layer;
}

}  // namespace tierbench
