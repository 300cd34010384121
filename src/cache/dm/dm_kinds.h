// The LayerKinds (cache/layer_kind.h) of the device-mapper layers:
// dm-cache, dm-writecache and lvmcache (which drives dm-cache's kernel
// target). Names, modes, knob checks, runs.csv columns and verify orders
// only; no device access, so mode-file validation (and its fuzz target)
// links without the layers.
#ifndef TIERBENCH_CACHE_DM_DM_KINDS_H_
#define TIERBENCH_CACHE_DM_DM_KINDS_H_

#include "cache/layer_kind.h"

namespace tierbench {

LayerKind DmCacheKind();
LayerKind DmWritecacheKind();
LayerKind LvmcacheKind();

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_KINDS_H_
