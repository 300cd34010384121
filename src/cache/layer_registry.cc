#include "cache/layer_registry.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cache/bcache_knobs.h"
#include "cache/bcache_layer.h"
#include "cache/bcache_values.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Status CheckBcacheKnob(std::string_view group, std::string_view name,
                       std::string_view value) {
  const KnobScope scope =
      group == "cache_set_knobs" ? KnobScope::kCacheSet : KnobScope::kBacking;
  const KnobInfo* knob = FindKnob(scope, name);
  if (knob == nullptr) {
    return Status::InvalidArgument("unknown knob \"" + std::string(name) +
                                   "\" in \"" + std::string(group) +
                                   "\". Fix: use one of " + KnobNames(scope));
  }
  std::string ignored;
  Status s = KnobValueToWrite(*knob, value, &ignored);
  if (!s.ok()) {
    return Status::InvalidArgument(s.message() + ". Fix: " +
                                   std::string(knob->help));
  }
  return Status::Ok();
}

LayerKind BcacheKind() {
  LayerKind k;
  k.name = kBcacheLayerName;
  k.summary = "bcache through sysfs (/dev/bcacheN)";
  for (std::string_view m : kCacheModes) k.modes.emplace_back(m);
  k.knob_groups = {"knobs", "cache_set_knobs"};
  k.check_knob = CheckBcacheKnob;
  k.extra_columns = {
      {"bcache_bypass_hits", "bypass_hits",
       "reads that bypassed the cache but found the data cached"},
      {"bcache_bypass_misses", "bypass_misses",
       "reads that bypassed the cache and missed"},
      {"bcache_sequential_cutoff", "sequential_cutoff",
       "sequential_cutoff as read back"},
      {"bcache_congested_read_threshold_us", "congested_read_threshold_us",
       "congested_read_threshold_us as read back"},
      {"bcache_congested_write_threshold_us", "congested_write_threshold_us",
       "congested_write_threshold_us as read back"},
      {"bcache_cache_available_percent", "cache_available_percent",
       "cache_available_percent of the cache set after the cell"}};
  return k;
}

}  // namespace

const std::vector<LayerKind>& AllLayerKinds() {
  static const std::vector<LayerKind> kinds = {BcacheKind()};
  return kinds;
}

const LayerKind* FindLayerKind(std::string_view name) {
  for (const LayerKind& k : AllLayerKinds()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string LayerKindNames() {
  std::string out;
  for (const LayerKind& k : AllLayerKinds()) {
    out += (out.empty() ? "" : ", ") + k.name;
  }
  return out;
}

std::string KernelDeviceName(const Sysfs& sysfs, const std::string& device) {
  if (sysfs.IsRealRoot()) {
    struct stat st;
    if (::stat(device.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      const std::string rel = "sys/dev/block/" +
                              std::to_string(major(st.st_rdev)) + ":" +
                              std::to_string(minor(st.st_rdev));
      std::string canonical;
      if (sysfs.Resolve(rel, &canonical).ok()) return BaseName(canonical);
    }
  }
  return BaseName(device);
}

std::unique_ptr<CacheLayer> OpenCacheStack(const LayerEnv& env,
                                           const std::string& device) {
  const Sysfs& sysfs = env.sysfs;
  const std::string name = KernelDeviceName(sysfs, device);
  if (BcacheLayer::Detect(sysfs, name)) {
    return std::make_unique<BcacheLayer>(sysfs, device);
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
                 "(/dev/bcacheN); known layers: " +
                 LayerKindNames());
}

}  // namespace tierbench
