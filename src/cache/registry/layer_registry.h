// OpenCacheStack: the detection that opens the right CacheLayer for a
// device, the one place in src/cache that names every layer's class (the
// table of their kinds is layer_kinds.h); everything above src/cache opens
// stacks through it.
//
// OpenCacheStack(host, device) detects the layer behind `device`:
//   bcache        sys/block/<name>/bcache exists (a registered bcache device)
//   dm targets    sys/block/<name>/dm exists; the live table's target type
//                 names the layer (cache -> dm-cache, writecache ->
//                 dm-writecache); a `cache` target of an LVM volume (dm
//                 uuid "LVM-...") is an lvmcache stack, controlled through
//                 the lvm tools (host.lvm).
// <name> is KernelDeviceName(host.sysfs, device) (cache/kernel_device_name.h).
// Errors: SysError naming the device and the fix when it is no known stack
// or its layer is missing from the kernel.
// The layer sleeps through host.sleep when it is set.
// Thread-safety: OpenCacheStack is reentrant.
#ifndef TIERBENCH_CACHE_REGISTRY_LAYER_REGISTRY_H_
#define TIERBENCH_CACHE_REGISTRY_LAYER_REGISTRY_H_

#include <memory>
#include <string>

#include "cache/cache_layer.h"
#include "cache/dm/lvmcache_layer.h"
#include "util/host.h"

namespace tierbench {

// Opens the stack behind `device` (see above). Throws SysError.
std::unique_ptr<CacheLayer> OpenCacheStack(const Host& host,
                                           const std::string& device);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_REGISTRY_LAYER_REGISTRY_H_
