// The cache layers tierbench knows, by name, and the detection that opens
// the right CacheLayer for a device. This is the one place in src/cache that
// lists every layer; everything above src/cache uses these tables.
//
// LayerKind: what mode files of the layer may say (modes, knob groups and
// their validation), the layer-only CSV columns it adds to runs.csv and the
// modes `compare --verify` visits (verify_order).
// An ExtraColumn's value comes from the cell's counter delta `extra[key]`,
// else from the read-back setting `key`; empty when neither exists.
//
// OpenCacheStack(env, device) detects the layer behind `device`:
//   bcache        sys/block/<name>/bcache exists (a registered bcache device)
//   dm targets    sys/block/<name>/dm exists; the live table's target type
//                 names the layer (cache -> dm-cache, writecache ->
//                 dm-writecache); a `cache` target of an LVM volume (dm
//                 uuid "LVM-...") is an lvmcache stack, controlled through
//                 the lvm tools (env.lvm).
// Errors: SysError naming the device and the fix when it is no known stack
// or its layer is missing from the kernel.
// Thread-safety: the tables are immutable; OpenCacheStack is reentrant.
#ifndef TIERBENCH_CACHE_LAYER_REGISTRY_H_
#define TIERBENCH_CACHE_LAYER_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cache/cache_layer.h"
#include "cache/dm/lvmcache_layer.h"
#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

class DmControl;

struct ExtraColumn {
  std::string column;  // runs.csv column ("bcache_bypass_hits")
  std::string key;     // LayerDelta::extra key or read-back setting name
  std::string help;    // one line for the README and --help
};

struct LayerKind {
  std::string name;                      // as in mode files: "bcache"
  std::string summary;                   // one line
  std::vector<std::string> modes;        // valid "cache_mode" values
  std::vector<std::string> knob_groups;  // JSON keys holding knobs
  // Validates one knob of `group`; InvalidArgument naming it and the fix.
  std::function<Status(std::string_view group, std::string_view name,
                       std::string_view value)>
      check_knob;
  std::vector<ExtraColumn> extra_columns;
  // compare --verify: the modes the data check visits, in order. The first
  // is the mode the check data is written in (one that leaves it dirty in
  // the cache: writeback); the data is read back after switching to each.
  std::vector<std::string> verify_order;
};

// Every layer, in a stable order (bcache first).
const std::vector<LayerKind>& AllLayerKinds();
const LayerKind* FindLayerKind(std::string_view name);
// "bcache, dm-cache, ..." for messages.
std::string LayerKindNames();

struct LayerEnv {
  Sysfs sysfs;
  // Device-mapper access; null: the real libdevmapper one, made when a dm
  // device is opened.
  std::shared_ptr<DmControl> dm;
  // Runs the lvm tools for lvmcache stacks; null: DefaultLvmRunner().
  LvmRunner lvm;
};

// Opens the stack behind `device` (see above). Throws SysError.
std::unique_ptr<CacheLayer> OpenCacheStack(const LayerEnv& env,
                                           const std::string& device);

// The kernel block device name behind `device`: for the real root the
// device node is stat'ed and looked up in sys/dev/block; for a test root
// (and when that fails) its basename.
std::string KernelDeviceName(const Sysfs& sysfs, const std::string& device);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_LAYER_REGISTRY_H_
